"""listing: directory listings and tables. The header row and the map stay; rows are counted.

- `ls -R` and `ls -laR` print one section per directory (`dir:`, `total N`, entries). Every
  section header stays with its entry count; when they do not all fit, deep ones roll up under
  their parents (planners/rollup.py). Then the entries: the last section's last ones (the
  tail), the first section's (the head of the output, and its largest files in turn) within
  FIRST_SHARE, the largest (or head and tail) entries of every section shown, shallow sections
  first and never more than the first shows, and what is left lengthens the head, then the
  tail. `total`, `.` and `..` lines are left out.
- Column tables (`ls -l`, `ps`, `top`, `lsof`, `docker ps`, `kubectl get`, `pip list`, `du`,
  `wc -l`, `find -ls`, a psql or sqlite3 result), boxed ones (`sqlite3 -box`, mysql's client)
  and CSV/TSV: the header — a title row, its rule, and the lines a table prints above its
  title (`top`'s summary, `dpkg -l`'s legend) — head rows and tail rows; when the rows are
  sized (`ls -l`, `du`) the largest rows of the middle stay too (the one huge file, the heavy
  folders). When the rows name paths, the omitted ones are counted by directory right after
  the first gap. Where the columns can be told apart, the middle keeps the rows that differ,
  within DISTINCT_SHARE, in this order: rows in a troubled state (CrashLoopBackOff, Exited
  (1), `<defunct>`, an error word in a status or a message), one row of each rare value of a
  column whose values repeat (the zombie's `Z`, the one IPv4 socket of an lsof, the settings
  whose source is not `default`) with the largest values of the columns that measure in turn
  (%CPU, RSS, SIZE with its unit, TIME; not a PID or a column the table is sorted by; a column
  that goes below zero, a change, first and from both ends: the worst month and the best), where
  each value of a few-valued column first shows (a table grouped by it), then every other
  row of a rare value. The rows whose own name is a well-known one (wellknown.py: libc6,
  openssl, pip among hundreds of packages) take turns with the rare values and the largest
  rows.

Plain path lists (`find`, `rg -l`, Glob) are the search planner's file-list mode, not this one.
"""

from __future__ import annotations

import csv
import itertools
import re

from ..patterns import lazy
from ..plan import Gap, Lines, Plan, line_items
from ..render import CLOSING_MARKER_TOKENS, GAP_MARKER_TOKENS
from ..tokens import Counter
from ..tools import Tool
from ..values import field, value
from .costs import LineCosts, line_limit
from .diagnostics import located
from .rollup import roll_up, split
from .templates import FAILED_STATE, PENDING_STATE, few_values, severity
from .wellknown import known_rows

_SECTION = lazy(r"\S.*:$")
_TOTAL = lazy(r"total \d[\d.,]*[KMGTPE]?$")
_LONG = lazy(r"[-dlcbpsD?][-rwxsStTlL?]{9}[.+@]?\s+\d+\s")
_FIND_LS = lazy(r"\s*+\d+\s+\d+\s+[-dlcbps][-rwxsStT]{9}[.+@]?\s+\d+\s")
_SIZED = lazy(r"\s*+\d[\d.,]*[KMGTPE]?\s+\S+$")  # du, wc -l: a number, then a name
_SEPARATOR = lazy(r"[-=]{2,}(?:[ +|]+[-=]{2,})*\s*$")  # pip list's `------- -------`
_SIZE = lazy(r"(\d+(?:\.\d+)?)([KMGTPE]?)")  # `ls -l` sizes, `-h` ones too
_DOTS = lazy(r"(?:.*\s)?\.\.?$")  # the `.` and `..` entries of `ls -a`, long or bare
_DELIMITERS = (",", "\t", ";", "|")
# A word of a row, not of a title: a number of three digits or more, or an object id (hex of
# seven digits or more holding a digit), standing alone.
_DATA_WORD = lazy(r"(?<!\S)(?:\d{3,}|(?=[0-9a-f]*\d)[0-9a-f]{7,})(?!\S)")
_ROW_COUNT = lazy(r"\((?:\d[\d,]*) rows?\)\s*$|\d[\d,]* rows? in set\b")  # psql's, mysql's footer
MIN_ROWS = 5
_SAMPLE = 4000  # rows from each end that decide a table's kind
MIN_SHARE = 0.9
MAP_SHARE = 0.6  # of the room, the most section headers may take before deep ones roll up
TAIL_SHARE = 0.15  # of what the map leaves, for the last section's last entries
FIRST_SHARE = 0.4  # of what the tail leaves, for the first section's head before the others
NOTE_SHARE = 0.25  # of the room, for the by-directory count of omitted table rows
STRAY_SHARE = 0.1  # of the room, for `ls:` error lines
HEAD_SHARE = 2 / 3  # of a table's rows budget, for the head; the tail gets the rest
_MEASURE_VALUES = 10  # distinct numbers a column needs to be a measure
BIGGEST_SHARE = 0.3  # of a sized table's rows budget, for its largest rows between head and tail
_MAX_MISSES = 32
# A date (and time) a cell opens with: psql's timestamps, ls --time-style=long-iso, git's.
_ISO_DATE = lazy(r"\d{4}-\d\d-\d\d(?:[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?: ?(?:[+-]\d\d(?::?\d\d)?|Z|UTC))?)?")
DISTINCT_SHARE = 0.75  # of a table's rows budget, for the rows that differ (before head and tail)
_KNOWN_TOKENS = 150  # of the room, for each row of a well-known name offered
_RARE_SHARE = 0.1  # a value on at most this share of the rows is rare
_PREAMBLE = 8  # lines a table's own header may hold above its title row (top's summary)
# The rules of a boxed table: `+----+----+`, `┌────┬────┐`, `├────┼────┤`, `╞════╪════╡`.
_BOX_RULE = lazy(r"\s*[+┌├╞╔╠└╘╚┏┣┗][-─━═+┬┼┴╤╪╧╦╬╩┳╋┻]*[+┐┤╡╗╣┘╛╝┓┫┛]\s*$")
_GROUP_LABELS = lazy(r"\s*(?:-+[\w/ ]+-+\s*){2,}$")  # column groups' labels over the titles
_GROUPS = 6  # values a column may hold for each one's first row to be shown
_REPEATS = 4  # a column of repeating values holds at most one value for every 4 rows
# A measure's cell: a size with its unit (`ls -h`'s 4.0K, docker's 1.2GB, kubectl's 512Mi; a
# lower-case m is an age's minutes), a clock duration (`ps`'s TIME, `top`'s TIME+, ELAPSED),
# an age (kubectl's AGE: 3d4h).
_SIZED_NUMBER = lazy(r"(\d+(?:\.\d+)?) ?([kKMGTP]?)(?:iB|B|i|bytes?)?%?")
_CLOCK = lazy(r"(?:(\d+)-)?(\d+):(\d\d(?:\.\d+)?)(?::(\d\d(?:\.\d+)?))?")
_AGE_WHOLE = lazy(r"(?:\d+(?:\.\d+)?(?:ms|[smhdwy]))+")
_AGE = lazy(r"(\d+(?:\.\d+)?)(ms|[smhdwy])")
# Columns of numbers that name rather than measure: their largest value means nothing.
_KEY_TITLE = lazy(r"(?i)p?pid|tid|id|[ug]id|inode|node|device|port|fd|line|no\.?|#|index|seq"
                  r"|oid|pgid|sid|tgid|lwp|nlwp|psr|pri|ni|nice|code|year|rank")
