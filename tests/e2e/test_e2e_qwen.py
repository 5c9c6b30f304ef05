"""Qwen Code, end to end: `headroom init qwen`, then the real CLI (`qwen -p`, yolo) against a
scripted Chat-Completions model (OPENAI_BASE_URL) on 127.0.0.1 inside `unshare -n`.

No hook of Qwen Code 0.24.4 can change a command or its output (the last test: a PreToolUse
`updatedInput` is ignored), so `init qwen` replaces its shell tool, run_shell_command, with a
discovered tool of the same name (tools.discoveryCommand / tools.callCommand) that runs the
command through headroom. Qwen Code's own tool gives the model `Command: …`, `Output: …` and
`Exit Code: N` lines, and cuts a long output itself; with headroom the model gets the clip —
marker, traceback, last line — then `Exit Code: N`, and an output that fits is the
command's own.

The hook-rewrite test's payload (captured from 0.24.4):

    {"session_id":"cc12e38f-…","transcript_path":"…/chats/cc12e38f-….jsonl","cwd":"…/proj",
     "hook_event_name":"PreToolUse","timestamp":"2026-11-26T19:34:21.150Z",
     "permission_mode":"yolo","prompt_id":"cc12e38f-…########0",
     "tool_name":"run_shell_command","tool_input":{"command":"echo hello-from-qwen"},
     "tool_use_id":"toolu_…","tool_call_id":"call_e2e_0"}

"""

from __future__ import annotations

import json
import re
import stat

import pytest

from harness import e2e_home, run_agent, run_installed  # noqa: F401 - e2e_home is a fixture
from matrix import COMMANDS, FAILING, MARKER, check_matrix, trailer_parser

pytestmark = pytest.mark.e2e
# headroom's tool: the (clipped) output, then `Exit Code: N`.
_OURS = re.compile(r"\A(.*?)\n{1,2}Exit Code: (\d+)\Z", re.S)
# Qwen Code's own cut of a result over 25,000 characters: its head and tail, and a file.
OWN_CUT = "Tool output was too large and has been truncated."
output_of = trailer_parser(_OURS, "Qwen Code (headroom's tool)")


def test_qwen_matrix(e2e_home):
    work, env = e2e_home
    run = run_installed("qwen", COMMANDS, work, env)
    check_matrix([output_of(result) for result in run.tool_results], OWN_CUT)


def test_without_headroom_qwen_cuts_a_failing_log_itself(e2e_home):
    work, env = e2e_home
    run = run_agent("qwen", [FAILING], work, env)
    text = run.tool_results[0]["text"]
    # Qwen Code's own tool ("Command: …", "Output: …", "Exit Code: 3"), cut by Qwen Code to a
    # head and a tail without saying how many lines went: the rest is in a file to go and read
    assert OWN_CUT in text and "\nOutput: " in text and "\nExit Code: 3\n" in text, text[:2000]
    assert "... [CONTENT TRUNCATED] ..." in text and not MARKER.search(text)
    assert text.count("collecting test") < 2000


REWRITE = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                  "updatedInput": {"command": "echo rewritten-by-the-hook"}}}


def test_qwen_runs_the_hook_but_not_its_rewrite(e2e_home):
    work, env = e2e_home
    seen = work / "payload.json"
    script = work / "rewrite.sh"
    script.write_text(f"#!/bin/sh\ncat > {seen}\nprintf '%s' '{json.dumps(REWRITE)}'\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    settings = work / "home" / ".qwen" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": str(script)}]}
    ]}}))
    run = run_agent("qwen", ["echo as-the-model-wrote-it"], work, env)
    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "PreToolUse"
    assert payload["tool_input"] == {"command": "echo as-the-model-wrote-it"}
    text = run.tool_results[0]["text"]
    assert "Output: as-the-model-wrote-it" in text and "rewritten" not in text
