"""Every agent hook fails open on every fault: the command's own output and exit status reach
the agent, with at most one line on stderr (issue #12, item 4).

Each test plays the agent's part for real, as a process: the hook gets the agent's JSON; a
command the hook rewrote is run by bash as the agent would run it (its filter is headroom's
installed script, by absolute path); what the agent would read back is checked. The faults are
real too: a broken config file, a store that cannot be created, a ledger another process holds
a write lock on, a digest command that fails, and a damaged tokenizer cache.
"""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import HEADROOM_SCRIPT, locked_ledger

COMMAND = "seq 1 3000; false"  # 3,000 lines (clipped at --budget 200), then exit status 1
OUTPUT = b"".join(b"%d\n" % n for n in range(1, 3001))
BUDGET = "200"


# --------------------------------------------------------------------------------- the faults

def broken_config(home: Path, env: dict):
    path = home / "config" / "headroom" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('budget = "lots"\n')
    yield


def unwritable_store(home: Path, env: dict):
    (home / "a-file").write_text("not a directory\n")
    env["HEADROOM_STORE"] = str(home / "a-file" / "store")
    yield


def locked_ledger_fault(home: Path, env: dict):
    with locked_ledger(home / "state" / "headroom" / "ledger.sqlite3"):
        yield


def failing_digest(home: Path, env: dict):
    env["HEADROOM_DIGEST_COMMAND"] = "false"
    yield


def broken_tokenizer(home: Path, env: dict):
    # The parsed rank table is cached in $XDG_CACHE_HOME/headroom: make it once, then damage
    # every file there with well-formed data of the wrong shape.
    from headroom_cli.tokens import load_counter

    cache = home / "cache" / "headroom"
    load_counter("cl100k_base", cache_dir=str(cache))
    damaged = list(cache.iterdir())
    assert damaged, "the tokenizer cache was not written: nothing to damage"
    for path in damaged:
        path.write_bytes(marshal.dumps(42))
    yield


FAULTS = [broken_config, unwritable_store, locked_ledger_fault, failing_digest, broken_tokenizer]


@pytest.fixture(params=FAULTS, ids=lambda fault: fault.__name__)
def faulty_env(request, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith("HEADROOM_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"),
               XDG_STATE_HOME=str(home / "state"), XDG_CACHE_HOME=str(home / "cache"),
               HEADROOM_STORE=str(home / "store"), TMPDIR=str(tmp_path))
    fault = request.param(home, env)
    next(fault)
    yield request.param.__name__, env
    next(fault, None)


