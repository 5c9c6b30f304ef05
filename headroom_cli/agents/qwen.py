"""Qwen Code: its shell tool, `run_shell_command`, replaced by one that runs through headroom.

Checked against @qwen-code/qwen-code 0.24.4, the newest on npm (its bundle, and real runs
against a scripted model: tests/e2e/test_e2e_qwen.py). No hook of Qwen Code can change a
shell command or its output: PreToolUse's `updatedInput` is read by no code, PostToolUse
only adds context, and PermissionRequest's `updatedInput` comes only with granting the
permission. But Qwen Code kept Gemini CLI's discovered tools (chunks/chunk-DPEB6S2R.js,
`discoverAndRegisterToolsFromCommand` and `DiscoveredToolInvocation`):

- `tools.discoveryCommand` is run at start-up (split like a shell would, no shell) and
  prints a JSON array of function declarations; each becomes a tool, and one named like a
  built-in replaces it ("Tool with name … is already registered. Overwriting.");
- `tools.callCommand` is run as `callCommand TOOL_NAME` with the call's arguments as JSON on
  its stdin; its stdout is the result the model gets (an error instead when it exits
  non-zero or writes to stderr).

So `init qwen` writes a small script beside the settings file and names it as both commands:
run with no argument, `headroom hook qwen` declares `run_shell_command` (command,
description, directory); run for a call, it runs the command in bash, its output and errors
merged into a private file, and prints the clip with the exit status after it. The
command runs exactly as written, in a fresh shell in the project's directory (Qwen Code's
own tool starts a fresh shell too); Qwen Code's yolo/approval rules apply to it as to any
tool. What the discovered tool cannot do: run in the background, be cancelled (Qwen Code
gives it no signal), or report the session or the context (the call gets its arguments only),
so the budget is the hook's default. Qwen Code cuts a tool result over 25,000 characters
itself, and one over 1,000 lines (truncateToolOutputThreshold, truncateToolOutputLines): the
clip stays under both.

Input (stdin):  {"command": …, "description": …, "directory": …}   (nothing: declare the tool)
Reply (stdout): the clipped output, then `Exit Code: N`.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

from . import HookOptions, config, jsonedit
from .plugins import plugin_change

NAME = "qwen"
TOOL = "run_shell_command"
SCRIPT_NAME = "headroom-shell-tool"
SIGNATURE = "headroom: installed by `headroom init qwen`"
DISCOVERY_SWITCH = "QWEN_CODE_LEGACY_MCP_BLOCKING"
MAX_BYTES = 20_000  # under Qwen Code's own 25,000-character cut
MAX_LINES = 1_000  # Qwen Code cuts a result of more lines too (truncateToolOutputLines)
RAW_LIMIT = 1 << 20  # failing open: at most this much of the raw output (Qwen Code cuts it)

NOTES = """\
Qwen Code's shell tool (run_shell_command) now runs through headroom: the command itself runs
unchanged, in a fresh bash in the project's directory; only its output is clipped to the
budget, with a marker saying how to get the rest (`headroom show ID`), and its exit status
after it. Restart Qwen Code to load the tool (`/tools` lists it). It cannot run commands in
the background, and Esc does not stop a running command."""

SCRIPT = """\
#!/bin/sh
# {signature}; `headroom init qwen --uninstall` removes it.
# Qwen Code's tools.discoveryCommand and tools.callCommand: with no argument it declares the
# shell tool; called with the tool's name, it runs the command given as JSON on stdin.
if [ "$#" -eq 0 ]; then exec {headroom} hook qwen </dev/null; fi
exec {headroom} hook qwen
"""

DECLARATION = [{
    "name": TOOL,
    "description": (
        "Runs a shell command with `bash -c <command>` in a fresh shell and returns its "
        "merged stdout and stderr, then `Exit Code: N`. A long output is clipped: the marker "
        "in it says how many lines were left out and the exact command that prints them. "
        "Nothing persists between calls (run `cd` and the command in one call). Commands "
        "run in the foreground only."),
    "parametersJsonSchema": {
        "type": "object",
        "properties": {
            "command": {"type": "string", "description": "Exact bash command to execute."},
            "description": {"type": "string",
                            "description": "Brief description of the command for the user."},
            "directory": {"type": "string",
                          "description": "Directory to run it in, relative to the project's "
                                         "root (default: the root)."},
        },
        "required": ["command"],
    },
}]


def default_path() -> Path:
    """Qwen Code's user settings: $QWEN_HOME/settings.json, else ~/.qwen/settings.json."""
    home = os.environ.get("QWEN_HOME")
    return Path(os.path.expanduser(home) if home else os.path.expanduser("~/.qwen")) / \
        "settings.json"


def script_path(settings: Path) -> Path:
    return settings.parent / SCRIPT_NAME


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    script = script_path(path)
    source = SCRIPT.format(signature=SIGNATURE,
                           headroom=" ".join(shlex.quote(part) for part in headroom))
    file_change = plugin_change(script, source.encode(), SIGNATURE, uninstall)
    file_change = config.Change(file_change.path, file_change.before, file_change.after,
                                mode=0o755, headroom_only=True)
    command = shlex.quote(str(script))

    def edit(data: bytes | None, install: bool) -> bytes | None:
        return _edit_settings(path, data, command if install else None)

    settings_changes = config.install_edit(path, edit, uninstall)
    # The script first: Qwen Code must never find a setting naming a script that is not there.
    return [file_change, *settings_changes] if not uninstall else \
        [*settings_changes, file_change]


