"""What a printed line costs, counted only when a planner asks (so cost follows the output),
and the one rule for lines too long to print whole."""

from __future__ import annotations

from ..tokens import Counter

MAX_LINE_CHARS = 300  # a minified line is cut inside, and says so
# A line is judged (sniffed, classified) on its first characters only: a per-line pattern with
# two quantifiers over the same characters may try every split of a run, so an unbounded line
# would cost its length squared. No definition, summary or error line is this long.
JUDGED_CHARS = 400


# A long line whose beginning, with the marker that names its rest (about CUT_MARKER_TOKENS),
# costs at most half the line is shown by its beginning when a gap's edges grow (spend.py):
# many lines' beginnings before a few lines whole.
LINE_START_CHARS = MAX_LINE_CHARS // 2
CUT_MARKER_TOKENS = 25


def beginning_pays(row: str, counter: Counter) -> bool:
    """Whether `row` is long enough that its beginning and a marker cost at most half of it."""
    if len(row) <= MAX_LINE_CHARS:
        return False
    start = counter.count(row[:LINE_START_CHARS]) + CUT_MARKER_TOKENS
    return counter.count(row[:MAX_LINE_CHARS * 8]) >= 2 * start


# A line shown again says nothing the first did not, unless it is this short (a blank line, a
# brace, `return None`: read by where it stands) or too long to print whole (shown by its
# beginning, never compared whole): a line that repeats one shown waits while lines not shown
# yet are offered (spend.py's edges, a log's error blocks).
_REPEAT_CHARS = 16


def repeat_key(row: str) -> str:
    """What `row` is compared by with the lines shown ('' for a row never compared)."""
    if len(row) > MAX_LINE_CHARS:
        return ""
    row = row.strip()
    return row if len(row) >= _REPEAT_CHARS else ""


# With a larger budget a long line is cut later: at a fifth of the budget in characters when
# that is more (a wide table's last columns, a JSON record's last fields).
_BUDGET_SHARE = 5


def line_limit(budget: int, least: int = MAX_LINE_CHARS) -> int:
    """Where a long line is cut at this budget: `least` characters, or more with the budget."""
    return max(least, budget // _BUDGET_SHARE)


def cut_note(row: str, longest: int = MAX_LINE_CHARS) -> str:
    return f" …[+{len(row) - longest:,} chars]"


class LineCosts:
    """Token costs of input rows (as shown) and of lines a planner writes, each counted once."""

    def __init__(self, rows: list[str], counter: Counter, cut_long: bool = True,
                 longest: int = MAX_LINE_CHARS) -> None:
        self.rows, self.counter, self.cut_long, self._cache = rows, counter, cut_long, {}
        self.longest = longest

    def line(self, index: int, suffix: str = "") -> int:
        key = (index, suffix)
        if key not in self._cache:
            row = self.rows[index]
            if self.cut_long:
                length, note = self.cut(index)
                row = row[:length] + note
            self._cache[key] = self.counter.count(row + suffix + "\n")
        return self._cache[key]

    def cut(self, index: int) -> tuple[int, str]:
        """How much of row `index` is printed, and what then says how much was cut: the
        whole row, or its first `longest` characters (plan.line_items' `cut`)."""
        row = self.rows[index]
        if len(row) <= self.longest:
            return len(row), ""
        return self.longest, cut_note(row, self.longest)

    def note(self, text: str) -> int:
        if text not in self._cache:
            self._cache[text] = self.counter.count(text + "\n")
        return self._cache[text]


def fit_in_order(indexes: list[int], budget: int, costs: LineCosts) -> list[int]:
    """The longest prefix of indexes whose rows fit in budget tokens."""
    kept, used = [], 0
    for index in indexes:
        used += costs.line(index)
        if used > budget:
            break
        kept.append(index)
    return kept
