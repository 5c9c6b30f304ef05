"""`headroom mcp`'s conformance test: real MCP servers, directly and behind the proxy.

Two servers: one built with the `mcp` SDK for the cases a proxy must get right
(mcp_sdk_server.py: a 320 KB result, images, structured content, a failing tool, a tool that
logs, reports progress and asks the client to sample, elicit and list its roots), and
@modelcontextprotocol/server-everything from npm. Each runs twice, directly and behind
`headroom mcp --`, and the proxy must change nothing but the text of a tools/call result
over the budget — checked line by line speaking raw JSON-RPC (every line the client gets is
byte-identical but that one), and through the SDK's own client (every request type, the
server's requests answered by its callbacks, its notifications; the clip's `headroom show`
hint run for real). Marked e2e: each start of an SDK server costs seconds.

Needs the mcp extra (`pip install -e '.[test,mcp]'`); skipped without it.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import isolated_environ

pytestmark = pytest.mark.e2e
mcp = pytest.importorskip("mcp", reason="the conformance test needs the mcp extra")

SERVER = [sys.executable, str(Path(__file__).with_name("mcp_sdk_server.py"))]
BUDGET = 2000
PROXY = [sys.executable, "-m", "headroom_cli", "mcp", "--budget", str(BUDGET), "--"]
HINT = re.compile(r"To retrieve: (.+?) show ([0-9a-f]+)\b")


def line(message: dict) -> bytes:
    return json.dumps(message).encode() + b"\n"


def exchange(command: list[str], env: dict) -> list[bytes]:
    """Speak raw JSON-RPC to `command`: each request in turn, answering the server's own
    requests on the way; every line the client gets, in order."""
    progress = {"_meta": {"progressToken": "p1"}}
    requests = [
        {"method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "clientInfo": {"name": "raw", "version": "1"},
            "capabilities": {"sampling": {}, "elicitation": {}, "roots": {"listChanged": True}}}},
        {"method": "notifications/initialized"},
        {"method": "logging/setLevel", "params": {"level": "debug"}},
        {"method": "tools/list"}, {"method": "resources/list"},
        {"method": "resources/templates/list"}, {"method": "prompts/list"},
        {"method": "resources/read", "params": {"uri": "res://readme"}},
        {"method": "resources/read", "params": {"uri": "res://missing"}},
        {"method": "prompts/get", "params": {"name": "review", "arguments": {"path": "a.py"}}},
        {"method": "ping"}, {"method": "no/such/method"},
        *({"method": "tools/call", "params": {"name": name, "arguments": {}, **progress}}
          for name in ("small", "structured", "image", "fails", "chatty", "export_issues",
                       "mixed", "small")),
    ]
    answers = {"sampling/createMessage": {"role": "assistant", "model": "scripted",
                                          "content": {"type": "text", "text": "hello"}},
               "elicitation/create": {"action": "accept", "content": {"confirm": True}},
               "roots/list": {"roots": [{"uri": "file:///work", "name": "work"}]}}
    got = []
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, env=env) as process:
        for ident, request in enumerate(requests):
            message = {"jsonrpc": "2.0", **request}
            if not request["method"].startswith("notifications/"):
                message["id"] = ident
            process.stdin.write(line(message))
            process.stdin.flush()
            while "id" in message:
                received = process.stdout.readline()
                assert received, f"the server ended before answering {request['method']}"
                got.append(received)
                reply = json.loads(received)
                if reply.get("method") in answers:
                    process.stdin.write(line({"jsonrpc": "2.0", "id": reply["id"],
                                              "result": answers[reply["method"]]}))
                    process.stdin.flush()
                elif reply.get("id") == ident and "method" not in reply:
                    break
        process.stdin.close()
        assert process.wait(timeout=30) == 0
    return got


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    return str(tmp_path_factory.mktemp("mcp"))




@pytest.fixture(scope="module")
def both(home):
    env = isolated_environ(home)
    return exchange(SERVER, env), exchange(PROXY + SERVER, env)


def tool_result(lines: list[bytes], name_index: int) -> dict:
    return json.loads(lines[name_index])


def test_every_line_but_the_large_results_text_is_byte_identical(both):
    direct, proxied = both
    assert len(direct) == len(proxied) > 20
    different = [index for index, (a, b) in enumerate(zip(direct, proxied)) if a != b]
    texts = [json.loads(direct[index])["result"]["content"] for index in different]
    # export_issues, and mixed's text between its two images: nothing else
    assert len(different) == 2, [direct[index][:200] for index in different]
    assert [block["type"] for block in texts[1]] == ["image", "text", "image"]
    for index in different:
        before = json.loads(direct[index])["result"]
        after = json.loads(proxied[index])["result"]
        assert len(direct[index]) > 320_000
        assert [block for block in after["content"] if block["type"] != "text"] == \
            [block for block in before["content"] if block["type"] != "text"]
    kinds = {json.loads(each).get("method") for each in direct}
    assert {"notifications/message", "notifications/progress", "sampling/createMessage",
            "elicitation/create", "roots/list"} <= kinds  # the server did talk to the client
    errors = [json.loads(each) for each in direct if b'"error"' in each[:60] or
              b'"isError":true' in each]
    # logging/setLevel (FastMCP has no logging capability), the unknown resource, the unknown
    # method: JSON-RPC errors; the failing tool: an isError result
    assert len(errors) == 4


def test_the_clipped_text_fits_and_its_hint_gives_back_the_whole(both, home, counter):
    direct, proxied = both
    index = next(index for index, (a, b) in enumerate(zip(direct, proxied)) if a != b)
    whole = json.loads(direct[index])["result"]["content"][0]["text"]
    clipped = json.loads(proxied[index])["result"]["content"][0]["text"]
    assert counter.count(clipped) <= BUDGET
    hint = HINT.search(clipped)
    assert hint, clipped[-400:]
    assert shlex.split(hint.group(1)) == [sys.executable, "-m", "headroom_cli"]
    shown = subprocess.run([*shlex.split(hint.group(1)), "show", hint.group(2)],
                           capture_output=True, env=isolated_environ(home), timeout=60)
    assert shown.returncode == 0 and shown.stdout.decode() == whole


def client_run(command: list[str] | str, home: str, script) -> dict:
    """Run `script(session, seen)` in a session of the SDK's client with `command` (over
    stdio; a URL: over streamable HTTP), whose
    callbacks answer the server's requests (sampling, elicitation, roots) and note its
    notifications (logs, progress) in `seen`; `seen`."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.types import (CreateMessageResult, ElicitResult, ListRootsResult, Root,
                           TextContent)

    seen = {"logs": [], "progress": [], "changed": 0}

    async def sampling(context, params):
        return CreateMessageResult(role="assistant", model="scripted",
                                   content=TextContent(type="text", text="hello"))

    async def elicitation(context, params):
        return ElicitResult(action="accept", content={"confirm": True})

    async def roots(context):
        return ListRootsResult(roots=[Root(uri="file:///work", name="work")])

    async def logged(params):
        seen["logs"].append(params.data)

    async def progressed(progress, total, message):
        seen["progress"].append((progress, total, message))

    async def noticed(message):
        from mcp.types import ServerNotification, ToolListChangedNotification

        if isinstance(message, ServerNotification) and \
                isinstance(message.root, ToolListChangedNotification):
            seen["changed"] += 1
            seen["announced"].set()

    def transport():
        if isinstance(command, str):
            from mcp.client.streamable_http import streamablehttp_client
            return streamablehttp_client(command)
        return stdio_client(StdioServerParameters(command=command[0], args=command[1:],
                                                  env=isolated_environ(home)))

    async def main():
        seen["announced"] = anyio.Event()
        async with transport() as (read, write, *_):
            async with ClientSession(read, write, sampling_callback=sampling,
                                     elicitation_callback=elicitation,
                                     list_roots_callback=roots,
                                     logging_callback=logged,
                                     message_handler=noticed) as session:
                init = await session.initialize()
                seen["server"] = (init.serverInfo.name, init.capabilities.model_dump())
                await script(session, seen, progressed)
                seen["done"] = True

    try:
        anyio.run(main)
    except* anyio.BrokenResourceError:
        # The SDK's stdio client (1.30) can fail in its teardown when the server (npm's
        # server-everything sends log notifications on a timer) writes after the session
        # closed; the script itself must have finished.
        assert seen.pop("done", False), "the client failed before its script finished"
    seen.pop("done", None)
    seen.pop("announced")
    return seen


