"""Spend what a plan left of the budget: the lines at the edges of its gaps, while they fit.

A planner spends an estimate; once its plan fits, what is left would otherwise go unused while
lines were dropped. The gaps of a plan that can re-word them (Plan.regap) shrink from their
edges, line by line: first the output's last line, then each gap's line after the part kept
above it and its line before the part kept below it, in turn; a line that repeats one shown
waits until no edge has one that does not (a repeat says nothing the first did not). A line
too long for what is left is cut inside (its start after a kept part, its end before one), and
its marker names the exact characters left out: nothing is dropped whole while budget is left
for part of it. A line past MAX_LINE_CHARS is cut so whenever it does not fit; a shorter one
(from LINE_START_CHARS) only when no edge can take its next line whole (_last_cut).

A long line inside a gap (minified code, an unwrapped paragraph, a reference page's markup) shows
its beginning, with a marker of its own for the rest, before the spending goes on to the next
line: many lines' beginnings say more than a few lines whole.
"""

from __future__ import annotations

from .plan import Gap, Keep, Lines, Note, Plan
from .planners.costs import LINE_START_CHARS, MAX_LINE_CHARS, beginning_pays, repeat_key
from .render import inline_marker
from .tokens import Counter
from .values import field, replace, value

# A line is cut inside only when it is too long to print whole anyway (costs.MAX_LINE_CHARS: a
# short one waits for room at another edge), and when at least this many tokens of it fit (a
# shorter stub says nothing).
MIN_CUT_TOKENS = 12
_CHARS_PER_TOKEN_MAX = 32
_SHOWN_LINES = 20_000  # lines of the plan's own read for the lines it shows


@value(frozen=False)
class _Edge:
    """A gap as it shrinks: text[start:end] still omitted (offsets into the text)."""

    index: int  # of the gap among the plan's items
    start: int
    end: int
    done_top: bool = False
    done_bottom: bool = False
    # the rest of each long line shown by its beginning: (start, end, 0-based line), omitted
    holes: list = field(default_factory=list)

    @property
    def closed(self) -> bool:
        return self.start >= self.end


def fill(plan: Plan, text: str, lines: Lines, room: int, counter: Counter) -> Plan:
    """The plan with up to `room` more tokens of the text shown at its gaps' edges (the plan
    itself when it cannot re-word its gaps, or nothing more fits)."""
    if plan.regap is None or room < 1 or plan.binary:
        return plan
    edges = [_Edge(i, item.start, item.end) for i, item in enumerate(plan.items)
             if isinstance(item, Gap) and not item.hidden_chars and item.end > item.start]
    if not edges:
        return plan
    left = room
    if edges[-1].end == len(text):  # the output's last line, whenever it fits
        left = _take(edges[-1], False, text, lines, left, counter, plan)
    for edge in edges:
        left = _close_if_one_line(edge, text, lines, left, counter, plan)
    shown = _shown_texts(plan, lines)
    for repeats in (False, True):  # lines shown already wait until every other edge is done
        turn = [(edge, top) for edge in edges for top in (True, False)]
        while turn and left > 0:
            still = []
            for edge, top in turn:
                if edge.closed or (edge.done_top if top else edge.done_bottom):
                    continue
                if not repeats:
                    line = _compared(lines, lines.line_of(edge.start if top else edge.end - 1))
                    if line and line in shown:
                        continue
                    shown.add(line)
                left = _take(edge, top, text, lines, left, counter, plan)
                left = _close_if_one_line(edge, text, lines, left, counter, plan)
                still.append((edge, top))
            turn = still
    left = _last_cut(edges, text, lines, left, counter, plan)
    if left > 0:
        left = _lengthen(edges, text, left, counter)
    if left == room:
        return plan
    return _rebuilt(plan, edges, text, lines)


