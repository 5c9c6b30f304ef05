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
from .spend import fill
from .tokens import Counter

Planner = Callable[[str, Lines, int, Counter, object], "Plan | None"]
_ATTEMPTS = 8
_SPEND_ATTEMPTS = 4
# Tokens held back while spending, per gap: its marker's numbers change as it shrinks.
_SPEND_SLACK = 2
# A plan that uses this share of the budget is left as planned: spending the rest would cost
# another render and count (~3 ms on a 20 KB log) for a line or two.
_SPENT_ENOUGH = 0.97
# An output under this share of the budget, once spent, whose gaps spend.py cannot re-word, is
# planned again with a larger target, at most this many times (each a plan, a render and a
# count): a clipped output should use what it is given. (A plan whose gaps it can re-word and
# that leaves budget unspent has nothing left worth it: a flood's repeats, counted.)
_WIDE_ENOUGH = 0.95
_WIDEN_ATTEMPTS = 3


def _same(plan: Plan) -> Plan:
    return plan


def fit(text: str, lines: Lines, planner: Planner, budget: int, counter: Counter,
        context: Context, binary: bool = False,
        translate: Callable[[Plan], Plan] = _same) -> tuple[Plan, str]:
    """`translate` turns a plan of `text` into the plan that is rendered: for a streamed
    output, a plan of the whole output made on its excerpt (excerpt.py)."""
    fallback = lambda t, l, b, c, tool: other.head_and_tail(t, l, b, c, tool, binary)  # noqa: E731
    for attempt_planner in ((fallback,) if binary else (planner, fallback)):
        found = _tighten(text, lines, attempt_planner, budget, counter, context, translate)
        if found:
            shown, out, used = _spent(text, lines, *found[:4], budget, counter, context,
                                      translate)
            if used < _WIDE_ENOUGH * budget and found[0].regap is None:
                wider = _widened(text, lines, attempt_planner, found, budget, counter,
                                 context, translate)
                if wider is not found:
                    more = _spent(text, lines, *wider[:4], budget, counter, context, translate)
                    if more[2] > used:
                        return more[:2]
            return shown, out
    everything = translate(Plan("other", (gap(lines, 0, max(0, len(lines) - 1)),), len(lines),
                                len(lines), binary=binary))
    for candidate in (render(everything, text, counter, context),
                      *terse_markers(everything.omitted_lines, context,
                                     everything.omitted_lines == everything.total_lines)):
        if counter.count(candidate) <= budget:
            return everything, candidate
    return everything, ""


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
            return plan, shown, out, used, target
        shrunk = int(target * budget / used) - 4
        target = min(shrunk, target - 4)
        if target <= 0:
            return None
    return None


def _widened(text, lines, planner, found, budget, counter, context, translate):
    """A plan that fits far under the budget, planned again with a larger target: a planner
    whose estimate ran high (and whose gaps spend.py cannot re-word) would leave the rest of
    the budget unused while lines were dropped. A target that overshoots is halved back
    towards the last one that fit."""
    over = None
    for _ in range(_WIDEN_ATTEMPTS):
        used, target = found[3], found[4]
        if used >= _WIDE_ENOUGH * budget or used == 0:
            break
        if over is None:
            wider = max(target + 8, int(target * _WIDE_ENOUGH * budget / used))
        elif (wider := (target + over) // 2) - target < 8:
            break
        plan = planner(text, lines, wider, counter, context.tool)
        if plan is None:
            break
        shown = translate(plan)
        out = render(shown, text, counter, context)
        grown = counter.count(out)
        if grown > budget:
            over = wider
        elif grown > used:
            found = plan, shown, out, grown, wider
        else:
            break
    return found


def _spent(text, lines, plan, shown, out, used, budget, counter, context, translate):
    """The plan with what it left of the budget spent at its gaps' edges, when that fits.
    A streamed output's excerpt grows the same way: a kept part that reaches text never read
    is split around it by translate, with its own marker.

    spend.py prices each line on its own and each marker in its inline form; the rendered
    output can cost a little more or less (tokens merge at seams; one gap left takes the
    closing marker's place). So the room given to spend.py is searched for: a room that fits
    short of the budget grows by what is still left, one that overshoots shrinks by twice the
    overshoot, and once one of each is known the rooms between them are halved. The largest
    output that fits is kept."""
    if used >= _SPENT_ENOUGH * budget:
        return shown, out, used
    best = shown, out, used
    room = budget - used - 1 - _SPEND_SLACK * sum(isinstance(item, Gap) for item in shown.items)
    fits, over_at = 0, None  # the largest room that fit, the smallest that overshot
    for _ in range(_SPEND_ATTEMPTS):
        grown = fill(plan, text, lines, room, counter)
        if grown is plan:
            break
        bigger = translate(grown)
        rendered = render(bigger, text, counter, context)
        spent = counter.count(rendered)
        if spent <= budget:
            if spent <= best[2] or spent >= _SPENT_ENOUGH * budget:
                best = max(best, (bigger, rendered, spent), key=lambda found: found[2])
                break
            best, fits = (bigger, rendered, spent), room
            room = room + budget - spent if over_at is None else (room + over_at) // 2
        else:
            over_at = room
            room = room - 2 * (spent - budget) if not fits else (fits + room) // 2
        if room <= fits or room < 1 or over_at is not None and room >= over_at:
            break
    return best
