"""The search plan: every file named with its match count, its best matches first, rolled up
under folders when not every file fits."""

from __future__ import annotations

from ...patterns import lazy
from ...plan import Keep, Lines, Narrowing, Note, Plan
from ...render import (search_file_header, search_folder_label, search_lines_summary,
                       search_marker_reserve, search_narrowing, search_roll_up_summary,
                       search_summary)
from ...tokens import Counter
from ...tools import Tool
from ..costs import MAX_LINE_CHARS, LineCosts, cut_note, fit_in_order
from ..pathclass import machine_made
from ..pathmap import plan_paths
from ..rollup import roll_up
from .signals import (DEFINITION, FileHits, HEADER_SHARE_FOR_STRAYS, NESTED_SITE, parse,
                      Parsed)
from .narrowing import moot, narrowing
from .sites import definition_sites, distinctive_lines

# The ladder's first rung: definition sites get at most this share of the room, and at least
# SITE_FLOOR of it when every file can be named beside them.
SITE_SHARE = 0.5
SITE_FLOOR = 0.2
MAX_CONTEXT = 10  # context lines shown on each side of a match, at most
_PIN_MISSES = 32  # sites in a row that do not fit before the first rung stops looking

def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool,
         counts: dict[str, int] | None = None,
         folders: list[tuple[str, int, int]] = ()) -> Plan | None:
    """`counts`: every file's matches in the whole output, when `text` is an excerpt of it
    (Scanner.planner); `folders`: (folder, matches, files) of the files it counted by folder
    only, past its cap. Those files' lines in the excerpt (its tail) are left to their folder."""
    rows = list(lines)
    parsed = parse(rows)
    if not parsed.files and not folders:
        return None
    if counts is not None:
        for hits in parsed.files.values():
            hits.total = counts.get(hits.path)
    if folders:
        parsed.files = {path: hits for path, hits in parsed.files.items()
                        if hits.total is not None}
        for key, matches, files in folders:
            parsed.files["\0" + key] = FileHits(key, total=matches, files=files, folder=True)
    costs = LineCosts(rows, counter)
    narrower = narrowing(list(parsed.files.values()), costs, budget, parsed.file_list)
    # The closing marker (its longest wording with this output's figures) and its hint.
    reserve = search_marker_reserve(
        counter, max(len(rows), sum(f.count for f in parsed.files.values())),
        sum(f.files for f in parsed.files.values()),
        sum(1 for row in rows if len(row) > MAX_LINE_CHARS), MAX_LINE_CHARS)
    if narrower is not None:
        reserve += counter.count(search_narrowing(narrower))
    stray_budget = int(budget * HEADER_SHARE_FOR_STRAYS)
    strays = fit_in_order(parsed.strays, stray_budget, costs)
    room = budget - reserve - sum(costs.line(i) for i in strays)
    files = list(parsed.files.values())
    if parsed.file_list:
        picks = _pick_matches(files, room, costs, True, {})
        if picks is None:
            return _path_map(files, rows, lines, room, costs, strays, narrower)
        return _listing(files, picks, rows, lines, strays, parsed, {}, narrower)
    # The ladder: the output's first match (what a reader meets first), definition sites of
    # the searched symbol (for a search that defines nothing, `raise …Error(`, the lines that
    # stand apart), then every file with its count, then a roll-up under folders.
    defined = definition_sites(files, rows)
    sites = _first_match(files) + (defined or distinctive_lines(files, rows))
    bare = _total_within(files, _NONE_SHOWN, 0, costs, room)  # every file named, no line
    share = int(SITE_SHARE * room)
    if bare <= room - SITE_FLOOR * room:
        share = max(min(share, room - bare), int(SITE_FLOOR * room))
    elif not defined:  # lines that only stand apart do not take the files' names' room
        share = int(SITE_FLOOR * room)
    pinned = _pin(files, sites, share, costs)
    picks = _pick_matches(files, room, costs, False, pinned)
    if picks is None:
        return _rolled_up(files, rows, lines, room, costs, strays, pinned, narrower)
    extra = _context(files, picks, room - _map_cost(files, picks, costs), costs)
    return _listing(files, picks, rows, lines, strays, parsed, extra, narrower)


