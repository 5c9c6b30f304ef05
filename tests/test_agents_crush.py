"""`headroom init crush` and `headroom hook crush`, against the payloads Crush builds.

No Crush binary can be had here (npm @charmland/crush 0.96.1 is a postinstall that downloads
it from GitHub), so no end-to-end run exists: these tests hold headroom to Crush's source, read
at charmbracelet/crush 37f36e93824e (2026-08-21, v0.90.0 and 5 commits that touch no hook or
bash-tool file). What they rely on, quoted from it:

internal/hooks/input.go (the stdin payload, made with json.Marshal: compact, in field order,
`<`, `>` and `&` escaped as \u003c, \u003e, \u0026; tool_input is the model's raw JSON):

    type Payload struct {
        Event     string          `json:"event"`
        SessionID string          `json:"session_id"`
        CWD       string          `json:"cwd"`
        ToolName  string          `json:"tool_name"`
        ToolInput json.RawMessage `json:"tool_input"`
    }

internal/hooks/input.go parseStdout (exit 0: stdout read as JSON; an object or a string
`updated_input`; hookSpecificOutput, Claude Code's form, is read instead when present):

    var parsed struct {
        Version      int             `json:"version"`
        Decision     string          `json:"decision"`
        Halt         bool            `json:"halt"`
        Reason       string          `json:"reason"`
        Context      json.RawMessage `json:"context"`
        UpdatedInput json.RawMessage `json:"updated_input"`
    }

internal/hooks/hooks.go aggregate: "updated_input patches shallow-merge in order against the
original tool input; later patches override earlier ones on colliding keys" (shallowMerge:
sjson.SetRawBytes per top-level key). internal/hooks/runner.go runOne: exit 2 denies, exit 49
halts the turn, any other non-zero exit is "a non-blocking error" (the call runs as written).

internal/agent/tools/bash.go (the bash tool's input, what tool_input holds):

    type BashParams struct {
        Description         string `json:"description" …`
        Command             string `json:"command" …`
        WorkingDir          string `json:"working_dir,omitempty" …`
        RunInBackground     bool   `json:"run_in_background,omitempty" …`
        AutoBackgroundAfter int    `json:"auto_background_after,omitempty" …`
    }

internal/config/config.go (one entry of crush.json's `hooks`, a map of event to a list):

    type HookConfig struct {
        Name    string `json:"name,omitempty" …`
        Matcher string `json:"matcher,omitempty" …`
        Command string `json:"command" …`
        Timeout int    `json:"timeout,omitempty" …`   // seconds, default 30
    }

Crush runs both the hook and the bash command in its embedded POSIX interpreter
(mvdan.cc/sh); here the wrapped command runs in sh, the nearest shell that can be had.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from headroom_cli.agents import HookOptions, config, crush, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]
PAYLOAD_FIELDS = ["event", "session_id", "cwd", "tool_name", "tool_input"]  # Payload, in order
REPLY_FIELDS = {"version", "decision", "halt", "reason", "context", "updated_input"}
HOOK_CONFIG_FIELDS = {"name", "matcher", "command", "timeout"}
BASH_PARAMS = {"description", "command", "working_dir", "run_in_background",
               "auto_background_after"}


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("CRUSH_GLOBAL_CONFIG", raising=False)
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))


def go_json(value) -> str:
    """json.Marshal's bytes: compact, and HTML-safe (Go escapes <, >, &, U+2028, U+2029)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                          ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escaped)
    return text


def build_payload(tool_input: dict, tool_name: str = "bash", event: str = "PreToolUse") -> bytes:
    """BuildPayload(eventName, sessionID, cwd, toolName, toolInputJSON), byte for byte."""
    fields = [event, "313909e", "/tmp/project", tool_name, tool_input]
    return ("{" + ",".join(f"{json.dumps(name)}:{go_json(value)}"
                           for name, value in zip(PAYLOAD_FIELDS, fields)) + "}").encode()


def payload(command="go test ./...", **tool_input):
    """A bash call as Crush passes it: the model's arguments in BashParams' names."""
    assert set(tool_input) <= BASH_PARAMS
    return json.loads(build_payload({"command": command, **tool_input}))


