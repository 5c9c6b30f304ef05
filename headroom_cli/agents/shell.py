"""Wrapping a shell command so that its output is clipped and nothing else changes.

Some agents only let a hook rewrite a command before it runs (Claude Code, Codex, Gemini CLI).
A pipeline (`CMD 2>&1 | headroom`) would run CMD in a subshell — a `cd` or an `export` in it
would stop reaching the agent's shell — and turn a failing CMD's status into headroom's. So the
wrapper runs CMD, as written, in the agent's own shell, sends its merged output to a private
file the hook made for this call (mode 0600), and only then clips that file:

    { CMD
    } >/tmp/headroom-XXXXXXXX.out 2>&1
    __headroom_status=$?
    headroom hook filter --exit-status "$__headroom_status" --input /tmp/headroom-….out …
    (exit "$__headroom_status")

- CMD keeps the shell: `cd`, variables and functions persist as they would have.
- CMD stays code, not a quoted string, so an agent that checks a command's words against its
  rules (Claude Code's deny rules) still sees CMD's own words.
- CMD's stdin is untouched (`… | cmd`, `cmd < file` and the agent's stdin work as before).
- The status is CMD's, restored last, so `CMD && next` in the agent's own wrapper behaves the
  same.
- Reading a file, not a pipe, means a background process CMD started cannot hold the wrapper
  open, and headroom never makes CMD die of SIGPIPE.
- No command substitution: Gemini CLI refuses commands with `$(…)`.

Commands are left exactly as written — no rewrite at all — when wrapping could change what they
do: when they may leave the shell before the filter runs (`exit`, `exec`, `set -e`, a `trap`),
when their output goes to a file anyway, or when they (or the wrapper) would not parse.
"""

from __future__ import annotations

import json

import re
import shlex

# A Bourne-shell-family word that ends the shell or replaces it before the filter could run
# (`exit`, `exec`, `logout`, `return`, `set -e`), or that sets its own traps. Matched anywhere,
# quotes included: a false match only means the command runs unwrapped, as without headroom.
_LEAVES_SHELL = re.compile(
    r"(?<![\w.$/-])(?:exit|exec|logout|return|trap|errexit)(?![\w.-])"
    r"|(?<![\w-])set\s+-[A-Za-z]*e")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")
VAR_STATUS = "__headroom_status"
OUTPUT_PREFIX, OUTPUT_SUFFIX = "headroom-", ".out"


def reason_not_to_wrap(command: str) -> str | None:
    """Why `command` must run exactly as written (None: it can be wrapped)."""
    if not command.strip():
        return "empty command"
    if "\x00" in command:
        return "NUL byte in the command"
    if VAR_STATUS in command or "hook filter" in command:
        return "already wrapped"
    if _LEAVES_SHELL.search(command):
        return "it may leave or replace the shell (exit, exec, return, set -e, trap)"
    if stdout_to_file(command):
        return "its output goes to a file"
    return None


def wrap(command: str, filter_argv: list[str], out_path: str) -> str:
    """The shell text that runs `command` unchanged and clips its output with `filter_argv`.

    `filter_argv` is the filter to run (`headroom hook filter --budget N …`); `out_path` is a
    private file made for this call (new_output_file), which the filter reads and removes.
    The text uses no command substitution (Gemini CLI refuses commands that do) and works in
    bash, zsh and POSIX sh.
    """
    out = shlex.quote(out_path)
    filter_cmd = " ".join(shlex.quote(arg) for arg in filter_argv)
    status = f'"${VAR_STATUS}"'
    return (
        f"{{ {command.rstrip(chr(10))}\n}} >{out} 2>&1\n"
        f"{VAR_STATUS}=$?\n"
        f"{filter_cmd} --exit-status {status} --input {out} 2>/dev/null\n"
        f"(exit {status})"
    )


def new_output_file() -> str:
    """A new empty file, readable by this user only, for one wrapped command's output."""
    import tempfile

    handle, path = tempfile.mkstemp(prefix=OUTPUT_PREFIX, suffix=OUTPUT_SUFFIX)
    import os

    os.close(handle)
    return path


