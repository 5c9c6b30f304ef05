"""Factory Droid, end to end: `headroom init droid`, then the real CLI (`droid exec --auto
high`) against a scripted Chat-Completions model given as a `customModels` entry of its
settings, on 127.0.0.1 inside `unshare -n`.

Droid hands the model a command's output followed by `[Process exited with code N]`; an
output over about 10 KB it cuts to its first ~5,700 characters and the path of a file holding
the rest; a failed command's result starts with "Error: Command failed (exit code: N)". With
the hook, the model gets headroom's clip — marker, traceback, last line and
exit status — and an output that fits is the command's own.
"""

from __future__ import annotations

import re

import pytest

from harness import e2e_home, run_agent, run_installed  # noqa: F401 - e2e_home is a fixture
from matrix import (COMMANDS, FAILING, FIFTY_THOUSAND, MARKER, check_matrix, check_repeat,
                    trailer_parser)

pytestmark = pytest.mark.e2e
SAVED = "Full command output saved to:"
# A failed command's result starts with "Error: Command failed (exit code: N)".
_RESULT = re.compile(r"\A(?:Error: Command failed \(exit code: \d+\)\n)?(.*?)\n{1,3}"
                     r"\[Process exited with code (\d+)\]\Z", re.S)

# Droid's shell result, without its trailer: the output and the exit status.
output_of = trailer_parser(_RESULT, "Droid")


def test_droid_matrix(e2e_home):
    work, env = e2e_home
    run = run_installed("droid", COMMANDS, work, env)
    check_matrix([output_of(result) for result in run.tool_results], SAVED)


def test_without_headroom_droid_keeps_only_the_head_of_a_failing_log(e2e_home):
    work, env = e2e_home
    run = run_agent("droid", [FAILING], work, env)
    output, status = output_of(run.tool_results[0])
    # Droid's own cut: the head, and a file the model must go and read
    assert status == 3 and SAVED in output
    assert "Traceback" not in output and not MARKER.search(output)


def test_droid_passes_its_session_so_an_output_is_not_sent_twice(e2e_home):
    work, env = e2e_home
    run = run_installed("droid", [FIFTY_THOUSAND, FIFTY_THOUSAND], work, env)
    check_repeat([output_of(result) for result in run.tool_results])
