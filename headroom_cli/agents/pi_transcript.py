"""pi's transcripts, for `headroom audit`: where they are and what they hold.

Checked against @mariozechner/pi-coding-agent 0.73.1 (the e2e runs' sessions). A session is
$PI_CODING_AGENT_DIR/sessions/--<DIR>--/<time>_<ID>.jsonl (default ~/.pi/agent), DIR being
the directory it ran in without its leading "/" and with "/", "\\" and ":" made "-". Its
first record is {"type": "session", "id", "cwd"}; then one record per entry:

  {"type": "message", "message": {"role": "assistant", "content": [{"type": "toolCall", "id",
                                   "name": "bash", "arguments": {"command"}}, …]}}
  {"type": "message", "message": {"role": "toolResult", "toolCallId", "toolName",
                                   "content": [{"type": "text", "text"}], "details": {…}}}

Each assistant message is one reply: one request before it. pi's own cut, as the model sees
it: the bash tool keeps the last lines and ends "[Showing lines A-B of N. Full output: FILE]".
(details.truncation describes the command's own output: with headroom's extension the model
got headroom's clip instead, so only the text says what the model saw.)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..transcript import REQUEST, Event, Output, Transcript, json_lines, text_of

AGENT = "pi"
_CUT_NOTE = "[Showing lines "


def sessions_dir(environ) -> Path:
    agent_dir = environ.get("PI_CODING_AGENT_DIR")
    base = Path(agent_dir) if agent_dir else \
        Path.home() / ".pi" / "agent"
    return base / "sessions"


def project_key(directory: str) -> str:
    """The name pi gives the folder of a directory's sessions."""
    trimmed = directory[1:] if directory[:1] in ("/", "\\") else directory
    return "--" + trimmed.replace("/", "-").replace("\\", "-").replace(":", "-") + "--"


def find(environ, project: str | None) -> Iterator[Transcript]:
    """Every session of `project` (None: of every directory)."""
    root = sessions_dir(environ)
    pattern = f"{project_key(project)}/*.jsonl" if project else "*/*.jsonl"
    for path in sorted(root.glob(pattern)):
        header = _header(path)
        yield Transcript(AGENT, str(header.get("id") or path.stem), str(path),
                         header.get("cwd"), os.stat(path).st_mtime, events)


def _header(path: Path) -> dict:
    try:
        for record in json_lines(str(path)):
            return record if record.get("type") == "session" else {}
    except OSError:
        pass
    return {}


def events(records: Iterable[dict]) -> Iterator[Event]:
    """The tool outputs and model requests of a session's records, in order."""
    commands: dict[str, str | None] = {}
    for record in records:
        message = record.get("message")
        if record.get("type") != "message" or not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "assistant":
            yield REQUEST
            content = message.get("content")
            for block in content if isinstance(content, list) else ():
                if isinstance(block, dict) and block.get("type") == "toolCall":
                    arguments = block.get("arguments")
                    command = arguments.get("command") if isinstance(arguments, dict) else None
                    commands[str(block.get("id"))] = \
                        command if block.get("name") == "bash" and isinstance(command, str) \
                        else None
        elif role == "toolResult":
            text = text_of(message.get("content"))
            yield Output(str(message.get("toolName") or ""),
                         commands.pop(str(message.get("toolCallId")), None), text,
                         _CUT_NOTE in text)
