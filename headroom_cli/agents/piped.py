"""Wrapping a shell command whose output may not touch the disk: through a pipe, for Codex.

Codex (0.169.0) runs every command in a sandbox that is read-only by default, so the wrapper
of shell.wrap — which sends the output to a file first — fails there with "Read-only file
system" and the command never runs. Codex also starts each command in a fresh shell
(`bash -lc`, no state kept between commands), so a pipeline loses nothing a later command
could have seen. This wrapper streams the merged output straight into the filter and passes
the command's exit status after it, on a last line only this call's filter knows:

    { ( CMD
    ) 2>&1; printf '\\n%s %s\\n' headroom-status-NONCE "$?"; } | headroom hook filter … \\
        --status-line headroom-status-NONCE

- CMD runs as written, in a subshell of the agent's shell: `exit N`, `exec`, `set -e` or a
  `trap` end that subshell, whose status is still reported.
- The filter reads up to the status line (read_until_status), clips what came before it,
  and exits with CMD's status: the agent sees the status it would have seen.
- Nothing is written anywhere, and no command substitution is used.

A command is left exactly as written when it runs something in the background (`&`: the job
would keep the pipe open, and die of SIGPIPE after the filter left), when its output goes to
a file anyway, or when it (or the wrapper) would not parse.
"""

from __future__ import annotations

import re
import secrets
import shlex
from typing import Callable

from ..patterns import lazy
from . import shell
from .clip import headroom_argv

STATUS_PREFIX = "headroom-status-"
# A lone `&` that is not part of `&&`, `>&`, `<&`, `&>` or `|&`: a background job.
_BACKGROUND = lazy(r"(?<![&<>|])&(?![&>])")
_READ_SIZE = 1 << 20


def reason_not_to_wrap(command: str) -> str | None:
    """Why `command` must run exactly as written (None: it can be wrapped)."""
    if not command.strip():
        return "empty command"
    if "\x00" in command:
        return "NUL byte in the command"
    if STATUS_PREFIX in command or "hook filter" in command:
        return "already wrapped"
    if _BACKGROUND.search(_unquoted(command)):
        return "it starts a background job"
    if shell.stdout_to_file(command):
        return "its output goes to a file"
    return None


def command_of(event: dict, event_name: str, tool_name: str,
               background_key: str | None = None) -> str | None:
    """The command of a well-formed shell-tool call, else None (the call is then left exactly
    as the agent had it). A call the agent runs in the background is left too: its output is
    read while it runs."""
    if event.get("hook_event_name", event_name) != event_name or \
            event.get("tool_name") != tool_name:
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
        return None
    if background_key and tool_input.get(background_key):
        return None
    return tool_input["command"]


def rewrite(event: dict, event_name: str, tool_name: str, options, max_bytes: int,
            background_key: str | None = None, cwd: str | None = None) -> str | None:
    """The wrapped command of a shell-tool call (`options`: the hook's HookOptions), its
    filter keeping the clip under `max_bytes` (under the agent's own cut); None to leave the
    call exactly as it is. `cwd`: where the command runs, when not the event's `cwd`."""
    command = command_of(event, event_name, tool_name, background_key)
    if command is None:
        return None
    argv = shell.filter_argv(options.headroom or headroom_argv(), options.budget, options.store,
                             "--max-bytes", str(max_bytes),
                             *shell.session_argv(event, command, cwd))
    return wrap_checked(command, argv)


def new_token() -> str:
    """The status line's tag for one call: output that happens to contain an older tag (a
    transcript, say) cannot end the filter's input early."""
    return STATUS_PREFIX + secrets.token_hex(8)


def wrap(command: str, filter_argv: list[str], token: str) -> str:
    """The shell text that runs `command` unchanged and pipes its output through the filter.

    Works in bash, zsh and POSIX sh; the exit status is the command's (the filter exits with
    it)."""
    filter_cmd = " ".join(shlex.quote(arg) for arg in filter_argv)
    return (f"{{ ( {command.rstrip(chr(10))}\n) 2>&1; "
            f"printf '\\n%s %s\\n' {token} \"$?\"; }} | "
            f"{filter_cmd} --status-line {token} 2>/dev/null")


def wrap_checked(command: str, filter_argv: list[str]) -> str | None:
    """wrap() when the command may be wrapped and both it and the wrapper parse, else None
    (the command is then left exactly as written)."""
    if reason_not_to_wrap(command) is not None:
        return None
    wrapped = wrap(command, filter_argv, new_token())
    return wrapped if shell.syntax_ok(command, wrapped) else None


def read_until_status(read: Callable[[int], bytes], token: str) -> tuple[bytes, int | None]:
    """A wrapped command's output and exit status, read with `read(size)` up to the status
    line `token` introduces (None: the input ended without one).

    Reading stops at the status line, and what follows it is dropped: a process the command
    left behind cannot hold the filter open. The newline the wrapper put before the status
    line is not part of the output.
    """
    line = re.compile(b"\n" + re.escape(token.encode()) + rb" (\d{1,3})\n")
    data = bytearray()
    searched = 0
    while True:
        chunk = read(_READ_SIZE)
        if not chunk:
            return bytes(data), None
        data += chunk
        found = line.search(data, max(0, searched - len(token) - 8))
        if found:
            return bytes(data[:found.start()]), int(found.group(1))
        searched = len(data)


def _unquoted(command: str) -> str:
    """`command` with quoted text and comments blanked out (for finding operators)."""
    out = []
    quote = None
    index = 0
    while index < len(command):
        char = command[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = None
            out.append(" ")
        elif char == "\\":
            out.append("  ")
            index += 1
        elif char in "'\"":
            quote = char
            out.append(" ")
        else:
            out.append(char)
        index += 1
    return "".join(out)
