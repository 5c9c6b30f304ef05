"""The exact token check: plan, render, count the real output, tighten until it fits, then
spend what is left.

Planners spend an estimated budget; only the rendered text is counted exactly, so the cost of a
clip follows the size of its output, not of its input. The budget is a hard limit: when no plan
fits, the closing marker alone is printed, and when not even that fits, a terse one or nothing.
A plan that fits with budget to spare shows more lines at its gaps' edges (spend.py).
"""

from __future__ import annotations

from typing import Callable

from .plan import Gap, Lines, Plan, gap
from .planners import other
from .render import Context, render, terse_markers
from .planners.costs import LINE_START_CHARS, beginning_pays, CUT_MARKER_TOKENS
from .spend import cuts_inside, ends_of, fill, show_ends
from .tokens import Counter

Planner = Callable[[str, Lines, int, Counter, object], "Plan | None"]
_ATTEMPTS = 8
_SPEND_ATTEMPTS = 3
# Tokens held back while spending, per gap: its marker's numbers change as it shrinks.
_SPEND_SLACK = 2
# A plan that uses this share of the budget is left as planned: spending the rest would cost
# another render and count (~3 ms on a 20 KB log) for a line or two.
_SPENT_ENOUGH = 0.97
# The floor of the ends: whatever a planner chose, the clip shows the output's last lines (where
# a run's verdict, its summary and its last error sit) and its first ones (the command, the
# header), sized by the budget: a tail line for every _TOKENS_A_TAIL_LINE tokens of it, a head
# line for every _TOKENS_A_HEAD_LINE, each end within its share of the budget (the lines
# nearest the end first; a long line counted by its beginning). A plan that left some out is
# planned again on the budget less what they cost, then shown with them (spend.show_ends).
_TOKENS_A_TAIL_LINE = 100
_TOKENS_A_HEAD_LINE = 200
# At most this many lines at each end (past a budget of ~1,200 tokens the planners' own ends
# hold them), and at most one line in _LINES_A_FLOOR_LINE of the output: a short output's own
# lines (its exemplars, its rows) are not given up to its ends.
_MOST_TAIL_LINES, _MOST_HEAD_LINES = 12, 6
_LINES_A_FLOOR_LINE = 20
_TAIL_FLOOR_SHARE = 0.15
_HEAD_FLOOR_SHARE = 0.08


def _same(plan: Plan) -> Plan:
    return plan


def fit(text: str, lines: Lines, planner: Planner, budget: int, counter: Counter,
        context: Context, binary: bool = False,
        translate: Callable[[Plan], Plan] = _same) -> tuple[Plan, str]:
    """`translate` turns a plan of `text` into the plan that is rendered: for a streamed
    output, a plan of the whole output made on its excerpt (excerpt.py)."""
    fallback = lambda t, l, b, c, tool: other.head_and_tail(t, l, b, c, tool, binary)  # noqa: E731
    for attempt_planner in ((fallback,) if binary else (planner, fallback)):
        if not binary and translate is _same:
            attempt_planner = _floored(attempt_planner, _floor(text, lines, budget, counter))
        found = _tighten(text, lines, attempt_planner, budget, counter, context, translate)
        if found:
            return _spent(text, lines, *found, budget, counter, context, translate)
    everything = translate(Plan("other", (gap(lines, 0, max(0, len(lines) - 1)),), len(lines),
                                len(lines), binary=binary))
    for candidate in (render(everything, text, counter, context),
                      *terse_markers(everything.omitted_lines, context,
                                     everything.omitted_lines == everything.total_lines)):
        if counter.count(candidate) <= budget:
            return everything, candidate
    return everything, ""


def _floor(text: str, lines: Lines, budget: int, counter: Counter) -> tuple[int, int]:
    """How many of the first and of the last lines every clip at `budget` shows."""
    def cost(index: int) -> int:
        row = lines.get(index)
        if beginning_pays(row, counter):
            return counter.count(row[:LINE_START_CHARS]) + CUT_MARKER_TOKENS
        return counter.count(row) + 1

    def count(indexes, most: int, share: float) -> int:
        taken = used = 0
        for index in indexes:
            if taken >= most:
                break
            used += cost(index)
            if used > share * budget:
                break
            taken += 1
        return taken

    total = len(lines)
    most = total // _LINES_A_FLOOR_LINE
    tail = count(range(total - 1, -1, -1),
                 min(budget // _TOKENS_A_TAIL_LINE, _MOST_TAIL_LINES, most), _TAIL_FLOOR_SHARE)
    head = count(range(total - tail),
                 min(budget // _TOKENS_A_HEAD_LINE, _MOST_HEAD_LINES, most), _HEAD_FLOOR_SHARE)
    return head, tail


def _floored(planner: Planner, ends: tuple[int, int]) -> Planner:
    """The planner whose plans show the floor of the ends: one that left some of those lines
    out plans again on its budget less what they cost."""
    head, tail = ends
    if not head and not tail:
        return planner

    def floored(text, lines, budget, counter, tool):
        plan = planner(text, lines, budget, counter, tool)
        missing = _missing(plan, text, lines, head, tail, counter)
        if plan is None or plan.regap is None or not missing:
            return plan
        plan = planner(text, lines, budget - missing, counter, tool)
        return None if plan is None else show_ends(plan, text, lines, head, tail, counter)

    return floored


def _missing(plan, text: str, lines: Lines, head: int, tail: int, counter: Counter) -> int:
    """What the floor's lines that `plan` leaves out cost (0: it shows them all)."""
    if plan is None or plan.regap is None:
        return 0
    head_end, tail_start = ends_of(plan, lines, head, tail)
    if cuts_inside(plan, lines, head_end, tail_start):
        return 0
    missing = 0
    for item in plan.items:
        if isinstance(item, Gap) and not item.hidden_chars:
            for start, end in ((item.start, min(item.end, head_end)),
                               (max(item.start, tail_start), item.end)):
                if start < end:
                    for index in range(lines.line_of(start), lines.line_of(end - 1) + 1):
                        row = lines.get(index)
                        missing += (counter.count(row[:LINE_START_CHARS]) + CUT_MARKER_TOKENS
                                    if beginning_pays(row, counter) else counter.count(row) + 1)
    return missing


def _tighten(text, lines, planner, budget, counter, context, translate):
    target = budget
    for _ in range(_ATTEMPTS):
        plan = planner(text, lines, target, counter, context.tool)
        if plan is None:
            return None
        shown = translate(plan)
        out = render(shown, text, counter, context)
        used = counter.count(out)
        if used <= budget:
            return plan, shown, out, used
        shrunk = int(target * budget / used) - 4
        target = min(shrunk, target - 4)
        if target <= 0:
            return None
    return None


def _spent(text, lines, plan, shown, out, used, budget, counter, context, translate):
    """The plan with what it left of the budget spent at its gaps' edges, when that fits.
    A streamed output's excerpt grows the same way: a kept part that reaches text never read
    is split around it by translate, with its own marker."""
    if used >= _SPENT_ENOUGH * budget:
        return shown, out
    slack = 1 + _SPEND_SLACK * sum(isinstance(item, Gap) for item in shown.items)
    for _ in range(_SPEND_ATTEMPTS):
        grown = fill(plan, text, lines, budget - used - slack, counter)
        if grown is plan:
            break
        bigger = translate(grown)
        rendered = render(bigger, text, counter, context)
        over = counter.count(rendered) - budget
        if over <= 0:
            return bigger, rendered
        slack += 2 * over
    return shown, out
