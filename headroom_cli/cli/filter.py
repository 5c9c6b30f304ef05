"""The filter's options and help, `headroom [OPTIONS] [-- CMD …]`: the app's root command.

Its body is cli/filtering.py, which main() also calls directly when the arguments are only
plain options (no typer then). The options are declared with the names in cli/options.py, the
table main() reads. Output that fits never gets here: main() passes it through first.
"""

from __future__ import annotations

from typing import Optional

import typer

from .. import __version__
from ..defaults import KINDS, SESSION_VAR
from ..settings import DEFAULT_BUDGET, DEFAULT_ENCODING, DEFAULT_FORMAT, FORMATS
from .base import Encoding, app
from .completion import complete_format, complete_kind, complete_tool
from .options import NAMES


def _version(value: bool) -> None:
    if value:
        print(f"headroom {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def run(
    ctx: typer.Context,
    budget: int = typer.Option(DEFAULT_BUDGET, *NAMES["budget"], envvar="HEADROOM_BUDGET", min=0,
                               metavar="N", help="Token budget for the output; 0 = no clipping."),
    tool: Optional[str] = typer.Option(
        None, *NAMES["tool"], envvar="HEADROOM_TOOL", metavar="NAME",
        autocompletion=complete_tool,
        help="Agent tool that produced the output: Bash, Read, Grep, Glob, WebFetch (or an "
             "alias). Default: Bash when wrapping a command, else generic."),
    kind: str = typer.Option("auto", *NAMES["kind"], metavar="SHAPE",
                             autocompletion=complete_kind,
                             help=f"Shape: auto (sniff it), or a planner's name: "
                                  f"{', '.join(KINDS)}."),
    encoding: Encoding = typer.Option(DEFAULT_ENCODING, *NAMES["encoding"],
                                      envvar="HEADROOM_ENCODING",
                                      help="Tokenizer that counts the budget."),
    fmt: str = typer.Option(DEFAULT_FORMAT, *NAMES["fmt"], envvar="HEADROOM_FORMAT",
                            metavar=f"[{'|'.join(FORMATS)}]", autocompletion=complete_format,
                            help="text: the output itself; markdown: a header line and the "
                                 "output fenced (CI summaries); json: the output and its "
                                 "figures, for harnesses."),
    no_store: bool = typer.Option(False, *NAMES["no_store"],
                                  help="Keep no copy of clipped output (also HEADROOM_STORE=off); "
                                       "markers then say how to re-run instead."),
    live: bool = typer.Option(False, *NAMES["live"],
                              help="Print the first lines as they arrive (for a person or a CI "
                                   "log watching a long command), then the plan of the rest "
                                   "when the input ends."),
    no_digest: bool = typer.Option(False, *NAMES["no_digest"],
                                   help="Ask no model for a digest of the omitted part, even "
                                        "when digest_command or digest_url is configured."),
    session: Optional[str] = typer.Option(
        None, *NAMES["session"], envvar=SESSION_VAR, metavar="KEY",
        help="Remember what this session was shown: a re-run's log opens with what changed "
             "since the last run of the command, and an output already delivered becomes one "
             "line. Agent hooks pass their own session."),
    version: bool = typer.Option(False, *NAMES["version"], callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    from .filtering import Flags, run_filter

    obj, given = ctx.obj or {}, _given(ctx)
    status = run_filter(
        Flags(budget=budget if "budget" in given else None, tool=tool, kind=kind,
              encoding=encoding.value if "encoding" in given else None,
              fmt=fmt if "fmt" in given else None, no_store=no_store, live=live,
              no_digest=no_digest, session=session),
        obj.get("command"), obj.get("stdin"), obj.get("config"))
    if status:
        raise typer.Exit(status)


def _given(ctx: typer.Context) -> set[str]:
    """The parameters given on the command line (flags beat everything; the environment and
    the config file are Settings' to weigh)."""
    from typer._click.core import ParameterSource

    return {name for name in ("budget", "encoding", "fmt")
            if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE}
