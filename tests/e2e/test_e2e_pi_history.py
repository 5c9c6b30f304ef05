"""pi with `headroom init pi --history`, end to end: the real CLI (0.73.1) against a scripted
model.

After K+2 tool calls the model's request holds the oldest results aged and the last K verbatim,
and an aged result is the same bytes at every later request (the prompt cache keeps hitting).
A `trim_tool_result` call replaces the latest result by the model's summary from the next
request on, and `headroom show` prints the original.
"""

from __future__ import annotations

import json
import re

import pytest

from harness import e2e_home, headroom, run_agent  # noqa: F401 - e2e_home is a fixture

pytestmark = pytest.mark.e2e

COMMANDS = [f"seq -f 'step {step}: line %g of a long build log' 1 1200" for step in range(1, 7)]


def test_pi_sends_old_results_aged_once_and_the_last_three_verbatim(e2e_home):
    work, env = e2e_home
    env["PI_CODING_AGENT_DIR"] = str(work / "pi-agent")
    installed = headroom("init", "pi", "--history", env=env)
    assert installed.returncode == 0, installed.stderr

    run = run_agent("pi", COMMANDS, work, env)
    requests = [json.loads(line)["tool_results"]
                for line in (work / "log.jsonl").read_text().splitlines()]
    last = requests[-1]
    assert len(last) == 6
    for step, item in enumerate(last[3:], 4):  # the last three, verbatim
        assert item["text"].startswith(f"step {step}: line 1 of a long build log\n")
        assert "headroom:" not in item["text"]
    for step, item in enumerate(last[:3], 1):  # the older ones, aged, with their stored copy
        assert item["text"].startswith(f"step {step}: line 1 of a long build log\n")
        assert len(item["text"]) < 2_000
        item_id = re.search(r"headroom(?:_cli)? show ([0-9a-f]{12})", item["text"]).group(1)
        shown = headroom("show", item_id, env=env)
        assert shown.stdout.decode().startswith(f"step {step}: line 1 of")
        assert shown.stdout.decode().count("\n") == 1200
    # Each result changes once: from the request it left the window on, the same bytes.
    for index in range(3):
        aged = [request[index]["text"] for request in requests
                if len(request) > index + 3]
        assert aged and all(text == aged[0] for text in aged)
    assert run.tool_results[0]["text"] == last[0]["text"]


SUMMARY = "the build log printed lines 1 to 1200 of step 9; nothing failed"
TRIM = "@tool trim_tool_result " + json.dumps({"summary": SUMMARY})


def test_a_trim_replaces_the_latest_result_from_the_next_request_on(e2e_home):
    work, env = e2e_home
    env["PI_CODING_AGENT_DIR"] = str(work / "pi-agent")
    assert headroom("init", "pi", "--history", env=env).returncode == 0
    log = "seq -f 'step 9: line %g of a long build log' 1 1200"

    run_agent("pi", [log, TRIM, "echo after the trim"], work, env)
    requests = [json.loads(line)["tool_results"]
                for line in (work / "log.jsonl").read_text().splitlines()]
    before = next(request for request in requests if len(request) == 1)
    assert before[0]["text"].startswith("step 9: line 1 of a long build log\n")
    assert before[0]["text"].count("\n") >= 1199  # verbatim until the trim
    later = [request for request in requests if len(request) >= 2]
    assert later and all(request[0]["text"] == later[0][0]["text"] for request in later)
    trimmed = later[0][0]["text"]
    assert trimmed.startswith(SUMMARY + "\n") and len(trimmed) < 600
    item_id = re.search(r"headroom(?:_cli)? show ([0-9a-f]{12})", trimmed).group(1)
    shown = headroom("show", item_id, env=env).stdout.decode()
    assert shown.startswith("step 9: line 1 of a long build log\n")
    assert shown.count("\n") == 1200
    assert later[-1][-1]["text"].strip() == "after the trim"
