"""Codex CLI, end to end: `headroom init codex`, then the real CLI (`codex exec`, hooks
trusted with --dangerously-bypass-hook-trust) against a scripted Responses-API model, in the
read-only sandbox (Codex's default) and in workspace-write.

Codex's own cut for a model without catalogue metadata is 10,000 bytes: headroom's output must
reach the model whole — marker, traceback and last line — under it, and the exit status must be
the command's.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from headroom_cli.store import content_id
import mcp_server
from fake_model import TOOL_CALL
from harness import e2e_home, headroom, run_agent  # noqa: F401 - e2e_home is a fixture
from matrix import (COMMANDS, COMPLEX_OUTPUT, FIFTY_THOUSAND, FITS_OUTPUT, FAILING, IDENTICAL,
                    check_failing, check_fifty_thousand, check_hint_followed)

pytestmark = pytest.mark.e2e
CODEX_CUT = 10_000


def output_of(result: dict) -> tuple[str, int]:
    """Codex's tool result: a header (exit code, token count), then `Output:` and the text."""
    text = result["text"]
    header, _, output = text.partition("Output:\n")
    status = re.search(r"Process exited with code (-?\d+)", header)
    assert status, text[:500]
    return output, int(status.group(1))


def install(work, env):
    env["CODEX_HOME"] = str(work / "home" / ".codex")
    done = headroom("init", "codex", env=env)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("sandbox", ["read-only", "workspace-write"])
def test_codex_matrix(e2e_home, sandbox):
    work, env = e2e_home
    install(work, env)
    run = run_agent("codex", COMMANDS, work, env, agent_args=("-s", sandbox))
    (big, big_status), (hint, _), (failing, failing_status), (fits, fits_status), \
        (complex_, complex_status) = [output_of(result) for result in run.tool_results]

    assert big_status == 0 and len(big.encode()) <= CODEX_CUT
    assert "truncated" not in big  # Codex did not cut headroom's output again
    check_fifty_thousand(big)
    check_hint_followed(hint, big)

    assert failing_status == 3 and len(failing.encode()) <= CODEX_CUT
    assert "truncated" not in failing
    check_failing(failing)

    assert (fits, fits_status) == (FITS_OUTPUT, 0)
    assert (complex_, complex_status) == (COMPLEX_OUTPUT, 4)
    assert "Read-only file system" not in " ".join(r["text"] for r in run.tool_results)


def test_without_headroom_codex_cuts_the_middle_of_a_failing_log(e2e_home):
    work, env = e2e_home
    env["CODEX_HOME"] = str(work / "home" / ".codex")
    run = run_agent("codex", [FAILING], work, env, agent_args=("-s", "workspace-write"))
    output, status = output_of(run.tool_results[0])
    assert status == 3 and "truncated" in output and "Traceback" not in output


# mcp_server.py over stdio, its tools approved (as a user does for a server they trust).
MCP_SERVER = ("-c", f'mcp_servers.e2e.command="{sys.executable}"',
              "-c", f'mcp_servers.e2e.args=["{Path(__file__).with_name("mcp_server.py")}"]',
              "-c", 'mcp_servers.e2e.default_tools_approval_mode="approve"')
# Codex offers an MCP server's tools in a namespace: the model calls NAME in mcp__SERVER.
MCP_CALLS = [f"{TOOL_CALL}mcp__e2e/search_issues {{}}", f"{TOOL_CALL}mcp__e2e/small {{}}"]


def mcp_output(result: dict) -> str:
    """Codex's MCP tool result: a wall-time header, then `Output:` and the text."""
    return result["text"].partition("Output:")[2]


