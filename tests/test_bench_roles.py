"""bench/roles.py: a needle's line has a role among the lines of its form, read off real outputs;
the report counts per role and never opens a sealed folder's cases."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import roles  # noqa: E402

CORPUS = Path(__file__).parent / "corpus"


def _rows(case: str) -> list[str]:
    return (CORPUS / case / "output.txt").read_text(encoding="utf-8").split("\n")


def test_a_mapping_table_has_first_rows_extremes_and_lookups():
    # pmap -x: 25 `rw---   [ anon ]` mappings; the heap (line 8) is the first and largest,
    # the 12 MB arena of line 75 is one of the others, line 175 is the first of the two
    # smallest (8 kB), line 182 the second of them
    rows = _rows("pmap-x-python-bench-quality")
    found = roles.roles(rows)
    assert rows[1].startswith("Address") and found[1] == "alone"
    assert found[7] == "first" and found[74] == "lookup"
    assert found[174] == "extreme" and found[181] == "lookup"
    assert rows[193].startswith("total kB") and found[193] == "alone"


def test_a_document_read_with_line_numbers_is_prose_and_its_blank_lines_are_blank():
    rows = _rows("read-pyenv-readme-md")
    found = roles.roles(rows)
    assert rows[0].endswith("# Simple Python Version Management: pyenv")
    assert found[0] == "prose"
    assert rows[1].strip() == "2" and found[1] is None  # `     2<TAB>`, blank


def test_the_report_counts_every_needle_once_a_budget(tmp_path):
    folder = tmp_path / "corpus"
    shutil.copytree(CORPUS / "pmap-x-python-bench-quality", folder / "pmap")
    counts, misses = roles.measure(folder, (500, 4000), show_misses=True)
    for budget in (500, 4000):
        assert sum(n for (_, b), (_, n) in counts.items() if b == budget) == 5
    lost = sum(n - k for (_, b), (k, n) in counts.items() if b == 500)
    assert len([m for m in misses if m[0] == 500]) == lost
    lines = roles.report("pmap", counts, (500, 4000))
    assert lines[-1].startswith("lookups among the needles lost: ")


def test_misses_are_refused_for_a_sealed_folder(tmp_path, capsys):
    sealed = tmp_path / "sealed"
    sealed.mkdir()
    assert roles.main([str(sealed), "--misses"]) == 2
    assert "refused" in capsys.readouterr().err
