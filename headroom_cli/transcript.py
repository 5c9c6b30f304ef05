"""What `headroom audit` reads from an agent's own transcript, whatever the agent: a stream of
tool outputs and model requests, in the order they happened.

Each agent's module reads its own format (agents/claude_transcript.py, codex_transcript.py,
pi_transcript.py, opencode_transcript.py…) and yields these events; audit.py turns them into
figures. A stream, not a list: an output's figures are computed as it is read and its text let
go, so a transcript of any length is audited in bounded memory.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from .values import field, value

# A transcript line longer than this is skipped (counted in Transcript.skipped), not read: one
# tool output of gigabytes must not be held whole to be audited.
MAX_LINE_BYTES = 64 << 20


@value
class Output:
    """One tool output as the model was shown it."""

    tool: str  # the tool's name as the agent calls it (Bash, exec_command, bash…)
    command: str | None  # the shell command, for a shell tool
    text: str
    agent_cut: bool = False  # the agent itself cut it (a preview, a head and tail)
    # How many later requests re-sent it, when the agent stopped sending it before the session
    # ended (opencode's prune); None: every later request did.
    resends: int | None = None


@value
class Request:
    """One request to the model: every output read before it was (re-)sent with it."""


REQUEST = Request()
Event = Output | Request


class Skipped:
    """Counts what a reader could not read (a line too long, not JSON): reported, not fatal."""

    __slots__ = ("lines",)

    def __init__(self) -> None:
        self.lines = 0


@value
class Transcript:
    """One session's transcript file, found on disk; `events()` reads it."""

    agent: str  # the agent's key (agents.AGENTS)
    session: str  # the session's id as the agent names it
    path: str
    project: str | None  # the directory the session ran in, when the transcript says
    modified: float  # the file's mtime: what --since compares
    parse: Callable[[Iterator[dict]], Iterator[Event]]  # the agent's reader, records in
    # Its records, read from `path`: JSON Lines, or what the agent's module reads (a database)
    read: Callable[[str, Skipped], Iterator[dict]] | None = field(default=None, compare=False)
    skipped: Skipped = field(default_factory=Skipped, compare=False)

    def events(self) -> Iterator[Event]:
        """The transcript's events, read from disk as they are consumed."""
        return self.parse((self.read or json_lines)(self.path, self.skipped))


def json_lines(path: str, skipped: Skipped | None = None) -> Iterator[dict]:
    """The JSON objects of a JSON Lines file, one at a time; lines over MAX_LINE_BYTES and lines
    that are not a JSON object are skipped (and counted in `skipped`)."""
    with open(path, "rb") as file:
        while True:
            line = file.readline(MAX_LINE_BYTES + 1)
            if not line:
                return
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                _skip_rest_of_line(file)
                if skipped is not None:
                    skipped.lines += 1
                continue
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            if isinstance(record, dict):
                yield record
            elif skipped is not None:
                skipped.lines += 1


def _skip_rest_of_line(file) -> None:
    while True:
        part = file.readline(1 << 20)
        if not part or part.endswith(b"\n"):
            return


def text_of(content) -> str:
    """A tool result's text: a string, or the text parts of a list of content blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(block["text"] for block in content
                         if isinstance(block, dict) and isinstance(block.get("text"), str))
    return ""
