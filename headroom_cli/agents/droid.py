"""Factory Droid: a PreToolUse hook on its shell tool, Execute, that wraps the command.

Checked against droid 0.215.0 (the JavaScript inside its binary, and real runs of `droid exec`
against a scripted model through a `customModels` entry of its settings). Droid reads hooks
from the `hooks` of ~/.factory/settings.json in Claude Code's shape (the older
~/.factory/hooks.json is migrated into it); init adds one group there and changes nothing
else in the file. Droid's PostToolUse reply cannot replace an output (Droid uses it only
for messages and its exit code), so the hook rewrites the command before it runs. A
PreToolUse reply's `hookSpecificOutput.updatedInput` is merged into the tool's input
(`A = {...A, ...updatedInput}`) with or without a permissionDecision; this reply gives none,
so Droid's own autonomy level and risk check still decide whether the command runs.

Droid starts each command in a new shell, so the command runs in a subshell with its output
piped into the filter (piped.wrap), which exits with the command's status. A command Droid
runs in the background (`fireAndForget`) is left alone: its output is read while it runs.
Droid reports no context use to its hooks (its transcript holds no token counts), so the
budget is the hook's default.

Input (stdin):  {"session_id": …, "transcript_path": …, "cwd": …, "permission_mode": …,
                 "hook_event_name": "PreToolUse", "tool_name": "Execute",
                 "tool_input": {"command": …, "summary": …, "riskLevel": …, …}}
Reply (stdout): {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                 "updatedInput": {"command": WRAPPED}}}
                — or nothing: run the command as written.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import HookOptions, config, piped, shell

NAME = "droid"
EVENT = "PreToolUse"
MATCHER = "Execute"
# Droid cuts an output over about 10 KB itself (measured: 10,122 characters shown whole; 12,200
# became its first ~5,700 and a saved file's path): the clip stays under that.
MAX_BYTES = 8_000

NOTES = """\
Factory Droid now runs every shell command through headroom: the command itself runs
unchanged (same directory, same exit status, same autonomy and risk rules); only its output is
clipped to the budget, with a marker saying how to get the rest (`headroom show ID`). Commands
run in the background or that write their output to a file are left exactly as written.
Start a new droid session to load the hook (/hooks lists it)."""


def factory_home() -> Path:
    return Path(os.environ.get("FACTORY_HOME_OVERRIDE") or os.path.expanduser("~")) / ".factory"


def default_path() -> Path:
    return factory_home() / "settings.json"


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    group = {"matcher": MATCHER, "hooks": [config.command_hook(NAME, headroom)]}
    return config.install_hook(path, NAME, EVENT, group, uninstall, comments=True)


def handle(payload: bytes, options: HookOptions) -> bytes:
    def reply(event: dict, command: str) -> dict:
        return {"hookSpecificOutput": {"hookEventName": EVENT,
                                       "updatedInput": {"command": command}}}

    return shell.rewrite_reply(payload, lambda event: rewrite(event, options), reply, b"")


def rewrite(event: dict, options: HookOptions) -> str | None:
    """The wrapped command, or None to leave the call exactly as it is."""
    return piped.rewrite(event, EVENT, MATCHER, options, MAX_BYTES, "fireAndForget")
