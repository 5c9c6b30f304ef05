"""Path lists that are not one path a line: `du -a` (a size in front of every path, a folder's
row after its contents) and `ls -R` (a `folder:` header, then the bare names in it). Both
become the path map (planners/pathmap.py) of the files they list: `du`'s rows are shown whole,
its folder lines with the folder's size and the biggest folders opened first; `ls -R`'s names
are named by their whole paths. `du`'s last row, the size of all it measured, is always kept.
"""

from __future__ import annotations

from ..patterns import lazy
from ..plan import Keep, Lines, Plan
from ..render import search_marker_reserve, search_roll_up_summary
from ..tokens import Counter
from .costs import MAX_LINE_CHARS, LineCosts, fit_in_order

# `du -a` (blocks), `du -ah` (4.0K, 1.8M), `du -ab` (bytes): a size, a tab, the path.
_SIZED = lazy(r"(\d+(?:[.,]\d+)?)([KMGTPEZY]?)\t(\S.*)$")
_UNITS = "KMGTPEZY"
# `ls -R`'s header of a folder: its path and a colon. `ls -l`'s rows are a listing's.
_HEADER = lazy(r"\S.*:$")
_LONG_ROW = lazy(r"total \d|[-dlcbps][-rwxsStT]{9}")
_MIN_ROWS = 10
_MIN_HEADERS = 2
_RANKED_SHARE = 0.5  # of the budget, for a size-sorted list's largest rows, as listed


def _sized(row: str):
    return _SIZED.match(row.rstrip("\r"))


def looks_like(sample: list[str]) -> bool:
    """A `du -a` listing or an `ls -R` one."""
    rows = [row for row in sample if row.strip()]
    if len(rows) < _MIN_ROWS:
        return False
    if all(_sized(row) for row in rows):
        return True
    return _headers(sample) is not None


def _headers(rows: list[str]) -> list[int] | None:
    """The header rows of an `ls -R` listing: its first row and every row after a blank one,
    each `path:`; None when the rows are not one."""
    heads = [0] + [i + 1 for i, row in enumerate(rows[:-1]) if not row.strip()]
    heads = [i for i in heads if i < len(rows) and rows[i].strip()]
    if len(heads) < _MIN_HEADERS or not all(_HEADER.match(rows[i].rstrip("\r")) for i in heads):
        return None
    if any(_LONG_ROW.match(row) or row[:1] in (" ", "\t") for row in rows):
        return None  # `ls -l`'s rows, or a document's indented lines (YAML under its keys)
    # Its folders lie in one another: most headers after the first name a listed folder's.
    folders = {rows[i].rstrip("\r")[:-1] for i in heads}
    inside = sum(1 for i in heads[1:] if rows[i].rstrip("\r")[:-1].rpartition("/")[0] in folders)
    return heads if 2 * inside >= len(heads) - 1 else None


def plan(text: str, lines: Lines, budget: int, counter: Counter) -> Plan | None:
    rows = [row.rstrip("\r") for row in lines]
    if all(_sized(row) for row in rows if row.strip()):
        return _du(rows, lines, budget, counter)
    return _ls_r(rows, lines, budget, counter)


def _bytes(number: str, unit: str) -> int:
    return int(float(number.replace(",", ".")) * 1024 ** (_UNITS.find(unit) + 1))


