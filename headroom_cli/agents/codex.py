"""Codex CLI: a PreToolUse hook on Bash that wraps the command so its output is clipped (and a
PostToolUse hook on MCP tools that says where the whole of a result Codex cut is: codex_post).

Checked against @openai/codex 0.169.0 (the binary's strings, its bundled model catalogue, and
real runs against a scripted model). Codex offers no way to replace a shell command's output
after it ran (nor an MCP tool's, though its schema lists it: see codex_post), so the hook
rewrites the command before it runs. Codex accepts `updatedInput` only together with
permissionDecision "allow", and then runs the rewritten command through its own sandbox and
approval policy as usual: the decision grants nothing by itself.

The model's shell tool is `exec_command` (hooks see it as "Bash" with {"command": …}); each
call runs in a fresh `bash -lc` inside Codex's sandbox, which is read-only by default. So the
wrapper writes nothing: the output streams through a pipe into the filter (piped.wrap), which
exits with the command's status. Codex's own cut, measured: an output over 10,000 bytes
(models without catalogue metadata: `truncation_policy` bytes 10000) or over about 40,000 bytes
(the catalogue's models: tokens 10000, counted as bytes / 4) keeps only its first and last
halves. The filter keeps the clipped output under MAX_BYTES, so Codex never cuts it again.

Input (stdin):  {"hook_event_name": "PreToolUse", "tool_name": "Bash", "model": …,
                 "tool_input": {"command": …}, "cwd": …, "permission_mode": …, …}
Reply (stdout): {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                 "permissionDecision": "allow", "updatedInput": {"command": WRAPPED}}}
                — or nothing: run the command as written.

Hooks live in $CODEX_HOME/hooks.json (default ~/.codex/hooks.json). They are on by default
([features] hooks = true; `codex_hooks` is the older name of the flag); Codex runs a hook only
once the user has trusted it (/hooks), or with `codex exec --dangerously-bypass-hook-trust`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from . import HookOptions, codex_post, config, piped, shell

NAME = "codex"
EVENT = "PreToolUse"
MATCHER = "Bash"
# Under Codex's smaller cut (10,000 bytes) with room for the carriage returns a terminal
# (`tty: true`) adds to each line.
MAX_BYTES = 8_000

NOTES = """\
Codex now runs every shell command through headroom: the command itself runs unchanged (same
exit status, same sandbox and approval rules); only its output is clipped to the budget, with
a marker saying how to get the rest (`headroom show ID`). Commands that write their output to
a file are left exactly as written. An MCP result Codex cuts itself (over 10,000 bytes) is kept
whole, and the model is told how to get any part of it (`headroom show ID --grep …`).
Codex asks you to review a new hook before it runs it: start `codex`, type /hooks and trust
the headroom hook (or run once with --dangerously-bypass-hook-trust). Hooks need Codex 0.130
or later, or `[features] codex_hooks = true` in config.toml on older versions."""


def codex_home() -> Path:
    return Path(os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex"))


def default_path() -> Path:
    return codex_home() / "hooks.json"


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    """A PreToolUse hook on Bash and a PostToolUse hook on MCP tools."""
    hook = [config.command_hook(NAME, headroom)]
    post = {"matcher": codex_post.MATCHER, "hooks": hook}

    def ours(entry: dict) -> bool:
        return config.is_hook_command(entry.get("command"), NAME)

    def also(data: bytes | None, install: bool) -> bytes | None:
        return config.edit_hooks(path, data, codex_post.EVENT, post if install else None,
                                 ours, False)

    changes = config.install_hook(path, NAME, EVENT, {"matcher": MATCHER, "hooks": hook},
                                  uninstall, also=also)
    if not uninstall:
        _warn_if_disabled(path.parent / "config.toml")
    return changes


def _warn_if_disabled(config_toml: Path) -> None:
    """Codex reads hooks only with the hooks feature on; say so if config.toml turns it off."""
    try:
        text = config_toml.read_text(encoding="utf-8")
    except OSError:
        return
    try:
        import tomllib

        features = tomllib.loads(text).get("features", {})
    except ValueError:
        features = {key: value == "true" for key, value in
                    re.findall(r"^\s*(hooks|codex_hooks)\s*=\s*(\w+)", text, re.M)}
    if isinstance(features, dict) and (features.get("hooks") is False
                                       or features.get("codex_hooks") is False):
        print(f"headroom: note: {config_toml} turns Codex hooks off ([features] hooks = "
              "false); set it to true for the hook to run")


def handle(payload: bytes, options: HookOptions) -> bytes:
    event = shell.load_event(payload)
    if event is not None and event.get("hook_event_name") == codex_post.EVENT:
        answer = codex_post.reply(event, options)
        return b"" if answer is None else json.dumps(answer).encode()

    def reply(event: dict, command: str) -> dict:
        return {"hookSpecificOutput": {
            "hookEventName": EVENT,
            "permissionDecision": "allow",
            "updatedInput": dict(event["tool_input"], command=command)}}

    return shell.rewrite_reply(payload, lambda event: rewrite(event, options), reply, b"")


def rewrite(event: dict, options: HookOptions) -> str | None:
    """The wrapped command, or None to leave the call exactly as it is."""
    return piped.rewrite(event, EVENT, MATCHER, options, MAX_BYTES)
