"""`headroom init pi --history` and `headroom hook pi-history`: pi's `context` event (a deep copy
of the messages before each request; a handler returns {messages}) aged through headroom, and
the model's `trim_tool_result` calls applied (pi 0.73, docs/extensions.md)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from headroom_cli.agents import HookOptions, run_hook
from headroom_cli.history import TRIM_TOOL, apply_trims, tool_results

HEADROOM = [sys.executable, "-m", "headroom_cli"]
CASES = Path(__file__).parent / "cases"
LOG = (CASES / "make-lua-link-error" / "input").read_text()
GREP = (CASES / "grep-rn-express-req" / "input").read_text()


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "pi-agent"))


def call(id_: str, name: str = "bash", **arguments) -> dict:
    return {"role": "assistant", "content": [
        {"type": "toolCall", "id": id_, "name": name, "arguments": arguments or {"command": "x"}}],
        "api": "openai-completions", "timestamp": 1}


def result(id_: str, text: str, name: str = "bash") -> dict:
    return {"role": "toolResult", "toolCallId": id_, "toolName": name,
            "content": [{"type": "text", "text": text}], "isError": False, "timestamp": 1}


def session(outputs: list[str]) -> list[dict]:
    messages = [{"role": "user", "content": "fix the build", "timestamp": 1}]
    for number, text in enumerate(outputs):
        messages += [call(f"t{number}"), result(f"t{number}", text)]
    return messages


def ask(messages: list[dict], **extra) -> dict:
    payload = json.dumps({"messages": messages, "keep_recent": 3, "budget": 300, **extra})
    return json.loads(run_hook("pi-history", payload.encode(), HookOptions()) or b"{}")


def texts(messages: list[dict]) -> list[str]:
    return [r.text for r in tool_results(messages)]


def test_the_old_results_are_aged_and_the_last_three_kept(tmp_path):
    messages = session([LOG, GREP, LOG[:4000], "ok", "ok"])
    reply = ask(messages)
    out = texts(reply["messages"])
    assert out[2:] == texts(messages)[2:]
    for aged in out[:2]:
        marker = re.search(r"headroom show ([0-9a-f]{12})", aged)
        stored = (tmp_path / "store" / marker.group(1)).read_text()
        assert stored in (LOG, GREP)
    assert reply["aged"] == [2, 4]
    # The extension sends the aged text next time (planned once); the view is the same bytes.
    resent = json.loads(json.dumps(messages))
    for index in reply["aged"]:
        resent[index] = reply["messages"][index]
    later = ask(resent + [call("t9"), result("t9", "ok")])
    assert later["messages"][:5] == reply["messages"][:5]
    assert later["aged"] == [6]  # only the result that just left the window is planned


def test_nothing_to_age_leaves_pis_messages():
    assert ask(session([LOG, "ok"])) == {}
    assert ask([]) == {}
    assert run_hook("pi-history", b"not json", HookOptions()) == b""  # fails open
    assert run_hook("pi-history", b'{"messages": 3}', HookOptions()) == b"{}"


def test_a_trim_replaces_the_latest_result_with_the_summary_and_keeps_the_original(tmp_path):
    messages = session(["ok", LOG])
    messages += [call("tr", TRIM_TOOL, summary="make: undefined reference to dlopen in loadlib.c"),
                 result("tr", "Trimmed", TRIM_TOOL)]
    reply = ask(messages)
    out = texts(reply["messages"])
    assert out[0] == "ok" and out[2] == "Trimmed"
    assert out[1].startswith("make: undefined reference to dlopen in loadlib.c\n")
    assert "replaced by the model's summary above" in out[1]
    item = re.search(r"headroom show ([0-9a-f]{12})", out[1]).group(1)
    assert (tmp_path / "store" / item).read_text() == LOG
    # Before the trim call, nothing changes; after it, the same bytes at every later request.
    assert ask(messages[:-2]) == {}
    later = ask(messages + [call("t7"), result("t7", "ok")])
    assert texts(later["messages"])[1] == out[1]


def test_apply_trims_reads_every_format():
    openai = [{"role": "assistant", "content": None, "tool_calls": [
                  {"id": "a", "type": "function", "function": {"name": "bash", "arguments": "{}"}}]},
              {"role": "tool", "tool_call_id": "a", "content": LOG},
              {"role": "assistant", "content": None, "tool_calls": [
                  {"id": "b", "type": "function", "function": {
                      "name": TRIM_TOOL, "arguments": json.dumps({"summary": "it failed"})}}]},
              {"role": "tool", "tool_call_id": "b", "content": "Trimmed"}]
    anthropic = [{"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "Bash",
                                                    "input": {}}]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a",
                                               "content": LOG}]},
                 {"role": "assistant", "content": [{"type": "tool_use", "id": "b",
                                                    "name": TRIM_TOOL,
                                                    "input": {"summary": "it failed"}}]}]
    for messages in (openai, anthropic):
        trimmed = apply_trims(messages)
        assert trimmed.aged == 1 and trimmed.stored[0].data == LOG.encode()
        assert texts(trimmed.messages)[0].startswith("it failed\n[…headroom: ")
        assert trimmed.messages[2:] == messages[2:]
    assert apply_trims(openai[:2]).aged == 0


def test_init_writes_the_extension_and_uninstall_removes_it(tmp_path):
    env_path = tmp_path / "pi-agent" / "extensions" / "headroom-history.ts"
    done = subprocess.run([*HEADROOM, "init", "pi", "--history"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    source = env_path.read_text()
    assert 'pi.on("context"' in source and 'name: "trim_tool_result"' in source
    assert 'askHeadroom("pi-history"' in source
    assert not (tmp_path / "pi-agent" / "extensions" / "headroom.ts").exists()  # not `init pi`
    # The name the first release documented still works.
    again = subprocess.run([*HEADROOM, "init", "pi-history"], capture_output=True, text=True)
    assert again.returncode == 0 and env_path.read_text() == source
    assert "already hooked into pi (age-aware history)" in again.stdout
    gone = subprocess.run([*HEADROOM, "init", "pi", "--history", "--uninstall"],
                          capture_output=True, text=True)
    assert gone.returncode == 0 and not env_path.exists()


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_history_is_refused_where_the_agent_has_no_history_hook(tmp_path, agent):
    done = subprocess.run([*HEADROOM, "init", agent, "--history"], capture_output=True,
                          text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "no hook on the history" in done.stderr
    assert not (tmp_path / "home").exists() or not any((tmp_path / "home").rglob("*.json"))
