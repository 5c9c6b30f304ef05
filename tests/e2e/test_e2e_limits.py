"""Past the agents' own limits: a 320 KB MCP result and a 2 MB shell output through Claude Code,
Codex, Gemini CLI, opencode and pi, each the pinned real CLI against the scripted model —
first as the agent gives them to the model by itself, then through headroom (`init AGENT` for
the shell, and for Claude Code's MCP results too; the MCP server behind `headroom mcp --`, the
proxy, for the others' MCP results).

The two outputs come from mcp_server.py: `dump_issues` (400 issues with their comments, an
indented JSON export of 325,540 bytes) and `build_log` (20,000 lines, 2,195,787 bytes: two
compiler errors in the middle, a summary on the last line), also printed by
`python3 mcp_server.py build_log` as the shell command.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from fake_model import TOOL_CALL
from harness import e2e_home, headroom, run_agent  # noqa: F401 - e2e_home is a fixture

pytestmark = pytest.mark.e2e
SERVER = Path(__file__).with_name("mcp_server.py")
BUILD = f"python3 {SERVER} build_log"
ERRORS = ("undefined symbol parse_7777", "undefined symbol parse_15001")
LAST = "build finished: 20000 steps, 2 errors"
HINT = re.compile(r"To retrieve: \S.*? show [0-9a-f]{12}")
# In Codex's read-only sandbox the store cannot be written: the hint is then a re-run.
RERUN_HINT = re.compile(r"To retrieve: re-run piped through sed -n")
PROXY = [sys.executable, "-m", "headroom_cli", "mcp"]


def check_build_clip(text: str, limit: int) -> None:
    """headroom's clip of the 2 MB build log: both errors, the last line, a retrieval hint,
    and under the agent's own cut."""
    assert all(error in text for error in ERRORS), text[:3000]
    assert LAST in text and (HINT.search(text) or RERUN_HINT.search(text)), text[-2000:]
    assert len(text) < limit


def check_export_clip(text: str, limit: int) -> None:
    """headroom's clip of the 320 KB export: the item count, the last issue, the hint."""
    assert "400 items" in text and '"PROJ-400"' in text, text[:3000]
    assert HINT.search(text) and len(text) < limit
    assert "PROJ-250" not in text  # the middle is in the store, not here


def lost_middle(text: str) -> bool:
    """The agent's own cut of the build log: the errors in its middle are gone."""
    return not any(error in text for error in ERRORS)


# --- Claude Code ----------------------------------------------------------------------------

CLAUDE_CUT = 30_000  # characters: over it a successful output is saved, the model gets 2 KB


def claude_run(work, env, allow: list[str], *agent_args: str) -> tuple[str, str]:
    """The shell and MCP results of Claude Code's run of BUILD and dump_issues (`allow`:
    settings.json's allow rules; init claude, if any, has run already)."""
    path = work / "home" / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    settings = json.loads(path.read_text()) if path.exists() else {}
    settings.setdefault("permissions", {}).setdefault("allow", []).extend(allow)
    path.write_text(json.dumps(settings))
    config = work / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"e2e": {
        "type": "stdio", "command": sys.executable, "args": [str(SERVER)]}}}))
    run = run_agent("claude", [BUILD, f"{TOOL_CALL}mcp__e2e__dump_issues {{}}"], work, env,
                    agent_args=("--mcp-config", str(config), *agent_args))
    shell, mcp = (result["text"] for result in run.tool_results)
    return shell, mcp


def test_claude_code_by_itself(e2e_home):
    work, env = e2e_home
    shell, mcp = claude_run(work, env, ["Bash", "mcp__e2e"])
    assert "<persisted-output>" in shell and "Preview (first 2KB)" in shell, shell[:500]
    assert lost_middle(shell) and LAST not in shell and len(shell) < 4_000
    assert "exceeds maximum allowed tokens. Output has been saved to" in mcp
    assert "in sequential chunks until 100% of the content has been read" in mcp


def test_claude_code_through_headroom(e2e_home):
    """`init claude` alone, in auto mode (Claude Code's default; the scripted model's check
    approves): the build log is clipped after the fact, the export from the file Claude Code
    saved it to."""
    work, env = e2e_home
    assert headroom("init", "claude", env=env).returncode == 0
    shell, mcp = claude_run(work, env, ["mcp__e2e"], "--permission-mode", "auto")
    assert "<persisted-output>" not in shell and "chunks" not in mcp
    check_build_clip(shell, CLAUDE_CUT)
    check_export_clip(mcp, CLAUDE_CUT)


# --- Codex ----------------------------------------------------------------------------------

def codex_mcp(work, command: list[str]) -> tuple[str, ...]:
    """The e2e MCP server for `codex exec`, its tools approved, started by `command`."""
    return ("-s", "read-only", "-c", f"mcp_servers.e2e.command={json.dumps(command[0])}",
            "-c", f"mcp_servers.e2e.args={json.dumps(command[1:])}",
            "-c", 'mcp_servers.e2e.default_tools_approval_mode="approve"')


CODEX_CUT = 10_000  # bytes, for a model without catalogue metadata (test_e2e_codex.py)
# exec_command returns after yield_time_ms (10 s by default) with what the command printed so
# far; the filter prints only at the end, and reading 2 MB on a busy machine can take longer.
CODEX_BUILD = f"{TOOL_CALL}exec_command " + json.dumps({"cmd": BUILD, "yield_time_ms": 60_000})


