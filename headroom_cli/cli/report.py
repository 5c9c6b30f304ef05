"""`headroom config` and `headroom stats`: what headroom is set to, and what it has saved.

The only place rich is used: tables for a person at a terminal, never the clipped text.
"""

from __future__ import annotations

import json
import os

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


@app.command("stats", short_help="Tokens saved, per tool, per kind and per day.", help=f"""\
Totals from the local savings ledger ($XDG_STATE_HOME/headroom/ledger.sqlite3): runs, tokens
in and out, tokens saved, and how often agents came back for dropped output with
`headroom show`. Output that fitted its budget passed through unrecorded.

\b
Example:
  headroom stats --by week

{exit_status_help("printed", "the ledger cannot be read")}""")
def stats(
    by: str = typer.Option("day", "--by", metavar="[day|week]", help="Period of the last table."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object instead of tables."),
) -> None:
    import sqlite3

    from ..ledger import summary

    if by not in ("day", "week"):
        fail(f"unknown --by {by!r}: use day or week", ExitStatus.USAGE)
    path = settings().ledger
    if path is None:
        fail("the ledger is off (HEADROOM_LEDGER=off or `ledger = false`)", ExitStatus.ERROR)
    try:
        figures = summary(path, by)
    except sqlite3.Error as err:
        fail(f"cannot read the ledger {path}: {err}", ExitStatus.ERROR)
    if as_json:
        write((json.dumps(figures) + "\n").encode())
        return
    _print_tables(figures, by)


def _print_tables(figures: dict, by: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    columns = ("runs", "clipped", "input_tokens", "output_tokens", "saved_tokens", "shows")
    for title, rows in (("total", {"all": figures["totals"]}), ("per tool", figures["by_tool"]),
                        ("per kind", figures["by_kind"]), (f"per {by}", figures["by_period"])):
        table = Table(title=title, title_justify="left")
        table.add_column("")
        for column in columns:
            table.add_column(column.replace("_", " "), justify="right")
        for name, row in rows.items():
            table.add_row(name, *(f"{row[column]:,}" for column in columns))
        console.print(table)
