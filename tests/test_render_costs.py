"""The closing marker's cost is a fact of render.py, which planners reserve before spending."""

from __future__ import annotations

import pytest

from headroom_cli.plan import Gap, Plan
from headroom_cli.render import CLOSING_MARKER_TOKENS, Context, closing_marker
from headroom_cli.tools import lookup


@pytest.mark.parametrize("tool", ["Bash", "Read", "Grep", "WebFetch", None])
@pytest.mark.parametrize("gaps", [1, 3])
def test_the_longest_closing_marker_costs_at_most_what_planners_reserve(counter, tool, gaps):
    # Seven-digit figures, a store id and an exit status: the longest wording there is.
    items = tuple(Gap(0, 2, 1_000_000 + i, 9_999_999) for i in range(gaps))
    for kind in ("log", "other", "diff", "listing"):
        plan = Plan(kind, items, 9_999_999, 9_999_998)
        marker = closing_marker(plan, "x\n" * 10, counter,
                                Context(lookup(tool), "3f2a9c1b7d4e", 255, None))
        assert counter.count(marker + "\n") <= CLOSING_MARKER_TOKENS
