"""code: a source file becomes an outline — the head, every top-level and class-level definition
with its line number, then the tail — so an agent can page in exactly the function it needs.

Works on plain source and on numbered listings (`cat -n`, an agent's Read: `   12→code`).
Detected from content, never from the tool name alone.
"""

from __future__ import annotations

import re

from functools import partial

from ..plan import Gap, Keep, Lines, Note, Plan, gap
from ..tokens import Counter
from ..tools import Tool
from .costs import JUDGED_CHARS
from .outline import body as _body
from .outline import numbered as _numbered
from .outline import spread as _spread

_DEFINITION = re.compile(
    r"""(?x) \s*+
    (?:@?(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(?:async\s+)?
       (?:def|class|function\*?|func|fn|struct|enum|trait|impl|interface|module|mod|namespace
         |union|protocol|extension|object|macro_rules!)\s+[\w$<]
    | func\s+\([^)]*\)\s*\w                       # a Go method: func (r *T) Name(
    | (?:export\s+)?(?:const|let|var)\s+[\w$]+\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)
    | (?:export\s+)?type\s+\w+(?:<[^>]*>)?\s*=
    | type\s+\w+\s+(?:struct|interface)\b
    | (?:(?:public|private|protected|internal|static|final|abstract|override|synchronized
         |virtual|inline|extern|const|unsigned|signed)\s+)+[\w<>\[\],.?*&:\s]*?\w+\s*\([^;]*$
    | (?:function\s+)?[A-Za-z_][\w-]*\s*\(\)\s*\{?\s*$
    | [\w$.]+\s*=\s*function\b
    )
    """
)
# A C/C++ function definition starts in column 0: `static int main(int argc, char **argv) {`.
_C_FUNCTION = re.compile(r"[A-Za-z_][\w:<>,*&]*(?:\s+[\w:<>,*&]+)*[\s*&]+~?[A-Za-z_][\w:]*"
                         r"\s*\([^;.]*\)\s*(?:const\s*)?\{?\s*$")
_NOT_DEFINITION = re.compile(r"\s*+(?:if|for|while|switch|catch|return|else|do|try|with|elif|"
                             r"sizeof|new|throw|case|await|yield)\b")
_CONTAINER = re.compile(r"\s*+(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?"
                        r"(?:abstract\s+|public\s+|final\s+)*(?:class|impl|trait|interface|"
                        r"module|namespace|struct|object)\b")
_CODE_LINE = re.compile(
    r"""(?x)
      .*[{};]\s*$ | .*\)\s*:\s*$ | .*\b(?:else|try|finally)\s*:\s*$
    | \s*(?:import|from|\#include|\#define|package|use|return|const|let|var|if|for|while|else|elif
         |try|except|catch|finally|switch|case|break|continue|pass|yield|await|async|public
         |private|protected|static|def|class|function|func|fn|end)\b
    | \s*(?:\#|//|/\*|\*|--|@\w|["']{3}|raise\b|assert\b|del\b|self\b|lambda\b)
    | \s*[\w.\[\]'"]+\s*(?:[-+*/%|&^]|<<|>>|//)?=\s*\S   # an assignment
    | \s*[\w.]+\(.*\)\s*$                                # a call statement
    | .*[,(\[\\]\s*$                                     # a continued statement
    | \s*[})\]]++[,;)]*+\s*$
    """
)
_LOG_RECORD = re.compile(r"\s*+(?:\[?\d{4}-\d\d-\d\d|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\b)")
# A test runner's report quotes source in its tracebacks, but never holds its section rules.
_RUNNER_SECTION = re.compile(r"=+ (?:FAILURES|ERRORS) =+$")
MIN_DEFINITIONS = 3
MIN_CODE_SHARE = 0.6
_HEAD_SHARE, _TAIL_SHARE = 0.2, 0.1


def looks_like(sample: list[str], tool: Tool) -> bool:
    numbered = _numbered(sample)
    rows = [_body(row, numbered) for row in sample]
    non_empty = [row for row in rows if row.strip()]
    if len(non_empty) < 20 or any(_RUNNER_SECTION.match(row) for row in non_empty):
        return False
    if sum(1 for row in non_empty if row.startswith("```")) >= 2:
        return False  # a document that quotes code in fenced blocks (Markdown)
    prose = _inside_docstrings(non_empty)  # a module's documentation is judged as neither
    code = sum(1 for i, row in enumerate(non_empty) if i not in prose and
               _CODE_LINE.match(row[:JUDGED_CHARS]))
    records = sum(1 for row in non_empty if _LOG_RECORD.match(row))
    definitions = sum(1 for row in non_empty if _is_definition(row))
    return (definitions >= MIN_DEFINITIONS and code >= MIN_CODE_SHARE * (len(non_empty) - len(prose))
            and records < 0.1 * len(non_empty))


