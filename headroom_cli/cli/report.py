"""`headroom config` and `headroom stats`: what headroom is set to, and what it has saved.

The only place rich is used: tables for a person at a terminal, never the clipped text.
"""

from __future__ import annotations

import json
import os
from typing import Optional

import typer

from ..sink import write
from ..status import ExitStatus
from .base import app, exit_status_help, fail, settings


@app.command("config", short_help="Print the effective settings and where each came from.",
             help=f"""\
Print every setting's effective value and where it came from: a HEADROOM_* environment
variable, the config file (with its line), or the built-in default. Flags given to a run
override all of these for that run.

\b
Example:
  headroom config

{exit_status_help("printed", "the config file is broken (its path and line are named)")}""")
def show_config(
    as_json: bool = typer.Option(False, "--json", help="One JSON object instead of a table."),
) -> None:
    from ..config import DEFAULTS, resolve

    resolved = settings()
    config = resolved.config
    rows = [(key, *resolve(key, config, os.environ)) for key in DEFAULTS]
    rows = [(k, resolved.store_dir or "off", source) if k == "store.path" else (k, v, source)
            for k, v, source in rows]
    for tool, values in sorted(config.tools.items()):
        rows += [(f"tools.{tool}.{field}", value, config.where(f"tools.{tool}.{field}"))
                 for field, value in sorted(values.items())]
    from ..family import toml_key

    rows += [(f"commands.{toml_key(family)}.budget", budget,
              config.where(f"commands.{family}.budget"))
             for family, budget in sorted(config.commands.items())]
    exists = os.path.exists(config.path)
    if as_json:
        write((json.dumps({"config_file": config.path, "config_file_exists": exists,
                           "settings": {k: {"value": v, "source": s} for k, v, s in rows}},
                          default=str) + "\n").encode())
        return
    lines = [f"config file: {config.path}{'' if exists else ' (none)'}"]
    width = max(len(key) for key, _, _ in rows)
    lines += [f"{key:<{width}}  {value!s:<24}  {source}" for key, value, source in rows]
    write(("\n".join(lines) + "\n").encode("utf-8", "surrogateescape"))


@app.command("stats", short_help="Tokens saved, per tool, kind, day, session and command.",
             help=f"""\
Totals from the local savings ledger ($XDG_STATE_HOME/headroom/ledger.sqlite3): runs, tokens
in and out, tokens saved, and how often agents came back for dropped output with
`headroom show`. Output that fitted its budget passed through unrecorded, except in a
session.

Per session and per command family: calls, clips, identical replies (dedups), re-runs within
[stats] rerun_window calls, retrievals per clip, and tokens saved once and over the session
(each removed token is re-sent with the history on every later turn: it counts once per
remaining turn). A family whose clips are retrieved more often than [stats] retrieval_share
gets the config lines that raise its budget.

\b
Examples:
  headroom stats --by week
  headroom stats --session 3f0c2d9e-… --json

{exit_status_help("printed", "the ledger cannot be read")}""")
def stats(
    by: str = typer.Option("day", "--by", metavar="[day|week]", help="Period of the last table."),
    session: Optional[str] = typer.Option(None, "--session", metavar="KEY",
                                          help="Only this session's calls, per command family."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object instead of tables."),
) -> None:
    import sqlite3

    from ..config import resolve
    from ..ledger import read_rows, summary
    from ..usage import report

    if by not in ("day", "week"):
        fail(f"unknown --by {by!r}: use day or week", ExitStatus.USAGE)
    resolved = settings()
    path = resolved.ledger
    if path is None:
        fail("the ledger is off (HEADROOM_LEDGER=off or `ledger = false`)", ExitStatus.ERROR)
    window = resolve("stats.rerun_window", resolved.config, os.environ)[0]
    share = resolve("stats.retrieval_share", resolved.config, os.environ)[0]
    try:
        runs, calls = read_rows(path)
        figures = {} if session else summary(path, by)
    except sqlite3.Error as err:
        fail(f"cannot read the ledger {path}: {err}", ExitStatus.ERROR)
    figures.update(report(runs, calls, window=window, share=share, session=session))
    if as_json:
        write((json.dumps(figures) + "\n").encode())
        return
    _print_tables(figures, by, resolved.config.path)


_RUN_COLUMNS = ("runs", "clipped", "input_tokens", "output_tokens", "saved_tokens", "shows")
_CALL_COLUMNS = ("calls", "clipped", "identical", "reruns", "retrievals_per_clip",
                 "saved_tokens", "cumulative_saved_tokens")
_SESSIONS_SHOWN = 10  # the most recent sessions a table lists (--json: all of them)


def _print_tables(figures: dict, by: str, config_path: str) -> None:
    from rich.console import Console

    console = Console()
    if "session" in figures:
        tables = [(f"session {figures['session']}", {"all": figures["totals"]}, _CALL_COLUMNS)]
    else:
        sessions = figures["by_session"]
        recent = dict(list(sessions.items())[-_SESSIONS_SHOWN:]) if sessions else {}
        more = f" ({len(recent)} of {len(sessions)})" if len(sessions) > len(recent) else ""
        tables = [("total", {"all": figures["totals"]}, _RUN_COLUMNS),
                  ("per tool", figures["by_tool"], _RUN_COLUMNS),
                  ("per kind", figures["by_kind"], _RUN_COLUMNS),
                  (f"per {by}", figures["by_period"], _RUN_COLUMNS),
                  (f"per session{more}", recent, _CALL_COLUMNS)]
    tables.append(("per command family", figures["by_family"], _CALL_COLUMNS))
    for title, rows, columns in tables:
        if rows:
            console.print(_table(title, rows, columns))
    for found in figures["suggestions"]:
        console.print(
            f"{found['family']}: {found['retrievals']:,} retrievals for {found['clips']:,} "
            f"clips ({found['share']:.0%}): its output may be clipped too hard; to raise its "
            f"budget ({found['budget']:,}), add to {config_path}:", markup=False,
            highlight=False)
        console.print("    " + found["config"].replace("\n", "\n    "), markup=False,
                      highlight=False)


_LABELS = {"input_tokens": "tokens in", "output_tokens": "tokens out", "saved_tokens": "saved",
           "identical": "dedups", "retrievals_per_clip": "shows/clip",
           "cumulative_saved_tokens": "saved ×turns"}


def _table(title: str, rows: dict, columns: tuple[str, ...]):
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column("")
    for column in columns:
        table.add_column(_LABELS.get(column, column), justify="right")
    for name, row in rows.items():
        table.add_row(name, *(f"{row[column]:,}" if isinstance(row[column], int)
                              else f"{row[column]:.2f}" for column in columns))
    return table