def _du(rows: list[str], lines: Lines, budget: int, counter: Counter) -> Plan | None:
    listed = [i for i, row in enumerate(rows) if row.strip()]
    matches = {i: _sized(rows[i]) for i in listed}
    paths = {i: matches[i][3].rstrip("/") for i in listed}
    folders = {paths[i] + "/" for i in listed} & {
        path[:cut + 1] for path in paths.values() for cut in _slashes(path)}
    # Its last row, when it holds all the others, is the total: kept whole after the map.
    last = listed[-1]
    total = last if all(paths[i].startswith(paths[last] + "/") for i in listed[:-1]) else None
    mapped = [i for i in listed if i != total]
    if not mapped:
        return None
    sizes = {paths[i] + "/": (matches[i][1] + matches[i][2], _bytes(matches[i][1], matches[i][2]))
             for i in mapped if paths[i] + "/" in folders}
    from .pathmap import Sized  # (as in _mapped)

    weight = {i: _bytes(matches[i][1], matches[i][2]) for i in mapped}
    costs = LineCosts(rows, counter)
    first = _largest_first(mapped, [weight[i] for i in mapped], costs,
                           int(_RANKED_SHARE * budget))
    mapped = [i for i in mapped if i not in first]
    sized = Sized([paths[i] for i in mapped], sizes)
    return _mapped(rows, lines, mapped, budget, costs, total, len(listed), first, sized=sized,
                   weights=[weight[i] for i in mapped])


def _largest_first(mapped: list[int], weights: list[int], costs: LineCosts,
                   room: int) -> set[int]:
    """Of a list sorted by size (`du | sort -rn`, largest first; `sort -n`, last), the
    largest rows that fit `room`: the order is the reader's question, and its first answers
    are shown as listed, before the map of the others. None of a list in du's own order
    (a folder's row after its contents)."""
    pairs = list(zip(weights, weights[1:]))
    if len(mapped) < _MIN_ROWS or weights[0] == weights[-1]:
        return set()
    if all(a >= b for a, b in pairs):
        ranked = mapped
    elif all(a <= b for a, b in pairs):
        ranked = mapped[::-1]
    else:
        return set()
    return set(fit_in_order(ranked, room, costs))


def _slashes(path: str):
    return (at for at, char in enumerate(path) if char == "/")


def _ls_r(rows: list[str], lines: Lines, budget: int, counter: Counter) -> Plan | None:
    heads = _headers(rows)
    if heads is None:
        return None
    folders = {rows[i][:-1].rstrip("/") for i in heads}
    files, paths = [], []
    for at, head in enumerate(heads):
        folder = rows[head][:-1].rstrip("/")
        end = heads[at + 1] if at + 1 < len(heads) else len(rows)
        for index in range(head + 1, end):
            name = rows[index]
            path = f"{folder}/{name}" if folder else name
            if name.strip() and path not in folders:  # a folder: its own header lists it
                files.append(index)
                paths.append(path)
    if not files:
        return None
    names = sum(1 for row in rows if row.strip()) - len(heads)
    return _mapped(rows, lines, files, budget, LineCosts(rows, counter), None, names,
                   drawn=paths)


def _mapped(rows: list[str], lines: Lines, mapped: list[int], budget: int, costs: LineCosts,
            total: int | None, listed: int, first: set[int] = frozenset(), **how) -> Plan:
    """The map of rows `mapped` and `total`, du's last row, kept; `listed`: the paths the
    output lists (its rows less `ls -R`'s headers); `first`: rows shown whole before the
    map, in their order."""
    reserve = search_marker_reserve(costs.counter, len(rows), len(mapped) + len(first), 0,
                                    MAX_LINE_CHARS)
    room = budget - reserve - (costs.line(total) if total is not None else 0)
    # Here, not at the top: sniffing a large output of any shape asks looks_like, and the
    # map's module costs ~3 ms to load.
    from .pathmap import plan_paths

    found = plan_paths(rows, lines, mapped, room, costs, **how)
    items = (*(Keep(lines.start(i), lines.end(i)) for i in sorted(first)), *found.items)
    if total is not None:
        items = (*items, Keep(lines.start(total), lines.end(total)))
    shown = found.named + (total is not None) + len(first)
    summary = search_roll_up_summary(listed - shown, listed, found.files - found.named,
                                     found.groups, True)
    kept = sum(isinstance(item, Keep) for item in items)
    return Plan("tree", tuple(items), len(lines), len(lines) - kept, summary=summary)
