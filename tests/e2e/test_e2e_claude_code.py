"""Claude Code, end to end: `headroom init claude`, then the real CLI against a scripted model.

The model asks for a command that prints a long build log and fails. Without headroom, Claude
Code would hand the model the first and last 5,000 characters of it; with the hook, the model
gets headroom's clip — the end of the log, the marker with the exit status — and Claude Code's
own "Exit code 1". A later command shows that a `cd` in a wrapped command still moves Claude
Code's shell, and the marker's `headroom show` gets the omitted lines back.
"""

from __future__ import annotations

import json
import re

import pytest

from harness import e2e_home, headroom, run_agent  # noqa: F401 - e2e_home is a fixture

pytestmark = pytest.mark.e2e

FAILING_LOG = ('mkdir -p sub && for i in $(seq 1 3000); do echo "line $i of a long build log"; '
               'done; echo "error: the build FAILED at the end" >&2; false')


def test_claude_code_gets_headrooms_clip_with_the_exit_status(e2e_home):
    work, env = e2e_home
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    # Bash is allowed without asking, as in a typical unattended setup; the hook wraps only
    # what Claude Code would run unasked.
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash"]}}))
    installed = headroom("init", "claude", env=env)
    assert installed.returncode == 0, installed.stderr

    run = run_agent("claude", [FAILING_LOG, "cd sub && seq 1 30000", "pwd"], work, env)
    failing, success, pwd = run.tool_results

    assert failing["is_error"] is True
    text = failing["text"]
    assert text.startswith("Exit code 1\n")
    assert "The command exited with status 1." in text
    assert text.rstrip().endswith("error: the build FAILED at the end")
    assert "characters truncated" not in text and len(text) < 11_000

    assert success["is_error"] is False
    assert "headroom:" in success["text"] and "<persisted-output>" not in success["text"]
    assert len(success["text"].encode()) < 30_000
    assert pwd["text"].strip().endswith("/proj/sub")  # the cd in the wrapped command persisted

    marker = re.search(r"headroom show ([0-9a-f]{12}) --lines (\d+):(\d+)", text)
    shown = headroom("show", marker.group(1), "--lines", "3001:3001", env=env)
    assert shown.stdout == b"error: the build FAILED at the end\n"


def test_without_headroom_claude_code_cuts_the_end_of_a_failing_log(e2e_home):
    work, env = e2e_home
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash"]}}))
    run = run_agent("claude", [FAILING_LOG], work, env)
    text = run.tool_results[0]["text"]
    assert "characters truncated" in text and "headroom" not in text


def test_headroom_grants_no_permission_claude_code_would_not(e2e_home):
    """Default mode, no allow rules: a read-only command is clipped; a command Claude Code
    asks about is left to Claude Code (which, with nobody to ask, refuses it); a deny rule
    given on the command line — invisible to hooks — still applies to a wrapped command."""
    work, env = e2e_home
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    assert headroom("init", "claude", env=env).returncode == 0
    run = run_agent("claude", ["seq 1 30000", "touch made-by-the-agent", "cat nothing.txt"],
                    work, env, agent_args=("--disallowedTools", "Bash(cat:*)"))
    read_only, touch, cat = run.tool_results
    assert "headroom:" in read_only["text"] and read_only["is_error"] is False
    assert touch["is_error"] is True and not (work / "proj" / "made-by-the-agent").exists()
    assert "needs approval" in touch["text"] and "hook filter" not in touch["text"]
    assert cat["is_error"] is True and "denied" in cat["text"]