# ps's process state column (`ps aux`'s STAT, `ps -l`'s S) and its codes: a letter (Z zombie,
# D waiting on I/O, T stopped), then flags (`<` high priority, `N` low, `L` locked pages, `s`
# session leader, `l` threaded, `+` foreground)
_PROCESS_STATE_TITLE = lazy(r"STAT|S")
_ZOMBIE = lazy(r"Z[<NLsl+]*")
_HALTED = lazy(r"[DT][<NLsl+]*")
_NAMES = lazy(r"\S*/\S*|[\w.-]*\w\.[A-Za-z]\w*")  # a path, a file name (errors.go)


def looks_like(sample: list[str], tool: Tool) -> bool:
    return _sections(sample) is not None or _table(sample) is not None


def looks_like_a_delimited_table(sample: list[str], tool: Tool) -> bool:
    """CSV or TSV under a title row: a table even when its rows start with timestamps (asked
    before log records are)."""
    body = [row for row in sample if row.strip()]
    # A linter's located finding (`a.js: line 8, col 7, Missing semicolon.`) is a record, not
    # a title row: its commas delimit no columns.
    return len(body) >= MIN_ROWS + 1 and not located(body[0]) and _delimited(body) is not None


# --------------------------------------------------------------------------- ls -R sections


@value(frozen=False)
class Section:
    header: int  # line index of `dir:`
    path: str
    entries: list[int] = field(default_factory=list)  # `total`, `.` and `..` left out

    @property
    def depth(self) -> int:
        return len(split(self.path))


@value(frozen=False)
class Sections:
    sections: list[Section]
    strays: list[int]  # `ls: cannot open directory …` and the like


def _sections(rows: list[str]) -> Sections | None:
    """The sections of `ls -R` output, or None when this is not one."""
    first = next((i for i, row in enumerate(rows) if row.strip()), None)
    if first is None or not _SECTION.match(rows[first]):
        return None
    sections: list[Section] = []
    strays: list[int] = []
    misplaced = 0
    after_blank = True
    for index in range(first, len(rows)):
        row = rows[index]
        if not row.strip():
            after_blank = True
            continue
        if after_blank and _SECTION.match(row) and not _LONG.match(row):
            sections.append(Section(index, row[:-1]))
        elif row.startswith("ls: "):
            strays.append(index)
        elif not _TOTAL.match(row) and not _DOTS.match(row):
            sections[-1].entries.append(index)
            misplaced += after_blank
        after_blank = False
    return Sections(sections, strays) if _is_ls_r(rows, sections, misplaced) else None


def _is_ls_r(rows: list[str], sections: list[Section], misplaced: int) -> bool:
    """Sections hold the whole output: every blank line opens one, nested headers name paths,
    and the entries are all long-format or all bare names."""
    if len(sections) < 2 or misplaced > 0.05 * len(sections):
        return False
    nested = sum(1 for s in sections[1:] if "/" in s.path or "\\" in s.path)
    if nested < MIN_SHARE * (len(sections) - 1):
        return False
    entries = [rows[i] for s in sections for i in s.entries]
    long = sum(1 for row in entries if _LONG.match(row))
    bare = sum(1 for row in entries if not row[:1].isspace() and "  " not in row)
    return long >= MIN_SHARE * len(entries) or bare >= MIN_SHARE * len(entries)


def _plan_sections(job: _Job, parsed: Sections) -> Plan | None:
    strays = _fit(job, parsed.strays, int(job.room * STRAY_SHARE))
    room = job.room - _lines_cost(job, strays)
    sections = parsed.sections
    ends = {sections[0].header, sections[-1].header}
    map_room = int(room * MAP_SHARE)
    labels = _map(job, sections, map_room)
    if labels is None:
        return None
    room -= _labels_cost(job, labels)
    shown = {sections[m[0]].header: sections[m[0]] for _, m in labels if len(m) == 1}
    picks = _pick_entries(job, sections, shown, ends, room)
    left = room - sum(_lines_cost(job, chosen) for chosen in picks.values())
    if left > 0.05 * job.room and len(labels) < len(sections):
        # Room no entry could use rolls up less: with more room, the roll-up stops earlier,
        # so every header shown now (and its picks) stays shown.
        labels = _map(job, sections, _labels_cost(job, labels) + left) or labels
    kept = dict.fromkeys(strays, "")
    notes: dict[int, list[str]] = {}
    for text, members in labels:
        head = sections[members[0]]
        if len(members) == 1:
            chosen = picks.get(head.header, ())
            kept[head.header] = _count_suffix(head, len(chosen),
                                              _which(job, sections, head, set(chosen)))
        elif (root := _root_of(sections, members)) is not None:
            header = sections[root].header
            kept[header] = text[len(job.rows[header]):]
        else:
            notes.setdefault(head.header, []).append(text)
    for chosen in picks.values():
        kept.update(dict.fromkeys(chosen, ""))
    items = line_items(job.lines, kept, None, notes, cut=job.costs.cut)
    total = sum(len(s.entries) for s in sections)
    shown_entries = sum(len(chosen) for chosen in picks.values())
    summary = (f"{total - shown_entries:,} of {total:,} entries omitted ({len(sections):,} "
               f"directories; each header above carries its entry count)")
    return Plan("listing", tuple(items), len(job.rows), len(job.rows) - len(kept),
                summary=summary)


def _map(job: _Job, sections: list[Section], room: int) -> list[tuple[str, list[int]]] | None:
    """Header labels: the first and last sections always on their own, the others rolled up
    under their parents until the labels fit."""
    ends = [0, len(sections) - 1] if len(sections) > 1 else [0]
    middle = list(range(1, len(sections) - 1))

    def label(key: str, members: list[int]) -> str:
        return _label(job, sections, [middle[i] for i in members])

    end_labels = [(_label(job, sections, [i]), [i]) for i in ends]
    room -= sum(job.costs.note(text) for text, _ in end_labels)
    keys = ["/".join(split(sections[i].path) + ["."]) for i in middle]
    rolled = [(text, [middle[i] for i in members])
              for text, members in roll_up(keys, label, job.costs.note, room)]
    if sum(job.costs.note(text) for text, _ in rolled) > room:
        return None
    return sorted(end_labels + rolled, key=lambda entry: entry[1][0])


def _labels_cost(job: _Job, labels: list[tuple[str, list[int]]]) -> int:
    return sum(job.costs.note(text) for text, _ in labels)


