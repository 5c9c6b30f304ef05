"""GitHub Copilot CLI: a preToolUse hook on its `bash` tool that wraps the command.

Checked against @github/copilot 1.0.102 (its changelog.json, the SDK types it ships, and real
runs against a scripted model through its BYOK endpoint, COPILOT_PROVIDER_BASE_URL). Its
hooks live in JSON files under ~/.copilot/hooks/ (or a repository's .github/hooks/), each
{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": …, "timeoutSec": …}]}}
with lower-case event names; headroom writes a file of its own there, hooks/headroom.json,
and touches no other. Its `matcher` (a regex the whole tool name must match: "Fixed an issue
where preToolUse.matcher was ignored. After upgrade, hooks with matcher run only for tool
names that fully match the regex.", 1.0.36) keeps the hook to the shell tool, so Copilot
starts no process for its other tools (tests/e2e/test_e2e_copilot.py checks it). A
preToolUse reply's `modifiedArgs` replaces the tool's arguments ("preToolUse hooks now respect modifiedArgs/updatedInput", 1.0.24); the reply gives no
permissionDecision, since "allow" would skip Copilot's approval prompt. A hook that exits
non-zero denies the call ("Denied by preToolUse hook … (hook errored)", measured; an empty or
non-JSON reply lets it run), so this one always exits 0, and answers {} when it leaves the
call alone.

Copilot starts each command in a fresh process (no `cd` survives a call), so the command runs
in a subshell with its output piped into the filter (piped.wrap). Copilot saves an output over
about 20 KB (measured: 18.9 KB shown whole, 23.1 KB saved) to a file and shows the model only
its first 500 characters with the file's path; the filter stays under MAX_BYTES, so the model
gets the clip itself. A postToolUse reply's
`modifiedResult` can replace a result too, but by then Copilot has already cut a long output
down to that head: the command is rewritten before it runs instead. Copilot also checks every
absolute path a command names, the program's included: the first wrapped command asks for
access to headroom's directory (or Copilot runs with --add-dir DIR).

Input (stdin):  {"sessionId": …, "timestamp": …, "cwd": …, "toolName": "bash",
                 "toolArgs": {"command": …, "description": …, "mode": "sync" | "async", …}}
Reply (stdout): {"modifiedArgs": {…every original argument…, "command": WRAPPED}}
                — or {} : run the command as written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import HookOptions, config, piped, shell
from .plugins import plugin_change

NAME = "copilot"
TOOL = "bash"
MAX_BYTES = 16_000  # under the size (~20 KB) at which Copilot swaps an output for a file's path
TIMEOUT_SECONDS = 30

NOTES = """\
GitHub Copilot CLI now runs every shell command through headroom: the command itself runs
unchanged (same directory, same exit status, same approval rules); only its output is clipped
to the budget, with a marker saying how to get the rest (`headroom show ID`). Commands run in
async mode or that write their output to a file are left exactly as written. When Copilot asks
you to approve a command, it shows the wrapped one; it also asks once for access to
headroom's directory (the hook names headroom by absolute path): allow it, or start copilot
with --add-dir and that directory. Start a new Copilot session to load the hook."""


def copilot_home() -> Path:
    return Path(os.environ.get("COPILOT_HOME")
                or os.path.join(os.path.expanduser("~"), ".copilot"))


def default_path() -> Path:
    return copilot_home() / "hooks" / "headroom.json"


def hooks_file(headroom: list[str]) -> bytes:
    hook = {"type": "command", "bash": config.hook_command(NAME, headroom),
            "matcher": TOOL, "timeoutSec": TIMEOUT_SECONDS}
    return config.dump_json({"version": 1, "hooks": {"preToolUse": [hook]}})


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    return [plugin_change(path, hooks_file(headroom), f" hook {NAME}", uninstall)]


def handle(payload: bytes, options: HookOptions) -> bytes:
    def reply(event: dict, command: str) -> dict:
        return {"modifiedArgs": dict(as_event(event)["tool_input"], command=command)}

    return shell.rewrite_reply(payload, lambda event: rewrite(event, options), reply, b"{}")


def as_event(payload: dict) -> dict:
    """Copilot's payload in the shape the shared helpers read (tool_name, tool_input,
    session_id, cwd). `toolArgs` is an object in 1.0.102; a JSON text of one is read too
    (GitHub's hooks documentation has shown it that way)."""
    arguments = payload.get("toolArgs")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            arguments = None
    return {"tool_name": payload.get("toolName"), "tool_input": arguments,
            "session_id": payload.get("sessionId"), "cwd": payload.get("cwd")}


def rewrite(payload: dict, options: HookOptions) -> str | None:
    """The wrapped command, or None to leave the call exactly as it is."""
    event = as_event(payload)
    arguments = event["tool_input"]
    if isinstance(arguments, dict) and arguments.get("mode", "sync") != "sync":
        return None  # an async command's output is read while it runs
    return piped.rewrite(event, "preToolUse", TOOL, options, MAX_BYTES)
