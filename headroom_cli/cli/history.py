"""`headroom history`: age a conversation's old tool results, or show what ageing saves.

A thin edge over headroom_cli.history (pure) and headroom_cli.conversation (formats): read the
file, keep the originals of aged results in the store, write the view in the format read.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Optional

import typer

from ..status import ExitStatus
from ..sink import write
from .base import app, configured_store, exit_status_help


@app.command("history", short_help="Age a conversation's old tool results; --stats: the cost.",
             help=f"""\
Age a conversation's old tool results: the last K stay verbatim, each older one is cut to a
small budget by the planners of the tool that produced it, with a marker naming its stored
copy (`headroom show ID`). Prints the conversation in the format read: a JSON array of
messages (or an object with "messages"), JSON Lines, a Claude Code session file
(~/.claude/projects/*/*.jsonl) or a pi session file (~/.pi/agent/sessions/*/*.jsonl);
OpenAI, Anthropic and pi messages. Each message changes at most once as a conversation
grows, so prompt caches keep hitting.

--stats replays the conversation request by request, as a harness sends it, and prints the
input tokens with and without ageing, and how many prompt positions changed (the cache cost).

\b
Examples:
  headroom history chat.json > aged.json
  headroom history --stats ~/.claude/projects/-home-me-app/3f2a….jsonl
  headroom history --stats --json --keep-recent 5 session.jsonl

{exit_status_help("done", "unreadable input, or not a conversation")}""")
def history(
    file: str = typer.Argument("-", metavar="FILE", help="The conversation; - for stdin."),
    keep_recent: int = typer.Option(3, "--keep-recent", metavar="K", min=0,
                                    help="Tool results kept verbatim, the most recent."),
    budget: int = typer.Option(300, "--budget", "-b", metavar="N", min=1,
                               help="Token budget of each aged result."),
    encoding: str = typer.Option("cl100k_base", "--encoding", "-e",
                                 help="Tokenizer that counts (cl100k_base, o200k_base, estimate)."),
    stats: bool = typer.Option(False, "--stats",
                               help="Print tokens per request with and without ageing; "
                                    "write and store nothing."),
    as_json: bool = typer.Option(False, "--json", help="With --stats: one JSON object."),
    output: Optional[str] = typer.Option(None, "--output", "-o", metavar="FILE",
                                         help="Write the aged conversation to FILE."),
    no_store: bool = typer.Option(False, "--no-store",
                                  help="Keep no copy of aged results; markers then say how to "
                                       "re-run the tool instead."),
) -> None:
    from ..conversation import BadConversation, read

    if as_json and not stats:
        _fail("--json goes with --stats", ExitStatus.USAGE)
    counter = _counter(encoding)
    try:
        conversation = read(_read(file))
    except BadConversation as err:
        _fail(f"{_name(file)}: {err}", ExitStatus.ERROR)
    if stats:
        _print_stats(conversation.messages, keep_recent, budget, counter, as_json)
        return
    _age(conversation, keep_recent, budget, counter, output, no_store)


def _age(conversation, keep_recent: int, budget: int, counter, output: Optional[str],
         no_store: bool) -> None:
    from ..conversation import write as render
    from ..history import age_history, apply_trims

    store, retention = (None, None) if no_store else configured_store()
    # The model's own trims first (a pi session with `headroom init pi-history` has them),
    # so the view is the one the extension sent.
    trimmed = apply_trims(conversation.messages, counter=counter, name_copies=store is not None)
    aged = age_history(trimmed.messages, keep_recent=keep_recent, budget=budget,
                       counter=counter, name_copies=store is not None)
    try:
        for item in (*trimmed.stored, *aged.stored):
            store.put(item.id, item.data, retention, time.time())
    except OSError as err:
        _fail(f"cannot keep the aged results' originals in {store.root} "
              f"({err.strerror or err}); nothing written (--no-store ages without them)",
              ExitStatus.ERROR)
    data = render(conversation, aged.messages)
    if output is None:
        write(data)
        return
    try:
        with open(output, "wb") as out:
            out.write(data)
    except OSError as err:
        _fail(f"cannot write {output}: {err.strerror or err}", ExitStatus.ERROR)


def _print_stats(messages, keep_recent: int, budget: int, counter, as_json: bool) -> None:
    from ..history import replay

    result = replay(messages, keep_recent=keep_recent, budget=budget, counter=counter)
    turns = result.turns
    totals = {figure: result.total(figure) for figure in
              ("baseline_tokens", "aged_tokens", "changed_positions", "recached_tokens")}
    if as_json:
        document = {"keep_recent": keep_recent, "budget": budget, "encoding": counter.name,
                    "requests": len(turns), "tool_results": result.aged.results,
                    "aged_results": result.aged.aged,
                    "turns": [turn.__dict__ for turn in turns], "total": totals}
        write((json.dumps(document, indent=2) + "\n").encode())
        return
    lines = [f"{'request':>7} {'messages':>8} {'baseline':>10} {'aged':>10} {'changed':>7} "
             f"{'re-read':>9}"]
    for number, turn in enumerate(turns, 1):
        lines.append(f"{number:>7} {turn.messages:>8} {turn.baseline_tokens:>10,} "
                     f"{turn.aged_tokens:>10,} {turn.changed_positions:>7} "
                     f"{turn.recached_tokens:>9,}")
    base, aged = totals["baseline_tokens"], totals["aged_tokens"]
    saved = f"{1 - aged / base:.0%} fewer" if base else "nothing to age"
    lines.append(f"{'total':>7} {'':>8} {base:>10,} {aged:>10,} "
                 f"{totals['changed_positions']:>7} {totals['recached_tokens']:>9,}")
    lines.append("")
    lines.append(f"{len(turns):,} requests, {result.aged.aged} of {result.aged.results} tool "
                 f"results aged (keep {keep_recent}, budget {budget}): input tokens "
                 f"{base:,} without ageing, {aged:,} with ({saved}). Cache cost: "
                 f"{totals['changed_positions']} prompt positions changed, "
                 f"{totals['recached_tokens']:,} tokens re-read after them.")
    write(("\n".join(lines) + "\n").encode())


def _read(file: str) -> bytes:
    try:
        if file == "-":
            return sys.stdin.buffer.read()
        with open(file, "rb") as source:
            return source.read()
    except OSError as err:
        _fail(f"cannot read {file}: {err.strerror or err}", ExitStatus.ERROR)


def _name(file: str) -> str:
    return "stdin" if file == "-" else file


def _counter(encoding: str):
    from ..api import counter_for
    from ..tokens import ENCODINGS

    if encoding not in ENCODINGS:
        _fail(f"unknown encoding {encoding!r} (one of {', '.join(ENCODINGS)})", ExitStatus.USAGE)
    return counter_for(encoding)


def _fail(message: str, status: ExitStatus):
    print(f"headroom: {message}", file=sys.stderr)
    raise typer.Exit(int(status))
