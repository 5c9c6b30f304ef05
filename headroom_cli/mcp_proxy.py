"""`headroom mcp -- SERVER …`: a stdio MCP proxy that clips the text of large tool results.

MCP over stdio is JSON-RPC 2.0, one message a line, both ways. The proxy starts the server,
copies every line from the client to the server and back, and changes exactly one kind of
message: the server's response to a client's `tools/call` whose text content is over the
budget. That text is clipped by the same run as every hook (agents/clip.py: the planner that
fits, the whole output in the store, a marker naming `headroom show ID`). Everything else —
initialize, the lists, notifications, progress, logging, the server's own requests (sampling,
elicitation, roots) and the client's answers, errors, results that fit, images, resources —
is forwarded byte for byte, in order.

Why not the `mcp` SDK: a proxy built on it would parse every message into its models and
serialise it again (dropping what its version does not know, pinning the protocol versions it
accepts), and a client session plus a server session per run. The framing is a line, and only
`tools/call` results need reading, so the proxy parses only the requests (to know which ids
are tool calls) and those results, and depends on nothing; the SDK's client and servers are
what its conformance test drives (tests/test_mcp_proxy.py).

Bounded: a line is read in CHUNK pieces; one held for parsing is at most MAX_MESSAGE bytes —
a longer one is forwarded as it arrives, unparsed (so unclipped). Fails open: a result that
cannot be clipped is forwarded as the server sent it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from typing import BinaryIO, Callable, Iterable, Iterator

from .agents.clip import clip_text, note
from .defaults import DEFAULT_HOOK_BUDGET
from .status import ExitStatus
from .values import field, value

CHUNK = 1 << 20
MAX_MESSAGE = 64 << 20  # bytes of one message held to be parsed; past it, forwarded as is
TEXT_JOINER = "\n"  # between the text blocks of one result, clipped as one text


@value
class ProxyOptions:
    budget: int = DEFAULT_HOOK_BUDGET
    skip_tools: frozenset[str] = frozenset()  # tools whose results pass whole
    store: bool = True


@value(frozen=False)
class Calls:
    """The client's `tools/call` requests still waiting for their response: id -> tool name.
    Filled by the client's side, emptied by the server's (hence the lock)."""
    pending: dict = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, ident: object, tool: str) -> None:
        with self.lock:
            self.pending[_key(ident)] = tool

    def take(self, ident: object) -> str | None:
        with self.lock:
            return self.pending.pop(_key(ident), None)

    def waiting(self) -> bool:
        with self.lock:
            return bool(self.pending)


def _key(ident: object) -> str:
    # 1 and "1" are different ids; json.dumps tells them apart (and hashes any JSON value).
    return json.dumps(ident, sort_keys=True)


# --- the messages ---------------------------------------------------------------------------

def note_request(line: bytes, calls: Calls, options: ProxyOptions) -> None:
    """Remember the id of a `tools/call` in this client line (a message or a batch); forget
    one the client cancels."""
    try:
        value = json.loads(line)
    except ValueError:
        return
    for message in value if isinstance(value, list) else [value]:
        if not isinstance(message, dict):
            continue
        method, params = message.get("method"), message.get("params")
        if method == "tools/call" and "id" in message and isinstance(params, dict):
            name = params.get("name")
            if isinstance(name, str) and name not in options.skip_tools:
                calls.add(message["id"], name)
        elif method == "notifications/cancelled" and isinstance(params, dict):
            calls.take(params.get("requestId"))


def answer_line(line: bytes, calls: Calls, clip: Callable[[str], str]) -> bytes:
    """The server's line as the client gets it: clipped when it answers a pending `tools/call`
    whose text is over the budget; otherwise (and on any failure) `line` itself."""
    try:
        value = json.loads(line)
    except ValueError:
        return line
    messages = value if isinstance(value, list) else [value]
    changed = False
    for index, message in enumerate(messages):
        if not (isinstance(message, dict) and "method" not in message and "id" in message):
            continue  # a request or notification of the server's: never a tool's result
        tool = calls.take(message["id"])
        if tool is None or not isinstance(message.get("result"), dict):
            continue  # not a tool call's, or an error: passed on unchanged
        try:
            result = clipped_result(message["result"], clip)
        except Exception as err:  # noqa: BLE001 - fail open: the server's own result
            note(f"mcp: could not clip {tool} ({type(err).__name__}: {err}); passed whole")
            continue
        if result is not None:
            messages[index] = dict(message, result=result)
            changed = True
    if not changed:
        return line
    return _dump(messages if isinstance(value, list) else messages[0]) + line[_newline(line):]


def clipped_result(result: dict, clip: Callable[[str], str]) -> dict | None:
    """A CallToolResult with its text content clipped, or None when it fits (or has no text).

    The text blocks are clipped as one text (a server may answer with a block per item), which
    takes the place of the first of them; images, audio, resources and links keep their
    places. `structuredContent` stays whole: it must match the tool's outputSchema, which a
    clipped value would not, and clients give the model the text (the spec has a tool with
    structured content repeat it as text for that reason)."""
    content = result.get("content")
    if not isinstance(content, list):
        return None
    texts = [index for index, block in enumerate(content)
             if isinstance(block, dict) and block.get("type") == "text"
             and isinstance(block.get("text"), str)]
    if not texts:
        return None
    text = TEXT_JOINER.join(content[index]["text"] for index in texts)
    clipped = clip(text)
    if clipped == text:
        return None
    first = content[texts[0]]
    kept = [dict(first, text=clipped) if index == texts[0] else block
            for index, block in enumerate(content) if index == texts[0] or index not in texts]
    return dict(result, content=kept)


def _dump(value: object) -> bytes:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from a \\ud800 escape: escaped again
        return json.dumps(value, separators=(",", ":")).encode("ascii")


def _newline(line: bytes) -> int:
    """Where the line's ending (\\n or \\r\\n, or none at the end of a stream) starts."""
    if line.endswith(b"\r\n"):
        return len(line) - 2
    return len(line) - 1 if line.endswith(b"\n") else len(line)


