"""The closing marker's cost is a fact of render.py, which planners reserve before spending."""

from __future__ import annotations

import pytest

from headroom_cli.plan import Gap, Keep, Narrowing, Plan
from headroom_cli.render import (CLOSING_MARKER_TOKENS, GAP_MARKER_TOKENS,
                                 SEARCH_MARKER_TOKENS, Context, closing_marker, inline_marker,
                                 search_narrowing, search_roll_up_summary, search_summary)
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


@pytest.mark.parametrize("first, last", [(1, 1), (57, 58), (1_204, 9_311), (12_040, 93_110)])
def test_an_inline_marker_of_up_to_five_digit_lines_costs_what_planners_price_a_gap_at(
        counter, first, last):
    marker = inline_marker(Gap(0, 2, first, last))
    assert counter.count(marker + "\n") <= GAP_MARKER_TOKENS


BIG = 9_999_999


@pytest.mark.parametrize("tool", ["Bash", "Read", "Grep", "WebFetch", None])
@pytest.mark.parametrize("store_id", ["3f2a9c1b7d4e", None])
def test_the_longest_search_marker_costs_at_most_what_the_search_planner_reserves(
        counter, tool, store_id):
    summaries = [search_summary(BIG, BIG, BIG, BIG, by_folder, BIG, 300)
                 for by_folder in (True, False)]
    summaries += [search_roll_up_summary(BIG, BIG, BIG, BIG, file_list, BIG, 300)
                  for file_list in (True, False)]
    for summary in summaries:
        plan = Plan("search", (Keep(0, 2),), BIG, BIG - 1, summary=summary)
        marker = closing_marker(plan, "x\n" * 10, counter,
                                Context(lookup(tool), store_id, 255, None))
        assert counter.count(marker + "\n") <= SEARCH_MARKER_TOKENS


def test_a_narrowing_hint_is_counted_on_top_of_the_search_marker(counter):
    """The planner reserves SEARCH_MARKER_TOKENS plus what search_narrowing's text costs:
    the marker with the hint costs no more than that."""
    narrowing = Narrowing("src/some/deeply/nested/package/", BIG, BIG, BIG, BIG, BIG, 0, BIG, BIG)
    hint = search_narrowing(narrowing)
    assert hint
    summary = search_summary(BIG, BIG, BIG, BIG, True, BIG, 300)
    plan = Plan("search", (Keep(0, 2),), BIG, BIG - 1, summary=summary, narrowing=narrowing)
    marker = closing_marker(plan, "x\n" * 10, counter,
                            Context(lookup("Grep"), "3f2a9c1b7d4e", 255, None))
    assert counter.count(marker + "\n") <= SEARCH_MARKER_TOKENS + counter.count(hint)


@pytest.mark.parametrize("total, files", [(548, 65), (1_392, 1_392), (12, 3), (250_000, 9_000)])
def test_the_reserve_for_an_outputs_figures_covers_its_longest_search_marker(counter, total,
                                                                              files):
    from headroom_cli.render import search_marker_reserve

    reserve = search_marker_reserve(counter, total, files, 0, 300)
    assert reserve <= SEARCH_MARKER_TOKENS
    for summary in (search_summary(total, total, files, files, True),
                    search_roll_up_summary(total, total, files, files, True),
                    search_roll_up_summary(total, total, files, files, False)):
        plan = Plan("search", (Keep(0, 2),), total, total - 1, summary=summary)
        marker = closing_marker(plan, "x\n" * 10, counter,
                                Context(lookup("WebFetch"), "3f2a9c1b7d4e", 255, None))
        assert counter.count(marker + "\n") <= reserve


def test_search_map_lines_are_worded_in_render():
    from headroom_cli.render import search_file_header, search_folder_label
    assert search_file_header("lib/request.js", 38, 8) == "lib/request.js (38 matches, showing 8)"
    assert search_file_header("a.py", 1) == "a.py (1 match)"
    assert search_file_header("big.c", 12345) == "big.c (12,345 matches)"
    assert search_folder_label("test/", 40, 379) == "test/ (40 files, 379 matches)"
    assert search_folder_label("", 2, 3) == "./ (2 files, 3 matches)"
    assert search_folder_label("node_modules/", 1319, None, more=True) == \
        "node_modules/ (1,319 more files)"
    assert search_folder_label("src/", 1, 1, more=True) == "src/ (1 more file, 1 match)"


def test_a_narrower_search_counts_one_file_as_one_file():
    from headroom_cli.render import search_narrowing
    hint = search_narrowing(Narrowing(where="examples/route-separation/", where_matches=11,
                                      where_files=1, where_tokens=196, list_files=1,
                                      list_tokens=9))
    assert "only examples/route-separation/ (11 matches in 1 file, ~196 tokens)" in hint
    assert "-l, the file list (1 file, ~9 tokens)" in hint


@pytest.mark.parametrize("tool", ["Bash", "Read", "WebFetch", None])
@pytest.mark.parametrize("form", ["document", "minified", "JSON Lines", "JSON stream"])
def test_the_longest_json_marker_costs_at_most_what_the_json_planner_reserves(counter, tool,
                                                                              form):
    from headroom_cli.render import JSON_MARKER_TOKENS, json_summary

    summary = json_summary(form, BIG, BIG, 1000 * BIG)
    gaps = (Gap(0, 2, 1_000_000, BIG), Gap(4, 6, 1_000_000, BIG))
    for items in (gaps[:1], gaps):  # ten-digit tokens left out: at most the characters
        plan = Plan("json", items, BIG, BIG - 1, summary=summary, hidden_tokens=1000 * BIG)
        marker = closing_marker(plan, "x\n" * 10, counter,
                                Context(lookup(tool), "3f2a9c1b7d4e", 255, None))
        assert counter.count(marker + "\n") <= JSON_MARKER_TOKENS


@pytest.mark.parametrize("lines, chars", [(1, 3_862), (27, 1_213), (3_050, 88_410),
                                          (120_000, 9_500_000)])
def test_the_reserve_for_a_json_outputs_figures_covers_its_longest_marker(counter, lines, chars):
    from headroom_cli.render import JSON_MARKER_TOKENS, json_marker_reserve, json_summary

    reserve = json_marker_reserve(counter, lines, chars)
    assert reserve <= JSON_MARKER_TOKENS
    for form in ("document", "minified", "JSON Lines", "JSON stream"):
        plan = Plan("json", (Gap(0, 2, lines, lines),), lines, lines,
                    summary=json_summary(form, lines, lines, chars), hidden_tokens=chars)
        marker = closing_marker(plan, "x\n", counter,
                                Context(lookup("WebFetch"), "3f2a9c1b7d4e", 255, None))
        assert counter.count(marker + "\n") <= reserve
