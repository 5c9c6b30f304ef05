"""The tree planner on real drawn trees: `npm ls --all` (npm 11, box drawing, two columns per
level) and `pipdeptree` (several roots, four columns per level). Expected entries are found in
the inputs here by their drawing, never copied from the planner's output."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from headroom_cli.api import compress
from headroom_cli.plan import Lines
from headroom_cli.sniff import sniff
from headroom_cli.planners import tree
from headroom_cli.tools import lookup

CORPUS = Path(__file__).parent / "corpus"
NPM_LS = (CORPUS / "npm-ls-all-commander-tree" / "output.txt").read_text()
PIPDEPTREE = (CORPUS / "pipdeptree-headroom-venv" / "output.txt").read_text()


def direct_entries(text: str) -> list[str]:
    """The first level: a branch in the first column."""
    return [row for row in text.splitlines() if re.match(r"[├└]─", row)]


@pytest.mark.parametrize("text", [NPM_LS, PIPDEPTREE], ids=["npm-ls", "pipdeptree"])
def test_drawn_trees_are_sniffed_as_trees(text):
    assert sniff(Lines(text), lookup("Bash")) == "tree"


def test_at_a_quarter_of_the_budget_every_direct_dependency_stays(counter):
    result = compress(NPM_LS, tool="Bash", budget=1000, counter=counter)
    firsts = direct_entries(NPM_LS)
    assert len(firsts) == 9
    shown = result.text.splitlines()
    for row in firsts:
        number = NPM_LS.splitlines().index(row) + 1
        assert row in shown or f"{number:>6}\t{row}" in shown, row
    assert counter.count(result.text) <= 1000


def test_the_outline_says_how_many_entries_it_lists(counter):
    result = compress(NPM_LS, tool="Bash", budget=600, counter=counter)
    listed = [row for row in result.text.splitlines() if re.match(r" *\d+\t", row)]
    (shown, total), = re.findall(r"outline of the omitted lines: ([\d,]+) of ([\d,]+) entries",
                                 result.text)
    assert int(shown) == len(listed) < int(total)
    assert counter.count(result.text) <= 600


def test_every_root_stays_before_any_deeper_entry(counter):
    roots = [row for row in PIPDEPTREE.splitlines() if re.match(r"[^\s│├└]", row)]
    assert len(roots) == 5
    result = compress(PIPDEPTREE, tool="Bash", budget=200, counter=counter)
    text = result.text
    assert all(root in text for root in roots)
    assert counter.count(text) <= 200


@pytest.mark.parametrize("rows", [
    ["src/app.py:12:def main():"] * 20,  # search results
    ["-rw-r--r-- 1 root root 12 Nov 25 a.txt"] * 20,  # a listing
    ["| a | b |", "|---|---|"] + ["| 1 | 2 |"] * 20,  # a Markdown table: bars, no branches
])
def test_what_draws_no_branches_is_not_a_tree(rows):
    assert not tree.looks_like(rows, lookup("Bash"))


def test_notes_before_and_after_the_tree_are_not_roots():
    rows = NPM_LS.splitlines()
    assert rows[0].startswith("npm warn ")
    depths = dict(tree.entries(rows))
    assert 0 not in depths and depths[1] == 0  # the warning is a note; the project is the root


def test_an_entry_shown_elsewhere_comes_after_every_other(counter):
    """`cargo tree -e features` (real, 435 lines) marks a subtree printed before with `(*)`:
    such an entry says only that it was shown. At 2000 tokens the outline names none of them
    while it leaves out an entry that names something new."""
    text = (CORPUS / "cargo-tree-features-logscan" / "output.txt").read_text()
    rows = text.splitlines()
    assert sum(row.endswith("(*)") for row in rows) > 50
    out = compress(text, tool="Bash", budget=2000, counter=counter).text
    listed = {line.split("\t", 1)[1] for line in out.splitlines() if "\t" in line}
    assert listed  # the outline's entries, each after its line number and a tab
    fresh = [row for row in rows if re.match(r"[│ ]*[├└]", row) and not row.endswith("(*)")]
    assert any(row not in listed and row not in out.splitlines() for row in fresh)
    assert [row for row in listed if row.endswith("(*)")] == []
