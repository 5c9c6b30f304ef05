"""Gemini CLI, end to end: `headroom init gemini`, then the real CLI (`gemini -p`) against a
scripted Gemini-API model (streamGenerateContent with function calls) on 127.0.0.1.

Gemini CLI hands the model a shell command's output in a functionResponse ("Output: …", then
"Exit Code: N" when it failed), cut to its first and last parts when over 40,000 characters;
with the hook, that output is headroom's clip — marker, traceback, last line and exit status —
and an output that fits is the command's own.
"""

from __future__ import annotations

import re

import pytest

from harness import e2e_home, run_agent, run_installed  # noqa: F401 - e2e_home is a fixture
from matrix import (COMMANDS, COMPLEX_OUTPUT, FAILING, FIFTY_THOUSAND, FITS_OUTPUT, IDENTICAL,
                    check_failing, check_fifty_thousand, check_hint_followed)

pytestmark = pytest.mark.e2e
APPROVAL = ("--approval-mode", "yolo")  # -p runs unattended: nobody to confirm a command
_RESULT = re.compile(r"\AOutput: (.*?)(?:\nExit Code: (\d+))?(?:\nProcess Group PGID: \d+)?\Z",
                     re.S)


def output_of(result: dict) -> tuple[str, int]:
    """Gemini CLI's shell result, without its wrapping: the output and the exit status."""
    text = result["text"].split("<untrusted_context>\n", 1)[-1]
    text = text.split("\n</untrusted_context>", 1)[0]
    found = _RESULT.match(text)
    assert found, result["text"][:1000]
    return found.group(1), int(found.group(2) or 0)


def test_gemini_matrix(e2e_home):
    work, env = e2e_home
    run = run_installed("gemini", COMMANDS, work, env, agent_args=APPROVAL)
    (big, big_status), (hint, _), (failing, failing_status), (fits, _), \
        (complex_, complex_status) = [output_of(result) for result in run.tool_results]

    assert big_status == 0
    check_fifty_thousand(big)
    assert len(big) < 40_000 and "characters omitted] ..." not in big
    check_hint_followed(hint, big)

    assert failing_status == 3 and "characters omitted] ..." not in failing
    check_failing(failing)

    assert fits == FITS_OUTPUT
    assert (complex_, complex_status) == (COMPLEX_OUTPUT.rstrip("\n"), 4)


def test_without_headroom_gemini_cuts_the_middle_of_a_failing_log(e2e_home):
    work, env = e2e_home
    run = run_agent("gemini", [FAILING], work, env, agent_args=APPROVAL)
    output, status = output_of(run.tool_results[0])
    # Gemini CLI's own cut (over 40,000 characters): head and tail, the traceback lost
    assert status == 3 and "characters omitted] ..." in output
    assert "Traceback" not in output and "headroom" not in output


def test_gemini_passes_its_session_so_an_output_is_not_sent_twice(e2e_home):
    work, env = e2e_home
    run = run_installed("gemini", [FIFTY_THOUSAND, FIFTY_THOUSAND], work, env,
                        agent_args=APPROVAL)
    (first, _), (again, status) = [output_of(result) for result in run.tool_results]
    check_fifty_thousand(first)
    assert status == 0 and IDENTICAL.fullmatch(again), again
