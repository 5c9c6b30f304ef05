"""A small MCP server over stdio for the end-to-end tests: JSON-RPC 2.0, one message a line.

Tools:
    search_issues  a JSON page of 400 issues (about 170 KB), like a tracker's search API;
    dump_issues    the same 400 issues as an indented export with their comments (about
                   320 KB, 10,000+ lines): over Claude Code's own MCP limit (25,000 tokens);
    build_log      a 2 MB plain-text build log (20,000 lines, two errors, a summary last);
    small          `{"ok": true}`: fits any budget, so it must reach the model unchanged.

    python mcp_server.py            # speaks on stdin/stdout until stdin ends
    python mcp_server.py build_log  # prints that tool's text (a 2 MB shell output)
"""

from __future__ import annotations

import json
import sys

STATUSES = ("Open", "Done", "In Progress")


def issues() -> list[dict]:
    return [{"id": number, "key": f"PROJ-{number}",
             "summary": f"Issue number {number} about the parser",
             "status": STATUSES[number % 3],
             "assignee": {"name": f"user{number % 7}", "email": f"user{number % 7}@example.com"},
             "labels": ["backend", "parser"],
             "description": f"Steps to reproduce issue {number}: " + "parse the file; " * 12}
            for number in range(1, 401)]


def export() -> str:
    found = [dict(issue, comments=[{"author": f"user{(issue['id'] + n) % 7}",
                                    "body": f"Comment {n} on {issue['key']}: seen again on the nightly build."}
                                   for n in (1, 2)]) for issue in issues()]
    return json.dumps({"project": "PROJ", "total": len(found), "issues": found}, indent=2)


BUILD_LINES = 20_000


def build_log() -> str:
    """A CI job's log as a log API returns it: a timestamp and a level on every line."""
    lines = []
    for n in range(1, BUILD_LINES + 1):
        stamp = f"2026-11-26T{10 + n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"
        if n in (7_777, 15_001):
            lines.append(f"{stamp} ERROR cc: module_{n}.c: undefined symbol parse_{n} "
                         f"(first referenced in module_{n - 1}.o)")
        else:
            lines.append(f"{stamp} INFO  cc -O2 -Wall -Iinclude -c module_{n}.c -o "
                         f"module_{n}.o ({n % 97} warnings suppressed)")
    lines.append(f"2026-11-26T16:00:00Z INFO  build finished: {BUILD_LINES} steps, 2 errors")
    return "\n".join(lines) + "\n"


def tool_text(name: str) -> str:
    if name == "search_issues":
        found = issues()
        return json.dumps({"total": len(found), "issues": found})
    if name == "dump_issues":
        return export()
    if name == "build_log":
        return build_log()
    return json.dumps({"ok": True})


TOOLS = [{"name": "search_issues", "description": "Search the issue tracker",
          "inputSchema": {"type": "object", "properties": {}}},
         {"name": "dump_issues", "description": "Export every issue of the tracker",
          "inputSchema": {"type": "object", "properties": {}}},
         {"name": "build_log", "description": "The last build's log",
          "inputSchema": {"type": "object", "properties": {}}},
         {"name": "small", "description": "A small answer",
          "inputSchema": {"type": "object", "properties": {}}}]


def answer(message: dict) -> dict | None:
    method, ident = message.get("method"), message.get("id")
    if ident is None:
        return None  # a notification
    if method == "initialize":
        result = {"protocolVersion": message.get("params", {}).get("protocolVersion",
                                                                   "2025-06-18"),
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "e2e", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        text = tool_text(message["params"]["name"])
        result = {"content": [{"type": "text", "text": text}], "isError": False}
    else:
        result = {}
    return {"jsonrpc": "2.0", "id": ident, "result": result}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = answer(json.loads(line))
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[1:]:
        sys.stdout.write(tool_text(sys.argv[1]))
    else:
        main()
