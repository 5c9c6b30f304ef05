"""The search plan: every file named with its match count, its best matches first, rolled up
under folders when not every file fits."""

from __future__ import annotations


from ...plan import Keep, Lines, Note, Plan
from ...tokens import Counter
from ...tools import Tool
from ..costs import MAX_LINE_CHARS, LineCosts, cut_note, fit_in_order
from ..rollup import roll_up
from .signals import DEFINITION, FileHits, HEADER_SHARE_FOR_STRAYS, parse, Parsed

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
    reserve = 90  # the closing marker
    stray_budget = int(budget * HEADER_SHARE_FOR_STRAYS)
    strays = fit_in_order(parsed.strays, stray_budget, costs)
    room = budget - reserve - sum(costs.line(i) for i in strays)
    files = list(parsed.files.values())
    picks = _pick_matches(files, room, costs, parsed.file_list)
    if picks is None:
        return _rolled_up(files, rows, lines, room, costs, strays, parsed)
    return _listing(files, picks, rows, lines, strays, parsed)


def _priority(hits: FileHits, rows: list[str]) -> list[int]:
    """Matches to show first: top-level definitions, then nested ones, then the rest."""

    def rank(index: int) -> int:
        body = rows[index][hits.text_start[index]:]
        stripped = body.lstrip()
        if not DEFINITION.match(stripped):
            return 2
        return 0 if len(stripped) == len(body) else 1

    return sorted(hits.matches, key=lambda i: (rank(i), i))


def _header(hits: FileHits, shown: int) -> str:
    total = hits.count
    noun = "match" if total == 1 else "matches"
    if hits.folder:  # files past the scanner's cap, beyond those named
        return (f"{hits.path} ({hits.files:,} more file{'' if hits.files == 1 else 's'}, "
                f"{total:,} {noun})")
    return f"{hits.path} ({total:,} {noun}, showing {shown:,})" if shown else \
        f"{hits.path} ({total:,} {noun})"


def _pick_matches(files: list[FileHits], room: int, costs: LineCosts,
                  file_list: bool) -> dict[str, list[int]] | None:
    """The most matches per file (the same cap for all) that fit; None if not even a header each."""
    if file_list:
        total = sum(costs.line(f.heading) for f in files)
        return {f.path: [] for f in files} if total <= room else None
    if _total_within(files, _NONE_SHOWN, 0, costs, room) > room:
        return None  # not even a header each (known before ranking any file's matches)
    orders = {f.path: _priority(f, costs.rows) for f in files}
    best = None
    cap = 0
    while True:
        used = _total_within(files, orders, cap, costs, room)
        if used > room:
            break
        best = (cap, used)
        if all(len(f.matches) <= cap for f in files):
            break  # all there is to show (an excerpt's count may be larger: its header says so)
        cap += 1
    if best is None:
        return None
    cap, used = best
    picks = {f.path: orders[f.path][:cap] for f in files}
    # Spend what is left one more match at a time, in file order.
    for f in files:
        extra = orders[f.path][cap:cap + 1]
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
                  room: int) -> int:
    """The map's cost at `cap` matches a file, counted only until it passes room."""
    used = 0
    for f in files:
        used += _file_cost(f, orders[f.path][:cap], costs)
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
             strays: list[int], parsed: Parsed) -> Plan:
    items: list = []
    shown_total = 0
    for hits in files:
        shown = sorted(picks[hits.path])
        shown_total += len(shown)
        if parsed.file_list or len(shown) == hits.count and hits.heading is not None:
            items.append(_keep_line(hits.heading, rows, lines))
        elif len(shown) < hits.count:
            items.append(Note(_header(hits, len(shown))))
        items.extend(_keep_line(i, rows, lines) for i in shown)
    items.extend(_keep_line(i, rows, lines) for i in strays)
    total = sum(f.count for f in files)
    kept_lines = sum(isinstance(i, Keep) for i in items)
    if parsed.file_list:
        summary = None
    else:
        cut_short = sum(f.files for f in files if len(picks[f.path]) < f.count)
        counted = sum(f.files for f in files)
        named = ("each named above with its match count" if not any(f.folder for f in files)
                 else "named above with their match counts, or counted by folder")
        summary = (f"{total - shown_total:,} of {total:,} matched lines omitted ({cut_short:,} of "
                   f"{counted:,} files cut short, {named})")
    cut = sum(1 for item in items if isinstance(item, Keep) and item.suffix)
    if cut:
        summary = (summary + "; " if summary else "") + (
            f"{cut:,} long lines cut after {MAX_LINE_CHARS} characters")
    return Plan("search", tuple(items), len(lines), len(lines) - kept_lines,
                summary=summary or f"{len(lines) - kept_lines:,} of {len(lines):,} lines omitted")


def _keep_line(index: int, rows: list[str], lines: Lines) -> Keep:
    row = rows[index]
    start = lines.start(index)
    if len(row) <= MAX_LINE_CHARS:
        return Keep(start, lines.end(index))
    return Keep(start, start + MAX_LINE_CHARS, suffix=cut_note(row))


_EXACT_ROLL_UP = 1000


def _estimate(text: str) -> int:
    return len(text) // 3 + 2  # paths run about 3-4 characters a token; err on the high side


def _rolled_up(files: list[FileHits], rows: list[str], lines: Lines, room: int, costs: LineCosts,
               strays: list[int], parsed: Parsed) -> Plan:
    """Files rolled up under their directories, with counts, as deep as the budget allows."""

    def label(key: str, members: list[int]) -> str:
        hits = [files[i] for i in members]
        if len(hits) == 1 and hits[0].path == key:
            return key if parsed.file_list else _header(hits[0], 0)
        matches = sum(h.count for h in hits)
        counts = f"{sum(h.files for h in hits):,} files" + (
            "" if parsed.file_list else f", {matches:,} matches")
        return f"{key or './'} ({counts})"

    def rest(key: str, members: list[int]) -> str:
        matches = sum(files[i].count for i in members)
        counts = f"{sum(files[i].files for i in members):,} more files" + (
            "" if parsed.file_list else f", {matches:,} matches")
        return f"{key or './'} ({counts})"

    # Thousands of files: estimate each line's tokens while rolling up (counting them all
    # would cost more than the clip); fit.py checks the rendered result exactly.
    cost = costs.note if len(files) <= _EXACT_ROLL_UP else _estimate
    entries = roll_up([f.path for f in files], label, cost, room, rest)
    items = [Note(entry) for entry, _ in entries] + [_keep_line(i, rows, lines) for i in strays]
    total = sum(f.count for f in files)
    counted = sum(f.files for f in files)
    what = "paths" if parsed.file_list else "matched lines"
    count = counted if parsed.file_list else total
    groups = "group" if len(entries) == 1 else "groups"
    summary = (f"{count:,} of {count:,} {what} omitted ({counted:,} files in "
               f"{len(entries):,} {groups} named above with their counts)")
    return Plan("search", tuple(items), len(lines), len(lines) - len(strays), summary=summary)
