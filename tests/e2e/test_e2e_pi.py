"""pi, end to end: `headroom init pi`, then the real CLI against a scripted model.

pi alone keeps the last 2,000 lines / 50 KB of a command's output; with the extension, the
model gets headroom's clip of the whole output (head included), the marker with the exit
status, and pi's own "Command exited with code 1".
"""

from __future__ import annotations

import pytest

from harness import e2e_home, headroom, run_agent  # noqa: F401 - e2e_home is a fixture
from matrix import (COMMANDS, COMPLEX_OUTPUT, FITS_OUTPUT, IDENTICAL, check_failing,
                    check_fifty_thousand, check_hint_followed)

pytestmark = pytest.mark.e2e

FAILING_LOG = ('for i in $(seq 1 3000); do echo "line $i of a long build log"; done; '
               'echo "error: the build FAILED at the end" >&2; false')


def test_pi_gets_headrooms_clip_with_the_exit_status(e2e_home):
    work, env = e2e_home
    env["PI_CODING_AGENT_DIR"] = str(work / "pi-agent")
    installed = headroom("init", "pi", env=env)
    assert installed.returncode == 0, installed.stderr
    assert (work / "pi-agent" / "extensions" / "headroom.ts").is_file()

    run = run_agent("pi", [FAILING_LOG, "seq 1 30000"], work, env)
    failing, success = run.tool_results

    text = failing["text"]
    assert text.startswith("line 1 of a long build log\n")  # pi alone would start at 1,002
    assert "The command exited with status 1." in text
    assert "error: the build FAILED at the end" in text
    assert text.rstrip().endswith("Command exited with code 1")
    assert "Full output:" not in text and len(text) < 30_000

    assert success["text"].startswith("1\n2\n3\n") and "headroom:" in success["text"]


def test_pi_matrix(e2e_home):
    work, env = e2e_home
    env["PI_CODING_AGENT_DIR"] = str(work / "pi-agent")
    assert headroom("init", "pi", env=env).returncode == 0
    run = run_agent("pi", COMMANDS, work, env)
    big, hint, failing, fits, complex_ = [result["text"] for result in run.tool_results]

    check_fifty_thousand(big)
    assert "Full output:" not in big
    check_hint_followed(hint, big)
    # pi closes a failed command's result with its own status line, kept after the clip.
    assert failing.rstrip().endswith("Command exited with code 3")
    check_failing(failing.rstrip().removesuffix("Command exited with code 3"))
    assert fits == FITS_OUTPUT
    assert complex_ == COMPLEX_OUTPUT + "\n\nCommand exited with code 4"


def test_without_headroom_pi_keeps_only_the_tail(e2e_home):
    work, env = e2e_home
    run = run_agent("pi", ["seq 1 30000"], work, env)
    text = run.tool_results[0]["text"]
    assert not text.startswith("1\n") and "Full output:" in text


def test_pi_passes_its_session_so_an_output_is_not_sent_twice(e2e_home):
    """The extension's ctx.sessionManager.getSessionId() reaches headroom."""
    work, env = e2e_home
    env["PI_CODING_AGENT_DIR"] = str(work / "pi-agent")
    assert headroom("init", "pi", env=env).returncode == 0
    run = run_agent("pi", ["seq 1 30000", "seq 1 30000"], work, env)
    first, again = (result["text"] for result in run.tool_results)
    assert first.startswith("1\n2\n3\n") and "headroom:" in first
    assert IDENTICAL.fullmatch(again), again
