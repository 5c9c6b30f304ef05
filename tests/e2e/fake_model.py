"""A scripted model server on 127.0.0.1 for the agent end-to-end tests (no real model, no network).

It speaks just enough of four wire formats, streaming and not:

- Anthropic Messages (POST /v1/messages) — Claude Code, and pi's anthropic-messages provider;
- OpenAI Chat Completions (POST /v1/chat/completions) — pi's and opencode's providers;
- OpenAI Responses (POST /v1/responses, server-sent events) — Codex CLI;
- Gemini (POST /v1beta/models/M:generateContent and :streamGenerateContent?alt=sse) —
  Gemini CLI.

The script is a list of shell commands. While a conversation has sent back fewer tool results
than there are commands, the server answers with a call of the agent's shell tool running the
next command; then it answers with plain text. A command FOLLOW_HINT is the retrieval command
the previous tool result's headroom marker names — a model following the marker's own hint.
Every tool result the agent sends back is recorded, in order, in a JSON-lines file.

Requests that are not part of the scripted conversation (a title, a quota probe, a summary)
get a short text answer.

    python fake_model.py --port-file PORT --log LOG --tool Bash --command 'CMD' [--command …]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MARKER = "HEADROOM-E2E"
FOLLOW_HINT = "@follow-the-hint"
TOOL_CALL = "@tool "
# A command the auto-mode check flags (the rest it lets through): see auto_mode_verdict.
FLAGGED = "@flagged "
# The marker's retrieval hint: `headroom show ID --lines A:B` (the store kept the output; the
# command may be named by its absolute path), or a re-run `piped through sed -n 'A,Bp'`.
# (`/venv/bin/python -m headroom_cli show …` when the hook runs headroom that way.)
_HEADROOM = r"(?:\S+ -m headroom_cli|\S*headroom)"
_SHOW_HINT = re.compile(rf"To retrieve: ({_HEADROOM} show [0-9a-f]+ --lines \d+:\d+)")
_SHOW_ID = re.compile(rf"To retrieve: ({_HEADROOM} show [0-9a-f]+)")
_RERUN_HINT = re.compile(r"To retrieve: re-run piped through (sed -n '\d+,\d+p')")


class Script:
    def __init__(self, commands: list[str], tool: str, log_path: str,
                 context_tokens: int | None = None):
        self.commands = commands
        self.tool = tool
        self.log_path = log_path
        self.lock = threading.Lock()
        # The context every reply reports (Anthropic Messages' usage), as a long session's
        # would: mostly read from the prompt cache. None: 15 tokens, no cache.
        self.context_tokens = context_tokens

    def usage(self) -> dict:
        """An Anthropic Messages usage block summing to the scripted context."""
        tokens = self.context_tokens
        if tokens is None:
            return {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0,
                    "cache_read_input_tokens": 0}
        return {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 1000,
                "cache_read_input_tokens": tokens - 1015}

    def openai_usage(self) -> dict:
        """A Chat Completions usage block: the scripted context, else 15 tokens."""
        tokens = 15 if self.context_tokens is None else self.context_tokens
        return {"prompt_tokens": tokens - 5, "completion_tokens": 5, "total_tokens": tokens}

    def record(self, entry: dict) -> None:
        with self.lock, open(self.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")

    def next_command(self, results: list[dict]) -> str | None:
        """The command to ask for after `results`, or None: the script is done."""
        if len(results) >= len(self.commands):
            return None
        command = self.commands[len(results)]
        if command.startswith(FLAGGED):
            command = command[len(FLAGGED):]
        if command.startswith(FOLLOW_HINT):
            return hint_command(results[-1]["text"] if results else "",
                                self.commands[len(results) - 1] if results else "",
                                command[len(FOLLOW_HINT):].strip())
        return command


# Arguments a shell tool requires besides the command (Factory Droid's Execute rejects a call
# without its risk classification).
SHELL_EXTRA_ARGUMENTS = {
    "Execute": {"riskLevelReason": "scripted e2e command", "riskLevel": "low"},
}


def tool_call(command: str, shell_tool: str) -> tuple[str, dict]:
    """(tool, input) for a script entry: `@tool NAME {JSON input}` calls another tool (an MCP
    tool, Read, pi's trim_tool_result); anything else is a shell command (Anthropic Messages,
    OpenAI Chat Completions and Responses)."""
    if command.startswith(TOOL_CALL):
        name, _, arguments = command[len(TOOL_CALL):].partition(" ")
        return name, json.loads(arguments or "{}")
    return shell_tool, {"command": command, "description": "scripted e2e command"}


def auto_mode_verdict(body: dict, tool_use_id: str, flagged: bool) -> list | None:
    """The server-side check of Claude Code's auto mode, as 2.1.330 asks for it and reads it
    (its bundle): a request carrying `"safeguards": [{"type": "dangerous_tool_use", …}]` is
    answered, in its message_delta's `delta`, with
        "safeguard_results": [{"type": "dangerous_tool_use", "status": {"type": "available",
            "tool_uses": {ID: {"type": "evaluated", "outcome": "flagged" | "not_flagged"}}}}]
    None when the request asked for no check."""
    if not any(isinstance(guard, dict) and guard.get("type") == "dangerous_tool_use"
               for guard in body.get("safeguards") or []):
        return None
    verdict = {"type": "evaluated", "outcome": "flagged" if flagged else "not_flagged"}
    if flagged:
        verdict["explanation"] = "scripted: this command is flagged"
    return [{"type": "dangerous_tool_use",
             "status": {"type": "available", "tool_uses": {tool_use_id: verdict}}}]


def hint_command(text: str, previous: str, options: str = "") -> str:
    """The command the marker in `text` says to run for the omitted lines (`FOLLOW_HINT
    --grep X`: the marker's `headroom show ID`, with these options of the model's choosing)."""
    found = _SHOW_ID.search(text)
    if options and found:
        return f"{found.group(1)} {options}"
    found = _SHOW_HINT.search(text)
    if found:
        return found.group(1)
    found = _RERUN_HINT.search(text)
    if found:
        return f"{{ {previous}\n}} 2>&1 | {found.group(1)}"
    return "echo 'no headroom hint in the last tool result'"


# --- reading a conversation ----------------------------------------------------------------

def _text_of(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict):
                if block.get("type") in ("text", "input_text", "output_text"):
                    parts.append(block.get("text", ""))
                elif block.get("type") == "tool_result":
                    parts.append(_text_of(block.get("content")))
        return "".join(parts)
    return ""


def anthropic_tool_results(body: dict) -> list[dict]:
    results = []
    for message in body.get("messages", []):
        if message.get("role") != "user" or not isinstance(message.get("content"), list):
            continue
        for block in message["content"]:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                results.append({"text": _text_of(block.get("content")),
                                "is_error": bool(block.get("is_error"))})
    return results


def openai_tool_results(body: dict) -> list[dict]:
    return [{"text": _text_of(message.get("content")), "is_error": None}
            for message in body.get("messages", []) if message.get("role") == "tool"]


def responses_tool_results(body: dict) -> list[dict]:
    results = []
    for item in body.get("input") or []:
        if isinstance(item, dict) and item.get("type") == "function_call_output":
            output = item.get("output")
            results.append({"text": output if isinstance(output, str) else _text_of(output),
                            "is_error": None})
    return results


def gemini_tool_results(body: dict) -> list[dict]:
    results = []
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            response = part.get("functionResponse") if isinstance(part, dict) else None
            if isinstance(response, dict):
                value = response.get("response")
                text = value.get("output") if isinstance(value, dict) else None
                results.append({"text": text if isinstance(text, str) else json.dumps(value),
                                "is_error": isinstance(value, dict) and "error" in value})
    return results


def gemini_said(body: dict) -> str:
    return " ".join(part.get("text", "") for content in body.get("contents") or []
                    if content.get("role") == "user" for part in content.get("parts") or []
                    if isinstance(part, dict))


def scripted(body: dict, tool_names: list[str]) -> bool:
    """Is this the scripted conversation (our marker in a user turn, our tool offered)?"""
    said = " ".join(_text_of(m.get("content")) for m in body.get("messages", [])
                    if m.get("role") == "user")
    return MARKER in said and bool(tool_names)


# --- the handler ---------------------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    script: Script  # set on the class by serve()
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        self._json(200, {"data": [], "object": "list"})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path.split("?", 1)[0]
        if ":generateContent" in path or ":streamGenerateContent" in path:
            self._gemini(body, stream=":streamGenerateContent" in path)
        elif ":countTokens" in path:
            self._json(200, {"totalTokens": 100})
        elif path.endswith("/responses"):
            self._responses(body)
        elif path.endswith("/messages/count_tokens"):
            # About what a tokenizer counts (characters / 4): Claude Code asks this of an MCP
            # result near its limit, to decide whether to save it to a file.
            self._json(200, {"input_tokens": max(1, len(raw) // 4)})
        elif path.endswith("/messages"):
            self._anthropic(body)
        elif path.endswith("/chat/completions"):
            self._openai(body)
        else:
            self._json(404, {"error": {"type": "not_found", "message": path}})

    # Anthropic Messages ---------------------------------------------------------------------
    def _anthropic(self, body: dict) -> None:
        tools = [tool.get("name", "") for tool in body.get("tools") or []]
        results = anthropic_tool_results(body)
        script = self.script
        command = None
        flagged = False
        if scripted(body, tools) and script.tool in tools:
            script.record({"api": "anthropic", "step": len(results), "tool_results": results,
                           "model": body.get("model")})
            command = script.next_command(results)
            flagged = script.commands[len(results)].startswith(FLAGGED) if command else False
        delta = {"stop_reason": "end_turn", "stop_sequence": None}
        if command is not None:
            name, arguments = tool_call(command, script.tool)
            block = {"type": "tool_use", "id": f"toolu_e2e_{len(results)}", "name": name,
                     "input": arguments}
            stop = "tool_use"
            verdict = auto_mode_verdict(body, block["id"], flagged)
            if verdict is not None:
                delta["safeguard_results"] = verdict
        else:
            block = {"type": "text", "text": "done"}
            stop = "end_turn"
        message = {"id": f"msg_e2e_{len(results)}", "type": "message", "role": "assistant",
                   "model": body.get("model", "fake"), "content": [block], "stop_reason": stop,
                   "stop_sequence": None,
                   "usage": script.usage()}
        if not body.get("stream"):
            self._json(200, message)
            return
        start = dict(message, content=[], stop_reason=None)
        events = [("message_start", {"type": "message_start", "message": start})]
        if block["type"] == "tool_use":
            events.append(("content_block_start", {
                "type": "content_block_start", "index": 0,
                "content_block": {"type": "tool_use", "id": block["id"], "name": block["name"],
                                  "input": {}}}))
            events.append(("content_block_delta", {
                "type": "content_block_delta", "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}}))
        else:
            events.append(("content_block_start", {
                "type": "content_block_start", "index": 0,
                "content_block": {"type": "text", "text": ""}}))
            events.append(("content_block_delta", {
                "type": "content_block_delta", "index": 0,
                "delta": {"type": "text_delta", "text": block["text"]}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": 0}))
        events.append(("message_delta", {"type": "message_delta",
                                         "delta": dict(delta, stop_reason=stop),
                                         "usage": {"output_tokens": 5}}))
        events.append(("message_stop", {"type": "message_stop"}))
        self._sse([f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events])

    # OpenAI Chat Completions -----------------------------------------------------------------
    def _openai(self, body: dict) -> None:
        tools = [tool.get("function", {}).get("name", "") for tool in body.get("tools") or []]
        results = openai_tool_results(body)
        script = self.script
        command = None
        if scripted(body, tools) and script.tool in tools:
            script.record({"api": "openai", "step": len(results), "tool_results": results,
                           "model": body.get("model"), "tools": sorted(tools)})
            command = script.next_command(results)
        base = {"id": f"chatcmpl-e2e-{len(results)}", "created": 0,
                "model": body.get("model", "fake")}
        usage = script.openai_usage()
        if command is not None:
            name, arguments = tool_call(command, script.tool)
            if name == script.tool and not command.startswith(TOOL_CALL):
                arguments = {"command": command, **SHELL_EXTRA_ARGUMENTS.get(name, {})}
            call = {"index": 0, "id": f"call_e2e_{len(results)}", "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)}}
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": "done"}
            finish = "stop"
        if not body.get("stream"):
            self._json(200, dict(base, object="chat.completion", usage=usage, choices=[
                {"index": 0, "message": message, "finish_reason": finish}]))
            return
        chunk = dict(base, object="chat.completion.chunk")
        chunks = [dict(chunk, choices=[{"index": 0, "delta": dict(message),
                                        "finish_reason": None}]),
                  dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": finish}]),
                  dict(chunk, choices=[], usage=usage)]
        self._sse([f"data: {json.dumps(c)}\n\n" for c in chunks] + ["data: [DONE]\n\n"])

    # OpenAI Responses ------------------------------------------------------------------------
    def _responses(self, body: dict) -> None:
        tools = {tool.get("name", ""): tool for tool in body.get("tools") or []
                 if isinstance(tool, dict)}
        results = responses_tool_results(body)
        script = self.script
        command = None
        said = " ".join(_text_of(item.get("content")) for item in body.get("input") or []
                        if isinstance(item, dict) and item.get("role") == "user")
        if MARKER in said and script.tool in tools:
            script.record({"api": "responses", "step": len(results), "tool_results": results,
                           "model": body.get("model"), "tools": sorted(tools),
                           "developer": [_text_of(item.get("content")) for item in
                                         body.get("input") or [] if isinstance(item, dict)
                                         and item.get("role") == "developer"]})
            command = script.next_command(results)
        if command is not None:
            name, arguments = tool_call(command, script.tool)
            if name == script.tool and not command.startswith(TOOL_CALL):
                properties = tools[script.tool].get("parameters", {}).get("properties", {})
                arguments = {"cmd" if "cmd" in properties else "command": command}
            item = {"type": "function_call", "id": f"fc_e2e_{len(results)}",
                    "call_id": f"call_e2e_{len(results)}", "name": name,
                    "arguments": json.dumps(arguments), "status": "completed"}
            if "/" in name:  # `@tool NAMESPACE/NAME`: a tool Codex offers in a namespace (MCP)
                namespace, item["name"] = name.split("/", 1)
                item["namespace"] = namespace
        else:
            item = {"type": "message", "id": f"msg_e2e_{len(results)}", "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": "done", "annotations": []}]}
        usage = {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
                 "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens_details": {"reasoning_tokens": 0}}
        response = {"id": f"resp_e2e_{len(results)}", "object": "response",
                    "status": "completed", "output": [item], "usage": usage}
        events = [
            ("response.created", {"type": "response.created",
                                  "response": dict(response, status="in_progress", output=[])}),
            ("response.output_item.done", {"type": "response.output_item.done",
                                           "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "response": response})]
        self._sse([f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events])

    # Gemini ----------------------------------------------------------------------------------
    def _gemini(self, body: dict, stream: bool) -> None:
        tools = [declaration.get("name", "") for tool in body.get("tools") or []
                 for declaration in tool.get("functionDeclarations") or []]
        results = gemini_tool_results(body)
        script = self.script
        command = None
        if MARKER in gemini_said(body) and script.tool in tools:
            script.record({"api": "gemini", "step": len(results), "tool_results": results,
                           "model": self.path.split("/models/", 1)[-1].split(":", 1)[0],
                           "tools": sorted(tools)})
            command = script.next_command(results)
        if command is not None:
            name, arguments = tool_call(command, script.tool)
            part = {"functionCall": {"name": name, "args": arguments}}
        else:
            part = {"text": "done"}
        reply = {"candidates": [{"content": {"role": "model", "parts": [part]},
                                 "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                   "totalTokenCount": 15},
                 "modelVersion": "scripted", "responseId": f"e2e-{len(results)}"}
        if stream:
            self._sse([f"data: {json.dumps(reply)}\r\n\r\n"])
        else:
            self._json(200, reply)

    # wire helpers ---------------------------------------------------------------------------
    def _json(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events: list[str]) -> None:
        data = "".join(events).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def serve(script: Script, port: int = 0) -> ThreadingHTTPServer:
    handler = type("ScriptedHandler", (Handler,), {"script": script})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--tool", default="Bash")
    parser.add_argument("--command", action="append", default=[])
    parser.add_argument("--context-tokens", type=int, default=None)
    args = parser.parse_args(argv)
    server = serve(Script(args.command, args.tool, args.log, args.context_tokens))
    with open(args.port_file + ".tmp", "w") as out:
        out.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