def _label(job: _Job, sections: list[Section], members: list[int]) -> str:
    """What a header (or a rolled-up group of them) reads as; costed at its longest."""
    head = sections[members[0]]
    if len(members) == 1:
        # The longest wording a shown header can get: the map never outgrows its room later.
        shown = max(0, len(head.entries) - 1)
        return job.rows[head.header] + _count_suffix(head, shown, "first and last {}")
    below = [sections[i] for i in members]
    count = sum(len(s.entries) for s in below)
    root = _root_of(sections, members)
    if root is None:
        folder = _common_folder([s.path for s in below])
        return f"{folder} ({_directories(len(below))}, {_entries(count)})"
    own = len(sections[root].entries)
    return (job.rows[sections[root].header] + f"  ({_entries(own)}; "
            f"{_directories(len(below) - 1)} below it, {_entries(count - own)})")


def _root_of(sections: list[Section], members: list[int]) -> int | None:
    """The member that is the parent of all the others, if there is one."""
    paths = [split(sections[i].path) for i in members]
    shortest = min(range(len(members)), key=lambda i: len(paths[i]))
    root = paths[shortest]
    if all(p[:len(root)] == root for p in paths):
        return members[shortest]
    return None


def _common_folder(paths: list[str]) -> str:
    parts = [split(p) for p in paths]
    common = []
    for level in zip(*parts):
        if len(set(level)) > 1:
            break
        common.append(level[0])
    lead = "/" if paths[0].startswith("/") else ""
    return lead + "/".join(common) + "/" if common else "./"


def _directories(count: int) -> str:
    return f"{count:,} director{'y' if count == 1 else 'ies'}"


def _entries(count: int) -> str:
    return f"{count:,} entr{'y' if count == 1 else 'ies'}"


def _count_suffix(section: Section, shown: int, which: str) -> str:
    total = len(section.entries)
    if shown >= total:
        return f"  ({_entries(total)})"
    if not shown:
        return f"  ({_entries(total)}, none shown)"
    return f"  ({_entries(total)}, {which.format(f'{shown:,}')} shown)"


def _which(job: _Job, sections: list[Section], section: Section, picked: set[int]) -> str:
    """Which entries of a section are shown, as _pick_entries chose them."""
    if section is sections[0]:  # its head, and its largest files when they are apart
        head = next((n for n, i in enumerate(section.entries) if i not in picked),
                    len(section.entries))
        largest = len(picked) - head
        return f"first {head:,} and {largest:,} largest" if largest else "first {}"
    if section is sections[-1]:
        return "last {}"
    if _is_long(job, section):
        return "{} largest"
    return "first and last {}"


def _pick_entries(job: _Job, sections: list[Section], shown: dict[int, Section],
                  ends: set[int], room: int) -> dict[int, list[int]]:
    """Entries per shown header: the last section's tail, the first section's head (within
    FIRST_SHARE), then the others' (_priority), shallow sections first, the same cap within a
    depth and none past the first's count; what is left lengthens the head, then the tail."""
    picks: dict[int, list[int]] = {}
    last = sections[-1]
    if last is not sections[0]:
        picks[last.header] = _fit(job, last.entries[::-1], int(room * TAIL_SHARE))
        room -= _lines_cost(job, picks[last.header])
    first = sections[0]
    head_first = _head_and_largest(job, first)
    picks[first.header] = _fit(job, head_first, int(room * FIRST_SHARE))
    room -= _lines_cost(job, picks[first.header])
    others = sorted((s for h, s in shown.items() if h not in ends), key=lambda s: s.depth)
    most = len(picks[first.header])  # no section shows more than the first one
    for depth in sorted({s.depth for s in others}):
        room, complete = _capped(job, [s for s in others if s.depth == depth], picks, room,
                                 most)
        if not complete:
            break
    # What the other sections left lengthens the first section's head, then the tail.
    room += _lines_cost(job, picks[first.header])
    picks[first.header] = _fit(job, head_first, room)
    room -= _lines_cost(job, picks[first.header])
    if last is not sections[0]:
        room += _lines_cost(job, picks[last.header])
        picks[last.header] = _fit(job, last.entries[::-1], room)
    return picks


def _capped(job: _Job, tier: list[Section], picks: dict[int, list[int]],
            room: int, most: int) -> tuple[int, bool]:
    """The largest per-section cap (at most `most`) that fits for the tier: the room left, and
    whether the whole tier fit (if not, deeper tiers get nothing)."""
    orders = {s.header: _priority(job, s)[:most] for s in tier}
    cap, used = 0, 0
    while True:
        grown = sum(job.costs.line(i) for s in tier for i in orders[s.header][cap:cap + 1])
        if used + grown > room or all(len(o) <= cap for o in orders.values()):
            break
        used += grown
        cap += 1
    for s in tier:
        picks[s.header] = orders[s.header][:cap]
    if all(len(o) <= cap for o in orders.values()):
        return room - used, True
    for s in tier:  # what is left: one more entry each, in order, while it fits
        extra = orders[s.header][cap:cap + 1]
        if extra and used + job.costs.line(extra[0]) <= room:
            picks[s.header].append(extra[0])
            used += job.costs.line(extra[0])
    return room - used, False


def _priority(job: _Job, section: Section) -> list[int]:
    """Long-format entries biggest first (a directory's own section already counts what it
    holds, so directories go last); bare names by head and tail."""
    if not _is_long(job, section):
        return _head_and_tail(section.entries)
    sizes = {i: -1 if job.rows[i].startswith("d") else _size(job.rows[i])
             for i in section.entries}
    return sorted(section.entries, key=lambda i: -sizes[i])


def _is_long(job: _Job, section: Section) -> bool:
    """Whether a section lists its entries in long format (with their sizes)."""
    return bool(section.entries) and all(_LONG.match(job.rows[i]) for i in section.entries)


def _head_and_largest(job: _Job, section: Section) -> list[int]:
    """The first section's entries to show first: its head and its largest files in turn (a
    long listing; a bare one by its head)."""
    if not _is_long(job, section):
        return section.entries  # no sizes: the head of the output
    order, seen = [], set()
    for pair in zip(section.entries, _priority(job, section)):
        for index in pair:
            if index not in seen:
                seen.add(index)
                order.append(index)
    return order


def _size(row: str) -> float:
    """The size field of an `ls -l` row (the fifth), `-h` units too."""
    fields = row.split(maxsplit=5)
    return _leading_size(fields[4]) if len(fields) > 4 else 0


def _head_and_tail(entries: list[int]) -> list[int]:
    order = []
    low, high = 0, len(entries) - 1
    while low <= high:
        order.append(entries[low])
        if high != low:
            order.append(entries[high])
        low, high = low + 1, high - 1
    return order


def _fit(job: _Job, candidates: list[int], room: int) -> list[int]:
    chosen, used = [], 0
    for index in candidates:
        used += job.costs.line(index)
        if used > room:
            break
        chosen.append(index)
    return chosen


def _lines_cost(job: _Job, indexes: list[int]) -> int:
    return sum(job.costs.line(i) for i in indexes)


# --------------------------------------------------------------------------- tables


