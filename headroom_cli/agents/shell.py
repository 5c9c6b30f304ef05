"""Wrapping a shell command so that its output is clipped and nothing else changes.

Some agents only let a hook rewrite a command before it runs (Claude Code, Gemini CLI). A
pipeline (`CMD 2>&1 | headroom`) would run CMD in a subshell — a `cd` in it would stop reaching
the agent's shell — and turn a failing CMD's status into headroom's. So the wrapper runs CMD,
as written, in the agent's own shell (a brace group), sends its merged output to a private
file the hook made for this call (mode 0600), and only then clips that file:

    __headroom_clip() { headroom hook filter --exit-status "$1" --input /tmp/headroom-….out …; }
    trap '__headroom_clip "$?"' EXIT
    { CMD
    } >/tmp/headroom-XXXXXXXX.out 2>&1
    __headroom_status=$?
    trap - EXIT
    __headroom_clip "$__headroom_status"
    (exit "$__headroom_status")

- CMD keeps the shell: `cd`, variables and functions persist as they would have.
- A CMD that leaves the shell (`make test; exit 3`, `set -e` and a failure, `logout`) still has
  its output clipped: the shell runs the EXIT trap as it leaves — with the group's redirection
  already undone, so the clip reaches the agent — and then exits with CMD's status, as it would
  have. (Claude Code records the directory only after a command that succeeded, and a shell
  that exited records nothing: the same with the wrapper as without.)
- CMD stays code, not a quoted string, so an agent that checks a command's words against its
  rules (Claude Code's deny rules) still sees CMD's own words.
- CMD's stdin is untouched (`… | cmd`, `cmd < file` and the agent's stdin work as before).
- The status is CMD's, restored last, so `CMD && next` in the agent's own wrapper behaves the
  same.
- Reading a file, not a pipe, means a background process CMD started cannot hold the wrapper
  open, and headroom never makes CMD die of SIGPIPE.
- No command substitution: Gemini CLI refuses commands with `$(…)`.

Commands are left exactly as written — no rewrite at all — when wrapping could change what they
do (reason_not_to_wrap): `exec` replaces the shell (no trap runs, the output would stay in the
file), a `trap` of CMD's own would replace headroom's, `return` and `eval` do what their
context or their text says; when their output goes to a file anyway; when they (or the
wrapper) would not parse. These are judged on the command's structure (shellsyntax.parse), so
`rg -n exit src/`, `grep -v exec` or `git commit -m "trap"` are wrapped.
"""

from __future__ import annotations

import json
import shlex

from ..patterns import lazy
from . import shellsyntax

# The copy of the agent's stdout a trap writes to, for commands that may leave the shell.
SAVED_FD = 7
_LEAVES_SHELL_WORDS = lazy(r"(?<![\w.$/-])(?:exit|logout|set|errexit)(?![\w.-])")
# Commands whose effect a wrapper would change (see the module's docstring).
_KEEPS_SHELL_AS_WRITTEN = {"exec", "trap", "return", "eval"}
# For a script parse() reads only in part (for, case, functions): those words anywhere.
_KEEPS_SHELL_WORDS = lazy(r"(?<![\w.$/-])(?:exec|trap|return|eval)(?![\w.-])")
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
    script = shellsyntax.parse(command)
    if script is None:
        return "it cannot be read as a shell command"
    if set(shellsyntax.command_names(script)) & _KEEPS_SHELL_AS_WRITTEN or (
            script.opaque and _KEEPS_SHELL_WORDS.search(command)):
        return "it may replace the shell or change its traps (exec, trap, return, eval)"
    if _stdout_to_file(script):
        return "its output goes to a file"
    return None


def may_leave_shell(command: str) -> bool:
    """Could `command` end the shell before the filter runs (exit, logout, set -e)?"""
    script = shellsyntax.parse(command)
    if script is None or script.opaque:
        return script is None or bool(_LEAVES_SHELL_WORDS.search(command))
    return any(name in ("exit", "logout") for name in shellsyntax.command_names(script)) \
        or any(cmd.words[:1] == ("set",) and any(_sets_errexit(word) for word in cmd.words[1:])
               for cmd in script.commands)


def _sets_errexit(word: str) -> bool:
    return word == "errexit" or (word.startswith("-") and not word.startswith("--")
                                 and "e" in word)


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
    clip = f'{filter_cmd} --exit-status {status} --input {out} 2>/dev/null\n'
    group = f"{{ {command.rstrip(chr(10))}\n}} >{out} 2>&1\n{VAR_STATUS}=$?\n"
    if not may_leave_shell(command):
        return f"{group}{clip}(exit {status})"
    # The trap runs where the shell left: still inside the group's redirection when `exit`
    # was called from a function (bash) or always (zsh). So it writes to a copy of the
    # agent's stdout made before the group (only commands that may exit get this copy: a
    # background job CMD starts inherits it and holds the agent's pipe, as it would without
    # headroom).
    return (
        f"exec {SAVED_FD}>&1\n"
        f"trap {shlex.quote(f'{VAR_STATUS}=$?; {clip.strip()} >&{SAVED_FD}')} EXIT\n"
        f"{group}trap - EXIT\nexec {SAVED_FD}>&-\n{clip}(exit {status})"
    )