def test_codex_by_itself(e2e_home):
    work, env = e2e_home
    env["CODEX_HOME"] = str(work / "home" / ".codex")
    run = run_agent("codex", [BUILD, f"{TOOL_CALL}mcp__e2e/dump_issues {{}}"], work, env,
                    agent_args=codex_mcp(work, [sys.executable, str(SERVER)]))
    shell, mcp = (result["text"] for result in run.tool_results)
    for text in (shell, mcp):
        assert "truncated" in text and len(text.encode()) < 2 * CODEX_CUT, text[:2000]
    assert lost_middle(shell) and LAST in shell
    assert '"PROJ-1"' in mcp and '"PROJ-200"' not in mcp


def test_codex_through_headroom(e2e_home):
    work, env = e2e_home
    env["CODEX_HOME"] = str(work / "home" / ".codex")
    assert headroom("init", "codex", env=env).returncode == 0
    # Codex cuts an MCP result over its limit too: the proxy's budget stays under it
    proxy = [*PROXY, "--budget", "2000", "--", sys.executable, str(SERVER)]
    run = run_agent("codex", [CODEX_BUILD, f"{TOOL_CALL}mcp__e2e/dump_issues {{}}"], work, env,
                    agent_args=codex_mcp(work, proxy))
    shell, mcp = (result["text"] for result in run.tool_results)
    assert "truncated" not in shell and "truncated" not in mcp
    check_build_clip(shell, CODEX_CUT)
    check_export_clip(mcp, CODEX_CUT)


# --- Gemini CLI -----------------------------------------------------------------------------

GEMINI_APPROVAL = ("--approval-mode", "yolo")
GEMINI_CUT = 40_000  # characters (truncateToolOutputThreshold)


def gemini_settings(work, command: list[str]) -> Path:
    path = work / "home" / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcpServers": {"e2e": {"command": command[0],
                                                       "args": command[1:], "trust": True}}},
                               indent=2))
    return path


def test_gemini_by_itself(e2e_home):
    work, env = e2e_home
    gemini_settings(work, [sys.executable, str(SERVER)])
    run = run_agent("gemini", [BUILD, f"{TOOL_CALL}mcp_e2e_dump_issues {{}}"], work, env,
                    agent_args=GEMINI_APPROVAL)
    shell, mcp = (result["text"] for result in run.tool_results)
    for text in (shell, mcp):
        assert "characters omitted] ..." in text and "For full output see: " in text, text[:500]
        assert len(text) < GEMINI_CUT + 2_000
    assert lost_middle(shell) and LAST in shell
    assert '"PROJ-400"' in mcp and '"PROJ-1"' in mcp and '"PROJ-200"' not in mcp


def test_gemini_through_headroom(e2e_home):
    work, env = e2e_home
    settings = gemini_settings(work, [sys.executable, str(SERVER)])
    assert headroom("init", "gemini", env=env).returncode == 0
    done = headroom("init", "mcp", "--config", str(settings), env=env)
    assert done.returncode == 0, done.stderr
    run = run_agent("gemini", [BUILD, f"{TOOL_CALL}mcp_e2e_dump_issues {{}}"], work, env,
                    agent_args=GEMINI_APPROVAL)
    shell, mcp = (result["text"] for result in run.tool_results)
    assert "characters omitted]" not in shell + mcp
    check_build_clip(shell, GEMINI_CUT)
    check_export_clip(mcp, GEMINI_CUT)


# --- opencode -------------------------------------------------------------------------------

def opencode_config(work, env, command: list[str]) -> None:
    path = Path(env["XDG_CONFIG_HOME"]) / "opencode" / "opencode.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"mcp": {"e2e": {"type": "local", "command": command}}}))


def test_opencode_by_itself(e2e_home):
    work, env = e2e_home
    opencode_config(work, env, [sys.executable, str(SERVER)])
    run = run_agent("opencode", [BUILD, f"{TOOL_CALL}e2e_dump_issues {{}}"], work, env)
    shell, mcp = (result["text"] for result in run.tool_results)
    # opencode's own cut (2,000 lines or 50 KB), the whole saved in a file
    for text in (shell, mcp):
        assert "truncated" in text and "Full output saved to: " in text, text[-1000:]
        assert len(text) < 52_000
    assert lost_middle(shell)
    assert '"PROJ-1"' in mcp and '"PROJ-400"' not in mcp  # the first 50 KB only


def test_opencode_through_headroom(e2e_home):
    work, env = e2e_home
    opencode_config(work, env, [*PROXY, "--", sys.executable, str(SERVER)])
    assert headroom("init", "opencode", env=env).returncode == 0
    run = run_agent("opencode", [BUILD, f"{TOOL_CALL}e2e_dump_issues {{}}"], work, env)
    shell, mcp = (result["text"] for result in run.tool_results)
    check_build_clip(shell, 50_000)
    check_export_clip(mcp, 50_000)


# --- pi -------------------------------------------------------------------------------------

def test_pi_by_itself(e2e_home):
    work, env = e2e_home
    run = run_agent("pi", [BUILD], work, env)
    shell = run.tool_results[0]["text"]
    # pi's own cut: the last 2,000 lines or 50 KB, the whole saved in a file
    assert lost_middle(shell) and LAST in shell and "Full output: " in shell
    assert "module_1.c " not in shell and len(shell) < 52_000


def test_pi_through_headroom(e2e_home):
    work, env = e2e_home
    env["PI_CODING_AGENT_DIR"] = str(work / "pi-agent")  # where the driver points pi
    assert headroom("init", "pi", env=env).returncode == 0
    run = run_agent("pi", [BUILD], work, env)
    check_build_clip(run.tool_results[0]["text"], 50_000)
