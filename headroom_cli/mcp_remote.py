"""`headroom mcp --url URL`: the proxy in front of a remote MCP server (streamable HTTP).

The client speaks stdio, as to a local server (one JSON-RPC message a line). The server speaks
MCP's streamable HTTP: each client message is POSTed (`Accept: application/json,
text/event-stream`); a request is answered with a JSON body, or with an SSE stream carrying
the server's notifications and requests and, last, the response; a notification or a response
gets 202. The `Mcp-Session-Id` the server gives the first response goes on every later one,
with `MCP-Protocol-Version` (from the initialize result); a GET opens the stream for what the
server sends outside any request; a DELETE ends the session on exit.

Every message the server sends becomes one line to the client, its bytes as sent — save that
line breaks, which in a JSON text can only be whitespace, become spaces — and goes through the
stdio proxy's answer_line: the same `tools/call` results are clipped, nothing else changes.
Lines of concurrent streams never interleave (OutputLine).

Why the standard library rather than the mcp SDK's client transport (measured, see
docs/agents/mcp.md): the SDK parses each message into its pydantic models and serialises it
again (key order and spacing change; `{"id":1,"jsonrpc":…}` comes back as `{"jsonrpc":…,"id":1}`),
and importing it (with anyio and httpx) takes 56 MB and seconds of start-up where this takes
nothing beyond what Python loads anyway.

Errors: the first message decides whether the URL is an MCP server: unreachable, or answered
with anything but JSON-RPC, is one line on stderr and exit status 1 (RemoteError). Later, a
request whose POST fails gets a JSON-RPC error naming the reason, so the client is never left
waiting; a server's own JSON-RPC error is passed on unchanged.
"""

from __future__ import annotations

import json
import sys
import threading
import urllib.error
import urllib.request
from typing import BinaryIO, Iterator

from .agents.clip import note
from .mcp_proxy import (CHUNK, MAX_MESSAGE, Calls, ProxyOptions, answer_line, clipper,
                        note_request, relay)
from .status import ExitStatus
from .values import value

ACCEPT = "application/json, text/event-stream"
FIRST_TIMEOUT = 30  # seconds for the first answer: a URL that never answers is not a server
FIELD_MAX = 1024  # bytes of an SSE line other than data kept (an event's name, an id)
EXIT_TIMEOUT = 5  # seconds for the DELETE that ends the session
PROXY_ERROR = -32603  # JSON-RPC "internal error": the proxy could not get the server's answer


class RemoteError(Exception):
    """The URL is not an MCP server we can reach: one line for stderr."""


@value
class Remote:
    url: str
    headers: tuple[tuple[str, str], ...] = ()  # the user's (--header), on every request


def parse_header(text: str) -> tuple[str, str]:
    """'Name: value' -> (name, value); ValueError without a name."""
    name, colon, value = text.partition(":")
    if not colon or not name.strip():
        raise ValueError(f"--header {text!r}: expected 'Name: value'")
    return name.strip(), value.strip()


class Session:
    """The HTTP side: what every request carries (the user's headers, the session id and
    protocol version the server gave)."""

    def __init__(self, remote: Remote) -> None:
        self.remote = remote
        self.session_id: str | None = None
        self.protocol: str | None = None

    def send(self, method: str, body: bytes | None = None, accept: str = ACCEPT,
             timeout: float | None = None):
        """The server's response (an error status is a response too); OSError when it cannot
        be reached."""
        headers = dict(self.remote.headers)
        headers["Accept"] = accept
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        if self.protocol:
            headers["MCP-Protocol-Version"] = self.protocol
        request = urllib.request.Request(self.remote.url, data=body, headers=headers,
                                         method=method)
        try:
            response = urllib.request.urlopen(request, timeout=timeout)
        except urllib.error.HTTPError as err:
            response = err
        if self.session_id is None and response.headers.get("Mcp-Session-Id"):
            self.session_id = response.headers["Mcp-Session-Id"]
        return response


# --- the server's messages as lines ---------------------------------------------------------

def one_line(data: bytes) -> bytes:
    return data.replace(b"\r", b" ").replace(b"\n", b" ")


def json_lines(stream: BinaryIO) -> Iterator[tuple[bytes, bool]]:
    """A JSON body (one message or a batch) as the pieces of one line."""
    sent = False
    while piece := stream.read(CHUNK):
        piece = one_line(piece)
        sent = sent or bool(piece.strip())
        yield piece, False
    if sent:
        yield b"\n", True


