"""Gemini CLI's transcripts, for `headroom audit`: where they are and what they hold.

Checked against @google/gemini-cli 0.61.0 (the e2e runs' chats). A session is
~/.gemini/tmp/<PROJECT>/chats/session-<time>-<ID>.jsonl, PROJECT being the short name
~/.gemini/projects.json gives the directory it ran in ({"projects": {DIR: NAME}}). Its first
record is {"sessionId", "projectHash", "startTime", "kind"}; then one record per message,
written again (same "id") each time it grows, and {"$set": …} records that update the
session's own fields:

  {"id", "type": "gemini", "content", "toolCalls": [{"id", "name": "run_shell_command",
                                                    "args": {"command", …}, …}]}
  {"id", "type": "user", "content": [{"functionResponse": {"id", "name",
                                                           "response": {"output"}}}]}

Each gemini message (its id, however often written) is one reply: one request before it.
Gemini CLI's own cut, as the model sees it: an output over 40,000 characters keeps its head
and tail around "... [N characters omitted] ...".
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..transcript import REQUEST, Event, Output, Transcript, json_lines

AGENT = "gemini"
SHELL_TOOL = "run_shell_command"
_CUT = "characters omitted] ..."


def gemini_dir() -> Path:
    return Path.home() / ".gemini"


def project_names(base: Path) -> dict[str, str]:
    """Directory -> the folder name Gemini CLI gives its sessions (projects.json)."""
    try:
        projects = json.loads((base / "projects.json").read_bytes()).get("projects")
    except (OSError, ValueError, AttributeError):
        return {}
    return {key: value for key, value in projects.items()
            if isinstance(key, str) and isinstance(value, str)} \
        if isinstance(projects, dict) else {}


def find(environ, project: str | None) -> Iterator[Transcript]:
    """Every session of `project` (None: of every directory)."""
    base = gemini_dir()
    names = project_names(base)
    if project is None:
        folders = "*"
    elif project in names:
        folders = names[project]
    else:
        return
    for path in sorted((base / "tmp").glob(f"{folders}/chats/session-*.jsonl")):
        header = _header(path)
        yield Transcript(AGENT, str(header.get("sessionId") or path.stem), str(path),
                         path.parent.parent.name, os.stat(path).st_mtime, events)


def _header(path: Path) -> dict:
    try:
        for record in json_lines(str(path)):
            return record if "sessionId" in record else {}
    except OSError:
        pass
    return {}


def events(records: Iterable[dict]) -> Iterator[Event]:
    """The tool outputs and model requests of a session's records, in order."""
    replies: set[str] = set()
    commands: dict[str, str | None] = {}
    answered: set[str] = set()
    for record in records:
        kind = record.get("type")
        if kind == "gemini":
            reply = str(record.get("id"))
            if reply not in replies:
                replies.add(reply)
                yield REQUEST
            for call in record.get("toolCalls") or ():
                if isinstance(call, dict):
                    commands[str(call.get("id"))] = _command(call)
        elif kind == "user" and isinstance(record.get("content"), list) \
                and str(record.get("id")) not in answered:
            answered.add(str(record.get("id")))
            for part in record["content"]:
                response = part.get("functionResponse") if isinstance(part, dict) else None
                if not isinstance(response, dict):
                    continue
                text = _output_text(response.get("response"))
                yield Output(str(response.get("name") or ""),
                             commands.pop(str(response.get("id")), None), text, _CUT in text)


def _command(call: dict) -> str | None:
    arguments = call.get("args")
    command = arguments.get("command") if isinstance(arguments, dict) else None
    return command if call.get("name") == SHELL_TOOL and isinstance(command, str) else None


def _output_text(response) -> str:
    if not isinstance(response, dict):
        return ""
    output = response.get("output", response.get("error"))
    return output if isinstance(output, str) else json.dumps(output, ensure_ascii=False) \
        if output is not None else ""
