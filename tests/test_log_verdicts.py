"""What a person debugging a log reads first when only 500-1000 tokens fit, on real outputs
(issue #22, logs at small budgets):

- where the error is: the line naming its source place, even past a test's diff (vitest's
  `❯ test/x.test.ts:36:20`) or down a crash's backtrace (gdb's first frame in a .c file);
- the run's verdicts: the failing summary that counts the most failures when a run has several
  (cargo test's per-binary `test result: FAILED.`), and verdict lines of tools the planner did
  not tell before (ninja's `build stopped`, pytest's `6 errors in 2.01s`, npm 10's
  `npm error`, `assertion failed`);
- why it failed before which targets failed: ninja's bare `FAILED: target` lines are one kind,
  so ten of them no longer crowd out the warning and the link error they follow from.

Every expected line is found in the input by what it says, never copied from the output.
"""

from __future__ import annotations

import re

import pytest

from conftest import GROWN_DIR, clip_log, corpus_case
from headroom_cli.planners.log.signals import ERROR, SUMMARY, classify_why


def test_a_failing_tests_place_past_its_diff_is_kept(counter):
    """vitest prints a failing test's report, its expected/received diff, then `❯ file:line:col`
    and the code frame: the place comes with the report at a quarter of the default budget."""
    lines, kept = clip_log("vitest-run-defu-array-order", 1000, counter)
    report = next(i for i, line in enumerate(lines) if line.startswith(" FAIL  "))
    place = next(line for line in lines[report:] if re.match(r" ❯ \S+:\d+:\d+$", line))
    assert lines[report] in kept
    assert place in kept


def test_a_crash_keeps_the_first_frame_naming_a_c_source(counter):
    """gdb's backtrace of a segfault: frame #0 is in libc's assembly; the first frame in a C
    source file (the caller with the null pointer) is kept at 500 tokens."""
    lines, kept = clip_log("gdb-batch-bt-cpython-ctypes-null", 500, counter)
    assert any(line.startswith("Program received signal SIGSEGV") for line in kept)
    frame = next(line for line in lines if re.match(r"#\d+ .* at \S+\.c:\d+$", line))
    assert frame in kept


@pytest.mark.parametrize("budget", [500, 1000])
def test_the_failing_verdict_counting_the_most_failures_is_kept(counter, budget):
    """cargo test --no-fail-fast: each test binary ends with its own `test result:` line; the
    failing one that counts the most failures is kept, not only the last (the doctests')."""
    lines, kept = clip_log("cargo-test-no-fail-fast-semver-prerelease-order", budget, counter)
    failing = [line for line in lines if line.startswith("test result: FAILED.")]
    assert len(failing) >= 2
    most = max(failing, key=lambda line: int(re.search(r"(\d+) failed", line).group(1)))
    assert most != failing[-1]
    assert most in kept


def test_bare_failed_targets_wait_behind_why_they_failed(counter):
    """`ninja -k 0` of a half-renamed static function: ten `FAILED: <program>` lines, each
    followed by the same link error. At 500 tokens the warning that names the cause, the link
    error with its caller and the verdict are kept; the FAILED lines are counted as one kind."""
    lines, kept = clip_log("ninja-k0-libyaml-half-renamed-stale-simple-keys", 500, counter)
    warning = next(line for line in lines if "used but never defined" in line)
    caller = next(line for line in lines if ": in function `" in line)
    undefined = next(line for line in lines if "undefined reference to" in line)
    verdict = next(line for line in reversed(lines) if line.strip())
    assert sum(line.startswith("FAILED: ") for line in lines) >= 10
    for line in (warning, caller, undefined, verdict):
        assert line in kept, line
    note = next(line for line in kept if line.startswith("[omitted errors by kind:"))
    assert "FAILED: ×" in note


def test_verdict_lines_of_more_tools_are_told():
    """Real lines the planner did not classify before: ninja's closing verdict, pytest -q's
    count of collection errors, npm 10's lowercase error records, an assertion that failed."""
    _, ninja = corpus_case(GROWN_DIR, "ninja-k0-libyaml-half-renamed-stale-simple-keys")
    stopped = next(line for line in ninja.splitlines() if line.startswith("ninja: build stopped"))
    assert classify_why(stopped, "")[0] == SUMMARY
    _, pytest_q = corpus_case(GROWN_DIR, "pytest-internalerror-dateutil-2.9-unknown-mark")
    counted = next(line for line in reversed(pytest_q.splitlines()) if line.strip())
    assert re.fullmatch(r"\d+ errors in [\d.]+s", counted)
    assert classify_why(counted, "")[0] == SUMMARY
    _, npm = corpus_case(GROWN_DIR, "npm-ls-json-all-npm-11-elsproblems")
    records = [line for line in npm.splitlines() if line.startswith("npm error ")]
    assert classify_why(records[0], "")[0] == SUMMARY  # npm error code ELSPROBLEMS
    assert any(classify_why(line, "")[0] == ERROR for line in records[1:])
    _, cargo = corpus_case(GROWN_DIR, "cargo-test-no-fail-fast-semver-prerelease-order")
    assertion = next(line for line in cargo.splitlines() if line.startswith("assertion failed"))
    assert classify_why(assertion, "")[0] == ERROR
