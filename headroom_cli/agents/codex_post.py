"""Codex after the fact: a PostToolUse hook on MCP tools that tells the model where the whole
of a result Codex cut is kept.

Checked against @openai/codex 0.169.0 (the binary's hook schemas, real runs against a scripted
model: tests/e2e/test_e2e_codex.py). The hook gets the MCP result whole:
    {"hook_event_name": "PostToolUse", "tool_name": "mcp__SERVER__TOOL", "tool_input": {…},
     "tool_response": {"content": [{"type": "text", "text": …}, …], "isError": false}, …}
Codex refuses a replacement ("PostToolUse hook returned unsupported updatedMCPToolOutput": the
hook is marked Failed and the result goes on as it was), and cuts a result over its limit
itself — 10,000 bytes for a model without catalogue metadata, about 40,000 for the catalogue's
— to its first and last parts. It does take `additionalContext`
    {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": NOTE}}
which reaches the model as a developer message after the result. So for a text result over
CODEX_CUT bytes the hook keeps the whole in the store and NOTE says how to get any part of it
back (`headroom show ID --grep PATTERN`). A result that fits, an image, a server listed in
`[hooks] mcp_skip`, a store that is off or cannot be written: no answer.
"""

from __future__ import annotations

from . import HookOptions
from .clip import hook_program, note

EVENT = "PostToolUse"
MATCHER = "mcp__.*"
# Codex's own cut for a model without catalogue metadata (bytes; `truncation_policy`): the
# smaller of its two, so no result it cuts goes without the note.
CODEX_CUT = 10_000


def reply(event: dict, options: HookOptions) -> dict | None:
    """The hook's answer to a PostToolUse event, or None: nothing to add."""
    tool = event.get("tool_name")
    if not (isinstance(tool, str) and tool.startswith("mcp__")) or not options.store:
        return None
    text = result_text(event.get("tool_response"))
    if text is None:
        return None
    data = text.encode("utf-8", "surrogateescape")
    if len(data) <= CODEX_CUT or _server(tool) in _skipped():
        return None
    kept = _keep(data)
    if kept is None:
        return None
    return {"hookSpecificOutput": {"hookEventName": EVENT,
                                   "additionalContext": whole_note(tool, data, *kept)}}


def result_text(response: object) -> str | None:
    """The text of an MCP result made only of text blocks (None: another shape)."""
    blocks = response.get("content") if isinstance(response, dict) else None
    if not (isinstance(blocks, list) and blocks and all(
            isinstance(block, dict) and block.get("type") == "text"
            and isinstance(block.get("text"), str) for block in blocks)):
        return None
    return "\n".join(block["text"] for block in blocks)


def whole_note(tool: str, data: bytes, item_id: str, whole: bool = True) -> str:
    """What the model is told of a result Codex cut (deterministic: the same result, the
    same note). `whole`: False when the store kept only its head and tail (larger than half
    the store's cap; `headroom show` then says what is missing)."""
    program = hook_program()
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    kept = "The whole is kept" if whole else "Its head and tail are kept (it is too large " \
        "for the store)"
    return (f"headroom: the {tool} result above is {len(data):,} bytes ({lines:,} lines); "
            f"Codex shows only the first and last parts of a result over {CODEX_CUT:,} bytes. "
            f"{kept}: `{program} show {item_id} --grep PATTERN` prints the lines matching "
            f"PATTERN, numbered; `{program} show {item_id} --lines A:B` lines A to B.")


def _server(tool: str) -> str:
    return tool.split("__")[1] if tool.count("__") >= 2 else ""


def _skipped() -> frozenset[str]:
    from .claude_post import settings_from_config  # the [hooks] settings every agent shares

    return settings_from_config().mcp_skip


def _keep(data: bytes) -> tuple[str, bool] | None:
    """`data` put in the store: (its content id, kept whole?); None when the store is off or
    cannot be written (the model then has Codex's cut alone, as without the hook)."""
    import time

    from ..run import configured_store
    from ..store import content_id

    try:
        store, retention = configured_store()
        if store is None:
            return None
        item_id = content_id(data)
        layout = store.put(item_id, data, retention, time.time())
        return item_id, layout.tail_from == layout.head_bytes
    except Exception as err:  # noqa: BLE001 - a hook never fails: the result goes on as it is
        note(f"could not keep the MCP result ({type(err).__name__}: {err})")
        return None
