"""Outlines of documents: the head, then every heading of the omitted lines with its line
number (the shallowest levels first when not all fit, spread over the document), then the tail.
Shared by the document planners (markdown, html, yaml_doc, toml_doc), code.py (definitions),
tree.py and commits.py.

What the outline leaves of the budget lengthens the head and the tail; a listed line they
reach leaves the outline (printed once), and the lines still listed stay omitted when spend.py
grows the gap's edges.

Works on plain text and on numbered listings (`cat -n`, an agent's Read: `   12→text`), whose
numbers are the document's own.
"""

from __future__ import annotations

from functools import partial

from ..patterns import lazy
from ..plan import Gap, Keep, Lines, Note, Plan, gap
from ..render import CLOSING_MARKER_TOKENS
from ..tokens import Counter
from .costs import MAX_LINE_CHARS, cut_note

NUMBERED = lazy(r"^\s*+(\d++)(?:\t|→|: |\|)")
HEAD_SHARE, TAIL_SHARE = 0.15, 0.1
NOTABLE_SHARE = 0.3  # of what the headings leave, for notable prose; the rest grows head and tail
MIN_HEADINGS = 3


def numbered(rows: list[str]) -> bool:
    """Most rows carry a line number (a Read, `cat -n`)."""
    non_empty = [row for row in rows if row.strip()]
    return bool(non_empty) and sum(1 for r in non_empty if NUMBERED.match(r)) >= 0.9 * len(non_empty)


def body(row: str, is_numbered: bool) -> str:
    """A row without its line number."""
    if is_numbered:
        m = NUMBERED.match(row)
        if m:
            return row[m.end():]
    return row


def bodies(rows: list[str]) -> list[str]:
    is_numbered = numbered(rows[:2000])
    return [body(row, is_numbered) for row in rows]


def row_of(index: int, rows: list[str], is_numbered: bool) -> str:
    """An outline row: the line as it is when numbered, else with its number in front; cut
    when too long to print whole."""
    row = rows[index] if is_numbered else f"{index + 1:>6}\t{rows[index]}"
    return row if len(row) <= MAX_LINE_CHARS else row[:MAX_LINE_CHARS] + cut_note(row)


def plan(kind: str, noun: str, text: str, lines: Lines, budget: int, counter: Counter,
         headings: list[tuple[int, int]], head_share: float = HEAD_SHARE,
         deeper_after_a_miss: bool = False, notable: list[int] = ()) -> Plan | None:
    """headings: (0-based line, level) of every heading; the lowest level is the shallowest.
    `deeper_after_a_miss`: what a level leaves goes on to the next ones (a public function
    may stand in for a class left out; a subsection never stands in for a missing chapter).
    `notable`: lines of prose worth listing after the headings when there is room (a
    changelog's breaking changes, deprecations and security fixes), spread over the text."""
    rows = list(lines)
    total = len(rows)
    head_end = _within(rows, range(total), int(budget * head_share), counter)
    tail_start = total - _within(rows, range(total - 1, -1, -1), int(budget * TAIL_SHARE), counter)
    inside = [(i, level) for i, level in headings if head_end <= i < tail_start]
    if head_end >= tail_start or not inside:
        return None
    is_numbered = numbered(rows[:2000])
    room = (budget - CLOSING_MARKER_TOKENS - counter.count(_header(len(inside), len(inside), noun))
            - _cost(rows[:head_end], counter) - _cost(rows[tail_start:], counter))
    costs = {i: counter.count(row_of(i, rows, is_numbered) + "\n") for i, _ in inside}
    shown = _fit(inside, costs, room, deeper_after_a_miss)
    if not shown:
        return None
    left = room - sum(costs[i] for i in shown)
    extra = _notable(rows, [i for i in notable if head_end <= i < tail_start], is_numbered,
                     int(left * NOTABLE_SHARE), counter, costs)
    left -= sum(costs[i] for i in extra)
    shown = sorted(shown + extra)
    head_end, tail_start, shown = _grow(rows, head_end, tail_start, shown, costs, left, counter)
    inside = [(i, level) for i, level in inside if head_end <= i < tail_start]
    if head_end >= tail_start or not shown:
        return None
    listed = sum(1 for i in shown if i not in extra)
    header = Note(_header(listed, len(inside), noun, len(shown) - listed))
    items = [Keep(0, lines.start(head_end)),
             Gap(lines.start(head_end), lines.start(tail_start), head_end + 1, tail_start),
             header, *(Note(row_of(i, rows, is_numbered)) for i in shown),
             Keep(lines.start(tail_start), len(text))]
    # The listed lines stay omitted when spend.py shows more at the gap's edges: shown there
    # too, they would be paid for twice (_grow has spent what the outline left).
    return Plan(kind, tuple(i for i in items if not isinstance(i, Keep) or i.end > i.start),
                total, tail_start - head_end, regap=partial(gap, lines), counted=frozenset(shown))


