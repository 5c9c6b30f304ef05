"""`headroom hook copilot` and `headroom hook droid` against the payloads the installed CLIs
send, captured from real runs (a hook that saved its stdin) and quoted here:

GitHub Copilot CLI 1.0.102, preToolUse (its hooks/*.json, lower-case event names):
    {"sessionId":"052a5ea4-…","timestamp":1795721118518,"cwd":"/tmp/…/proj",
     "toolName":"bash","toolArgs":{"command":"echo hello-from-copilot"}}
  a reply's `modifiedArgs` replaces the arguments; `{}` leaves them.

Factory Droid 0.215.0, PreToolUse (hooks in ~/.factory/settings.json):
    {"session_id":"f097d535-…","transcript_path":"/tmp/…/f097d535-….jsonl",
     "cwd":"/tmp/…/proj","permission_mode":"auto-high","hook_event_name":"PreToolUse",
     "tool_name":"Execute","tool_input":{"command":"echo hello-from-droid",
     "riskLevelReason":"scripted e2e command","riskLevel":"low"}}
  a reply's `hookSpecificOutput.updatedInput` is merged into the input ({...input, ...updated}).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from headroom_cli.agents import HookOptions, config, load, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    monkeypatch.delenv("FACTORY_HOME_OVERRIDE", raising=False)


def copilot_payload(command="cargo test", **arguments):
    return {"sessionId": "052a5ea4-3dee-4003-8bf7-ebb4e4c03cf5", "timestamp": 1795721118518,
            "cwd": "/tmp/project", "toolName": "bash",
            "toolArgs": {"command": command, **arguments}}


def droid_payload(command="cargo test", **arguments):
    return {"session_id": "f097d535-5ad2-4975-945b-31feae35c67d",
            "transcript_path": "/tmp/home/.factory/sessions/x/f097d535.jsonl",
            "cwd": "/tmp/project", "permission_mode": "auto-high",
            "hook_event_name": "PreToolUse", "tool_name": "Execute",
            "tool_input": {"command": command, "riskLevelReason": "reads only",
                           "riskLevel": "low", **arguments}}


def hook(agent, event) -> bytes:
    payload = event if isinstance(event, bytes) else json.dumps(event).encode()
    return run_hook(agent, payload, HookOptions(headroom=HEADROOM))


def wrapped_command(agent, event) -> str:
    out = json.loads(hook(agent, event))
    if agent == "copilot":
        return out["modifiedArgs"]["command"]
    return out["hookSpecificOutput"]["updatedInput"]["command"]


def test_copilot_reply_keeps_every_argument_and_grants_nothing():
    out = json.loads(hook("copilot", copilot_payload(description="Run the tests")))
    assert set(out) == {"modifiedArgs"}  # no permissionDecision: "allow" would skip a prompt
    arguments = out["modifiedArgs"]
    assert arguments["description"] == "Run the tests"
    assert arguments["command"].startswith("{ ( cargo test\n) 2>&1; ")
    assert "--session 052a5ea4-3dee-4003-8bf7-ebb4e4c03cf5" in arguments["command"]


def test_copilot_toolargs_given_as_json_text():
    event = copilot_payload()
    event["toolArgs"] = json.dumps(event["toolArgs"])
    assert wrapped_command("copilot", event).startswith("{ ( cargo test\n) 2>&1; ")


@pytest.mark.parametrize("event", [
    copilot_payload(mode="async"),  # read while it runs
    dict(copilot_payload(), toolName="view"),
    copilot_payload("make > build.log"),
    copilot_payload("npm run dev &"),
    {"toolName": "bash"},
])
def test_copilot_leaves_these_calls_alone_with_an_empty_object(event):
    assert hook("copilot", event) == b"{}"


def test_copilot_answers_an_empty_object_to_what_is_not_json():
    # Copilot denies the call when a preToolUse hook fails: the reply must always be JSON
    assert hook("copilot", b"not json") == b"{}"
    done = subprocess.run([*HEADROOM, "hook", "copilot"], input=b"\xff{", capture_output=True,
                          timeout=60)
    assert (done.returncode, done.stdout) == (0, b"{}")


def test_droid_reply_changes_only_the_command():
    out = json.loads(hook("droid", droid_payload()))
    assert out == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {
        "command": out["hookSpecificOutput"]["updatedInput"]["command"]}}}
    assert "--session f097d535-5ad2-4975-945b-31feae35c67d" in \
        out["hookSpecificOutput"]["updatedInput"]["command"]


@pytest.mark.parametrize("event", [
    droid_payload(fireAndForget=True),
    dict(droid_payload(), tool_name="Read"),
    dict(droid_payload(), hook_event_name="PostToolUse"),
    droid_payload("cat <<'EOF' > notes.txt\nx\nEOF"),
])
def test_droid_leaves_these_calls_alone(event):
    assert hook("droid", event) == b""


@pytest.mark.parametrize("agent,event,limit", [
    ("copilot", copilot_payload, load("copilot").MAX_BYTES),
    ("droid", droid_payload, load("droid").MAX_BYTES),
])
def test_a_huge_failing_output_is_clipped_under_the_agents_own_cut(agent, event, limit):
    command = ("seq 1 100000; echo 'error[E0308]: mismatched types' >&2; "
               "python3 -c 'import sys; sys.exit(101)'")
    done = subprocess.run(["bash", "-c", wrapped_command(agent, event(command))],
                          capture_output=True, timeout=120)
    assert done.returncode == 101
    text = done.stdout.decode()
    assert "The command exited with status 101." in text
    assert text.rstrip().endswith("error[E0308]: mismatched types")
    # Copilot saves an output over ~20 KB to a file, Droid cuts one over ~10 KB (measured)
    assert len(text.encode()) <= limit < {"copilot": 18_900, "droid": 10_122}[agent]


def test_copilot_init_writes_its_own_hooks_file(tmp_path):
    module = load("copilot")
    path = module.default_path()
    assert path == tmp_path / "home" / ".copilot" / "hooks" / "headroom.json"
    config.apply(module.install(path, ["/opt/headroom/bin/headroom"]), dry_run=False,
                 out=open(os.devnull, "w"))
    assert json.loads(path.read_text()) == {"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": "/opt/headroom/bin/headroom hook copilot", "matcher": "bash",
         "timeoutSec": 30}]}}


def test_copilot_init_never_overwrites_a_hooks_file_it_did_not_write(tmp_path):
    module = load("copilot")
    path = tmp_path / "theirs.json"
    path.write_text('{"version": 1, "hooks": {"preToolUse": []}}')
    with pytest.raises(config.ConfigError):
        module.install(path, ["/opt/headroom/bin/headroom"])


def test_droid_init_keeps_the_rest_of_its_settings_byte_for_byte(tmp_path):
    module = load("droid")
    path = module.default_path()
    path.parent.mkdir(parents=True)
    original = (b'{\n  // chosen in /model\n  "model": "custom:mine",\n'
                b'  "hooks": {"PreToolUse": [{"matcher": "Edit", "hooks": '
                b'[{"type": "command", "command": "lint.sh"}]}]}\n}\n')
    path.write_bytes(original)
    out = open(os.devnull, "w")
    config.apply(module.install(path, ["/opt/headroom/bin/headroom"]), dry_run=False, out=out)
    installed = path.read_bytes()
    assert installed.startswith(b'{\n  // chosen in /model\n  "model": "custom:mine",')
    assert b'"matcher": "Execute"' in installed and b"lint.sh" in installed
    config.apply(module.install(path, ["/opt/headroom/bin/headroom"], uninstall=True),
                 dry_run=False, out=out)
    assert path.read_bytes() == original
    assert not path.with_name(path.name + config.BACKUP_SUFFIX).exists()
