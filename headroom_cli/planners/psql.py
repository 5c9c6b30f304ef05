"""psql: `psql`'s descriptions of relations (`\\d`, `\\d+ pattern`) become the head, an outline
of the omitted part, then the tail (outline.py).

Each relation is a block: its title centred over a ruled table of columns
(`                 Table "pg_catalog.pg_class"`), then labelled lists (`Indexes:`,
`Foreign-key constraints:`, `Referenced by:`, `Triggers:`) whose members are indented and name
a quoted object, then footers (`Access method: heap`). A reader of many descriptions looks for
which tables and views there are, then their indexes and constraints; an index's own block
repeats what its table's `Indexes:` list says. So the outline lists every table's and view's
title first, then the members of the labelled lists, then the other titles (indexes,
sequences), each level spread over the output.
"""

from __future__ import annotations

from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_TITLE = lazy(r"\s*(?P<kind>(?:Unlogged |Partitioned |Foreign |Materialized )?[A-Z][a-z]+"
              r"(?: [a-z]+)?) \"[^\"]+\"\s*$")
_RELATIONS = ("table", "view")  # a title naming one of these is of the first level
_MEMBER = lazy(r"    (?:TABLE )?\"")  # `    "name" …`, `    TABLE "t" CONSTRAINT "c" …`
_EDGE_SHARE = 0.05  # for the head and the tail: a description's columns, an example
_RULE = lazy(r"-+(?:\+-+)+\s*$")


def looks_like(sample: list[str], tool: Tool) -> bool:
    """A centred title over a ruled header, at least once."""
    rows = outline.bodies(sample)
    return any(_TITLE.match(row) and row[:1] == " " and index + 2 < len(rows)
               and _RULE.match(rows[index + 2]) for index, row in enumerate(rows))


def entries(rows: list[str]) -> list[tuple[int, int]]:
    """(line, level): tables' and views' titles (0), the labelled lists' members (1), the
    other titles (2)."""
    found = []
    for index, row in enumerate(rows):
        title = _TITLE.match(row) if row[:1] == " " else None
        if title:
            relation = title["kind"].split()[-1].lower() in _RELATIONS
            found.append((index, 0 if relation else 2))
        elif _MEMBER.match(row):
            found.append((index, 1))
    return found


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = outline.bodies(list(lines))
    return outline.plan("other", "relations, indexes and constraints", text, lines, budget,
                        counter, entries(rows), head_share=_EDGE_SHARE,
                        tail_share=_EDGE_SHARE, deeper_after_a_miss=True)
