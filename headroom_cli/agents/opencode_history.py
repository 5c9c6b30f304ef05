"""opencode, opt-in: age-aware history (`headroom init opencode --history`).

opencode (1.18.33, checked in its binary: the session loop and its bundled plugin guide) calls a
plugin's `experimental.chat.messages.transform(input, output)` right before it turns the
session's messages into each model request; `output.messages` is that request's copy of the
session, `[{info, parts}]`, which the hook mutates in place. A tool result is a part
`{type: "tool", callID, tool, state: {status: "completed", output}}`. The session's stored
messages are not changed.

The plugin sends the completed tool results, oldest first, to `headroom hook opencode-history`
(`{"results": [{"id", "tool", "output"}], "keep_recent", "budget"}`), which ages them with
headroom_cli.history (keeping the originals in the store) and answers `{"outputs": {id: text}}`
for the results it aged. Each aged result is planned once: the plugin remembers the text by
call id and sends that the next time (an aged text fits the budget, so ageing leaves it alone).
On any error the request goes out as opencode built it.

The plugin file is ~/.config/opencode/plugins/headroom-history.js ($XDG_CONFIG_HOME respected),
beside the clipping plugin of `headroom init opencode`; both can be installed.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from . import HookOptions, config
from .clip import hook_program
from .plugins import ASK_HEADROOM, plugin_change
from .pi_history import count_or

NAME = "opencode-history"
SIGNATURE = "headroom: installed by `headroom init opencode --history`"

NOTES = """\
opencode now sends its history aged: the last 3 tool results verbatim, each older one cut to
300 tokens by headroom's planners, with a marker naming its stored copy (`headroom show ID`).
opencode's session keeps every original. Restart opencode to load the plugin."""

PLUGIN = """\
// {signature}; `headroom init opencode --history --uninstall` removes it.
// Before each model request, the tool results pass through `headroom hook opencode-history`:
// the last KEEP_RECENT stay verbatim, older ones are cut to BUDGET tokens (their originals
// kept in headroom's store). opencode's session keeps the originals. On any error the request
// is sent as it was.
import {{ spawn }} from "node:child_process";

const HEADROOM = {headroom};
const KEEP_RECENT = 3;
const BUDGET = 300;
// The text headroom sent for an aged result, by call id: planned once, then reused.
const aged = new Map();

{ask}

function toolParts(messages) {{
  const found = [];
  for (const message of messages) {{
    const parts = Array.isArray(message?.parts) ? message.parts : [];
    parts.forEach((part, index) => {{
      if (part?.type === "tool" && part.state?.status === "completed" &&
          typeof part.state.output === "string" && typeof part.callID === "string") {{
        found.push({{ parts, index, part }});
      }}
    }});
  }}
  return found;
}}

function replaceOutput(found, text) {{
  found.parts[found.index] = {{ ...found.part, state: {{ ...found.part.state, output: text }} }};
}}

export const HeadroomHistoryPlugin = async () => ({{
  "experimental.chat.messages.transform": async (input, output) => {{
    if (!output || !Array.isArray(output.messages)) return;
    try {{
      const found = toolParts(output.messages);
      const results = found.map((item) => ({{
        id: item.part.callID,
        tool: item.part.tool,
        output: aged.get(item.part.callID) ?? item.part.state.output,
      }}));
      const reply = await askHeadroom("opencode-history",
        {{ results, keep_recent: KEEP_RECENT, budget: BUDGET }});
      const outputs = reply && typeof reply.outputs === "object" ? reply.outputs : {{}};
      for (const item of found) {{
        const text = outputs[item.part.callID] ?? aged.get(item.part.callID);
        if (typeof text !== "string") continue;
        aged.set(item.part.callID, text);
        replaceOutput(item, text);
      }}
    }} catch {{
      // send the request as opencode built it
    }}
  }},
}});
"""


def default_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "opencode" / "plugins" / "headroom-history.js"


def plugin_source(headroom: list[str]) -> bytes:
    return PLUGIN.format(signature=SIGNATURE, headroom=json.dumps(headroom),
                         ask=ASK_HEADROOM).encode()


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    return [plugin_change(path, plugin_source(headroom), SIGNATURE, uninstall)]


def handle(payload: bytes, options: HookOptions) -> bytes:
    """{"results": [{"id", "tool", "output"}], "keep_recent", "budget"} → {"outputs": {id: the
    aged text}} for the results aged; b"{}" when there is nothing to age."""
    from ..history import DEFAULT_AGE_BUDGET, DEFAULT_KEEP_RECENT, age_history
    from ..run import configured_store

    event = json.loads(payload)
    results = event.get("results") if isinstance(event, dict) else None
    if not isinstance(results, list):
        return b"{}"
    messages = [as_message(item) for item in results if valid(item)]
    store, retention = configured_store() if options.store else (None, None)
    aged = age_history(messages, keep_recent=count_or(event.get("keep_recent"),
                                                      DEFAULT_KEEP_RECENT),
                       budget=count_or(event.get("budget"), DEFAULT_AGE_BUDGET),
                       name_copies=store is not None,
                       program=hook_program())  # the markers name headroom as opencode runs it
    if not aged.aged:
        return b"{}"
    for item in aged.stored:
        store.put(item.id, item.data, retention, time.time())  # OSError: opencode's own
    outputs = {aged.messages[index]["toolCallId"]: aged.messages[index]["content"]
               for index in aged.aged_messages}
    return json.dumps({"outputs": outputs}, ensure_ascii=False).encode()


def valid(item) -> bool:
    return isinstance(item, dict) and isinstance(item.get("id"), str) \
        and isinstance(item.get("output"), str)


def as_message(item: dict) -> dict:
    """One opencode tool result as a message headroom_cli.history reads (pi's toolResult, its
    content a plain string so the aged text comes back as one)."""
    tool = item.get("tool")
    return {"role": "toolResult", "toolCallId": item["id"],
            "toolName": tool if isinstance(tool, str) else None, "content": item["output"]}
