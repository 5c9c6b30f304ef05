"""Cursor: a preToolUse hook on Shell that wraps the command so its output is clipped, and a
postToolUse hook that clips MCP results.

Cursor cannot be installed here (no package in a registry this machine reaches), so this is
written from its documented hook protocol (cursor.com/docs/hooks) and tested with those
payloads (tests/test_agents_cursor.py); no end-to-end run exists. What it relies on:

- `~/.cursor/hooks.json` (or a project's `.cursor/hooks.json`): {"version": 1, "hooks":
  {EVENT: [{"command", "matcher", "timeout" (seconds)}]}}, lower-camel-case events, the
  matcher a regular expression on the tool's name. The file is read as JSONC by dropping
  `//` to the end of a line, so nothing we write may hold `//`.
- preToolUse is a permission hook: an answer that is not valid JSON *blocks* the tool, so
  the hook always answers a JSON object ({}: no change), and it never answers `permission`
  (that would approve commands Cursor would have asked about).
      in:  {"hook_event_name": "preToolUse", "tool_name": "Shell", "conversation_id": …,
            "tool_input": {"command": …, "cwd": …}, "workspace_roots": […], …}
      out: {"updated_input": {…every original key…, "command": WRAPPED}}
  A postToolUse answer cannot replace a Shell output (only add context after it, which adds
  tokens), so the command is rewritten before it runs, into the piped wrapper (piped.wrap:
  nothing written to disk, which Cursor's sandbox may refuse; the status passed through).
- postToolUse replaces an MCP tool's result with `updated_mcp_tool_output` (a string, or
  {"content": [{"type": "text", "text": …}]}):
      in:  {"hook_event_name": "postToolUse", "tool_name": "MCP:TOOL", "tool_input": …,
            "tool_output": "<the result as a JSON string: {\"content\": [...]}>", …}
      out: {"updated_mcp_tool_output": {"content": [{"type": "text", "text": CLIPPED}]}}
  Results with an image or a resource, errors, and results that fit are left alone ({}).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import HookOptions, config, flathooks, piped, shell
from .clip import clip_text, in_session
from .plugins import displayable

NAME = "cursor"
PRE, POST = "preToolUse", "postToolUse"
SHELL = "Shell"
MCP_PREFIX = "MCP:"
MAX_BYTES = 28_000  # a bound like the other agents' (Cursor documents no cut of its own)
NO_CHANGE = b"{}"

NOTES = """\
Cursor now runs every Shell command of its agent through headroom: the command itself runs
unchanged (same directory, same exit status); only its output is clipped to the budget, with a
marker saying how to get the rest (`headroom show ID`). Large MCP tool results are clipped the
same way. Commands that write their output to a file or run in the background are left exactly
as written. Cursor reloads hooks.json by itself (Settings > Hooks lists it)."""


def default_path() -> Path:
    return Path(os.path.expanduser("~")) / ".cursor" / "hooks.json"


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    command = config.hook_command(NAME, headroom)
    if "//" in command:
        raise config.ConfigError(f"{command!r} holds `//`, which Cursor's hooks.json reader "
                                 "drops as a comment; install headroom under a path without it")
    entries = {PRE: {"command": command, "matcher": f"^{SHELL}$", "timeout": 30},
               POST: {"command": command, "matcher": f"^{MCP_PREFIX}", "timeout": 30}}
    return flathooks.install(path, NAME, entries, uninstall, preamble={"version": 1})


def handle(payload: bytes, options: HookOptions) -> bytes:
    event = shell.load_event(payload)
    if event is None:
        return NO_CHANGE
    if event.get("hook_event_name") == POST:
        answer = mcp_reply(event, options)
        return NO_CHANGE if answer is None else json.dumps(answer).encode()

    def reply(event: dict, command: str) -> dict:
        return {"updated_input": dict(event["tool_input"], command=command)}

    return shell.rewrite_reply(payload, lambda event: rewrite(event, options), reply, NO_CHANGE)


def rewrite(event: dict, options: HookOptions) -> str | None:
    """The wrapped command, or None to leave the call exactly as it is."""
    command = piped.command_of(event, PRE, SHELL, "is_background")
    if command is None:
        return None
    return piped.wrap_checked(command, filter_argv(options, event, command))


def filter_argv(options: HookOptions, event: dict | None = None, command: str = "") -> list[str]:
    event = dict(event or {})
    event.setdefault("session_id", event.get("conversation_id"))
    tool_input = event.get("tool_input") if isinstance(event.get("tool_input"), dict) else {}
    cwd = tool_input.get("cwd") if isinstance(tool_input.get("cwd"), str) else None
    return shell.filter_argv(options.headroom or config.headroom_argv(), options.budget,
                             options.store, "--max-bytes", str(MAX_BYTES),
                             *shell.session_argv(event, command, cwd))


def mcp_reply(event: dict, options: HookOptions) -> dict | None:
    """{"updated_mcp_tool_output": …} with the clipped result, or None: leave it."""
    tool = event.get("tool_name")
    output = event.get("tool_output")
    if not (isinstance(tool, str) and tool.startswith(MCP_PREFIX) and isinstance(output, str)):
        return None
    try:
        result = json.loads(output)
    except ValueError:
        result = output  # a plain text result
    if isinstance(result, dict):
        blocks = result.get("content")
        if result.get("isError") or not (isinstance(blocks, list) and blocks and all(
                isinstance(block, dict) and block.get("type") == "text"
                and isinstance(block.get("text"), str) for block in blocks)):
            return None  # an error, an image, a resource, another shape: as the server gave it
        text = "\n".join(block["text"] for block in blocks)
    elif isinstance(result, str):
        text = result
    else:
        return None
    arguments = event.get("tool_input") if isinstance(event.get("tool_input"), dict) else {}
    session = event.get("session_id") or event.get("conversation_id")
    clipped = clip_text(text, tool=None, budget=options.budget, max_bytes=MAX_BYTES,
                        store=options.store, **in_session(session, tool, arguments, None))
    if clipped == text:
        return None
    clipped = displayable(clipped)
    return {"updated_mcp_tool_output": {"content": [{"type": "text", "text": clipped}]}
            if isinstance(result, dict) else clipped}