def _first_match(files: list[FileHits]) -> list[tuple[int, int]]:
    """(file position, line index) of the output's first matched line, if any."""
    for position, hits in enumerate(files):
        if hits.matches and not hits.folder:
            return [(position, min(hits.matches))]
    return []


def _pin(files: list[FileHits], sites: list[tuple[int, int]], share: int,
         costs: LineCosts) -> dict[str, list[int]]:
    """The definition sites shown first: best first while their lines and their files'
    headers cost at most `share`."""
    pinned: dict[str, list[int]] = {}
    used = misses = 0
    for position, index in sites:
        hits = files[position]
        shown = pinned.get(hits.path, [])
        if index in shown:
            continue  # the first match, pinned already as a definition site
        grown = _file_cost(hits, shown + [index], costs) - (
            _file_cost(hits, shown, costs) if shown else 0)
        if used + grown > share:
            misses += 1
            if misses > _PIN_MISSES:
                break  # the share is spent: no need to price every site of a flood
            continue  # a shorter line further down may fit
        misses = 0
        pinned[hits.path] = shown + [index]
        used += grown
    return pinned


def _map_cost(files: list[FileHits], picks: dict[str, list[int]], costs: LineCosts) -> int:
    return sum(_file_cost(f, picks[f.path], costs) for f in files)


def _context(files: list[FileHits], picks: dict[str, list[int]], left: int,
             costs: LineCosts) -> dict[str, list[int]]:
    """Context lines (`-C`) around the matches shown, nearest first, file by file, while
    `left` lasts: the lines the search printed around its matches, once every match that can
    be shown is."""
    extra: dict[str, list[int]] = {}
    if left <= 0 or not any(f.context for f in files):
        return extra
    taken: set[int] = set()
    printed = {hits.path: set(hits.context) for hits in files
               if hits.context and picks[hits.path]}
    for distance in range(1, MAX_CONTEXT + 1):
        added = False
        for hits in files:
            known = printed.get(hits.path)
            if known is None:
                continue
            for index in picks[hits.path]:
                for row in (index - distance, index + distance):
                    if row in taken or row not in known:
                        continue
                    step = 1 if row > index else -1
                    if distance > 1 and row - step not in taken:
                        continue  # the nearer line is not shown: this one would float
                    price = costs.line(row)
                    if price <= left:
                        taken.add(row)
                        extra.setdefault(hits.path, []).append(row)
                        left -= price
                        added = True
        if not added:
            break
    return extra


def _priority(hits: FileHits, rows: list[str]) -> list[int]:
    """Matches to show first: top-level definitions (a file's outline), then the telling
    lines inside (NESTED_SITE: a method's `    def send(`, an error's `    raise
    ImproperlyConfigured(`), then the rest in input order (a nested `var x = req.y` defines
    nothing the search was after). The streaming scanner keeps the same ranks' lines."""

    def rank(index: int) -> int:
        body = rows[index][hits.text_start[index]:]
        if body[:1] not in " \t":
            return 0 if DEFINITION.match(body) else 2
        return 1 if NESTED_SITE.match(body) else 2

    return sorted(hits.matches, key=lambda i: (rank(i), i))


def _header(hits: FileHits, shown: int) -> str:
    if hits.folder:  # files past the scanner's cap, beyond those named
        return search_folder_label(hits.path, hits.files, hits.count, more=True)
    return search_file_header(hits.path, hits.count, shown)


def _pick_matches(files: list[FileHits], room: int, costs: LineCosts, file_list: bool,
                  pinned: dict[str, list[int]]) -> dict[str, list[int]] | None:
    """The most matches per file (the same cap for all, the pinned definition sites first)
    that fit; None if not even a header each (and the pinned sites)."""
    if file_list:
        total = sum(costs.line(f.heading) for f in files)
        return {f.path: [] for f in files} if total <= room else None
    if _total_within(files, _NoneShown(pinned), 0, costs, room, pinned) > room:
        return None  # not even a header each (known before ranking any file's matches)
    orders = {}
    for f in files:
        first = pinned.get(f.path, [])
        chosen = set(first)
        orders[f.path] = first + [i for i in _priority(f, costs.rows) if i not in chosen]
    best = None
    cap = 0
    while True:
        used = _total_within(files, orders, cap, costs, room, pinned)
        if used > room:
            break
        best = (cap, used)
        if all(len(f.matches) <= cap for f in files):
            break  # all there is to show (an excerpt's count may be larger: its header says so)
        cap += 1
    if best is None:
        return None
    cap, used = best
    picks = {f.path: orders[f.path][:max(cap, len(pinned.get(f.path, ())))] for f in files}
    # Spend what is left one more match at a time, in file order.
    for f in files:
        have = len(picks[f.path])
        extra = orders[f.path][have:have + 1]
        if extra:
            grown = _file_cost(f, picks[f.path] + extra, costs) - _file_cost(f, picks[f.path], costs)
            if used + grown <= room:
                picks[f.path] = picks[f.path] + extra
                used += grown
    return picks


