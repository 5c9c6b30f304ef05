"""GitHub Copilot CLI, end to end: `headroom init copilot`, then the real CLI (`copilot -p`,
--allow-all-tools) against a scripted Chat-Completions model through its BYOK endpoint
(COPILOT_PROVIDER_BASE_URL), on 127.0.0.1 inside `unshare -n`.

Copilot hands the model a shell command's output followed by `<shellId: N completed with exit
code S>`; an output over about 20 KB it saves to a file instead, showing the model only its
first 500 characters and the file's path. With the hook, the model gets headroom's clip —
marker, traceback, last line and exit status — and an output that fits is the command's own.
"""

from __future__ import annotations

import json
import os
import re
import sys

import pytest

from harness import e2e_home, run_agent, run_installed  # noqa: F401 - e2e_home is a fixture
from matrix import (COMMANDS, FAILING, FIFTY_THOUSAND, MARKER, check_matrix, check_repeat,
                    trailer_parser)

pytestmark = pytest.mark.e2e
SAVED = "Output too large to read at once"
# Copilot checks every absolute path a command names, the program's too: a person answers its
# prompt for headroom's directory once ("allow"), or starts it with --add-dir. The matrix's
# `cd /usr` needs the same.
PATHS = ("--add-dir", os.path.dirname(sys.executable), "--add-dir", "/usr")
_RESULT = re.compile(r"\A(.*)\n<shellId: \d+ completed with exit code (\d+)>\Z", re.S)

# Copilot's shell result, without its trailer: the output and the exit status.
output_of = trailer_parser(_RESULT, "Copilot")


def test_copilot_matrix(e2e_home):
    work, env = e2e_home
    run = run_installed("copilot", COMMANDS, work, env, agent_args=PATHS)
    check_matrix([output_of(result) for result in run.tool_results], SAVED)


def test_without_headroom_copilot_shows_only_the_head_of_a_failing_log(e2e_home):
    work, env = e2e_home
    run = run_agent("copilot", [FAILING], work, env, agent_args=PATHS)
    output, status = output_of(run.tool_results[0])
    # Copilot's own handling of a long output: its head, and a file the model must go and read
    assert status == 3 and SAVED in output
    assert "Traceback" not in output and not MARKER.search(output)


def test_copilot_passes_its_session_so_an_output_is_not_sent_twice(e2e_home):
    work, env = e2e_home
    run = run_installed("copilot", [FIFTY_THOUSAND, FIFTY_THOUSAND], work, env,
                        agent_args=PATHS)
    check_repeat([output_of(result) for result in run.tool_results])


def test_copilot_runs_a_hook_with_a_matcher_only_for_that_tool(e2e_home):
    """headroom's hook says `"matcher": "bash"`: a hook of that shape, which notes each call,
    runs for the shell tool and not for Copilot's `view`."""
    work, env = e2e_home
    seen = work / "calls.jsonl"
    script = work / "note.sh"
    script.write_text(f"#!/bin/sh\ncat >> {seen}\necho >> {seen}\necho '{{}}'\n")
    script.chmod(0o755)
    hooks = work / "home" / ".copilot" / "hooks" / "note.json"
    hooks.parent.mkdir(parents=True)
    hooks.write_text(json.dumps({"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": str(script), "matcher": "bash", "timeoutSec": 30}]}}))
    (work / "proj").mkdir(exist_ok=True)
    (work / "proj" / "notes.txt").write_text("a file to view\n")
    view = "@tool view " + json.dumps({"path": str(work / "proj" / "notes.txt")})
    run = run_agent("copilot", [view, "echo via-bash"], work, env, agent_args=PATHS)
    assert "a file to view" in run.tool_results[0]["text"]
    calls = [json.loads(line) for line in seen.read_text().splitlines() if line.strip()]
    assert [call["toolName"] for call in calls] == ["bash"]
