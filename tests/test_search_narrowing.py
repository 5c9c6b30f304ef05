"""A clipped search's marker names narrower searches that would fit (issue #15, item 5), with
figures computed from the output itself. Real outputs: GNU grep over installed packages
(tests/cases/search-*), the corpus's rg -l list."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from headroom_cli.api import compress

CASES = Path(__file__).resolve().parent / "cases"
NARROWER = re.compile(r"narrower searches, with what they would print: (?P<ways>.*)\]$")
WHERE = re.compile(r"only (?P<where>\S+) \((?P<matches>[\d,]+) match(?:es)?"
                   r"(?: in (?P<files>[\d,]+) files)?, ~(?P<tokens>[\d,]+) tokens\)")


def num(text: str) -> int:
    return int(text.replace(",", ""))


def real(name: str) -> str:
    return (CASES / name / "input").read_bytes().decode("utf-8", "surrogateescape")


def marker_of(out: str) -> str:
    return out.rstrip("\n").rsplit("\n", 1)[-1]


@pytest.mark.parametrize("name, budget", [("search-grep-C2-hypothesis-invalidargument", 1000),
                                          ("search-grep-C2-hypothesis-invalidargument", 2000),
                                          ("search-grep-rn-rich-console", 500),
                                          ("search-grep-rn-rich-console", 1500)])
def test_the_suggested_folder_or_file_is_counted_from_the_output_and_would_fit(
        counter, name, budget):
    text = real(name)
    out = compress(text, tool="Grep", budget=budget, counter=counter).text
    assert counter.count(out) <= budget  # the hint is inside the budget
    m = NARROWER.search(marker_of(out))
    assert m, marker_of(out)
    where = WHERE.search(m["ways"])
    assert where, m["ways"]
    prefix = where["where"]
    rows = [row for row in text.split("\n") if row.startswith(prefix)]
    matched = [row for row in rows if re.match(rf"{re.escape(prefix)}[^:]*:\d+:", row)]
    assert num(where["matches"]) == len(matched)
    if where["files"]:
        assert num(where["files"]) == len({row.split(":", 1)[0] for row in matched})
    # What the narrowed search prints (its matches and their context lines) fits the budget,
    # and the estimate is near what it would cost.
    narrowed = "\n".join(rows) + "\n"
    actual = counter.count(narrowed)
    assert actual <= budget * 1.15 and num(where["tokens"]) <= budget
    assert 0.6 * actual <= num(where["tokens"]) <= 1.4 * actual
    # And it is the heaviest such folder or file: no other with more matches fits, by the
    # same pricing (a bigger one costs more than the budget).
    heavier = {}
    for row in text.split("\n"):
        found = re.match(r"([^:]+):\d+:", row)
        if found:
            path = found[1]
            parts = path.split("/")
            for depth in range(1, len(parts) + 1):
                key = "/".join(parts[:depth]) + ("/" if depth < len(parts) else "")
                heavier[key] = heavier.get(key, 0) + 1
    per_match = num(where["tokens"]) / max(1, actual)
    for key, count in heavier.items():
        if count > len(matched) and key.count("/") and key != "hypothesis/":
            lines = [row for row in text.split("\n") if row.startswith(key)]
            cost = counter.count("\n".join(lines) + "\n") * per_match
            assert cost > budget * 0.85 or count == len(heavier), key


def test_fewer_context_lines_are_suggested_with_the_lines_they_would_print(counter):
    text = real("search-grep-C2-hypothesis-invalidargument")
    out = compress(text, tool="Grep", budget=2000, counter=counter).text
    m = NARROWER.search(marker_of(out))
    assert m, marker_of(out)
    fewer = re.search(r"(?:-C (?P<width>\d)|no context lines \(-C 0\)) \((?P<lines>[\d,]+) lines,",
                      m["ways"])
    assert fewer, m["ways"]
    width = int(fewer["width"] or 0)
    assert width < 2  # the output has -C 2; at 2000 tokens not even its matches fit
    rows = text.split("\n")
    match = [bool(re.match(r"[^:]+:\d+:", row)) for row in rows]
    keep = 0
    for at, row in enumerate(rows):
        if match[at]:
            keep += 1
        elif re.match(r"[^:]+-\d+-", row):
            near = [match[j] for j in range(at - width, at + width + 1) if 0 <= j < len(rows)]
            keep += any(near)
    assert num(fewer["lines"]) == keep


def test_a_file_list_suggests_a_folder_by_files_and_no_file_list(corpus_dir, counter):
    grown = Path(__file__).resolve().parent / "corpus"
    text = (grown / "rg-l-commander-require-with-node-modules" / "output.txt").read_text()
    out = compress(text, tool="Grep", budget=1000, counter=counter).text
    marker = marker_of(out)
    m = re.search(r"only (?P<where>\S+/) \((?P<files>[\d,]+) files, ~[\d,]+ tokens\)", marker)
    assert m, marker
    assert num(m["files"]) == sum(1 for row in text.split("\n") if row.startswith(m["where"]))
    assert "-l, the file list" not in marker


def test_a_listing_that_names_every_file_suggests_no_file_list(counter):
    text = real("search-grep-C2-hypothesis-invalidargument")
    out = compress(text, tool="Grep", budget=4000, counter=counter).text
    assert "files cut short, each named above" in out
    assert "-l, the file list" not in marker_of(out)
