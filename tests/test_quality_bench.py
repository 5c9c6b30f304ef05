"""bench/quality.py scores a clipper as its README says, and fails when a target fails.

Run with `--cmd` on real cases of tests/corpus, so no figure depends on headroom's planners. The
"sealed" folder of each run here is a copy of tuning cases: no test opens or names tests/sealed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
QUALITY = ROOT / "bench" / "quality.py"
SMALL = "go-build-pflag-return-values"  # 266 bytes: fits every budget
LARGE = "rg-heading-toolz-merge"  # 5.6 KB of search results: over 500 tokens
REPEATS = "cargo-build-semver-u32-mismatch"  # 3.8 KB, 106 lines of which 61 distinct


def _corpus(tmp_path: Path, *ids: str) -> Path:
    folder = tmp_path / "corpus"
    for case in ids:
        shutil.copytree(ROOT / "tests" / "corpus" / case, folder / case)
    return folder


def _quality(tuning: Path, sealed: Path, *args: str, shared: Path | None = None
             ) -> subprocess.CompletedProcess:
    shared = shared or tuning.parent / "absent"
    return subprocess.run([sys.executable, str(QUALITY), "--tuning", str(tuning), "--sealed",
                           str(sealed), "--shared", str(shared), *args],
                          capture_output=True, text=True, timeout=120, check=False)


def _needles(case: str) -> list[str]:
    meta = json.loads((ROOT / "tests" / "corpus" / case / "meta.json").read_text())
    return [n["text"] for n in meta["needles"]]


def test_a_clipper_that_overshoots_the_budget_fails_the_fit_target(tmp_path):
    done = _quality(_corpus(tmp_path / "t", SMALL, LARGE), _corpus(tmp_path / "s", SMALL),
                    "--cmd", "cat", "--budget", "500")
    assert done.returncode == 1, done.stderr
    assert "is missing: tuning and sealed alone are judged" in done.stdout
    # two tuning runs and one sealed run: the large search does not fit 500 tokens
    assert "FAIL  budget fit 100% (every run, every corpus, every budget): 2/3" in done.stdout
    # cat keeps everything: every needle and file is found
    assert "all         2    500   1.00  1.00    50" in done.stdout
    assert "PASS  |tuning - sealed| in ALL recall at 500 <= 0.05: +0.000" in done.stdout


def test_a_clipper_that_prints_nothing_fails_the_sealed_targets(tmp_path):
    tuning, sealed = _corpus(tmp_path / "t", SMALL, LARGE), _corpus(tmp_path / "s", SMALL)
    done = _quality(tuning, sealed, "--cmd", "true", "--budget", "1000", "--budget", "4000",
                    "--markdown", shared=_corpus(tmp_path / "sh", LARGE))
    assert done.returncode == 1, done.stderr
    assert "FAIL  sealed: ALL recall at 1000 >= 0.80: 0.000" in done.stdout
    assert "FAIL  sealed: ALL recall at 4000 >= 0.92: 0.000" in done.stdout
    assert "FAIL  sealed: log recall at 4000 >= 0.97: 0.000" in done.stdout
    # the sealed copy has no search or other case: those targets are not measured
    assert "n/a   sealed: search file cover at 4000 >= 0.95: -" in done.stdout
    assert "PASS  |tuning - sealed| in ALL recall at 4000 <= 0.05: +0.000" in done.stdout
    # an empty output is a clipped run (it is not the input) using 0% of its budget
    assert ("| all | 1000 | 0.00 / 0.00 / 100% / 2 of 2 | 0.00 / - / 100% / 1 of 1 "
            "| 0.00 / 0.00 / 100% / 1 of 1 | +0.00 |") in done.stdout
    assert "FAIL  no clipped run under 85% of its budget (but those leaving out only repeats): " \
           "8/8 (0 more" in done.stdout
    assert "n/a   a failing pytest --tb=long log is sniffed as a log (issue #14): not measured " \
           "(--cmd)" in done.stdout


def test_a_gap_either_way_fails_at_each_budget(tmp_path):
    """A clipper that keeps the sealed cases' needles and loses the tuning ones fails the gap,
    and so does the reverse: planners should do alike on outputs they were not tuned on."""
    small, large = _corpus(tmp_path / "a", SMALL), _corpus(tmp_path / "b", LARGE)
    # Loses every needle of the toolz search and none of the Go build's.
    drop_merge = "sed '/toolz/d;/merge/d'"
    for tuning, sealed, gap in [(small, large, "+1.000"), (large, small, "-1.000")]:
        done = _quality(tuning, sealed, "--cmd", drop_merge, "--budget", "500",
                        "--budget", "2000")
        assert done.returncode == 1, done.stderr
        for budget in (500, 2000):
            assert f"FAIL  |tuning - sealed| in ALL recall at {budget} <= 0.05: {gap}" \
                in done.stdout


def test_the_sealed_sets_misses_are_counted_never_listed_but_on_request(tmp_path):
    tuning, sealed = _corpus(tmp_path / "t", SMALL), _corpus(tmp_path / "s", LARGE)
    done = _quality(tuning, sealed, "--cmd", "true", "--budget", "1000", "--misses")
    assert f"tuning/{SMALL} @1000: recall 0.00" in done.stdout
    assert repr(_needles(SMALL)[0][:100]) in done.stdout
    assert "1 of 1 runs lost a needle or file" in done.stdout
    assert LARGE not in done.stdout
    assert not any(repr(n[:100]) in done.stdout for n in _needles(LARGE))

    done = _quality(tuning, sealed, "--cmd", "true", "--budget", "1000", "--sealed-misses")
    assert f"sealed/{LARGE} @1000: recall 0.00" in done.stdout
    assert f"tuning/{SMALL}" not in done.stdout  # --misses was not given


def test_a_clip_that_leaves_out_only_repeats_may_use_less_of_its_budget(tmp_path):
    tuning, sealed = _corpus(tmp_path / "t", REPEATS), _corpus(tmp_path / "s", REPEATS)
    dedupe = "awk '!seen[$0]++'"  # every distinct line kept, each once
    done = _quality(tuning, sealed, "--cmd", dedupe, "--budget", "4000")
    assert "PASS  no clipped run under 85% of its budget (but those leaving out only repeats): " \
           "0/2 (2 more under 85% left out only repeats of lines shown)" in done.stdout
    done = _quality(tuning, sealed, "--cmd", "head -n 3", "--budget", "4000")
    assert "FAIL  no clipped run under 85% of its budget (but those leaving out only repeats): " \
           "2/2 (0 more" in done.stdout


def test_a_missing_corpus_is_one_line_on_stderr(tmp_path):
    for tuning, sealed in [(tmp_path / "nowhere", _corpus(tmp_path, SMALL)),
                           (_corpus(tmp_path / "t", SMALL), tmp_path / "nowhere")]:
        done = _quality(tuning, sealed)
        assert done.returncode == 2
        assert done.stderr.strip().count("\n") == 0 and "not a directory" in done.stderr


def test_kind_scores_only_that_shape_s_cases(tmp_path):
    tuning, sealed = _corpus(tmp_path / "t", SMALL, LARGE), _corpus(tmp_path / "s", SMALL, LARGE)
    done = _quality(tuning, sealed, "--cmd", "cat", "--budget", "500", "--kind", "search")
    assert f"tuning ({tuning}): 1 cases" in done.stdout, done.stdout
    assert f"sealed ({sealed}): 1 cases" in done.stdout
    assert "\nlog " not in done.stdout  # the log case is left out, so no log row is printed
    assert "budget fit 100% (every run, every corpus, every budget): 0/2" in done.stdout


def test_shapes_only_prints_agreement_and_counts_per_corpus_without_runs(tmp_path):
    """--shapes-only sniffs and runs nothing: a log and a search of tuning, a copy of the log
    as the sealed set, each under its own kind; the sealed set's cases are counted, not named."""
    tuning, sealed = _corpus(tmp_path / "t", SMALL, LARGE), _corpus(tmp_path / "s", SMALL)
    done = _quality(tuning, sealed, "--shapes-only", "--cmd", "false")
    assert done.returncode == 0, done.stderr
    assert "agrees with the case's kind on 3 of 3 cases" in done.stdout
    assert "  tuning: log->log 1, search->search 1\n" in done.stdout
    assert "  sealed: log->log 1\n" in done.stdout
    assert "recall" not in done.stdout  # no run, no figures


def test_recall_is_grouped_by_the_shape_sniffed_and_small_groups_are_pooled(tmp_path):
    """Per corpus, mean recall by the shape headroom sniffs; a shape of fewer than three cases
    is pooled as (rest), so no sealed case's own figures show. `cat` keeps every needle,
    `true` none."""
    searches = ["rg-heading-toolz-merge", "git-grep-cjson-parse", "grep-rn-cpython-def-visit"]
    tuning = _corpus(tmp_path / "t", SMALL, *searches)
    sealed = _corpus(tmp_path / "s", SMALL, LARGE)
    done = _quality(tuning, sealed, "--cmd", "cat", "--budget", "500")
    rows = [line.split() for line in done.stdout.split("recall by the shape")[1].splitlines()[2:]]
    assert ["tuning", "search", "3", "1.00"] in rows
    assert ["tuning", "(rest)", "1", "1.00"] in rows
    assert ["sealed", "(rest)", "2", "1.00"] in rows
    assert not any(row[:2] == ["sealed", "search"] for row in rows)
    done = _quality(tuning, sealed, "--cmd", "true", "--budget", "500")
    assert "tuning  search        3   0.00" in done.stdout
