"""The typer application, assembled: each command module registers its commands on `app`
(cli/base.py) when imported here, in the order `headroom --help` lists them.

    filter.py       headroom [OPTIONS] [-- CMD …]     the filter (the root command)
    store.py        headroom show, headroom store …   what a marker omitted; the store
    agents.py       headroom init, headroom hook      the agent integrations
    report.py       headroom config, headroom stats   settings and savings
    history.py      headroom history                  ageing a conversation's tool results
    audit.py        headroom audit                    what past sessions' tool outputs cost
    doctor.py       headroom doctor                   is headroom working on this machine
    completion.py   the $_HEADROOM_COMPLETE protocol and the completion callbacks
"""

from __future__ import annotations

import os
import sys
from typing import List, Optional

from ..sink import quiet_broken_pipe
from ..status import ExitStatus
# Imported in the order --help lists the commands (typer lists groups, `store`, last).
from . import filter, store, agents, report, history, audit, doctor  # noqa: F401,I001,E501
from .base import app
from .options import COMPLETE_VAR

__all__ = ["app", "run_app"]

# A module imported before this one (by a test, a library or another command) registered its
# commands first: --help lists them in this order all the same.
_LISTED = [module.__name__ for module in (filter, store, agents, report, history, audit, doctor)]
app.registered_commands.sort(
    key=lambda info: _LISTED.index(info.callback.__module__)
    if info.callback.__module__ in _LISTED else len(_LISTED))


def run_app(args: List[str], command: Optional[List[str]], stdin: Optional[bytes],
            config=None) -> None:
    """Run the app on `args`: `command` after `--`, `stdin` the bytes the pass-through already
    read, `config` the config file it already parsed (None: read it when needed)."""
    if os.environ.get(COMPLETE_VAR):
        from .completion import enable_completion

        enable_completion()
    try:
        app(args=args, prog_name="headroom",
            obj={"command": command, "stdin": stdin, "config": config}, standalone_mode=True)
    except BrokenPipeError:
        quiet_broken_pipe()
    except KeyboardInterrupt:
        sys.exit(ExitStatus.SIGNAL_BASE + 2)
