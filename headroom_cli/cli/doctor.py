"""`headroom doctor`: is headroom working on this machine? One line per check, with its fix;
the checks live in headroom_cli/doctor.py (and agents/doctor.py, one line per agent)."""

from __future__ import annotations

import os

import typer

from ..sink import write
from ..status import ExitStatus
from .base import app, exit_status_help


@app.command("doctor", short_help="Check that headroom works here: hooks, PATH, store, config.",
             help=f"""\
Check that headroom works on this machine, one line per check, each with its fix: the
`headroom` first on PATH is this one (another program of that name, such as PyPI's
headroom-ai, would answer the markers' `headroom show`); for each agent found here (its
program on PATH, or its configuration folder), its hook is installed and runs this
headroom, headroom is on the PATH it gives its shell, and the last clip the ledger recorded
from its sessions; then the store (writable, its size against its cap), the ledger, the
tokenizer (offline) and the config file (valid). Changes nothing.

\b
Example:
  headroom doctor

{exit_status_help("every check passed", "a check failed: its line says how to fix it")}""")
def doctor() -> None:
    from ..agents.clip import headroom_argv
    from ..doctor import render, run

    checks = run(os.environ, headroom_argv())
    write(render(checks).encode("utf-8", "surrogateescape"))
    if any(check.ok is False for check in checks):
        raise typer.Exit(int(ExitStatus.ERROR))