def _is_ours(value: object) -> bool:
    try:
        words = shlex.split(value) if isinstance(value, str) else []
    except ValueError:
        return False
    return len(words) == 1 and os.path.basename(words[0]) == SCRIPT_NAME


def _settings_entries(command: str) -> dict[tuple[str, str], str]:
    """What init sets: both tool commands, and the variable without which Qwen Code 0.24.4
    never runs the discovery command (its start-up calls discoverAllTools only when
    QWEN_CODE_LEGACY_MCP_BLOCKING is "1"; settings' `env` sets variables for it)."""
    return {("tools", "discoveryCommand"): command, ("tools", "callCommand"): command,
            ("env", DISCOVERY_SWITCH): "1"}


def _edit_settings(path: Path, data: bytes | None, command: str | None) -> bytes | None:
    """`data` with init's entries set (`command`: the script), or taken out (None) when the
    tool commands are ours, as a text edit; ConfigError when another value is in the way."""
    settings = config.load_json(path, data, comments=True)
    entries = _settings_entries(command or "")
    present = {}
    for section, key in entries:
        holder = settings.get(section, {})
        if not isinstance(holder, dict):
            raise config.ConfigError(f'{path}: "{section}" is not a JSON object; left untouched')
        if key in holder:
            present[section, key] = holder[key]
    for (section, key), value in present.items():
        ours = value == "1" if section == "env" else _is_ours(value)
        if not ours:
            raise config.ConfigError(
                f"{path}: {section}.{key} is already set ({value!r}); headroom's shell tool "
                f"needs it: left untouched")
    if command is None:
        if not any(section == "tools" for section, _ in present):
            return data
        return _remove_entries(data, list(present))
    if data is None or not data.strip():
        nested: dict = {}
        for (section, key), value in entries.items():
            nested.setdefault(section, {})[key] = value
        return config.dump_json(nested)
    raw = data.decode("utf-8-sig")
    text = raw
    for (section, key), value in entries.items():
        if section not in jsonedit.find(jsonedit.parse(text), ()).keys:
            text = jsonedit.set_value(text, (section,), {key: value})
        else:
            text = jsonedit.set_value(text, (section, key), value)
    return data[:len(data) - len(raw.encode("utf-8"))] + text.encode("utf-8")


def _remove_entries(data: bytes, entries: list[tuple[str, str]]) -> bytes:
    """`data` without these members, nor the sections that held only them."""
    raw = data.decode("utf-8-sig")
    text = raw
    for section, key in entries:
        text = jsonedit.remove_member(text, (section,), key)
        if not jsonedit.find(jsonedit.parse(text), (section,)).items:
            text = jsonedit.remove_member(text, (), section)
    return data[:len(data) - len(raw.encode("utf-8"))] + text.encode("utf-8")


def handle(payload: bytes, options: HookOptions) -> bytes:
    """With no payload: the tool's declaration. With a call's arguments: the command run, its
    output clipped, `Exit Code: N` after it (the text the model gets)."""
    if not payload.strip():
        return json.dumps(DECLARATION).encode()
    arguments = json.loads(payload)
    command = arguments.get("command") if isinstance(arguments, dict) else None
    if not isinstance(command, str) or not command.strip():
        return b"Error: run_shell_command needs a non-empty `command` (a string).\n"
    where = _directory(arguments.get("directory"))
    output, status = _run(command, where, options)
    return output + (b"" if not output or output.endswith(b"\n") else b"\n") + \
        f"Exit Code: {status}".encode()


def _directory(given: object) -> str:
    root = os.getcwd()
    if not isinstance(given, str) or not given.strip():
        return root
    return os.path.normpath(os.path.join(root, given))


def _run(command: str, where: str, options: HookOptions) -> tuple[bytes, int]:
    """The command's merged output (clipped) and exit status. Output goes to a private file,
    not a pipe: a job the command leaves running cannot hold the call open."""
    from .shell import new_output_file

    out_path = new_output_file()
    try:
        with open(out_path, "wb") as out:
            try:
                status = subprocess.run([_bash(), "-c", command], cwd=where, stdout=out,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        check=False).returncode
            except OSError as err:
                return f"Error: cannot run the command in {where}: {err.strerror or err}\n" \
                    .encode(), 127
        status = 128 - status if status < 0 else status  # killed by a signal: as bash says
        clipped = _clip_within_lines(out_path, status, options)
        if clipped is None:  # failing open: the output as it was (Qwen Code cuts it)
            with open(out_path, "rb") as stream:
                clipped = stream.read(RAW_LIMIT)
        return clipped, status
    finally:
        try:
            os.unlink(out_path)
        except OSError:
            pass


def _clip_within_lines(out_path: str, status: int, options: HookOptions) -> bytes | None:
    """The clip, with fewer lines than Qwen Code's own cut by lines (MAX_LINES): a clip of
    short lines over it is made again with a budget smaller in proportion (a few times at
    most; the store is content-addressed, so the output is kept once)."""
    from .clip import clip_file, each_note_once

    budget = options.budget
    with each_note_once():
        for _attempt in range(4):
            clipped = clip_file(out_path, tool="Bash", budget=budget, exit_status=status,
                                max_bytes=MAX_BYTES, store=options.store)
            lines = clipped.count(b"\n") + 2 if clipped is not None else 0  # and Exit Code's
            if clipped is None or lines <= MAX_LINES or budget <= 1:
                return clipped
            budget = max(1, budget * MAX_LINES * 9 // (lines * 10))
    return clipped


def _bash() -> str:
    from .shell import on_path

    return on_path("bash") or "/bin/sh"
