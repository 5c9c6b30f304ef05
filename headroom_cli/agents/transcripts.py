"""The agents whose transcripts `headroom audit` reads: one line per agent, naming the module
that alone knows where that agent keeps its sessions and how to read them ("module:function"
when one module reads two agents' sessions). Each module has

    find(environ, project) -> Iterator[transcript.Transcript]   project None: every project
    events(records) -> Iterator[transcript.Event]               its records, read in order
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

from ..transcript import Transcript

READERS = {
    "claude": "claude_transcript",
    "codex": "codex_transcript",
    "gemini": "gemini_transcript",
    "kilo": "opencode_transcript:find_kilo",  # opencode's fork: opencode's database, its name
    "opencode": "opencode_transcript",
    "pi": "pi_transcript",
}


def find(environ, project: str | None, agent: str | None = None) -> Iterator[Transcript]:
    """The transcripts of `project` (None: all) of every agent (or of `agent`), agent by agent."""
    for name, reader in READERS.items():
        if agent is None or agent == name:
            module, _, function = reader.partition(":")
            found = getattr(importlib.import_module(f"{__package__}.{module}"), function or "find")
            yield from found(environ, project)