def error_of(call):
    """The JSON-RPC error a request got, as data."""
    from mcp.shared.exceptions import McpError

    async def run():
        try:
            await call
        except McpError as err:
            return err.error.model_dump()
        return None

    return run()


async def every_request(session, seen, progressed):
    """The conformance script of mcp_sdk_server.py: every request type, every case."""
    seen["tools"] = (await session.list_tools()).model_dump()
    seen["resources"] = (await session.list_resources()).model_dump()
    seen["read"] = (await session.read_resource("res://readme")).model_dump()
    seen["prompt"] = (await session.get_prompt("review", {"path": "a.py"})).model_dump()
    seen["error"] = await error_of(session.read_resource("res://missing"))
    for name in ("small", "structured", "image", "fails", "export_issues"):
        seen[name] = (await session.call_tool(name, {})).model_dump()
    seen["chatty"] = (await session.call_tool("chatty", {}, progress_callback=progressed)
                      ).model_dump()
    seen["announce"] = (await session.call_tool("announce", {})).model_dump()
    import anyio

    with anyio.fail_after(60):  # a notification of no request's: it may come after the result
        await seen["announced"].wait()


def same_but_the_clip(direct: dict, proxied: dict, home: str, counter) -> None:
    big = proxied.pop("export_issues")["content"][0]["text"]
    whole = direct.pop("export_issues")["content"][0]["text"]
    assert len(whole) > 320_000 and counter.count(big) <= BUDGET
    assert proxied == direct
    assert json.loads(direct["chatty"]["content"][0]["text"]) == {
        "sampled": "hello", "elicited": "accept", "confirm": True, "roots": ["file:///work"]}
    assert direct["structured"]["structuredContent"]["city"] == "Lisbon"
    assert direct["fails"]["isError"] and direct["changed"] == 1
    assert direct["progress"] == [(1.0, 2.0, "half way"), (2.0, 2.0, "done")]
    assert "starting" in direct["logs"] and direct["error"]["message"]
    hint = HINT.search(big)
    shown = subprocess.run([*shlex.split(hint.group(1)), "show", hint.group(2)],
                           capture_output=True, env=isolated_environ(home), timeout=60)
    assert shown.returncode == 0 and shown.stdout.decode() == whole