@value(frozen=False)
class Table:
    header: int  # how many lines at the top are the header (a title row, its underline)
    path_of: object = None  # row -> the path it names, when the rows name paths
    size_of: object = None  # row -> its size in bytes, when the rows are sized (du, ls -l)
    cells_of: object = None  # row -> its cells (or None), when the columns can be told apart
    keys: tuple[int, ...] = ()  # columns of numbers that name or date rather than measure
    date_of: object = None  # row -> a sortable date (or None), when the rows are dated (ls -l)


def _table(rows: list[str]) -> Table | None:
    body = [row for row in rows if row.strip()]
    if len(body) < MIN_ROWS + 1:
        return None
    return (_long_listing(body) or _sized_list(body) or _boxed(body) or _delimited(body)
            or _column_table(body) or _after_preamble(rows, body))


def _after_preamble(rows: list[str], body: list[str]) -> Table | None:
    """A column table under a few lines of its own (`top`'s summary, `dpkg -l`'s legend):
    asked only where the structure says a title starts — a title row over a rule
    (`+++-====`), or the first line after the first blank one. The lines above the title are
    the table's header too."""
    starts = [k for k in range(1, min(_PREAMBLE, len(body) - MIN_ROWS - 1) + 1)
              if _SEPARATOR.match(body[k + 1].replace("+", "-"))]
    if _GROUP_LABELS.match(body[0]):
        starts.append(1)  # vmstat's `--procs-- ---memory---` over its column titles
    blank = next((i for i, row in enumerate(rows[:_PREAMBLE * 2]) if not row.strip()), None)
    if blank is not None:
        above = sum(1 for row in rows[:blank] if row.strip())
        if 0 < above <= _PREAMBLE:
            starts.append(above)
    for k in dict.fromkeys(starts):
        table = _boxed(body[k:]) or _delimited(body[k:]) or _column_table(body[k:])
        if table is not None:
            table.header += k
            return table
    return None


def _boxed(body: list[str]) -> Table | None:
    """A table drawn in a box (`sqlite3 -box` and `-table`, mysql's client, psql with border
    2, tabulate's grid): a top rule, a title row between bars, a rule, then rows between the
    same bars; rules between rows and the bottom rule are no rows."""
    if len(body) < 4 or not _BOX_RULE.match(body[0]):
        return None
    bar = body[1].strip()[:1]
    if bar not in "|│┃║":
        return None
    bars = body[1].count(bar)
    rows = [row for row in body[2:] if not _BOX_RULE.match(row)]
    if not rows or sum(1 for row in rows if row.strip()[:1] == bar and row.count(bar) == bars
                       ) < MIN_SHARE * len(rows):
        return None
    return Table(3 if _BOX_RULE.match(body[2]) else 2,
                 cells_of=lambda row: row.strip()[1:-1].split(bar) if row.count(bar) == bars
                 else None)


def _long_listing(body: list[str]) -> Table | None:
    """`ls -l`, `find -ls`: permissions, links, owner … name."""
    header = 1 if _TOTAL.match(body[0]) else 0
    rows = body[header:]
    long = sum(1 for row in rows if _LONG.match(row))
    if long + sum(1 for row in rows if _FIND_LS.match(row)) < MIN_SHARE * len(rows):
        return None
    # its cells: `ls -l`'s permissions, links, owner, group, size, date (three) and name, or
    # `find -ls`'s inode and blocks before them; the rare permission (a setuid program), owner
    # or group is read like any column's, and the dates and counts name rather than measure
    fields, keys = (9, (1, 5, 6, 7)) if long >= len(rows) / 2 else (11, (0, 3, 7, 8, 9))
    return Table(header, _path_column(rows, _last_field), _size,
                 lambda row, n=fields: cells if len(cells := row.split(None, n - 1)) == n
                 else None, keys,
                 lambda row, n=fields: _ls_date(row.split(None, n - 1)[n - 4:n - 1]))


_MONTHS = {m: k for k, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
                                        "Oct", "Nov", "Dec"), 1)}


def _ls_date(cells: list[str]) -> tuple | None:
    """`ls -l`'s date as a sortable tuple: `Jun 27  2010` (older than six months: a year) or
    `Sep  7 19:33` (the last six months: a time, after every dated year); a long-iso or
    full-iso date (`2023-05-22 10:00`) as it reads."""
    if len(cells) != 3:
        return None
    month, day, when = cells
    if month in _MONTHS and day.isdigit():
        if when.isdigit():
            return (int(when), _MONTHS[month], int(day), "")
        if ":" in when:
            return (10_000, _MONTHS[month], int(day), when)
        return None
    found = _ISO_DATE.match(" ".join(cells[1:]))
    return (found[0],) if found else None


def _sized_list(body: list[str]) -> Table | None:
    """`du`, `wc -l`: a number and a name per row, from the first (du -a separates them with
    a tab, but its first row is no TSV title)."""
    sized = sum(1 for row in body if _SIZED.match(row))
    if not _SIZED.match(body[0]) or sized < MIN_SHARE * len(body):
        return None
    return Table(0, _path_column(body, _last_field), _leading_size)


def _leading_size(row: str) -> float:
    fields = row.split(maxsplit=1)
    m = _SIZE.fullmatch(fields[0].replace(",", "")) if fields else None
    return float(m[1]) * 1024 ** " KMGTPE".index(m[2] or " ") if m else 0


def _delimited(body: list[str]) -> Table | None:
    """CSV, TSV (and `;` or `|` separated): every row has as many fields as the first."""
    if body[0][:1] in "{[":
        return None  # JSON lines have commas too
    for delimiter in _DELIMITERS:
        title = next(csv.reader([body[0]], delimiter=delimiter), [])
        if len(title) < 2 or not _is_title(title):
            continue
        width = len(title)
        ruled = bool(_SEPARATOR.match(body[1].replace(delimiter, " ")))
        # the rule under the title and a client's count of the rows (psql's `(15 rows)`)
        # are the table's own lines, not rows of another width
        rows = [row for row in body[1 + ruled:] if not _ROW_COUNT.match(row)]
        if rows and sum(1 for row in rows if _width(row, delimiter) == width) >= 0.95 * len(rows):
            header = 2 if ruled else 1
            column = _path_field(rows, delimiter)
            # rows that name paths are counted by directory; the others by their measures
            measures = _measure_fields(rows, delimiter) if column is None else ()
            return Table(header, None if column is None else
                         lambda row, c=column, d=delimiter: _field(row, d, c),
                         (lambda row, d=delimiter, m=measures: _largest_measure(row, d, m))
                         if measures else None,
                         lambda row, d=delimiter: next(csv.reader([row], delimiter=d), None))
    return None


def _is_title(fields: list[str]) -> bool:
    """A header row names its columns: no bare numbers (`cat -n`'s `     1<TAB>code` is no TSV),
    and no field holding a data value among its words (git ls-tree's `100644 blob 3521…  361`,
    a file mode, an object id and a size before its tab, is a row like the others)."""
    return all(re.search(r"[^\W\d]", f) or not f.strip() for f in fields) and any(
        f.strip() for f in fields) and not any(_DATA_WORD.search(f) for f in fields)


