"""`headroom hook gemini` against Gemini CLI's BeforeTool payloads (docs/hooks/reference.md of
@google/gemini-cli 0.61.0: tool_name, tool_input; `hookSpecificOutput.tool_input` replaces the
tool's arguments, so every original argument must come back)."""

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


def payload(command="npm run build", **tool_input):
    return {"session_id": "s1", "transcript_path": "/tmp/t.json", "cwd": "/tmp/project",
            "hook_event_name": "BeforeTool", "timestamp": "2026-11-22T08:00:00.000Z",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "Build", "dir_path": "web",
                           **tool_input}}


def reply(event):
    return json.loads(run_hook("gemini", json.dumps(event).encode(),
                               HookOptions(headroom=HEADROOM)))


def test_every_argument_comes_back_with_the_command_wrapped():
    out = reply(payload())["hookSpecificOutput"]
    assert out["hookEventName"] == "BeforeTool"
    assert out["tool_input"]["description"] == "Build" and out["tool_input"]["dir_path"] == "web"
    assert out["tool_input"]["command"].startswith("{ ( npm run build\n) 2>&1; ")


def test_the_wrapper_passes_gemini_clis_command_substitution_check():
    command = reply(payload("seq 1 10"))["hookSpecificOutput"]["tool_input"]["command"]
    assert "$(" not in command and "`" not in command


def test_a_huge_output_is_clipped_and_keeps_its_status():
    command = reply(payload("seq 1 200000; false"))["hookSpecificOutput"]["tool_input"]["command"]
    done = subprocess.run(["bash", "-c", command], capture_output=True, timeout=120)
    assert done.returncode == 1
    assert b"The command exited with status 1." in done.stdout and len(done.stdout) < 36_000


def test_a_final_exit_keeps_its_status_and_is_clipped():
    command = reply(payload("seq 1 200000; exit 3"))["hookSpecificOutput"]["tool_input"]["command"]
    done = subprocess.run(["bash", "-c", command], capture_output=True, timeout=120)
    assert done.returncode == 3 and done.stdout.rstrip().endswith(b"200000")


@pytest.mark.parametrize("event", [
    payload(is_background=True), payload("npm run build > out.txt"), payload("npm start &"),
    dict(payload(), tool_name="read_file"), dict(payload(), hook_event_name="AfterTool"),
])
def test_calls_left_alone_get_an_empty_object(event):
    assert reply(event) == {}


@pytest.mark.parametrize("data", [b"", b"{", b"\xfe\xff", b"42"])
def test_malformed_payloads_fail_open_with_valid_json(data):
    # Gemini CLI parses a hook's stdout as JSON when it exits 0.
    done = subprocess.run([*HEADROOM, "hook", "gemini"], input=data, capture_output=True,
                          timeout=120, env=dict(os.environ))
    assert done.returncode == 0 and json.loads(done.stdout) == {}