def test_the_sdks_client_sees_the_same_server_through_the_proxy(home, counter):
    direct = client_run(SERVER, home, every_request)
    proxied = client_run(PROXY + SERVER, home, every_request)
    same_but_the_clip(direct, proxied, home, counter)


# --- a remote server: streamable HTTP on 127.0.0.1, the proxy's --url ------------------------

@pytest.fixture(scope="module")
def http_url(home):
    """mcp_sdk_server.py serving streamable HTTP on a free port of 127.0.0.1; its URL once
    uvicorn says it is listening."""
    import socket
    import threading

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([*SERVER, "http", str(port)], stderr=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, env=isolated_environ(home))
    for said in process.stderr:
        if b"Uvicorn running on" in said:
            break
    else:
        pytest.fail(f"the HTTP server ended with status {process.wait()}")
    threading.Thread(target=process.stderr.read, daemon=True).start()  # it logs each request
    yield f"http://127.0.0.1:{port}/mcp"
    process.terminate()
    process.wait(timeout=30)


def test_a_remote_server_through_the_proxy_is_the_same_server(http_url, home, counter):
    """The SDK's client over streamable HTTP, and over stdio through `headroom mcp --url`:
    the same answers, notifications and server requests; only the 320 KB text clipped."""
    direct = client_run(http_url, home, every_request)
    proxied = client_run([*PROXY[:-1], "--url", http_url], home, every_request)
    same_but_the_clip(direct, proxied, home, counter)