def _last_cut(edges: list[_Edge], text: str, lines: Lines, left: int, counter: Counter,
              plan: Plan) -> int:
    """When no edge can take its next line whole, the first edge whose next line is at least
    LINE_START_CHARS long shows what fits of it (a table's row of 220 characters, 95 tokens,
    with 94 left): a run is not left a tenth under its budget for want of a few tokens."""
    for edge in edges:
        for top in (True, False):
            if left < MIN_CUT_TOKENS:
                return left
            if not edge.closed:
                left = _take(edge, top, text, lines, left, counter, plan,
                             cut_from=LINE_START_CHARS)
    return left


def _shown_texts(plan: Plan, lines: Lines) -> set[str]:
    """The lines the plan shows, as _compared reads them (of its first _SHOWN_LINES: a plan
    that fits a budget shows fewer)."""
    shown: set[str] = set()
    read = 0
    for item in plan.items:
        if isinstance(item, Keep) and item.end > item.start and read < _SHOWN_LINES:
            first, last = lines.line_of(item.start), lines.line_of(item.end - 1)
            last = min(last, first + _SHOWN_LINES - read - 1)
            shown.update(_compared(lines, index) for index in range(first, last + 1))
            read += last - first + 1
    return shown


def _compared(lines: Lines, index: int) -> str:
    """Line `index` as costs.repeat_key compares it (a long line is never copied whole)."""
    if lines.end(index) - lines.start(index) > MAX_LINE_CHARS + 1:
        return ""
    return repeat_key(lines.get(index))


def _take(edge: _Edge, top: bool, text: str, lines: Lines, left: int, counter: Counter,
          plan: Plan, cut_from: int = MAX_LINE_CHARS) -> int:
    """One more line (or what fits of it, when it is longer than `cut_from` characters) at an
    edge; returns what is left of the room."""
    index = lines.line_of(edge.start if top else edge.end - 1)
    if index in plan.counted:  # a note counts this line as omitted: it stays so
        return _done(edge, top, left)
    if top:
        stop = min(edge.end, lines.end(index))
        piece = text[edge.start:stop]
    else:
        begin = max(edge.start, lines.start(index))
        piece = text[begin:edge.end]
    body = piece[:-1] if piece.endswith("\n") else piece
    if piece == text[lines.start(index):lines.end(index)] and beginning_pays(body, counter):
        shown = _beginning(edge, top, text, lines, index, left, counter)
        if shown:
            return left - shown
    # The line that closes its gap takes its marker's place: the room is what the marker frees
    # too. A line many times longer than that room cannot fit: it is not counted whole.
    closes = stop >= edge.end if top else begin <= edge.start
    room = left + (_marker_cost(plan, edge, text, lines, counter) if closes else 0)
    cost = room + 1 if len(body) > _CHARS_PER_TOKEN_MAX * room else counter.count(body + "\n")
    if cost <= room:
        if top:
            edge.start = stop
        else:
            edge.end = begin
        return room - cost
    if len(body) > cut_from and left >= MIN_CUT_TOKENS:
        shown = left - 1 - _cut_detail_cost(plan, edge, top, len(piece) - 1, text, lines, counter)
        if shown >= MIN_CUT_TOKENS:
            if top:
                edge.start += counter.prefix_chars(body, shown)
            else:
                edge.end -= len(piece) - len(body) + counter.suffix_chars(body, shown)
            left = 0
    return _done(edge, top, left)


def _close_if_one_line(edge: _Edge, text: str, lines: Lines, left: int, counter: Counter,
                       plan: Plan) -> int:
    """A gap down to one line is closed at once, while it fits: its line costs only what it
    adds beyond the marker it replaces, the cheapest line the room can buy."""
    if left > 0 and not edge.closed and not edge.done_top \
            and lines.line_of(edge.start) == lines.line_of(edge.end - 1):
        left = _take(edge, True, text, lines, left, counter, plan)
    return left


def _marker_cost(plan: Plan, edge: _Edge, text: str, lines: Lines, counter: Counter) -> int:
    """What the edge's marker costs now: the line that closes the gap takes its place (a gap
    of one line whose marker costs about as much as the line is never left while room is)."""
    first, last = lines.line_of(edge.start), lines.line_of(edge.end - 1)
    gap = replace(plan.regap(first, last), start=edge.start, end=edge.end)
    return counter.count(inline_marker(gap, text) + "\n")