def _width(row: str, delimiter: str) -> int:
    return len(next(csv.reader([row], delimiter=delimiter), []))


def _field(row: str, delimiter: str, column: int) -> str | None:
    fields = next(csv.reader([row], delimiter=delimiter), [])
    return fields[column] if column < len(fields) else None


def _measure_fields(rows: list[str], delimiter: str) -> tuple[int, ...]:
    """The columns of whole numbers that measure (a time, a count, a size: `python -X
    importtime`'s cumulative microseconds; not a flag or a code of a few values), from a
    sample of rows."""
    sample = [next(csv.reader([row], delimiter=delimiter), []) for row in rows[:200]]
    width = len(sample[0]) if sample else 0
    columns = []
    for column in range(width):
        values = [fields[column].strip() for fields in sample if column < len(fields)]
        numbers = [v for v in values if v.isdigit()]
        if len(numbers) >= MIN_SHARE * len(sample) and len(set(numbers)) >= _MEASURE_VALUES:
            columns.append(column)
    return tuple(columns)


def _largest_measure(row: str, delimiter: str, columns: tuple[int, ...]) -> float:
    """A row's largest number among the measure columns: the rows that cost most come first."""
    fields = next(csv.reader([row], delimiter=delimiter), [])
    return max((float(fields[c]) for c in columns
                if c < len(fields) and fields[c].strip().isdigit()), default=0)


def _path_field(rows: list[str], delimiter: str) -> int | None:
    sample = [next(csv.reader([row], delimiter=delimiter), []) for row in rows[:200]]
    for column in range(len(sample[0]) if sample else 0):
        values = [fields[column] for fields in sample if column < len(fields)]
        if values and sum(1 for v in values if _is_path(v)) >= 0.8 * len(sample):
            return column
    return None


def _column_table(body: list[str]) -> Table | None:
    """`ps`, `docker ps`, `kubectl get`, `pip list`: a title row whose columns line up with
    the rows below it (left- or right-aligned)."""
    title = body[0]
    words = title.split()
    capitalised = sum(1 for word in words if word[:1].isupper() or word[:1] == "%")
    ruled = bool(_SEPARATOR.match(body[1].replace("+", "-")))  # sqlite3 -header -column, dpkg -l
    if len(words) < 2 or any(w.isdigit() for w in words):
        return None
    header = 2 if ruled else 1
    rows = body[header:]
    numeric = _numeric(rows)
    if capitalised < 0.6 * len(words) and not ruled and not (
            all(w[:1].isalpha() or w[:1] == "%" for w in words) and numeric):
        return None  # lower-case titles over rows of numbers: vmstat's, free's, iostat's
    # a row of numbers may outgrow its columns and push the rest along (vmstat's burst of
    # writes): one number a title is aligned enough
    width = _width_of(words, rows)
    spans = _spans(title, rows, width)
    if sum(1 for row in rows if _aligned(title, row) or numeric and len(row.split()) == len(
            words)) < MIN_SHARE * len(rows) and (spans is None or sum(
                1 for row in rows if _cells_at(row, spans)) < MIN_SHARE * len(rows)):
        return None  # neither under its titles nor laid out in columns of its own (ss's)
    return Table(header, _path_column(rows, _last_field),
                 cells_of=(lambda row: _column_cells(row, width)) if spans is None else
                 (lambda row: _cells_at(row, spans) or _column_cells(row, width)))


def _spans(title: str, rows: list[str], width: int) -> list[int] | None:
    """Where each of `width` columns starts, when the table is laid out by position: the
    columns are the runs of characters that are blank on no row (of a sample) and the title,
    and there are as many as the title names. A cell may then hold spaces (`Mailing List
    Manager`) or be empty (lsof's TID) and still be read in its own column."""
    sample = [title] + rows[:200]
    reach = max(len(row.rstrip()) for row in sample)
    filled = [False] * reach
    for row in sample:
        for position, char in enumerate(row[:reach]):
            if char != " ":
                filled[position] = True
    starts = [p for p in range(reach) if filled[p] and (p == 0 or not filled[p - 1])]
    if len(starts) == width:
        return starts
    return _spans_by_title(title, starts, filled, width)


def _spans_by_title(title: str, starts: list[int], filled: list[bool],
                    width: int) -> list[int] | None:
    """Columns the title places when the blanks alone do not: a run of characters under no
    title word belongs to the column after it (a value of several words, ps's `STARTED`, `Sat
    Nov 28 21:34:24 2026`, right-aligned under its title), and a run under two title words is
    two columns, the second starting at its title word (RSS's `530488` touching TT's `?`)."""
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", title)]
    if len(words) != width:
        return None
    ends = [next((q for q in range(p, len(filled)) if not filled[q]), len(filled))
            for p in starts]
    columns: list[int] = []
    pending = None  # the start of runs under no title word, waiting for the next one
    split = 0
    for start, end in zip(starts, ends):
        under = [w for w in words if w[0] < end and w[1] > start]
        if not under:
            pending = start if pending is None else pending
            continue
        if len(under) > 2:
            return None  # no columns at all (prose): the title's words are not what split them
        columns.append(start if pending is None else pending)
        columns += [w[0] for w in under[1:]]
        split += len(under) - 1
        pending = None
    if split > width // 4 or pending is not None or len(columns) != width:
        return None
    return columns


def _cells_at(row: str, starts: list[int]) -> list[str] | None:
    """A row's cells cut at the columns' starts; None when a cut falls inside a word (a value
    wider than its column pushed the rest along: it is read by its words)."""
    for start in starts[1:]:
        if start < len(row) and row[start - 1] != " " and row[start] != " ":
            return None
    ends = starts[1:] + [len(row)]
    return [row[start:end].strip() for start, end in zip(starts, ends)]


def _numeric(rows: list[str]) -> bool:
    """Most fields of the rows (a sample) are numbers."""
    cells = [cell for row in rows[:200] for cell in row.split()]
    return bool(cells) and sum(1 for c in cells if _number(c) is not None) >= MIN_SHARE * len(
        cells)


def _width_of(words: list[str], rows: list[str]) -> int:
    """How many cells a row has: one a title word, unless a title names a column in two
    words (df's `Mounted on`, ss's `Local Address:Port`) and most rows hold fewer fields, all
    alike."""
    fields: dict[int, int] = {}
    for row in rows[:200]:
        count = len(row.split())
        fields[count] = fields.get(count, 0) + 1
    common = max(fields, key=fields.get, default=len(words))
    return common if 1 < common < len(words) and fields[common] >= MIN_SHARE * sum(
        fields.values()) else len(words)


def _column_cells(row: str, width: int) -> list[str] | None:
    """An aligned row's cells: split at runs of two spaces or more when that gives one per
    title column (values may hold a space), else at every space but within the last column
    (`ps`'s command line); None when neither gives `width` cells."""
    cells = re.split(r"\s{2,}|\t", row.strip())
    if len(cells) == width:
        return cells
    cells = row.split(None, width - 1)
    return cells if len(cells) == width else None


