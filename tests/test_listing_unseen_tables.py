"""The listing planner on real tables no rule was tuned on (tests/corpus): `git ls-tree -r -l`
of jq, `tar -tvzf` of an archive Debian ships, `pmap -x` of a running CPython.

What each test expects is read off the input itself, the plain way: a column's values counted,
its numbers compared; nothing is copied from the planner's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from headroom_cli.api import compress
from headroom_cli.clean import clean
from headroom_cli.plan import Lines
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

CORPUS = Path(__file__).parent / "corpus"
LS_TREE = (CORPUS / "git-ls-tree-r-l-jq-master" / "output.txt").read_text()
TAR_TV = (CORPUS / "tar-tvzf-openjdk-17-jtreport-hotspot" / "output.txt").read_text()
PMAP = (CORPUS / "pmap-x-python-bench-quality" / "output.txt").read_text()


def clip(text: str, budget: int, counter) -> str:
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    return out


def shape(text: str) -> str:
    return sniff(Lines(clean(text)), lookup("Bash"))


def rows_of(text: str) -> list[str]:
    return [row for row in text.splitlines() if row.strip()]


# ------------------------------------------------------------------ git ls-tree -r -l


def ls_tree_entries() -> list[tuple[str, str, str, str]]:
    """(mode, type, size, path) of each entry: `mode type object size<TAB>path`."""
    found = []
    for row in rows_of(LS_TREE):
        meta, path = row.split("\t")
        mode, kind, _, size = meta.split()
        found.append((mode, kind, size, path))
    return found


@pytest.mark.parametrize("budget", [1000, 2000])
def test_ls_tree_keeps_the_entries_of_a_mode_only_one_holds(budget, counter):
    entries = ls_tree_entries()
    modes = [mode for mode, *_ in entries]
    singles = [e for e in entries if modes.count(e[0]) == 1]
    assert len(singles) >= 2  # the symlink and the submodule
    out = clip(LS_TREE, budget, counter)
    for mode, kind, _, path in singles:
        assert any(line.startswith(f"{mode} {kind} ") and line.endswith("\t" + path)
                   for line in out.splitlines()), path


@pytest.mark.parametrize("budget", [1000, 2000])
def test_ls_tree_keeps_its_largest_blob(budget, counter):
    sizes = [(int(size), path) for _, kind, size, path in ls_tree_entries() if kind == "blob"]
    _, largest = max(sizes)
    out = clip(LS_TREE, budget, counter)
    assert any(line.endswith("\t" + largest) for line in out.splitlines())


# ------------------------------------------------------------------ tar -tv


def test_tar_tv_is_read_as_a_listing():
    assert shape(TAR_TV) == "listing"


@pytest.mark.parametrize("budget", [1000, 2000])
def test_tar_tv_keeps_an_entry_of_its_largest_size(budget, counter):
    rows = rows_of(TAR_TV)
    most = max(int(row.split()[2]) for row in rows)
    largest = [i for i, row in enumerate(rows) if int(row.split()[2]) == most]
    assert not {0, len(rows) - 1} & set(largest)  # in the middle
    out = clip(TAR_TV, budget, counter).splitlines()
    assert any(rows[i] in out for i in largest)


# ------------------------------------------------------------------ pmap -x


def test_pmap_under_its_caption_is_read_as_a_listing():
    first, title = rows_of(PMAP)[:2]
    assert first.split()[0].endswith(":") and title.split()[:2] == ["Address", "Kbytes"]
    assert shape(PMAP) == "listing"


def test_pmap_keeps_its_three_most_resident_mappings(counter):
    mappings = [row for row in rows_of(PMAP)[2:] if row[:1] in "0123456789abcdef"
                and len(row.split()) >= 6 and row.split()[2].isdigit()]
    largest = sorted(mappings, key=lambda row: -int(row.split()[2]))[:3]  # by RSS
    out = clip(PMAP, 1000, counter).splitlines()
    for row in largest:
        assert row in out
