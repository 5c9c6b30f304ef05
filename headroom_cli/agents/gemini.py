"""Gemini CLI: a BeforeTool hook on run_shell_command that wraps the command.

Checked against @google/gemini-cli 0.61.0 (its bundled docs/hooks/reference.md and code): an
AfterTool hook cannot replace a tool's output — `hookSpecificOutput.tool_output` is not
implemented (the pull request that proposed it, google-gemini/gemini-cli#19505, was closed),
and `decision: "deny"` turns the result into an error ("Tool result blocked: …"). So the hook
rewrites the command before it runs. Gemini CLI starts every command in a new shell (its own
process group; the directory comes from `dir_path`, not from an earlier `cd`), so the command
runs in a subshell with its output piped into the filter (piped.wrap: nothing written to disk,
which a sandboxed Gemini CLI may refuse; `exit N` and `exec` keep their status; no command
substitution, which Gemini CLI's shell tool refuses). Gemini CLI itself cuts a tool's output
over 40,000 characters (truncateToolOutputThreshold), so the filter stays under MAX_BYTES.
BeforeTool's `hookSpecificOutput.tool_input` replaces the tool's
arguments, so the reply carries every original argument with the command changed. Gemini CLI
then checks the rewritten command with its own policy and confirmation rules, as usual, and
tells the model "[System] Tool input parameters were modified by a hook before execution."

Input (stdin):  {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                 "tool_input": {"command": …, "description": …, "dir_path": …}, "cwd": …}
Reply (stdout): {"hookSpecificOutput": {"hookEventName": "BeforeTool",
                 "tool_input": {…every original argument…, "command": WRAPPED}}}
                — or {} : run the command as written (Gemini CLI wants JSON on stdout).
"""

from __future__ import annotations

import os
from pathlib import Path

from . import HookOptions, config, piped, shell

NAME = "gemini"
EVENT = "BeforeTool"
MATCHER = "run_shell_command"
HOOK_NAME = "headroom"
MAX_BYTES = 36_000  # under Gemini CLI's own 40,000-character cut

NOTES = """\
Gemini CLI now runs every shell command through headroom: the command itself runs unchanged
(same directory, same exit status); only its output is clipped to the budget, with a marker
saying how to get the rest (`headroom show ID`). Commands that write their output to a file
are left exactly as written. When Gemini CLI asks you to confirm a shell command, it shows the
wrapped command. Restart Gemini CLI to load the hook (`/hooks` lists it)."""


def default_path() -> Path:
    return Path(os.path.expanduser("~")) / ".gemini" / "settings.json"


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    group = {"matcher": MATCHER,
             "hooks": [{"type": "command", "name": HOOK_NAME,
                        "command": config.hook_command(NAME, headroom),
                        "description": "Clip shell output to a token budget (headroom)",
                        "timeout": 30000}]}
    return config.install_hook(path, NAME, EVENT, group, uninstall, comments=True)


def handle(payload: bytes, options: HookOptions) -> bytes:
    def reply(event: dict, command: str) -> dict:
        return {"hookSpecificOutput": {
            "hookEventName": EVENT,
            "tool_input": dict(event["tool_input"], command=command)}}

    return shell.rewrite_reply(payload, lambda event: rewrite(event, options), reply, b"{}")


def rewrite(event: dict, options: HookOptions) -> str | None:
    """The wrapped command, or None to leave the call exactly as it is."""
    return piped.rewrite(event, EVENT, MATCHER, options, MAX_BYTES, "is_background",
                         _directory(event))


def _directory(event: dict) -> str | None:
    """Where the command runs: the tool's `dir_path` (relative to the session's directory)."""
    tool_input = event.get("tool_input")
    where = tool_input.get("dir_path") if isinstance(tool_input, dict) else None
    cwd = event.get("cwd") if isinstance(event.get("cwd"), str) else None
    if not isinstance(where, str) or not where:
        return cwd
    return os.path.join(cwd, where) if cwd else where
