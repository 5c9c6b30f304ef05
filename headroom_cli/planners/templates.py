"""templates: the rung for formats no planner knows, before plain head and tail.

Lines are grouped by template, Drain-style: what varies between lines of one kind — numbers,
hex ids, UUIDs, timestamps, paths, identifiers, quoted strings, runs of alignment spaces — is
masked, and lines whose masked form is the same are one template. The plan keeps the first
and the last lines, then one exemplar per template (its first line, with its count and line
range), the templates ranked by severity words (error, fail, fatal, panic, denied… before
warning…; a line that opens with a test runner's verdict, `[ok]:` or `[err]:`, is as severe as
its verdict; then the lines naming a version, `Version: 3.0.19`, `__VERSION__ "12.2.0"`, a few a
budget), then by rarity (the fewest lines first: a line unlike the others is what a reader
looks for), then lines at the margin (headings, records) before indented ones, spread over
the output; every omitted run is a gap with its exact line counts. Every template at the margin
gets its exemplar before any template gets a second line, in turn with the rows whose own
name is a well-known one (wellknown.py: `libc.so.6` among 539 libraries of one form); then
the rows of a template in a failed or pending state, the outliers (a template's largest
value where it stands apart, the rare word where its rows agree), then the heads of blocks
(the first line after a blank one, a line the next is indented under) level by level, then
the indented templates. An aligned table's rows are keyed by their few-valued columns (a
status, a type), so a row of a rare status is a template of its own; a column of many values
each on one row (names masking left whole) keys none. An output whose lines
are nearly all of different templates (prose) is outlined by its blocks when it has some (a
man page), else
kept head and tail around its lines naming an error, a warning or a version (annotated
source, a dump of settings), else left to head and tail (None).

Masking is one regular-expression pass over the whole text (no mask crosses a newline, so the
masked text splits into the same lines), then one dictionary update a line: linear, and in C
for the most part; a long output is first judged on its first 2,000 lines, so prose costs no
more than that. An output streamed past memory is not planned here (its middle was never
read, so its templates cannot be counted): it keeps head and tail. `drain3` was weighed and
not taken: its import alone took ~1.9 s here (the masker's module: ~18 ms), it adds a
dependency, and its similarity tree serves streams of unbounded templates; a clip needs only
exact masked keys over one text.
"""

from __future__ import annotations

import collections
import itertools
import re
from functools import cache, partial

from ..patterns import lazy
from ..plan import Keep, Lines, Plan, gap
from ..render import CLOSING_MARKER_TOKENS, GAP_MARKER_TOKENS, template_note
from ..tokens import Counter
from ..tools import Tool
from .costs import MAX_LINE_CHARS
from .wellknown import known_rows

# One pass: quoted strings ("…", '…', `…`), runs of alignment spaces, rules (`----+----`, `┌────┬`: one
# template whatever their columns' widths), and every token holding a digit, a path
# separator or an underscore (numbers, versions, hex ids, UUIDs, timestamps, paths,
# identifiers like `BIO_ctrl@OPENSSL_3`). A token is tried only where one starts (the
# lookbehind), so masking stays linear. An indented field's number (redis-cli's `    3)
# (integer) 22839`) is kept: it names which field the row is.
_MASK = lazy(r"\"[^\"\n]*\"|'[^'\n]*'|`[^`\n]*`|[ \t]{2,}|[-=+─━┼┬┴├┤┌┐└┘╋]{3,}"
             r"|(?<![\w.~@+/\\:-])(?!(?<=[ \t]{2})\d{1,2}\)[ \t])"
             r"(?=[\w.~@+:-]*[\d/\\_])[\w.~@+/\\:-]+")
_HOLE = "\x00"
_KEY_CHARS = 200  # of a masked line, what names its template (a long line's start)
# Masked lines (not blank) more distinct than this have no pattern worth summarising (prose).
_DISTINCT_SHARE = 0.45
_SAMPLE_LINES = 2_000
_MIN_LINES = 8
_MIN_HEADS = 8  # blocks a prose output needs to be outlined rather than cut head and tail
_MIN_RECORDS = 3  # blocks whose first lines share a template: an output of records
_SEVERE = lazy(r"(?i)(?<![.$])\b(?:error|errors|fail|failed|failure|fatal|panic|panicked|denied"
                     r"|exception|traceback|critical|abort(?:ed)?|segfault|segmentation fault"
                     r"|refused|crash(?:ed)?)\b")
# A verdict opening a line, in brackets (Tcl's `[err]:`, `*** [err]:` in its summary) or alone
# before a blank or a colon (TAP's `not ok 3`, `PASSED tests/…`): what a test runner says of the
# test the line names. (A bare `err` is Go's variable, no verdict.)
_VERDICT_FORM = (r"[ \t]*+(?:(?:\*\*\* )?\[ *+(?:(?P<failed>err|error|fail|failed|failure)"
                 r"|(?P<passed>ok|pass|passed)) *+\]:?|(?:(?P<bare_failed>not ok|error|fail|failed"
                 r"|failure)|(?P<bare_passed>ok|pass|passed)):?)(?!\S)")
_VERDICT = lazy("(?i)" + _VERDICT_FORM)
_FAILED_VERDICT = lazy("(?im)^" + _VERDICT_FORM)  # asked of the lines holding _FAILED_WORDS
_FAILED_WORDS = ("err", "fail", "not ok")
_SEVERE_WORDS = ("error", "fail", "fatal", "panic", "denied", "exception", "traceback",
                 "critical", "abort", "segfault", "segmentation", "refused", "crash")
