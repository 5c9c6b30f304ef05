"""commits: a commit history (`git log`, one line per commit or in full, with its graph or
without) becomes the head, an outline of the omitted part's landmarks with their line numbers,
then the tail.

Landmarks, shallowest first: commits a tag or HEAD points at (releases), then those a branch
points at, then merges; then every commit: its subject (`git log`'s first message line, or
the `--oneline` row), then its `commit <hash>` line; then what it changed, its size first
(`--stat`'s ` 3 files changed, …`), then the file it changed most (`src/a.c | 37 ++--`).
`--stat`, `--name-status` and `--oneline --stat` histories are histories too (`git show
--stat` of one commit is short). (`git log -p` is a diff: the diff planner takes it first.)
"""

from __future__ import annotations


from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

# `--graph` draws these before a commit and on lines of their own.
_GRAPH = r"[*|\\/_. -]*"
_ONELINE = lazy(rf"{_GRAPH}?\*?{_GRAPH}\b[0-9a-f]{{7,40}}\b(?: \((?P<refs>[^)]*)\))?"
                r" ?(?P<subject>.*)$")
_GRAPH_ONLY = lazy(rf"{_GRAPH}$")
_COMMIT = lazy(r"commit [0-9a-f]{40}\b(?: \((?P<refs>[^)]*)\))?")
_MERGE = lazy(r"Merge\b")
# What a history prints under a commit: `--stat`'s rows (` src/a.c | 37 ++--`, a binary's
# `Bin 0 -> 12 bytes`) and totals, `--name-status`'s rows (`M\tsrc/a.c`, `R087\ta\tb`).
_STAT = lazy(r" (?P<path>.*\S) +\| +(?:(?P<changes>\d+)(?: [+-]*)?|Bin .*)$")
_TOTALS = lazy(r" \d+ files? changed")
_NAME_STATUS = lazy(r"[ACDMRTUXB]\d*\t\S")
_SHARE = 0.9  # of the non-empty lines, for a one-line-per-commit history
_MIN_COMMITS = 10


def _level(refs: str | None, merge: bool) -> int | None:
    if refs and ("tag: " in refs or "HEAD" in refs):
        return 1
    if refs:
        return 2
    return 3 if merge else None


_SUBJECT, _COMMIT_LINE, _SIZE, _MOST = 4, 5, 6, 7  # the levels of every commit's rows


def landmarks(rows: list[str]) -> list[tuple[int, int]]:
    """(line, level) of every tagged, branch-pointed or merge commit, then of every commit's
    subject, its commit line, its totals and the file it changed most."""
    found = []
    full = any(_COMMIT.match(row) for row in rows[:50])
    starts = []
    for index, row in enumerate(rows):
        match = (_COMMIT if full else _ONELINE).match(row)
        if not match or not full and _STAT.match(row):
            continue
        starts.append(index)
        merge = (index + 1 < len(rows) and rows[index + 1].startswith("Merge:")) if full \
            else bool(_MERGE.match(match["subject"]))
        level = _level(match["refs"], merge)
        found.append((index, level if level is not None else
                      _COMMIT_LINE if full else _SUBJECT))
    for at, start in enumerate(starts):
        found += _commit_rows(rows, start, starts[at + 1] if at + 1 < len(starts) else len(rows),
                              full)
    return sorted(found)


def _commit_rows(rows: list[str], start: int, end: int, full: bool) -> list[tuple[int, int]]:
    """The landmarks inside one commit: its subject (full format), its totals and the file it
    changed most (the first of equals)."""
    found = []
    if full:
        subject = next((i for i in range(start + 1, end) if rows[i].startswith("    ")
                        and rows[i].strip()), None)
        if subject is not None:
            found.append((subject, _SUBJECT))
    most, changes = None, -1
    for index in range(start + 1, end):
        if _TOTALS.match(rows[index]):
            found.append((index, _SIZE))
        elif stat := _STAT.match(rows[index]):
            count = int(stat["changes"] or 0)
            if count > changes:
                most, changes = index, count
    if most is not None:
        found.append((most, _MOST))
    return found


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = [row for row in sample if row.strip()]
    commits = sum(1 for row in rows if _COMMIT.match(row))
    if commits >= 3:
        authors = sum(1 for row in rows if row.startswith("Author: "))
        return authors >= commits - 1
    changed = sum(1 for row in rows if _STAT.match(row) or _TOTALS.match(row)
                  or _NAME_STATUS.match(row))
    oneline = sum(1 for row in rows if _ONELINE.match(row))
    graph = sum(1 for row in rows if _GRAPH_ONLY.match(row))
    return oneline >= _MIN_COMMITS and oneline + graph + changed >= _SHARE * len(rows)


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    return outline.plan("commits", "landmarks (releases, branches, merges, then every commit)",
                        text, lines, budget, counter, landmarks(list(lines)))
