"""Outputs of real agent sessions (../shared/sessions: public trajectories, read by that
folder's own extract.py), clipped where the agent's next step shows what it needed.

Measured with ../shared/eval/session_replay.py (400 steps, seed 1): used-next recall at 1000
tokens 0.814 → 0.826 with the bare-verdict kinds below."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from headroom_cli.api import compress

SESSIONS = Path(__file__).resolve().parents[2] / "shared" / "sessions"
REQUESTS = (SESSIONS / "raw" / "gruckion-mini-swe-agent-gemini3pro" / "trajs"
            / "psf__requests-5414" / "psf__requests-5414.traj.json")

pytestmark = pytest.mark.skipif(not REQUESTS.is_file(),
                                reason="../shared/sessions is not beside the checkout")


def _steps(path: Path) -> list[dict]:
    spec = importlib.util.spec_from_file_location("sessions_extract", SESSIONS / "extract.py")
    extract = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extract)
    return extract.load(str(path))[1][0]


def test_a_short_summary_of_bare_verdicts_waits_behind_the_report_that_says_why(counter):
    """`pytest tests/test_requests.py` with 158 setup errors: each `ERROR tests/…::test_x`
    of the short summary named its own test, so each was a kind of its own, rarer than the one
    error all 158 share, and at 1000 tokens the summary lines filled the clip while every
    report's body was omitted. A failure word and one name (pytest's `ERROR path::test`, go's
    `--- FAIL: TestX (0.01s)`, ninja's `FAILED: target`) is one kind: its first and last come
    early, the others wait. The agent's next step quoted the fixture error."""
    step = next(s for s in _steps(REQUESTS) if s["command"] == "pytest tests/test_requests.py")
    out = compress(step["output"], tool="Bash", budget=1000, counter=counter).text
    assert "E       recursive dependency involving fixture 'httpbin' detected" in out
    assert counter.count(out) <= 1000
