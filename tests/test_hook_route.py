"""`headroom hook AGENT` runs before every tool call of an agent (and `hook filter` after each
wrapped command), so with options that are all the app's and valid it skips the typer app: the
reply, status and error are the app's own, and typer is never imported. Timing is not asserted
(bench/ measures it); what loads is.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

PROBE = """
import sys
from headroom_cli.cli import main
sys.argv = ["headroom", *sys.argv[1:]]
try:
    main()
finally:
    sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules)))
"""


@pytest.fixture
def claude_env(tmp_path):
    """Claude Code's settings of its own, and a folder for the wrapped commands' outputs."""
    (tmp_path / "claude").mkdir()
    (tmp_path / "tmp").mkdir()
    return {"CLAUDE_CONFIG_DIR": str(tmp_path / "claude"), "TMPDIR": str(tmp_path / "tmp")}


def pre_tool_use(cwd, command: str, mode: str = "default") -> bytes:
    return json.dumps({"session_id": "s", "cwd": str(cwd), "permission_mode": mode,
                       "hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "tool_input": {"command": command, "description": "d"}}).encode()


def same_output_file(reply: bytes) -> bytes:
    # Each decision names a new output file for the wrapped command.
    return re.sub(rb"headroom-[A-Za-z0-9_]+\.out", b"headroom-X.out", reply)


@pytest.mark.parametrize("agent, command, mode", [
    ("claude", "git log --oneline -5", "default"),  # wrapped
    ("claude", "git log --oneline -5", "plan"),  # left as it is: empty reply
    ("claude-code", "ls -la", "bypassPermissions"),  # an alias
    ("nosuch", "ls", "default"),  # unknown agent: status 2 and one line
])
def test_a_bare_hook_replies_as_the_typer_app_does(run_cli, claude_env, tmp_path, agent,
                                                     command, mode):
    payload = pre_tool_use(tmp_path, command, mode)
    direct = run_cli(["hook", agent], payload, env=claude_env)
    through_app = run_cli(["hook", agent], payload, env=claude_env, via="app")
    assert (direct.exit_code, direct.stderr) == (through_app.exit_code, through_app.stderr)
    assert same_output_file(direct.stdout) == same_output_file(through_app.stdout)
    if mode == "default" and agent == "claude":
        assert b"hook filter" in direct.stdout  # the case that matters was really wrapped


def test_a_bare_hook_never_imports_typer(claude_env, tmp_path):
    done = subprocess.run([sys.executable, "-c", PROBE, "hook", "claude"],
                          input=pre_tool_use(tmp_path, "git status"), capture_output=True,
                          env={"PATH": "/usr/bin:/bin", **claude_env}, timeout=60)
    modules = done.stderr.decode().rpartition("MODULES ")[2].split()
    assert done.returncode == 0 and b"updatedInput" in done.stdout
    assert "typer" not in modules and "headroom_cli.cli.commands" not in modules


def modules_loaded(claude_env, args) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], input=b"out\n",
                          capture_output=True, env={"PATH": "/usr/bin:/bin", **claude_env},
                          timeout=60)
    return done.stderr.decode().rpartition("MODULES ")[2].split()


@pytest.mark.parametrize("args", [["hook", "filter"], ["hook", "claude", "--budget", "9"],
                                  ["hook", "filter", "--exit-status=2", "--no-store"]])
def test_valid_options_skip_the_typer_app_too(claude_env, args):
    assert "typer" not in modules_loaded(claude_env, args)


@pytest.mark.parametrize("args", [["hook", "--help"], ["hook", "claude", "--budget", "-9"],
                                  ["hook", "filter", "--bogus"], ["hook", "filter", "-h"]])
def test_help_and_bad_options_go_to_the_typer_app(claude_env, args):
    assert "typer" in modules_loaded(claude_env, args)
