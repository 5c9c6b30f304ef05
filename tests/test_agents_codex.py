"""`headroom hook codex` against Codex CLI's PreToolUse payloads (codex-rs/hooks: tool_name
"Bash", tool_input {"command": …}; a rewrite is accepted only as permissionDecision "allow"
plus updatedInput, and "allow" alone is rejected — so no rewrite means no output at all)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from headroom_cli.agents import HookOptions, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)


def payload(command="cargo test", **extra):
    return {"session_id": "019a-thread", "turn_id": "turn-1", "transcript_path": None,
            "cwd": "/tmp/project", "hook_event_name": "PreToolUse", "model": "gpt-5.5",
            "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_use_id": "call_1", **extra}


def reply(event):
    raw = run_hook("codex", json.dumps(event).encode(), HookOptions(headroom=HEADROOM))
    return json.loads(raw) if raw else None


def test_the_command_is_wrapped_with_allow_and_updated_input():
    out = reply(payload())["hookSpecificOutput"]
    assert out == {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                   "updatedInput": {"command": out["updatedInput"]["command"]}}
    assert out["updatedInput"]["command"].startswith("{ ( cargo test\n) 2>&1; ")


def test_a_huge_failing_output_is_clipped_with_its_status():
    command = ("seq 1 100000; echo 'error[E0308]: mismatched types' >&2; "
               "python3 -c 'import sys; sys.exit(101)'")
    wrapped = reply(payload(command))["hookSpecificOutput"]["updatedInput"]["command"]
    done = subprocess.run(["bash", "-c", wrapped], capture_output=True, timeout=120)
    assert done.returncode == 101
    text = done.stdout.decode()
    assert "The command exited with status 101." in text
    assert text.rstrip().endswith("error[E0308]: mismatched types")
    # Codex keeps an output of up to 10,000 bytes whole (measured with 0.169.0)
    assert len(text.encode()) <= 10_000


def test_a_final_exit_is_wrapped_and_keeps_its_status():
    wrapped = reply(payload("seq 1 30000; exit 3"))["hookSpecificOutput"]["updatedInput"]
    done = subprocess.run(["bash", "-lc", wrapped["command"]], capture_output=True, timeout=120)
    assert done.returncode == 3
    assert done.stdout.rstrip().endswith(b"\n30000") and b"headroom:" in done.stdout


@pytest.mark.parametrize("event", [
    payload("cargo build > build.log 2>&1"), payload("npm run dev &"),
    dict(payload(), tool_name="apply_patch"), dict(payload(), hook_event_name="PostToolUse"),
    dict(payload(), tool_input={}),
])
def test_calls_left_alone_get_no_reply(event):
    assert reply(event) is None


@pytest.mark.parametrize("data", [b"", b"{oops", b"\x80\x81\x82", b"[]"])
def test_malformed_payloads_fail_open(data):
    done = subprocess.run([*HEADROOM, "hook", "codex"], input=data, capture_output=True,
                          timeout=120, env=dict(os.environ))
    assert done.returncode == 0 and done.stdout == b""


# --- PostToolUse on MCP tools (codex_post; the event's shape recorded from 0.169.0) ---------

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "e2e"))
import mcp_server  # noqa: E402 - the e2e tests' MCP server: its real output


def mcp_event(tool="dump_issues", content=None) -> dict:
    """A PostToolUse event as Codex 0.169.0 sends it for an MCP tool: the result whole."""
    text = mcp_server.tool_text(tool) if tool != "dump_issues" else mcp_server.export()
    return {"session_id": "01a2-thread", "turn_id": "01a2-turn", "transcript_path": None,
            "cwd": "/tmp/project", "hook_event_name": "PostToolUse", "model": "gpt-5.5",
            "permission_mode": "bypassPermissions", "tool_name": f"mcp__e2e__{tool}",
            "tool_input": {}, "tool_use_id": "call_1",
            "tool_response": {"content": content if content is not None else
                              [{"type": "text", "text": text}], "isError": False}}


def shown(*args) -> str:
    done = subprocess.run([*HEADROOM, "show", *args], capture_output=True, timeout=120,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


def test_an_mcp_result_codex_cuts_gets_a_note_that_gets_any_part_of_it_back():
    export = mcp_server.export()
    out = reply(mcp_event())["hookSpecificOutput"]
    assert set(out) == {"hookEventName", "additionalContext"}  # no replacement: Codex refuses it
    note = out["additionalContext"]
    assert f"{len(export.encode()):,} bytes ({export.count(chr(10)) + 1:,} lines)" in note
    item_id = re.search(r"show ([0-9a-f]{12}) --grep PATTERN", note).group(1)
    assert shown(item_id) == export  # the whole
    assert '"key": "PROJ-250"' in shown(item_id, "--grep", "PROJ-250\"")
    assert reply(mcp_event())["hookSpecificOutput"]["additionalContext"] == note  # the same


@pytest.mark.parametrize("event", [
    mcp_event("small"),  # fits: Codex shows it whole
    mcp_event(content=[{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]),
    dict(mcp_event(), tool_name="Bash"),
    dict(mcp_event(), tool_response="not a result"),
])
def test_mcp_results_codex_shows_whole_or_not_text_get_no_note(event):
    assert reply(event) is None


def test_no_note_for_a_skipped_server_or_with_the_store_off(monkeypatch):
    monkeypatch.setenv("HEADROOM_MCP_SKIP", "e2e")
    assert reply(mcp_event()) is None
    monkeypatch.delenv("HEADROOM_MCP_SKIP")
    raw = run_hook("codex", json.dumps(mcp_event()).encode(),
                   HookOptions(headroom=HEADROOM, store=False))
    assert raw == b""
