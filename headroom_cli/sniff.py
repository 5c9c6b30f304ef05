"""Which shape is this output? Conservative: a planner that misfires is worse than none.

Each shape's planner module knows its own signs (`looks_like`); this module only decides the
order in which they are asked. A new shape is one new planner file plus one line in SHAPES.
"""

from __future__ import annotations

from .plan import Lines
from .planners import log, search
from .tools import Tool

KINDS = ("auto", "search", "log", "other")
# Asked in order; the first shape that recognises the output wins, else "other".
SHAPES = (
    ("search", search.looks_like),
    ("log", log.looks_like),
)
# Sniffing looks at a bounded sample: the head and the tail of the output.
_SAMPLE_LINES = 4000


def sniff(lines: Lines, tool: Tool) -> str:
    total = len(lines)
    picked = range(total) if total <= 2 * _SAMPLE_LINES else (
        [*range(_SAMPLE_LINES), *range(total - _SAMPLE_LINES, total)])
    sample = [lines.get(i) for i in picked]
    for kind, looks_like in SHAPES:
        if looks_like(sample, tool):
            return kind
    return "other"
