"""`headroom audit`, the core: what the tool outputs of sessions already run cost, and what
headroom would have kept of them. Pure but for the tokenizer: events in (transcript.py, read
by each agent's own module), figures out.

For every tool output: its tokens (the tokenizer, not characters ÷ 4); how many later requests
sent it again (a harness re-sends the whole conversation on every request); whether the agent
already cut it, or headroom already clipped it (its marker); and its tokens after headroom's
planners at the budget in force. An output read after request k is first sent with request
k + 1; every request after that re-sends it.

Figures add up per session, per tool and per command family (family.py):
    outputs, tokens (in), after (after headroom), resent (tokens × re-sends), resent_after,
    handled (outputs already cut by the agent or clipped by headroom), agent_cut, clipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from .family import family_of
from .render import MARKER_PREFIX
from .large_counts import count_large
from .tokens import Counter
from .transcript import Request, Transcript
from .values import asdict, field, fields, value

NO_FAMILY = "-"  # the family column of an output that came from no shell command
FORMAT_VERSION = 1


@value
class Figures:
    outputs: int = 0
    tokens: int = 0  # what the outputs cost when first sent
    after: int = 0  # the same, each clipped by headroom at the budget in force
    resent: int = 0  # tokens sent again with later requests
    resent_after: int = 0  # the same, after headroom
    handled: int = 0  # outputs the agent had cut or headroom had clipped already
    agent_cut: int = 0
    clipped: int = 0  # by headroom (its marker is in the output)

    def __add__(self, other: "Figures") -> "Figures":
        return Figures(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def handled_share(self) -> float:
        return self.handled / self.outputs if self.outputs else 0.0

    @property
    def saved(self) -> int:
        """Tokens headroom would have kept out of the context, re-sends included."""
        return self.tokens + self.resent - self.after - self.resent_after


@value
class Session:
    agent: str
    session: str
    path: str
    project: str | None
    requests: int
    figures: Figures
    by_tool: dict[str, Figures] = field(default_factory=dict)
    by_family: dict[str, Figures] = field(default_factory=dict)
    skipped_lines: int = 0  # lines of the transcript that could not be read


@value
class Report:
    encoding: str
    budget: int | None  # the --budget given (None: the hooks' budget, per command family)
    sessions: tuple[Session, ...]

    @property
    def totals(self) -> Figures:
        return _sum(session.figures for session in self.sessions)

    def by(self, what: str) -> dict[str, Figures]:
        """Figures per tool ("by_tool") or per command family ("by_family"), all sessions."""
        merged: dict[str, Figures] = {}
        for session in self.sessions:
            for key, figures in getattr(session, what).items():
                merged[key] = merged.get(key, Figures()) + figures
        return _ordered(merged)

    def to_dict(self) -> dict:
        return {"version": FORMAT_VERSION, "encoding": self.encoding, "budget": self.budget,
                "totals": _figures_dict(self.totals),
                "by_tool": {k: _figures_dict(v) for k, v in self.by("by_tool").items()},
                "by_family": {k: _figures_dict(v) for k, v in self.by("by_family").items()},
                "sessions": [_session_dict(session) for session in self.sessions]}

    @classmethod
    def from_dict(cls, document: dict) -> "Report":
        """The report a to_dict() document describes (`headroom audit --json`, read back)."""
        return cls(document["encoding"], document["budget"],
                   tuple(_session_of(item) for item in document["sessions"]))


def audit(transcript: Transcript, *, counter: Counter, budget_for: Callable[[str | None], int],
          program: str = "headroom") -> Session:
    """One session's figures. `budget_for(family)`: the budget in force for an output of a
    command of that family (None: no command). Reads the transcript once, as a stream: each
    output's text is let go once its figures are counted."""
    from .api import compress

    rows = []  # (tool, family, tokens, after, requests before it, re-sends at most, agent_cut,
    #           clipped)
    requests = 0
    for event in transcript.events():
        if isinstance(event, Request):
            requests += 1
            continue
        family = family_of(event.command)
        tokens = count_large(counter, [event.text])
        clipped = MARKER_PREFIX in event.text
        after = tokens
        if not clipped:
            kept = compress(event.text, tool=event.tool or None, budget=budget_for(family),
                            counter=counter, program=program)
            after = kept.output_tokens if kept.clipped else tokens
        rows.append((event.tool or "?", family or NO_FAMILY, tokens, after, requests,
                     event.resends, event.agent_cut, clipped))
    by_tool: dict[str, Figures] = {}
    by_family: dict[str, Figures] = {}
    for tool, family, tokens, after, before, at_most, agent_cut, clipped in rows:
        resends = max(requests - before - 1, 0)
        if at_most is not None:  # the agent stopped sending it (opencode's prune)
            resends = min(resends, at_most)
        figures = Figures(1, tokens, after, tokens * resends, after * resends,
                          int(agent_cut or clipped), int(agent_cut), int(clipped))
        by_tool[tool] = by_tool.get(tool, Figures()) + figures
        by_family[family] = by_family.get(family, Figures()) + figures
    return Session(transcript.agent, transcript.session, transcript.path, transcript.project,
                   requests, _sum(by_tool.values()), _ordered(by_tool), _ordered(by_family),
                   transcript.skipped.lines)


def report(sessions: Iterable[Session], *, encoding: str, budget: int | None) -> Report:
    ordered = sorted(sessions, key=lambda s: (s.agent, s.project or "", s.session, s.path))
    return Report(encoding, budget, tuple(ordered))


def dumps(report_: Report) -> str:
    return json.dumps(report_.to_dict(), indent=2, ensure_ascii=False) + "\n"


def _sum(items: Iterable[Figures]) -> Figures:
    total = Figures()
    for figures in items:
        total = total + figures
    return total


def _ordered(groups: dict[str, Figures]) -> dict[str, Figures]:
    """Largest cost first (tokens with their re-sends), then by name: a stable order."""
    return dict(sorted(groups.items(), key=lambda item: (-(item[1].tokens + item[1].resent),
                                                          item[0])))


def _figures_dict(figures: Figures) -> dict:
    return {**asdict(figures), "handled_share": round(figures.handled_share, 4),
            "saved": figures.saved}


def _figures_of(document: dict) -> Figures:
    return Figures(**{f.name: document[f.name] for f in fields(Figures)})


def _session_dict(session: Session) -> dict:
    return {"agent": session.agent, "session": session.session, "path": session.path,
            "project": session.project, "requests": session.requests,
            "skipped_lines": session.skipped_lines, "figures": _figures_dict(session.figures),
            "by_tool": {k: _figures_dict(v) for k, v in session.by_tool.items()},
            "by_family": {k: _figures_dict(v) for k, v in session.by_family.items()}}


def _session_of(document: dict) -> Session:
    return Session(document["agent"], document["session"], document["path"],
                   document["project"], document["requests"], _figures_of(document["figures"]),
                   {k: _figures_of(v) for k, v in document["by_tool"].items()},
                   {k: _figures_of(v) for k, v in document["by_family"].items()},
                   document["skipped_lines"])



