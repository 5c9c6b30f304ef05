"""Codex CLI's transcripts, for `headroom audit`: where they are and what they hold.

Checked against @openai/codex 0.169.0 (the e2e runs' rollouts). A session is
$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<ID>.jsonl (default ~/.codex); its first record,
{"type": "session_meta", "payload": {"id", "cwd", …}}, says where it ran. What the model sees
are the {"type": "response_item", "payload": ITEM} records, in the Responses API's items:

  {"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\": …}", "call_id"}
  {"type": "function_call_output", "call_id", "output": str | [{"type": "input_text", "text"}]}

(and custom_tool_call / custom_tool_call_output, local_shell_call). A run of items the model
wrote (calls, reasoning, an assistant message) is one reply: one request before it.
Codex's own cut, as the model sees it: the output opens with "Warning: truncated output" or
keeps its first and last halves around "…N chars truncated…" ("…N tokens truncated…").
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..transcript import REQUEST, Event, Output, Transcript, json_lines, text_of

AGENT = "codex"
_MODEL_ITEMS = {"function_call", "custom_tool_call", "local_shell_call", "reasoning",
                "web_search_call"}
_OUTPUTS = {"function_call_output", "custom_tool_call_output", "local_shell_call_output"}
_SHELL_TOOLS = {"exec_command", "shell", "local_shell", "container.exec", "shell_command"}
_CUT = re.compile(r"^Warning: truncated output|…\d+ (?:chars|tokens) truncated…", re.M)


def sessions_dir(environ) -> Path:
    home = environ.get("CODEX_HOME")
    base = Path(home) if home else Path.home() / ".codex"
    return base / "sessions"


def find(environ, project: str | None) -> Iterator[Transcript]:
    """Every rollout that ran in `project` (None: in any directory)."""
    for path in sorted(sessions_dir(environ).glob("*/*/*/rollout-*.jsonl")):
        meta = _meta(path)
        if project is None or meta.get("cwd") == project:
            yield Transcript(AGENT, str(meta.get("id") or path.stem), str(path),
                             meta.get("cwd"), os.stat(path).st_mtime, events)


def _meta(path: Path) -> dict:
    """The session_meta payload (the rollout's first record), or {}."""
    try:
        for record in json_lines(str(path)):
            payload = record.get("payload")
            return payload if record.get("type") == "session_meta" and \
                isinstance(payload, dict) else {}
    except OSError:
        pass
    return {}


def events(records: Iterable[dict]) -> Iterator[Event]:
    """The tool outputs and model requests of a rollout's records, in order."""
    calls: dict[str, tuple[str, str | None]] = {}
    replying = False
    for record in records:
        item = record.get("payload")
        if record.get("type") != "response_item" or not isinstance(item, dict):
            continue
        kind = item.get("type")
        model_wrote = kind in _MODEL_ITEMS or (kind == "message" and
                                               item.get("role") == "assistant")
        if model_wrote and not replying:
            yield REQUEST
        replying = model_wrote
        if kind in _MODEL_ITEMS and item.get("call_id") is not None:
            calls[str(item["call_id"])] = _call(item)
        elif kind in _OUTPUTS:
            tool, command = calls.pop(str(item.get("call_id")), ("", None))
            text = _output_text(item.get("output"))
            yield Output(tool, command, text, bool(_CUT.search(text)))


def _call(item: dict) -> tuple[str, str | None]:
    """A call's tool, and its shell command when it runs one."""
    name = str(item.get("name") or item.get("type") or "")
    if item.get("type") == "local_shell_call":
        arguments = item.get("action") or {}
    else:
        try:
            arguments = json.loads(item.get("arguments") or item.get("input") or "{}")
        except (TypeError, ValueError):
            arguments = {}
    command = arguments.get("cmd", arguments.get("command")) \
        if isinstance(arguments, dict) and name in _SHELL_TOOLS | {"local_shell_call"} else None
    if isinstance(command, list):  # ["bash", "-lc", "…"]: the script is the last word
        command = command[-1] if command else None
    return name, command if isinstance(command, str) else None


def _output_text(output) -> str:
    if isinstance(output, dict):  # older rollouts: {"output": str, "metadata": …}
        output = output.get("output", output.get("content"))
    return text_of(output)
