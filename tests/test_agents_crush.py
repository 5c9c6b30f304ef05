"""`headroom init crush` and `headroom hook crush`, against the payloads Crush builds (its
source at charmbracelet/crush 37f36e9: internal/hooks/input.go BuildPayload gives
{"event", "session_id", "cwd", "tool_name", "tool_input"}; hooks.go parseStdout reads
{"decision", "updated_input", …}, updated_input shallow-merged into tool_input)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from headroom_cli.agents import HookOptions, config, crush, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("CRUSH_GLOBAL_CONFIG", raising=False)
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))


def payload(command="go test ./...", **tool_input):
    # BuildPayload's field order and names (input.go, Payload struct)
    return {"event": "PreToolUse", "session_id": "313909e", "cwd": "/tmp/project",
            "tool_name": "bash", "tool_input": {"command": command, **tool_input}}


def reply(event):
    raw = run_hook("crush", json.dumps(event).encode(), HookOptions(headroom=HEADROOM))
    return json.loads(raw) if raw else None


def test_the_command_is_wrapped_as_a_patch_without_a_decision():
    out = reply(payload(description="run the tests"))
    assert list(out) == ["updated_input"]  # no decision: Crush asks as it would have
    assert list(out["updated_input"]) == ["command"]  # a shallow patch: the rest stays
    assert out["updated_input"]["command"].startswith("{ ( go test ./...\n) 2>&1; ")


@pytest.mark.parametrize("command,allowed", [
    ("ls -la", True), ("git status", True), ("git log --oneline", True),
    ("ls | wc -l", False), ("lsof", False), ("make", False), ("pwd && rm x", False)])
def test_allow_only_for_what_crush_runs_without_asking(command, allowed):
    assert (reply(payload(command)).get("decision") == "allow") is allowed


@pytest.mark.parametrize("event", [
    payload("make", run_in_background=True), payload("make > build.log"),
    dict(payload(), tool_name="edit"), dict(payload(), event="PostToolUse"), {"no": "tool"}])
def test_what_is_left_as_written(event):
    assert reply(event) is None


def test_a_huge_failing_output_is_clipped_with_its_status_in_a_posix_shell():
    # Crush runs commands in mvdan.cc/sh, a POSIX interpreter: checked here with sh.
    command = "seq 1 100000; echo 'FAIL: boom' >&2; exit 3"
    wrapped = reply(payload(command))["updated_input"]["command"]
    done = subprocess.run(["sh", "-c", wrapped], capture_output=True, timeout=120)
    assert done.returncode == 3
    text = done.stdout.decode()
    assert "The command exited with status 3." in text
    assert text.rstrip().endswith("FAIL: boom")
    assert len(text) < 30_000  # Crush's own cut (tools.MaxOutputLength)


def test_install_is_a_flat_entry_and_uninstall_gives_the_bytes_back(tmp_path):
    path = tmp_path / "crush.json"
    original = (b'{\n  // my settings\n  "options": {"debug": false},\n  "hooks": {\n'
                b'    "PreToolUse": [\n      {"matcher": "^bash$", "command": "./mine.sh"}\n'
                b'    ]\n  }\n}\n')
    path.write_bytes(original)
    config.apply(crush.install(path, HEADROOM), dry_run=False)
    settings = json.loads(config.strip_comments(path.read_text()))
    mine, ours = settings["hooks"]["PreToolUse"]
    assert mine == {"matcher": "^bash$", "command": "./mine.sh"}
    assert ours["matcher"] == "^bash$" and ours["command"].endswith(" hook crush")
    assert b"// my settings" in path.read_bytes()
    config.apply(crush.install(path, HEADROOM), dry_run=False)  # twice: still one of ours
    assert len(json.loads(config.strip_comments(path.read_text()))["hooks"]["PreToolUse"]) == 2
    config.apply(crush.install(path, HEADROOM, uninstall=True), dry_run=False)
    assert path.read_bytes() == original
    assert not (tmp_path / "crush.json.headroom-backup").exists()


def test_uninstall_after_the_user_edited_takes_out_only_ours(tmp_path):
    path = tmp_path / "crush.json"
    path.write_bytes(b'{"options": {}}\n')
    config.apply(crush.install(path, HEADROOM), dry_run=False)
    path.write_bytes(path.read_bytes().replace(b'"options": {}', b'"options": {"x": 1}'))
    config.apply(crush.install(path, HEADROOM, uninstall=True), dry_run=False)
    assert json.loads(path.read_text()) == {"options": {"x": 1}}


def test_default_path_follows_crush(tmp_path, monkeypatch):
    assert crush.default_path() == tmp_path / "home" / ".config" / "crush" / "crush.json"
    monkeypatch.setenv("CRUSH_GLOBAL_CONFIG", str(tmp_path / "g"))
    assert crush.default_path() == tmp_path / "g" / "crush.json"