def test_a_remote_servers_small_result_is_its_bytes(http_url, home):
    """Raw JSON-RPC through the proxy; the same requests POSTed by httpx: the small result's
    line is the data of the server's SSE event, byte for byte."""
    import httpx

    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}
    ready = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "small", "arguments": {}}}
    with httpx.Client(headers={"Accept": "application/json, text/event-stream"}) as client:
        session = client.post(http_url, json=init).headers["mcp-session-id"]
        headers = {"mcp-session-id": session, "mcp-protocol-version": "2025-06-18"}
        client.post(http_url, json=ready, headers=headers)
        body = client.post(http_url, json=call, headers=headers).text
        client.delete(http_url, headers=headers)
    sent = [each[len("data: "):] for each in body.splitlines() if each.startswith("data: ")]
    done = subprocess.run([*PROXY[:-1], "--url", http_url], input=line(init) + line(ready) +
                          line(call), capture_output=True, env=isolated_environ(home),
                          timeout=60)
    assert done.returncode == 0, done.stderr
    answers = done.stdout.splitlines()
    assert len(answers) == 2 and json.loads(answers[0])["result"]["serverInfo"]
    assert answers[1] == sent[-1].encode() and b"all closed" in answers[1]


def test_a_wrong_path_on_a_real_server_is_one_line(http_url, home):
    done = subprocess.run([*PROXY[:-1], "--url", http_url.replace("/mcp", "/nothing")],
                          input=b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
                          capture_output=True, env=isolated_environ(home), timeout=60)
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.count(b"\n") == 1 and b"not an MCP server" in done.stderr


def test_a_server_from_npm_through_the_proxy(home, counter):
    """@modelcontextprotocol/server-everything: its tools, resources, prompts, progress,
    sampling and errors unchanged; a 320 KB echo clipped, its hint giving back the whole."""
    from harness import EVERYTHING, npm_bin

    server = [str(npm_bin("mcp-everything", *EVERYTHING)), "stdio"]
    big = json.dumps([{"row": number, "path": f"src/module_{number}.py", "status": "passed"}
                      for number in range(5000)])
    assert 320_000 <= len(big) < 330_000

    async def script(session, seen, progressed):
        tools = (await session.list_tools()).model_dump()
        seen["tools"] = sorted(tool["name"] for tool in tools["tools"])
        seen["prompts"] = (await session.list_prompts()).model_dump()
        resources = (await session.list_resources()).model_dump()["resources"]
        seen["resources"] = resources[:5]
        seen["read"] = (await session.read_resource(resources[0]["uri"])).model_dump()
        seen["missing"] = await error_of(session.read_resource("demo://nothing/here"))
        for name, arguments in (("get-sum", {"a": 2, "b": 3}), ("get-tiny-image", {}),
                                ("get-structured-content", {"location": "Chicago"}),
                                ("get-annotated-message", {"messageType": "error",
                                                           "includeImage": True}),
                                ("get-resource-links", {"count": 2}),
                                ("no-such-tool", {})):
            seen[name] = (await session.call_tool(name, arguments)).model_dump()
        seen["long"] = (await session.call_tool(
            "trigger-long-running-operation", {"duration": 0.2, "steps": 2},
            progress_callback=progressed)).model_dump()
        if "trigger-sampling-request" in seen["tools"]:
            seen["sampled"] = (await session.call_tool(
                "trigger-sampling-request", {"prompt": "hi?", "maxTokens": 5})).model_dump()
        seen["echo"] = (await session.call_tool("echo", {"message": big})).model_dump()

    direct = client_run(server, home, script)
    proxied = client_run(PROXY + server, home, script)
    whole = direct.pop("echo")["content"][0]["text"]
    clipped = proxied.pop("echo")["content"][0]["text"]
    assert big in whole and clipped != whole and counter.count(clipped) <= BUDGET
    assert proxied == direct
    assert "image" in [block["type"] for block in direct["get-tiny-image"]["content"]]
    assert direct["no-such-tool"]["isError"] and direct["missing"]
    assert len(direct["progress"]) == 2
    assert "hello" in json.dumps(direct["sampled"])  # the proxy carried the server's request
    hint = HINT.search(clipped)
    shown = subprocess.run([*shlex.split(hint.group(1)), "show", hint.group(2)],
                           capture_output=True, env=isolated_environ(home), timeout=60)
    assert shown.returncode == 0 and shown.stdout.decode() == whole
