"""html: an HTML page becomes the head, every `<h1>`–`<h6>` of the omitted part with its line
number (the shallowest levels first when not all fit), then the tail.

A page is HTML when it opens with `<!DOCTYPE html>` or `<html`.
"""

from __future__ import annotations

import re

from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_OPENS = lazy(r"\s*<(?:!DOCTYPE\s+html|html)[\s>]", re.IGNORECASE)
_HEADING = lazy(r"<h([1-6])[\s>]", re.IGNORECASE)
_OPENING_LINES = 5


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = [row for row in outline.bodies(sample[:50]) if row.strip()]
    return any(_OPENS.match(row) for row in rows[:_OPENING_LINES])


def headings(rows: list[str]) -> tuple[list[tuple[int, int]], dict[int, int]]:
    """(line, level) of every heading, and where in its line each one starts (generated pages
    put a heading deep in a long line of markup)."""
    found, columns = [], {}
    for index, row in enumerate(rows):
        if "<" in row:
            m = _HEADING.search(row, 0, outline.MAX_LINE_CHARS * 8)
            if m:
                found.append((index, int(m.group(1))))
                columns[index] = m.start()
    return found, columns


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    found, columns = headings(list(lines))
    return outline.plan("html", "headings", text, lines, budget, counter, found,
                        columns=columns)