def test_codex_rejects_a_replaced_mcp_output_so_headroom_only_adds_context(e2e_home):
    """Codex 0.169.0's PostToolUse schema lists updatedMCPToolOutput, but Codex answers any
    use of it with "PostToolUse hook returned unsupported updatedMCPToolOutput" and marks the
    hook Failed; the model gets the server's output. So headroom's MCP hook (codex_post)
    answers only `additionalContext`. When this test fails, a newer Codex applies the
    replacement: time to clip there as for Claude Code."""
    work, env = e2e_home
    home = work / "home" / ".codex"
    home.mkdir(parents=True)
    env["CODEX_HOME"] = str(home)
    reply = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedMCPToolOutput": {
        "content": [{"type": "text", "text": "REPLACED"}], "isError": False}}}
    (work / "reply.json").write_text(json.dumps(reply))
    (home / "hooks.json").write_text(json.dumps({"hooks": {"PostToolUse": [{
        "matcher": "mcp__.*",
        "hooks": [{"type": "command", "command": f"cat >/dev/null; cat {work / 'reply.json'}"}],
    }]}}))
    run = run_agent("codex", MCP_CALLS[1:], work, env, agent_args=("-s", "read-only", *MCP_SERVER))
    assert mcp_output(run.tool_results[0]) == '{"ok": true}'
    assert "hook: PostToolUse Failed" in (work / "agent.err").read_text()


def test_an_mcp_result_codex_cuts_comes_with_a_note_that_gets_any_part_back(e2e_home):
    """`init codex` alone, the server not behind the proxy: Codex cuts the 320 KB export to
    its first and last parts, and headroom's PostToolUse hook adds a developer message — the
    result's size and `headroom show ID --grep PATTERN` on the whole, kept in the store —
    which the model follows, in the read-only sandbox, to an issue Codex's cut left out.
    The small result gets no note."""
    work, env = e2e_home
    install(work, env)
    # headroom as init wrote it into hooks.json: the note names it so
    [group] = json.loads((work / "home" / ".codex" / "hooks.json").read_text())["hooks"][
        "PostToolUse"]
    program = group["hooks"][0]["command"].removesuffix(" hook codex")
    export = mcp_server.export().encode()
    item_id = content_id(export)  # the note names the whole by its content
    run = run_agent("codex", [f"{TOOL_CALL}mcp__e2e/dump_issues {{}}",
                              f"{program} show {item_id} --grep 'PROJ-250[^0-9]'",
                              MCP_CALLS[1]], work, env,
                    agent_args=("-s", "read-only", *MCP_SERVER))
    cut, hint, small = run.tool_results
    assert "tokens truncated" in cut["text"] and '"key": "PROJ-250"' not in cut["text"]
    assert '"key": "PROJ-250"' in output_of(hint)[0] and output_of(hint)[1] == 0
    assert mcp_output(small) == '{"ok": true}'
    steps = [json.loads(line) for line in (work / "log.jsonl").read_text().splitlines()]
    notes = [[text for text in step["developer"] if text.startswith("headroom:")]
             for step in steps]
    assert notes[0] == []  # before the call
    [note] = notes[1]  # after it, once, and after the small result no other
    assert notes[-1] == [note]
    assert f"the mcp__e2e__dump_issues result above is {len(export):,} bytes" in note
    assert f"`{program} show {item_id} --grep PATTERN`" in note


def test_without_headroom_codex_cuts_a_large_mcp_result_in_the_middle(e2e_home):
    work, env = e2e_home
    env["CODEX_HOME"] = str(work / "home" / ".codex")
    run = run_agent("codex", MCP_CALLS[:1], work, env,
                    agent_args=("-s", "read-only", *MCP_SERVER))
    text = mcp_output(run.tool_results[0])
    assert "tokens truncated" in text and '"key": "PROJ-250"' not in text
    assert '"id": 1,' in text and '"id": 400' in text  # its first and last parts


def test_codex_passes_its_session_so_an_output_is_not_sent_twice(e2e_home):
    """The hook's `session_id` (outside the sandbox: the state is written in HOME)."""
    work, env = e2e_home
    install(work, env)
    run = run_agent("codex", [FIFTY_THOUSAND, FIFTY_THOUSAND], work, env,
                    agent_args=("-s", "danger-full-access"))
    (first, _), (again, status) = [output_of(result) for result in run.tool_results]
    check_fifty_thousand(first)
    assert status == 0 and IDENTICAL.fullmatch(again), again