def _aligned(title: str, row: str) -> bool:
    """Most title columns the row reaches start (or end) where the row's fields do; trailing
    columns may be empty."""
    reach = len(row.rstrip())
    columns = [(m.start(), m.end()) for m in re.finditer(r"\S+", title)][1:]
    columns = [(start, end) for start, end in columns if start < reach]
    if not columns:
        return False
    matched = 0
    for start, end in columns:
        left = row[start - 1:start] == " " and row[start:start + 1].strip()
        right = row[end - 1:end].strip() and row[end:end + 1] in (" ", "")
        matched += bool(left or right)
    return matched >= 0.75 * len(columns)


def _last_field(row: str) -> str | None:
    """The row's last field, or a symbolic link's own name (`ls -l`'s `libz.so ->
    /lib/libz.so.1`: the row is the link's; its target may lie in any folder)."""
    link = row.rfind(" -> ")
    fields = (row[:link] if link >= 0 else row).split()
    return fields[-1] if fields else None


def _path_column(rows: list[str], field_of) -> object:
    sample = rows[:200]
    paths = sum(1 for row in sample if _is_path(field_of(row) or ""))
    return field_of if paths >= 0.8 * len(sample) else None


def _is_path(value: str) -> bool:
    return "/" in value.strip("/") and " " not in value and "://" not in value