class _NoneShown(dict):
    """Orders for _total_within when no file shows a match yet (cap 0): none ranked."""

    def __missing__(self, key):
        return ()


_NONE_SHOWN = _NoneShown()


def _total_within(files: list[FileHits], orders: dict, cap: int, costs: LineCosts,
                  room: int, pinned: dict | None = None) -> int:
    """The map's cost at `cap` matches a file (at least its pinned ones), counted only until
    it passes room."""
    used = 0
    for f in files:
        least = len(pinned.get(f.path, ())) if pinned else 0
        used += _file_cost(f, orders[f.path][:max(cap, least)], costs)
        if used > room:
            break
    return used


def _file_cost(hits: FileHits, shown: list[int], costs: LineCosts) -> int:
    cost = sum(costs.line(i) for i in shown)
    if len(shown) < hits.count or hits.heading is not None and not shown:
        cost += costs.note(_header(hits, len(shown)))
    elif hits.heading is not None:
        cost += costs.line(hits.heading)
    return cost


def _listing(files: list[FileHits], picks: dict[str, list[int]], rows: list[str], lines: Lines,
             strays: list[int], parsed: Parsed, extra: dict[str, list[int]],
             narrower: Narrowing | None) -> Plan:
    items: list = []
    shown_total = 0
    for hits in files:
        shown = picks[hits.path]
        shown_total += len(shown)
        if parsed.file_list or len(shown) == hits.count and hits.heading is not None:
            items.append(_keep_line(hits.heading, rows, lines))
        elif len(shown) < hits.count:
            items.append(Note(_header(hits, len(shown))))
        items.extend(_keep_line(i, rows, lines)
                     for i in sorted(shown + extra.get(hits.path, [])))
    items.extend(_keep_line(i, rows, lines) for i in strays)
    total = sum(f.count for f in files)
    kept_lines = sum(isinstance(i, Keep) for i in items)
    cut = sum(1 for item in items if isinstance(item, Keep) and item.suffix)
    if parsed.file_list:
        summary = search_lines_summary(len(lines) - kept_lines, len(lines), cut, MAX_LINE_CHARS)
    else:
        summary = search_summary(total - shown_total, total,
                                 sum(f.files for f in files if len(picks[f.path]) < f.count),
                                 sum(f.files for f in files), any(f.folder for f in files),
                                 cut, MAX_LINE_CHARS)
    return Plan("search", tuple(items), len(lines), len(lines) - kept_lines, summary=summary,
                narrowing=moot(narrower, True, shown_total >= total))


def _path_map(files: list[FileHits], rows: list[str], lines: Lines, room: int, costs: LineCosts,
              strays: list[int], narrower: Narrowing | None) -> Plan:
    """A file list too long to print: its map (planners/pathmap.py), the stray lines after."""
    counts = [_COUNTED.search(f.path) for f in files]  # `rg -c`: path:count
    # The last path, when it is a folder's own row (`dpkg -L` closes with its doc folder),
    # has no file line in the map: it is kept after it, where the list ends.
    last = files[-1].heading
    folder = files[-1].path.rstrip("/\\") + "/"
    closing = [last] if any(f.path.startswith(folder) for f in files[:-1]) else []
    room -= sum(costs.line(i) for i in closing)
    found = plan_paths(rows, lines, [f.heading for f in files], room, costs,
                       weights=[int(m[1]) for m in counts] if all(counts) else None)
    items = [*found.items, *(_keep_line(i, rows, lines) for i in closing + strays)]
    cut = sum(1 for item in items if isinstance(item, Keep) and item.suffix)
    total = len(files)
    summary = search_roll_up_summary(total - found.named, total, found.files - found.named,
                                     found.groups, True, cut, MAX_LINE_CHARS)
    kept = sum(isinstance(item, Keep) for item in items)
    return Plan("search", tuple(items), len(lines), len(lines) - kept, summary=summary,
                narrowing=narrower)