def _grow(rows: list[str], head_end: int, tail_start: int, shown: list[int],
          costs: dict[int, int], left: int, counter: Counter) -> tuple[int, int, list[int]]:
    """What the outline left spent on the head and the tail, a line at a time in turn (the
    tail first); a listed line reached this way leaves the outline (its row's cost, `costs`,
    comes back), so it is printed once."""
    listed = set(shown)
    open_ends = [True, True]  # head, tail: whether that end still grows
    turn = 1
    while any(open_ends) and head_end < tail_start:
        if open_ends[turn]:
            index = tail_start - 1 if turn else head_end
            cost = _row_cost(rows[index], counter) - (costs[index] if index in listed else 0)
            if cost <= left:
                left -= cost
                listed.discard(index)
                if turn:
                    tail_start -= 1
                else:
                    head_end += 1
            else:
                open_ends[turn] = False
        turn = 1 - turn
    return head_end, tail_start, [i for i in shown if i in listed]


def _header(shown: int, total: int, noun: str, notable: int = 0) -> str:
    more = (f" and {notable:,} line{'s' * (notable != 1)} naming an error, a breaking change, "
            "a deprecation or a security fix") if notable else ""
    return (f"[outline of the omitted lines: {shown:,} of {total:,} {noun}{more}, with their "
            "line numbers]")


def _notable(rows: list[str], candidates: list[int], is_numbered: bool, room: int,
             counter: Counter, costs: dict[int, int]) -> list[int]:
    """The notable lines that fit in `room`, spread over the text; their costs go in `costs`."""
    chosen, used = [], 0
    for i in spread(candidates):
        cost = costs[i] = counter.count(row_of(i, rows, is_numbered) + "\n")
        if used + cost <= room:
            chosen.append(i)
            used += cost
    return chosen


def _within(rows: list[str], order, budget: int, counter: Counter) -> int:
    used = taken = 0
    for index in order:
        used += _row_cost(rows[index], counter)
        if used > budget:
            break
        taken += 1
    return taken


def _row_cost(row: str, counter: Counter) -> int:
    """A kept row's tokens (a row past MAX_LINE_CHARS * 8 is judged on its start: it cannot
    fit anyway, and counting it whole would cost more than the plan)."""
    return counter.count(row[:MAX_LINE_CHARS * 8] + "\n")


def _cost(rows: list[str], counter: Counter) -> int:
    return counter.count("\n".join(rows) + "\n") if rows else 0


def _fit(inside: list[tuple[int, int]], costs: dict[int, int], room: int,
         deeper_after_a_miss: bool) -> list[int]:
    """Every heading if all fit (`costs`: each one's outline row); else level by level, each
    level spread over the document, down to the first level that does not fit whole (or on,
    `deeper_after_a_miss`)."""
    if sum(costs.values()) <= room:
        return [i for i, _ in inside]
    chosen, used = set(), 0
    for level in sorted({level for _, level in inside}):
        missed = False
        for i in spread([i for i, lv in inside if lv == level]):
            if used + costs[i] <= room:
                chosen.add(i)
                used += costs[i]
            else:
                missed = True
        if missed and not deeper_after_a_miss:
            break
    return sorted(chosen)


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