def wrap_checked(command: str, filter_argv: list[str]) -> str | None:
    """wrap(), with a new output file, when both the command and the wrapper parse (else None:
    the command is left exactly as written)."""
    import os

    if not syntax_ok(command):
        return None
    out_path = new_output_file()
    wrapped = wrap(command, filter_argv, out_path)
    if syntax_ok(wrapped):
        return wrapped
    try:
        os.unlink(out_path)
    except OSError:
        pass
    return None


def syntax_ok(*texts: str) -> bool:
    """Does bash parse each text? (A command that does not parse is left as it is, so its
    error reads as without headroom; a wrapper that would not parse is never returned.)"""
    import shutil
    import subprocess

    bash = shutil.which("bash")
    if bash is None:
        return False
    for text in texts:
        try:
            # On stdin, not as an argument: one argument is limited to 128 KB on Linux.
            done = subprocess.run([bash, "-n"], input=text.encode("utf-8", "surrogateescape"),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=10)
        except (OSError, subprocess.SubprocessError):
            return False
        if done.returncode != 0:
            return False
    return True


def stdout_to_file(command: str) -> bool:
    """Does an unquoted redirect send the command's stdout to a file (other than /dev/null)?"""
    text = _HEREDOC.sub(" ", command)
    quote = None
    index = 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = None
        elif char == "\\":
            index += 1
        elif char in "'\"":
            quote = char
        elif char == ">" and _redirects_stdout_to_file(text, index):
            return True
        index += 1
    return False


def _redirects_stdout_to_file(text: str, index: int) -> bool:
    after = text[index + 1:index + 2]
    if after == "(":
        return False  # >(…): process substitution, a command
    if index and text[index - 1] == "<":
        return False  # <>: read-write stdin
    if index and text[index - 1].isdigit():
        start = index
        while start and text[start - 1].isdigit():
            start -= 1
        standalone = start == 0 or text[start - 1].isspace() or text[start - 1] in ";&|("
        if standalone and text[start:index] != "1":
            return False  # 2>file, 3>&1: another descriptor
    target = text[index + 1:].lstrip(">|")
    if target.startswith("&"):
        rest = target[1:2]
        if rest.isdigit() or rest == "-":
            return False  # >&2, >&-: a descriptor, not a file
        target = target[1:]
    return not target.lstrip().startswith("/dev/null")


def command_to_wrap(event: object, event_name: str, tool_name: str,
                    background_key: str | None = None) -> str | None:
    """The command of a well-formed shell-tool call that may be wrapped, else None (the call
    is then left exactly as the agent had it)."""
    if not isinstance(event, dict) or event.get("hook_event_name", event_name) != event_name:
        return None
    if event.get("tool_name") != tool_name:
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
        return None
    if background_key and tool_input.get(background_key):
        return None  # its output is read while it runs: it must reach the file as it comes
    command = tool_input["command"]
    return None if reason_not_to_wrap(command) is not None else command


def filter_argv(headroom: list[str], budget: int, store: bool, *extra: str) -> list[str]:
    """The `headroom hook filter` call a wrapped command pipes its output file through."""
    argv = [*headroom, "hook", "filter", "--budget", str(budget), *extra, "--tool", "Bash"]
    return argv if store else [*argv, "--no-store"]


def load_event(payload: bytes) -> dict | None:
    """The agent's JSON event, or None when it is not a JSON object (the call is then left as
    the agent had it)."""
    try:
        event = json.loads(payload)
    except ValueError:
        return None
    return event if isinstance(event, dict) else None


def rewrite_reply(payload: bytes, rewrite, reply, unchanged: bytes) -> bytes:
    """The reply of a hook that rewrites a shell command: reply(event, command) when
    rewrite(event) gives one, else `unchanged` (what the agent reads as "no change")."""
    event = load_event(payload)
    command = rewrite(event) if event is not None else None
    return unchanged if command is None else json.dumps(reply(event, command)).encode()
