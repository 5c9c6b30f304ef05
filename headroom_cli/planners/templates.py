"""templates: the rung for formats no planner knows, before plain head and tail.

Lines are grouped by template, Drain-style: what varies between lines of one kind — numbers,
hex ids, UUIDs, timestamps, paths, identifiers, quoted strings, runs of alignment spaces — is
masked, and lines whose masked form is the same are one template. The plan keeps the first
and the last lines, then one exemplar per template (its first line, with its count and line
range), the templates ranked by severity words (error, fail, fatal, panic, denied… before
warning…), then by rarity (the fewest lines first: a line unlike the others is what a reader
looks for), then lines at the margin (headings, records) before indented ones, spread over
the output; every omitted run is a gap with its exact line counts. An output whose lines are
nearly all of different templates (prose) has nothing to group: it is left to head and tail
(None).

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

from functools import partial

from ..patterns import lazy
from ..plan import Keep, Lines, Plan, gap
from ..render import CLOSING_MARKER_TOKENS, template_note
from ..tokens import Counter
from ..tools import Tool

# One pass: quoted strings, runs of alignment spaces, and every token holding a digit, a path
# separator or an underscore (numbers, versions, hex ids, UUIDs, timestamps, paths,
# identifiers like `BIO_ctrl@OPENSSL_3`). A token is tried only where one starts (the
# lookbehind), so masking stays linear.
_MASK = lazy(r"\"[^\"\n]*\"|'[^'\n]*'|[ \t]{2,}"
                   r"|(?<![\w.~@+/\\:-])(?=[\w.~@+:-]*[\d/\\_])[\w.~@+/\\:-]+")
_HOLE = "\x00"
_KEY_CHARS = 200  # of a masked line, what names its template (a long line's start)
# Masked lines (not blank) more distinct than this have no pattern worth summarising (prose).
_DISTINCT_SHARE = 0.45
_SAMPLE_LINES = 2_000
_MIN_LINES = 8
_SEVERE = lazy(r"(?i)\b(?:error|errors|fail|failed|failure|fatal|panic|panicked|denied"
                     r"|exception|traceback|critical|abort(?:ed)?|segfault|refused|crash(?:ed)?)\b")
_WARNING = lazy(r"(?i)\b(?:warn|warning|warnings|deprecated|timeout|timed out|retry"
                      r"|retrying|not found|unable|cannot)\b")
_HEAD_SHARE = 0.2  # of the room, for the first lines
_TAIL_SHARE = 0.1  # and the last
_MISSES = 64  # exemplars in a row that do not fit before looking stops
# What an inline gap marker costs, about (`[… lines 1,204–9,311 omitted (8,108 lines) …]`);
# fit.py counts the rendered clip exactly.
_GAP_TOKENS = 20
_LONG_LINE = 2_000  # characters: an exemplar longer than this is not priced (it would not fit)
_SPREAD_BITS = 16


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    total = len(lines)
    if total < _MIN_LINES:
        return None
    if total > 2 * _SAMPLE_LINES and not _templated(text[:lines.start(_SAMPLE_LINES)]):
        return None  # judged on its start: prose is not masked whole to learn it is prose
    templates, filled = _templates(_MASK.sub(_HOLE, text), total)
    if len(templates) > _DISTINCT_SHARE * filled:
        return None
    by_first = {first: (count, last) for count, first, last in templates.values()}
    room = budget - CLOSING_MARKER_TOKENS

    def cost(index: int) -> int:
        return counter.count(lines.get(index)) + 1

    def note(index: int) -> str:
        count, last = by_first[index]
        return template_note(count, index + 1, last + 1) if count > 1 else ""

    kept: set[int] = set()
    room -= _edge(range(total), int(_HEAD_SHARE * room), cost, kept)
    room -= _edge(range(total - 1, -1, -1), int(_TAIL_SHARE * room), cost, kept) + _GAP_TOKENS
    notes: dict[int, str] = {}  # the exemplars between head and tail, with their counts
    order = sorted(templates.values(), key=lambda t: _rank(lines.get(t[1]), t[0], t[1], total))
    misses = 0
    for _, first, _ in order:
        if first in kept:
            continue
        if len(lines.get(first)) > _LONG_LINE:
            continue
        noted = note(first)
        price = cost(first) + counter.count(noted) + _GAP_TOKENS  # it splits a gap in two
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


def _templated(text: str) -> bool:
    templates, filled = _templates(_MASK.sub(_HOLE, text), text.count("\n") + 1)
    return len(templates) <= _DISTINCT_SHARE * filled


def _templates(masked: str, total: int) -> tuple[dict[str, list[int]], int]:
    """masked key -> [count, first line, last line] (0-based) over the first `total` lines,
    and how many of them are not blank."""
    templates: dict[str, list[int]] = {}
    blank = 0
    for index, line in enumerate(masked.split("\n", total)[:total]):
        key = line[:_KEY_CHARS]
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
    return -_severity(line), count, line[:1] in " \t", _spread(first, total)


def _spread(index: int, total: int) -> int:
    """Among equals, an order that spreads over the output: the middle first, then the
    quarters, the eighths… (the bits of the line's position in the output, reversed), so
    exemplars that do not all fit are not all from its start."""
    position = index * (1 << _SPREAD_BITS) // max(1, total)
    return int(f"{position:0{_SPREAD_BITS}b}"[::-1], 2)


def _severity(line: str) -> int:
    return 2 if _SEVERE.search(line) else 1 if _WARNING.search(line) else 0


def _edge(indexes, share: int, cost, kept: set[int]) -> int:
    """Lines from one end while they cost at most `share` (the end line itself always);
    returns what they cost."""
    used = 0
    for index in indexes:
        price = cost(index)
        if used + price > share and used:
            break
        kept.add(index)
        used += price
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
