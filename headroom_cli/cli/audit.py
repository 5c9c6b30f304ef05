"""`headroom audit`: what the tool outputs of the sessions you already ran cost, and what
headroom would have kept. Read-only and offline: it reads the agents' own transcripts (each
agent's module finds and reads its own: agents/transcripts.py) and writes only to stdout.

The tokenizer, the planners and rich load inside the command: it is never on the filter's path.
"""

from __future__ import annotations

import os
import time
from typing import Optional

import typer

from ..sink import write
from ..status import ExitStatus
from .base import app, exit_status_help, fail, settings

_PERIOD_UNITS = {"h": 3600, "d": 86400, "w": 7 * 86400}


@app.command("audit", short_help="What tool outputs cost in the sessions you already ran.",
             help=f"""\
Read the transcripts your agents already keep (Claude Code with its subagents, Codex CLI,
Gemini CLI, opencode, Kilo CLI, pi) and report, for every tool output: its tokens (the tokenizer, not
characters ÷ 4), how many later requests re-sent it, whether the agent already cut it or
headroom already clipped it, and its tokens after headroom's planners at the budget in force
(the hooks' budget, or a [commands.FAMILY] budget of the config file; --budget overrides).
Per session, per tool and per command family: tokens in, after headroom, re-sent, and the
share already handled. Reads only; sends nothing anywhere.

\b
Examples:
  headroom audit                (this directory's sessions, the last 30 days)
  headroom audit --all --since 7d
  headroom audit --json > audit.json

{exit_status_help("printed", "a transcript cannot be read")}""")
def audit_command(
    all_projects: bool = typer.Option(False, "--all",
                                      help="Every project's sessions, not only this directory's."),
    since: str = typer.Option("30d", "--since", metavar="PERIOD",
                              help="Sessions written in the last PERIOD: 12h, 30d, 2w; all."),
    agent: Optional[str] = typer.Option(None, "--agent", metavar="AGENT",
                                        help="Only this agent's sessions "
                                             "(claude, codex, gemini, kilo, opencode, pi)."),
    budget: Optional[int] = typer.Option(None, "--budget", "-b", metavar="N", min=1,
                                         help="Clip every output to N tokens (default: the "
                                              "budget in force for it)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object instead of tables."),
) -> None:
    from ..agents import transcripts

    cutoff = _cutoff(since)
    if agent is not None and agent not in transcripts.READERS:
        fail(f"unknown --agent {agent!r}: use one of {', '.join(transcripts.READERS)}",
             ExitStatus.USAGE)
    resolved = settings(budget=budget)
    project = None if all_projects else os.getcwd()
    try:
        found = [transcript for transcript in transcripts.find(os.environ, project, agent)
                 if cutoff is None or transcript.modified >= cutoff]
    except OSError as err:  # a transcript removed or unreadable while the folders were listed
        fail(f"cannot read {err.filename or 'a transcript'}: {err.strerror or err}",
             ExitStatus.ERROR)
    document = _audit(found, resolved, budget)
    if as_json:
        from ..audit import dumps

        write(dumps(document).encode("utf-8", "surrogateescape"))
        return
    _print(document, project, since)


def _cutoff(since: str) -> float | None:
    """The earliest mtime --since keeps (None: all). The clock decides only what is read."""
    text = since.strip().lower()
    if text == "all":
        return None
    number, unit = text[:-1], text[-1:]
    if unit not in _PERIOD_UNITS or not (number.isascii() and number.isdigit()):
        fail(f"bad --since {since!r}: a number and h, d or w (12h, 30d, 2w), or all",
             ExitStatus.USAGE)
    return time.time() - int(number) * _PERIOD_UNITS[unit]


def _audit(found, resolved, budget: Optional[int]):
    from ..api import counter_for
    from ..audit import audit, report
    from ..defaults import DEFAULT_HOOK_BUDGET

    counter = counter_for(resolved.encoding)
    commands = resolved.config.commands

    def budget_for(family: str | None) -> int:  # as a hook's clip decides it (agents/clip.py)
        if budget is not None:
            return budget
        return commands.get(family, DEFAULT_HOOK_BUDGET) if family else DEFAULT_HOOK_BUDGET

    sessions = []
    for transcript in found:
        try:
            sessions.append(audit(transcript, counter=counter, budget_for=budget_for))
        except OSError as err:
            fail(f"cannot read {transcript.path}: {err.strerror or err}", ExitStatus.ERROR)
    return report(sessions, encoding=resolved.encoding, budget=budget)


_COLUMNS = (("outputs", "outputs"), ("tokens", "tokens in"), ("after", "after headroom"),
            ("resent", "re-sent"), ("resent_after", "re-sent after"), ("handled", "handled"))
_SESSIONS_SHOWN = 20  # the largest sessions the table lists (--json: all of them)
_GROUPS_SHOWN = 15


def _print(document, project: Optional[str], since: str) -> None:
    from rich.console import Console

    from ..render import counted

    console = Console(highlight=False)
    where = f"in {project}" if project else "in every project"
    if not document.sessions:
        console.print(f"no agent sessions {where} since {since} (--all: every project; "
                      f"--since all: any age)", markup=False)
        return
    sessions = sorted(document.sessions, key=lambda s: (-(s.figures.tokens + s.figures.resent),
                                                        s.agent, s.session))
    shown = {f"{s.agent} {s.session}": s.figures for s in sessions[:_SESSIONS_SHOWN]}
    more = f" (the {len(shown)} largest of {len(sessions)})" if len(sessions) > len(shown) else ""
    for title, rows in ((f"per session{more}", shown),
                        ("per tool", dict(list(document.by("by_tool").items())[:_GROUPS_SHOWN])),
                        ("per command family",
                         dict(list(document.by("by_family").items())[:_GROUPS_SHOWN])),
                        ("total", {"all": document.totals})):
        console.print(_table(title, rows))
    totals = document.totals
    budget = f"{document.budget:,} tokens" if document.budget else "the budget in force"
    console.print(
        f"{counted(totals.outputs, 'tool output')} in {counted(len(sessions), 'session')} "
        f"{where}: "
        f"{totals.tokens + totals.resent:,} tokens with their re-sends; clipped by headroom at "
        f"{budget}: {totals.after + totals.resent_after:,} ({totals.saved:,} fewer). "
        f"{totals.handled_share:.0%} of the outputs were already cut by the agent or headroom.",
        markup=False)


def _table(title: str, rows: dict):
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column("", no_wrap=True, overflow="ellipsis", max_width=40)
    for _, label in _COLUMNS:
        table.add_column(label, justify="right")
    for name, figures in rows.items():
        cells = [f"{getattr(figures, key):,}" for key, _ in _COLUMNS[:-1]]
        table.add_row(name, *cells, f"{figures.handled_share:.0%}")
    return table