def _keep_line(index: int, rows: list[str], lines: Lines) -> Keep:
    row = rows[index]
    start = lines.start(index)
    if len(row) <= MAX_LINE_CHARS:
        return Keep(start, lines.end(index))
    return Keep(start, start + MAX_LINE_CHARS, suffix=cut_note(row))


_EXACT_ROLL_UP = 1000
_COUNTED = lazy(r":(\d{1,12})$")  # (int() refuses a number past 4,300 digits)


def _estimate(text: str) -> int:
    return len(text) // 3 + 2  # paths run about 3-4 characters a token; err on the high side


def _rolled_up(files: list[FileHits], rows: list[str], lines: Lines, room: int, costs: LineCosts,
               strays: list[int], pinned: dict[str, list[int]],
               narrower: Narrowing | None) -> Plan:
    """The files holding pinned definition sites named with them; the others rolled up under
    their directories, with counts, as deep as the budget allows, the heaviest folders open
    longest."""
    named = [f for f in files if f.path in pinned]
    others = [f for f in files if f.path not in pinned]
    room -= sum(_file_cost(f, pinned[f.path], costs) for f in named)
    near = [f.path for f in named]

    def beside(key: str) -> bool:  # a folder with a named file in it: the others are "more"
        return any(path.startswith(key) for path in near)

    def label(key: str, members: list[int]) -> str:
        if len(members) == 1 and others[members[0]].path == key:
            return _header(others[members[0]], 0)
        return folder(key, members, beside(key))

    # Folders are labelled over and over while rolling up: their sums are taken in C.
    files_of, count_of = [f.files for f in others], [f.count for f in others]

    def folder(key: str, members: list[int], more: bool) -> str:
        return search_folder_label(key, sum(map(files_of.__getitem__, members)),
                                   sum(map(count_of.__getitem__, members)), more)

    def rest(key: str, members: list[int]) -> str:  # beside the folder's files named alone
        return folder(key, members, True)

    # Thousands of files: estimate each line's tokens while rolling up (counting them all
    # would cost more than the clip); fit.py checks the rendered result exactly.
    cost = costs.note if len(others) <= _EXACT_ROLL_UP else _estimate
    # Vendored, built and generated files weigh nothing: their folders roll up first, and
    # the project's own files are named before them.
    weights = [0 if machine_made(f.path) else f.count for f in others]
    entries = roll_up([f.path for f in others], label, cost, room, rest, weights,
                      costs.note) if others else []
    position = {f.path: at for at, f in enumerate(files)}
    placed = [(position[others[members[0]].path], [Note(entry)]) for entry, members in entries]
    shown_total = 0
    for hits in named:
        shown = sorted(pinned[hits.path])
        shown_total += len(shown)
        if len(shown) < hits.count:
            section = [Note(_header(hits, len(shown)))]
        else:  # every match shown: an `rg --heading` file keeps its heading (_file_cost)
            section = [] if hits.heading is None else [_keep_line(hits.heading, rows, lines)]
        placed.append((position[hits.path],
                       section + [_keep_line(i, rows, lines) for i in shown]))
    placed.sort(key=lambda entry: entry[0])
    items = [item for _, section in placed for item in section]
    items += [_keep_line(i, rows, lines) for i in strays]
    total = sum(f.count for f in files)
    cut = sum(1 for item in items if isinstance(item, Keep) and item.suffix)
    summary = search_roll_up_summary(total - shown_total, total, sum(f.files for f in files),
                                     len(entries) + len(named), False, cut, MAX_LINE_CHARS)
    kept = sum(isinstance(item, Keep) for item in items)
    return Plan("search", tuple(items), len(lines), len(lines) - kept, summary=summary,
                narrowing=narrower)