def _cut_detail_cost(plan: Plan, edge: _Edge, top: bool, most: int, text: str, lines: Lines,
                     counter: Counter) -> int:
    """What the edge's marker grows by when it cuts a line inside (`of line 57 only characters
    301–2,000`), priced at the largest cut (at most `most` characters in)."""
    now = _marker_cost(plan, edge, text, lines, counter)
    cut = _Edge(edge.index, edge.start + most, edge.end) if top else \
        _Edge(edge.index, edge.start, edge.end - most)
    return max(0, _marker_cost(plan, cut, text, lines, counter) - now)


def _beginning(edge: _Edge, top: bool, text: str, lines: Lines, index: int, left: int,
               counter: Counter) -> int:
    """A whole long line at an edge shown by its beginning, its rest omitted with a marker of its
    own; the edge moves past the line. Returns the tokens spent (0: it does not fit)."""
    line_start, line_end = lines.start(index), lines.end(index)
    cut = line_start + LINE_START_CHARS
    marker = inline_marker(Gap(cut, line_end, index + 1, index + 1), text)
    cost = counter.count(text[line_start:cut] + "\n" + marker + "\n")
    if cost > left:
        return 0
    edge.holes.append((cut, line_end, index))
    if top:
        edge.start = line_end
    else:
        edge.end = line_start
    return cost


def _lengthen(edges: list[_Edge], text: str, left: int, counter: Counter) -> int:
    """Room left when every edge is done goes on the long lines shown by their beginning, in
    the order they were taken: each one's rest whole while it fits (its marker goes), then as
    much of the next one as fits."""
    for edge in edges:
        for k, (cut, line_end, index) in enumerate(edge.holes):
            if left <= 0:
                return left
            rest = text[cut:line_end].removesuffix("\n")
            cost = (left + 1 if len(rest) > _CHARS_PER_TOKEN_MAX * left
                    else counter.count(rest))
            if cost <= left:
                edge.holes[k] = (line_end, line_end, index)  # shown whole: no hole
                left -= cost
            else:
                edge.holes[k] = (cut + counter.prefix_chars(rest, left), line_end, index)
                return 0
    return left


def _done(edge: _Edge, top: bool, left: int) -> int:
    if top:
        edge.done_top = True
    else:
        edge.done_bottom = True
    return left


def _rebuilt(plan: Plan, edges: list[_Edge], text: str, lines: Lines) -> Plan:
    by_item = {edge.index: edge for edge in edges}
    items: list = []
    below: list = []  # what is shown again below a gap follows the notes that sit under it
    omitted = plan.omitted_lines
    for i, item in enumerate(plan.items):
        if not isinstance(item, Note):
            items.extend(below)
            below = []
        edge = by_item.get(i)
        if edge is None:
            items.append(item)
            continue
        omitted -= item.last_line - item.first_line + 1
        omitted += sum(1 for cut, line_end, _ in edge.holes if cut < line_end)
        if edge.closed:  # shown whole, from both edges
            items.extend(_shown(plan, item.start, item.end, edge.holes))
            continue
        items.extend(_shown(plan, item.start, edge.start, edge.holes))
        first, last = lines.line_of(edge.start), lines.line_of(edge.end - 1)
        items.append(replace(plan.regap(first, last), start=edge.start, end=edge.end))
        omitted += last - first + 1
        below.extend(_shown(plan, edge.end, item.end, edge.holes))
    return replace(plan, items=tuple(items + below), omitted_lines=omitted)


def _shown(plan: Plan, start: int, end: int, holes: list) -> list:
    """text[start:end] kept, but for the rest of each long line shown by its beginning."""
    parts: list = []
    for cut, line_end, index in sorted(h for h in holes if start <= h[0] < min(end, h[1])):
        if cut > start:
            parts.append(Keep(start, cut))
        parts.append(replace(plan.regap(index, index), start=cut, end=line_end))
        start = line_end
    if end > start:
        parts.append(Keep(start, end))
    return parts
