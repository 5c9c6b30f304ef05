"""`headroom history`: reads a conversation in the format users have on disk, writes the aged
view in the same format, keeps the originals so the markers' `headroom show ID` works."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from headroom_cli.conversation import BadConversation, read, write

HERE = Path(__file__).parent
CLAUDE_SESSION = HERE / "history" / "claude-code-session.jsonl"  # a real Claude Code 2.1 session
LOG = (HERE / "cases" / "make-lua-link-error" / "input").read_text()
DIFF = (HERE / "cases" / "diff-git-diff-requests" / "input").read_text()


def openai_conversation() -> list[dict]:
    messages = [{"role": "user", "content": "Why does the build fail?"}]
    for number, (tool, text) in enumerate([("bash", LOG), ("bash", DIFF), ("bash", "ok"),
                                           ("bash", "ok"), ("bash", "ok")]):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{number}", "type": "function",
             "function": {"name": tool, "arguments": "{}"}}]})
        messages.append({"role": "tool", "tool_call_id": f"c{number}", "content": text})
    return messages


def store_env(tmp_path) -> dict:
    return {"HEADROOM_STORE": str(tmp_path / "store")}


def test_a_json_array_is_aged_and_every_marker_gets_its_original_back(run_cli, tmp_path):
    messages = openai_conversation()
    done = run_cli(["history"], json.dumps(messages).encode(), env=store_env(tmp_path))
    assert done.exit_code == 0, done.stderr
    aged = json.loads(done.stdout)
    assert len(aged) == len(messages)
    assert aged[6:] == messages[6:]  # the last three results and their calls
    assert [m for m in aged if m["role"] != "tool"] == [m for m in messages if m["role"] != "tool"]
    for old, new in ((messages[2], aged[2]), (messages[4], aged[4])):
        marker = re.search(r"headroom show ([0-9a-f]{12})", new["content"])
        shown = run_cli(["show", marker.group(1)], env=store_env(tmp_path))
        assert shown.stdout == old["content"].encode()
    again = run_cli(["history"], done.stdout, env=store_env(tmp_path))
    assert json.loads(again.stdout) == aged  # ageing the aged view changes nothing


def test_an_object_with_messages_keeps_its_other_keys(run_cli, tmp_path):
    body = {"model": "gpt-5", "messages": openai_conversation(), "temperature": 0}
    done = run_cli(["history", "--no-store"], json.dumps(body).encode(), env=store_env(tmp_path))
    out = json.loads(done.stdout)
    assert (out["model"], out["temperature"]) == ("gpt-5", 0)
    assert "headroom show" not in out["messages"][2]["content"]  # no copy: a re-run hint
    assert "re-run" in out["messages"][2]["content"]
    assert not (tmp_path / "store").exists()


def test_a_claude_code_session_keeps_every_other_line_byte_for_byte(run_cli, tmp_path):
    lines = CLAUDE_SESSION.read_bytes().splitlines(keepends=True)
    records = [json.loads(line) for line in lines]
    first = next(i for i, r in enumerate(records) if r.get("type") == "user"
                 and isinstance(r["message"]["content"], list))
    records[first]["message"]["content"][0]["content"] = LOG  # a real long log, replayed
    lines[first] = (json.dumps(records[first], separators=(",", ":")) + "\n").encode()
    done = run_cli(["history", "--keep-recent", "1", "-"], b"".join(lines),
                   env=store_env(tmp_path))
    assert done.exit_code == 0, done.stderr
    out = done.stdout.splitlines(keepends=True)
    assert len(out) == len(lines)
    assert [i for i, (a, b) in enumerate(zip(lines, out)) if a != b] == [first]
    new = json.loads(out[first])
    assert {k: v for k, v in new.items() if k != "message"} == \
           {k: v for k, v in records[first].items() if k != "message"}
    assert "headroom show" in new["message"]["content"][0]["content"]


def test_a_pi_session_follows_the_branch_that_ends_the_file():
    header = {"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/p"}

    def entry(id_, parent, message):
        return {"type": "message", "id": id_, "parentId": parent, "timestamp": "t",
                "message": message}

    call = {"role": "assistant", "content": [
        {"type": "toolCall", "id": "t1", "name": "bash", "arguments": {"command": "make"}}]}
    result = {"role": "toolResult", "toolCallId": "t1", "toolName": "bash",
              "content": [{"type": "text", "text": LOG}], "isError": True, "timestamp": 1}
    records = [header, entry("a", None, {"role": "user", "content": "build", "timestamp": 1}),
               entry("b", "a", call), entry("c", "b", result),
               entry("x", "a", {"role": "user", "content": "abandoned branch", "timestamp": 2}),
               {"type": "model_change", "id": "m", "parentId": "c", "timestamp": "t",
                "provider": "p", "modelId": "q"},
               entry("d", "m", {"role": "user", "content": "go on", "timestamp": 3})]
    data = "".join(json.dumps(r) + "\n" for r in records).encode()
    conversation = read(data)
    assert conversation.form == "pi"
    assert [m.get("content") if m["role"] == "user" else m["role"]
            for m in conversation.messages] == ["build", "assistant", "toolResult", "go on"]
    from headroom_cli.history import age_history

    aged = age_history(conversation.messages, keep_recent=0)
    out = write(conversation, aged.messages).decode().splitlines()
    assert "headroom show" in json.loads(out[3])["message"]["content"][0]["text"]
    assert out[:3] + out[4:] == data.decode().splitlines()[:3] + data.decode().splitlines()[4:]


def test_stats_replay_the_session_request_by_request(run_cli, tmp_path):
    messages = openai_conversation()
    done = run_cli(["history", "--stats", "--json"], json.dumps(messages).encode(),
                   env=store_env(tmp_path))
    figures = json.loads(done.stdout)
    turns = figures["turns"]
    assert [t["messages"] for t in turns] == [1, 3, 5, 7, 9, 11]  # before each reply, and now
    assert all(t["aged_tokens"] <= t["baseline_tokens"] for t in turns)
    assert turns[-1]["aged_tokens"] < turns[-1]["baseline_tokens"] / 2
    # Results leave the window one per request: one position changes each time after K.
    assert [t["changed_positions"] for t in turns] == [0, 0, 0, 0, 1, 1]
    assert figures["total"]["baseline_tokens"] == sum(t["baseline_tokens"] for t in turns)
    assert not (tmp_path / "store").exists()  # a report stores nothing
    text = run_cli(["history", "--stats"], json.dumps(messages).encode(), env=store_env(tmp_path))
    assert "2 positions changed" not in text.stdout.decode()
    assert "Cache cost: 2 prompt positions changed" in text.stdout.decode()


@pytest.mark.parametrize("args, data, status, message", [
    (["history"], b'{"a": 1', 1, "stdin: line 1: not JSON"),
    (["history"], b"", 1, "stdin: empty input"),
    (["history"], b'[{"content": "no role"}]', 1, "item 1 is not a message"),
    (["history"], b"\xff\xfe", 1, "not UTF-8"),
    (["history", "/no/such/file"], b"", 1, "cannot read /no/such/file"),
    (["history", "--json"], b"[]", 2, "--json goes with --stats"),
    (["history", "--encoding", "nope"], b"[]", 2, "unknown encoding"),
])
def test_bad_input_is_one_line_and_a_status(run_cli, tmp_path, args, data, status, message):
    done = run_cli(args, data, env=store_env(tmp_path))
    assert done.exit_code == status
    assert message in done.stderr and done.stderr.count("\n") == 1
    assert done.stdout == b""


def test_reading_rejects_what_is_no_conversation():
    with pytest.raises(BadConversation):
        read(b'"just a string"')
    with pytest.raises(BadConversation):
        read(b'{"type": "session"}\n{"type": "message", "id": "a", "message": 3}\n')


def test_a_trim_in_the_session_is_applied_as_the_pi_extension_applies_it(run_cli, tmp_path):
    messages = openai_conversation()[:3] + [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "t", "type": "function", "function": {
                "name": "trim_tool_result", "arguments": '{"summary": "lua: dlopen undefined"}'}}]},
        {"role": "tool", "tool_call_id": "t", "content": "Trimmed"}]
    done = run_cli(["history"], json.dumps(messages).encode(), env=store_env(tmp_path))
    trimmed = json.loads(done.stdout)[2]["content"]
    assert trimmed.startswith("lua: dlopen undefined\n[…headroom: ")
    item = re.search(r"headroom show ([0-9a-f]{12})", trimmed).group(1)
    assert run_cli(["show", item], env=store_env(tmp_path)).stdout == LOG.encode()
