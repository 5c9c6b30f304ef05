"""The ends of an output in its clip: at budget B every clip shows the output's last lines and its
first ones, sized by B, on real outputs (tests/corpus, tests/real). The planners' own ends and
spend.py (the output's last line first, then every gap's edges) give it today; a floor in fit.py
that forced it was measured and not kept (it cost middle lines where spending already shows the
ends).

The guarantee, stated from the outside: at budget B, the last B // 100 lines of an output (at most
12, and at most one line in 20 of the output) are in its clip whenever none is too long to print
whole (costs.MAX_LINE_CHARS) and together they cost at most 15 % of B; the first B // 200 lines
(at most 6, one in 20) likewise within 8 % of B. It binds the plans whose
gaps can be re-worded (Plan.regap) and that leave nothing out silently; a line a note of the
plan counts as omitted (Plan.counted: the log's errors by kind) stays omitted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from headroom_cli import tools
from headroom_cli.api import counter_for
from headroom_cli.clean import clean
from headroom_cli.fit import fit
from headroom_cli.plan import Gap, Keep, Lines
from headroom_cli.planners.costs import MAX_LINE_CHARS
from headroom_cli.render import Context
from headroom_cli.sniff import planner, sniff

HERE = Path(__file__).parent
CASES = sorted((HERE / "corpus").glob("*/output.txt")) + sorted((HERE / "real").glob("*.txt"))
BUDGETS = (500, 1000, 2000)


def _clip(raw: str, budget: int):
    counter = counter_for()
    text = clean(raw)
    lines = Lines(text)
    tool = tools.lookup("Bash")
    plan, out = fit(text, lines, planner(sniff(lines, tool), lines), budget, counter,
                    Context(tool, "0123456789ab"))
    return text, lines, plan, out, counter


def _ends(lines: Lines, counter, budget: int):
    """(first lines, last lines) the guarantee names at `budget` (empty when it does not bind)."""
    total = len(lines)

    def bound(indexes, share):
        rows = [lines.get(i) for i in indexes]
        if any(len(r) > MAX_LINE_CHARS for r in rows):
            return []
        if sum(counter.count(r) + 1 for r in rows) > share * budget:
            return []
        return list(indexes)

    tail = bound(range(total - min(budget // 100, 12, total // 20), total), 0.15)
    head = bound(range(min(budget // 200, 6, total // 20)), 0.08)
    return head, tail


def _silent(plan, lines: Lines) -> bool:
    """Some line is neither kept nor in a gap (the plan's summary counts it)."""
    covered = sorted((i.start, i.end) for i in plan.items if isinstance(i, (Keep, Gap)))
    cursor = 0
    for start, end in covered:
        if start > cursor and lines.text[cursor:start].strip():
            return True
        cursor = max(cursor, end)
    return bool(lines.text[cursor:].strip())


def _checked():
    for path in CASES:
        raw = path.read_bytes().decode("utf-8", "surrogateescape")
        if "\x00" not in raw and len(raw) < 400_000:
            yield path


@pytest.mark.parametrize("path", list(_checked()), ids=lambda p: p.parent.name
                         if p.name == "output.txt" else p.stem)
def test_the_ends_are_in_every_clip(path: Path):
    raw = path.read_bytes().decode("utf-8", "surrogateescape")
    for budget in BUDGETS:
        text, lines, plan, out, counter = _clip(raw, budget)
        if out == text or plan.regap is None or _silent(plan, lines):
            continue
        head, tail = _ends(lines, counter, budget)
        for index in head + tail:
            row = lines.get(index)
            if index in plan.counted or not row.strip():
                continue
            assert row in out, (budget, index + 1, row)


def test_the_floor_binds_on_real_outputs():
    """The guarantee is not vacuous: it binds on many real outputs (the last lines of a test
    run, a build, a dump)."""
    bound = 0
    for path in list(_checked())[::4]:
        raw = path.read_bytes().decode("utf-8", "surrogateescape")
        text, lines, plan, out, counter = _clip(raw, 1000)
        if out != text and plan.regap is not None and not _silent(plan, lines):
            head, tail = _ends(lines, counter, 1000)
            bound += bool(tail)
    assert bound >= 20
