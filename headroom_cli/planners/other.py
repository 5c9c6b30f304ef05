"""other: the output no other shape recognises. Lines of a repeating form are summarised by
template (templates.py) when they have one; else head and tail: structure sits at the head,
conclusions at the tail, and the middle goes."""

from __future__ import annotations

from functools import partial

from ..numbered import numbered
from ..plan import Gap, Keep, Lines, Plan, gap
from ..tokens import Counter
from ..tools import Tool, lookup
from . import certificates, config, manual, psql, rst, sql, symbols, templates
from .costs import MAX_LINE_CHARS, beginning_pays

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

# A cut moves back to a line boundary when one lies within this share of the kept part.
_SNAP_SHARE = 0.25


def looks_like(sample: list[str], tool: Tool) -> bool:
    return True  # the fallback for every output no other shape recognises


def looks_like_a_config(sample: list[str], tool: Tool) -> bool:
    """A configuration file: asked before YAML and a log (postgresql.conf's settings name
    `log_min_error_statement`, its comments errors and warnings)."""
    return config.looks_like(sample, tool)


def looks_like_a_sql_script(sample: list[str], tool: Tool) -> bool:
    """SQL definitions (a schema's dump, a migration): asked before code, whose C patterns
    take `CREATE FUNCTION f(x)` for a function."""
    return sql.looks_like(sample, tool)


def looks_like_a_symbol_table(sample: list[str], tool: Tool) -> bool:
    """nm's or readelf's symbols, objdump's disassembly: asked before a history (nm's
    addresses read as commit hashes) and a listing."""
    return symbols.looks_like(sample, tool)


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool,
         binary: bool = False) -> Plan:
    found = None if binary else _structured(text, lines, budget, counter, tool)
    return found or head_and_tail(text, lines, budget, counter, tool, binary)


def _structured(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    """A format whose structure says what a reader looks for, by its outline: a document laid
    out by indentation (a man page, pydoc), certificates printed as text, psql's descriptions
    of relations, SQL definitions (a schema's dump), reStructuredText, symbol tables and
    disassembly, a configuration file; else lines grouped by template."""
    sample = [lines.get(i) for i in range(min(len(lines), manual.JUDGED_LINES))]
    for planner in (manual, certificates, psql, sql, rst, symbols, config):
        found = (planner.looks_like(sample, tool)
                 and planner.plan(text, lines, budget, counter, tool))
        if found:
            return found
    if numbered(sample):
        # a file read with its line numbers (`cat -n`, `nl`, SWE-agent's window) whose form
        # nothing recognises: read as a Read is, from its head, not cut into templates
        return head_and_tail(text, lines, budget, counter, lookup("Read"))
    return templates.plan(text, lines, budget, counter, tool)


def head_and_tail(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool,
                  binary: bool = False) -> Plan:
    """The plain clip: the rung under every other, and the plan of an output streamed past
    memory (its middle was never read, so it has no templates to count)."""
    head_end = counter.prefix_chars(text, int(budget * tool.head_share))
    tail_start = len(text) - counter.suffix_chars(text, int(budget * tool.tail_share))
    if not binary:
        head_end, tail_start = _snap_to_lines(text, head_end, tail_start)
        if head_end < tail_start:
            head_end, tail_start = _short_of_long_lines(text, lines, head_end, tail_start, counter)
    if head_end >= tail_start:
        return Plan("other", (Keep(0, len(text)),), len(lines), 0, binary=binary)
    first_line = lines.line_of(head_end)
    last_line = lines.line_of(tail_start - 1)
    items = (Keep(0, head_end),
             Gap(head_end, tail_start, first_line + 1, last_line + 1),
             Keep(tail_start, len(text)))
    return Plan("other", tuple(i for i in items if not isinstance(i, Keep) or i.end > i.start),
                len(lines), last_line - first_line + 1, binary=binary, regap=partial(gap, lines))


def _short_of_long_lines(text: str, lines: Lines, head_end: int, tail_start: int,
                         counter: Counter) -> tuple[int, int]:
    """The head ends before its first long line and the tail starts after its last one (where
    a beginning pays, costs.beginning_pays): spend.py then shows the beginnings of many long
    lines before a few of them whole. Only whole lines of the head and tail are looked at."""
    for index in range(lines.line_of(head_end - 1) if head_end else 0):
        row = text[lines.start(index):lines.end(index)]
        if len(row) > MAX_LINE_CHARS and beginning_pays(row.rstrip("\n"), counter):
            head_end = lines.start(index)
            break
    for index in range(len(lines) - 1, lines.line_of(tail_start), -1):
        row = text[lines.start(index):lines.end(index)]
        if len(row) > MAX_LINE_CHARS and beginning_pays(row.rstrip("\n"), counter):
            tail_start = lines.end(index)
            break
    return head_end, tail_start


def _snap_to_lines(text: str, head_end: int, tail_start: int) -> tuple[int, int]:
    if head_end < len(text) and (head_end == 0 or text[head_end - 1] != "\n"):
        newline = text.rfind("\n", head_end - max(1, int(head_end * _SNAP_SHARE)), head_end)
        if newline != -1:
            head_end = newline + 1
    if 0 < tail_start and text[tail_start - 1] != "\n":
        span = max(1, int((len(text) - tail_start) * _SNAP_SHARE))
        newline = text.find("\n", tail_start, tail_start + span)
        if newline != -1 and newline + 1 < len(text):
            tail_start = newline + 1
    return head_end, tail_start
