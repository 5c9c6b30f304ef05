"""Outlines of documents with long lines (issue #22, class 5): many lines' beginnings before a
few lines whole, at the head, the tail and in the outline's entries."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli.api import compress
from headroom_cli.planners import outline

REAL = Path(__file__).parent / "real"
# `cat -n` of a rustdoc page: a heading is often deep in a line of markup thousands of
# characters long; its first and last lines are among them.
RUSTDOC = REAL / "cat-n-rustdoc-1.95-std-cell-refcell-html.txt"
BUDGETS = (500, 1000, 2000, 4000)
LISTED = re.compile(r"\[outline of the omitted lines: (\d+) of")
BEGINNING = re.compile(r"^\[… line ([\d,]+) omitted \(1 line; of line \1 only characters "
                       r"151–([\d,]+)\) …\]$", re.M)


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def test_more_budget_lists_more_headings_and_both_ends_are_shown_by_their_beginning(counter):
    text = RUSTDOC.read_text()
    rows = text.split("\n")
    listed, begun = [], 0
    for budget in BUDGETS:
        out = compress(text, tool="Read", budget=budget).text
        assert counter.count(out) <= budget
        listed.append(int(LISTED.search(out).group(1)))
        assert out.startswith(rows[0][:150] + "\n")  # the first line, 24 KB, by its beginning
        if budget >= 1000:
            assert rows[-1][:150] + "\n" in out  # and so is the last
        for line, last_char in BEGINNING.findall(out):
            begun += 1
            row = rows[_number(line) - 1]
            assert _number(last_char) == len(row)  # the exact characters left out
            assert row[:150] + "\n" in out
    assert listed == sorted(set(listed)), listed  # each budget lists more than the one below
    assert begun  # lines shown by their beginning, each with its marker


def test_a_heading_deep_in_its_line_is_listed_from_where_it_starts():
    text = RUSTDOC.read_text()
    rows = text.split("\n")
    out = compress(text, tool="Read", budget=2000).text
    deep = re.findall(r"^ +(\d+)\t…\[\+([\d,]+) chars\] (<h[1-6].*)$", out, re.M)
    assert len(deep) >= 5
    for number, skipped, shown in deep:
        row = rows[int(number) - 1]
        body = row.split("\t", 1)[1]
        shown = re.sub(r" …\[\+[\d,]+ chars\]$", "", shown)
        assert body[_number(skipped):].startswith(shown)


def test_entries_are_cut_only_when_not_all_fit_whole():
    rows = ["# Title", "## Section 0 " + "word " * 60]
    number = "     2\t"  # the limit counts the entry's characters, not its number's
    row = number + rows[1]
    entry = len(rows[1])
    assert outline.row_of(1, rows, False) == number + rows[1][:300] + f" …[+{entry - 300} chars]"
    cut = outline.row_of(1, rows, False, limit=outline.ENTRY_CHARS)
    assert cut == row[:len(number) + 150] + f" …[+{entry - 150} chars]"
    short = outline.row_of(0, ["x" * 190], False, limit=outline.ENTRY_CHARS)
    assert short == "     1\t" + "x" * 190  # 47 characters over: not worth a marker


long_line = st.integers(300, 4000).map(lambda n: "<p>" + "lorem ipsum " * (n // 12) + "</p>")
short_line = st.sampled_from(["", "plain prose.", "<p>text</p>", "<li>item</li>"])
heading = st.builds(lambda level, n, pad: f"{pad}<h{level}>Heading {n}</h{level}>",
                    st.integers(1, 4), st.integers(0, 999),
                    st.sampled_from(["", "<div>" * 80, "x" * 700]))
pages = st.lists(st.one_of(long_line, short_line, heading), min_size=30, max_size=120).map(
    lambda rows: "<!DOCTYPE html>\n" + "\n".join(rows))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(page=pages, budget=st.sampled_from(BUDGETS), numbered=st.booleans())
def test_long_line_pages_meet_the_budget_deterministically_printing_no_line_twice(
        counter, page, budget, numbered):
    text = "\n".join(f"{i:>6}\t{row}" for i, row in enumerate(page.split("\n"), 1)) if numbered \
        else page
    out = compress(text, tool="Read", budget=budget).text
    assert counter.count(out) <= budget
    assert compress(text, tool="Read", budget=budget).text == out
    numbers = [m.group(1) for m in re.finditer(r"^ +(\d+)\t", out, re.M)]
    assert len(numbers) == len(set(numbers))  # each line at most once (kept or listed)
