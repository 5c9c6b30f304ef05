"""pi, opt-in: age-aware history and the model's own trims (`headroom init pi --history`).

pi (@mariozechner/pi-coding-agent 0.73, docs/extensions.md) fires `context` before each model
request with a deep copy of the messages; a handler may return `{messages}` to send instead,
and the session keeps its own. The extension hands them to `headroom hook pi-history`, which
applies the model's trims and ages the old tool results (headroom_cli.history), keeps the
originals in the store and returns the view. It also registers the tool `trim_tool_result`:
the model replaces the latest tool result by its own summary, from the next request on.

Each aged result is planned once: the extension remembers the text headroom returned for it
(by tool call id) and sends that the next time; an aged text fits the budget, so ageing leaves
it as it is. On any error the messages go to the model as pi had them.

The extension file is ~/.pi/agent/extensions/headroom-history.ts ($PI_CODING_AGENT_DIR
respected), beside the clipping extension of `headroom init pi`; both can be installed.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from . import HookOptions, config
from .clip import hook_program
from .plugins import ASK_HEADROOM, plugin_change

NAME = "pi-history"
SIGNATURE = "headroom: installed by `headroom init pi-history`"

NOTES = """\
pi now sends its history aged: the last 3 tool results verbatim, each older one cut to 300
tokens by headroom's planners, with a marker naming its stored copy (`headroom show ID`); the
model may also call trim_tool_result to replace the latest result by its own summary. pi's
session keeps every original. Restart pi (or /reload) to load the extension."""

EXTENSION = """\
// {signature}; `headroom init pi --history --uninstall` removes it.
// Before each model request, the messages pass through `headroom hook pi-history`: the last
// KEEP_RECENT tool results stay verbatim, older ones are cut to BUDGET tokens (their originals
// kept in headroom's store), and results the model trimmed are replaced by its summary. pi's
// session keeps the originals. On any error the messages are sent as they were.
import {{ spawn }} from "node:child_process";

const HEADROOM: string[] = {headroom};
const KEEP_RECENT = 3;
const BUDGET = 300;
// The text headroom sent for an aged result, by tool call id: planned once, then reused.
const aged = new Map<string, string>();

{ask}

function textOf(message: any): string | undefined {{
  const block = Array.isArray(message?.content) ? message.content : [];
  return block.length === 1 && block[0]?.type === "text" ? block[0].text : undefined;
}}

export default function (pi: any) {{
  pi.on("context", async (event: any, ctx: any) => {{
    if (!event || !Array.isArray(event.messages)) return;
    try {{
      const messages = event.messages.map((m: any) =>
        m?.role === "toolResult" && aged.has(m.toolCallId) && textOf(m) !== undefined
          ? {{ ...m, content: [{{ type: "text", text: aged.get(m.toolCallId) }}] }}
          : m,
      );
      const reply = await askHeadroom("pi-history",
        {{ messages, keep_recent: KEEP_RECENT, budget: BUDGET }}, ctx?.signal);
      if (!reply || !Array.isArray(reply.messages)) return;
      if (reply.messages.length !== messages.length) return;
      for (const index of reply.aged ?? []) {{
        const m = reply.messages[index];
        const text = textOf(m);
        if (m?.role === "toolResult" && text !== undefined) aged.set(m.toolCallId, text);
      }}
      return {{ messages: reply.messages }};
    }} catch {{
      // send the messages as they were
    }}
  }});

  pi.registerTool({{
    name: "trim_tool_result",
    label: "Trim tool result",
    description:
      "Replace the most recent tool result in this conversation by your own summary of it, " +
      "to keep the context small. Call it right after the result, with everything you still " +
      "need from it in the summary. The original is kept: the summary's marker names " +
      "`headroom show ID`, which prints it.",
    promptSnippet: "Replace the latest tool result by your own summary of it",
    parameters: {{
      type: "object",
      properties: {{
        summary: {{ type: "string", description: "What to keep of the latest tool result." }},
      }},
      required: ["summary"],
      additionalProperties: false,
    }},
    async execute() {{
      return {{
        content: [{{ type: "text", text: "Trimmed: from the next request on, the previous " +
          "tool result is your summary (the original is in headroom's store)." }}],
        details: {{}},
      }};
    }},
  }});
}}
"""


def default_path() -> Path:
    base = os.environ.get("PI_CODING_AGENT_DIR") or os.path.join(os.path.expanduser("~"), ".pi",
                                                                 "agent")
    return Path(base) / "extensions" / "headroom-history.ts"


def extension_source(headroom: list[str]) -> bytes:
    return EXTENSION.format(signature=SIGNATURE, headroom=json.dumps(headroom),
                            ask=ASK_HEADROOM).encode()


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    return [plugin_change(path, extension_source(headroom), SIGNATURE, uninstall)]


def handle(payload: bytes, options: HookOptions) -> bytes:
    """{"messages", "keep_recent", "budget"} → {"messages": the view, "aged": [indexes]}; b"{}"
    (send pi's own) when there is nothing to do or the originals cannot be kept."""
    from ..run import configured_store
    from ..history import DEFAULT_AGE_BUDGET, DEFAULT_KEEP_RECENT, age_history, apply_trims

    event = json.loads(payload)
    messages = event.get("messages") if isinstance(event, dict) else None
    if not isinstance(messages, list):
        return b"{}"
    keep = count_or(event.get("keep_recent"), DEFAULT_KEEP_RECENT)
    budget = count_or(event.get("budget"), DEFAULT_AGE_BUDGET)
    store, retention = configured_store() if options.store else (None, None)
    program = hook_program()  # the markers name headroom as pi runs it
    trimmed = apply_trims(messages, name_copies=store is not None, program=program)
    aged = age_history(trimmed.messages, keep_recent=keep, budget=budget,
                       name_copies=store is not None, program=program)
    if not trimmed.aged and not aged.aged:
        return b"{}"
    for item in (*trimmed.stored, *aged.stored):
        store.put(item.id, item.data, retention, time.time())  # OSError: pi's own messages
    return json.dumps({"messages": aged.messages, "aged": list(aged.aged_messages)},
                      ensure_ascii=False).encode()


def count_or(value, default: int) -> int:
    """`value` when it is a count (an int, 0 or more, not a bool), else `default`."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 \
        else default