# --- the streams ----------------------------------------------------------------------------

def pieces(stream: BinaryIO) -> Iterator[tuple[bytes, bool]]:
    """The stream's bytes as (piece, ends a line): a line arrives in pieces of at most CHUNK
    bytes, so a huge one never sits whole in memory."""
    while True:
        piece = stream.readline(CHUNK)
        if not piece:
            return
        yield piece, piece.endswith(b"\n")


def relay(source: Iterable[tuple[bytes, bool]], sink: BinaryIO,
          handle: Callable[[bytes], bytes], wanted: Callable[[], bool] = lambda: True) -> None:
    """Copy the lines of `source` (pieces, as `pieces` gives them) to `sink`, in order. A
    whole line of at most MAX_MESSAGE bytes goes through `handle` when `wanted()` (checked as
    the line starts); any other line is forwarded piece by piece as it arrives. `sink` is
    flushed at each line's end."""
    held: list[bytes] | None = None
    size = 0
    for piece, ends in source:
        if held is None and size == 0 and wanted():
            held = []
        if held is not None:
            held.append(piece)
            size += len(piece)
            if ends:
                sink.write(handle(b"".join(held)))
            elif size > MAX_MESSAGE:  # too long to hold: the rest streams past, unparsed
                sink.write(b"".join(held))
                held = None
        else:
            size += len(piece)
            sink.write(piece)
        if ends:
            held, size = None, 0
            sink.flush()
    if held:  # the stream ended inside a line
        sink.write(handle(b"".join(held)))
    sink.flush()


def run_proxy(server: list[str], options: ProxyOptions, stdin: BinaryIO | None = None,
              stdout: BinaryIO | None = None) -> int:
    """Run `server`, proxy our stdin/stdout to it until it ends; its exit status."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    try:
        process = subprocess.Popen(server, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except FileNotFoundError:
        note(f"mcp: {server[0]}: command not found")
        return ExitStatus.NOT_FOUND
    except OSError as err:
        note(f"mcp: cannot run {server[0]}: {err.strerror or err}")
        return ExitStatus.CANNOT_EXECUTE
    calls = Calls()
    clip = clipper(options)

    def requests(line: bytes) -> bytes:
        note_request(line, calls, options)
        return line

    def client_to_server() -> None:
        try:
            relay(pieces(stdin), process.stdin, requests)
        except (OSError, ValueError):
            pass  # the server is gone: its side ends the run
        finally:
            try:
                process.stdin.close()  # the client is done: so is the server's input
            except OSError:
                pass

    threading.Thread(target=client_to_server, daemon=True).start()
    try:
        relay(pieces(process.stdout), stdout, lambda line: answer_line(line, calls, clip),
              calls.waiting)
    except BrokenPipeError:  # the client went away: so does the server
        process.terminate()
        _quiet_stdout()
    status = process.wait()
    return status if status >= 0 else ExitStatus.SIGNAL_BASE - status


def clipper(options: ProxyOptions) -> Callable[[str], str]:
    """How a tool result's text is clipped: as every hook clips a tool's output."""
    return lambda text: clip_text(text, tool=None, budget=options.budget, store=options.store)


def _quiet_stdout() -> None:
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