def sse_lines(stream: BinaryIO) -> Iterator[tuple[bytes, bool]]:
    """The data of each `message` event of an SSE stream as the pieces of one line (an event
    without data, such as a resumption point, is none). Read in CHUNK pieces: a data line
    streams past once its field is known; other fields are held up to FIELD_MAX bytes."""
    event, data = b"message", False
    head, streaming = b"", False  # a line's beginning, held until its field is known
    while piece := stream.readline(CHUNK):
        ends = piece.endswith(b"\n")
        piece = piece.rstrip(b"\r\n")
        if streaming:  # the rest of a long data line
            yield piece, False
        else:
            head += piece
            field, colon, value = head.partition(b":")
            if not ends and not (colon and len(head) > len(field) + 2):
                head = head[:FIELD_MAX]
                continue  # too little of the line yet to know its field (and value)
            value = value[1:] if value.startswith(b" ") else value
            if field == b"data" and event == b"message" and (value or not ends):
                yield (b" " + value if data else value), False  # data lines join: a space
                data, streaming = True, not ends
            elif not head and ends:  # a blank line ends the event
                if data:
                    yield b"\n", True
                event, data = b"message", False
            elif field == b"event" and ends:
                event = value
        head = b"" if ends or streaming else head[:FIELD_MAX]
        streaming = streaming and not ends
    if data:
        yield b"\n", True


def message_lines(response) -> Iterator[tuple[bytes, bool]] | None:
    """The response's messages as lines, or None when it carries none (not JSON, not SSE)."""
    kind = response.headers.get_content_type()
    if kind == "text/event-stream":
        return sse_lines(response)
    if kind == "application/json":
        return json_lines(response)
    return None


class OutputLine:
    """One stream's writes to the client's stdout: the lock is held from a line's first byte
    to its end (relay flushes there), so lines of concurrent streams never interleave."""

    def __init__(self, out: BinaryIO, lock: threading.Lock) -> None:
        self.out, self.lock, self.held = out, lock, False

    def write(self, data: bytes) -> None:
        if not self.held:
            self.lock.acquire()
            self.held = True
        self.out.write(data)

    def flush(self) -> None:
        try:
            self.out.flush()
        finally:
            if self.held:
                self.held = False
                self.lock.release()

    def end(self) -> None:
        """After a stream broke inside a line: end it, so the next line is whole."""
        if self.held:
            self.out.write(b"\n")
        self.flush()


# --- the proxy ------------------------------------------------------------------------------

class Proxy:
    def __init__(self, remote: Remote, options: ProxyOptions, out: BinaryIO) -> None:
        self.session = Session(remote)
        self.clip = clipper(options)
        self.out = out
        self.lock = threading.Lock()
        self.calls = Calls()
        self.listening = False

    def forward(self, lines: Iterator[tuple[bytes, bool]]) -> None:
        sink = OutputLine(self.out, self.lock)
        try:
            relay(lines, sink, lambda line: answer_line(line, self.calls, self.clip),
                  self.calls.waiting)
        finally:
            sink.end()

    def reply(self, message: bytes) -> None:
        with self.lock:
            self.out.write(message + b"\n")
            self.out.flush()

    def first(self, body: bytes) -> None:
        """POST the client's first message and check that an MCP server answers; its answer
        to the client. RemoteError when it is not one."""
        url = self.session.remote.url
        try:
            response = self.session.send("POST", body, timeout=FIRST_TIMEOUT)
        except (OSError, ValueError) as err:
            raise RemoteError(f"cannot reach {url}: {reason(err)}") from None
        held, size = [], 0
        with response:
            for piece, _ in message_lines(response) or ():
                size += len(piece)
                if size > MAX_MESSAGE:
                    raise RemoteError(f"{url}: its first answer is over {MAX_MESSAGE >> 20} MB")
                held.append(piece)
        messages = [part for part in b"".join(held).split(b"\n") if part.strip()]
        parsed = [json_rpc(part) for part in messages]
        if not messages and response.status == 202:
            return
        if not parsed or None in parsed:
            kind = response.headers.get_content_type()
            raise RemoteError(f"{url} is not an MCP server (it answered HTTP {response.status}"
                              f" {kind})")
        for body in parsed:
            for message in body if isinstance(body, list) else [body]:
                result = message.get("result")
                if isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
                    self.session.protocol = result["protocolVersion"]
        self.forward(iter([(part + b"\n", True) for part in messages]))

    def post(self, body: bytes, ident: object | None) -> None:
        """POST one client message; the server's answer to the client. `ident`: the id of a
        request in it, answered with a JSON-RPC error when the server's answer cannot be had."""
        try:
            response = self.session.send("POST", body)
        except (OSError, ValueError) as err:
            return self.failed(ident, f"cannot reach {self.session.remote.url}: {reason(err)}")
        with response:
            lines = message_lines(response)
            if lines is not None:
                try:
                    return self.forward(lines)
                except OSError as err:
                    return self.failed(ident, f"the server's answer broke off: {reason(err)}")
            if response.status >= 300:
                self.failed(ident, f"the server answered HTTP {response.status} {response.reason}")
            elif ident is not None:
                self.failed(ident, f"the server answered HTTP {response.status} with no message")

    def failed(self, ident: object | None, why: str) -> None:
        note(f"mcp: {why}")
        if ident is not None:
            error = {"jsonrpc": "2.0", "id": ident,
                     "error": {"code": PROXY_ERROR, "message": f"headroom mcp: {why}"}}
            try:
                self.reply(json.dumps(error).encode())
            except OSError:
                pass  # the client is gone

    def listen(self) -> None:
        """The GET stream of the server's own messages; opened again while it brings some."""
        while True:
            try:
                response = self.session.send("GET", accept="text/event-stream")
            except (OSError, ValueError):
                return
            with response:
                if response.status != 200 or \
                        response.headers.get_content_type() != "text/event-stream":
                    return  # 405: the server offers none
                brought = []
                try:
                    self.forward(piece for piece in sse_lines(response)
                                 if not brought.append(piece))
                except OSError:
                    return
                if not brought:
                    return

    def close(self) -> None:
        if self.session.session_id:
            try:
                self.session.send("DELETE", timeout=EXIT_TIMEOUT).close()
            except (OSError, ValueError):
                pass  # the server may not allow it (405), or be gone: nothing to undo


