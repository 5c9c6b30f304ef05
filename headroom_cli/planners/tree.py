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
from ..plan import Keep, Lines, Plan
from ..render import search_marker_reserve, search_roll_up_summary
from ..tokens import Counter
from ..tools import Tool
from . import outline, pathlists
from .costs import MAX_LINE_CHARS, LineCosts
from .search.signals import TREE_COUNT

# The guides before a branch (`│ `, `|   `, spaces), then the branch itself.
_ENTRY = lazy(r"((?:[│|][ \t\xa0]{1,3}|[ \t\xa0])*)(?:[├└]─+[┬─]?[ \t]|[|`]--+[ \t])\S")
# An entry that says its subtree is shown elsewhere: cargo's `(*)`, npm's `deduped`, Maven's
# `(omitted for duplicate)`, pipdeptree's circular marks. It comes after every other entry.
_REPEAT = lazy(r".*(?:\(\*\)|\bdeduped|\(omitted for (?:duplicate|conflict)[^)]*\)"
               r"|[(\[]circular[)\]])\s*$")
_MIN_ENTRIES = 10
_SHARE = 0.7  # of the non-empty lines: the rest are a header (the project, the folder) and notes


def entries(rows: list[str]) -> list[tuple[int, int]]:
    """(line, depth) of every entry; depth 1 is the shallowest. A line in column 0 that no
    branch leads to is a root (depth 0) when a branch follows it or it lies among the
    branches (`pipdeptree` prints one per package); before or after the tree it is a note
    (npm's warnings). An entry shown elsewhere (_REPEAT) is deeper than any."""
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
    repeat = len(columns)  # deeper than any depth
    return [(index, repeat if _REPEAT.match(rows[index]) else columns[column])
            for index, column in sorted(branches + roots)]


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = outline.bodies(sample)
    branches = sum(1 for row in rows if _ENTRY.match(row))
    non_empty = sum(1 for row in rows if row.strip())
    return branches >= _MIN_ENTRIES and branches >= _SHARE * non_empty


def looks_like_a_path_list(sample: list[str], tool: Tool) -> bool:
    """`du -a`, `ls -R`: a tree listed path by path, mapped as a drawn tree of a folder is."""
    return pathlists.looks_like(sample)


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    listed = pathlists.reader(list(lines))
    if listed is not None:
        return listed(lines, budget, counter)
    rows = outline.bodies(list(lines))
    found = entries(rows)
    count = next((i for i in range(len(rows) - 1, max(-1, len(rows) - 4), -1)
                  if TREE_COUNT.match(rows[i])), None)
    if count is not None and found and found[0][1] == 0:
        return _path_map(rows, lines, found, count, budget, counter)
    return outline.plan("tree", "entries", text, lines, budget, counter, found)


def _path_map(rows: list[str], lines: Lines, found: list[tuple[int, int]], count: int,
              budget: int, counter: Counter) -> Plan | None:
    """`tree` of a folder (it closes with `N directories, M files`): the path map of its files
    (planners/pathmap.py), its rows shown as drawn (a folder's with its count), then that
    closing count."""
    stack: list[str] = []
    files, paths, folder_rows = [], [], {}
    for at, (index, depth) in enumerate(found):
        match = _ENTRY.match(rows[index])
        name = rows[index][match.end() - 1:] if match else rows[index]
        del stack[depth:]
        stack.append(name.rstrip("/"))
        deeper = at + 1 < len(found) and found[at + 1][1] > depth
        if depth and not deeper:
            files.append(index)
            paths.append("/".join(stack))
        elif depth:
            folder_rows["/".join(stack) + "/"] = index
    if not files:
        return None
    costs = LineCosts(rows, counter)
    reserve = search_marker_reserve(counter, len(rows), len(files), 0, MAX_LINE_CHARS)
    room = budget - reserve - costs.line(count)
    from .pathmap import plan_paths  # (here: as in pathlists._mapped)

    found_map = plan_paths(rows, lines, files, room, costs, drawn=paths, folder_rows=folder_rows)
    items = (*found_map.items, Keep(lines.start(count), lines.end(count)))
    summary = search_roll_up_summary(len(files) - found_map.named, len(files),
                                     found_map.files - found_map.named, found_map.groups, True)
    return Plan("tree", items, len(lines), len(lines) - 1, summary=summary)
