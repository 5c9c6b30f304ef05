"""Session memory, planned: what changed since the previous run (read from real test runs),
identical outputs, the state's bounds and its file. The runs as processes: test_session_cli.py."""

from __future__ import annotations

import json
import os

import pytest
from session_runs import SINCE_LINE, edit_tests, pytest_output, unittest_output, write_tests

from headroom_cli import session
from headroom_cli.clean import clean
from headroom_cli.family import command_key, family_of, label_of
from headroom_cli.planners.log.failures import compare, read
from headroom_cli.session import (Decision, Delivered, Observed, Record, SessionError, Sessions,
                                  State, decide, identical_line, since_line)
from headroom_cli.tokens import EstimateCounter
from headroom_cli.tools import lookup


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Real pytest output before and after the edit, and a real unittest output."""
    folder = tmp_path_factory.mktemp("runs")
    write_tests(folder)
    before = pytest_output(folder)
    edit_tests(folder)
    return before, pytest_output(folder), unittest_output(folder)


def _reading(data: bytes):
    return read(clean(data.decode()))


def test_a_pytest_run_is_read_as_its_failing_tests_and_summary(runs):
    failures = _reading(runs[0]).failures
    assert failures.names == ("test_x.py::test_sum_small", "test_x.py::test_sum_large",
                              "test_x.py::test_words", "test_x.py::test_mapping")
    assert failures.summary == "4 failed, 1 passed" and failures.by_test


def test_a_unittest_run_is_read_as_its_failing_tests(runs):
    failures = _reading(runs[2]).failures
    assert failures.names == ("test_numbers.Numbers.test_one", "test_numbers.Numbers.test_two")
    assert failures.summary == "FAILED (failures=2)"


def test_the_edit_fixes_one_failure_adds_one_and_keeps_three(runs):
    changes = compare(_reading(runs[0]).failures, _reading(runs[1]).failures)
    assert changes.fixed == ("test_x.py::test_sum_small",)
    assert changes.new == ("test_x.py::test_fine",)
    assert (changes.fixed_count, changes.new_count, changes.unchanged) == (1, 1, 3)


def test_the_since_line_says_so_exactly(runs):
    before, after = _reading(runs[0]), _reading(runs[1])
    previous = Record(1, "pytest", before.failures.names, before.failures.summary)
    assert since_line(previous, after) == SINCE_LINE


def test_the_new_failure_s_report_is_what_the_clip_keeps_first(runs):
    """Its error lines (the `E` lines and the location under its heading, its FAILED lines)."""
    after = _reading(runs[1])
    text = clean(runs[1].decode()).split("\n")
    lines = [text[i] for i in sorted(after.lines_of["test_x.py::test_fine"])]
    assert any(line.startswith("FAILED test_x.py::test_fine") for line in lines)
    assert any(line.startswith("test_x.py:") and "AssertionError" in line for line in lines)
    assert not any("test_sum_large" in line or "4951" in line for line in lines)


def test_error_lines_are_named_without_what_moves_between_runs():
    from headroom_cli.planners.log.failures import error_name

    assert error_name("src/a.c:12:5: error: 'x' undeclared") == \
        error_name("src/a.c:15:5: error: 'x' undeclared") == "src/a.c: error: 'x' undeclared"
    assert error_name("src/a.ts(3,9): error TS2322: no") == "src/a.ts: error TS2322: no"
    assert error_name("2024-05-01T10:00:01Z ERROR db at 0x7f3a down") == \
        error_name("2024-05-02T11:30:00Z ERROR db at 0x7f3b down")


def test_nothing_failing_either_time_and_the_same_summary_says_nothing(runs):
    passing = _reading(runs[0])._replace(
        failures=_reading(runs[0]).failures._replace(names=()))
    assert since_line(Record(4, None, (), passing.failures.summary), passing) is None


# --- deciding a call ------------------------------------------------------------------------

def _seen(identity=None, command="k1", reading=None, content="aaaaaaaaaaaa"):
    return Observed(content, command, "make test", identity, reading)


def test_calls_are_numbered_and_each_command_remembers_its_latest_run():
    state, first = decide(State(), _seen(), True, lambda _: True)
    state, second = decide(state, _seen(command="k2"), True, lambda _: True)
    assert (first.call, second.call, state.calls) == (1, 2, 2)
    assert list(state.commands) == ["k1", "k2"] and state.commands["k1"].failures is None


def test_a_re_run_is_compared_only_when_both_runs_are_logs(runs):
    log = _reading(runs[0])
    state, first = decide(State(), _seen(reading=log), True, lambda _: True)
    assert first.previous is None
    _, again = decide(state, _seen(reading=_reading(runs[1])), True, lambda _: True)
    assert again.previous == Record(1, "make test", log.failures.names, "4 failed, 1 passed")
    _, off = decide(state, _seen(reading=_reading(runs[1])), False, lambda _: True)
    assert off.previous is None
    state, not_log = decide(state, _seen(), True, lambda _: True)
    _, after = decide(state, _seen(reading=log), True, lambda _: True)
    assert after.previous is None  # the previous run printed no log


def test_an_output_is_identical_only_while_the_store_still_has_it():
    state, first = decide(State(), _seen(identity="i1"), True, lambda _: True)
    assert first.identical is None
    _, kept = decide(state, _seen(identity="i1", command="k9"), True, lambda _: True)
    assert kept.identical == Delivered(1, "make test", "aaaaaaaaaaaa")
    state, pruned = decide(state, _seen(identity="i1"), True, lambda _: False)
    assert pruned.identical is None and state.outputs["i1"].call == 2  # delivered anew


def test_the_state_is_bounded_keeping_the_most_recent(monkeypatch):
    monkeypatch.setattr(session, "MAX_COMMANDS", 3)
    state = State()
    for number in range(5):
        state, _ = decide(state, _seen(command=f"k{number}"), True, lambda _: True)
    state, _ = decide(state, _seen(command="k2"), True, lambda _: True)
    assert list(state.commands) == ["k3", "k4", "k2"]


def test_the_identical_line_names_the_call_the_status_and_the_way_back():
    earlier = Delivered(3, "pytest -q", "3f2a9c1b7d4e")
    assert identical_line(earlier, True, 1) == (
        "[headroom: identical to the output of call 3 of this session (`pytest -q`): nothing "
        "changed. The command exited with status 1. To see it again: headroom show "
        "3f2a9c1b7d4e]")
    assert "nothing changed but the run times." in identical_line(earlier, False, None)


def test_observing_an_output_counts_it_against_the_threshold_and_reads_a_log(runs):
    counter, tool = EstimateCounter(), lookup("Bash")
    text = runs[0].decode()
    big = session.observe(runs[0], text, tool=tool, kind="auto", command="pytest", cwd="/p",
                          dedup_over=500, since=True, counter=counter)
    assert big.identity.startswith("log-") and big.reading.failures.by_test
    assert big.command == command_key("pytest", "/p") != command_key("pytest", "/q")
    small = session.observe(runs[0], text, tool=tool, kind="auto", command=None, cwd=None,
                            dedup_over=len(text), since=True, counter=counter)
    assert small.identity is None and small.reading is None  # under the threshold, no command
    plain = session.observe(b"x" * 4000, "x" * 4000, tool=tool, kind="auto", command=None,
                            cwd=None, dedup_over=500, since=True, counter=counter)
    assert plain.identity == plain.content_id and plain.reading is None


def test_two_runs_that_differ_only_in_their_run_times_share_an_identity(runs):
    """(The same run, its summary's duration changed as a slower machine would print it.)"""
    import re

    counter, tool = EstimateCounter(), lookup("Bash")
    text = runs[1].decode()
    slower = re.sub(r"(passed in )\d+\.\d+s", r"\g<1>12.34s", text)
    assert slower != text
    first, second = (session.observe(t.encode(), t, tool=tool, kind="auto", command="pytest",
                                     cwd="/p", dedup_over=500, since=True, counter=counter)
                     for t in (text, slower))
    assert first.identity == second.identity


# --- the state on disk ----------------------------------------------------------------------

def test_the_state_file_is_private_and_round_trips(tmp_path):
    sessions = Sessions(str(tmp_path / "store"))
    change = lambda state: decide(state, _seen(identity="i1"), True, lambda _: True)  # noqa
    decision, warning = sessions.update("agent session 1", change)
    assert decision == Decision(1) and warning is None
    assert sessions.read("agent session 1").outputs["i1"] == Delivered(1, "make test",
                                                                       "aaaaaaaaaaaa")
    folder = tmp_path / "store" / "sessions"
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    assert {oct(p.stat().st_mode & 0o777) for p in folder.iterdir()} == {"0o600"}
    data = json.loads(next(folder.glob("*.json")).read_text())
    assert data["session"] == "agent session 1" and data["calls"] == 1


def test_a_damaged_state_starts_afresh_and_says_so(tmp_path):
    sessions = Sessions(str(tmp_path))
    sessions.update("s", lambda state: decide(state, _seen(), True, lambda _: True))
    next((tmp_path / "sessions").glob("*.json")).write_text("{not json")
    decision, warning = sessions.update("s", lambda state: decide(state, _seen(), True,
                                                                   lambda _: True))
    assert decision.call == 1 and "damaged" in warning


def test_a_state_folder_that_cannot_be_made_is_a_session_error(tmp_path):
    (tmp_path / "sessions").write_text("a file where the folder should be")
    with pytest.raises(SessionError, match="cannot keep session state"):
        Sessions(str(tmp_path)).update("s", lambda state: (state, None))


def test_the_store_prunes_idle_sessions_with_its_age_cap(tmp_path):
    from headroom_cli.store import Retention, Store

    sessions = Sessions(str(tmp_path))
    for key in ("old", "new"):
        sessions.update(key, lambda state: decide(state, _seen(), True, lambda _: True))
    old = tmp_path / "sessions" / (session.file_name("old") + ".json")
    os.utime(old, (1000.0, 1000.0))
    Store(tmp_path).prune(Retention(max_age_days=1), now=1000.0 + 2 * 86400)
    names = sorted(p.name for p in (tmp_path / "sessions").iterdir())
    assert names == sorted(session.file_name("new") + suffix for suffix in (".json", ".lock"))


# --- families -------------------------------------------------------------------------------

@pytest.mark.parametrize("command, family", [
    ("cd app && python -m pytest -x tests/", "pytest"),
    ("git -C repo diff --stat", "git diff"),
    ("FOO=1 npm run build 2>&1 | tail -20", "npm run"),
    (".venv/bin/pytest -q", "pytest"),
    ("bash -c 'make -j4 test'", "make"),
    ("uv run pytest", "pytest"),
    ("timeout 60 cargo test --release", "cargo test"),
    ("/usr/local/bin/headroom show 3f2a9c1b7d4e --lines 1:9", "headroom show"),
    ("/venv/bin/python -m headroom_cli show 3f2a9c1b7d4e", "headroom show"),
    ("python3 -m pip install -e .", "pip install"),
    ("echo hi", "echo"),
    ("'unclosed", None),
])
def test_a_command_s_family(command, family):
    assert family_of(command) == family


def test_a_label_is_the_first_line_bounded():
    assert label_of("pytest -q\n# second line") == "pytest -q…"
    assert len(label_of("x" * 500)) == 80


# --- stats per session and per family (usage.py) --------------------------------------------

def test_reruns_count_within_the_window_and_shows_go_to_the_latest_clip():
    from headroom_cli.ledger import Call
    from headroom_cli.usage import report

    def call(at, number, command, store=None, saved=0, clipped=False):
        return Call(session="s", call=number, family="make", command=command, budget=4000,
                    input_tokens=100 + saved, output_tokens=100, clipped=clipped,
                    store_id=store).values(float(at))

    calls = [call(1, 1, "a", "id1", 50, True), call(2, 2, "b"), call(3, 3, "a"),
             call(4, 9, "a", "id1", 10, True), call(5, 15, "a")]
    runs = [(3.5, "show", None, None, None, None, 0, "id1"),  # -> call 1
            (4.5, "show", None, None, None, None, 0, "id1"),  # -> call 9
            (4.6, "show", None, None, None, None, 0, "id9")]  # no clip stored it
    figures = report(runs, calls, window=5, share=0.3, session="s")["totals"]
    assert figures["reruns"] == 1  # call 3 (2 after call 1); 9 is 6 after 3, 15 is 6 after 9
    assert figures["retrievals"] == 2 and figures["retrievals_per_clip"] == 1.0
    assert figures["cumulative_saved_tokens"] == 50 * 15 + 10 * 7
