"""The replay corpus (tests/replay/: agent sessions with real tool outputs, built by
bench/history_sessions.py): ageing meets issue #16's targets on it."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from headroom_cli.history import replay, tool_results

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = sorted((ROOT / "tests" / "replay").glob("*.json"))


def _bench():
    spec = importlib.util.spec_from_file_location("bench_history", ROOT / "bench" / "history.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_corpus_has_five_sessions_of_20_to_60_turns_with_needles_from_their_outputs(counter):
    assert len(SESSIONS) >= 5
    for path in SESSIONS:
        session = json.loads(path.read_text("utf-8"))
        turns = replay(session["messages"], counter=counter, shrink=lambda result: None).turns
        assert 20 <= len(turns) <= 60, path.name
        results = {result.call_id: result.text for result in tool_results(session["messages"])}
        assert set(session["needles"]) == set(results)
        for call_id, needles in session["needles"].items():
            assert all(needle in results[call_id] for needle in needles), call_id


def test_ageing_halves_the_sessions_input_and_keeps_far_more_needles_than_a_prefix(counter):
    bench = _bench()
    rows = [bench.measure(path, counter) for path in SESSIONS]
    baseline = sum(row.baseline for row in rows)
    assert sum(row.headroom for row in rows) <= 0.5 * baseline
    assert sum(row.kept_headroom for row in rows) >= 2.5 * sum(row.kept_prefix for row in rows)
    assert all(row.kept_prefix < row.kept_headroom for row in rows if row.needles >= 30)


@pytest.mark.parametrize("name, call", [("itsdangerous-history", "call_itsdangerous-history_12")])
def test_a_failing_test_run_that_quotes_source_is_aged_as_a_log(name, call, counter):
    session = json.loads((ROOT / "tests" / "replay" / f"{name}.json").read_text("utf-8"))
    aged = replay(session["messages"], counter=counter).aged
    text = next(r.text for r in tool_results(aged.messages) if r.call_id == call)
    assert "5 failed, 292 passed" in text
    assert "FAILED tests/test_itsdangerous/test_url_safe.py::TestURLSafeTimedSerializer" in text
    assert "outline of the omitted lines" not in text
