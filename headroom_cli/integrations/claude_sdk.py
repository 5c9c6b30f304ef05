"""The Claude Agent SDK: ready-made hook matchers for `ClaudeAgentOptions(hooks=…)`.

    from claude_agent_sdk import ClaudeAgentOptions, query
    from headroom_cli.integrations.claude_sdk import hook_matchers

    options = ClaudeAgentOptions(hooks=hook_matchers(budget=6000))
    async for message in query(prompt="…", options=options): …

The SDK runs the Claude Code CLI, which calls these hooks in-process with the same events it
gives a command hook, so they are Claude Code's own integration (agents/claude.py and
claude_post.py), answered the same way: a PreToolUse hook on Bash that wraps the command so
its output is clipped (only commands Claude Code would run without asking), and a PostToolUse
hook on MCP tools (`updatedMCPToolOutput`) — the store, the markers and the `headroom show`
hint as in Claude Code. Fails open: any error leaves the tool call and its output as they are.
"""

from __future__ import annotations

import json

from . import require
from ..agents import HookOptions, run_hook
from ..agents import claude, claude_post
from ..agents.clip import headroom_argv
from ..defaults import DEFAULT_HOOK_BUDGET


def hook_matchers(*, budget: int | None = None, store: bool = True) -> dict:
    """{"PreToolUse": [HookMatcher], "PostToolUse": [HookMatcher]} for ClaudeAgentOptions.
    `budget` None: the hooks' default, which follows how full the context is; N: always N."""
    sdk = require("claude_agent_sdk", "claude-sdk", "headroom's Claude Agent SDK hooks")
    options = HookOptions(budget=DEFAULT_HOOK_BUDGET if budget is None else budget,
                          headroom=headroom_argv(), store=store,
                          budget_given=budget is not None)

    async def hook(input_data: dict, tool_use_id: str | None, context) -> dict:
        return answer(input_data, options)

    return {claude.EVENT: [sdk.HookMatcher(matcher=claude.MATCHER, hooks=[hook])],
            claude_post.EVENT: [sdk.HookMatcher(matcher=claude_post.matcher(), hooks=[hook])]}


def answer(event: dict, options: HookOptions) -> dict:
    """The hook's answer to an event, as Claude Code's command hook gives it ({}: no change)."""
    try:
        reply = run_hook(claude.NAME, json.dumps(event).encode(), options)
        return json.loads(reply) if reply.strip() else {}
    except (TypeError, ValueError):  # an event that is not JSON: no opinion
        return {}
