"""opencode: a plugin that replaces the output of bash, read and grep after they ran.

opencode (1.18.33, checked in its binary and in @opencode-ai/plugin's types) calls a plugin's
`tool.execute.after(input, output)` with `input = {tool, sessionID, callID, args}` and
`output = {title, output, metadata}` after every tool, and uses whatever `output.output` holds
afterwards (`input.sessionID` names the session: session.py). So nothing about the command
changes: it runs exactly as written, and only the text the model sees is clipped. opencode
cuts a long bash output to its last lines itself and keeps the whole of it in a file
(`metadata.outputPath`); the exit status is in `metadata.exit`. The plugin is a thin shim:
it hands {tool, args, output, metadata, sessionID} to `headroom hook opencode` and takes back
{"output": …} (or {} for "leave it").

The plugin file is ~/.config/opencode/plugins/headroom.js ($XDG_CONFIG_HOME respected);
opencode loads every file in that folder at start-up.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..patterns import lazy
from . import HookOptions, config, shell
from .clip import clip_text, in_session
from .plugins import ASK_HEADROOM, displayable, plugin_change, read_full_output

NAME = "opencode"
SIGNATURE = "headroom: installed by `headroom init opencode`"
TOOLS = {"bash": "Bash", "read": "Read", "grep": "Grep", "glob": "Glob"}
_METADATA_SUFFIX = lazy(r"\n\n<shell_metadata>\n.*\n</shell_metadata>\Z", re.S)

NOTES = """\
opencode now passes the output of bash, read, grep and glob through headroom after they ran:
commands run exactly as written, and only the text the model sees is clipped to the budget,
with a marker saying how to get the rest (`headroom show ID`). Restart opencode to load the
plugin."""

PLUGIN = """\
// {signature}; `headroom init {name} --uninstall` removes it.
// After bash, read, grep or glob ran, the text the model will see is passed through
// `headroom hook {name}` and replaced by the clipped text. The tool itself is untouched;
// on any error the output stays as it was.
import {{ spawn }} from "node:child_process";

const HEADROOM = {headroom};
const TOOLS = new Set({tools});

{ask}

export const HeadroomPlugin = async () => ({{
  "tool.execute.after": async (input, output) => {{
    if (!input || !TOOLS.has(input.tool) || !output || typeof output.output !== "string") return;
    try {{
      const reply = await askHeadroom("{name}", {{
        tool: input.tool,
        args: input.args ?? null,
        output: output.output,
        metadata: output.metadata ?? null,
        sessionID: input.sessionID ?? null,
      }});
      if (reply && typeof reply.output === "string") output.output = reply.output;
    }} catch {{
      // leave the output as it was
    }}
  }},
}});
"""


def default_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "opencode" / "plugins" / "headroom.js"


def plugin_source(headroom: list[str], name: str = NAME, signature: str = SIGNATURE) -> bytes:
    """The plugin file; `name`: the hook it asks (kilo, opencode's fork, asks its own)."""
    return PLUGIN.format(signature=signature, headroom=json.dumps(headroom), ask=ASK_HEADROOM,
                         tools=json.dumps(sorted(TOOLS)), name=name).encode()


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    return [plugin_change(path, plugin_source(headroom), SIGNATURE, uninstall)]



def handle(payload: bytes, options: HookOptions) -> bytes:
    event = shell.load_event(payload)
    if event is None or event.get("tool") not in TOOLS:
        return b"{}"
    output = event.get("output")
    if not isinstance(output, str):
        return b"{}"
    metadata = event.get("metadata") if isinstance(event.get("metadata"), dict) else {}
    tool = event["tool"]
    args = event.get("args") if isinstance(event.get("args"), dict) else {}
    where = args.get("workdir") if isinstance(args.get("workdir"), str) else ""
    clipped = clip_output(tool, output, metadata, options,
                          in_session(event.get("sessionID"), tool, args, where))
    return json.dumps({} if clipped == output else {"output": clipped}).encode()


def clip_output(tool: str, output: str, metadata: dict, options: HookOptions,
                session: dict | None = None) -> str:
    """The text the model should see instead of `output`."""
    text, suffix, exit_status = output, "", None
    if tool == "bash":
        found = _METADATA_SUFFIX.search(text)
        if found:  # opencode's note on a timeout or an abort: kept after the clip
            text, suffix = text[:found.start()], text[found.start():]
        if metadata.get("truncated"):
            # opencode kept only the tail; the whole output is in its file
            full = read_full_output(metadata.get("outputPath"))
            if full is not None:
                text = full
        status = metadata.get("exit")
        if isinstance(status, int) and not isinstance(status, bool):
            exit_status = status
    clipped = clip_text(text, tool=TOOLS[tool], budget=options.budget, exit_status=exit_status,
                        store=options.store, **(session or {}))
    return displayable(clipped) + suffix