def reason(err: BaseException) -> str:
    if isinstance(err, urllib.error.URLError) and not isinstance(err.reason, str):
        err = err.reason
    return getattr(err, "strerror", None) or str(err) or type(err).__name__


def json_rpc(data: bytes) -> object | None:
    """The JSON-RPC message (or batch) in `data`, or None when it is not one."""
    try:
        value = json.loads(data)
    except ValueError:
        return None
    messages = value if isinstance(value, list) else [value]
    if messages and all(isinstance(each, dict) and each.get("jsonrpc") == "2.0"
                        for each in messages):
        return value
    return None


def method_of(body: bytes) -> str | None:
    value = json_rpc(body)
    return value.get("method") if isinstance(value, dict) else None


def request_id(body: bytes) -> object | None:
    """The id of the (first) request in a client message, None for a notification or a
    response."""
    value = json_rpc(body)
    for message in value if isinstance(value, list) else [value] if value else []:
        if "method" in message and "id" in message:
            return message["id"]
    return None


def client_lines(stdin: BinaryIO) -> Iterator[bytes]:
    """The client's messages, one a line; one over MAX_MESSAGE is dropped (it cannot be held
    to be POSTed), with a note."""
    while line := stdin.readline(MAX_MESSAGE):
        if not line.endswith(b"\n") and len(line) == MAX_MESSAGE:
            while (rest := stdin.readline(CHUNK)) and not rest.endswith(b"\n"):
                pass
            note(f"mcp: a client message over {MAX_MESSAGE >> 20} MB was not sent")
            continue
        if line.strip():
            yield line.rstrip(b"\r\n")


def run_remote(remote: Remote, options: ProxyOptions, stdin: BinaryIO | None = None,
               stdout: BinaryIO | None = None) -> int:
    """Proxy our stdin/stdout to the server at `remote` until the client closes stdin."""
    stdin = stdin or sys.stdin.buffer
    proxy = Proxy(remote, options, stdout or sys.stdout.buffer)
    lines = client_lines(stdin)
    first = next(lines, None)
    if first is None:
        return ExitStatus.OK
    note_request(first, proxy.calls, options)
    try:
        proxy.first(first)
    except RemoteError as err:
        note(f"mcp: {err}")
        return ExitStatus.ERROR
    requests = []
    for body in lines:
        note_request(body, proxy.calls, options)
        ident = request_id(body)
        if ident is None:  # a notification or an answer: in order, before what follows
            proxy.post(body, None)
            if not proxy.listening and method_of(body) == "notifications/initialized":
                proxy.listening = True
                threading.Thread(target=proxy.listen, daemon=True).start()
        else:  # a request: its answer may take long, and need the client's answers meanwhile
            thread = threading.Thread(target=proxy.post, args=(body, ident), daemon=True)
            thread.start()
            requests = [*(each for each in requests if each.is_alive()), thread]
    for thread in requests:
        thread.join()
    proxy.close()
    return ExitStatus.OK
