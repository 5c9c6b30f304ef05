"""bench/ab.py: a saved run holds each case's recall and output digest; a comparison counts
what changed and names only tuning cases."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import ab  # noqa: E402

CORPUS = Path(__file__).parent / "corpus"
CASES = ("cat-google-auth-2.24-changelog-md", "strace-tt-t-psql-query-tcp-sslmode-prefer")


def _runs(recall: float, digest: str) -> dict:
    return {str(b): [recall, digest] for b in ab.BUDGETS}


def test_a_comparison_counts_changes_and_names_only_tuning_cases():
    before = {"tuning": {"a": _runs(0.5, "x"), "b": _runs(1.0, "y")},
              "sealed": {"s": _runs(0.5, "x")}}
    after = {"tuning": {"a": _runs(0.75, "z"), "b": _runs(1.0, "w")},
             "sealed": {"s": _runs(0.25, "z")}}
    lines = ab.compare(before, after, names=True)
    assert lines[0] == "tuning (2 cases in both)"
    assert "    500  0.7500 -> 0.8750  changed 2  up 1  down 0" in lines
    assert any(line.strip() == "+ a  0.50 -> 0.75" for line in lines)
    assert "    500  0.5000 -> 0.2500  changed 1  up 0  down 1" in lines
    assert not any(line.strip().startswith("- s") for line in lines)  # a sealed case: counted
    assert ab.compare(before, before, names=True)[1].endswith("changed 0  up 0  down 0")


def test_save_scores_this_tree_on_real_cases(tmp_path, capsys):
    tuning, sealed = tmp_path / "tuning", tmp_path / "sealed"
    for name in CASES:
        shutil.copytree(CORPUS / name, tuning / name)
    sealed.mkdir()
    out = tmp_path / "run.json"
    assert ab.main(["save", str(out), "--tuning", str(tuning), "--sealed", str(sealed),
                    "--jobs", "1"]) == 0
    saved = json.loads(out.read_text())
    assert sorted(saved["tuning"]) == sorted(CASES) and saved["sealed"] == {}
    for runs in saved["tuning"].values():
        assert set(runs) == {"500", "1000", "2000", "4000"}
        assert all(0 <= recall <= 1 and len(digest) == 16 for recall, digest in runs.values())
    # the same tree, saved again, gives the same outputs: nothing changed
    again = tmp_path / "again.json"
    ab.main(["save", str(again), "--tuning", str(tuning), "--sealed", str(sealed), "--jobs", "1"])
    capsys.readouterr()
    assert ab.main(["compare", str(out), str(again)]) == 0
    assert capsys.readouterr().out.count("changed 0  up 0  down 0") == 4
    assert ab.main(["compare", str(out), str(tmp_path / "missing.json")]) == 2