def new_output_file() -> str:
    """A new empty file, readable by this user only, for one wrapped command's output: in
    $TMPDIR or /tmp, as mkstemp would make it, without importing tempfile (which also probes
    the candidate folders by writing to them) while the agent waits; mkstemp when that fails."""
    import os

    from ..privatefile import new_private_file

    try:
        handle, path = new_private_file(os.environ.get("TMPDIR") or "/tmp", OUTPUT_PREFIX,
                                        OUTPUT_SUFFIX)
    except OSError:
        import tempfile

        handle, path = tempfile.mkstemp(prefix=OUTPUT_PREFIX, suffix=OUTPUT_SUFFIX)
    os.close(handle)
    return path


def wrap_checked(command: str, filter_argv: list[str]) -> str | None:
    """wrap(), with a new output file, when both the command and the wrapper parse (else None:
    the command is left exactly as written)."""
    import os

    out_path = new_output_file()
    wrapped = wrap(command, filter_argv, out_path)
    if syntax_ok(command, wrapped):
        return wrapped
    try:
        os.unlink(out_path)
    except OSError:
        pass
    return None


SYNTAX_CHECK_SECONDS = 10  # a hang guard: `bash -n` on a closed input always ends


def syntax_ok(*texts: str) -> bool:
    """Does bash parse each text? (A command that does not parse is left as it is, so its
    error reads as without headroom; a wrapper that would not parse is never returned.) Each
    text is checked by its own `bash -n`, all at once: the agent waits on this. Spawned with
    os.posix_spawn, not subprocess: importing subprocess and shutil costs more CPU (~10 ms)
    than both checks."""
    import os

    bash = on_path("bash")
    if bash is None:
        return False
    pids: list[int] = []
    try:
        for text in texts:
            pids.append(_spawn_bash_n(bash, text.encode("utf-8", "surrogateescape")))
        return all(status == 0 for status in _exit_statuses(pids, SYNTAX_CHECK_SECONDS))
    except OSError:  # TimeoutError included: the command is left as written
        return False
    finally:
        for pid in pids:
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
            except ChildProcessError:
                pass  # reaped already


def on_path(name: str) -> str | None:
    """shutil.which(name), without importing shutil."""
    import os

    for folder in os.get_exec_path():
        path = os.path.join(folder, name)
        if os.access(path, os.X_OK) and not os.path.isdir(path):
            return path
    return None


def _spawn_bash_n(bash: str, script: bytes) -> int:
    """`bash -n` reading script on stdin (not as an argument: one argument is limited to
    128 KB on Linux), its output discarded; bash reads all of it, so writing one check's
    input after the other's cannot deadlock."""
    import os

    read_end, write_end = os.pipe()  # both close on exec; dup2 makes stdin inheritable
    try:
        pid = os.posix_spawn(bash, [bash, "-n"], os.environ, file_actions=[
            (os.POSIX_SPAWN_DUP2, read_end, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    except BaseException:
        os.close(write_end)
        raise
    finally:
        os.close(read_end)
    with open(write_end, "wb") as pipe:
        pipe.write(script)
    return pid


def _exit_statuses(pids: list[int], seconds: float) -> list[int]:
    """The exit statuses of the children, in order, once all have exited; TimeoutError past
    `seconds` (polled, with growing pauses: a blocking wait could not give up)."""
    import os
    import time

    deadline = time.monotonic() + seconds
    statuses: dict[int, int] = {}
    pause = 0.0005
    while True:
        for pid in pids:
            if pid not in statuses:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    statuses[pid] = os.waitstatus_to_exitcode(status)
        if len(statuses) == len(pids):
            return [statuses[pid] for pid in pids]
        if time.monotonic() > deadline:
            raise TimeoutError(f"bash -n still running after {seconds} s")
        time.sleep(pause)
        pause = min(2 * pause, 0.05)


def stdout_to_file(command: str) -> bool:
    """Does a redirection send the command's stdout to a file (other than /dev/null)? A
    command that cannot be read counts as one (it is then left as written)."""
    script = shellsyntax.parse(command)
    return script is None or _stdout_to_file(script)


def _stdout_to_file(script: shellsyntax.Script) -> bool:
    for cmd in script.commands:
        for redirect in cmd.redirects:
            if redirect.op not in (">", ">>", ">|", "&>", "&>>", ">&") \
                    or redirect.fd not in ("", "1"):
                continue  # input, or another descriptor (2>err.log)
            target = redirect.target
            if redirect.op == ">&" and (target.isdigit() or target == "-"):
                continue  # >&2, >&-: a descriptor, not a file
            if target != "/dev/null":
                return True
    return False


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


# A command longer than this is not repeated to the filter (the wrapper holds it already, and
# one argument may not pass 128 KB): it still runs in its session, without a re-run's summary.
COMMAND_ARG_CHARS = 2000


def session_argv(event: dict, command: str, cwd: str | None = None) -> list[str]:
    """`--session ID --cwd DIR --command TEXT` for the filter of a command wrapped in a session
    (the agent's `session_id`); nothing when the event names none. `cwd` overrides the event's
    (a tool's own directory argument)."""
    session = event.get("session_id")
    if not isinstance(session, str) or not session.strip():
        return []
    argv = ["--session", session]
    cwd = cwd or event.get("cwd")
    if isinstance(cwd, str) and cwd:
        argv += ["--cwd", cwd]
    if len(command) <= COMMAND_ARG_CHARS:
        argv += ["--command", command]
    return argv


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