# (A word that ends a qualified name, `java.lang.Error`, `kernel.panic`, names a class or a
# setting.)
# What is wrong without failing yet: an invalid or incompatible value, a missing or expired
# thing, a security advisory (a CVE id: a changelog's, a build's applied fixes).
_WARNING = lazy(r"(?i)\b(?:warn|warning|warnings|deprecated|timeout|timed out|retry"
                      r"|retrying|not found|unable|cannot|invalid|incompatible|unsupported"
                      r"|not supported|missing|corrupt(?:ed)?|mismatch(?:ed)?|expired|overflow"
                      r"|CVE-\d+-\d+)\b")
_WARNING_WORDS = ("warn", "deprecated", "timeout", "timed out", "retry", "not found", "unable",
                  "cannot", "invalid", "incompatible", "unsupported", "not supported", "missing",
                  "corrupt", "mismatch", "expired", "overflow", "cve-")
# A word naming a version or a release (`Version:`, `__VERSION__`, `gccversion=`, `osrelease`,
# `sqlite3_libversion`): what a reader of a dump, a header or a listing looks up first.
# A word inside a path (`bits/version.h`) or a name opening with a dot (an ELF section
# `.gnu.version`) names a file, not a version.
# `conversion`, `inversion`, `subversion` name none; a number follows it on its line (`Version
# table:`, `java.lang.VersionProps source: shared objects file` name no version).
_VERSIONED = lazy(r"(?i)(?<![\w.\-/\\$])(?!\.)[\w.-]*?"
                  r"(?:(?<!con)(?<!in)(?<!di)(?<!sub)(?<!per)version|release)[\w.-]*(?=[^\d\n]*\d)")
_VERSION_WORDS = ("version", "release")
_VERSION_TOKENS = 250  # of the budget, for each line naming a version offered early
_KNOWN_TOKENS = 200  # of the budget, for each row of a well-known name offered early
_HEAD_SHARE = 0.2  # of the room, for the first lines
_TAIL_SHARE = 0.1  # and the last
_MISSES = 64  # exemplars in a row that do not fit before looking stops
_LONG_LINE = 2_000  # characters: an exemplar longer than this is not priced (it would not fit)
_SPREAD_BITS = 16
# The states of a row a reader looks for first (kubectl, docker, systemctl, ps, lsof, apt),
# beside the error words every output shares (severity): listing's tables read them too.
FAILED_STATE = lazy(r"\b(?:CrashLoopBackOff|ImagePullBackOff|ErrImagePull|OOMKilled|Evicted"
                    r"|NotReady|Unhealthy|unhealthy|Degraded|degraded|Exited \([1-9]\d*\)"
                    r"|<defunct>)|\(deleted\)")
# An HTTP access record's status (the combined log format's `"GET /a HTTP/1.1" 502 157`, as
# nginx, Apache, gunicorn, uvicorn and Django's runserver write it; a JSON access log's
# `"status":504`; HAProxy's after its five timers, `0/0/0/-1/1 502 209`): masking takes its
# digits, so its class is put back into the record's key
# (a server's 5xx answers are a template of their own among its 200s) and read by severity().
_HTTP_STATUS = lazy(r'(?:HTTP/[\d.]+" |"status": ?|(?<= )-?\d+/-?\d+/-?\d+/-?\d+/\+?\d+ )'
                    r'([1-5])\d\d\b')  # 1: its class
# The request's method and its path's first part (`"GET /r`, `"POST /api`), put back into an
# access record's key beside its status class: a route's failures are a template of their own.
_ROUTE = lazy(r'"[A-Z]{3,7} /[^/?" ]*')
PENDING_STATE = lazy(r"\b(?:Pending|ContainerCreating|Terminating|Unknown|Restarting"
                     r"|SchedulingDisabled|outdated|upgradable)\b")
_RARE_LINES = 0.01  # of the lines, the most a rare template (whose every line is offered) holds
_MIN_RARE = 4  # lines a rare template may hold however short the output
# A number standing alone (not part of a name, a version or a hex id): a size, a count.
_NUMBER = lazy(r"(?<![\w.:/+~-])\d+(?:\.\d+)?(?![\w.:/+~-])")
# A duration (`2501.24ms`, `duration: 310.514 ms`, `1.2s`), read in milliseconds; one per
# unit of work too (a benchmark's `53904590 ns/op`, `ns/iter`, a training loop's `s/it`), but
# never an escape's digits (a traced read's `\270s`); or the seconds a traced call took, at
# its line's end (`strace -T`'s `= 1 <0.103621>`).
_DURATION = lazy(r"(?<![\w.:/+~\\-])(\d+(?:\.\d+)?) ?(ns|us|µs|ms|s)(?:/[a-z]+)?(?![\w.:/+~-])"
                 r"|<(\d+\.\d+)>$", re.M)
