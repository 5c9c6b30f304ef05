"""`headroom hook codex` against Codex CLI's PreToolUse payloads (codex-rs/hooks: tool_name
"Bash", tool_input {"command": …}; a rewrite is accepted only as permissionDecision "allow"
plus updatedInput, and "allow" alone is rejected — so no rewrite means no output at all)."""

from __future__ import annotations

import json
import os
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
