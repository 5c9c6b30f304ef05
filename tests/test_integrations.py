"""The SDK integrations (headroom_cli/integrations/): a missing SDK is one line naming the
extra's install command; the Claude Agent SDK hooks answer as Claude Code's own hooks do."""

from __future__ import annotations

import json
import sys

import pytest

from headroom_cli.agents import HookOptions
from headroom_cli.integrations import install_command, require
from headroom_cli.integrations.claude_sdk import answer


def test_a_missing_sdk_is_one_line_naming_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "claude_agent_sdk", None)  # import fails, as uninstalled
    from headroom_cli.integrations.claude_sdk import hook_matchers

    with pytest.raises(ImportError) as raised:
        hook_matchers()
    message = str(raised.value)
    assert "\n" not in message and message.endswith(install_command("claude-sdk"))
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


def test_the_install_command_points_pip_where_headroom_came_from(monkeypatch):
    """headroom is not on PyPI: the hint installs the extra from this checkout (the test
    venv's editable install), with the Python running headroom; unknown: from a checkout."""
    import shlex
    from importlib import metadata
    from pathlib import Path

    checkout = Path(__file__).resolve().parent.parent
    words = shlex.split(install_command("mcp"))
    assert words == [sys.executable, "-m", "pip", "install", "-e", f"{checkout}[mcp]"]

    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    assert install_command("mcp").endswith(" -m pip install '.[mcp]' in a checkout of headroom")


def test_an_installed_module_is_returned():
    assert require("json", "none", "x") is json


def mcp_event(text: str) -> dict:
    return {"session_id": "s", "hook_event_name": "PostToolUse", "cwd": "/tmp",
            "tool_name": "mcp__jira__search", "mcp_server": {"name": "jira"},
            "tool_input": {"query": "parser"}, "tool_response": [{"type": "text", "text": text}]}


def test_an_mcp_output_over_the_budget_comes_back_clipped_and_one_that_fits_unchanged(
        private_env):
    big = json.dumps([{"key": f"PROJ-{n}", "summary": f"issue {n} " * 8} for n in range(3000)])
    options = HookOptions(budget=500, headroom=["headroom"], budget_given=True)
    out = answer(mcp_event(big), options)["hookSpecificOutput"]
    clipped = out["updatedMCPToolOutput"][0]["text"]
    assert out["hookEventName"] == "PostToolUse" and len(clipped) < len(big) // 20
    assert " show " in clipped
    assert answer(mcp_event("small"), options) == {}


def test_a_bash_call_is_wrapped_as_claude_codes_hook_wraps_it():
    event = {"session_id": "s", "hook_event_name": "PreToolUse", "cwd": "/tmp",
             "permission_mode": "bypassPermissions", "tool_name": "Bash",
             "tool_input": {"command": "npm test", "description": "tests"}}
    out = answer(event, HookOptions(headroom=["/x/headroom"]))["hookSpecificOutput"]
    assert out["permissionDecision"] == "allow"
    assert "npm test" in out["updatedInput"]["command"] and \
        "/x/headroom hook filter" in out["updatedInput"]["command"]


def test_the_matchers_are_the_sdks_own():
    sdk = pytest.importorskip("claude_agent_sdk", reason="needs the claude-sdk extra")
    from headroom_cli.integrations.claude_sdk import hook_matchers

    matchers = hook_matchers(budget=4000)
    assert [(event, [m.matcher for m in found]) for event, found in matchers.items()] == [
        ("PreToolUse", ["Bash"]), ("PostToolUse", ["mcp__.*|Bash"])]  # Bash: outputs saved whole
    assert all(isinstance(m, sdk.HookMatcher) for found in matchers.values() for m in found)
