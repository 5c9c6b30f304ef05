"""Claude Code: a PreToolUse hook on Bash that wraps the command so its output is clipped.

Why before, not after (observed with @anthropic-ai/claude-code 2.1.330): a PostToolUse hook's
`updatedToolOutput` is applied only when the command exited 0, and the hook gets a copy already
cut to 30,000 characters; a failing command's output is cut by Claude Code itself to its first
and last 5,000 characters, so the end of a long failing log never reaches the model. A
PreToolUse hook that returns `updatedInput` with the command wrapped (shell.wrap: the command
runs unchanged in Claude Code's own shell, `cd` and exit status included) works for success
and failure alike, under the caps below. Claude Code applies `updatedInput` only together
with a permissionDecision, and "allow" skips its permission prompt — so the hook rewrites only
commands Claude Code would have run without asking anyway (permissions.claude_would_run), and
leaves every other command untouched.

Input (stdin):  {"hook_event_name": "PreToolUse", "tool_name": "Bash", "permission_mode": …,
                 "tool_input": {"command": …, "description": …, "timeout": …, …}, "cwd": …}
Reply (stdout): {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                 "permissionDecision": "allow", "updatedInput": {…every original key…,
                 "command": WRAPPED}}}    — or nothing at all: run the command as written.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import HookOptions, config, permissions, shell

NAME = "claude"
EVENT = "PreToolUse"
MATCHER = "Bash"
# Measured with 2.1.330: a successful output over 30,000 bytes is saved to a file and the model
# sees a 2 KB preview; a failing output over about 11,000 characters (11,000 passed whole,
# 12,000 did not) is cut to its first and last 5,000. Clipped output stays under these caps,
# with room for Claude Code's own "Exit code N" line.
MAX_BYTES = 28_000
MAX_FAILURE_BYTES = 10_000

NOTES = """\
Claude Code now runs every Bash command it would run without asking you through headroom: the
command itself runs unchanged (same shell, same directory, same exit status); only its output
is clipped to the budget, with a marker saying how to get the rest (`headroom show ID`).
Commands that Claude Code would ask about, that write to a file, or that run in the
background are left exactly as written. Start a new Claude Code session to load the hook."""


def default_path() -> Path:
    base = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return Path(base) / "settings.json"


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    group = {"matcher": MATCHER,
             "hooks": [{"type": "command", "command": config.hook_command(NAME, headroom),
                        "timeout": 30}]}
    return config.install_hook(path, NAME, EVENT, group, uninstall)


def handle(payload: bytes, options: HookOptions) -> bytes:
    def reply(event: dict, command: str) -> dict:
        return {"hookSpecificOutput": {
            "hookEventName": EVENT,
            "permissionDecision": "allow",
            "permissionDecisionReason": "headroom: output clipped to the token budget",
            "updatedInput": dict(event["tool_input"], command=command)}}

    return shell.rewrite_reply(payload, lambda event: rewrite(event, options), reply, b"")

def rewrite(event: object, options: HookOptions) -> str | None:
    """The wrapped command, or None to leave the call exactly as it is."""
    command = shell.command_to_wrap(event, EVENT, MATCHER, "run_in_background")
    if command is None or not permissions.claude_would_run(command, event):
        return None
    return shell.wrap_checked(command, filter_argv(options))


def filter_argv(options: HookOptions) -> list[str]:
    return shell.filter_argv(options.headroom or config.headroom_argv(), options.budget,
                             options.store, "--max-bytes", str(MAX_BYTES),
                             "--max-failure-bytes", str(MAX_FAILURE_BYTES))
