"""The Claude Agent SDK hooks (headroom_cli/integrations/claude_sdk.py) in a real harness: the
SDK's bundled Claude Code CLI against the scripted model, in a network namespace. A large
output — of Bash (PreToolUse wraps it) or of an MCP tool (PostToolUse's updatedMCPToolOutput)
— reaches the model clipped with a working hint; one that fits, byte-identical."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from harness import e2e_home, run_agent  # noqa: F401 - e2e_home is a fixture
from test_e2e_claude_code import MCP_CALLS, check_mcp_clip, mcp_script, write_mcp_config

pytestmark = pytest.mark.e2e
pytest.importorskip("claude_agent_sdk", reason="needs the claude-sdk extra")


def test_a_large_output_reaches_the_model_clipped_and_a_small_one_whole(e2e_home):
    work, env = e2e_home
    run = run_agent("claude-sdk", ["seq 1 200000", "echo fits"], work, env,
                    binary=Path(sys.executable))
    clipped, small = run.tool_results
    assert clipped["text"].startswith("1\n2\n3\n") and "199999\n200000" in clipped["text"]
    assert re.search(r"headroom_cli show [0-9a-f]+|headroom show [0-9a-f]+", clipped["text"])
    assert len(clipped["text"]) < 28_000
    assert small["text"] == "fits"


def test_an_mcp_tools_large_result_reaches_the_model_clipped_and_a_small_one_whole(e2e_home):
    """mcp_server.py's 400-issue search (past Claude Code's own MCP limit: it saves the result
    and hands the hook its notice) reaches the model as headroom's JSON skeleton with a hint
    the model follows; the small result, as the server gave it."""
    work, env = e2e_home
    run = run_agent("claude-sdk", mcp_script(MCP_CALLS), work, env, binary=Path(sys.executable),
                    agent_args=("--mcp-config", str(write_mcp_config(work))))
    text, hint = check_mcp_clip(run.tool_results)
    assert hint["is_error"] is False and '"key": "PROJ-1"' in text
