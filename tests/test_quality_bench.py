"""bench/quality.py scores a clipper as its README says, and fails when a target fails.

Run with `--cmd` on real cases of tests/corpus, so no figure depends on headroom's planners.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
QUALITY = ROOT / "bench" / "quality.py"
SMALL = "go-build-pflag-return-values"  # 266 bytes: fits every budget
LARGE = "rg-heading-toolz-merge"  # 5.6 KB of search results: over 500 tokens


def _corpus(tmp_path: Path, *ids: str) -> Path:
    folder = tmp_path / "grown"
    for case in ids:
        shutil.copytree(ROOT / "tests" / "corpus" / case, folder / case)
    return folder


def _quality(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(QUALITY), *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_a_clipper_that_overshoots_the_budget_fails_the_fit_target(tmp_path):
    done = _quality("--grown", str(_corpus(tmp_path, SMALL, LARGE)),
                    "--shared", str(tmp_path / "absent"), "--cmd", "cat", "--budget", "500")
    assert done.returncode == 1, done.stderr
    assert "is missing: tests/corpus alone is judged" in done.stdout
    assert "FAIL  tests/corpus: budget fit 100% (every run, every budget): 1/2" in done.stdout
    # cat keeps everything: every needle and file is found
    assert "all         2    500   1.00  1.00    50" in done.stdout


def test_a_clipper_that_prints_nothing_keeps_no_needle(tmp_path):
    grown = _corpus(tmp_path, SMALL, LARGE)
    done = _quality("--grown", str(grown), "--shared", str(_corpus(tmp_path / "s", SMALL)),
                    "--cmd", "true", "--budget", "1000", "--markdown")
    assert done.returncode == 1, done.stderr
    assert "FAIL  tests/corpus: mean needle recall, all shapes, at 1000 >= 0.75: 0.000" in done.stdout
    assert "PASS  gap in mean recall at 1000 (shared minus grown, either way) < 0.05: +0.000" \
        in done.stdout
    # an empty output is a clipped run (it is not the input) using 0% of its budget
    assert "| all | 1000 | 0.00 / 0.00 / 100% / 2 of 2 | 0.00 / - / 100% / 1 of 1 | +0.00 |" in done.stdout
    assert "n/a   a failing pytest --tb=long log is sniffed as a log: not measured (--cmd)" in done.stdout


def test_a_gap_either_way_fails(tmp_path):
    """A clipper that keeps the shared cases' needles and loses the grown ones fails the gap,
    and so does the reverse: planners should do alike on outputs they were not tuned on."""
    small, large = _corpus(tmp_path / "a", SMALL), _corpus(tmp_path / "b", LARGE)
    # Loses every needle of the toolz search and none of the Go build's.
    drop_merge = "sed '/toolz/d;/merge/d'"
    for grown, shared, gap in [(small, large, "-1.000"), (large, small, "+1.000")]:
        done = _quality("--grown", str(grown), "--shared", str(shared), "--cmd", drop_merge,
                        "--budget", "1000")
        assert done.returncode == 1, done.stderr
        assert f"FAIL  gap in mean recall at 1000 (shared minus grown, either way) < 0.05: {gap}" \
            in done.stdout


def test_a_missing_corpus_is_one_line_on_stderr(tmp_path):
    done = _quality("--grown", str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "not a directory" in done.stderr
