"""The typer application: every option, subcommand and help text.

    source (stdin bytes or a running command) → compress() → sink (stdout; store as a side effect)

Output that fits never gets here: cli/__init__.py passes it through before typer is imported.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import List, NoReturn, Optional

import typer

from .. import __version__
from . import COMPLETE_VAR, BrokenConfig, quiet_broken_pipe, write
from ..status import EXIT_STATUS_HELP, ExitStatus

HELP = f"""Clip a tool's output to a token budget before it enters an LLM agent's context.

Reads stdin (or runs CMD after --), sniffs its shape (search results, a diff, JSON, source code,
a build/test log, a listing, other: see --kind), keeps what a person debugging would look for,
and replaces whatever it drops with a marker that says how much was dropped and how to get it
back. Output that fits passes through unchanged.
Whatever is dropped is kept whole in a private local store ($HEADROOM_STORE, else
$XDG_STATE_HOME/headroom/store) under the id the marker names; `headroom show ID` prints it.

\b
Examples:
  rg -n parse_args | headroom --tool Grep --budget 2000
  headroom --tool Bash -- pytest -x        (CMD's stdout+stderr, merged; its exit status)
  make 2>&1 | headroom --budget 4000
  headroom show 3f2a9c1b7d4e --lines 301:4870

\b
{EXIT_STATUS_HELP}
"""


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
    subcommand_metavar="[-- CMD [ARGS]... | COMMAND [ARGS]...]",
    context_settings={"help_option_names": ["-h", "--help"]},
)


# --- shell completion: the scripts in completions/ call back with $_HEADROOM_COMPLETE set ------
# Options whose type is a fixed set (an Enum, a click.Choice) complete their values on their own,
# and so does any option whose metavar lists its values (`[day|week]`: _metavar_values); these
# callbacks serve the rest that have known values. Each imports what it needs only when asked,
# so none of this costs a normal run anything.

def _complete_tool(incomplete: str) -> List[tuple]:
    from ..tools import known_names, lookup

    return [(name, "" if lookup(name).name == name else f"alias of {lookup(name).name}")
            for name in known_names()]


def _complete_kind(incomplete: str) -> List[str]:
    from ..sniff import KINDS

    return ["auto", *KINDS]


def _complete_format(incomplete: str) -> List[str]:
    from ..formats import FORMATS

    return list(FORMATS)


def _complete_agent(incomplete: str) -> List[tuple]:
    from ..agents import AGENTS

    return list(AGENTS.items())


def _complete_id(incomplete: str) -> List[tuple]:
    # Newest first; the help (size and time) shows in zsh and fish menus.
    import time

    store = _store()
    if store is None:
        return []
    return [(entry.id, f"{entry.size:,} bytes, "
                       f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(entry.mtime))}")
            for entry in reversed(store.entries())]


def _metavar_values(param) -> List[str]:
    """The values a plain-string option's metavar spells out: `[text|markdown|json]`."""
    import re

    found = re.fullmatch(r"\[(\w[\w.-]*(?:\|\w[\w.-]*)+)\]", getattr(param, "metavar", None) or "")
    return found.group(1).split("|") if found else []


def _complete_metavar_values(command) -> None:
    """Give every parameter with no completion of its own the values its metavar lists."""
    from typer._click.shell_completion import CompletionItem

    for param in command.params:
        values = _metavar_values(param)
        if values and param._custom_shell_complete is None:
            param._custom_shell_complete = lambda ctx, param, incomplete, values=values: [
                CompletionItem(value) for value in values if value.startswith(incomplete)]
    for sub in getattr(command, "commands", {}).values():
        _complete_metavar_values(sub)


def _version(value: bool) -> None:
    if value:
        print(f"headroom {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def run(
    ctx: typer.Context,
    budget: int = typer.Option(4000, "--budget", "-b", envvar="HEADROOM_BUDGET", min=0,
                               metavar="N", help="Token budget for the output; 0 = no clipping."),
    tool: Optional[str] = typer.Option(
        None, "--tool", "-t", envvar="HEADROOM_TOOL", metavar="NAME",
        autocompletion=_complete_tool,
        help="Agent tool that produced the output: Bash, Read, Grep, Glob, WebFetch (or an "
             "alias). Default: Bash when wrapping a command, else generic."),
    kind: str = typer.Option("auto", "--kind", "-k", metavar="SHAPE",
                             autocompletion=_complete_kind,
                             help="Shape: auto (sniff it), or a planner's name: search, "
                                  "diff, json, code, log, listing, other."),
    encoding: Encoding = typer.Option(Encoding.cl100k_base, "--encoding", "-e",
                                      envvar="HEADROOM_ENCODING",
                                      help="Tokenizer that counts the budget."),
    fmt: str = typer.Option("text", "--format", "-f", envvar="HEADROOM_FORMAT",
                            metavar="[text|markdown|json]", autocompletion=_complete_format,
                            help="text: the output itself; markdown: a header line and the "
                                 "output fenced (CI summaries); json: the output and its "
                                 "figures, for harnesses."),
    no_store: bool = typer.Option(False, "--no-store",
                                  help="Keep no copy of clipped output (also HEADROOM_STORE=off); "
                                       "markers then say how to re-run instead."),
    live: bool = typer.Option(False, "--live",
                              help="Print the first lines as they arrive (for a person or a CI "
                                   "log watching a long command), then the plan of the rest "
                                   "when the input ends."),
    no_digest: bool = typer.Option(False, "--no-digest",
                                   help="Ask no model for a digest of the omitted part, even "
                                        "when digest_command or digest_url is configured."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    command: Optional[List[str]] = (ctx.obj or {}).get("command")
    if command is not None and not command:
        _fail("nothing to run after --", ExitStatus.USAGE)
    tool = tool or ("Bash" if command else None)
    budget, encoding_name, fmt = _configured(ctx, tool, budget, encoding.value, fmt)
    _check_kind(kind)
    _check_format(fmt)
    if live and fmt != "text":
        _fail("--live prints text as it arrives: it takes no --format", ExitStatus.USAGE)
    prefetched = (ctx.obj or {}).get("stdin")
    row = _tool_with_split(tool)
    store = None if no_store else _store()
    if budget == 0 and fmt == "text":  # no clipping: straight through, whatever the size
        status = _take_input(command, prefetched, write)
        raise typer.Exit(status or 0)
    from ..intake import Held

    intake = _intake(row, kind, budget, store, live)
    status = _take_input(command, prefetched, intake.feed)
    taken = intake.finish()
    # A stopping signal ends a stdin run with 128 + N, but there is no command to report on.
    options = dict(tool=row, budget=budget, kind=kind, counter=_counter(encoding_name),
                   exit_status=status if command else None)
    if isinstance(taken, Held) and not taken.live_bytes:
        data = taken.data
        result, store_id = _clip_and_store(data, options, store,
                                           None if no_digest else _digest_settings())
    else:
        data, result, store_id = _clip_streamed(taken, intake, options, store)
    options["tool"] = tool
    _record("clip", tool=_canonical(tool), kind=result.kind, input_tokens=result.input_tokens,
            output_tokens=result.output_tokens, clipped=result.clipped, store_id=store_id)
    if fmt == "text":
        write(result.text.encode("utf-8", "surrogateescape") if result.clipped or data is None
              else data)
    else:
        from ..formats import wrap

        write(wrap(fmt, result, result.text, tool=options["tool"], store_id=store_id,
                   exit_status=options["exit_status"]).encode("utf-8", "surrogateescape"))
    if status:
        raise typer.Exit(status)


def _configured(ctx: typer.Context, tool: Optional[str], budget: int, encoding: str,
                fmt: str) -> tuple[int, str, str]:
    """Flags and HEADROOM_* variables win; the config file fills in what they left at default."""
    from typer._click.core import ParameterSource

    from . import config, configured_budget

    settings = config()
    if settings is None:
        return budget, encoding, fmt

    def defaulted(name: str) -> bool:
        return ctx.get_parameter_source(name) in (ParameterSource.DEFAULT, None)

    return (configured_budget(settings, tool) if defaulted("budget") else budget,
            settings.values.get("encoding", encoding) if defaulted("encoding") else encoding,
            settings.values.get("format", fmt) if defaulted("fmt") else fmt)


def _tool_with_split(tool: Optional[str]):
    """The tool's row of the table, with the config file's head/tail split if it sets one."""
    from . import config

    settings = config()
    if settings is None or not settings.tools:
        return tool
    import dataclasses

    from ..tools import lookup

    row = lookup(tool)
    split = {k: v for k, v in settings.tools.get(row.name, {}).items() if k.endswith("_share")}
    return dataclasses.replace(row, **split) if split else tool


def _canonical(tool: Optional[str]) -> str:
    from ..tools import lookup

    return lookup(tool).name


def _record(event: str, **figures) -> None:
    """One row in the savings ledger; recording never slows or breaks the main job."""
    path = _ledger_path()
    if path is None:
        return
    from ..ledger import Recorded, Run, queue_path, record

    outcome = record(path, Run(event, **figures))
    # A queued row is not lost (the next run records it): nothing to say.
    if outcome is Recorded.BUSY:
        _warn(f"the ledger {path} has been locked by another process for many runs; this "
              f"one was not recorded (see {queue_path(path)})")
    elif outcome is Recorded.FAILED:
        _warn(f"cannot record this run in the ledger {path} (HEADROOM_LEDGER=off turns it off)")


def _ledger_path() -> Optional[str]:
    """$XDG_STATE_HOME/headroom/ledger.sqlite3; None when HEADROOM_LEDGER (or the config
    file's `ledger`) turns it off."""
    from ..config import resolve
    from . import config

    settings = config()
    value, _ = resolve("ledger", settings, os.environ) if settings else (
        os.environ.get("HEADROOM_LEDGER", "on"), "")
    if str(value).strip().lower() in ("off", "0", "false", "no"):
        return None
    return os.path.join(_state_dir(), "headroom", "ledger.sqlite3")


def _state_dir() -> str:
    state = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(state):  # the XDG spec says to ignore a relative path
        state = os.path.join(os.path.expanduser("~"), ".local", "state")
    return state


def _check_format(fmt: str) -> None:
    from ..formats import FORMATS

    if fmt not in FORMATS:
        _fail(f"unknown --format {fmt!r}: use one of {', '.join(FORMATS)}", ExitStatus.USAGE)


def _check_kind(kind: str) -> None:
    # The shapes are the sniffer's registry; importing it loads every planner, so only when a
    # shape is named.
    if kind == "auto":
        return
    from ..sniff import KINDS

    if kind not in KINDS:
        _fail(f"unknown --kind {kind!r}: use auto or one of {', '.join(KINDS)}", ExitStatus.USAGE)


def _take_input(command: Optional[List[str]], prefetched: Optional[bytes], sink) -> Optional[int]:
    """Hand the input to sink as it arrives: the command's output (returns its status), or
    stdin (returns 128 + N when signal N stopped the reading, else None)."""
    from ..source import CannotRun, read_stream, run_command

    if command:
        try:
            return run_command(command, sink)
        except CannotRun as err:
            _fail(str(err), err.status)
    if prefetched is None and (sys.stdin is None or sys.stdin.isatty()):
        _fail("no input: pipe a command's output in (cmd | headroom) or wrap one "
              "(headroom -- cmd)", ExitStatus.USAGE)
    if prefetched:
        sink(prefetched)
    try:
        signum = read_stream(sys.stdin.buffer, sink)
    except OSError as err:
        _fail(f"cannot read stdin: {err.strerror or err}", ExitStatus.ERROR)
    return None if signum is None else ExitStatus.SIGNAL_BASE + signum


def _intake(tool, kind: str, budget: int, store, live: bool):
    from .. import intake as stage  # HOLD read at call time: tests shrink it
    from ..sniff import scanner
    from ..tools import Tool, lookup

    row = tool if isinstance(tool, Tool) else lookup(tool)

    def make_spill():
        try:
            return store.spill(_retention())
        except OSError as err:
            _store_failed(store, err)
            return None

    # No clipping in a wrapped format (json, markdown) needs the whole text: held, whatever
    # its size (--budget 0 in text format never gets here: it streams straight through).
    hold = stage.HOLD if budget else sys.maxsize
    return stage.Intake(keep=stage.keep_for(budget), hold=hold,
                        start=lambda sample: scanner(sample, row, kind, PICK_LIMIT),
                        make_spill=make_spill if store is not None else None,
                        live=write if live else None, live_limit=int(budget * row.head_share))


# Characters of picked lines a scanner may hold (with head, tail and planning: ~100 MB at most).
PICK_LIMIT = 4_000_000


def _clip_streamed(taken, intake, options: dict, store):
    """An output planned from its excerpt: one too large to hold, or what follows the lines
    --live printed. Returns the bytes to print when nothing was cut, the result, the id."""
    from ..api import compress_streamed
    from ..intake import Held

    counter, budget = options["counter"], options["budget"]
    if isinstance(taken, Held):
        excerpt, kind, planner, spill = taken.rest(), options["kind"], None, None
        data = taken.data[taken.live_bytes:]
    else:
        excerpt, kind, planner, spill = taken.excerpt, taken.kind, taken.planner, intake.spill
        data = None
    if intake.printed:
        # What --live printed counts against the budget; a token may merge across the seam.
        budget = max(0, budget - counter.count("".join(intake.printed)) - 2)
    if data is not None and counter.count(excerpt.text) <= budget:  # the rest fits: as it is
        return data, _unclipped(excerpt.text, options), None

    def clip(store_id, lost=None):
        return compress_streamed(excerpt, kind=kind, planner=planner, tool=options["tool"],
                                 budget=budget, counter=counter, store_id=store_id,
                                 exit_status=options["exit_status"], lost=lost)

    if isinstance(taken, Held):
        return None, *_keep_if_named(taken.data, clip, store)
    store_id = spill.id if spill is not None else None
    if spill is not None and spill.failed:  # a full disk while streaming: say so, as held
        _store_failed(store, spill.error)
    result = clip(store_id, spill.lost if store_id else None)
    if store_id is None or store_id not in result.text:
        if spill is not None:
            spill.discard()
        return None, result, None
    import time

    try:
        return None, result, spill.commit(_retention(), time.time())
    except OSError as err:
        spill.discard()
        _store_failed(store, err)
        return None, clip(None), None


def _keep_if_named(data: bytes, clip, store, refine=lambda result, store_id, lost: result):
    """clip(store_id), keeping `data` in the store when the marker names it; returns the
    result and the stored id (None when nothing was stored).

    The id is a hash of the bytes, so it is known before rendering; the bytes are written only
    when the marker names them (a clip that only dropped colour codes, or whose marker was too
    big for the budget, names no id). A store that cannot be written costs the marker its
    `headroom show` hint, never the output or the exit status. `refine(result, store_id,
    lost)` adds what needs the final id (a digest, cached beside the stored copy).
    """
    if store is None:
        return refine(clip(None), None, None), None
    import time

    from ..store import Layout, content_id

    item_id, retention = content_id(data), _retention()
    lost = Layout.of(data, retention.entry_limit).lost  # larger than the store lets it be
    result = clip(item_id, lost)
    if not (result.clipped and item_id in result.text):
        return result, None
    result = refine(result, item_id, lost)
    try:
        store.put(item_id, data, retention, time.time())
    except OSError as err:
        _store_failed(store, err)
        return refine(clip(None), None, None), None
    return result, item_id


def _store_failed(store, err: OSError) -> None:
    _warn(f"cannot keep the full output in {store.root} ({err.strerror or err}); "
          "the marker says how to re-run instead (--no-store silences this)")


def _unclipped(text: str, options: dict):
    from ..api import Result

    return Result(text, "passthrough", False, (), options["counter"].name, text,
                  options["counter"])


def _clip_and_store(data: bytes, options: dict, store, digest: Optional[dict] = None):
    """compress(), with the marker naming the stored copy when one could be kept; returns the
    result and the id of the stored copy (None when nothing was stored). With `digest`
    settings, a large omission gets a model-written digest in the marker (see _with_digest).
    """
    from ..api import compress

    text = _decode(data)

    def clip(store_id, lost=None):
        return compress(text, store_id=store_id, lost=lost, **options)

    def with_digest(result, store_id, lost):
        return _with_digest(text, result, dict(options, store_id=store_id, lost=lost), digest,
                            store if store_id else None, store_id)

    return _keep_if_named(data, clip, store, with_digest)


def _with_digest(text: str, result, options: dict, digest: Optional[dict], store=None,
                 item_id: Optional[str] = None):
    """The result again, with a model's digest of what it left out in the closing marker.

    Only for a large omission (digest.MIN_DROPPED_CHARS) of text output, and only when a
    summarizer is configured. The stored digest for the same output and omission is used
    before the model is asked, so a re-run prints the same marker. Any failure, or a digest
    the budget has no room for, leaves the plain marker.
    """
    if not digest or not result.clipped or "\x00" in text:
        return result
    from .. import digest as summarizer

    if result.dropped_chars < summarizer.MIN_DROPPED_CHARS:
        return result
    import hashlib

    from ..api import compress, omitted_text

    omitted = omitted_text(result, summarizer.MAX_INPUT_CHARS)
    key = hashlib.sha256(omitted.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    cached = store is not None and item_id is not None
    written = store.get_digest(item_id, key) if cached else None
    if written is None:
        written = summarizer.summarize(omitted, command=digest["command"], url=digest["url"],
                                       model=digest["model"], timeout=digest["timeout"])
        if written and cached:
            try:
                store.put_digest(item_id, written, key)
            except OSError:
                pass  # printed all the same; a re-run asks the model again
    if not written:
        return result
    counter = options["counter"]
    # The digest is worth some kept output, never most of it.
    if counter.count(written) * 4 > options["budget"]:
        return result
    with_digest = compress(text, digest=written, **options)
    # No room for it after all (or it would cost the marker its stored id): the plain marker.
    if written not in with_digest.text or (item_id and item_id not in with_digest.text):
        return result
    return with_digest


def _digest_settings() -> Optional[dict]:
    """The summarizer from the environment (HEADROOM_DIGEST_COMMAND, _URL, _MODEL, _TIMEOUT)
    or the config file; None when neither a command nor a URL is set."""
    from ..config import Config, resolve
    from ..digest import DEFAULT_TIMEOUT
    from . import config

    settings = config() or Config()
    values = {name: resolve(f"digest_{name}", settings, os.environ)[0]
              for name in ("command", "url", "model", "timeout")}
    if not (values["command"] or values["url"]):
        return None
    try:
        values["timeout"] = float(values["timeout"])
        if not values["timeout"] > 0:
            raise ValueError
    except (TypeError, ValueError):
        _warn(f"ignoring digest timeout {values['timeout']!r}: not a positive number")
        values["timeout"] = DEFAULT_TIMEOUT
    return values


def _decode(data: bytes) -> str:
    # Invalid UTF-8 travels as lone surrogates, so every byte that is kept is written back as is.
    return data.decode("utf-8", "surrogateescape")


def _counter(encoding: str):
    from ..tokens import LazyCounter

    return LazyCounter(encoding, lambda: _load_counter(encoding))


def _load_counter(encoding: str):
    from ..tokens import EstimateCounter, load_counter

    try:
        return load_counter(encoding, cache_dir=_cache_dir(),
                            tiktoken_cache_dir=_tiktoken_cache_dir())
    except Exception as err:  # noqa: BLE001 - a damaged tokenizer cache too: never fail the run
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


def _warn(message: str) -> None:
    print(f"headroom: {message}", file=sys.stderr)


def _fail(message: str, status: ExitStatus) -> NoReturn:
    _warn(message)
    raise typer.Exit(int(status))


# --- the store: where it is, how long it keeps, and the commands that read and clean it ----

def _store_dir() -> Optional[str]:
    """$HEADROOM_STORE, else the config file's store.path, else $XDG_STATE_HOME/headroom/store;
    None when either says `off`."""
    from . import config

    settings = config()
    configured = os.environ.get("HEADROOM_STORE", "") or (
        settings.values.get("store.path", "") if settings else "")
    if configured.strip().lower() == "off":
        return None
    if configured:
        return os.path.expanduser(configured)
    return os.path.join(_state_dir(), "headroom", "store")


def _store():
    root = _store_dir()
    if root is None:
        return None
    from ..store import Store

    return Store(root)


def _store_or_fail():
    store = _store()
    if store is None:
        _fail("the store is off (HEADROOM_STORE=off)", ExitStatus.ERROR)
    return store


_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _parse_size(text: str) -> int:
    """Bytes, with an optional binary unit: 1000000, 500M, 1G, 2GiB."""
    value = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = value[-1:] if value[-1:] in _SIZE_UNITS else ""
    number = float(value[:len(value) - len(unit)])
    if not 0 <= number < float("inf"):  # also rejects nan
        raise ValueError(text)
    return int(number * _SIZE_UNITS[unit])


def _parse_days(text: str) -> float:
    days = float(text)
    if not days >= 0:
        raise ValueError(text)
    return days


def _retention(max_bytes: Optional[str] = None, max_age_days: Optional[str] = None):
    """Caps from the options given, else the environment, else the defaults.

    A bad value from the environment is warned about and ignored, so it never breaks a clip;
    a bad option value is a usage error.
    """
    from ..store import Retention
    from . import config

    settings = config()
    caps = {}
    for field, option, env, parse in (
            ("max_bytes", max_bytes, "HEADROOM_STORE_MAX_BYTES", _parse_size),
            ("max_age_days", max_age_days, "HEADROOM_STORE_MAX_AGE_DAYS", _parse_days)):
        if option is not None:
            try:
                caps[field] = parse(option)
            except ValueError:
                _fail(f"bad --{field.replace('_', '-')} value: {option!r}", ExitStatus.USAGE)
        elif os.environ.get(env, "").strip():
            try:
                caps[field] = parse(os.environ[env])
            except ValueError:
                _warn(f"ignoring {env}={os.environ[env]!r}: not a number")
        elif settings is not None and f"store.{field}" in settings.values:
            try:
                caps[field] = parse(str(settings.values[f"store.{field}"]))
            except ValueError:
                _warn(f"ignoring {settings.where('store.' + field)}: not a size or number")
    return Retention(**caps)


def configured_store():
    """The store as configured (None when it is off) and its retention caps: for command
    modules that keep outputs themselves (history.py)."""
    return _store(), _retention()


def exit_status_help(done: str, error: str) -> str:
    return _exit_status_help(done, error)


def _exit_status_help(done: str, error: str) -> str:
    """A subcommand's exit statuses, laid out as in the app's help (statuses from status.py)."""
    return (f"\b\nExit status:\n  {ExitStatus.OK:<4} {done}\n  {ExitStatus.ERROR:<4} {error}\n"
            f"  {ExitStatus.USAGE:<4} usage error: bad option or argument\n")


@app.command(short_help="Print a stored output, or part of it.", help=f"""\
Print a stored output, or part of it, exactly as the command wrote it.

ID is the one a marker names. With no option, prints the whole output.

\b
Examples:
  headroom show ID --lines 301:4870    lines 301 to 4,870 (1-based, inclusive)
  headroom show ID --grep 'error|FAIL' matching lines, numbered (clipped to --budget)
  headroom show ID --head 50           the first 50 lines (--tail: the last)
  headroom show ID --bytes 1:4096      bytes 1 to 4,096 (for binary output)

{_exit_status_help("printed", "unknown, pruned or damaged id, or the store is off")}""")
def show(
    item_id: str = typer.Argument(..., metavar="ID", autocompletion=_complete_id,
                                  help="The id a marker names."),
    lines: Optional[str] = typer.Option(None, "--lines", "-n", metavar="A:B",
                                        help="Lines A to B, 1-based, inclusive."),
    grep: Optional[str] = typer.Option(None, "--grep", "-g", metavar="PATTERN",
                                       help="Lines matching a (Python) regular expression, "
                                            "with their line numbers."),
    ignore_case: bool = typer.Option(False, "--ignore-case", "-i", help="For --grep."),
    head: Optional[int] = typer.Option(None, "--head", min=0, metavar="N",
                                       help="The first N lines."),
    tail: Optional[int] = typer.Option(None, "--tail", min=0, metavar="N",
                                       help="The last N lines."),
    byte_span: Optional[str] = typer.Option(None, "--bytes", "-c", metavar="A:B",
                                            help="Bytes A to B, 1-based, inclusive."),
    budget: int = typer.Option(4000, "--budget", "-b", envvar="HEADROOM_BUDGET", min=0,
                               metavar="N",
                               help="Token budget for --grep's output; 0 = no clipping."),
    encoding: Encoding = typer.Option(Encoding.cl100k_base, "--encoding", "-e",
                                      envvar="HEADROOM_ENCODING",
                                      help="Tokenizer that counts the budget."),
) -> None:
    chosen = [value for value in (lines, grep, head, tail, byte_span) if value is not None]
    if len(chosen) > 1:
        _fail("use one of --lines, --grep, --head, --tail, --bytes", ExitStatus.USAGE)
    from .. import retrieve

    try:
        line_span, byte_range = (None if span is None else retrieve.parse_range(span)
                                 for span in (lines, byte_span))
    except ValueError as err:
        _fail(str(err), ExitStatus.USAGE)
    stored = _stored(item_id)
    _record("show", store_id=stored.id)
    with stored:
        if grep is not None:
            shown = _show_grep(stored, grep, ignore_case, budget, encoding.value)
        else:
            shown = retrieve.select(stored, write, line_span, byte_range, head, tail)
    if shown.lost is not None:
        from ..render import partial_copy

        _warn(f"{stored.id}: {partial_copy(shown.lost)}; what was kept is printed")
    if shown.past_end is not None:
        _warn(shown.past_end)


def _stored(item_id: str):
    """The stored copy `item_id`, open and checked (store.Stored), or a one-line failure."""
    from ..store import Damaged, NotStored, is_id

    store = _store_or_fail()
    wanted = item_id.strip().lower()
    if not is_id(wanted):
        _fail(f"{item_id!r} is not a stored output's id (12 hex digits, as a marker prints "
              "them)", ExitStatus.ERROR)
    try:
        return store.open(wanted)
    except NotStored:
        _fail(f"no stored output {wanted}: it may have been pruned (see `headroom store "
              "list`); re-run the command to see its output again", ExitStatus.ERROR)
    except Damaged:
        _fail(f"stored output {wanted} is damaged (cut short, or edited); re-run the command "
              "to see its output again", ExitStatus.ERROR)
    except OSError as err:
        _fail(f"cannot read stored output {wanted}: {err.strerror or err}", ExitStatus.ERROR)


def _show_grep(stored, pattern: str, ignore_case: bool, budget: int, encoding: str):
    import re

    from .. import retrieve
    from ..api import compress
    from ..intake import Held

    try:
        compiled = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    except re.error as err:
        _fail(f"bad --grep pattern {pattern!r}: {err}", ExitStatus.USAGE)
    # Matches of a common word in a huge output are themselves huge: taken in like any
    # output (memory bounded) and clipped to the budget.
    intake = _intake("Grep", "auto", budget, None, False)
    shown, found = retrieve.grep(stored, compiled, intake.feed)
    if not found:
        _warn(f"no line matches {pattern!r}")
        return shown
    taken, counter = intake.finish(), _counter(encoding)
    if isinstance(taken, Held):
        result = compress(_decode(taken.data), tool="Grep", budget=budget, counter=counter)
        write(result.text.encode("utf-8", "surrogateescape") if result.clipped else taken.data)
    else:
        from ..api import compress_streamed

        result = compress_streamed(taken.excerpt, kind=taken.kind, planner=taken.planner,
                                   tool="Grep", budget=budget, counter=counter)
        write(result.text.encode("utf-8", "surrogateescape"))
    return shown


_STORE_EXIT_HELP = _exit_status_help("done", "the store is off (HEADROOM_STORE=off)")

store_app = typer.Typer(
    help=f"""Inspect and clean the store of full outputs that markers point to.

\b
Example:
  headroom store prune --max-age-days 1   keep only the last day's outputs

{_STORE_EXIT_HELP}""",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(store_app, name="store")


@store_app.command("path", help=f"""Print the store's directory.

\b
Example:
  du -sh "$(headroom store path)"

{_STORE_EXIT_HELP}""")
def store_path() -> None:
    write(f"{_store_or_fail().root}\n".encode("utf-8", "surrogateescape"))


@store_app.command("list", short_help="List stored outputs, oldest first.", help=f"""\
List stored outputs, oldest first: id, bytes, when, first line.

\b
Example:
  headroom store list | tail -3        the three newest stored outputs

{_STORE_EXIT_HELP}""")
def store_list() -> None:
    import time

    from ..store import first_line

    store = _store_or_fail()
    rows = []
    for entry in store.entries():
        try:
            first = first_line(store.root / entry.id)
        except OSError:
            continue  # pruned meanwhile
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.mtime))
        rows.append(f"{entry.id}  {entry.size:>13,}  {when}  {_preview(first)}\n")
    write("".join(rows).encode("utf-8", "surrogateescape"))


def _preview(line: bytes, width: int = 60) -> str:
    from ..clean import strip_ansi

    text = strip_ansi(line.decode("utf-8", "replace")).strip()
    text = "".join(char if char.isprintable() else " " for char in text)
    return text if len(text) <= width else text[:width - 1] + "…"


@store_app.command("prune", short_help="Remove stored outputs past the caps.", help=f"""\
Remove stored outputs past the age or size cap, oldest first.

\b
Without options the caps are HEADROOM_STORE_MAX_AGE_DAYS (default 14) and
HEADROOM_STORE_MAX_BYTES (default 1G); every clip that stores prunes to them too.

\b
Example:
  headroom store prune --max-bytes 0   empty the store

{_STORE_EXIT_HELP}""")
def store_prune(
    max_bytes: Optional[str] = typer.Option(None, "--max-bytes", metavar="SIZE",
                                            help="Size cap: bytes, or with K, M, G."),
    max_age_days: Optional[str] = typer.Option(None, "--max-age-days", metavar="DAYS",
                                               help="Age cap in days."),
) -> None:
    import time

    store = _store_or_fail()
    pruned = store.prune(_retention(max_bytes, max_age_days), time.time())
    removed = sum(entry.size for entry in pruned.removed)
    kept = sum(entry.size for entry in pruned.kept)
    write(f"removed {len(pruned.removed):,} stored outputs ({removed:,} bytes); "
           f"{len(pruned.kept):,} remain ({kept:,} bytes)\n".encode())


def run_app(args: List[str], command: Optional[List[str]], stdin: Optional[bytes]) -> None:
    if os.environ.get(COMPLETE_VAR):
        _enable_completion()
    try:
        app(args=args, prog_name="headroom", obj={"command": command, "stdin": stdin},
            standalone_mode=True)
    except BrokenConfig as err:
        _warn(str(err))
        sys.exit(ExitStatus.ERROR)
    except BrokenPipeError:
        quiet_broken_pipe()
    except KeyboardInterrupt:
        sys.exit(ExitStatus.SIGNAL_BASE + 2)


def _enable_completion() -> None:
    """Answer the $_HEADROOM_COMPLETE protocol (add_completion=False registers no shell).

    `_HEADROOM_COMPLETE=source_bash headroom` prints the bash script (also zsh, fish), as
    checked in under completions/; the scripts call `_HEADROOM_COMPLETE=complete_bash headroom`
    (with the words typed so far in the environment) on every TAB.
    """
    from typer._click.shell_completion import add_completion_class, get_completion_class
    from typer._completion_classes import completion_init

    from . import SUBCOMMANDS

    completion_init()
    for shell in ("bash", "zsh", "fish"):
        base = get_completion_class(shell)

        def get_completions(self, args, incomplete, _base=base):
            # After `--` comes the wrapped command and its arguments: none of ours. Nothing
            # offered lets the shell complete file names instead.
            if "--" in args and not (args and args[0] in SUBCOMMANDS):
                return []
            _complete_metavar_values(self.cli)
            return _base.get_completions(self, args, incomplete)

        body = {"get_completions": get_completions}
        if shell == "zsh":
            body["source_template"] = _ZSH_SCRIPT
        add_completion_class(type(f"Headroom{base.__name__}", (base,), body), shell)


# typer's zsh script starts with a blank line (compinit then skips the file: `#compdef` must be
# its first line) and, autoloaded from $fpath, completes nothing on the first TAB (it only
# registers itself). This one is typer's completer that also works as an autoloaded function.
_ZSH_SCRIPT = """\
#compdef %(prog_name)s

%(complete_func)s() {
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" %(autocomplete_var)s=complete_zsh %(prog_name)s)
}

if [[ $zsh_eval_context[-1] == loadautofunc || $funcstack[1] == _%(prog_name)s ]]; then
  # autoloaded from $fpath (share/zsh/site-functions/_%(prog_name)s): complete, every time
  %(complete_func)s "$@"
else
  # sourced: eval "$(%(autocomplete_var)s=source_zsh %(prog_name)s)"
  compdef %(complete_func)s %(prog_name)s
fi
"""


# --- agent integrations (headroom_cli/agents/): `headroom init AGENT`, `headroom hook AGENT` ---

@app.command("init", short_help="Hook headroom into a coding agent.", help=f"""\
Hook headroom into a coding agent, so every shell command's output is clipped.

AGENT is claude (Claude Code), codex (Codex CLI), gemini (Gemini CLI), opencode or pi;
pi-history (opt-in) makes pi send its history aged (see `headroom history`). The
agent's configuration is edited in place (a backup is kept as FILE.headroom-backup); running it
twice leaves one entry. Nothing is ever asked: it runs the same without a terminal.

\b
Examples:
  headroom init claude              ~/.claude/settings.json gets a PreToolUse hook
  headroom init gemini --dry-run    show the change, write nothing
  headroom init opencode --uninstall

{_exit_status_help("hooked in, or already hooked in (or out, with --uninstall)",
                   "the agent's configuration cannot be read or written")}""")
def init_agent(
    agent: str = typer.Argument(..., metavar="AGENT", autocompletion=_complete_agent,
                                help="claude, codex, gemini, opencode, pi or pi-history."),
    uninstall: bool = typer.Option(False, "--uninstall", help="Remove headroom's hook."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; write "
                                                          "nothing."),
    config_file: Optional[str] = typer.Option(None, "--config", metavar="FILE",
                                              help="Edit this file instead of the agent's "
                                                   "default (e.g. a project's settings)."),
) -> None:
    from ..agents.cli import init_command

    status = init_command(agent, uninstall, dry_run, config_file)
    if status:
        raise typer.Exit(status)


@app.command("hook", short_help="The entry point an agent's hook runs.", help="""\
The entry point an agent's hook runs: the agent's JSON on stdin, the reply on stdout.

Installed by `headroom init AGENT`. On any internal error the tool call or its output goes
through unchanged, and the exit status is 0. AGENT `filter` reads a command's raw output
instead (stdin, or --input FILE) and prints it clipped: the last step of a command that a hook
wrapped.

\b
Examples:
  echo '{"tool": "bash", "output": "…", "metadata": {"exit": 1}}' | headroom hook opencode
  make 2>&1 | headroom hook filter --exit-status 2 --max-bytes 10000

\b
Exit status:
  0    replied (or, on an internal error, left the call unchanged)
  2    usage error: bad option or argument (an unknown AGENT)
  N    filter --status-line: the wrapped command's own exit status
""")
def hook_agent(
    agent: str = typer.Argument(..., metavar="AGENT",
                                help="claude, codex, gemini, opencode, pi, pi-history, or "
                                     "filter."),
    # 6000 = agents.clip.DEFAULT_HOOK_BUDGET: under Claude Code's 30,000-byte output cap.
    budget: int = typer.Option(6000, "--budget", "-b", min=0, metavar="N",
                               help="Token budget for a tool's output; 0 = no clipping."),
    exit_status: Optional[int] = typer.Option(None, "--exit-status", metavar="N",
                                              help="filter: the command's exit status, for "
                                                   "the marker."),
    max_bytes: Optional[int] = typer.Option(None, "--max-bytes", min=1, metavar="N",
                                            help="filter: also keep the output under N bytes."),
    max_failure_bytes: Optional[int] = typer.Option(
        None, "--max-failure-bytes", min=1, metavar="N",
        help="filter: when the command failed, keep the output under N bytes."),
    tool: Optional[str] = typer.Option(None, "--tool", "-t", metavar="NAME",
                                       help="filter: the tool that produced the output "
                                            "(default Bash)."),
    input_file: Optional[str] = typer.Option(None, "--input", metavar="FILE",
                                             help="filter: read FILE (then remove it), not "
                                                  "stdin."),
    no_store: bool = typer.Option(False, "--no-store", help="Keep no copy of clipped output."),
    status_line: Optional[str] = typer.Option(
        None, "--status-line", metavar="TAG",
        help="filter: the input ends with a line 'TAG STATUS' (a piped wrapper's); exit "
             "with STATUS."),
) -> None:
    from ..agents.cli import hook_command

    status = hook_command(agent, budget, exit_status, max_bytes, tool, no_store,
                          max_failure_bytes, input_file, status_line)
    if status:
        raise typer.Exit(status)


# `config` and `stats` live in their own module; importing it registers them on the app.
from . import report  # noqa: E402,F401
from . import history  # noqa: E402,F401
