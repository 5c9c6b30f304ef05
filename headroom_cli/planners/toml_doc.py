"""toml: a TOML or INI file (pyproject.toml, Cargo.toml, setup.cfg) becomes the head, every
`[table]` header of the omitted part with its line number, then the tail.

A file is TOML (or INI) when it has at least three table headers and most of its other lines
are `key = value`, comments or the continuation of a value.
"""

from __future__ import annotations


from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_TABLE = lazy(r"""\[\[?[\w"'. -]+\]\]?[ \t]*(?:[#;].*)?$""")
_ASSIGNMENT = lazy(r"""[\w"'.-]+[ \t]*[=:]""")
_OTHER = lazy(r"[ \t#;\]}\"']")
_SHARE = 0.9


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = [row for row in outline.bodies(sample) if row.strip()]
    tables = sum(1 for row in rows if _TABLE.match(row))
    plain = sum(1 for row in rows if _TABLE.match(row) or _ASSIGNMENT.match(row)
                or _OTHER.match(row))
    return tables >= outline.MIN_HEADINGS and plain >= _SHARE * len(rows)


def headings(rows: list[str]) -> list[tuple[int, int]]:
    return [(index, 1) for index, row in enumerate(rows) if _TABLE.match(row)]


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    return outline.plan("toml", "tables", text, lines, budget, counter,
                        headings(outline.bodies(list(lines))))
