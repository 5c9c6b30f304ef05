"""The thin shell: argv, environment, stdin, stdout and files are touched here and nowhere else.

    source (stdin bytes or a running command) → compress() → sink (stdout; store as a side effect)
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import List, Optional

import typer

from . import __version__
from .status import EXIT_STATUS_HELP, ExitStatus

HELP = f"""Clip a tool's output to a token budget before it enters an LLM agent's context.

Reads stdin (or runs CMD after --), sniffs its shape (search results, build/test log, other),
keeps what a person debugging would look for, and replaces whatever it drops with a marker that
says how much was dropped and how to get it back. Output that fits passes through unchanged.

\b
Examples:
  rg -n parse_args | headroom --tool Grep --budget 2000
  headroom --tool Bash -- pytest -x
  make 2>&1 | headroom --budget 4000

\b
{EXIT_STATUS_HELP}
"""


class Kind(str, Enum):
    auto = "auto"
    search = "search"
    log = "log"
    other = "other"


class Encoding(str, Enum):
    cl100k_base = "cl100k_base"
    o200k_base = "o200k_base"
    estimate = "estimate"


app = typer.Typer(
    help=HELP,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    add_completion=False,
    no_args_is_help=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        print(f"headroom {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def run(
    ctx: typer.Context,
    budget: int = typer.Option(4000, "--budget", "-b", envvar="HEADROOM_BUDGET", min=0,
                               help="Token budget for the output; 0 = no clipping."),
    tool: Optional[str] = typer.Option(
        None, "--tool", "-t", envvar="HEADROOM_TOOL",
        help="Agent tool that produced the output: Bash, Read, Grep, Glob, WebFetch (or an "
             "alias). Default: Bash when wrapping a command, else generic."),
    kind: Kind = typer.Option(Kind.auto, "--kind", "-k", help="Shape; auto sniffs it."),
    encoding: Encoding = typer.Option(Encoding.cl100k_base, "--encoding", "-e",
                                      envvar="HEADROOM_ENCODING",
                                      help="Tokenizer that counts the budget."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    command: List[str] = (ctx.obj or {}).get("command") or []
    data = _read_stdin(command)
    counter = _counter(encoding.value)
    from .api import compress

    result = compress(_decode(data), tool=tool or ("Bash" if command else None), budget=budget,
                      kind=kind.value, counter=counter)
    if result.clipped:
        _write(result.text.encode("utf-8", "surrogateescape"))
    else:
        _write(data)


def _read_stdin(command: List[str]) -> bytes:
    if command:
        _fail("command mode is not available yet", ExitStatus.USAGE)
    if sys.stdin is None or sys.stdin.isatty():
        _fail("no input: pipe a command's output in (cmd | headroom) or wrap one "
              "(headroom -- cmd)", ExitStatus.USAGE)
    return sys.stdin.buffer.read()


def _decode(data: bytes) -> str:
    # Invalid UTF-8 travels as lone surrogates, so every byte that is kept is written back as is.
    return data.decode("utf-8", "surrogateescape")


def _counter(encoding: str):
    from .tokens import LazyCounter

    return LazyCounter(encoding, lambda: _load_counter(encoding))


def _load_counter(encoding: str):
    from .tokens import EncodingUnavailable, EstimateCounter, load_counter

    try:
        return load_counter(encoding, cache_dir=_cache_dir(),
                            tiktoken_cache_dir=_tiktoken_cache_dir())
    except (EncodingUnavailable, ImportError, OSError, ValueError) as err:
        print(f"headroom: cannot load the {encoding} tokenizer ({err}); counting tokens as "
              "characters/4 instead (--encoding estimate)", file=sys.stderr)
        return EstimateCounter()


def _cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "headroom")


def _tiktoken_cache_dir() -> str:
    import tempfile

    return (os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
            or os.path.join(tempfile.gettempdir(), "data-gym-cache"))


def _write(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _fail(message: str, status: ExitStatus) -> None:
    print(f"headroom: {message}", file=sys.stderr)
    raise typer.Exit(int(status))


def main(argv: Optional[List[str]] = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    # Everything after the first `--` is the wrapped command, never our options or subcommands.
    command: List[str] = []
    if "--" in args:
        split = args.index("--")
        args, command = args[:split], args[split + 1:]
    try:
        app(args=args, prog_name="headroom", obj={"command": command}, standalone_mode=True)
    except BrokenPipeError:
        _quiet_broken_pipe()
    except KeyboardInterrupt:
        sys.exit(ExitStatus.SIGNAL_BASE + 2)


def _quiet_broken_pipe() -> None:
    # The reader went away (`| head -1`): not an error worth a traceback.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    sys.exit(ExitStatus.PIPE_CLOSED)
