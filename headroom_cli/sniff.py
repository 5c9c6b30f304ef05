"""Which shape is this output? Conservative: a planner that misfires is worse than none.

Each planner module knows its own signs (`looks_like`); this module only decides the order in
which they are asked. A new shape is one new planner file plus one line in SHAPES and one in
_ASKED.

Precedence follows what a person would call the output: a failing test run or build is a log
even when its tracebacks quote source code, so its signals are asked before code is; code,
JSON, diff and listing only when the output as a whole is that.
"""

from __future__ import annotations

from .plan import Lines
from .planners import code, diff, json_shape, listing, log, other, search
from .tools import Tool

SHAPES = {
    "search": search,
    "diff": diff,
    "json": json_shape,
    "code": code,
    "log": log,
    "listing": listing,
    "other": other,
}
KINDS = tuple(SHAPES)
# Asked in order; the first that recognises the output wins. `other` takes the rest.
_ASKED = (("search", search.looks_like), ("diff", diff.looks_like),
          ("json", json_shape.looks_like), ("log", log.looks_like_a_failed_run),
          ("code", code.looks_like), ("log", log.looks_like), ("listing", listing.looks_like),
          ("other", other.looks_like))
# Sniffing looks at a bounded sample: the head and the tail of the output.
_SAMPLE_LINES = 1500


def sniff(lines: Lines, tool: Tool) -> str:
    total = len(lines)
    picked = range(total) if total <= 2 * _SAMPLE_LINES else (
        [*range(_SAMPLE_LINES), *range(total - _SAMPLE_LINES, total)])
    sample = [lines.get(i) for i in picked]
    return next(kind for kind, recognises in _ASKED if recognises(sample, tool))


def scanner(sample: str, tool: Tool, kind: str, limit: int) -> tuple[str, object | None]:
    """The shape of an output too large to hold, judged on its first part, and the scanner
    that indexes the rest for its planner. A shape with no scanner (or one that does not take
    this output) is planned from its head and tail, as `other`."""
    if "\x00" in sample:
        return "other", None
    lines = Lines(_first_lines(sample, 2 * _SAMPLE_LINES))
    shape = sniff(lines, tool) if kind == "auto" else kind
    make = getattr(SHAPES[shape], "Scanner", None)
    accepts = getattr(make, "accepts", None)
    if make is None or accepts is not None and not accepts(
            [lines.get(i) for i in range(min(len(lines), _SAMPLE_LINES))]):
        return "other", None
    return shape, make(tool, limit)


def _first_lines(text: str, count: int) -> str:
    end = -1
    for _ in range(count):
        end = text.find("\n", end + 1)
        if end == -1:
            return text
    return text[:end + 1]


def planner(kind: str):
    return SHAPES[kind].plan
