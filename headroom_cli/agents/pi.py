"""pi: an extension that replaces a tool's result after it ran (bash, read, grep, find, ls).

pi (@mariozechner/pi-coding-agent 0.73.1, docs/extensions.md) fires `tool_result` after a tool
finished and before its result enters the conversation; a handler may return a partial patch
`{content, details, isError}`. So the command runs exactly as written and only the text the
model sees is clipped. pi keeps the last 2,000 lines / 50 KB of a bash output and saves the
whole of it to a file (`details.fullOutputPath`); when the command fails, the tool throws and
the result is the text plus "Command exited with code N", with the file named only in pi's own
note ("… Full output: PATH]"). The extension is a thin shim: it hands {toolName, input, content,
details, isError, sessionId, cwd, context} to `headroom hook pi` (the session from
`ctx.sessionManager.getSessionId()`, session.py; the context's {tokens, contextWindow} from
`ctx.getContextUsage()`, context.py) and takes back {"content": [...]} (or {}: leave it).

The extension file is ~/.pi/agent/extensions/headroom.ts ($PI_CODING_AGENT_DIR respected); pi
loads every extension there at start-up.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..patterns import lazy
from . import HookOptions, config, shell
from .clip import clip_text, in_session
from .plugins import ASK_HEADROOM, displayable, plugin_change, read_full_output

NAME = "pi"
SIGNATURE = "headroom: installed by `headroom init pi`"
TOOLS = {"bash": "Bash", "read": "Read", "grep": "Grep", "find": "Glob", "ls": "Glob"}
# pi's last line for a failed command: the status we keep after the clip, and read.
_STATUS = lazy(r"(?:\A|\n\n)(Command exited with code (-?\d{1,9})|Command timed out after "
               r"[\d.]+ seconds|Command aborted)\Z")
# pi's note after a cut bash output (and where the whole of it is).
_NOTE = lazy(r"\n\n\[(?:Showing [^\]\n]*?)Full output: ([^\]\n]+)\]\Z")

NOTES = """\
pi now passes the results of bash, read, grep, find and ls through headroom after they ran:
commands run exactly as written, and only the text the model sees is clipped to the budget,
with a marker saying how to get the rest (`headroom show ID`). Restart pi (or /reload) to load
the extension."""

EXTENSION = """\
// {signature}; `headroom init pi --uninstall` removes it.
// After bash, read, grep, find or ls ran, the result the model will see is passed through
// `headroom hook pi` and replaced by the clipped text. The tool itself is untouched; on any
// error the result stays as it was.
import {{ spawn }} from "node:child_process";

const HEADROOM: string[] = {headroom};
const TOOLS = new Set<string>({tools});

{ask}

// How full the model's context is (pi's own estimate: its last reply's usage and the messages
// since), so the default budget can follow it; null when pi does not know (after a compaction).
function contextUsage(ctx: any) {{
  try {{
    const usage = ctx?.getContextUsage?.();
    if (usage && typeof usage.tokens === "number" && typeof usage.contextWindow === "number")
      return {{ tokens: usage.tokens, contextWindow: usage.contextWindow }};
  }} catch {{
    // unknown
  }}
  return null;
}}

export default function (pi: any) {{
  pi.on("tool_result", async (event: any, ctx: any) => {{
    if (!event || !TOOLS.has(event.toolName) || !Array.isArray(event.content)) return;
    try {{
      const reply = await askHeadroom("pi", {{
          toolName: event.toolName,
          input: event.input ?? null,
          content: event.content,
          details: event.details ?? null,
          isError: !!event.isError,
          sessionId: ctx?.sessionManager?.getSessionId?.() ?? null,
          cwd: ctx?.cwd ?? null,
          context: contextUsage(ctx),
        }},
        ctx?.signal,
      );
      if (reply && Array.isArray(reply.content)) return {{ content: reply.content }};
    }} catch {{
      // leave the result as it was
    }}
  }});
}}
"""


def default_path() -> Path:
    base = os.environ.get("PI_CODING_AGENT_DIR") or os.path.join(os.path.expanduser("~"), ".pi",
                                                                 "agent")
    return Path(base) / "extensions" / "headroom.ts"


def extension_source(headroom: list[str]) -> bytes:
    return EXTENSION.format(signature=SIGNATURE, headroom=json.dumps(headroom), ask=ASK_HEADROOM,
                            tools=json.dumps(sorted(TOOLS))).encode()


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    return [plugin_change(path, extension_source(headroom), SIGNATURE, uninstall)]


def handle(payload: bytes, options: HookOptions) -> bytes:
    event = shell.load_event(payload)
    if event is None or event.get("toolName") not in TOOLS:
        return b"{}"
    content = event.get("content")
    if not isinstance(content, list) or not content or not all(
            isinstance(block, dict) and block.get("type") == "text"
            and isinstance(block.get("text"), str) for block in content):
        return b"{}"  # images, or nothing: leave it
    text = "".join(block["text"] for block in content)
    details = event.get("details") if isinstance(event.get("details"), dict) else {}
    args = event.get("input") if isinstance(event.get("input"), dict) else {}
    cwd = event.get("cwd") if isinstance(event.get("cwd"), str) else None
    clipped = clip_result(event["toolName"], text, details, bool(event.get("isError")), options,
                          in_session(event.get("sessionId"), event["toolName"], args, cwd),
                          None if options.budget_given else context_of(event.get("context")))
    if clipped == text:
        return b"{}"
    return json.dumps({"content": [{"type": "text", "text": clipped}]}).encode()


def context_of(usage: object) -> tuple[int, int] | None:
    """(tokens, window) from the extension's `context` (pi's getContextUsage()), or None."""
    if not isinstance(usage, dict):
        return None
    tokens, window = usage.get("tokens"), usage.get("contextWindow")
    if not all(isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
               for value in (tokens, window)) or not window:
        return None
    return int(tokens), int(window)


def clip_result(tool: str, text: str, details: dict, is_error: bool,
                options: HookOptions, session: dict | None = None,
                context: tuple[int, int] | None = None) -> str:
    """The text the model should see instead of `text`; `context`: (tokens, window) of the
    agent's context, which the default budget follows."""
    body, status_line, exit_status = text, "", None
    if tool == "bash":
        if is_error:
            found = _STATUS.search(body)
            if found:
                body, status_line = body[:found.start()], found.group(1)
                if found.group(2) is not None:
                    exit_status = int(found.group(2))
        full_path = details.get("fullOutputPath")
        note = _NOTE.search(body)
        if note:
            full_path = full_path or note.group(1).strip()
        full = read_full_output(full_path) if full_path else None
        if full is not None:
            body = full  # pi kept only the tail; the whole output is in its file
        elif body == "(no output)":
            return text
    clipped = displayable(clip_text(body, tool=TOOLS[tool], budget=options.budget,
                                    exit_status=exit_status, store=options.store,
                                    context=context, **(session or {})))
    if status_line:
        return f"{clipped}\n\n{status_line}" if clipped else status_line
    return clipped
