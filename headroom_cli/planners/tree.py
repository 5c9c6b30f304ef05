"""tree: a drawn tree (`npm ls`, `tree`, `cargo tree`, `pnpm why`, `pipdeptree`) becomes the head,
every entry of the omitted part down to the depth that fits, with its line number, then the
tail — the top of the tree (its roots, a project's direct dependencies, a folder's first level)
is what stays longest.

An entry is a line whose name follows a branch drawn with box-drawing characters (`├── x`,
`│ └─┬ y`) or ASCII (`|-- x`, `` `-- y``); its depth is the column its branch starts at,
ranked among the columns the output uses (`npm ls` indents by two, `tree` by four).
"""

from __future__ import annotations


from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

# The guides before a branch (`│ `, `|   `, spaces), then the branch itself.
_ENTRY = lazy(r"((?:[│|][ \t]{1,3}|[ \t])*)(?:[├└]─+[┬─]?[ \t]|[|`]--+[ \t])\S")
_MIN_ENTRIES = 10
_SHARE = 0.7  # of the non-empty lines: the rest are a header (the project, the folder) and notes


def entries(rows: list[str]) -> list[tuple[int, int]]:
    """(line, depth) of every entry; depth 1 is the shallowest. A line in column 0 that no
    branch leads to is a root (depth 0) when a branch follows it or it lies among the
    branches (`pipdeptree` prints one per package); before or after the tree it is a note
    (npm's warnings)."""
    matches = [_ENTRY.match(row) for row in rows]
    branches = [(index, len(match.group(1))) for index, match in enumerate(matches) if match]
    if not branches:
        return []
    first, last = branches[0][0], branches[-1][0]
    below = {index - 1 for index, _ in branches}
    roots = [(index, -1) for index, row in enumerate(rows)
             if row[:1].strip() and not matches[index]
             and (index in below or first < index < last)]
    columns = {column: depth for depth, column in enumerate(sorted({c for _, c in branches}), 1)}
    columns[-1] = 0
    return [(index, columns[column]) for index, column in sorted(branches + roots)]


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = outline.bodies(sample)
    branches = sum(1 for row in rows if _ENTRY.match(row))
    non_empty = sum(1 for row in rows if row.strip())
    return branches >= _MIN_ENTRIES and branches >= _SHARE * non_empty


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    return outline.plan("tree", "entries", text, lines, budget, counter,
                        entries(outline.bodies(list(lines))))
