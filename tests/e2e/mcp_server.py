"""A small MCP server over stdio for the end-to-end tests: JSON-RPC 2.0, one message a line.

Tools:
    search_issues  a JSON page of 400 issues (about 170 KB), like a tracker's search API;
    small          `{"ok": true}`: fits any budget, so it must reach the model unchanged.

    python mcp_server.py        # speaks on stdin/stdout until stdin ends
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


def tool_text(name: str) -> str:
    if name == "search_issues":
        found = issues()
        return json.dumps({"total": len(found), "issues": found})
    return json.dumps({"ok": True})


TOOLS = [{"name": "search_issues", "description": "Search the issue tracker",
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
    main()
