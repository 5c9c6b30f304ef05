"""`headroom init cursor` and `headroom hook cursor`, from Cursor's documented hook protocol
(cursor.com/docs/hooks; Cursor cannot be installed here, so these payloads are the documented
ones, as the CLI build 2026.09.18-9a7762b sends them): preToolUse on Shell answering
`updated_input`, postToolUse on MCP tools answering `updated_mcp_tool_output`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from headroom_cli.agents import HookOptions, config, cursor, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]
COMMON = {"conversation_id": "5b0d6c1e-8a4f", "generation_id": "f2a9c0d4-1b7e",
          "model": "composer-2.5", "cursor_version": "2026.09.18-9a7762b",
          "workspace_roots": ["/tmp/proj"], "user_email": "me@example.com",
          "transcript_path": None, "session_id": "5b0d6c1e-8a4f"}


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))


def shell_event(command="npm test"):
    return {**COMMON, "hook_event_name": "preToolUse", "tool_name": "Shell",
            "tool_input": {"command": command, "cwd": "/tmp/proj"}, "tool_use_id": "call_9Qx"}


def mcp_event(result, tool="MCP:query"):
    return {**COMMON, "hook_event_name": "postToolUse", "tool_name": tool,
            "tool_input": {"sql": "select *"}, "duration": 250,
            "tool_output": result if isinstance(result, str) else json.dumps(result)}


def reply(event):
    raw = run_hook("cursor", json.dumps(event).encode(), HookOptions(headroom=HEADROOM))
    return json.loads(raw)  # always JSON: an invalid answer to preToolUse blocks the tool


def test_shell_is_wrapped_keeping_every_argument_and_never_answering_permission():
    out = reply(shell_event())
    assert list(out) == ["updated_input"]
    assert out["updated_input"]["cwd"] == "/tmp/proj"
    assert out["updated_input"]["command"].startswith("{ ( npm test\n) 2>&1; ")


@pytest.mark.parametrize("event", [shell_event("make > log"), shell_event("sleep 9 &"),
                                   dict(shell_event(), tool_name="Read"), {"x": 1}])
def test_no_change_is_an_empty_object(event):
    assert reply(event) == {}


def test_a_garbage_payload_is_still_answered_with_json():
    assert run_hook("cursor", b"not json", HookOptions(headroom=HEADROOM)) == b"{}"


def test_the_wrapped_command_clips_a_failing_log_and_keeps_its_status():
    command = "seq 1 100000 | sed 's/^/step /'; echo 'Error: boom' >&2; exit 2"
    wrapped = reply(shell_event(command))["updated_input"]["command"]
    done = subprocess.run(["bash", "-c", wrapped], capture_output=True, timeout=120)
    assert done.returncode == 2
    text = done.stdout.decode()
    assert "The command exited with status 2." in text and text.rstrip().endswith("Error: boom")


def test_a_large_mcp_result_is_clipped_in_its_content_shape():
    rows = [{"id": n, "title": f"issue {n}", "state": "open"} for n in range(6000)]
    result = {"content": [{"type": "text", "text": json.dumps(rows, indent=1)}]}
    out = reply(mcp_event(result))["updated_mcp_tool_output"]
    text = out["content"][0]["text"]
    assert list(out) == ["content"] and len(out["content"]) == 1
    assert "headroom" in text and len(text) < len(result["content"][0]["text"]) // 10


@pytest.mark.parametrize("result", [
    {"content": [{"type": "text", "text": "small"}]},
    {"content": [{"type": "text", "text": "x\n" * 90000}], "isError": True},
    {"content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}]}])
def test_small_errors_and_images_are_left_alone(result):
    assert reply(mcp_event(result)) == {}


def test_a_builtin_tool_after_the_fact_is_left_alone():
    assert reply(mcp_event({"output": "x\n" * 90000, "exitCode": 0}, tool="Shell")) == {}


def test_install_keeps_version_and_the_users_hooks_and_uninstall_restores(tmp_path):
    path = tmp_path / "hooks.json"
    original = b'{\n  "version": 1,\n  "hooks": {\n    "stop": [{"command": "./audit.sh"}]\n  }\n}\n'
    path.write_bytes(original)
    config.apply(cursor.install(path, HEADROOM), dry_run=False)
    settings = json.loads(path.read_text())
    assert settings["version"] == 1 and settings["hooks"]["stop"] == [{"command": "./audit.sh"}]
    assert settings["hooks"]["preToolUse"][0]["matcher"] == "^Shell$"
    assert settings["hooks"]["postToolUse"][0]["matcher"] == "^MCP:"
    assert "//" not in path.read_text()  # Cursor drops `//…` as a comment
    config.apply(cursor.install(path, HEADROOM, uninstall=True), dry_run=False)
    assert path.read_bytes() == original


def test_a_fresh_file_gets_version_1_and_goes_away_whole(tmp_path):
    path = tmp_path / ".cursor" / "hooks.json"
    config.apply(cursor.install(path, HEADROOM), dry_run=False)
    assert json.loads(path.read_text())["version"] == 1
    config.apply(cursor.install(path, HEADROOM, uninstall=True), dry_run=False)
    assert not path.exists()  # (the leftover .headroom-backup: issue #25, fixed in config.py)
