"""The names a search's tests are named after (sites._tests_naming), which it looks for only when
some matched text spells `test` or `Test`: the same as searching each text's first characters
on its own, whatever the texts hold (several test names, names cut at the judged length)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from headroom_cli.planners.search import sites

PIECES = ["def ", "func ", "function ", "fn ", "test_", "Test", "test", "_x", "Format", "str",
          " ", "\t", "\n", "\0", "(", "a", "9", "é", "\u00a0", "x" * 390, "tes", "t", "T", "est"]
NAMES = ["def test_format_str(", "func TestParse(", "fn test_x() {", "function testAll() {"]
texts = st.lists(st.lists(st.sampled_from(PIECES + NAMES), max_size=8).map("".join), max_size=30)


def one_by_one(texts: list[str]) -> frozenset[str]:
    """The names, each text searched on its own, split as sites._tests_naming splits them."""
    found = set()
    for text in texts:
        m = sites._TEST_NAME.search(text, 0, sites._JUDGED)
        if m:
            parts = [p.lower() for p in sites._PART.findall(m[1])]
            for start in range(len(parts)):
                for end in range(start + 1, min(len(parts), start + 4) + 1):
                    found.add("_".join(parts[start:end]))
                    found.add("".join(parts[start:end]))
    return frozenset(found)


@settings(max_examples=400, deadline=None)
@given(texts)
@example(["def test_a(): pass; def test_b(): pass", "x", "fn test_c() {}"])
@example(["x" * 395 + "def test_cut", "def\0test_no"])
def test_test_names_are_found_as_one_search_a_text_finds_them(texts):
    assert frozenset(sites._tests_naming(texts)) == one_by_one(texts)
