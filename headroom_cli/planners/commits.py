"""commits: a commit history (`git log`, one line per commit or in full, with its graph or
without) becomes the head, an outline of the omitted part's landmarks with their line numbers,
then the tail.

Landmarks, shallowest first, each line ranked by what it says (a `commit <hash>` line by its
refs, a subject by its words): releases (commits a tag or HEAD points at, and subjects that
announce a version, `release version 3.1.8`, `v8.2.2`, or merge a release tag, when the
history has no tags), then
subjects naming a breaking change, a deprecation, a security fix or a revert, then branch
heads and merges, and the `commit <hash>` lines of the releases and urgent fixes; then every
commit's subject (`git log`'s first message line, or the `--oneline` row); then the largest
commit's size; then bare `commit <hash>` lines, every size (`--stat`'s ` 3 files changed, …`)
and the file each commit changed most (`src/a.c | 37 ++--`). Refs are read wherever a custom
format puts them (`%h %ad %an%d %s`).
`--stat`, `--name-status` and `--oneline --stat` histories are histories too (`git show
--stat` of one commit is short). (`git log -p` is a diff: the diff planner takes it first.)
"""

from __future__ import annotations


from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline
from .outline import URGENT

# `--graph` draws these before a commit and on lines of their own.
_GRAPH = r"[*|\\/_. -]*"
_ONELINE = lazy(rf"{_GRAPH}?\*?{_GRAPH}\b[0-9a-f]{{7,40}}\b(?: \((?P<refs>[^)]*)\))?"
                r" ?(?P<subject>.*)$")
_GRAPH_ONLY = lazy(rf"{_GRAPH}$")
# `%d` placed after other fields (`--format='%h %ad %an%d %s'`): refs in parentheses that open
# with HEAD, a tag or a remote's branch (a subject's own `(#439)` names none of them).
_DECORATION = lazy(r" \((?P<refs>(?:HEAD\b|tag: |[\w.-]+/[\w.-])[^()]*)\)")
_COMMIT = lazy(r"commit [0-9a-f]{40}\b(?: \((?P<refs>[^)]*)\))?")
_MERGE = lazy(r"Merge\b")
# What a history prints under a commit: `--stat`'s rows (` src/a.c | 37 ++--`, a binary's
# `Bin 0 -> 12 bytes`) and totals, `--name-status`'s rows (`M\tsrc/a.c`, `R087\ta\tb`).
_STAT = lazy(r" (?P<path>.*\S) +\| +(?:(?P<changes>\d+)(?: [+-]*)?|Bin .*)$")
_TOTALS = lazy(r" \d+ files? changed")
_NAME_STATUS = lazy(r"[ACDMRTUXB]\d*\t\S")
# A subject that announces a release: a version, alone or beside a word that says so.
_RELEASE = lazy(r"(?i)(?:\[?(?:release|releasing|version|prepare)\b.*|[\w.@/-]*[ @]?)"
                r"v?\d+\.\d+(?:\.\d+)?(?:[-.+]?\w+)*\]?\W*(?:\(#\d+\))?$")
_REVERT = lazy(r"(?i)revert\b")
# A release tag merged into a branch (`Merge tag '4.20.0' into 5.0`, `Merge tag 'v2.1.3'`).
_MERGED_RELEASE = lazy(r"Merge tag '[\w./-]*?v?\d+\.\d+(?:\.\d+)?[\w.-]*'")
# A hex dump's row (`00018480  20 64 65 …`, xxd's `00000010: 7f45 4c46 …`) opens with a hex
# number too; its "subject" is bytes.
_BYTES = lazy(r":?\s*(?:[0-9a-fA-F]{2,4}\s+){4}")
_SHARE = 0.9  # of the non-empty lines, for a one-line-per-commit history
# A commit's subject is prose: two words or more on most rows. A row led by an object id whose
# rest is a type and figures (`git verify-pack -v`'s `<id> blob 3270 1622 712`) or a path
# (`git rev-list --objects`) is a table's.
_WORD = lazy(r"(?<![\w.-])[A-Za-z][a-z]+\b")
_WORDED_SHARE = 0.5
_MIN_COMMITS = 10


def _ref_level(refs: str) -> int:
    """A commit line's level by its refs: a tag or HEAD is a release, a branch a branch head."""
    return 1 if "tag: " in refs or "HEAD" in refs else _BRANCH


