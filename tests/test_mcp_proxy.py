"""`headroom mcp`: the stdio MCP proxy (headroom_cli/mcp_proxy.py), message by message.

Its conformance test against real servers (one built with the `mcp` SDK, one from npm), driven
by the SDK's client and by a real agent, is tests/e2e/test_e2e_mcp.py: each start of an
SDK server costs seconds, too slow for the default suite.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import isolated_environ
from headroom_cli import mcp_proxy
from headroom_cli.mcp_proxy import (Calls, ProxyOptions, answer_line, clipped_result, pieces,
                                    relay)


def shout(text: str) -> str:  # a stand-in clip: changes any text over 10 characters
    return text if len(text) <= 10 else text[:10] + "[clipped]"


def line(message: dict) -> bytes:
    return json.dumps(message).encode() + b"\n"


# --- the messages, one at a time ------------------------------------------------------------

def pending(*ids) -> Calls:
    calls = Calls()
    for ident in ids:
        calls.add(ident, "tool")
    return calls


def test_only_the_answer_to_a_pending_tool_call_is_clipped():
    result = {"content": [{"type": "text", "text": "a long text of a tool"}]}
    answer = line({"jsonrpc": "2.0", "id": 7, "result": result})
    assert answer_line(answer, pending(), shout) is answer  # no call waits for it
    assert answer_line(answer, pending("7"), shout) is answer  # "7" is not 7
    calls = pending(7)
    clipped = json.loads(answer_line(answer, calls, shout))
    assert clipped["result"]["content"] == [{"type": "text", "text": "a long tex[clipped]"}]
    assert not calls.waiting()


def test_errors_requests_and_notifications_of_the_server_pass_unchanged():
    calls = pending(1, 2)
    error = line({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "x" * 50}})
    request = line({"jsonrpc": "2.0", "id": 2, "method": "sampling/createMessage",
                    "params": {"messages": [{"content": {"type": "text", "text": "y" * 50}}]}})
    log = line({"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": "z" * 50}})
    for message in (error, request, log, b"not json at all\n"):
        assert answer_line(message, calls, shout) is message
    assert calls.pending == {"2": "tool"}  # the server's own request 2 answered nothing


def test_a_result_that_fits_or_has_no_text_passes_byte_for_byte():
    image = {"type": "image", "data": "A" * 400, "mimeType": "image/png"}
    for result in ({"content": [{"type": "text", "text": "short"}]}, {"content": [image]},
                   {"content": "not a list"}, {"structuredContent": {"a": 1}}):
        answer = b'{"id":3,  "jsonrpc":"2.0","result":' + json.dumps(result).encode() + b"}\r\n"
        assert answer_line(answer, pending(3), shout) is answer


def test_text_blocks_are_clipped_as_one_and_other_blocks_keep_their_places():
    image = {"type": "image", "data": "A" * 400, "mimeType": "image/png"}
    result = {"content": [image, {"type": "text", "text": "first part", "annotations": {}},
                          {"type": "resource", "resource": {"uri": "x:", "text": "r" * 99}},
                          {"type": "text", "text": "second part"}],
              "structuredContent": {"rows": ["r" * 99]}, "isError": False}
    clipped = clipped_result(result, shout)
    assert clipped["content"] == [image, {"type": "text", "text": "first part[clipped]",
                                          "annotations": {}}, result["content"][2]]
    assert clipped["structuredContent"] == result["structuredContent"]  # left whole
    assert clipped["isError"] is False


def test_a_batch_has_only_its_tool_results_clipped():
    text = {"content": [{"type": "text", "text": "a long text of a tool"}]}
    batch = json.dumps([{"jsonrpc": "2.0", "id": 1, "result": text},
                        {"jsonrpc": "2.0", "id": 2, "result": text}]).encode() + b"\n"
    answers = json.loads(answer_line(batch, pending(2), shout))
    assert answers[0]["result"] == text
    assert answers[1]["result"]["content"][0]["text"] == "a long tex[clipped]"


def test_a_clip_that_fails_forwards_the_servers_result(capsys):
    def broken(text):
        raise RuntimeError("boom")

    answer = line({"jsonrpc": "2.0", "id": 1,
                   "result": {"content": [{"type": "text", "text": "t" * 99}]}})
    assert answer_line(answer, pending(1), broken) is answer
    assert "boom" in capsys.readouterr().err


def test_requests_are_noted_and_cancelled_ones_forgotten():
    calls, options = Calls(), ProxyOptions(skip_tools=frozenset({"raw"}))
    for message in ({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "a"}},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "raw"}},
                    {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
                    {"jsonrpc": "2.0", "id": "q", "method": "tools/call",
                     "params": {"name": "b"}}):
        mcp_proxy.note_request(line(message), calls, options)
    assert calls.pending == {"1": "a", '"q"': "b"}
    mcp_proxy.note_request(line({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                 "params": {"requestId": 1}}), calls, options)
    assert calls.pending == {'"q"': "b"}


def test_a_line_too_long_to_hold_streams_past_in_pieces(monkeypatch):
    monkeypatch.setattr(mcp_proxy, "CHUNK", 16)
    monkeypatch.setattr(mcp_proxy, "MAX_MESSAGE", 64)

    class Sink(io.BytesIO):
        largest = 0

        def write(self, data):
            Sink.largest = max(Sink.largest, len(data))
            return super().write(data)

    handled = []
    data = b'{"id":1,"result":"' + b"x" * 1000 + b'"}\n{"id":2}\npartial'
    sink = Sink()
    relay(pieces(io.BufferedReader(io.BytesIO(data))), sink,
          lambda held: handled.append(held) or held)
    assert sink.getvalue() == data
    assert handled == [b'{"id":2}\n', b"partial"]  # the long line was never held whole
    assert Sink.largest <= 64 + 16


# --- the command, end to end (a plain stdio server, no SDK) ---------------------------------

SMALL_SERVER = [sys.executable, str(Path(__file__).parent / "e2e" / "mcp_server.py")]


def proxy(args: list[str], requests: list[dict], tmp_path) -> subprocess.CompletedProcess:
    env = isolated_environ(str(tmp_path))
    return subprocess.run([sys.executable, "-m", "headroom_cli", "mcp", *args],
                          input=b"".join(line(request) for request in requests),
                          capture_output=True, env=env, timeout=120)


def test_the_proxy_clips_a_large_result_and_passes_the_rest(tmp_path):
    calls = [{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
              "params": {"name": name}} for name in ("small", "search_issues")]
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    requests = [calls[0], listing, dict(calls[1], id=3)]
    direct = subprocess.run(SMALL_SERVER, input=b"".join(map(line, requests)),
                            capture_output=True, timeout=60).stdout.splitlines(keepends=True)
    done = proxy(["--budget", "1000", "--", *SMALL_SERVER], requests, tmp_path)
    proxied = done.stdout.splitlines(keepends=True)
    assert done.returncode == 0 and proxied[:2] == direct[:2]  # byte for byte
    text = json.loads(proxied[2])["result"]["content"][0]["text"]
    assert len(direct[2]) > 150_000 and len(text) < 10_000 and " show " in text


def test_a_skipped_tool_passes_whole(tmp_path):
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "search_issues"}}
    done = proxy(["--budget", "1000", "--skip-tool", "search_issues", "--", *SMALL_SERVER],
                 [request], tmp_path)
    assert len(done.stdout) > 150_000


def test_a_server_that_cannot_start_is_one_line_and_its_status(tmp_path):
    done = proxy(["--", str(tmp_path / "no-such-server")], [], tmp_path)
    assert done.returncode == 127 and done.stderr.decode().count("\n") == 1
    assert b"command not found" in done.stderr