def _inside_docstrings(rows: list[str]) -> set[int]:
    """Indexes of the lines between a triple quote that opens a string and the one closing it."""
    inside, opened = set(), False
    for index, row in enumerate(rows):
        quotes = row.count('"""') + row.count("'''")
        if opened and not quotes:
            inside.add(index)
        if quotes % 2:
            opened = not opened
    return inside


def _is_definition(body: str) -> bool:
    body = body[:JUDGED_CHARS]
    return bool(_DEFINITION.match(body) or _C_FUNCTION.match(body)) and not _NOT_DEFINITION.match(body)


def _indent(body: str) -> int:
    return len(body.expandtabs(4)) - len(body.expandtabs(4).lstrip())


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    total = len(lines)
    rows = list(lines)
    numbered = _numbered(rows[:2000])
    bodies = [_body(row, numbered) for row in rows]
    head_end = _lines_within(rows, range(total), int(budget * _HEAD_SHARE), counter)
    tail_start = total - _lines_within(rows, range(total - 1, -1, -1), int(budget * _TAIL_SHARE),
                                       counter)
    if head_end >= tail_start:
        return None
    outline = _outline(bodies, head_end, tail_start)
    if not outline:
        return None
    room = budget - _cost(rows[:head_end], counter) - _cost(rows[tail_start:], counter) - 140
    shown = _fit_outline(outline, rows, bodies, numbered, room, counter)
    if not shown:
        return None
    notes = [Note(_outline_row(i, rows, numbered)) for i in shown]
    header = Note(f"[outline of the omitted lines: {len(shown):,} of {len(outline):,} "
                  f"definitions, with their line numbers]")
    items = [Keep(0, lines.start(head_end)),
             Gap(lines.start(head_end), lines.start(tail_start), head_end + 1, tail_start),
             header, *notes,
             Keep(lines.start(tail_start), len(text))]
    return Plan("code", tuple(i for i in items if not isinstance(i, Keep) or i.end > i.start),
                total, tail_start - head_end, regap=partial(gap, lines))


def _lines_within(rows: list[str], order, budget: int, counter: Counter) -> int:
    """How many rows, taken in `order`, fit in budget tokens."""
    used = taken = 0
    for index in order:
        used += counter.count(rows[index] + "\n")
        if used > budget:
            break
        taken += 1
    return taken


def _cost(rows: list[str], counter: Counter) -> int:
    return counter.count("\n".join(rows) + "\n") if rows else 0


def _outline(bodies: list[str], start: int, end: int) -> list[int]:
    """Definitions between start and end at the top level, or one level inside a container."""
    found = [i for i in range(start, end) if _is_definition(bodies[i])]
    if not found:
        return []
    levels = sorted({_indent(bodies[i]) for i in found})
    top = levels[0]
    inner = next((level for level in levels if level > top), None)
    has_container = any(_CONTAINER.match(bodies[i]) for i in found if _indent(bodies[i]) == top)
    deepest = inner if inner is not None and (has_container or len(levels) > 1
                                              and _share(found, bodies, top) < 0.2) else top
    return [i for i in found if _indent(bodies[i]) <= deepest]


def _share(found: list[int], bodies: list[str], level: int) -> float:
    return sum(1 for i in found if _indent(bodies[i]) == level) / len(found)


def _outline_row(index: int, rows: list[str], numbered: bool) -> str:
    row = rows[index]
    return row if numbered else f"{index + 1:>6}\t{row}"


def _fit_outline(outline: list[int], rows: list[str], bodies: list[str], numbered: bool,
                 room: int, counter: Counter) -> list[int]:
    """All definitions if they fit; else containers and public names first, spread evenly."""
    costs = {i: counter.count(_outline_row(i, rows, numbered) + "\n") for i in outline}
    if sum(costs.values()) <= room:
        return outline
    ranked = sorted(outline, key=lambda i: (_rank(bodies[i]), i))
    chosen, used = set(), 0
    for tier in _tiers(ranked, bodies):
        for i in _spread(tier):
            if used + costs[i] <= room:
                chosen.add(i)
                used += costs[i]
    return sorted(chosen)


def _rank(body: str) -> int:
    if _CONTAINER.match(body):
        return 0
    name = re.search(r"[\w$]+(?=\s*(?:\(|=|<|:|\{|$))", body.strip())
    return 2 if name and name.group().startswith("_") else 1


def _tiers(ranked: list[int], bodies: list[str]) -> list[list[int]]:
    tiers: dict[int, list[int]] = {}
    for i in ranked:
        tiers.setdefault(_rank(bodies[i]), []).append(i)
    return [sorted(tiers[key]) for key in sorted(tiers)]
