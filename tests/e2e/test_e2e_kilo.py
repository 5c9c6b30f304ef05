"""Kilo CLI, end to end: `headroom init kilo`, then the real CLI (`kilo run`, 7.7.7) against a
scripted OpenAI-compatible model, inside `unshare -n`. Kilo is opencode's fork: without
headroom it keeps the last lines of a long bash output (the traceback in the middle of a
failing log and its exit status never reach the model); with the plugin the model gets
headroom's clip of the whole output, with the marker."""

from __future__ import annotations

import json

import pytest

from harness import e2e_home, headroom, run_agent  # noqa: F401 - e2e_home is a fixture
from matrix import (COMMANDS, COMPLEX_OUTPUT, FAILING, FITS_OUTPUT, check_failing,
                    check_fifty_thousand, check_hint_followed)

pytestmark = pytest.mark.e2e


def test_kilo_matrix(e2e_home):
    work, env = e2e_home
    installed = headroom("init", "kilo", env=env)
    assert installed.returncode == 0, installed.stderr
    assert (work / "home" / ".config" / "kilo" / "plugins" / "headroom.js").exists()
    run = run_agent("kilo", COMMANDS, work, env)
    big, hint, failing, fits, complex_ = [result["text"] for result in run.tool_results]

    check_fifty_thousand(big)
    assert "output truncated" not in big.lower()  # Kilo did not cut headroom's output again
    check_hint_followed(hint, big)
    check_failing(failing)
    assert fits == FITS_OUTPUT
    assert complex_ == COMPLEX_OUTPUT


def test_without_headroom_kilo_keeps_only_the_tail(e2e_home):
    work, env = e2e_home
    run = run_agent("kilo", [FAILING], work, env)
    text = run.tool_results[0]["text"]
    assert "Traceback" not in text and "status 3" not in text
    # `headroom audit` reads the session Kilo kept (opencode's database format), its own cut
    audited = headroom("audit", "--all", "--json", "--agent", "kilo", env=env)
    assert audited.returncode == 0, audited.stderr
    (session,) = json.loads(audited.stdout)["sessions"]
    assert (session["agent"], session["requests"]) == ("kilo", 2)
    assert (session["figures"]["outputs"], session["figures"]["agent_cut"]) == (1, 1)
