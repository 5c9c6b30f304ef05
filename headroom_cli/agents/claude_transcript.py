"""Claude Code's transcripts, for `headroom audit`: where they are and what they hold.

Checked against @anthropic-ai/claude-code 2.1.330 (the e2e runs' transcripts). A session is
~/.claude/projects/<PROJECT>/<SESSION>.jsonl ($CLAUDE_CONFIG_DIR respected), PROJECT being the
directory it ran in with every character but a letter or digit made "-"; a subagent's own
conversation is <PROJECT>/<SESSION>/subagents/agent-<ID>.jsonl, audited as a session of its
own (its outputs are sent only with its own requests). One record per line:

  {"type": "assistant", "message": {"id", "content": [{"type": "tool_use", "id", "name",
                                                       "input": {"command", …}}, …]}, …}
  {"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id",
                                            "content": str | [blocks], "is_error"}]}, …}

One request to the model can be written as several assistant records sharing `message.id`.
Claude Code's own cuts, as they reach the model: a successful output over 30,000 bytes is saved
to a file and the model sees `<persisted-output>` and a 2 KB preview; a failing one over about
11,000 characters keeps its first and last 5,000 ("… [N characters truncated] …"); an MCP
result past its token limit becomes a notice that it "has been saved to" a file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..transcript import REQUEST, Event, Output, Transcript, text_of

AGENT = "claude"
SHELL_TOOL = "Bash"
_AGENT_CUTS = ("<persisted-output>", "characters truncated]", "Output has been saved to ")


def projects_dir(environ) -> Path:
    config = environ.get("CLAUDE_CONFIG_DIR")
    base = Path(config) if config else Path.home() / ".claude"
    return base / "projects"


def project_key(directory: str) -> str:
    """The name Claude Code gives the folder of a project's sessions."""
    return re.sub(r"[^A-Za-z0-9]", "-", directory)


def find(environ, project: str | None) -> Iterator[Transcript]:
    """Every session (subagents' included) of `project` (None: of every project)."""
    root = projects_dir(environ)
    folders = [root / project_key(project)] if project else \
        sorted(path for path in _listing(root) if path.is_dir())
    for folder in folders:
        for path in sorted(folder.glob("*.jsonl")):
            yield _transcript(path, path.stem, folder.name)
        for path in sorted(folder.glob("*/subagents/*.jsonl")):
            yield _transcript(path, f"{path.parent.parent.name}/{path.stem}", folder.name)


def _listing(root: Path) -> list[Path]:
    try:
        return list(root.iterdir())
    except OSError:
        return []


def _transcript(path: Path, session: str, project: str) -> Transcript:
    return Transcript(AGENT, session, str(path), project, os.stat(path).st_mtime, events)


def events(records: Iterable[dict]) -> Iterator[Event]:
    """The tool outputs and model requests of a session's records, in order."""
    calls: dict[str, tuple[str, str | None]] = {}  # tool_use id -> (tool, command)
    last_request = None
    for record in records:
        message = record.get("message")
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        blocks = [block for block in content if isinstance(block, dict)] \
            if isinstance(content, list) else []
        if record.get("type") == "assistant":
            request = message.get("id") or record.get("uuid")
            if request is None or request != last_request:
                last_request = request
                yield REQUEST
            for block in blocks:
                if block.get("type") == "tool_use":
                    calls[str(block.get("id"))] = _call(block)
        elif record.get("type") == "user":
            for block in blocks:
                if block.get("type") == "tool_result":
                    tool, command = calls.pop(str(block.get("tool_use_id")), ("", None))
                    text = text_of(block.get("content"))
                    yield Output(tool, command, text, any(cut in text for cut in _AGENT_CUTS))


def _call(block: dict) -> tuple[str, str | None]:
    """A tool_use block's tool, and its command when it is the shell tool."""
    name = str(block.get("name") or "")
    arguments = block.get("input")
    command = arguments.get("command") if isinstance(arguments, dict) else None
    return name, command if name == SHELL_TOOL and isinstance(command, str) else None
