"""Path lists that are not one path a line: `du -a` (a size in front of every path, a folder's
row after its contents), `ls -R` (a `folder:` header, then the bare names in it) and lists
whose every row has the same fields in front of its path (`wc -l`'s count, `sha256sum`'s
digest, `git ls-tree`'s mode, type and object, `git ls-files -s`'s stage, `git diff
--numstat`'s counts). All become the path map (planners/pathmap.py) of the files they list:
their rows are shown whole; `du`'s folder lines with the folder's size and the biggest folders
opened first; `ls -R`'s names are named by their whole paths; a list whose field next to the
path is a number (a count, a size) names its heaviest files first. A last row of all the list
measured (`du`'s total, `wc`'s `total`) is always kept.
"""

from __future__ import annotations

import collections
import itertools
from functools import partial

from ..patterns import lazy
from ..plan import Keep, Lines, Plan
from ..render import search_marker_reserve, search_roll_up_summary
from ..tokens import Counter
from .costs import MAX_LINE_CHARS, LineCosts, fit_in_order

# `du -a` (blocks), `du -ah` (4.0K, 1.8M), `du -ab` (bytes): a size, a tab, the path.
_SIZED = lazy(r"(\d+(?:[.,]\d+)?)([KMGTPEZY]?)\t(\S[^\t]*)$")  # (a tab more: numstat)
_UNITS = "KMGTPEZY"
# `ls -R`'s header of a folder: its path and a colon. `ls -l`'s rows are a listing's.
_HEADER = lazy(r"\S.*:$")
_LONG_ROW = lazy(r"total \d|[-dlcbps][-rwxsStT]{9}")
# A row of fields and a path: each field a number, a size, a hex digest or object id, git's
# object type or a `-` (numstat's binary file); `sha256sum -b`'s `*` before the path. The
# fields' repeat is possessive: a field may read as a digest or a number, and a row of many
# that ends in no path would otherwise be tried every way (2ⁿ) before it is refused.
_FIELDED = lazy(r"[ \t]*+((?:(?:[0-9a-f]{7,64}|\d+(?:[.,]\d+)?[KMGTPEZY]?|-|blob|tree|commit)"
                r"[ \t]++)++)\*?(\S[^\t]*)$")
_PATH_LIKE = lazy(r"[/\\]|\.[A-Za-z][\w-]*$")  # a folder in it, or a file's extension
_PATH_SHARE = 0.8  # of a fielded list's rows, those that look like a path
_SPACED_SHARE = 0.1  # the most of them that hold a space (a command line's arguments do)
_WEIGHT = lazy(r"\d{1,15}|-")  # (`-`: a submodule's size, a binary file's line count)
_ODD_SHARE = 0.05  # of a fielded list's rows, the most a field's rare value is on
_ODD_ROOM = 0.25  # of the budget, for the rows of rare values, shown first as listed
_TOTAL = "total"  # `wc`'s last row
_MIN_ROWS = 10
_MIN_HEADERS = 2
_RANKED_SHARE = 0.5  # of the budget, for a size-sorted list's largest rows, as listed


def _sized(row: str):
    return _SIZED.match(row.rstrip("\r"))


def looks_like(sample: list[str]) -> bool:
    """A `du -a` listing, an `ls -R` one or a list of fields and paths."""
    return reader(sample) is not None


def reader(rows: list[str]):
    """The planner of these rows, `(lines, budget, counter) -> Plan | None`, holding what
    reading them found (`ls -R`'s headers, each fielded row's fields and path), when they are
    a path list of one of the three kinds; None when they are none."""
    filled = [row for row in rows if row.strip()]
    if len(filled) < _MIN_ROWS:
        return None
    if all(_sized(row) for row in filled):
        return _du
    heads = _headers(rows)
    if heads is not None:
        return partial(_ls_r, heads=heads)
    found = _fielded(filled)
    return None if found is None else partial(_with_fields, found=found)


def _fielded(rows: list[str]) -> list[tuple[list[str], str]] | None:
    """Each row's fields and path, when every row has as many fields in front of a path and
    most paths look like one (`uniq -c`'s counted words do not; `ps`'s command lines hold
    spaces); None otherwise."""
    found = []
    for row in rows:
        match = _FIELDED.match(row.rstrip("\r"))
        if match is None:
            return None
        found.append((match[1].split(), match[2]))
    if len({len(fields) for fields, _ in found}) > 1:
        return None
    paths = [path for _, path in found]
    if (sum(1 for path in paths if _PATH_LIKE.search(path)) < _PATH_SHARE * len(paths)
            or sum(1 for path in paths if " " in path) > _SPACED_SHARE * len(paths)):
        return None
    return found


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


def _rows(lines: Lines) -> list[str]:
    return [row.rstrip("\r") for row in lines]


def _bytes(number: str, unit: str) -> int:
    return int(float(number.replace(",", ".")) * 1024 ** (_UNITS.find(unit) + 1))


def _du(lines: Lines, budget: int, counter: Counter) -> Plan | None:
    rows = _rows(lines)
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

    weights = [_bytes(matches[i][1], matches[i][2]) for i in mapped]
    costs = LineCosts(rows, counter)
    first = _largest_first(mapped, weights, costs, int(_RANKED_SHARE * budget))
    return _mapped(rows, lines, mapped, budget, costs, total, len(listed), first,
                   sized=Sized(sizes), paths=[paths[i] for i in mapped], weights=weights)