def parse_stdout(stdout: bytes) -> dict:
    """What Crush takes from a hook's stdout (parseStdout): the fields it reads, nothing else;
    {} when the hook said nothing."""
    text = stdout.decode().strip()
    if not text:
        return {}
    raw = json.loads(text)
    return {name: value for name, value in raw.items() if name in REPLY_FIELDS}


def shallow_merge(tool_input: dict, patch) -> dict:
    """aggregate's shallowMerge: each top-level key of the patch replaces the input's."""
    patch = json.loads(patch) if isinstance(patch, str) else patch
    return {**tool_input, **patch}


def reply(event):
    """The hook's answer to `event`, sent as Crush encodes it; None when it says nothing."""
    raw = run_hook("crush", go_json(event).encode(), HookOptions(headroom=HEADROOM))
    return json.loads(raw) if raw else None


def test_the_payload_is_the_one_crush_builds():
    # BuildPayload's bytes for a model call {"description":…,"command":…} (field order,
    # compact, `&&` and `>` escaped as json.Marshal does): the hook reads them as they are.
    sent = build_payload({"description": "Run tests", "command": "cd src && make 2>&1 | tail"})
    assert sent == (b'{"event":"PreToolUse","session_id":"313909e","cwd":"/tmp/project",'
                    b'"tool_name":"bash","tool_input":{"description":"Run tests",'
                    b'"command":"cd src \\u0026\\u0026 make 2\\u003e\\u00261 | tail"}}')
    raw = run_hook("crush", sent, HookOptions(headroom=HEADROOM))
    answer = parse_stdout(raw)
    assert set(json.loads(raw)) <= REPLY_FIELDS  # nothing Crush would not read
    merged = shallow_merge(json.loads(sent)["tool_input"], answer["updated_input"])
    assert merged["description"] == "Run tests"  # the patch names only the command
    assert merged["command"].startswith("{ ( cd src && make 2>&1 | tail\n) 2>&1; ")


def test_the_installed_hook_run_as_crush_runs_it_clips_the_command(tmp_path):
    """crush.json's entry as `init` writes it, its command run in a shell with the payload on
    stdin (runOne), the answer parsed and merged as Crush does, the merged command run."""
    path = tmp_path / "crush.json"
    config.apply(crush.install(path, HEADROOM), dry_run=False, out=open(os.devnull, "w"))
    entry, = json.loads(path.read_text())["hooks"]["PreToolUse"]
    assert set(entry) <= HOOK_CONFIG_FIELDS and isinstance(entry["timeout"], int)
    assert entry["matcher"] == "^bash$"  # matcher.MatchString(toolName)
    tool_input = {"description": "Run the build",
                  "command": "seq 1 100000; echo 'FAIL: boom' >&2; exit 3"}
    hook = subprocess.run(["sh", "-c", entry["command"]], input=build_payload(tool_input),
                          capture_output=True, timeout=120, cwd=tmp_path)
    assert hook.returncode == 0  # exit 2 would deny the call, 49 halt the turn
    answer = parse_stdout(hook.stdout)
    assert "decision" not in answer  # Crush asks about the command as it would have
    merged = shallow_merge(tool_input, answer["updated_input"])
    done = subprocess.run(["sh", "-c", merged["command"]], capture_output=True, timeout=120)
    assert done.returncode == 3
    text = done.stdout.decode()
    assert text.startswith("1\n") and text.rstrip().endswith("FAIL: boom")
    assert "The command exited with status 3." in text
    assert len(text) < 30_000  # under Crush's own cut (tools.MaxOutputLength)


def test_a_tool_other_than_bash_or_a_payload_that_is_not_json_gets_no_answer():
    # Crush reads an empty stdout as "no opinion" (DecisionNone): the call runs as it was.
    for sent in (build_payload({"file_path": "a.go"}, tool_name="view"), b"not json", b""):
        assert parse_stdout(run_hook("crush", sent, HookOptions(headroom=HEADROOM))) == {}


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
