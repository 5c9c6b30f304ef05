"""`headroom mcp --url`: the proxy in front of a streamable-HTTP server (mcp_remote.py).

Here: its SSE and JSON reading, and the command against small HTTP servers of the standard
library on 127.0.0.1 (what it sends: the user's headers, the session id, the protocol version,
the DELETE at the end; bad URLs). Its conformance test against a real server (the `mcp` SDK's
FastMCP over streamable HTTP, driven by the SDK's client) is tests/e2e/test_e2e_mcp.py.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import isolated_environ
from headroom_cli import mcp_remote
from headroom_cli.mcp_remote import json_lines, parse_header, sse_lines


def joined(pieces) -> list[bytes]:
    pieces = list(pieces)
    assert all(ends == piece.endswith(b"\n") for piece, ends in pieces)
    return b"".join(piece for piece, _ in pieces).splitlines()


def test_sse_events_become_lines():
    stream = io.BytesIO(b": a comment\r\nid: 0\r\ndata:\r\n\r\n"  # a resumption point: no data
                        b"event: message\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\n"
                        b"event: ping\ndata: {\"not\": \"a message\"}\n\n"
                        b"data: {\"id\":2}\n")  # the stream ends inside the event
    assert joined(sse_lines(stream)) == [b'{"a": 1}', b'{"id":2}']


def test_a_long_sse_line_comes_in_pieces(monkeypatch):
    monkeypatch.setattr(mcp_remote, "CHUNK", 8)
    text = json.dumps({"text": "x" * 100}).encode()
    pieces = list(sse_lines(io.BytesIO(b"event: message\ndata: " + text + b"\n\n")))
    assert max(len(piece) for piece, _ in pieces) <= 8
    assert joined(pieces) == [text]


def test_a_json_body_is_one_line():
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"a": [1, 2]}}, indent=2)
    [got] = joined(json_lines(io.BytesIO(body.encode() + b"\n")))
    assert json.loads(got) == json.loads(body) and b"\n" not in got


def test_a_header_needs_a_name():
    assert parse_header("Authorization:  Bearer a:b ") == ("Authorization", "Bearer a:b")
    with pytest.raises(ValueError):
        parse_header("Bearer")


# --- the command against small servers ------------------------------------------------------

BIG = "\n".join(f"row {number}: src/module_{number}.py passed in {number % 97} ms"
                for number in range(20000))


class Scripted(BaseHTTPRequestHandler):
    """A streamable-HTTP MCP server in miniature: initialize gets a session and JSON; a
    tools/call gets an SSE stream (a progress notification, then the result); notifications
    202; GET 405; DELETE ends the session. It notes what it was sent."""
    seen: list = []

    def log_message(self, *args):
        pass

    def reply(self, status: int, kind: str, body: bytes, **headers) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen.append(("POST", message.get("method"), self.headers))  # names in any case
        if message.get("method") == "initialize":
            result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                      "serverInfo": {"name": "scripted", "version": "1"}}
            self.reply(200, "application/json", json.dumps(
                {"jsonrpc": "2.0", "id": message["id"], "result": result}, indent=1).encode(),
                **{"Mcp-Session-Id": "s-123"})
        elif "id" not in message:
            self.reply(202, "application/json", b"")
        else:
            text = BIG if message["params"]["name"] == "big" else "ok"
            events = [{"jsonrpc": "2.0", "method": "notifications/progress",
                       "params": {"progressToken": 1, "progress": 1}},
                      {"jsonrpc": "2.0", "id": message["id"],
                       "result": {"content": [{"type": "text", "text": text}]}}]
            self.reply(200, "text/event-stream", b"".join(
                b"event: message\r\ndata: " + json.dumps(each).encode() + b"\r\n\r\n"
                for each in events))

    def do_GET(self):
        self.seen.append(("GET", None, self.headers))  # names in any case
        self.reply(405, "text/plain", b"no")

    def do_DELETE(self):
        self.seen.append(("DELETE", None, self.headers))  # names in any case
        self.reply(200, "text/plain", b"")


@pytest.fixture
def serve():
    servers = []

    def start(handler) -> str:
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/mcp"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def remote(args: list[str], messages: list[dict], tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "headroom_cli", "mcp", *args],
                          input=b"".join(json.dumps(each).encode() + b"\n" for each in messages),
                          capture_output=True, env=isolated_environ(str(tmp_path)), timeout=120)


def test_a_session_against_a_scripted_server(serve, tmp_path):
    Scripted.seen = []
    url = serve(Scripted)
    messages = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "small"}},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "big"}}]
    done = remote(["--budget", "1000", "--url", url, "-H", "Authorization: Bearer t0k"],
                  messages, tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert json.loads(lines[0])["result"]["serverInfo"]["name"] == "scripted"
    small = [each for each in lines if b'"text": "ok"' in each]
    assert small == [b'{"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", '
                     b'"text": "ok"}]}}']  # the server's bytes
    assert sum(b"notifications/progress" in each for each in lines) == 2
    big = next(json.loads(each) for each in lines if b'"id": 2' in each or b'"id":2' in each)
    text = big["result"]["content"][0]["text"]
    assert len(text) < len(BIG) // 10 and " show " in text
    requests = {(method, name): headers for method, name, headers in Scripted.seen}
    assert all(headers["Authorization"] == "Bearer t0k" for headers in requests.values())
    assert "Mcp-Session-Id" not in requests["POST", "initialize"]
    later = [headers for (method, name), headers in requests.items() if name != "initialize"]
    assert all(headers["Mcp-Session-Id"] == "s-123" for headers in later)
    assert all(headers["MCP-Protocol-Version"] == "2025-06-18" for headers in later)
    methods = [method for method, _, _ in Scripted.seen]
    assert methods.count("GET") == 1 and methods.count("DELETE") == 1  # 405: GET not retried


class Html(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = b"<html>hello</html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


INIT = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}]


def test_a_web_page_is_not_an_mcp_server(serve, tmp_path):
    done = remote(["--url", serve(Html)], INIT, tmp_path)
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode().count("\n") == 1 and "is not an MCP server" in done.stderr.decode()


def test_an_unreachable_url_is_one_line(tmp_path):
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/mcp"
    done = remote(["--url", url], INIT, tmp_path)
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode().count("\n") == 1 and "cannot reach" in done.stderr.decode()


@pytest.mark.parametrize("args", [["--url", "ftp://x"], ["--url", "http://x", "--", "cat"],
                                  ["-H", "A: b", "--", "cat"], ["--url", "http://x", "-H", "A"]])
def test_bad_options_are_usage_errors(args, tmp_path):
    done = remote(args, [], tmp_path)
    assert done.returncode == 2 and done.stderr.decode().count("\n") == 1
