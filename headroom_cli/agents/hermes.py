"""hermes-agent: a plugin whose hooks replace a tool's result before it enters the messages.

Checked against hermes-agent 0.19.0 (PyPI; its hermes_cli/plugins.py, model_tools.py and
tools/terminal_tool.py, and real runs against a scripted model: tests/e2e/test_e2e_hermes.py).
A plugin is a folder ~/.hermes/plugins/NAME/ ($HERMES_HOME respected) with plugin.yaml and
an __init__.py whose register(ctx) calls ctx.register_hook(…); plugins load only once named
in config.yaml's `plugins.enabled` (`hermes plugins enable headroom`). Two of its hooks may
replace a result — the first string a plugin returns wins, and an exception leaves it as it was:

- `transform_terminal_output(command, output, returncode, task_id, env_type)`: the terminal
  tool's output, before hermes's own cut (`tool_output.max_bytes`, 50,000 characters: the
  first 40 % and the last 60 %) and before it becomes the result {"output", "exit_code"}.
  The output the hook gets is already bounded by that same limit (the process capture keeps
  a 40/60 head–tail window of it), so a longer output's middle is gone before any hook runs:
  raise `tool_output.max_bytes` for headroom to see it whole (hermes then holds that much).
- `transform_tool_result(tool_name, args, result, session_id, …)`: every other tool's result
  string (read_file, search_files, web_extract, MCP tools…), after post_tool_call and before
  it is appended to the conversation. The terminal's result (already clipped) is left alone.

A third hook, `post_api_request(task_id, session_id, usage, …)`, after each model call, gives
the call's usage ({"prompt_tokens", "total_tokens", …}) but not the model's window: the plugin
keeps each task's last total_tokens and sends it along, and the default budget follows it when
headroom's config names the window (`[context] window`). The terminal's hook names no session
and its task_id is the sandbox's ("default" for every top-level task of every session), so the
plugin counts a terminal output in the session of the last model call while its hermes has run
only one session (the CLI), and in none once it has run several (the gateway): an identical
output is told apart within one conversation, never across two.

The plugin is a thin shim that hands {"hook": …, …} to `headroom hook hermes` (this headroom,
by absolute path: hermes runs in its own Python) and takes back {"output": …} or {}.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import HookOptions, config, shell
from .clip import clip_text, in_session
from .plugins import displayable, plugin_change

NAME = "hermes"
PLUGIN_NAME = "headroom"
SIGNATURE = "headroom: installed by `headroom init hermes`"
TERMINAL = "terminal"
MAX_BYTES = 45_000  # under hermes's own 50,000-character cut

NOTES = """\
hermes-agent now passes the terminal's output and every other tool's result through headroom
before it enters the conversation: commands run exactly as written, and only the text the model
sees is clipped to the budget, with a marker saying how to get the rest (`headroom show ID`).
Enable the plugin once (hermes loads only plugins named in config.yaml's plugins.enabled):
    hermes plugins enable headroom
hermes keeps at most `tool_output.max_bytes` (50,000) characters of a command's output, its
first 40 % and last 60 %, before any plugin sees it; raise it in ~/.hermes/config.yaml for
headroom to clip the whole output."""

MANIFEST = """\
# {signature}; `headroom init hermes --uninstall` removes it.
name: {name}
version: 1.0.0
description: "Clips tool outputs to a token budget before they enter the conversation (headroom)"
hooks:
  - transform_terminal_output
  - transform_tool_result
  - post_api_request
"""

PLUGIN = '''\
"""{signature}; `headroom init hermes --uninstall` removes it.

The terminal's output and other tools' results are passed through `headroom hook hermes` and
replaced by the clipped text. On any error the result stays as it was."""

import json
import subprocess

HEADROOM = {headroom}
TIMEOUT = 60
# Task or session id -> tokens in the context at the model's last call (post_api_request).
_CONTEXT = {{}}
# The last model call's session and tokens, and the sessions seen (two at most: enough to
# know there were several). The terminal's hook names no session, and its task_id is the
# sandbox's ("default" for every top-level task of every session): its output is counted in
# the session of the last model call only while this hermes has run one session (its CLI);
# one serving several (its gateway) sends it with none.
_LAST = {{}}
_SESSIONS = set()
_CONTEXT_KEYS = 256  # a long-lived hermes (its gateway) runs many sessions: forget old ones


def _ask(payload):
    try:
        done = subprocess.run([*HEADROOM, "hook", "hermes"], input=json.dumps(payload).encode(),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              timeout=TIMEOUT)
        reply = json.loads(done.stdout or b"null")
    except Exception:
        return None
    output = reply.get("output") if isinstance(reply, dict) else None
    return output if isinstance(output, str) else None


def _terminal(command="", output="", returncode=0, task_id="", **_):
    if not isinstance(output, str):
        return None
    last = _LAST if len(_SESSIONS) == 1 else {{}}
    return _ask({{"hook": "terminal", "command": command, "output": output,
                 "returncode": returncode, "session_id": last.get("session_id", ""),
                 "context_tokens": last.get("tokens")}})


def _tool_result(tool_name="", args=None, result=None, session_id="", task_id="", **_):
    if tool_name == "{terminal}" or not isinstance(result, str):
        return None
    return _ask({{"hook": "tool", "tool_name": tool_name, "args": args, "result": result,
                 "session_id": session_id or task_id,
                 "context_tokens": _CONTEXT.get(task_id) or _CONTEXT.get(session_id)}})


def _api_request(task_id="", session_id="", usage=None, **_):
    tokens = usage.get("total_tokens") if isinstance(usage, dict) else None
    if not isinstance(tokens, int) or isinstance(tokens, bool):
        tokens = None
    session_id = session_id if isinstance(session_id, str) else ""
    _LAST.clear()
    _LAST.update(session_id=session_id, tokens=tokens)
    if len(_SESSIONS) < 2:
        _SESSIONS.add(session_id)
    if len(_CONTEXT) >= _CONTEXT_KEYS:
        _CONTEXT.clear()
    for key in (task_id, session_id):
        if key and tokens is not None:
            _CONTEXT[key] = tokens
    return None


def register(ctx):
    ctx.register_hook("transform_terminal_output", _terminal)
    ctx.register_hook("transform_tool_result", _tool_result)
    ctx.register_hook("post_api_request", _api_request)
'''


def hermes_home() -> Path:
    configured = os.environ.get("HERMES_HOME")
    return Path(configured) if configured else Path(os.path.expanduser("~")) / ".hermes"


def default_path() -> Path:
    return hermes_home() / "plugins" / PLUGIN_NAME / "__init__.py"


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    """The plugin's __init__.py at `path` and its plugin.yaml beside it."""
    source = PLUGIN.format(signature=SIGNATURE, headroom=json.dumps(headroom),
                           terminal=TERMINAL).encode()
    manifest = MANIFEST.format(signature=SIGNATURE, name=PLUGIN_NAME).encode()
    return [plugin_change(path.with_name("plugin.yaml"), manifest, SIGNATURE, uninstall),
            plugin_change(path, source, SIGNATURE, uninstall)]


def handle(payload: bytes, options: HookOptions) -> bytes:
    event = shell.load_event(payload)
    clipped = None if event is None else clip_event(event, options)
    return json.dumps({} if clipped is None else {"output": clipped}).encode()


def clip_event(event: dict, options: HookOptions) -> str | None:
    """The text the model should see instead, or None: leave the result as it is."""
    session = event.get("session_id")
    tokens = event.get("context_tokens")
    # hermes says how many tokens its context held at the model's last call, not the window:
    # the default budget follows it when `[context] window` in headroom's config names one.
    context = (tokens, None) if isinstance(tokens, int) and not isinstance(tokens, bool) \
        and not options.budget_given else None
    if event.get("hook") == "terminal":
        text, command = event.get("output"), event.get("command")
        status = event.get("returncode")
        if not isinstance(text, str) or not isinstance(command, str):
            return None
        exit_status = status if isinstance(status, int) and not isinstance(status, bool) \
            else None
        clipped = clip_text(text, tool="Bash", budget=options.budget, exit_status=exit_status,
                            max_bytes=MAX_BYTES, store=options.store, context=context,
                            **in_session(session, "bash", {"command": command}))
    elif event.get("hook") == "tool":
        text, tool = event.get("result"), event.get("tool_name")
        if not isinstance(text, str) or not isinstance(tool, str) or tool == TERMINAL:
            return None
        args = event.get("args") if isinstance(event.get("args"), dict) else {}
        clipped = clip_text(text, tool=None, budget=options.budget, max_bytes=MAX_BYTES,
                            store=options.store, context=context,
                            **in_session(session, tool, args))
    else:
        return None
    return None if clipped == text else displayable(clipped)
