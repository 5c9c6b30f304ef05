"""commits: a commit history (`git log`, one line per commit or in full, with its graph or
without) becomes the head, an outline of the omitted part's landmarks with their line numbers,
then the tail.

Landmarks, shallowest first: commits a tag or HEAD points at (releases), then those a branch
points at, then merges. `git log` (not one line per commit) is outlined by its `commit <hash>`
lines the same way. A history with no landmark in its omitted part is left to `other`.
(`git log -p` is a diff: the diff planner takes it first.)
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
_SHARE = 0.9  # of the non-empty lines, for a one-line-per-commit history
_MIN_COMMITS = 10


def _level(refs: str | None, merge: bool) -> int | None:
    if refs and ("tag: " in refs or "HEAD" in refs):
        return 1
    if refs:
        return 2
    return 3 if merge else None


def landmarks(rows: list[str]) -> list[tuple[int, int]]:
    """(line, level) of every tagged, branch-pointed or merge commit."""
    found = []
    full = any(_COMMIT.match(row) for row in rows[:50])
    for index, row in enumerate(rows):
        match = (_COMMIT if full else _ONELINE).match(row)
        if not match:
            continue
        merge = (index + 1 < len(rows) and rows[index + 1].startswith("Merge:")) if full \
            else bool(_MERGE.match(match["subject"]))
        level = _level(match["refs"], merge)
        if level is not None:
            found.append((index, level))
    return found


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = [row for row in sample if row.strip()]
    commits = sum(1 for row in rows if _COMMIT.match(row))
    if commits >= 3:
        authors = sum(1 for row in rows if row.startswith("Author: "))
        return authors >= commits - 1
    oneline = sum(1 for row in rows if _ONELINE.match(row))
    graph = sum(1 for row in rows if _GRAPH_ONLY.match(row))
    return oneline >= _MIN_COMMITS and oneline + graph >= _SHARE * len(rows)


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    return outline.plan("commits", "tagged, branch and merge commits", text, lines, budget,
                        counter, landmarks(list(lines)))
