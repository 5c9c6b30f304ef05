"""Crush: a PreToolUse hook on `bash` that wraps the command so its output is clipped.

Checked against Crush's source (charmbracelet/crush at 37f36e9, 2026-08-21: v0.90.0 and
five commits outside its hooks; npm @charmland/crush 0.96.1 only downloads the binary from
GitHub at install, which this machine cannot reach, so no end-to-end run exists; the structs
it was written from are quoted in tests/test_agents_crush.py): Crush has one hook event,
PreToolUse (internal/hooks), and no way to replace a tool's output, so the hook rewrites the command
before it runs. Its answer's `updated_input` is shallow-merged into the tool's input
(hooks.aggregate); the patch is applied before the bash tool's own permission check, which
then sees the wrapped command.

Crush runs each command in a new shell of its embedded POSIX interpreter (mvdan.cc/sh, a
background-shell job started in the tool's `working_dir`: no `cd` carries over between calls),
so the command runs in a subshell with its output piped into the filter (piped.wrap: nothing
written to disk, the status passed through). Crush cuts stdout over 30,000 characters to its
first and last halves (tools.MaxOutputLength); the filter stays under MAX_BYTES.

Crush runs read-only commands from a fixed list without asking (tools/safe.go: `ls`, `git
status`, …, only with no `;`, `|`, `&&`, `$(` or backquote). Their wrapped form is not on that
list, so for those alone the answer says `"decision": "allow"`: Crush would not have asked
anyway. Every other command gets no decision, and Crush asks about it as before.

Input (stdin):  {"event": "PreToolUse", "session_id": …, "cwd": …, "tool_name": "bash",
                 "tool_input": {"command": …, "description": …, "working_dir": …}}
Reply (stdout): {"updated_input": {"command": WRAPPED}[, "decision": "allow"]}
                — or nothing: run the command as written.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import HookOptions, config, flathooks, piped, shell

NAME = "crush"
EVENT = "PreToolUse"
MATCHER = "bash"
MAX_BYTES = 28_000  # under Crush's own 30,000-character cut
# tools/safe.go's safeCommands and chainingMetacharacters (Crush 37f36e9), as Crush tests them.
SAFE_COMMANDS = (
    "cal", "date", "df", "du", "echo", "env", "free", "groups", "hostname", "id", "kill",
    "killall", "ls", "nice", "nohup", "printenv", "ps", "pwd", "set", "time", "timeout", "top",
    "type", "uname", "unset", "uptime", "whatis", "whereis", "which", "whoami",
    "git blame", "git branch", "git config --get", "git config --list", "git describe",
    "git diff", "git grep", "git log", "git ls-files", "git ls-remote", "git remote",
    "git rev-parse", "git shortlog", "git show", "git status", "git tag")
_CHAINING = (";", "|", "&&", "$(", "`")

NOTES = """\
Crush now runs every bash command through headroom: the command itself runs unchanged (same
directory, same exit status); only its output is clipped to the budget, with a marker saying
how to get the rest (`headroom show ID`). Commands that write their output to a file or run in
the background are left exactly as written. When Crush asks you to approve a command, it shows
the wrapped command. Restart Crush to load the hook."""


def default_path() -> Path:
    configured = os.environ.get("CRUSH_GLOBAL_CONFIG")
    if configured:
        return Path(configured) / "crush.json"
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "crush" / "crush.json"


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    entry = {"name": "headroom", "matcher": f"^{MATCHER}$",
             "command": config.hook_command(NAME, headroom), "timeout": 30}
    return flathooks.install(path, NAME, {EVENT: entry}, uninstall)


def handle(payload: bytes, options: HookOptions) -> bytes:
    def reply(event: dict, command: str) -> dict:
        answer = {"updated_input": {"command": command}}
        if crush_would_not_ask(event["tool_input"]["command"]):
            answer["decision"] = "allow"
        return answer

    return shell.rewrite_reply(payload, lambda event: rewrite(event, options), reply, b"")


def crush_would_not_ask(command: str) -> bool:
    """Does Crush run `command` without asking (its read-only list)? Its own test, as written."""
    if any(mark in command for mark in _CHAINING):
        return False
    lower = command.lower()
    return any(lower.startswith(safe) and (len(lower) == len(safe) or lower[len(safe)] in " -")
               for safe in SAFE_COMMANDS)


def rewrite(event: dict, options: HookOptions) -> str | None:
    """The wrapped command, or None to leave the call exactly as it is."""
    if event.get("event", EVENT).replace("_", "").lower() != EVENT.lower():
        return None
    command = piped.command_of(event, EVENT, MATCHER, "run_in_background")
    if command is None:
        return None
    return piped.wrap_checked(command, filter_argv(options, event, command))


def filter_argv(options: HookOptions, event: dict | None = None, command: str = "") -> list[str]:
    tool_input = (event or {}).get("tool_input") or {}
    where = tool_input.get("working_dir") if isinstance(tool_input.get("working_dir"), str) \
        else None
    return shell.filter_argv(options.headroom or config.headroom_argv(), options.budget,
                             options.store, "--max-bytes", str(MAX_BYTES),
                             *shell.session_argv(event or {}, command, where or None))