def hook(agent: str, payload: bytes, env: dict, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([HEADROOM_SCRIPT, "hook", agent, "--budget", BUDGET, *extra],
                          input=payload, capture_output=True, env=env, timeout=120)


def at_most_one_line(stderr: bytes) -> None:
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text
    assert len(text.strip().splitlines()) <= 1, text


def reached_the_agent(output: bytes, fault: str) -> None:
    """The command's output: whole under a broken config (nothing of headroom's applies),
    else its head and its end, around a marker."""
    if fault == "broken_config":
        assert output == OUTPUT
        return
    assert output.startswith(b"1\n2\n") and output.rstrip().endswith(b"3000")
    assert b"Traceback" not in output
    if output != OUTPUT:
        assert b"[\xe2\x80\xa6headroom:" in output


# ------------------------------------------------------------------------- the filter itself

def test_filter(faulty_env):
    fault, env = faulty_env
    run = hook("filter", OUTPUT, env, "--exit-status", "1")
    assert run.returncode == 0
    at_most_one_line(run.stderr)
    reached_the_agent(run.stdout, fault)


# -------------------------------------------- hooks that rewrite the command before it runs

CLAUDE = {"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
          "permission_mode": "bypassPermissions", "hook_event_name": "PreToolUse",
          "tool_name": "Bash", "tool_input": {"command": COMMAND}, "tool_use_id": "t1"}
CODEX = {"session_id": "s", "turn_id": "t", "cwd": "/tmp", "hook_event_name": "PreToolUse",
         "model": "gpt-5.5", "permission_mode": "default", "tool_name": "Bash",
         "tool_input": {"command": COMMAND}, "tool_use_id": "c1"}
GEMINI = {"session_id": "s", "cwd": "/tmp", "hook_event_name": "BeforeTool",
          "tool_name": "run_shell_command", "tool_input": {"command": COMMAND}}
COPILOT = {"sessionId": "s", "timestamp": 1795721118518, "cwd": "/tmp", "toolName": "bash",
           "toolArgs": {"command": COMMAND, "description": "run", "mode": "sync"}}
DROID = {"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
         "permission_mode": "auto-high", "hook_event_name": "PreToolUse", "tool_name": "Execute",
         "tool_input": {"command": COMMAND, "riskLevel": "low"}}
CRUSH = {"event": "PreToolUse", "session_id": "s", "cwd": "/tmp", "tool_name": "bash",
         "tool_input": {"description": "run", "command": COMMAND}}
CURSOR = {"conversation_id": "c", "generation_id": "g", "hook_event_name": "preToolUse",
          "tool_name": "Shell", "tool_input": {"command": COMMAND, "cwd": "/tmp"},
          "workspace_roots": ["/tmp"]}


def command_after(reply: bytes) -> str:
    """The command the agent runs after the hook's reply (the original when it changed none):
    Claude Code's shape, Copilot's modifiedArgs, Crush's and Cursor's updated_input."""
    if not reply.strip():
        return COMMAND
    answer = json.loads(reply)
    found = answer.get("hookSpecificOutput", {})
    tool_input = found.get("updatedInput") or found.get("tool_input") or \
        answer.get("modifiedArgs") or answer.get("updated_input") or {}
    return tool_input.get("command", COMMAND)


@pytest.mark.parametrize("agent, payload", [
    ("claude", CLAUDE), ("codex", CODEX), ("gemini", GEMINI), ("copilot", COPILOT),
    ("droid", DROID), ("crush", CRUSH), ("cursor", CURSOR)])
def test_rewriting_hooks(agent, payload, faulty_env, tmp_path):
    fault, env = faulty_env
    decided = hook(agent, json.dumps(payload).encode(), env)
    assert decided.returncode == 0
    at_most_one_line(decided.stderr)
    command = command_after(decided.stdout)
    assert command != COMMAND or fault == "broken_config", "the hook wrapped nothing"
    ran = subprocess.run(["bash", "-c", command], capture_output=True, env=env, cwd=tmp_path,
                         timeout=120)
    assert ran.returncode == 1  # the command's own status
    reached_the_agent(ran.stdout, fault)


# ------------------------------------------------------ hooks that replace a tool's output

@pytest.mark.parametrize("agent", ["opencode", "kilo"])  # Kilo runs opencode's plugin
def test_opencode(agent, faulty_env):
    fault, env = faulty_env
    event = {"tool": "bash", "args": {"command": COMMAND}, "output": OUTPUT.decode(),
             "metadata": {"exit": 1}}
    run = hook(agent, json.dumps(event).encode(), env)
    assert run.returncode == 0
    at_most_one_line(run.stderr)
    reply = json.loads(run.stdout or b"{}")
    reached_the_agent(reply.get("output", OUTPUT.decode()).encode(), fault)


def test_pi(faulty_env):
    fault, env = faulty_env
    event = {"toolName": "bash", "input": {"command": COMMAND},
             "content": [{"type": "text", "text": OUTPUT.decode()}], "details": {},
             "isError": False}
    run = hook("pi", json.dumps(event).encode(), env)
    assert run.returncode == 0
    at_most_one_line(run.stderr)
    reply = json.loads(run.stdout or b"{}")
    text = reply["content"][0]["text"] if reply else OUTPUT.decode()
    reached_the_agent(text.encode(), fault)


def test_hermes(faulty_env):
    fault, env = faulty_env
    event = {"hook": "terminal", "command": COMMAND, "output": OUTPUT.decode(), "returncode": 1,
             "session_id": "s"}
    run = hook("hermes", json.dumps(event).encode(), env)
    assert run.returncode == 0
    at_most_one_line(run.stderr)
    reply = json.loads(run.stdout or b"{}")
    reached_the_agent(reply.get("output", OUTPUT.decode()).encode(), fault)


def test_qwen(faulty_env, tmp_path):
    """Qwen Code's shell tool is headroom's: the hook runs the command itself, and the tool's
    result is its output (clipped, or whole on a fault) and then `Exit Code: N`."""
    fault, env = faulty_env
    run = subprocess.run([HEADROOM_SCRIPT, "hook", "qwen", "--budget", BUDGET],
                         input=json.dumps({"command": COMMAND}).encode(), capture_output=True,
                         env=env, cwd=tmp_path, timeout=120)
    assert run.returncode == 0
    at_most_one_line(run.stderr)
    output, status_line = run.stdout.rsplit(b"\n", 1) if not run.stdout.endswith(b"\n") \
        else (run.stdout, b"")
    assert status_line == b"Exit Code: 1"
    reached_the_agent(output + b"\n", fault)


def test_the_piped_filter_keeps_the_status_line_status(faulty_env):
    fault, env = faulty_env
    tag = "headroom-status-0123456789abcdef"
    run = hook("filter", OUTPUT + f"\n{tag} 3\n".encode(), env, "--status-line", tag)
    assert run.returncode == 3
    at_most_one_line(run.stderr)
    reached_the_agent(run.stdout, fault)