def _subject_level(subject: str, merge: bool, tagged: bool) -> int:
    """A subject's level by its words. `tagged`: the history's releases are its tags (a subject
    that names a version, `Prepare for 13.0.0-0`, waits with the urgent ones)."""
    subject = subject.strip()
    if _RELEASE.match(subject) or _MERGED_RELEASE.search(subject):
        return 2 if tagged else 1
    if URGENT.search(subject) or _REVERT.match(subject):
        return 2
    return _BRANCH if merge else _SUBJECT


# the levels of commits' rows, after releases (1) and urgent subjects (2)
_BRANCH, _LARGEST, _SUBJECT, _COMMIT_LINE, _SIZE, _MOST = 3, 3, 4, 5, 6, 7
_COPY = 0.5  # a subject said before waits this far behind its level (_copies_after)


def landmarks(rows: list[str]) -> list[tuple[int, int]]:
    """(line, level) of every commit's subject and refs; then of every bare commit line (full
    format), the largest commit's totals, every commit's totals and the file it changed most."""
    full = any(_COMMIT.match(row) for row in rows[:50])
    tagged = any("tag: " in row for row in rows)
    commits = []  # (line, refs, subject of a --oneline row)
    for index, row in enumerate(rows):
        match = (_COMMIT if full else _ONELINE).match(row)
        if match and (full or not _STAT.match(row)):
            refs = match["refs"]
            if not full and refs is None and (decoration := _DECORATION.search(match["subject"])):
                refs = decoration["refs"]
            commits.append((index, refs, None if full else match["subject"]))
    found, sizes = [], []
    for at, (start, refs, subject) in enumerate(commits):
        end = commits[at + 1][0] if at + 1 < len(commits) else len(rows)
        if full:
            found += _full_commit(rows, start, end, refs, tagged)
        else:
            level = _subject_level(subject, bool(_MERGE.match(subject)), tagged)
            found.append((start, min(level, _ref_level(refs)) if refs else level))
        found += _commit_rows(rows, start, end, sizes)
    found = _copies_after(rows, found)
    if sizes:
        largest = max(sizes, key=lambda size: (size[0], -size[1]))[1]
        found = [(i, _LARGEST if i == largest else level) for i, level in found]
    return sorted(found)


def _copies_after(rows: list[str], found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A subject said before, word for word (a fix cherry-picked to each release branch of a
    `git log --all`, the same day by the same hand), half a level after the first of it: the
    outline names every fix once before any twice. Only subjects and one-line rows repeat so;
    a commit's hash line never does."""
    seen: set[str] = set()
    marked = []
    for index, level in found:
        if level < _COMMIT_LINE and not _COMMIT.match(rows[index]):
            said = rows[index].split(" ", 1)[-1].strip()
            if said and said in seen:
                level += _COPY
            seen.add(said)
        marked.append((index, level))
    return marked


def _full_commit(rows: list[str], start: int, end: int, refs: str | None,
                 tagged: bool) -> list[tuple[int, int]]:
    """A full-format commit's subject, by its words, and its `commit <hash>` line, by its refs."""
    level = _ref_level(refs) if refs else _COMMIT_LINE
    subject = next((i for i in range(start + 1, end) if rows[i].startswith("    ")
                    and rows[i].strip()), None)
    found = []
    if subject is not None:
        merge = start + 1 < end and rows[start + 1].startswith("Merge:")
        said = _subject_level(rows[subject], merge, tagged)
        found.append((subject, said))
        if said < _BRANCH:  # a release's or an urgent fix's hash (what `git show` is given)
            level = min(level, _BRANCH)  # after every such subject, before the others
    return [(start, level), *found]


def _commit_rows(rows: list[str], start: int, end: int,
                 sizes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The landmarks inside one commit after its subject: its totals (also added to `sizes`
    as (files changed, line)) and the file it changed most (the first of equals)."""
    found = []
    most, changes = None, -1
    for index in range(start + 1, end):
        if _TOTALS.match(rows[index]):
            found.append((index, _SIZE))
            sizes.append((int(rows[index].split()[0]), index))
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
    subjects = [match["subject"] for row in rows if (match := _ONELINE.match(row))
                and not _BYTES.match(match["subject"])]
    oneline = len(subjects)
    graph = sum(1 for row in rows if _GRAPH_ONLY.match(row))
    worded = sum(1 for subject in subjects if len(_WORD.findall(subject, 0, 200)) >= 2)
    return (oneline >= _MIN_COMMITS and oneline + graph + changed >= _SHARE * len(rows)
            and worded >= _WORDED_SHARE * oneline)


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    return outline.plan("commits",
                        "commits (releases, urgent, branches and merges, then every subject)",
                        text, lines, budget, counter, landmarks(list(lines)))
