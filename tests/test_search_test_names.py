"""The names a search's tests are named after (sites._tested) are found in one pass over all
the matched texts: the same names, in the same order, as searching each text's first
characters on its own, whatever the texts hold (several test names, names cut at the judged
length, a NUL)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from headroom_cli.planners.search import sites

PIECES = ["def ", "func ", "function ", "fn ", "test_", "Test", "test", "_x", "Format", "str",
          " ", "\t", "\n", "\0", "(", "a", "9", "é", "\u00a0", "x" * 390]
NAMES = ["def test_format_str(", "func TestParse(", "fn test_x() {", "function testAll() {"]
texts = st.lists(st.lists(st.sampled_from(PIECES + NAMES), max_size=8).map("".join), max_size=30)


def one_by_one(texts: list[str]) -> list[str]:
    names = []
    for text in texts:
        m = sites._TEST_NAME.search(text, 0, sites._JUDGED)
        if m:
            names.append(m[1])
    return names


@settings(max_examples=400, deadline=None)
@given(texts)
@example(["def test_a(): pass; def test_b(): pass", "x", "fn test_c() {}"])
@example(["x" * 395 + "def test_cut", "def\0test_no"])
def test_test_names_are_found_as_one_search_a_text_finds_them(texts):
    assert sites._test_names(texts) == one_by_one(texts)
