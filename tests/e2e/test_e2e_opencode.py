"""opencode, end to end: `headroom init opencode` (and `--history`), then the real CLI
(`opencode run`, 1.18.33) against a scripted OpenAI-compatible model, inside `unshare -n`.

Without headroom, opencode keeps the last lines of a long bash output and saves the rest to a
file: a failing run's traceback in the middle never reaches the model, nor does its exit status.
With the plugin the model gets headroom's clip of the whole output, with the marker.
"""

from __future__ import annotations

import json
import re

import pytest

from harness import e2e_home, headroom, run_agent  # noqa: F401 - e2e_home is a fixture
from matrix import (COMMANDS, COMPLEX_OUTPUT, FAILING, FITS_OUTPUT, check_failing,
                    check_fifty_thousand, check_hint_followed)

pytestmark = pytest.mark.e2e
SHOWN_ID = re.compile(r"headroom(?:_cli)? show ([0-9a-f]{12})")


def test_opencode_matrix(e2e_home):
    work, env = e2e_home
    installed = headroom("init", "opencode", env=env)
    assert installed.returncode == 0, installed.stderr
    run = run_agent("opencode", COMMANDS, work, env)
    big, hint, failing, fits, complex_ = [result["text"] for result in run.tool_results]

    check_fifty_thousand(big)
    assert "output truncated" not in big  # opencode did not cut headroom's output again
    check_hint_followed(hint, big)
    check_failing(failing)
    assert fits == FITS_OUTPUT
    assert complex_ == COMPLEX_OUTPUT


def test_without_headroom_opencode_keeps_only_the_tail(e2e_home):
    work, env = e2e_home
    run = run_agent("opencode", [FAILING], work, env)
    text = run.tool_results[0]["text"]
    assert "output truncated" in text and "Traceback" not in text
    assert "status 3" not in text
    # `headroom audit` reads the session opencode kept (its database): one output, its own cut
    audited = headroom("audit", "--all", "--json", "--agent", "opencode", env=env)
    assert audited.returncode == 0, audited.stderr
    (session,) = json.loads(audited.stdout)["sessions"]
    assert session["requests"] == 2
    assert (session["figures"]["outputs"], session["figures"]["agent_cut"]) == (1, 1)


COMMANDS_6 = [f"seq -f 'step {step}: line %g of a long build log' 1 1200" for step in range(1, 7)]


def test_opencode_sends_old_results_aged_once_and_the_last_three_verbatim(e2e_home):
    work, env = e2e_home
    installed = headroom("init", "opencode", "--history", env=env)
    assert installed.returncode == 0, installed.stderr

    run_agent("opencode", COMMANDS_6, work, env)
    requests = [json.loads(line)["tool_results"]
                for line in (work / "log.jsonl").read_text().splitlines()]
    last = requests[-1]
    assert len(last) == 6
    for step, item in enumerate(last[3:], 4):  # the last three, as opencode had them
        assert f"step {step}: line 1200 of a long build log" in item["text"]
        assert "headroom:" not in item["text"]
    for step, item in enumerate(last[:3], 1):  # the older ones, aged, with their stored copy
        assert item["text"].startswith(f"step {step}: line 1 of a long build log\n")
        assert len(item["text"]) < 2_000
        shown = headroom("show", SHOWN_ID.search(item["text"]).group(1), env=env)
        assert shown.stdout.decode().startswith(f"step {step}: line 1 of")
    # Each result changes once: from the request it left the window on, the same bytes.
    for index in range(3):
        aged = [request[index]["text"] for request in requests if len(request) > index + 3]
        assert aged and all(text == aged[0] for text in aged)