def _with_fields(lines: Lines, budget: int, counter: Counter,
                 found: list[tuple[list[str], str]]) -> Plan | None:
    """The map of a list of fields and paths, after the rows of a field's rare values (_odd)
    and, when the numbers next to the path (_weight) are not the same on every row, its
    weights: the heaviest are named first, and a list sorted by them opens with its largest
    rows (not `git ls-files -s`, whose stage is 0 on every row outside a merge). `found`:
    each listed row's fields and path (_fielded)."""
    rows = _rows(lines)
    listed = [i for i, row in enumerate(rows) if row.strip()]
    total = listed[-1] if found[-1][1] == _TOTAL else None
    mapped = [i for i in listed if i != total]
    if not mapped:
        return None
    fields = [each for each, _ in found[:len(mapped)]]
    weights = [_weight(each) for each in fields]
    if None in weights or len(set(weights)) < 2:
        weights = None
    costs = LineCosts(rows, counter)
    first = set(fit_in_order([mapped[at] for at in _odd(fields)], int(_ODD_ROOM * budget),
                             costs))
    if weights is not None:
        first |= _largest_first(mapped, weights, costs, int(_RANKED_SHARE * budget))
    return _mapped(rows, lines, mapped, budget, costs, total, len(listed), first,
                   paths=[path for _, path in found[:len(mapped)]], weights=weights)


def _measures(fields: list[str]) -> list[str]:
    """The numbers next to a row's path (`wc -l`'s count, `git ls-tree -l`'s size, `git diff
    --numstat`'s lines added and deleted, `git ls-files -s`'s stage)."""
    return list(itertools.takewhile(_WEIGHT.fullmatch, reversed(fields)))


def _weight(fields: list[str]) -> int | None:
    """The sum of the numbers next to a row's path; None when the field next to it is none."""
    numbers = _measures(fields)
    return sum(int(n) for n in numbers if n != "-") if numbers else None


def _odd(fields: list[list[str]]) -> list[int]:
    """The rows (positions in `fields`) holding a field's rare value where most rows agree on
    one (`git ls-tree`'s one symbolic link, `120000`, and its submodule, `160000 commit`,
    among `100644 blob` rows; a PNG with the executable bit), the rarest values first. Not
    of the numbers next to the path: a measure, not a kind (numstat's files that lost lines
    among files only added)."""
    odd: dict[int, int] = {}
    kinds = len(fields[0]) - min(len(_measures(each)) for each in fields)
    for column in itertools.islice(zip(*fields), kinds):
        counts = collections.Counter(column)
        if counts.most_common(1)[0][1] * 2 < len(column):
            continue  # no norm: a digest, a size
        for at, value in enumerate(column):
            if counts[value] <= _ODD_SHARE * len(column):
                odd[at] = min(odd.get(at, counts[value]), counts[value])
    return sorted(odd, key=lambda at: (odd[at], at))


def _largest_first(mapped: list[int], weights: list[int], costs: LineCosts,
                   room: int) -> set[int]:
    """Of a list sorted by size (`du | sort -rn`, largest first; `sort -n`, last), the
    largest rows that fit `room`: the order is the reader's question, and its first answers
    are shown as listed, before the map of the others. None of a list in du's own order
    (a folder's row after its contents)."""
    if len(mapped) < _MIN_ROWS or weights[0] == weights[-1]:
        return set()
    pairs = list(itertools.pairwise(weights))
    if all(a >= b for a, b in pairs):
        ranked = mapped
    elif all(a <= b for a, b in pairs):
        ranked = mapped[::-1]
    else:
        return set()
    return set(fit_in_order(ranked, room, costs))


def _slashes(path: str):
    return (at for at, char in enumerate(path) if char == "/")


def _ls_r(lines: Lines, budget: int, counter: Counter, heads: list[int]) -> Plan | None:
    """`heads`: the rows of its folders' headers (_headers)."""
    rows = _rows(lines)
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
    output lists (its rows less `ls -R`'s headers); `first`: rows of `mapped` shown whole
    before the map, in their order (counted in their folders, not named again)."""
    reserve = search_marker_reserve(costs.counter, len(rows), len(mapped), 0, MAX_LINE_CHARS)
    room = budget - reserve - sum(costs.line(i) for i in first) - (
        costs.line(total) if total is not None else 0)
    # Here, not at the top: sniffing a large output of any shape asks looks_like, and the
    # map's module costs ~3 ms to load.
    from .pathmap import plan_paths

    found = plan_paths(rows, lines, mapped, room, costs,
                       shown={at for at, i in enumerate(mapped) if i in first}, **how)
    items = (*(Keep(lines.start(i), lines.end(i)) for i in sorted(first)), *found.items)
    if total is not None:
        items = (*items, Keep(lines.start(total), lines.end(total)))
    shown = found.named + (total is not None)
    summary = search_roll_up_summary(listed - shown, listed, found.files - found.named,
                                     found.groups, True)
    kept = sum(isinstance(item, Keep) for item in items)
    return Plan("tree", tuple(items), len(lines), len(lines) - kept, summary=summary)
