"""A minimal Python harness on the Claude Agent SDK with headroom's hooks, for
test_e2e_claude_sdk.py (run by driver.py, which points Claude Code at the scripted model).

    python claude_sdk_harness.py PROMPT [--mcp-config FILE]

FILE: the session's MCP servers (`{"mcpServers": …}`), as Claude Code's --mcp-config.
"""

from __future__ import annotations

import os
import sys

import anyio
from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

from headroom_cli.integrations.claude_sdk import hook_matchers


async def main(prompt: str, mcp_config: str | None = None) -> int:
    options = ClaudeAgentOptions(hooks=hook_matchers(), permission_mode="bypassPermissions",
                                 cwd=os.getcwd(), env=dict(os.environ),
                                 mcp_servers=mcp_config or {})
    status = 1
    async for message in query(prompt=prompt, options=options):
        if isinstance(message, ResultMessage):
            status = 1 if message.is_error else 0
    return status


if __name__ == "__main__":
    given = sys.argv[2:4] if sys.argv[2:3] == ["--mcp-config"] else []
    sys.exit(anyio.run(main, sys.argv[1], given[1] if given else None))
