"""Outlines of documents: the head, then every heading of the omitted lines with its line
number (the shallowest levels first when not all fit, spread over the document), then the tail.
Shared by the document planners (markdown, html, yaml_doc, toml_doc), code.py (definitions),
tree.py and commits.py.

What the outline leaves of the budget lengthens the head and the tail; a listed line they
reach leaves the outline (printed once), and the lines still listed stay omitted when spend.py
grows the gap's edges.

Works on plain text and on numbered listings (`cat -n`, an agent's Read: `   12→text`), whose
numbers are the document's own.

Long lines (a reference page's markup, minified code, unwrapped paragraphs): many lines'
beginnings say more than a few lines whole. When not every entry fits whole, each is shown by its
first ENTRY_CHARS characters (from where its heading starts, when that is deep in its line) with
the exact count of characters left out; a long line the head or the tail grows to is shown by
its beginning with a marker of its own (costs.beginning_pays), so one long line never stops an
end while budget is left for more.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import partial

from ..numbered import BLAME, COLON, prefix_of
from ..patterns import lazy
from ..plan import Gap, Keep, Lines, Note, Plan, gap
from ..render import CLOSING_MARKER_TOKENS, inline_marker
from ..tokens import Counter
from ..values import replace, value
from .costs import JUDGED_CHARS, LINE_START_CHARS, MAX_LINE_CHARS, beginning_pays

# A Read's `12→`, `cat -n`'s `12<TAB>`, `12: ` and `12|`; SWE-agent's window `1314:code` (one
# space of an indented line goes with the colon) when numbered.COLON numbers the rows.
NUMBERED = lazy(r"^(?:\s*+(\d++)(?:\t|→|: |:(?! )|\|)|" + BLAME + ")")
HEAD_SHARE, TAIL_SHARE = 0.15, 0.1
NOTABLE_SHARE = 0.3  # of what the headings leave, for notable prose; the rest grows head and tail
MIN_HEADINGS = 3
# A link to a section of the same document; a table of contents is _CONTENTS_LINKS of them close
# together, looked for in the first _JUDGED_CONTENTS rows.
_ANCHOR_LINK = lazy(r"\]\(#[^)\s]+\)|href=[\"']#")
_CONTENTS_LINKS = 3
_JUDGED_CONTENTS = 200
JUDGED_ROWS = 2000  # whether a text is numbered is judged on its first rows
ENTRY_CHARS = LINE_START_CHARS  # an entry's beginning, when not every entry fits whole
# Prose a reader looks for in a document, after its headings: an error, a breaking change,
# a deprecation, a security fix. The URGENT ones (all but an error) have room of their own
# (URGENT_SHARE, before the headings): a changelog's reader looks for its breaking changes
# before its fortieth version number.
_URGENT_WORDS = (r"breaking|(?:backwards?[- ])?incompatib\w*|deprecat\w*|security|vulnerab\w*"
                 r"|CVE-\d{4}-\d+|GHSA-[\w-]+")
NOTABLE = lazy(rf"\b(?:errors?|exceptions?|{_URGENT_WORDS})\b", re.I)
URGENT = lazy(rf"\b(?:{_URGENT_WORDS})\b", re.I)
# A warning set apart for the reader: an RST admonition (`.. warning::`), a Markdown alert
# (`> [!WARNING]`), a paragraph opened by the word in bold or alone (`**Important:**`,
# `Warning:`).
WARNING = lazy(r"[ \t>]*+(?:\.\. (?:warning|caution|danger|important|attention)::|\[!(?:WARNING|"
               r"CAUTION|IMPORTANT)\]|(?:\*\*|__)?(?:Warning|WARNING|Caution|CAUTION|Danger|"
               r"DANGER|Important|IMPORTANT)(?::(?:\*\*|__)?|(?:\*\*|__):?)(?:\s|$))")
URGENT_SHARE = 0.15  # of the room, at most, for urgent prose before any heading
# Urgent prose on more than this share of a text's lines is its topic (a list of
# deprecations), not news: it is offered as other prose is.
URGENT_RARE = 0.05
_FRAME = 3  # a parent's first, last and middle headings, before the urgent ones
_ITEM = lazy(r"(?:[-*+•]|\d+[.)])\s")
# A release's heading names its version (a reference's entry that holds a deprecation is no
# news: only a release's is).
_VERSION = lazy(r"\d\.\d")
# A release that breaks what came before: a major version (`2.0.0`, `v3.0`, `Version 10.0.0`).
_MAJOR = lazy(r"(?<![\w.])v?[1-9]\d*\.0(?:\.0)?(?![\w.-]*\d)", re.I)
# A release that opens a series (`2.10.0`): its notes carry the series' new features, changed
# defaults and deprecations; its patch releases (`2.10.1`) only fixes.
_SERIES = lazy(r"(?<![\w.])v?\d+\.[1-9]\d*\.0(?![\w.-]*\d)", re.I)
_PATCH = lazy(r"(?<![\w.])v?\d+\.\d+\.[1-9]\d*(?![\w.-]*\d)", re.I)
# A list item that opens with its urgent word (`* SECURITY: …`, `- **Breaking:** …`, `- Deprecate
# X`): news of that kind, where a mention inside a sentence or a line going on may be none.
_LABEL = lazy(r"[ \t>]*+(?:[-*+•]|\d+[.)])[ \t]+[*_\[(`]*")


@value
class Notable:
    """Prose worth listing after the headings, in the order it is offered: `urgent` first (in
    room of its own), then `other` in what the headings leave."""
    urgent: tuple[int, ...] = ()
    other: tuple[int, ...] = ()


def notable_rows(rows: list[str], among, named: set[int],
                 headings: list[tuple[int, int]] = ()) -> Notable:
    """Of the rows at the indexes `among`, those not `named` (headings, entries) worth listing:
    the `notable=` of plan(). Urgent: the prose under a heading that is itself URGENT (a
    changelog's `### ⚠ BREAKING CHANGES`, a `## Security` section: its items rarely repeat
    the word), then the rows whose beginning is URGENT, unless they are the text's topic
    (URGENT_RARE); other: the rows naming an error. Each spread over the text."""
    section_of: dict[int, int] = {}
    ends = [line for line, _ in headings[1:]] + [len(rows)]
    for (line, _), end in zip(headings, ends):
        if URGENT.search(rows[line][:JUDGED_CHARS]):
            section_of.update(dict.fromkeys(range(line + 1, end), line))
    prose = [i for i in among if i not in named and any(c.isalnum() for c in rows[i][:80])]
    sections: dict[int, list[int]] = {}
    urgent, other = [], []
    for i in prose:
        if i in section_of:
            sections.setdefault(section_of[i], []).append(i)
        elif URGENT.search(rows[i][:JUDGED_CHARS]) or WARNING.match(rows[i]):
            urgent.append(i)
        elif NOTABLE.search(rows[i][:JUDGED_CHARS]):
            other.append(i)
    labelled = {i for i in urgent if _labelled(rows[i])}
    urgent = (_items_first(rows, list(sections.values())) + spread(sorted(labelled))
              + spread([i for i in urgent if i not in labelled]))
    if len(urgent) > URGENT_RARE * len(prose):
        return Notable((), tuple(urgent + spread(other)))
    return Notable(tuple(urgent), tuple(spread(other)))


def _labelled(row: str) -> bool:
    """Whether the row is a list item opening with its urgent word (_LABEL)."""
    label = _LABEL.match(row)
    return label is not None and URGENT.match(row, label.end(), JUDGED_CHARS) is not None


def _items_first(rows: list[str], sections: list[list[int]]) -> list[int]:
    """The rows of urgent sections (each in document order), offered a round at a time: the
    first item of every section, then the second, …; the lines that start an item (a list
    mark, a paragraph's first line) before the lines that go on with one."""
    def starts(i: int) -> bool:
        row = rows[i].lstrip()
        return bool(_ITEM.match(row)) or not rows[i - 1].strip() if i else True

    opening = [[i for i in section if starts(i)] for section in sections]
    going_on = [[i for i in section if not starts(i)] for section in sections]
    return _rounds(opening) + _rounds(going_on)


def _rounds(groups: list[list[int]]) -> list[int]:
    """The first of every group, then the second of every group, and so on."""
    return [group[r] for r in range(max(map(len, groups), default=0))
            for group in groups if r < len(group)]


def numbered(rows: list[str]) -> bool:
    """Most rows carry a line number (a Read, `cat -n`); a bare colon after it only where the
    numbers run on one a row (numbered.COLON: not a clock, not `grep -n`)."""
    non_empty = [row for row in rows if row.strip()]
    if not non_empty:
        return False
    if sum(1 for r in non_empty if (m := NUMBERED.match(r)) and not _bare_colon(r, m)) \
            >= 0.9 * len(non_empty):
        return True
    return prefix_of(rows) is COLON


def _bare_colon(row: str, number: re.Match) -> bool:
    return row[number.end() - 1:number.end()] == ":"


def body(row: str, is_numbered: bool) -> str:
    """A row without its line number."""
    if is_numbered:
        m = NUMBERED.match(row)
        if m:
            return row[m.end():]
    return row


def bodies(rows: list[str]) -> list[str]:
    is_numbered = numbered(rows[:JUDGED_ROWS])
    return [body(row, is_numbered) for row in rows]


def row_of(index: int, rows: list[str], is_numbered: bool, column: int = 0,
           limit: int = MAX_LINE_CHARS) -> str:
    """An outline row: the line as it is when numbered, else with its number in front; its
    first `limit` characters when too long to print whole, the rest counted. `column`: where in
    rows[index] its entry starts (a heading deep in a long line); past half the limit, the row
    shows its number and the count of the characters skipped, then the line from there."""
    row = rows[index] if is_numbered else f"{index + 1:>6}\t{rows[index]}"
    number = NUMBERED.match(row)
    start = number.end() if number else 0  # the limit is the entry's, not its number's
    if column > limit // 2:
        column += len(row) - len(rows[index])
        row = f"{row[:start]}…[+{column - start:,} chars] {row[column:]}"
        start = row.index("] ", start) + 2
    if len(row) - start <= limit + (limit < MAX_LINE_CHARS) * limit // 3:
        return row  # whole (a beginning must leave out more than its marker costs)
    return f"{row[:start + limit]} …[+{len(row) - start - limit:,} chars]"


def plan(kind: str, noun: str, text: str, lines: Lines, budget: int, counter: Counter,
         headings: list[tuple[int, int]], head_share: float = HEAD_SHARE,
         deeper_after_a_miss: bool = False, notable: Notable = Notable(),
         columns: dict[int, int] | None = None, tail_share: float = TAIL_SHARE,
         is_numbered: bool | None = None, document: bool = False) -> Plan | None:
    """headings: (0-based line, level) of every heading; the lowest level is the shallowest.
    `deeper_after_a_miss`: what a level leaves goes on to the next ones (a public function
    may stand in for a class left out; a subsection never stands in for a missing chapter).
    `notable`: lines of prose worth listing beside the headings (notable_rows): the urgent
    ones (a changelog's breaking changes, deprecations and security fixes) in up to
    URGENT_SHARE of the room, the others in what the headings leave.
    `columns`: where in its line a heading starts, when not at the start (HTML's tags).
    `head_share`, `tail_share`: of the budget, for the first and the last lines.
    `is_numbered`: whether the rows carry their line numbers (None: judged on the rows; a
    table whose first column is `N:`, readelf's, carries no line numbers).
    `document`: a document's headings (document_order): within a level, the sections a reader
    looks for first, then every section's first subsections before any one's later ones."""
    rows = list(lines)
    total = len(rows)
    head = range(_contents(rows) if document else total)
    head_end, begun = _within(text, lines, rows, head, int(budget * head_share), counter)
    taken, tail_begun = _within(text, lines, rows, range(total - 1, -1, -1),
                                int(budget * tail_share), counter)
    tail_start, begun = total - taken, begun + tail_begun
    inside = [(i, level) for i, level in headings if head_end <= i < tail_start]
    if head_end >= tail_start or not inside:
        return None
    if is_numbered is None:
        is_numbered = numbered(rows[:JUDGED_ROWS])
    by_beginning = set(begun)
    whole = [row for i, row in [*enumerate(rows[:head_end]), *enumerate(rows[tail_start:],
                                                                        tail_start)]
             if i not in by_beginning]
    room = (budget - CLOSING_MARKER_TOKENS - counter.count(_header(len(inside), len(inside), noun))
            - _cost(whole, counter) - sum(_beginning_cost(text, lines, i, counter) for i in begun))
    columns = columns or {}
    limit = MAX_LINE_CHARS
    show = lambda i: row_of(i, rows, is_numbered, columns.get(i, 0), limit)  # noqa: E731
    costs = {i: counter.count(show(i) + "\n") for i, _ in inside}
    if sum(costs.values()) > room:  # not all fit whole: more entries by their beginnings
        limit = ENTRY_CHARS
        costs = {i: counter.count(show(i) + "\n") for i, _ in inside}
    # A line of prose is named by its beginning (the rest is a retrieval away): many of them
    # before a few whole.
    prose = lambda i: row_of(i, rows, is_numbered, 0, ENTRY_CHARS)  # noqa: E731
    said: set[str] = set()  # the notable prose listed: a line repeated (a backport's entry) once
    urgent = _notable([i for i in notable.urgent if head_end <= i < tail_start], prose,
                      int(room * URGENT_SHARE), counter, costs, said)
    room -= sum(costs[i] for i in urgent)
    order = document_order(rows, headings, notable) if document else None
    shown = _fit(inside, costs, room, deeper_after_a_miss, order)
    if not shown:
        return None
    left = room - sum(costs[i] for i in shown)
    taken = set(urgent)  # the urgent lines its own room left out come first in what is left
    extra = _notable([i for i in [*notable.urgent, *notable.other]
                      if head_end <= i < tail_start and i not in taken], prose,
                     int(left * NOTABLE_SHARE), counter, costs, said)
    left -= sum(costs[i] for i in extra)
    extra += urgent
    notes = set(extra)
    shown = sorted(shown + extra)
    head_end, tail_start, shown, begun = _grow(text, lines, rows, head_end, tail_start, shown,
                                               begun, costs, left, counter, len(head))
    inside = [(i, level) for i, level in inside if head_end <= i < tail_start]
    if head_end >= tail_start or not shown:
        return None
    listed = sum(1 for i in shown if i not in extra)
    header = Note(_header(listed, len(inside), noun, len(shown) - listed))
    items = [*_kept(text, lines, 0, head_end, begun),
             Gap(lines.start(head_end), lines.start(tail_start), head_end + 1, tail_start),
             header, *(Note(prose(i) if i in notes else show(i)) for i in shown),
             *_kept(text, lines, tail_start, total, begun)]
    # The listed lines stay omitted when spend.py shows more at the gap's edges: shown there
    # too, they would be paid for twice (_grow has spent what the outline left).
    return Plan(kind, tuple(i for i in items if not isinstance(i, Keep) or i.end > i.start),
                total, tail_start - head_end + len(begun), regap=partial(gap, lines),
                counted=frozenset(shown))


def _grow(text: str, lines: Lines, rows: list[str], head_end: int, tail_start: int,
          shown: list[int], begun: list[int], costs: dict[int, int], left: int,
          counter: Counter, head_limit: int) -> tuple[int, int, list[int], list[int]]:
    """What the outline left spent on the head and the tail, a line at a time in turn (the
    tail first); a listed line reached this way leaves the outline (its row's cost, `costs`,
    comes back), so it is printed once. A long line is taken by its beginning (returned, with
    the new ends and entries: the lines shown so) when that costs at most half of it. The head
    grows no further than `head_limit` (where a table of contents starts, _contents)."""
    listed, begun = set(shown), list(begun)
    open_ends = [True, True]  # head, tail: whether that end still grows
    turn = 1
    while any(open_ends) and head_end < tail_start:
        open_ends[0] = open_ends[0] and head_end < head_limit
        if open_ends[turn]:
            index = tail_start - 1 if turn else head_end
            by_beginning = beginning_pays(rows[index], counter)
            cost = (_beginning_cost(text, lines, index, counter) if by_beginning
                    else _row_cost(rows[index], counter))
            cost -= costs[index] if index in listed else 0
            if cost <= left:
                left -= cost
                listed.discard(index)
                if by_beginning:
                    begun.append(index)
                if turn:
                    tail_start -= 1
                else:
                    head_end += 1
            else:
                open_ends[turn] = False
        turn = 1 - turn
    return head_end, tail_start, [i for i in shown if i in listed], begun


def _hole(lines: Lines, index: int) -> Gap:
    """The rest of long line `index`, past its beginning."""
    return replace(gap(lines, index, index), start=lines.start(index) + LINE_START_CHARS)


def _beginning_cost(text: str, lines: Lines, index: int, counter: Counter) -> int:
    hole = _hole(lines, index)
    return counter.count(text[lines.start(index):hole.start] + "\n"
                         + inline_marker(hole, text) + "\n")


def _kept(text: str, lines: Lines, first: int, end: int, begun: list[int]) -> list:
    """Lines first..end-1 kept, but for the rest of each long line shown by its beginning."""
    parts, start = [], lines.start(first)
    for index in sorted(i for i in begun if first <= i < end):
        hole = _hole(lines, index)
        parts += [Keep(start, hole.start), hole]
        start = hole.end
    return parts + [Keep(start, lines.start(end) if end < len(lines) else len(text))]


def _header(shown: int, total: int, noun: str, notable: int = 0) -> str:
    more = (f" and {notable:,} line{'s' * (notable != 1)} naming an error, a breaking change, "
            "a deprecation or a security fix") if notable else ""
    return (f"[outline of the omitted lines: {shown:,} of {total:,} {noun}{more}, with their "
            "line numbers]")


def _notable(candidates: list[int], show, room: int, counter: Counter,
             costs: dict[int, int], said: set[str]) -> list[int]:
    """The notable lines that fit in `room`, in the order offered (`show`: a line's outline
    row), but for a line whose words are `said` already (a changelog repeats an entry under
    each release it went into); their costs go in `costs`, their words in `said`."""
    chosen, used = [], 0
    for i in candidates:
        row = show(i)
        number = NUMBERED.match(row)
        words = row[number.end() if number else 0:].strip()
        if words in said:
            continue
        cost = costs[i] = counter.count(row + "\n")
        if used + cost <= room:
            chosen.append(i)
            said.add(words)
            used += cost
    return chosen


def _within(text: str, lines: Lines, rows: list[str], order, budget: int,
            counter: Counter) -> tuple[int, list[int]]:
    """How many lines, in `order`, fit in `budget`, and which of them are long lines shown by
    their beginning."""
    used = taken = 0
    begun = []
    for index in order:
        by_beginning = beginning_pays(rows[index], counter)
        used += (_beginning_cost(text, lines, index, counter) if by_beginning
                 else _row_cost(rows[index], counter))
        if used > budget:
            break
        taken += 1
        if by_beginning:
            begun.append(index)
    return taken, begun


def _contents(rows: list[str]) -> int:
    """Where a document's table of contents starts (its links to its own sections:
    `- [Usage](#usage)`, `<a href="#15.0.0">`), when one opens within its first
    _JUDGED_CONTENTS rows: the head stops there, for the outline names those sections itself;
    else the row count."""
    linked = [i for i, row in enumerate(rows[:_JUDGED_CONTENTS])
              if _ANCHOR_LINK.search(row, 0, JUDGED_CHARS)]
    for first, third in zip(linked, linked[_CONTENTS_LINKS - 1:]):
        if third - first < 2 * _CONTENTS_LINKS:
            return first
    return len(rows)


def _row_cost(row: str, counter: Counter) -> int:
    """A kept row's tokens (a row past MAX_LINE_CHARS * 8 is judged on its start: it cannot
    fit anyway, and counting it whole would cost more than the plan)."""
    return counter.count(row[:MAX_LINE_CHARS * 8] + "\n")


def _cost(rows: list[str], counter: Counter) -> int:
    return counter.count("\n".join(rows) + "\n") if rows else 0


def _fit(inside: list[tuple[int, int]], costs: dict[int, int], room: int,
         deeper_after_a_miss: bool, order: dict[int, int] | None = None) -> list[int]:
    """Every heading if all fit (`costs`: each one's outline row); else level by level, each
    level spread over the document (or in `order`: a heading's rank within its level), down to
    the first level that does not fit whole (or on, `deeper_after_a_miss`)."""
    if sum(costs.values()) <= room:
        return [i for i, _ in inside]
    chosen, used = set(), 0
    for level in sorted({level for _, level in inside}):
        missed = False
        of_level = [i for i, lv in inside if lv == level]
        ranked = spread(of_level) if order is None else sorted(of_level, key=order.__getitem__)
        for i in ranked:
            if used + costs[i] <= room:
                chosen.add(i)
                used += costs[i]
            else:
                missed = True
        if missed and not deeper_after_a_miss:
            break
    return sorted(chosen)


def document_order(rows: list[str], headings: list[tuple[int, int]],
                   notable: Notable) -> dict[int, int]:
    """A document's headings ranked within their level as a reader looks for them: a round at
    a time over the parents (the first subsection of every chapter, then the second, …; a
    small chapter's entries are not crowded out by a large one's), each parent's own spread
    over it, its last one second (a changelog's oldest release, a reference's last chapter).
    After each parent's first, last and middle ones (the frame), the releases (headings that
    name a version) whose sections hold urgent prose (breaking changes, a security fix) and the
    major releases (`2.0.0`) come first, unless most of the level is so; then the releases that
    open a series (`2.10.0`) where the level has patch releases too."""
    urgent = sorted({*notable.urgent, *(i for i, _ in headings
                                        if URGENT.search(rows[i][:JUDGED_CHARS]))})
    parents: dict[int, list[int]] = {}
    leading: set[int] = set()
    stack: list[tuple[int, int]] = []  # (line, level) of the open sections
    ends: dict[int, int] = {}
    for line, level in headings:
        while stack and stack[-1][1] >= level:
            ends[stack.pop()[0]] = line
        parents.setdefault(stack[-1][0] if stack else -1, []).append(line)
        stack.append((line, level))
    levels = dict(headings)
    for line, level in headings:
        end = ends.get(line, len(rows))
        title = rows[line][:JUDGED_CHARS]
        at = bisect_left(urgent, line + 1)
        if _VERSION.search(title) and (at < len(urgent) and urgent[at] < end
                                       or _MAJOR.search(title)):
            leading.add(line)
    series = {line for line, _ in headings if _SERIES.search(rows[line][:JUDGED_CHARS])}
    for level in set(levels.values()):
        of_level = [i for i, lv in headings if lv == level]
        if sum(i in leading for i in of_level) * 2 > len(of_level):
            leading.difference_update(of_level)
        if not any(_PATCH.search(rows[i][:JUDGED_CHARS]) for i in of_level):
            series.difference_update(of_level)  # no patch releases: every release opens one
    series -= leading
    groups = [_ends_first(children) for children in parents.values()]
    frame = _rounds([group[:_FRAME] for group in groups])
    rest = _rounds([group[_FRAME:] for group in groups])
    order = (frame + [i for i in rest if i in leading] + [i for i in rest if i in series]
             + [i for i in rest if i not in leading and i not in series])
    return {line: position for position, line in enumerate(order)}


def _ends_first(indexes: list[int]) -> list[int]:
    """spread(), with the last index second."""
    order = spread(indexes)
    if len(order) > 2:
        order.remove(indexes[-1])
        order.insert(1, indexes[-1])
    return order


def spread(indexes: list[int]) -> list[int]:
    """Indexes reordered so that any prefix of the result is spread evenly over the file."""
    order, seen, step = [], set(), len(indexes)
    while step >= 1:
        for position in range(0, len(indexes), step):
            if position not in seen:
                seen.add(position)
                order.append(indexes[position])
        step //= 2
    return order
