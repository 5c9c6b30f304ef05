"""parse() reads a planner's plain match lines in one pass over their text (signals._PLAIN_ROWS)
and every other row one by one: what it makes of any rows is what reading every row one by one
makes of them (the files in order, their matches, where each matched text starts, context
lines, headings, strays), on real `rg -n` rows and on rows built from the pieces that tell a
match line from the rest (colons, numbers, spaces, drives, trees, rg --json)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli.planners.search import signals
from headroom_cli.planners.search.signals import parse

REAL = (Path(__file__).resolve().parent / "cases" / "search-rg-n-pydantic-basemodel" / "input"
        ).read_text().splitlines()
PIECES = ["src/a.py", "a/b/c.rs", "/abs/x.c", "pkg/", "lib", "T1", "a/T12", "x/2026T10",
          "HEAD:", "C:\\", "C:/", "{\"type\":\"match\",\"data\":{\"path\":{\"text\":\"a/b.py\"}}",
          ":", "::", ":12:", ":3:", ":12:5:", "12", "7:", "-4-", "--", " ", "\t", "  ", "\u00a0", "\x1c",
          "\u0663", "é/ü.py", "def f():", "x = 1", " error: ", "\r", "a b/c.py", "'q'", "."]
piece_rows = st.lists(st.lists(st.sampled_from(PIECES), max_size=6).map("".join), max_size=40)
real_rows = st.integers(0, len(REAL) - 1).flatmap(
    lambda start: st.integers(1, 300).map(lambda size: REAL[start:start + size]))


def row_by_row(rows: list[str]) -> signals.Parsed | None:
    """parse() as it reads a sniff's rows: one at a time."""
    one_pass = signals._plain_heads
    signals._plain_heads = lambda rows: None
    try:
        return parse(rows)
    finally:
        signals._plain_heads = one_pass


def assert_read_alike(rows: list[str]) -> None:
    fast, slow = parse(rows), row_by_row(rows)
    assert fast == slow
    assert list(fast.files) == list(slow.files)  # the same order of files too


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(piece_rows)
def test_rows_of_any_pieces_are_read_alike(rows):
    assert_read_alike(rows)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(real_rows, st.lists(st.tuples(st.integers(0, 299), st.sampled_from(PIECES)), max_size=8))
def test_real_rows_and_their_mutants_are_read_alike(rows, edits):
    rows = list(rows)
    for at, piece in edits:  # a piece spliced into a row: a path broken, a colon moved
        if at < len(rows):
            row = rows[at]
            cut = at % (len(row) + 1)
            rows[at] = row[:cut] + piece + row[cut:]
    assert_read_alike(rows)


def test_the_one_pass_reads_most_rows_of_a_real_search():
    heads = list(signals._plain_heads(REAL))
    assert len(heads) == len(REAL) and sum(1 for head, _ in heads if head) > 0.9 * len(REAL)


@pytest.mark.parametrize("rows", [["a/b.py:1:x\ny"], ["a/b.py:1:x", "c\nd/e.py:2:y"]])
def test_rows_holding_a_newline_are_read_row_by_row(rows):
    assert list(signals._plain_heads(rows)) == [("", "")] * len(rows)
    assert_read_alike(rows)


def test_rows_are_read_alike_across_batches(monkeypatch):
    monkeypatch.setattr(signals, "_HEADS_AT_ONCE", 7)
    rows = REAL[:100]
    rows[20] = "a/b.py:1:x\ny"  # one batch read row by row, the others in one pass each
    assert_read_alike(rows)