def _plan_table(job: _Job, table: Table) -> Plan | None:
    rows = len(job.rows)
    header = _header_lines(job, table.header)
    room = job.room - _lines_cost(job, header)
    note_room = int(job.room * NOTE_SHARE) if table.path_of else 0
    body = [i for i in range(header[-1] + 1 if header else 0, rows)]
    if len(_fit(job, body, room)) == len(body):
        return None  # it all fits: nothing for a table plan to do (counted up to the room)
    named = known_rows(job.rows, job.room // _KNOWN_TOKENS)  # wellknown.py: libc6, openssl, pip
    for _ in range(2):  # again with what the note left of its room, for the rows
        rows_room = room - note_room
        biggest_room = int(rows_room * BIGGEST_SHARE) if table.size_of else 0
        distinct_room = int(rows_room * DISTINCT_SHARE) if table.cells_of else 0
        picked_room = max(biggest_room, distinct_room)
        head, tail = _ends(job, body, rows_room - picked_room,
                           int((rows_room - picked_room) * HEAD_SHARE))
        middle = body[len(head):len(body) - len(tail)]
        inside = set(middle)
        known = [i for i in named if i in inside]
        biggest = (_distinct(job, table, body, inside, distinct_room, _title(job, header),
                             known) if distinct_room
                   else _biggest(job, table, middle, biggest_room, known) if biggest_room
                   else [])
        first = middle[0]
        shown = set(biggest)
        note = (_folders_note(job, table, [i for i in middle if i not in shown], note_room)
                if table.path_of else None)
        used = job.costs.note(note) if note else 0
        if note_room - used < 0.1 * note_room:
            break
        note_room = used + 2  # a smaller gap may name its folders a little differently
    spare = picked_room - _lines_cost(job, biggest)
    if spare > 0.1 * picked_room:
        # what the differing rows left lengthens the head, then the tail, around them
        chosen = set(biggest)
        runs = sum(1 for i in biggest if i - 1 not in chosen)  # each splits a gap in two
        room_left = rows_room - _lines_cost(job, biggest) - GAP_MARKER_TOKENS * runs
        head, tail = _ends(job, [i for i in body if i not in chosen], room_left,
                           int(room_left * HEAD_SHARE) if tail else room_left)
        ends = set(head) | chosen | set(tail)
        middle = [i for i in body if i not in ends]
        if not middle:
            return None
        first = middle[0]
        if note is not None:  # counted again over the rows the gaps now hold
            note = _folders_note(job, table, middle, note_room)
    kept = dict.fromkeys(sorted(header + head + biggest + tail), "")
    notes = {first: [note]} if note else {}
    # an overlong row (a process's whole command line) keeps its start, as search does
    items = line_items(job.lines, kept, lambda a, b: _gap(job, a, b), notes, cut=job.costs.cut)
    # The folders note counts the rows of the gaps as planned: they stay as they are.
    return Plan("listing", tuple(items), rows, len([i for i in middle if i not in kept]),
                regap=None if notes else lambda first, last: _gap(job, first, last))


def _ends(job: _Job, rows: list[int], room: int, head_room: int) -> tuple[list[int], list[int]]:
    """The first of `rows` that fit in head_room, then the last of the others that fit in what
    the head left of room."""
    head = _fit(job, rows, head_room)
    tail = _fit(job, rows[len(head):][::-1], room - _lines_cost(job, head))[::-1]
    return head, tail


def _title(job: _Job, header: list[int]) -> str:
    """The row that names the columns: the header's last line that is no rule (a psql title
    and a `top` summary sit above it)."""
    titles = [i for i in header if not _SEPARATOR.match(job.rows[i].replace("+", "-")
                                                         .replace("|", " "))
              and not _BOX_RULE.match(job.rows[i])]
    return job.rows[titles[-1]] if titles else ""


def _biggest(job: _Job, table: Table, middle: list[int], room: int,
             known: list[int]) -> list[int]:
    """The largest rows between head and tail (du's heavy folders, the one huge file) that fit
    in room, biggest first, each followed by a row of a well-known name; rows without a size
    are never chosen. Gives up after _MAX_MISSES rows in a row that do not fit (each costs a
    count)."""
    sizes = {i: table.size_of(job.rows[i]) for i in middle}
    largest = sorted((i for i in middle if sizes[i] > 0), key=lambda i: -sizes[i])
    return _fill(job, itertools.chain.from_iterable(
        itertools.zip_longest(largest, known, fillvalue=-1)), room)


def _fill(job: _Job, order, room: int, middle: set[int] | None = None) -> list[int]:
    """The rows of `order` (each once; -1 for none) that fit in room, in that order; gives up
    after _MAX_MISSES rows in a row that do not fit. With the `middle` they are taken from, a
    row that splits a gap costs that gap's second marker too."""
    chosen, seen, used, misses = [], set(), 0, 0
    for index in order:
        if index < 0 or index in seen:
            continue
        seen.add(index)
        cost = job.costs.line(index)
        if middle is not None and (index - 1 in middle and index - 1 not in chosen) and (
                index + 1 in middle and index + 1 not in chosen):
            cost += GAP_MARKER_TOKENS
        if used + cost <= room:
            chosen.append(index)
            used, misses = used + cost, 0
        else:
            misses += 1
            if misses > _MAX_MISSES:
                break
    return chosen


def _distinct(job: _Job, table: Table, body: list[int], middle: set[int],
              room: int, title: str, known: list[int]) -> list[int]:
    """The rows of the middle that differ from the others, in this order while they fit in
    room: those naming an error or a troubled state (then a warning), one row of each rare
    value of a column whose values repeat (rarest first) with a row of a well-known name
    (`known`) and the largest values of the measure columns in turn, then the other rows of
    the rare values (a setting whose source is not the default's, a package not from the
    archive). Values are counted over the whole table (`body`)."""
    cells = {i: table.cells_of(job.rows[i]) for i in body}
    widths: dict[int, int] = {}
    for found in cells.values():
        if found:
            widths[len(found)] = widths.get(len(found), 0) + 1
    if not widths:
        return []
    width = max(widths, key=widths.get)
    repeated = title.strip()  # a title printed again down the table (vmstat's) is no row
    rows = [i for i in body if cells[i] and len(cells[i]) == width
            and not (repeated and job.rows[i].strip() == repeated)]
    columns = [[cells[i][c].strip() for i in rows] for c in range(width)]
    names = (table.cells_of(title) or []) if title else []
    keys = {c for c, name in enumerate(names) if _KEY_TITLE.fullmatch(name.strip())}
    keys.update(table.keys)
    share = {c for c, name in enumerate(names) if "%" in name}  # %CPU, Use%: a measure however few
    measured = [None if c in keys else _measure_of(values, 2 if c in share else _MEASURE_VALUES)
                for c, values in enumerate(columns)]
    counts = [None if measured[c] else _value_counts(columns[c], len(rows))
              for c in range(width)]
    # an error or warning word counts in a column of repeating values (a state, a reason) or
    # in words (a message, a commit's subject), not in a one-word name or value (the
    # `timeout` command, a setting whose value is `error`); a troubled state
    # (CrashLoopBackOff, Exited (1), <defunct>) anywhere but in a path
    plain = {i: " ".join(cell for c, cell in enumerate(row_cells)
                         if counts[c] is not None or " " in cell)
             for i, row_cells in zip(rows, zip(*columns)) if i in middle}
    severe = {i: level for i in middle
              if (level := max(_trouble(job.rows[i], states_only=True),
                               _trouble(plain.get(i, ""))))}
    # ps's zombie (Z), and one stuck in I/O (D) or stopped (T): the first of each state with
    # the troubled rows, the others of it with the other rows of the rare values
    again: list[int] = []
    for c in (c for c, name in enumerate(names) if _PROCESS_STATE_TITLE.fullmatch(name.strip())):
        seen: set[str] = set()
        for i, cell in zip(rows, columns[c]):
            level = 2 if _ZOMBIE.fullmatch(cell) else 1 if _HALTED.fullmatch(cell) else 0
            if level and i in middle:
                if cell[0] in seen:
                    again.append(i)
                else:
                    seen.add(cell[0])
                    severe[i] = max(severe.get(i, 0), level)
    order = sorted(severe, key=lambda i: (-severe[i], i))
    # then the rows of a flag's rare side (a lock not `granted`, a package not `ii`): in a
    # column of two values, the one on few rows is the exception a reader looks for
    for c, found in enumerate(counts):
        if found and len(found) == 2:
            value, n = min(found.items(), key=lambda item: item[1])
            if n <= _RARE_SHARE * len(rows) and 4 * n <= len(rows) - n:
                order += [i for i, cell in zip(rows, columns[c]) if cell == value and i in middle]
    # a value is the more surprising the fewer rows hold it against its column's mean, and
    # the more one value holds the column (a source that is `default` but on 29 rows); it is
    # rare on at most _RARE_SHARE of the rows and a quarter of the usual value's (not one of
    # 14 processes' near-equal shares of an lsof)
    rare = sorted((n * len(found) / max(found.values()) * len(rows), c, value)
                  for c, found in enumerate(counts)
                  if found and len(found) > 1
                  for value, n in found.items()
                  if n <= _RARE_SHARE * len(rows) and 4 * n <= max(found.values()))
    holders: dict[tuple[int, str], list[int]] = {}  # (column, value) -> its rows of the middle
    for i, row_cells in zip(rows, zip(*columns)):
        if i in middle:
            for column, value in enumerate(row_cells):
                holders.setdefault((column, value), []).append(i)
    exemplars = [holders.get((column, value), [-1])[0] for _, column, value in rare]
    measures, rest = [], []  # each measure column's outlying rows of the middle, largest first
    # A column that goes below zero (a change, a balance) first: its extremes either way are
    # the events a reader looks for (the month of the worst loss and of the largest gain).
    read = ((numbers, [n for n in numbers if n is not None]) for numbers in measured if numbers)
    signed_first = sorted(((min(values) < 0, numbers, values) for numbers, values in read),
                          key=lambda column: not column[0])
    for signed, numbers, values in signed_first:
        # one row a value: eight backends holding one file are one row
        held = dict(sorted(((n, i) for i, n in zip(rows, numbers)
                            if i in middle and n is not None), key=lambda p: -p[0]))
        if signed:
            ordered, far = _both_ends(values, list(held.items()))
        else:
            ordered = list(held.items())
            far = _outlying(values, [n for n, _ in ordered])
        measures.append([i for _, i in ordered[:far]])
        rest.append([i for _, i in ordered[far:]])
    dated = [i for dates in _dated(job, table, rows, columns, middle) for i in dates]
    for k, tier in enumerate(itertools.zip_longest(exemplars, known, *measures, fillvalue=-1)):
        order += tier  # a rare value, a well-known name, then each measure's next outlier
        if k == 1:
            order += dated  # after two rounds, the oldest and the newest row by each date
    order += dated
    # then where each value of a few-valued column first shows (a table grouped or sorted
    # by it: the first suite of a protocol, the first pod of a namespace), fewest rows first
    firsts = sorted((n, c, value) for c, found in enumerate(counts)
                    if found and 1 < len(found) <= _GROUPS for value, n in found.items())
    order += [holders[(c, value)][0] for _, c, value in firsts if (c, value) in holders]
    order += again
    for _, column, value in rare:  # then every other row of a rare value, rarest first
        order += holders.get((column, value), [])[1:]
    for tier in itertools.zip_longest(*rest, fillvalue=-1):
        order += tier  # then the measures' other large values, in turn
    return sorted(_fill(job, order, room, middle))


def _dated(job: _Job, table: Table, rows: list[int], columns: list[list[str]],
           middle: set[int]) -> list[list[int]]:
    """The oldest and the newest row of the middle by each date the rows hold (`ls -l`'s, a
    column of ISO dates and times: a backend's start, a package's install date), when the dates
    differ: the stale file and the one just changed are what a reader looks for. A column the
    table is sorted by has its extremes at head and tail already."""
    dates = []
    if table.date_of:
        dates.append([table.date_of(job.rows[i]) for i in rows])
    for values in columns:
        if sum(1 for v in values if _ISO_DATE.fullmatch(v)) >= MIN_SHARE * len(values):
            dates.append([v if _ISO_DATE.fullmatch(v) else None for v in values])
    found = []
    for column in dates:  # the extremes of the whole table, when head and tail miss them
        held = [(d, i) for d, i in zip(column, rows) if d is not None]
        if len({d for d, _ in held}) < 2:
            continue
        oldest = min(held)[1]
        newest = min(held, key=lambda p: (_negated(p[0]), p[1]))[1]
        found.append([i for i in (oldest, newest) if i in middle])
    return found


def _negated(date: tuple | str) -> tuple:
    """A key that sorts dates newest first (their parts are numbers and strings)."""
    parts = date if isinstance(date, tuple) else (date,)
    return tuple(-p if isinstance(p, int) else tuple(-ord(c) for c in p) for p in parts)


def _outlying(values: list[float], largest: list[float]) -> int:
    """How many of a measure's largest values (`largest`, descending) stand apart from the
    column: above three times its median (the one huge file, the second of a burst of
    writes), at most a _RARE_SHARE of the column and at least its largest one."""
    typical = sorted(values)[len(values) // 2] if values else 0
    most = max(1, int(_RARE_SHARE * len(values)))
    far = next((k for k, n in enumerate(largest) if n <= 3 * typical or k >= most),
               len(largest))
    return max(1, far)


def _both_ends(values: list[float], held: list[tuple[float, int]]
               ) -> tuple[list[tuple[float, int]], int]:
    """A signed column's rows (`held`: value and row, largest first) from both ends in turn,
    the farthest from its median of each side first, and how many of them stand apart: over
    three times the column's median distance from its median, at most a _RARE_SHARE of the
    column and at least the extreme of each side."""
    typical = sorted(values)[len(values) // 2]
    spread = sorted(abs(n - typical) for n in values)[len(values) // 2]
    highs = [p for p in held if p[0] > typical]
    lows = [p for p in reversed(held) if p[0] < typical]
    ordered = [p for pair in itertools.zip_longest(lows, highs) for p in pair if p is not None]
    most = max(2, int(_RARE_SHARE * len(values)))
    far = next((k for k, (n, _) in enumerate(ordered)
                if abs(n - typical) <= 3 * spread or k >= most), len(ordered))
    return ordered, max(min(2, len(ordered)), far)


def _value_counts(values: list[str], rows: int) -> dict[str, int] | None:
    """How many rows hold each value of a column whose values repeat (a status, a type, a
    source, a state: at most few_values(rows) values, or one value on a third of the rows
    and a value for every _REPEATS rows at most), else None (names, descriptions)."""
    counts: dict[str, int] = {}
    most = max(few_values(rows), rows // _REPEATS)
    for cell in values:
        counts[cell] = counts.get(cell, 0) + 1
        if len(counts) > most:
            return None
    if len(counts) > few_values(rows) and max(counts.values()) * 3 < rows:
        return None
    return counts


def _measure_of(values: list[str], least: int = _MEASURE_VALUES) -> list[float | None] | None:
    """A column's values as numbers when it measures (nearly every row holds a number, units
    and all: `28.3`, `83964`, `45%`, `1.2GB`, `512Mi`, `4:06.83`, `3d4h`; and the numbers are
    many: `least` values, fewer for a share such as %CPU), else None. A column whose numbers
    only grow down the rows is the table's key or order (a PID, a line number, a sorted size):
    its largest value is the last row's."""
    numbers = [_number(value) for value in values]
    found = [n for n in numbers if n is not None]
    if len(found) < MIN_SHARE * len(numbers) or len(set(found)) < least:
        return None
    rises = sum(1 for a, b in zip(found, found[1:]) if b > a)
    falls = sum(1 for a, b in zip(found, found[1:]) if b < a)
    if min(rises, falls) <= (1 - MIN_SHARE) * (rises + falls):
        return None  # sorted by it, one way or the other: its extremes are head and tail
    return numbers


_UNITS = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "p": 1e15}
_DURATION = {"ms": 1e-3, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800, "y": 31536000}


def _number(cell: str) -> float | None:
    """A cell's number: plain (`1,024`, `28.3`), a percentage, a size with its unit (`1.2GB`,
    `512Mi`, `4.0K`), a clock duration (`4:06.83`, `1-02:03:04`) or an age (`3d4h`, `45s`)."""
    cell = cell.strip().replace(",", "")
    if cell.endswith(")") and " (" in cell:  # kubectl's RESTARTS: `5 (3m12s ago)`
        cell = cell[:cell.index(" (")]
    try:
        return float(cell)
    except ValueError:
        pass
    m = _SIZED_NUMBER.fullmatch(cell)
    if m:
        return float(m[1]) * _UNITS[m[2].lower()]
    m = _CLOCK.fullmatch(cell)
    if m:
        days, *parts = m.groups()
        seconds = 0.0
        for part in parts:
            if part is not None:
                seconds = seconds * 60 + float(part)
        return seconds + 86400 * int(days or 0)
    parts = _AGE.findall(cell) if _AGE_WHOLE.fullmatch(cell) else []
    return sum(float(n) * _DURATION[unit] for n, unit in parts) if parts else None


def _trouble(row: str, states_only: bool = False) -> int:
    """2 for a row that names an error or a failed state (a pod's CrashLoopBackOff, a
    container's Exited (1), a zombie), 1 for a warning or a state between (Pending,
    NotReady), else 0. Paths and file names are not read: a `libgpg-error.so` or an
    `errors.go` names no error."""
    row = _NAMES.sub(" ", row)
    level = 0 if states_only else severity(row)
    return max(level, 2 if FAILED_STATE.search(row) else 1 if PENDING_STATE.search(row) else 0)


def _header_lines(job: _Job, count: int) -> list[int]:
    found = []
    for index, row in enumerate(job.rows):
        if len(found) == count:
            break
        if row.strip():
            found.append(index)
    return found


def _gap(job: _Job, first: int, last: int) -> Gap:
    return Gap(job.lines.start(first), job.lines.end(last), first + 1, last + 1)


def _folders_note(job: _Job, table: Table, omitted: list[int], room: int) -> str | None:
    """The omitted rows counted by the directory of the path each names."""
    paths = [table.path_of(job.rows[i]) or "" for i in omitted]
    # A folder's own rows are keyed `dir/.`, so rolling `dir/` up takes them along.
    folders = ["/".join(split(p)[:-1] + ["."]) for p in paths]
    lead = "/" if all(p.startswith("/") for p in paths) else ""

    def label(key: str, members: list[int]) -> str:
        folder = key[:-1] if key.endswith("/.") else "./" if key in ("", ".") else key
        return f"{lead}{folder} {len(members):,}"

    entries = roll_up(folders, label, job.costs.note, room - job.costs.note("(omitted rows by "
                                                                           "directory: )"))
    note = f"(omitted rows by directory: {', '.join(text for text, _ in entries)})"
    return note if job.costs.note(note) <= room else None


# --------------------------------------------------------------------------- planning


@value(frozen=False)
class _Job:
    rows: list[str]
    lines: Lines
    costs: LineCosts
    room: int


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = list(lines)
    job = _Job(rows, lines, LineCosts(rows, counter, longest=line_limit(budget)),
               budget - CLOSING_MARKER_TOKENS)
    if job.room <= 0:
        return None
    sections = _sections(rows)
    if sections is not None:
        return _plan_sections(job, sections)
    # Which kind of table (and its header) is read off the same bounded sample sniffing saw.
    table = _table(rows if len(rows) <= 2 * _SAMPLE else rows[:_SAMPLE] + rows[-_SAMPLE:])
    return _plan_table(job, table) if table else None
