"""`headroom init cursor` and `headroom hook cursor`, against Cursor's documented hook protocol.

Cursor cannot be installed here (its CLI comes only from its own site), so no end-to-end run
exists: these are protocol tests, written from Cursor's hooks documentation (cursor.com/docs/hooks)
and the payloads of the CLI build 2026.09.18-9a7762b as a public reading of its bundle records
them (neither could be re-read on this machine). What they rely on:

- hooks.json: {"version": 1, "hooks": {EVENT: [{"command", "matcher", "timeout"}]}}; `version`
  must be a positive integer or the whole file is rejected; the matcher is an unanchored
  regular expression on `tool_name`; the file is read as JSONC by stripping `//` to the end of
  a line.
- every payload carries conversation_id, generation_id, model, session_id, hook_event_name,
  cursor_version, workspace_roots, user_email and transcript_path (COMMON below);
- preToolUse on Shell adds tool_name "Shell", tool_input {"command", "cwd"} and tool_use_id;
  it is a permission hook: an answer that is not a JSON object blocks the tool, and
  `updated_input` replaces the tool's input;
- postToolUse adds tool_output, the result as a JSON *string*, and duration; for a Shell
  command it is '{"output": …, "exitCode": 0}' and only `additional_context` is read from the
  answer; for an MCP tool (tool_name "MCP:TOOL") `updated_mcp_tool_output` replaces the result
  (a string, or {"content": [{"type": "text", "text": …}]}).
"""

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


# The Shell postToolUse payload as recorded for 2026.09.18-9a7762b (shortened ids, a short output):
DOCUMENTED_SHELL_POST = (
    '{"conversation_id":"5b0d6c1e-8a4f","generation_id":"f2a9c0d4-1b7e","model":"composer-2.5",'
    '"tool_name":"Shell","tool_input":{"command":"npm test","cwd":"/tmp/proj"},'
    '"tool_output":"{\\"output\\":\\"> proj@1.0.0 test\\\\n> vitest run\\\\n\\",\\"exitCode\\":0}",'
    '"duration":48213,"tool_use_id":"call_9Qx\\nctc_71b","cwd":"/tmp/proj",'
    '"session_id":"5b0d6c1e-8a4f","hook_event_name":"postToolUse",'
    '"cursor_version":"2026.09.18-9a7762b","workspace_roots":["/tmp/proj"],'
    '"user_email":"me@example.com","transcript_path":null}')


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


def test_a_shell_output_after_the_fact_is_left_alone():
    # postToolUse cannot replace a Shell output (the command was wrapped before it ran):
    # the documented payload as it is, and with a huge output, get no change.
    documented = json.loads(DOCUMENTED_SHELL_POST)
    huge = dict(documented, tool_output=json.dumps({"output": "x\n" * 90000, "exitCode": 0}))
    for event in (documented, huge):
        assert reply(event) == {}


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