_MILLISECONDS = {"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1, "s": 1000}
_MIN_RANKED = 10  # rows a ranked table needs
_IN_ORDER = 0.95  # of its rows' neighbours, those in order
_TOP_ROWS = 20  # of its first rows' neighbours, at least half strictly in order
_RANKED_SHARE = 0.4  # of the room, for a ranked table's first rows, as listed
_MIN_EXTREME = 8  # lines a template needs for its largest value to stand apart
_OUTLIER = 3  # times the median a largest value is
_EXTREME_LINES = 50_000  # lines read for them (a bound on the time)
_AGREE = 0.8  # of a template's rows, those holding one word at a place where they agree
_ODD = 0.02  # of them, the most a rare word there is on
_ODD_LINES = 20_000  # lines read for them (a bound on the time)
_ODD_WORDS = 24  # places read of a row
# An aligned table's cells: split at runs of two spaces or more, tabs and column rules (psql's
# `|`, sqlite3 -box's `│`). A table is this share of the lines split in _TABLE_CELLS or more;
# a column whose masked values repeat (at most _FEW_VALUES of them, or one for every
# _ROWS_A_VALUE rows) names its rows' template: a status, a type, an aligned log's message once
# its numbers are masked; names and descriptions (most rows their own) do not.
_SEPARATOR = lazy(r"[ \t]*[|│┃\t][ \t]*|[ \t]{2,}")
_RULE = "\x01"
_TABLE_CELLS = 3
_TABLE_SHARE = 0.6
_FEW_VALUES = 6
_ROWS_A_VALUE = 16


def few_values(rows: int) -> int:
    """The most values a column of a table of `rows` rows may hold and still name a kind of
    row (a status, a type, a priority): _FEW_VALUES, or one for every _ROWS_A_VALUE rows."""
    return max(_FEW_VALUES, rows // _ROWS_A_VALUE)


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    total = len(lines)
    if total < _MIN_LINES:
        return None
    if total > 2 * _SAMPLE_LINES and not _templated(text[:lines.start(_SAMPLE_LINES)]):
        templates: dict[str, list[int]] = {}  # prose, judged on its start: not masked whole
        prose, records, keys = True, [], []
    else:
        keys = _keys(text, total)
        templates, filled = _templates(keys, total)
        prose = len(templates) > _DISTINCT_SHARE * filled
        records = [] if prose else _records(lines, keys, total)
    heads = _heads(lines, total, _counts(keys, templates))
    versioned = version_lines(text, lines, keys, max(2, budget // _VERSION_TOKENS))
    head_share, tail_share = _HEAD_SHARE, _TAIL_SHARE
    # prose's lines that name an error or a warning (templates of many lines name them by kind)
    named = (_lines_naming(2, text, lines), _lines_naming(1, text, lines)) if prose else ([], [])
    if prose and len(heads) < _MIN_HEADS:
        # nearly every line of its own form, and no blocks to outline: head and tail (at the
        # plain clip's shares, halved at the head), but for the lines that name an error, a
        # warning or a version (annotated source, a dump of settings, a log without errors)
        if not versioned and not any(named) or _long_lined(lines, total):
            return None  # (long lines: the plain clip shows many lines' beginnings)
        heads, head_share, tail_share = [], tool.head_share / 2, tool.tail_share
    by_first = {first: (count, last) for count, first, last in templates.values()}
    room = budget - CLOSING_MARKER_TOKENS

    def cost(index: int) -> int:
        return counter.count(lines.get(index)) + 1

    def note(index: int) -> str:
        count, last = by_first.get(index, (1, index))
        return template_note(count, index + 1, last + 1) if count > 1 else ""

    # the rows a reader looks up by name (wellknown.py)
    ranked_known = [] if prose else known_rows(list(lines), total)
    known = ranked_known[:budget // _KNOWN_TOKENS]
    # the other rows of the templates in a failed or pending state come after every exemplar
    # at the margin, before the heads of blocks; what they cost (up to half the room) is set
    # aside before the first and last lines take their shares: a long list's troubled rows
    # outrank its head. The other rows of the rare templates come last (a rare form is as
    # often a dump's incidental line).
    states = [] if prose else _state_members(lines, keys, templates, total, ranked_known)
    # then the outliers (a template's largest values, its rare words), no room set aside
    extremes = [] if prose else (_extremes(lines, keys, templates, total)
                                 + _odd_ones(lines, keys, templates, total))
    # the one slowest call or request, when it stands apart (a traced call's `<0.103621>`
    # among thousands of a tenth of a millisecond), with the warnings
    slowest = [] if prose or not _DURATION.search(text) else _extremes(
        lines, keys, templates, total, timed=True)[:1]
    orders = _orders(text, lines, templates, heads, prose, named, records, versioned, known,
                     states + extremes, slowest)
    rare = [] if prose else _rare_members(keys, templates, total, ranked_known)
    reserve = 0
    for index in states:
        if reserve >= room // 2:
            break
        reserve += cost(index) + GAP_MARKER_TOKENS // 2
    reserve = min(reserve, room // 2)
    room -= reserve
    kept: set[int] = set()
    if not prose:  # a table ranked by a measure: its first rows answer the reader's question
        room -= _edge(_ranked(lines, keys, templates), int(_RANKED_SHARE * room), cost, kept,
                      lines)
    room -= _edge(range(total), int(head_share * room), cost, kept, lines)
    room -= _edge(range(total - 1, -1, -1), int(tail_share * room), cost, kept,
                  lines) + GAP_MARKER_TOKENS
    room += reserve
    notes: dict[int, str] = {}  # the exemplars between head and tail, with their counts
    for order in orders + (rare,):
        misses = 0
        for first in order:
            if first in kept or len(lines.get(first)) > _LONG_LINE:
                continue
            noted = note(first)
            price = cost(first) + counter.count(noted) + GAP_MARKER_TOKENS  # it splits a gap in two
            if price > room:
                misses += 1
                if misses > _MISSES:
                    break
                continue
            misses = 0
            kept.add(first)
            notes[first] = noted
            room -= price
    return _plan(lines, sorted(kept), notes)


def notable_lines(text: str, lines: Lines, most: int = 2) -> list[int]:
    """The rows whose duration stands apart from their template's (_extremes: a request that
    took 2.5 s among a thousand of a millisecond), then the first record of each template of
    access records answering 5xx (an INFO record `"POST /api/shorten HTTP/1.1" 500` beside
    its traceback: no error rule reads a status), then the first line of each template that
    occurs at most `most` times; each ranked as the plan offers exemplars: severe before the
    rest, rarer first, at the margin before indented, spread over the output. A log's
    one-off records (a process killed, a recovery begun), its slowest and its failed answers
    are what its many routine ones (a statement's duration, a connection) hide."""
    total = len(lines)
    if total < _MIN_LINES:
        return []
    keys = _keys(text, total)
    templates, _ = _templates(keys, total)

    def ranked(found) -> list[int]:
        return [first for count, first, _ in sorted(
            found, key=lambda t: _rank(lines.get(t[1]), t[0], t[1], total))]

    failed = ranked(t for t in templates.values()
                    if t[0] > most and _status_class(lines.get(t[1])) == "5")
    rare = ranked(t for t in templates.values() if t[0] <= most)
    # (durations are read line by line: a log that spells none is not read for them)
    slowest = _extremes(lines, keys, templates, total, timed=True) if _DURATION.search(
        text) else []
    return list(dict.fromkeys(slowest + failed + rare))


def _orders(text: str, lines: Lines, templates: dict[str, list[int]],
            heads: list[int], prose: bool, named: tuple[list[int], list[int]],
            records: list[int], versioned: list[int], known: list[int],
            states: list[int], slowest: list[int]) -> tuple[list[int], ...]:
    """The lines to keep, in the order they are offered: the severe templates' exemplars,
    the warnings' with the one slowest row (`slowest`), the lines naming a version, then the
    first line of every record (_records: what names it, after what names a failure) and each
    record's version line, then one
    exemplar of every template at the margin before any template's second line, in turn with
    the rows of well-known names (`known`: a list of one form has few exemplars, a dump of
    many forms its rarest first), then the other rows in a failed or pending state
    (`states`), then the heads of blocks level by level (a section before its subsections;
    they may repeat a template), then the indented templates' exemplars
    (detail: a disassembly's rarest instruction comes after its functions). Prose has no
    templates worth one line each: its outline, then the lines that name an error (a man page
    says "error" often) and those naming a warning (`named`), then those naming a version."""
    total = len(lines)
    if prose:
        top = [i for i in heads if lines.get(i)[:1] not in " \t"
               and (i == 0 or not lines.get(i - 1).strip())]
        return (top, *named, heads, versioned)
    ranked = sorted(templates.values(), key=lambda t: _rank(lines.get(t[1]), t[0], t[1], total))
    severe = [first for _, first, _ in ranked if severity(lines.get(first)) == 2]
    warned = [first for _, first, _ in ranked if severity(lines.get(first)) == 1]
    margin = [first for _, first, _ in ranked if lines.get(first)[:1] not in " \t"]
    indented = [first for _, first, _ in ranked if lines.get(first)[:1] in " \t"]
    turns = itertools.zip_longest(margin, known, fillvalue=-1)
    return (severe, warned + slowest, versioned, records,
            _record_versions(text, lines, records), [i for pair in turns for i in pair if i >= 0],
            states, heads, indented)


def _state_members(lines: Lines, keys: list[str], templates: dict[str, list[int]],
                   total: int, known: list[int]) -> list[int]:
    """The other lines of the templates whose rows are in a failed state (a pod in
    CrashLoopBackOff, a zombie), then of those in a state between (`[upgradable to: …]`,
    Pending), each in the output's order after the rows of well-known names (`known`, most
    fundamental first: openssl's pending update among a hundred): every such row is what a
    reader of a listing looks for, not one exemplar of them. A template on half the lines or
    more is no exception."""
    levels = {}
    for key, (count, first, _) in templates.items():
        if 1 < count < total / 2:
            line = lines.get(first)
            level = 2 if FAILED_STATE.search(line) else 1 if PENDING_STATE.search(line) else 0
            if level:
                levels[key] = level
    if not levels:
        return []
    members = _members(keys, levels, total)
    ordered = sorted(members, key=lambda k: (-levels[k], members[k][0]))
    return _known_first([[index for key in ordered if levels[key] == level
                          for index in members[key][1:]] for level in (2, 1)], known)


def _extremes(lines: Lines, keys: list[str], templates: dict[str, list[int]],
              total: int, timed: bool = False) -> list[int]:
    """The row holding the largest value of each number a template's lines spell in the same
    place (`Rss: 11944 kB` among 400 mappings, a 64 MB file among a data folder's pages), when
    it stands apart (over _OUTLIER times the place's median), the most outlying first: the
    heaviest row is what a reader of a long list of like rows looks for. Read over the first
    _EXTREME_LINES lines of the templates of _MIN_EXTREME lines or more. `timed`: only
    durations are read (a log's other numbers are counters, ids and line numbers), in
    milliseconds, and of the rows within a factor of two of the slowest the first is taken
    (the request where a stall began); each row's longest is also weighed against every
    other row's (a trace's one slow call is often of a form that occurs only a few times)."""
    wanted = {key for key, (count, _, _) in templates.items() if count >= _MIN_EXTREME}
    values: dict[tuple[str | None, int], list[tuple[float, int]]] = {}
    for index, key in enumerate(keys[:min(total, _EXTREME_LINES)]):
        if timed:  # every row is read: its longest joins the rows of every form (key None)
            numbers = _milliseconds(lines.get(index))
            if numbers:
                values.setdefault((None, 0), []).append((max(numbers), index))
        elif key in wanted:
            numbers = list(map(float, _NUMBER.findall(lines.get(index), 0, _KEY_CHARS)))
        else:
            continue
        if key in wanted:
            for place, number in enumerate(numbers):
                values.setdefault((key, place), []).append((number, index))
    found = []
    for (key, _), held in values.items():
        if len(held) < _MIN_EXTREME:
            continue
        median = sorted(n for n, _ in held)[len(held) // 2]
        most, index = max(held, key=lambda item: (item[0], -item[1]))
        if most > _OUTLIER * max(median, 1):
            if timed:  # the first of the slowest: where a stall began, not its worst by a hair
                index = next(index for number, index in held if 2 * number >= most)
            found.append((-most / max(median, 1), index))
    return list(dict.fromkeys(index for _, index in sorted(found)))


def _milliseconds(line: str) -> list[float]:
    """The durations a line spells (_DURATION), in milliseconds."""
    return [float(number or traced) * _MILLISECONDS[unit or "s"]
            for number, unit, traced in _DURATION.findall(line, 0, _KEY_CHARS)]


def _ranked(lines: Lines, keys: list[str], templates: dict[str, list[int]]) -> list[int]:
    """The rows of the biggest template, when a number of theirs ranks them from the largest
    down (a profile sorted by cumulative time, a class histogram, `sort -rn`, a query's `ORDER
    BY … DESC`): a ranking's first rows are its answer. None when no number is in that order
    (a rising one is a clock or an offset, a log's or a dump's), or when its first rows tie (a
    column of 3s that falls to 2 once ranks nothing)."""
    key, (count, first, last) = max(templates.items(), key=lambda item: item[1][0],
                                    default=("", (0, 0, 0)))
    if count < _MIN_RANKED:
        return []
    rows = [i for i in range(first, min(last + 1, _EXTREME_LINES)) if keys[i] == key]
    numbers = [[float(n) for n in _NUMBER.findall(lines.get(i), 0, _KEY_CHARS)] for i in rows]
    width = collections.Counter(len(each) for each in numbers).most_common(1)[0][0]
    kept = [(i, each) for i, each in zip(rows, numbers) if len(each) == width]
    if len(kept) < _MIN_RANKED:
        return []
    rows, numbers = [i for i, _ in kept], [each for _, each in kept]
    for place in range(width):
        column = [each[place] for each in numbers]
        if column[0] == column[-1]:
            continue
        pairs = list(itertools.pairwise(column))
        top = pairs[:_TOP_ROWS]  # a ranking's first rows differ (a column of ties is no order)
        if (sum(a >= b for a, b in pairs) >= _IN_ORDER * len(pairs)
                and 2 * sum(a > b for a, b in top) >= len(top)):
            return rows
    return []


def _odd_ones(lines: Lines, keys: list[str], templates: dict[str, list[int]],
              total: int) -> list[int]:
    """The first row holding each rare word of a place where a template's rows nearly all
    agree (_AGREE of them hold one word there; the rare one is on at most _ODD of them): the
    one `Birth: 2026-11-28` among 170 `Birth: 1970-01-01`, the counters of the one link that
    dropped packets where every other dropped none (`ip -s link`). Rarest first. Read over
    the first _ODD_LINES lines of the templates of _MIN_EXTREME lines or more; words are split
    at whitespace, in rows of as many words as the template's first (of their first
    _KEY_CHARS characters, what names their template)."""
    wanted = {key: len(lines.get(first)[:_KEY_CHARS].split())
              for key, (count, first, _) in templates.items() if count >= _MIN_EXTREME}
    places: dict[tuple[str, int], dict[str, list[int]]] = {}
    for index, key in enumerate(keys[:min(total, _ODD_LINES)]):
        width = wanted.get(key)
        if width is None:
            continue
        words = lines.get(index)[:_KEY_CHARS].split()  # (a long line is read by its start)
        if len(words) != width:
            continue
        for place, word in enumerate(words[:_ODD_WORDS]):
            places.setdefault((key, place), {}).setdefault(word, []).append(index)
    found = []
    for held in places.values():
        if len(held) < 2:
            continue
        rows = sum(map(len, held.values()))
        if rows < _MIN_EXTREME or max(map(len, held.values())) < _AGREE * rows:
            continue
        found += [(len(at), at[0]) for at in held.values() if len(at) <= max(1, _ODD * rows)]
    return list(dict.fromkeys(index for _, index in sorted(found)))


def _known_first(tiers: list[list[int]], known: list[int]) -> list[int]:
    """Each tier's rows of well-known names first (in `known`'s order: most fundamental
    first), then its other rows as they come."""
    place = {index: at for at, index in enumerate(known)}
    return [index for tier in tiers
            for index in sorted((i for i in tier if i in place), key=place.__getitem__)
            + [i for i in tier if i not in place]]


def _members(keys: list[str], wanted, total: int) -> dict[str, list[int]]:
    """The lines (in order) of each template key in `wanted`, over the first `total` lines."""
    members: dict[str, list[int]] = {}
    for index, key in enumerate(keys[:total]):
        if key in wanted:
            members.setdefault(key, []).append(index)
    return members


def _rare_members(keys: list[str], templates: dict[str, list[int]], total: int,
                  known: list[int]) -> list[int]:
    """The other lines of the rare templates, those of well-known names first (`known`), then
    rarest first, each in its output's order: a row unlike its neighbours (a package
    `[installed]` or `[upgradable from: …]` among thousands that are not, a rare status) is
    what a reader looks for, and its template's exemplar stands for one of them only. A template is rare on at most _RARE_LINES of the lines and a quarter
    of the commonest template's."""
    if not templates:
        return []
    most = max(count for count, _, _ in templates.values())
    limit = min(max(_MIN_RARE, int(total * _RARE_LINES)), most // 4)
    rare = {key: count for key, (count, _, _) in templates.items() if 1 < count <= limit}
    if not rare:
        return []
    members = _members(keys, rare, total)
    return _known_first([[index for key in sorted(members, key=lambda k: (rare[k], members[k][0]))
                          for index in members[key][1:]]], known)


def _record_versions(text: str, lines: Lines, records: list[int]) -> list[int]:
    """Each record's first line naming a version (`Version: 3.0.19-1~deb12u2` under its
    `Package:`), in the records' order: a dump of records is read for what each one is and
    which version of it."""
    if not records:
        return []
    starts = sorted(records)
    found: dict[int, int] = {}
    at = 0
    for match in version_matches(text, lines.start(starts[0])):
        index = lines.line_of(match.start())
        while at + 1 < len(starts) and starts[at + 1] <= index:
            at += 1
        found.setdefault(starts[at], index)
    return [found[start] for start in records if start in found]


def version_lines(text: str, lines: Lines, keys: list[str], most: int) -> list[int]:
    """Lines naming a version or a release (_VERSIONED), the first of each word and template
    (`Version:` in every record of a dump is one; `__VERSION__` and `__STDC_VERSION__` among
    a header's macros are two), in order, at most `most` of them."""
    found: dict[tuple[str, str], int] = {}
    for match in version_matches(text):
        index = lines.line_of(match.start())
        key = (match.group().lower(), keys[index] if index < len(keys) else "")
        if key not in found:
            found[key] = index
            if len(found) >= most:
                break
    return list(dict.fromkeys(found.values()))


def version_matches(text: str, start: int = 0):
    """_VERSIONED.finditer(text, start), read only where "version" or "release" is."""
    return matches_holding(_VERSIONED, _VERSION_WORDS, text, start)


def matches_holding(pattern, words: tuple[str, ...], text: str, start: int = 0):
    """pattern.finditer(text, start) for a pattern whose every match holds one of `words`, in
    any case, and crosses no newline: asked only of the lines that hold one. Such a pattern
    (case-blind, looking behind) tried at every position costs ~0.2–0.3 s a MB, and few lines
    hold the words."""
    if text.isascii():  # ASCII's case pairs are all `(?i)` matches there: lower() finds them
        lowered = text.lower()
        places = sorted(at for word in words for at in _finds(lowered, word, start))
    else:
        places = [match.start() for match in _any_of(words).finditer(text, start)]
    line_end = -1
    for place in places:
        if place < line_end:
            continue  # a line already asked
        line_start = max(start, text.rfind("\n", 0, place) + 1)
        line_end = text.find("\n", place)
        line_end = len(text) if line_end == -1 else line_end
        yield from pattern.finditer(text, line_start, line_end)


def _finds(text: str, word: str, start: int):
    at = text.find(word, start)
    while at != -1:
        yield at
        at = text.find(word, at + 1)


@cache
def _any_of(words: tuple[str, ...]):
    return lazy("(?i)" + "|".join(map(re.escape, words)))


def _records(lines: Lines, keys: list[str], total: int) -> list[int]:
    """The first lines of an output's records, spread over it: blocks apart by blank lines
    (`apt-cache show`, `sqlite3 -line`, `pip show`, `dpkg -s`, a disassembly's functions)
    whose first lines start with one word (`Package:`), at least _MIN_RECORDS of them and half
    the blocks that open with a word; each names its record, so every one is worth a line before the fields'
    exemplars."""
    firsts = [index for index in range(total) if keys[index].strip()
              and (index == 0 or not keys[index - 1].strip())]
    by_word: dict[str, list[int]] = {}
    for index in firsts:  # by the first word: `Package:` whatever its value's template
        word = lines.get(index).split(None, 1)[0]
        if any(c.isalpha() for c in word):  # not a line number (a disassembly's blocks)
            by_word.setdefault(word, []).append(index)
    found = max(by_word.values(), key=len, default=[])
    if len(found) < _MIN_RECORDS or 2 * len(found) < sum(map(len, by_word.values())):
        return []
    # a record has fields under its first line: blocks of one line are rows (ss -i's sockets
    # without an info line, whose empty one is a tab and spaces)
    if 2 * sum(1 for index in found if index + 1 < total and keys[index + 1].strip()) < len(found):
        return []
    return sorted(found, key=lambda index: _spread(index, total))


def _lines_naming(level: int, text: str, lines: Lines) -> list[int]:
    """The lines of prose whose severity() is `level`, in order: 2, those that name an error,
    a failure, a denial (_SEVERE) or open with a failed verdict (a test runner's `[err]:`);
    1, those naming a warning (_WARNING). A passed verdict (`[ok]: … should report an error`)
    names neither."""
    searches = (((_SEVERE, _SEVERE_WORDS), (_FAILED_VERDICT, _FAILED_WORDS)) if level == 2
                else ((_WARNING, _WARNING_WORDS),))
    found = {lines.line_of(match.start()) for pattern, words in searches
             for match in matches_holding(pattern, words, text)}
    return [index for index in sorted(found) if severity(lines.get(index)) == level]


def _keys(text: str, total: int) -> list[str]:
    """The template key of each of the first `total` lines: masking is one regular-expression
    pass over the whole text (no mask crosses a newline, so the masked text splits into the
    same lines); an aligned table's rows are keyed by their columns (_row_keys)."""
    table = _aligned(text.split("\n", _SAMPLE_LINES)[:_SAMPLE_LINES])
    masked = _MASK.sub(_HOLE, _SEPARATOR.sub(_RULE, text) if table else text)
    rows = masked.split("\n", total)[:total]
    keys = _row_keys(rows) if table else [row[:_KEY_CHARS] for row in rows]
    if _may_hold_status(text):
        _keep_statuses(text, keys)
    return keys


def _keep_statuses(text: str, keys: list[str]) -> None:
    """Each access record's key gets its status class and its route back (_HTTP_STATUS,
    _ROUTE), in one pass."""
    line, at = 0, 0
    for found in _HTTP_STATUS.finditer(text):
        line += text.count("\n", at, found.start())
        at = found.start()
        if line >= len(keys):
            break
        end = text.find("\n", at)
        route = _ROUTE.search(text, text.rfind("\n", 0, at) + 1, len(text) if end < 0 else end)
        keys[line] += "\x01" + found[1] + (route[0] if route else "")


def _aligned(sample: list[str]) -> bool:
    """Most of the first lines split into _TABLE_CELLS cells or more: an aligned table
    (`ps aux`, `dpkg -l`, `docker ps`, psql, sqlite3 -box, a disassembly's tab columns)."""
    filled = split = 0
    for line in sample:
        line = line.strip()
        if line:
            filled += 1
            split += len(_SEPARATOR.findall(line)) >= _TABLE_CELLS - 1
    return split >= _TABLE_SHARE * filled


def _row_keys(rows: list[str]) -> list[str]:
    """The template key of each row of an aligned table (its separators marked _RULE before
    masking): the values of its low-cardinality columns (a status, a type, an architecture).
    Rows differ in their names and descriptions; a row whose status is rare is a template of
    its own. A column whose masked values repeat stays in the key too: an aligned log's message
    column (`time  level  message`) holds a few dozen forms, and keying its rows by their level
    alone made every INFO line one template, its rare messages lost. A line of fewer cells (a
    title, a footer) keeps its masked form."""
    cells = [row.strip(_RULE + " ").split(_RULE) for row in rows]
    widths: dict[int, int] = {}  # rows of each number of cells
    for row in cells:
        widths[len(row)] = widths.get(len(row), 0) + 1
    few = {width: few_values(count) for width, count in widths.items()}
    seen: dict[tuple[int, int], dict[str, int]] = {}  # each column's values, with their rows
    for row in cells:
        if len(row) >= _TABLE_CELLS:
            limit = few[len(row)]
            for column, value in enumerate(row):
                values = seen.setdefault((len(row), column), {})
                value = value[:_KEY_CHARS]
                if value in values or len(values) <= limit:
                    values[value] = values.get(value, 0) + 1
    named = {place for place, values in seen.items() if _names_rows(values, few[place[0]])}
    keys = []
    for row, split in zip(rows, cells):
        if not row.strip(_RULE + " \t"):
            keys.append("")  # a blank line (its spaces marked as a separator)
            continue
        if len(split) < _TABLE_CELLS:
            keys.append(row[:_KEY_CHARS])
            continue
        kept = (_HOLE if (len(split), column) in named else value[:_KEY_CHARS]
                for column, value in enumerate(split))
        keys.append(f"{_RULE}{len(split)}{_RULE}" + _RULE.join(kept))
    return keys


def _names_rows(values: dict[str, int], limit: int) -> bool:
    """A column names its rows (it is no kind of row) when it holds more values than a kind
    does (`limit`), or more than _FEW_VALUES of which most are on one row each: the names
    masking leaves whole (`AUTHORS`, `BUGS` beside masked paths) are no templates. A status
    of one rare row (the zombie's `Z`) among a few common ones still keys its row."""
    if len(values) > limit:
        return True
    once = sum(1 for rows in values.values() if rows == 1)
    return len(values) > _FEW_VALUES and 2 * once > len(values)


def _long_lined(lines: Lines, total: int) -> bool:
    """A quarter of the first lines too long to print whole (minified code, unwrapped text)."""
    sample = min(total, _SAMPLE_LINES)
    return 4 * sum(len(lines.get(i)) > MAX_LINE_CHARS for i in range(sample)) > sample


def _counts(keys: list[str], templates: dict[str, list[int]]) -> list[int]:
    """How many lines share each line's template (none for prose: no templates)."""
    if not templates:
        return []
    return [templates[key][0] if key in templates else 0 for key in keys]


def _heads(lines: Lines, total: int, counts: list[int]) -> list[int]:
    """The lines that open a block: the first line after a blank one (a man page's section, a
    disassembly's function, psql's centred table title), then the lines the next is indented
    under; least indented first (level by level), within a level the heads of rarer forms
    first (the few `:user ID packet:` heads among a key ring's hundred `:signature packet:`
    ones), each spread over the output."""
    heads = []
    previous_blank = True
    for index in range(total):
        line = lines.get(index)
        body = line.lstrip(" \t")
        if not body.strip():
            previous_blank = True
            continue
        depth = len(line) - len(body)
        below = _depth(lines.get(index + 1)) if index + 1 < total else -1
        if previous_blank or below > depth:
            # a title centred over what follows (psql's `Table "…"`) is of the first level
            level = 0 if 0 <= below < depth else depth
            rarity = counts[index] if index < len(counts) else 0
            heads.append((not previous_blank, level, rarity, _spread(index, total), index))
        previous_blank = False
    return [head[-1] for head in sorted(heads)]


def _depth(line: str) -> int:
    body = line.lstrip(" \t")
    return len(line) - len(body) if body.strip() else -1


def _templated(text: str) -> bool:
    total = text.count("\n") + 1
    templates, filled = _templates(_keys(text, total), total)
    return len(templates) <= _DISTINCT_SHARE * filled


def _templates(keys: list[str], total: int) -> tuple[dict[str, list[int]], int]:
    """template key -> [count, first line, last line] (0-based) over the first `total` lines,
    and how many of them are not blank."""
    templates: dict[str, list[int]] = {}
    blank = 0
    for index, key in enumerate(keys[:total]):
        if not key.strip():
            blank += 1
            continue  # blank lines belong to no template
        found = templates.get(key)
        if found is None:
            templates[key] = [1, index, index]
        else:
            found[0] += 1
            found[2] = index
    return templates, total - blank


def _rank(line: str, count: int, first: int, total: int) -> tuple[int, int, bool, int]:
    """Severe before the rest, rare before common, a line at the margin (a heading, a record)
    before an indented one (its detail), then spread over the output."""
    return -severity(line), count, line[:1] in " \t", _spread(first, total)


def _spread(index: int, total: int) -> int:
    """Among equals, an order that spreads over the output: the middle first, then the
    quarters, the eighths… (the bits of the line's position in the output, reversed), so
    exemplars that do not all fit are not all from its start."""
    position = index * (1 << _SPREAD_BITS) // max(1, total)
    return int(f"{position:0{_SPREAD_BITS}b}"[::-1], 2)


def severity(line: str) -> int:
    """2 for a line that names an error or a failure, 1 for a warning, else 0. A line that
    opens with a verdict (a test runner's `[ok]:`, `PASSED`, `not ok 3`, `[err]:`) is as
    severe as its verdict says, whatever the words after it (`[ok]: INCR fails against a
    key holding a list`: a test of an error that passed)."""
    verdict = _VERDICT.match(line)
    if verdict:
        return 0 if verdict["passed"] or verdict["bare_passed"] else 2
    if _SEVERE.search(line):
        return 2
    status = _status_class(line)  # a server's answer: 5xx failed, 4xx refused
    if status == "5":
        return 2
    return 1 if status == "4" or _WARNING.search(line) else 0


def _may_hold_status(text: str) -> bool:
    """Whether `text` can hold an access record's status: _HTTP_STATUS's forms all have one of
    these (HAProxy's records end with the request's `HTTP/1.1`), and a plain search for them is
    far cheaper than the pattern's."""
    return "HTTP/" in text or '"status"' in text


def _status_class(line: str) -> str | None:
    """The first digit of an access record's HTTP status, if the line is one."""
    if not _may_hold_status(line):
        return None
    found = _HTTP_STATUS.search(line)
    return found[1] if found else None


def _edge(indexes, share: int, cost, kept: set[int], lines: Lines) -> int:
    """Lines from one end while they cost at most `share` (the end line itself always, past
    the blank lines an output may end with: cProfile's report ends with two); returns what
    they cost."""
    used, shown = 0, False
    for index in indexes:
        price = cost(index)
        if used + price > share and shown:
            break
        kept.add(index)
        used += price
        shown = shown or bool(lines.get(index).strip())
    return used


def _plan(lines: Lines, kept: list[int], notes: dict[int, str]) -> Plan:
    """Head and tail stay verbatim; an exemplar between them says what it stands for."""
    items: list = []
    cursor = 0
    for index in kept:
        if index > cursor:
            items.append(gap(lines, cursor, index - 1))
        items.append(Keep(lines.start(index), lines.end(index), notes.get(index, "")))
        cursor = index + 1
    if cursor < len(lines):
        items.append(gap(lines, cursor, len(lines) - 1))
    return Plan("other", tuple(items), len(lines), len(lines) - len(kept),
                regap=partial(gap, lines))
