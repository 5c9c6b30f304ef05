"""The thin shell: argv, environment, stdin, stdout and files are touched here and nowhere else.

headroom runs on every agent tool call, and most outputs fit their budget. So main() first
tries the pass-through: when the arguments are plain filter options and stdin holds at most
`budget` bytes (every token covers at least one byte), the bytes go straight back out — before
typer, the tokenizer or any planner is imported. It reads no more than budget + 1 bytes to
find out: a larger input goes on, that prefix first, to the streaming path. Everything else goes to the typer app in
cli/commands.py, which re-parses the same arguments (so errors and help come from one place).
"""

from __future__ import annotations

import os
import sys

# Subcommands take everything after them, `--` included; only the filter wraps a command.
SUBCOMMANDS = ("show", "store", "init", "hook", "config", "stats", "history")
DEFAULT_BUDGET = 4000
# Set by the shell completion scripts (completions/): the full app answers, whatever stdin holds.
COMPLETE_VAR = "_HEADROOM_COMPLETE"
# The filter options the pass-through understands; anything else goes to the full parser.
_VALUED = {"--budget": "budget", "-b": "budget", "--tool": "tool", "-t": "tool",
           "--encoding": "encoding", "-e": "encoding"}
_FLAGS = {"--no-store", "--no-digest"}


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    # Everything after the first `--` is the wrapped command, never our options or subcommands.
    command: list[str] | None = None
    if "--" in args and not (args and args[0] in SUBCOMMANDS):
        split = args.index("--")
        args, command = args[:split], args[split + 1:]
    stdin = None
    if command is None and not os.environ.get(COMPLETE_VAR) \
            and not (args and args[0] in SUBCOMMANDS):
        try:
            settings = config()
        except BrokenConfig as err:
            _die(str(err))
        budget = _plain_filter_budget(args, os.environ, settings)
        if budget and sys.stdin is not None and not sys.stdin.isatty():
            stdin, ended = _read_prefix(budget + 1)
            if ended and len(stdin) <= budget:
                write(stdin)
                return
    from .commands import run_app

    run_app(args, command, stdin)


def _plain_filter_budget(args: list[str], environ, settings=None) -> int | None:
    """The budget when args are only plain filter options (else None: let typer parse them)."""
    if settings is not None and settings.values.get("format", "text") != "text" \
            or environ.get("HEADROOM_FORMAT", "text") != "text":
        return None  # a wrapped format is never a plain pass-through
    values = {"budget": None, "tool": environ.get("HEADROOM_TOOL"),
              "encoding": environ.get("HEADROOM_ENCODING") or "cl100k_base"}
    position = 0
    while position < len(args):
        name, _, attached = args[position].partition("=")
        if name in _FLAGS and not attached:
            position += 1
            continue
        if name not in _VALUED:
            return None
        if attached:
            value, position = attached, position + 1
        elif position + 1 < len(args):
            value, position = args[position + 1], position + 2
        else:
            return None
        if _VALUED[name]:
            values[_VALUED[name]] = value
    from ..tokens import ENCODINGS

    budget = (values["budget"] or environ.get("HEADROOM_BUDGET")
              or str(configured_budget(settings, values["tool"]))).strip()
    if not (budget.isascii() and budget.isdigit()) or values["encoding"] not in ENCODINGS:
        return None
    return int(budget)


def configured_budget(settings, tool: str | None) -> int:
    """The config file's budget for this tool, else its default budget, else the built-in."""
    if settings is None:
        return DEFAULT_BUDGET
    if settings.tools:
        from ..tools import lookup

        override = settings.tools.get(lookup(tool).name, {}).get("budget")
        if override is not None:
            return override
    return settings.values.get("budget", DEFAULT_BUDGET)


_CONFIG: list = []


def config_path(environ) -> str:
    """$HEADROOM_CONFIG, else $XDG_CONFIG_HOME/headroom/config.toml."""
    if environ.get("HEADROOM_CONFIG"):
        return os.path.expanduser(environ["HEADROOM_CONFIG"])
    base = environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):  # the XDG spec says to ignore a relative path
        base = os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "headroom", "config.toml")


class BrokenConfig(Exception):
    """The config file cannot be read or is broken: one line naming the file (and line). A run
    ends with exit status 1; an agent's hook fails open (the output passes unchanged)."""


def config():
    """The config file's settings (None when there is none), read once per run; raises
    BrokenConfig (every time it is asked) when the file is broken."""
    if not _CONFIG:
        try:
            _CONFIG.append(_read_config(config_path(os.environ)))
        except BrokenConfig as err:
            _CONFIG.append(err)
    if isinstance(_CONFIG[0], BrokenConfig):
        raise _CONFIG[0]
    return _CONFIG[0]


def _read_config(path: str):
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as err:
        raise BrokenConfig(f"cannot read {path}: {getattr(err, 'strerror', None) or err}")
    from ..config import ConfigError, parse

    try:
        return parse(text, path)
    except ConfigError as err:
        raise BrokenConfig(str(err)) from None


def _die(message: str) -> None:
    from ..status import ExitStatus

    print(f"headroom: {message}", file=sys.stderr)
    sys.exit(ExitStatus.ERROR)


def _read_prefix(limit: int) -> tuple[bytes, bool]:
    """Up to `limit` bytes of stdin, and whether it ended within them. os.read, not the
    buffered reader: whatever is not returned here stays in the pipe for the full path."""
    parts, size = [], 0
    try:
        read = _unbuffered_reader(sys.stdin.buffer)
        while size < limit:
            part = read(limit - size)
            if not part:
                return b"".join(parts), True
            parts.append(part)
            size += len(part)
    except OSError:
        pass  # the full path reads on and reports the error properly
    return b"".join(parts), False


def _unbuffered_reader(stream):
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # an in-memory stream (tests): nothing to read ahead
        return stream.read
    return lambda size: os.read(fd, size)


def write(data: bytes) -> None:
    """All of data to stdout; a reader that went away ends the run quietly (exit 141)."""
    out = sys.stdout.buffer
    view = memoryview(data)
    try:
        # A pipe whose reader left mid-write takes part of a large write without an error;
        # writing the rest is what raises BrokenPipeError.
        while view:
            written = out.write(view)
            if not written:
                break
            view = view[written:]
        out.flush()
    except BrokenPipeError:
        # Here, not in main(): typer turns a broken pipe into exit status 1 on its own.
        quiet_broken_pipe()


def quiet_broken_pipe() -> None:
    # The reader went away (`| head -1`): not an error worth a traceback.
    from ..status import ExitStatus

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    sys.exit(ExitStatus.PIPE_CLOSED)


def __getattr__(name: str):
    # `from headroom_cli.cli import app` (tests, the man page generator) without paying for typer
    # on the pass-through.
    if name == "app":
        from .commands import app

        return app
    raise AttributeError(name)
