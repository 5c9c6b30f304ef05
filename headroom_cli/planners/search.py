"""search: a map beats matches.

Every matching file stays named with its exact match count, then its first few matches
(definition sites first). The budget goes to fewer matches per file before fewer files; when even
one line per file does not fit, files roll up under their directories with counts, so no part of
the tree silently vanishes.

Understands `path:NN:text` (grep -n, rg -n), `path:NN:CC:text` (vimgrep), context lines
`path-NN-text` with `--` separators, `rg --heading` groups, Windows paths, and plain file lists
(`rg -l`, Glob).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..plan import Keep, Lines, Note, Plan
from ..tokens import Counter
from ..tools import Tool
from .costs import MAX_LINE_CHARS, LineCosts, cut_note, fit_in_order
from .rollup import roll_up

_MATCH = re.compile(r"(?P<path>(?:[A-Za-z]:[\\/])?[^:\n]*?[^\s:]):(?P<line>\d+):(?:(?P<col>\d+):)?")
_HEADING_ENTRY = re.compile(r"\d+[:-]")
_CONTEXT_SEP = re.compile(r"-(\d+)-")
_EXTENSION = re.compile(r"\.[A-Za-z0-9_+~-]{1,12}$")
_BARE_FILES = {"Makefile", "Dockerfile", "Gemfile", "Rakefile", "Procfile", "Jenkinsfile",
               "Vagrantfile", "Justfile", "LICENSE", "README", "BUILD", "WORKSPACE", "go.mod"}
# Compiler and linter diagnostics (`x.c:12:5: error: …`, `x.py:3:1: F401 …`) look like vimgrep
# output but are logs.
_DIAGNOSTIC = re.compile(r"\s*(?:fatal error|error|warning|note|info|hint)\b|\s*[A-Z]{1,4}\d{2,5}\b")
_DEFINITION = re.compile(
    r"(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:static\s+)?"
    r"(?:def|class|function|func|fn|interface|struct|enum|trait|impl|module|macro|sub|type)\s+\S"
    r"|(?:const|let|var)\s+[\w$]+\s*=|[\w$.\[\]'\"]+\s*=[^=]"
)
MIN_MATCH_LINES = 20
MIN_SHARE = 0.75
_HEADER_SHARE_FOR_STRAYS = 0.1  # lines that are not matches (rg's own errors) get at most this


def looks_like(sample: list[str], tool: Tool) -> bool:
    parsed = parse(sample)
    non_empty = sum(1 for line in sample if line.strip())
    if not non_empty:
        return False
    if parsed.file_list:
        return len(parsed.files) >= MIN_MATCH_LINES and len(parsed.files) >= 0.9 * non_empty
    matches = sum(len(f.matches) for f in parsed.files.values())
    if matches < MIN_MATCH_LINES or parsed.recognised < MIN_SHARE * non_empty:
        return False
    diagnostics = sum(1 for f in parsed.files.values() for i in f.matches
                      if _DIAGNOSTIC.match(sample[i], f.text_start[i]))
    return diagnostics < 0.3 * matches


@dataclass
class FileHits:
    path: str
    matches: list[int] = field(default_factory=list)  # line indexes
    context: list[int] = field(default_factory=list)
    heading: int | None = None  # the heading line, in `rg --heading` output
    text_start: dict[int, int] = field(default_factory=dict)  # where the matched text begins


@dataclass
class Parsed:
    files: dict[str, FileHits]
    strays: list[int]  # lines that are neither matches, context, separators nor blank
    recognised: int
    file_list: bool = False


def parse(rows: list[str]) -> Parsed:
    files: dict[str, FileHits] = {}
    unmatched: list[int] = []
    recognised = 0
    for index, row in enumerate(rows):
        m = _MATCH.match(row)
        if m and _is_path(m["path"]):
            hits = files.setdefault(m["path"], FileHits(m["path"]))
            hits.matches.append(index)
            hits.text_start[index] = m.end()
            recognised += 1
        else:
            unmatched.append(index)
    strays: list[int] = []
    heading: FileHits | None = None
    for index in unmatched:
        row = rows[index]
        if not row.strip() or row == "--":
            heading = None if not row.strip() else heading
            recognised += bool(row.strip())
            continue
        context = _context_path(row, files)
        if context:
            files[context].context.append(index)
            recognised += 1
        elif heading and _HEADING_ENTRY.match(row):
            _add_heading_entry(heading, index, row)
            recognised += 1
        elif _is_path(row.rstrip("\r")) and index + 1 < len(rows) \
                and _HEADING_ENTRY.match(rows[index + 1]):
            path = row.rstrip("\r")  # CRLF output: the CR is the line's end, not the path's
            heading = files.setdefault(path, FileHits(path))
            heading.heading = index
            recognised += 1
        else:
            strays.append(index)
    if not files and strays and all(_is_path(rows[i].rstrip("\r")) for i in strays):
        return Parsed({rows[i].rstrip("\r"): FileHits(rows[i].rstrip("\r"), heading=i)
                       for i in strays}, [],
                      len(strays), file_list=True)
    return Parsed(files, strays, recognised)


def _add_heading_entry(hits: FileHits, index: int, row: str) -> None:
    digits = len(row) - len(row.lstrip("0123456789"))
    if row[digits] == ":":
        hits.matches.append(index)
        hits.text_start[index] = digits + 1
    else:
        hits.context.append(index)


def _context_path(row: str, files: dict[str, FileHits]) -> str | None:
    for m in _CONTEXT_SEP.finditer(row):
        if row[:m.start()] in files:
            return row[:m.start()]
    return None


@lru_cache(maxsize=8192)  # a flood repeats each path hundreds of times
def _is_path(candidate: str) -> bool:
    if not candidate or candidate[0].isspace() or "\t" in candidate or candidate.startswith("["):
        return False
    if not any(c.isalpha() for c in candidate):
        return False  # a timestamp's `12:34:56`
    if " " in candidate and "/" not in candidate and "\\" not in candidate:
        return False
    name = re.split(r"[\\/]", candidate.rstrip("/\\"))[-1]
    if "/" in candidate or "\\" in candidate:
        return bool(name) and ": " not in candidate
    return bool(_EXTENSION.search(name)) or name in _BARE_FILES


# --------------------------------------------------------------------------- planning


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = list(lines)
    parsed = parse(rows)
    if not parsed.files:
        return None
    costs = LineCosts(rows, counter)
    reserve = 90  # the closing marker
    stray_budget = int(budget * _HEADER_SHARE_FOR_STRAYS)
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
        if not _DEFINITION.match(stripped):
            return 2
        return 0 if len(stripped) == len(body) else 1

    return sorted(hits.matches, key=lambda i: (rank(i), i))


def _header(hits: FileHits, shown: int) -> str:
    total = len(hits.matches)
    noun = "match" if total == 1 else "matches"
    return f"{hits.path} ({total:,} {noun}, showing {shown:,})" if shown else \
        f"{hits.path} ({total:,} {noun})"


def _pick_matches(files: list[FileHits], room: int, costs: LineCosts,
                  file_list: bool) -> dict[str, list[int]] | None:
    """The most matches per file (the same cap for all) that fit; None if not even a header each."""
    if file_list:
        total = sum(costs.line(f.heading) for f in files)
        return {f.path: [] for f in files} if total <= room else None
    orders = {f.path: _priority(f, costs.rows) for f in files}
    best = None
    cap = 0
    while True:
        used = _total_within(files, orders, cap, costs, room)
        if used > room:
            break
        best = (cap, used)
        if all(len(f.matches) <= cap for f in files):
            break
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
    if len(shown) < len(hits.matches) or hits.heading is not None and not shown:
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
        if parsed.file_list or len(shown) == len(hits.matches) and hits.heading is not None:
            items.append(_keep_line(hits.heading, rows, lines))
        elif len(shown) < len(hits.matches):
            items.append(Note(_header(hits, len(shown))))
        items.extend(_keep_line(i, rows, lines) for i in shown)
    items.extend(_keep_line(i, rows, lines) for i in strays)
    total = sum(len(f.matches) for f in files)
    kept_lines = sum(isinstance(i, Keep) for i in items)
    if parsed.file_list:
        summary = None
    else:
        partial = sum(len(picks[f.path]) < len(f.matches) for f in files)
        summary = (f"{total - shown_total:,} of {total:,} matched lines omitted ({partial:,} of "
                   f"{len(files):,} files cut short, each named above with its match count)")
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
        matches = sum(len(h.matches) for h in hits)
        counts = f"{len(hits):,} files" + ("" if parsed.file_list else f", {matches:,} matches")
        return f"{key or './'} ({counts})"

    def rest(key: str, members: list[int]) -> str:
        matches = sum(len(files[i].matches) for i in members)
        counts = f"{len(members):,} more files" + ("" if parsed.file_list
                                                   else f", {matches:,} matches")
        return f"{key or './'} ({counts})"

    # Thousands of files: estimate each line's tokens while rolling up (counting them all
    # would cost more than the clip); fit.py checks the rendered result exactly.
    cost = costs.note if len(files) <= _EXACT_ROLL_UP else _estimate
    entries = roll_up([f.path for f in files], label, cost, room, rest)
    items = [Note(entry) for entry, _ in entries] + [_keep_line(i, rows, lines) for i in strays]
    total = sum(len(f.matches) for f in files)
    what = "paths" if parsed.file_list else "matched lines"
    count = len(files) if parsed.file_list else total
    groups = "group" if len(entries) == 1 else "groups"
    summary = (f"{count:,} of {count:,} {what} omitted ({len(files):,} files in "
               f"{len(entries):,} {groups} named above with their counts)")
    return Plan("search", tuple(items), len(lines), len(lines) - len(strays), summary=summary)
