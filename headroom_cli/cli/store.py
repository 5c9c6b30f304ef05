"""`headroom show ID` and `headroom store path|list|prune`: getting back what a marker omitted,
and looking after the store. The reading itself is retrieve.py's and store.py's; this is the
command-line edge over them."""

from __future__ import annotations

import os
from typing import Optional

import typer

from ..settings import DEFAULT_BUDGET, DEFAULT_ENCODING
from ..sink import warn, write
from ..status import ExitStatus
from ..values import replace
from .base import Encoding, app, exit_status_help, fail, settings, store_or_fail
from .completion import complete_id


@app.command(short_help="Print a stored output, or part of it.", help=f"""\
Print a stored output, or part of it, exactly as the command wrote it.

ID is the one a marker names. With no option, prints the whole output.
Line and byte numbers are the output's own. A range past the end prints what
exists of it and says so on stderr (exit 0, as sed does). A partial copy (an
output larger than half the store's size cap) prints what it kept and names
on stderr the bytes and lines it did not keep.

\b
Examples:
  headroom show ID --lines 301:4870    lines 301 to 4,870 (1-based, inclusive)
  headroom show ID --grep 'error|FAIL' matching lines, numbered (clipped to --budget)
  headroom show ID --head 50           the first 50 lines (--tail: the last)
  headroom show ID --bytes 1:4096      bytes 1 to 4,096 (for binary output)

{exit_status_help("printed", "unknown, pruned or damaged id, or the store is off")}""")
def show(
    item_id: str = typer.Argument(..., metavar="ID", autocompletion=complete_id,
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
    budget: int = typer.Option(DEFAULT_BUDGET, "--budget", "-b", envvar="HEADROOM_BUDGET", min=0,
                               metavar="N",
                               help="Token budget for --grep's output; 0 = no clipping."),
    encoding: Encoding = typer.Option(DEFAULT_ENCODING, "--encoding", "-e",
                                      envvar="HEADROOM_ENCODING",
                                      help="Tokenizer that counts the budget."),
) -> None:
    chosen = [value for value in (lines, grep, head, tail, byte_span) if value is not None]
    if len(chosen) > 1:
        fail("use one of --lines, --grep, --head, --tail, --bytes", ExitStatus.USAGE)
    from .. import retrieve

    try:
        line_span, byte_range = (None if span is None else retrieve.parse_range(span)
                                 for span in (lines, byte_span))
    except ValueError as err:
        fail(str(err), ExitStatus.USAGE)
    resolved = settings(encoding=encoding.value)
    stored = _stored(resolved, item_id)
    from ..run import record_event

    record_event(resolved, warn, "show", store_id=stored.id)
    with stored:
        if grep is not None:
            shown = _show_grep(resolved, stored, grep, ignore_case, budget)
        else:
            shown = retrieve.select(stored, write, line_span, byte_range, head, tail)
    if shown.lost is not None:
        from ..render import partial_copy

        warn(f"{stored.id}: {partial_copy(shown.lost)}; what was kept is printed")
    if shown.past_end is not None:
        warn(shown.past_end)


def _stored(resolved, item_id: str):
    """The stored copy `item_id`, open and checked (store.Stored), or a one-line failure."""
    from ..store import Damaged, NotStored, is_id

    store = store_or_fail(resolved)
    wanted = item_id.strip().lower()
    if not is_id(wanted):
        fail(f"{item_id!r} is not a stored output's id (12 hex digits, as a marker prints "
             "them)", ExitStatus.ERROR)
    try:
        return store.open(wanted)
    except NotStored:
        fail(f"no stored output {wanted}: it may have been pruned (see `headroom store "
             "list`); re-run the command to see its output again", ExitStatus.ERROR)
    except Damaged:
        fail(f"stored output {wanted} is damaged (cut short, or edited); re-run the command "
             "to see its output again", ExitStatus.ERROR)
    except OSError as err:
        fail(f"cannot read stored output {wanted}: {err.strerror or err}", ExitStatus.ERROR)


def _show_grep(resolved, stored, pattern: str, ignore_case: bool, budget: int):
    import re

    from .. import retrieve
    from ..run import ClipOptions, Run

    try:
        compiled = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    except re.error as err:
        fail(f"bad --grep pattern {pattern!r}: {err}", ExitStatus.USAGE)
    # Matches of a common word in a huge output are themselves huge: taken in like any
    # output (memory bounded) and clipped to the budget; not stored again, no digest.
    quiet = replace(resolved, store_dir=None, digest=None)
    clip_run = Run(quiet, ClipOptions(tool=quiet.tool("Grep"), budget=budget), warn)
    intake = clip_run.intake()
    shown, found = retrieve.grep(stored, compiled, intake.feed)
    if not found:
        warn(f"no line matches {pattern!r}")
        return shown
    write(clip_run.finish(intake).output())
    return shown


_STORE_EXIT_HELP = exit_status_help("done", "the store is off (HEADROOM_STORE=off)")

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
    write(f"{store_or_fail(settings()).root}\n".encode("utf-8", "surrogateescape"))


@store_app.command("list", short_help="List stored outputs, oldest first.", help=f"""\
List stored outputs, oldest first: id, bytes, when, first line. A copy the size cap cut
(head and tail kept) says "(partial: N bytes kept)" before its first line.

\b
Example:
  headroom store list | tail -3        the three newest stored outputs

{_STORE_EXIT_HELP}""")
def store_list() -> None:
    import time

    from ..store import first_line

    from ..store import Damaged

    store = store_or_fail(settings())
    rows = []
    for entry in store.entries():
        try:
            first = first_line(os.path.join(store.root, entry.id))
            layout = store.layout(entry.id)
        except (OSError, Damaged):
            continue  # pruned meanwhile
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.mtime))
        # A partial copy: the output's own size, and how much of it the store kept.
        size = layout.total_bytes if layout else entry.size
        kept = f"(partial: {layout.stored_bytes:,} bytes kept) " if layout else ""
        rows.append(f"{entry.id}  {size:>13,}  {when}  {kept}{_preview(first)}\n")
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

    resolved = settings()
    store = store_or_fail(resolved)
    pruned = store.prune(_caps(resolved, max_bytes, max_age_days), time.time())
    removed = sum(entry.size for entry in pruned.removed)
    kept = sum(entry.size for entry in pruned.kept)
    write(f"removed {len(pruned.removed):,} stored outputs ({removed:,} bytes); "
           f"{len(pruned.kept):,} remain ({kept:,} bytes)\n".encode())



def _caps(resolved, max_bytes: Optional[str], max_age_days: Optional[str]):
    """The configured caps, with the options given in their place (a bad one: a usage error)."""
    from ..config import parse_days, parse_size

    caps = {}
    for field, option, parse in (("max_bytes", max_bytes, parse_size),
                                 ("max_age_days", max_age_days, parse_days)):
        if option is not None:
            try:
                caps[field] = parse(option)
            except ValueError:
                fail(f"bad --{field.replace('_', '-')} value: {option!r}", ExitStatus.USAGE)
    return replace(resolved, **caps).retention()
