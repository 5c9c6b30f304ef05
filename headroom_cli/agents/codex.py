"""Codex CLI: a PreToolUse hook on Bash that wraps the command so its output is clipped.

Codex offers no way to replace a shell command's output after it ran (0.169.0: PostToolUse
cannot change it), so the hook rewrites the command before it runs, as for Claude Code
(shell.wrap: the command runs unchanged, exit status included). Codex accepts `updatedInput`
only together with permissionDecision "allow" (codex-rs/hooks output_parser.rs: "updatedInput
without permissionDecision:allow" and "allow" without updatedInput are both rejected), and then
runs the rewritten command through its own sandbox and approval policy as usual: the decision
grants nothing by itself (core/src/hook_runtime.rs passes on only the updated input).

Input (stdin):  {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                 "tool_input": {"command": …}, "cwd": …, "permission_mode": …, …}
Reply (stdout): {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                 "permissionDecision": "allow", "updatedInput": {"command": WRAPPED}}}
                — or nothing: run the command as written.

Hooks live in $CODEX_HOME/hooks.json (default ~/.codex/hooks.json). They are on by default
since Codex 0.130 ([features] hooks = true; `codex_hooks` is the older name of the flag), and
Codex asks you to review a new hook once before it runs it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from . import HookOptions, config, shell

NAME = "codex"
EVENT = "PreToolUse"
MATCHER = "Bash"

NOTES = """\
Codex now runs every shell command through headroom: the command itself runs unchanged (same
exit status, same sandbox and approval rules); only its output is clipped to the budget, with
a marker saying how to get the rest (`headroom show ID`). Commands that write their output to
a file are left exactly as written.
Codex asks you to review a new hook before it runs it: start `codex`, type /hooks and trust
the headroom hook (or run once with --dangerously-bypass-hook-trust). Hooks need Codex 0.130
or later, or `[features] codex_hooks = true` in config.toml on older versions."""


def codex_home() -> Path:
    return Path(os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex"))


def default_path() -> Path:
    return codex_home() / "hooks.json"


def _ours(entry: dict) -> bool:
    return config.is_hook_command(entry.get("command"), NAME)


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    before = config.read_bytes(path)
    settings = config.load_json(path, before)
    if uninstall:
        settings = config.without_hook(settings, EVENT, _ours)
    else:
        group = {"matcher": MATCHER,
                 "hooks": [{"type": "command", "command": config.hook_command(NAME, headroom),
                            "timeout": 30}]}
        settings = config.with_hook(settings, EVENT, group, _ours)
    after = config.dump_json(settings)
    if before is not None and config.load_json(path, before) == settings:
        after = before
    if not uninstall:
        _warn_if_disabled(path.parent / "config.toml")
    return [config.Change(path, before, after)]


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
    try:
        event = json.loads(payload)
    except ValueError:
        return b""
    command = rewrite(event, options)
    if command is None:
        return b""
    reply = {"hookSpecificOutput": {
        "hookEventName": EVENT,
        "permissionDecision": "allow",
        "updatedInput": dict(event["tool_input"], command=command)}}
    return json.dumps(reply).encode()


def rewrite(event: object, options: HookOptions) -> str | None:
    if not isinstance(event, dict) or event.get("hook_event_name", EVENT) != EVENT:
        return None
    if event.get("tool_name") != MATCHER:
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
        return None
    command = tool_input["command"]
    if shell.reason_not_to_wrap(command) is not None:
        return None
    return shell.wrap_checked(command, filter_argv(options))


def filter_argv(options: HookOptions) -> list[str]:
    headroom = options.headroom or config.headroom_argv()
    argv = [*headroom, "hook", "filter", "--budget", str(options.budget), "--tool", "Bash"]
    if not options.store:
        argv.append("--no-store")
    return argv
