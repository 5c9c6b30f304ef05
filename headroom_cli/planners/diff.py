"""diff: the map of every file first, then hunks by value.

Understands `git diff`, `git show` and `git log -p` (commit headers stay), `diff -u` and
`diff -ru` (with `Only in` and `Binary files … differ` lines), git's extended headers (renames,
copies, mode changes, new and deleted files, binary patches) and combined (merge) diffs.

The first of these that fits the budget is the plan:
1. every file named by its own first line verbatim (`diff --git a/x b/x`) with its
   `(+N −M, K hunks)`, the output's own lines (a history's commit subjects first), then hunks by
   value (value_class: source, manifests, tests, docs, config, lock/generated last), file by
   file, the smallest change of a class first: a file's every hunk header, then its bodies, each
   whole; each omitted body under a shown header is a gap marked with its line range and counts;
2. the same with files named `path (+N −M, K hunks)` and no marker per omitted body, the
   omitted bodies counted in the closing marker;
3. those lines rolled up by directory (planners/rollup.py), a single file by its own first
   line, the rest of the budget naming the first files of the biggest group, then more of the
   output's own lines.
Commit headers and lines that are no part of any file (stats, a tool's own messages) stay first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from bisect import bisect_right
from functools import partial
from typing import Callable

from ..patterns import lazy
from ..plan import Gap, Item, Keep, Lines, Note, Plan
from ..render import CLOSING_MARKER_TOKENS, inline_marker
from ..tokens import Counter
from ..tools import Tool
from .costs import LineCosts, fit_in_order
from .outline import bodies
from .pathclass import LOCKS
from .rollup import roll_up, split

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_GIT_FILE = lazy(r"diff --(?:git|cc|combined) (?P<rest>.+)$")
_DIFF_COMMAND = lazy(r"diff(?: -{1,2}[\w=-]+)+ (?P<old>\S+) (?P<new>\S+)$")
_ONLY_IN = lazy(r"Only in (?P<dir>.+?): (?P<name>.+)$")
_BINARY_NOTICE = lazy(r"Binary files (?P<old>.+) and (?P<new>.+) differ$")
_OLD_FILE = lazy(r"--- (?P<path>[^\t]+?)(?:\t.*)?$")
_NEW_FILE = lazy(r"\+\+\+ (?P<path>[^\t]+?)(?:\t.*)?$")
_EXTENDED = lazy(r"index [0-9a-f]+[.,]|(?:old|new|deleted file|new file) mode "
                       r"|(?:dis)?similarity index |rename (?:from|to) |copy (?:from|to) "
                       r"|Binary files ")
_HUNK = lazy(r"@@ -\d+(?:,(?P<old>\d+))? \+\d+(?:,(?P<new>\d+))? @@")
_COMBINED_HUNK = lazy(r"(?P<ats>@{3,}) (?:-\d+(?:,\d+)? )+\+\d+(?:,\d+)? (?P=ats)")
_BINARY_PATCH = "GIT binary patch"
_BINARY_PATCH_LINE = lazy(r"(?:(?:literal|delta) \d+|[A-Za-z][\x21-\x7e]*|)$")
_COMMIT = lazy(r"(?:commit [0-9a-f]{7,64}|From [0-9a-f]{40} )\b")
# What follows a commit line: fields, the indented message, blank lines, `--stat` lines.
_COMMIT_BODY = lazy(r"(?:Author|AuthorDate|Commit|CommitDate|Date|Merge|From|Subject):"
                    r"|\s|$")
_STAT = lazy(r" .+ \| +(?:\d+ ?[+-]*|Bin .*)$| \d+ files? changed")
_ONE_SIDE = "only on one side"
_MINUS = "−"  # U+2212: a count reads `−3`, never a removed line `-3`
CONTEXT_SHARE = 0.3  # commit headers and stray lines get at most this share of the budget
HISTORY_SHARE = 0.5  # in a history (`git log -p`): its commits' subjects say what it is about
# A commit whose subject says less than a person's own: a merge (`Merge: a b`), or one a bot
# made (GitHub names bot accounts `name[bot]`: dependabot, pre-commit-ci, renovate).
_ROUTINE_HEADER = lazy(r"Merge: |Author: .*\[bot\]")
# A squashed pull request repeats its branch's subject with the request's number after it.
_PULL_REQUEST = lazy(r" \(#\d+\)$")
_MAX_MISSES = 32  # bodies tried in vain before the rest are left out untried


@dataclass
class Hunk:
    header: int  # line index of the `@@` line
    end: int  # one past the last body line
    added: int = 0
    removed: int = 0


@dataclass
class FileDiff:
    start: int
    header_end: int  # one past the last header line
    path: str
    hunks: list[Hunk] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # "new file", "renamed from x", "binary"

    @property
    def end(self) -> int:
        return self.hunks[-1].end if self.hunks else self.header_end

    @property
    def added(self) -> int:
        return sum(h.added for h in self.hunks)

    @property
    def removed(self) -> int:
        return sum(h.removed for h in self.hunks)


@dataclass
class Parsed:
    files: list[FileDiff]
    context: list[int]  # commit headers, stats, blank and stray lines: no part of any file
    strays: int  # non-blank context lines that are neither commit headers nor stats


def looks_like(sample: list[str], tool: Tool) -> bool:
    parsed = parse(sample)
    if not any(f.hunks for f in parsed.files):
        return False
    non_empty = sum(1 for row in sample if row.strip())
    # A log that quotes a diff has its own lines around it: those are strays here. The sample
    # (a head and a tail) may start inside a hunk whose header it does not hold: that hunk's
    # rest, once, is none.
    return parsed.strays - _cut_hunk(sample, parsed.files) <= 0.1 * non_empty


def _cut_hunk(rows: list[str], files: list[FileDiff]) -> int:
    """The most stray lines that read as hunks (bodies and `@@` headers) in one run ending at
    a file."""
    longest, previous_end = 0, 0
    for f in files:
        index, run = f.start - 1, 0
        while index >= previous_end and rows[index][:1] in (" ", "+", "-", "\\", "@", ""):
            run += bool(rows[index].strip())
            index -= 1
        longest = max(longest, run)
        previous_end = f.end
    return longest


def parse(rows: list[str]) -> Parsed:
    files: list[FileDiff] = []
    context: list[int] = []
    strays = 0
    index = 0
    while index < len(rows):
        found = _file_at(rows, index)
        if found:
            files.append(found)
            index = found.end
            continue
        end = _commit_end(rows, index)
        if end == index + 1 and rows[index].strip() and not _STAT.match(rows[index]):
            strays += 1
        context.extend(range(index, end))
        index = end
    _name_sides(rows, files)
    return Parsed(files, context, strays)


def _name_sides(rows: list[str], files: list[FileDiff]) -> None:
    """`diff -r OLD NEW` says which tree an `Only in DIR: NAME` file is in: the one whose
    folder (up to where OLD and NEW part ways) holds it, as git says "new file" or "deleted
    file"."""
    trees = next((_trees(m["old"], m["new"]) for f in files
                  if (m := _DIFF_COMMAND.match(rows[f.start]))), None)
    if trees is None:
        return
    old, new = trees
    for f in files:
        if f.notes == [_ONE_SIDE]:
            if f.path.startswith(new + "/"):
                f.notes = ["only in the new tree"]
            elif f.path.startswith(old + "/"):
                f.notes = ["only in the old tree"]


def _trees(old: str, new: str) -> tuple[str, str] | None:
    """The two folders compared: each path up to its first part that differs from the other's."""
    old_parts, new_parts = old.split("/"), new.split("/")
    for depth, (a, b) in enumerate(zip(old_parts, new_parts)):
        if a != b:
            return "/".join(old_parts[:depth + 1]), "/".join(new_parts[:depth + 1])
    return None


def _commit_end(rows: list[str], index: int) -> int:
    """One past a commit header starting at index (index + 1 when it is not one)."""
    if not _COMMIT.match(rows[index]):
        return index + 1
    end = index + 1
    while end < len(rows) and _COMMIT_BODY.match(rows[end]):
        end += 1
    return end


def _file_at(rows: list[str], index: int) -> FileDiff | None:
    row = rows[index]
    if m := _ONLY_IN.match(row):
        return FileDiff(index, index + 1, f"{m['dir'].rstrip('/')}/{m['name']}",
                        notes=[_ONE_SIDE])
    if m := _BINARY_NOTICE.match(row):
        return FileDiff(index, index + 1, m["new"], notes=["binary"])
    path = None
    if m := _GIT_FILE.match(row):
        path = _git_path(m["rest"])
        end = index + 1
    elif m := _DIFF_COMMAND.match(row):
        path = m["new"]
        end = index + 1
    elif _is_patch_header(rows, index):
        end = index
    else:
        return None
    while end < len(rows) and _EXTENDED.match(rows[end]):
        end += 1
    if _is_patch_header(rows, end):
        path = path or _patch_path(rows[end], rows[end + 1])
        end += 2
    found = FileDiff(index, end, path or "", notes=_header_notes(rows[index:end]))
    while end < len(rows) and (hunk := _hunk_at(rows, end)):
        found.hunks.append(hunk)
        end = hunk.end
    return found


def _is_patch_header(rows: list[str], index: int) -> bool:
    return (index + 1 < len(rows) and rows[index].startswith("--- ")
            and rows[index + 1].startswith("+++ "))


def _git_path(rest: str) -> str:
    if " b/" in rest:
        return rest.split(" b/", 1)[1].strip('"')
    return rest.split(" ")[-1].strip('"')


def _patch_path(old_row: str, new_row: str) -> str:
    old = _OLD_FILE.match(old_row)["path"]
    new = _NEW_FILE.match(new_row)["path"]
    path = old if new == "/dev/null" else new
    if old.startswith("a/") or new.startswith("b/"):
        return path[2:] if path.startswith(("a/", "b/")) else path
    return path


def _header_notes(header: list[str]) -> list[str]:
    notes, old_mode = [], ""
    for row in header[1:]:
        if row.startswith("new file mode"):
            notes.append("new file")
        elif row.startswith("deleted file mode"):
            notes.append("deleted")
        elif row.startswith(("rename from ", "copy from ")):
            verb = "renamed" if row.startswith("rename") else "copied"
            notes.append(f"{verb} from {row.split(' ', 2)[2]}")
        elif row.startswith("old mode "):
            old_mode = row[len("old mode "):]
        elif row.startswith("new mode "):
            notes.append(f"mode {old_mode} → {row[len('new mode '):]}")
        elif row.startswith("Binary files "):
            notes.append("binary")
    return notes


def _hunk_at(rows: list[str], index: int) -> Hunk | None:
    row = rows[index]
    if row == _BINARY_PATCH:
        end = index + 1
        while end < len(rows) and _BINARY_PATCH_LINE.match(rows[end]):
            end += 1
        return Hunk(index, end)
    if m := _HUNK.match(row):
        return _counted_hunk(rows, index, int(m["old"] or 1), int(m["new"] or 1))
    if m := _COMBINED_HUNK.match(row):
        return _combined_hunk(rows, index, len(m["ats"]) - 1)
    return None


def _counted_hunk(rows: list[str], index: int, old_left: int, new_left: int) -> Hunk:
    """The body ends where the header's line counts run out: a removed line reading
    `--- x` stays body, and the next file's `--- x` does not."""
    hunk = Hunk(index, index + 1)
    end = index + 1
    while end < len(rows) and (old_left > 0 or new_left > 0):
        mark = rows[end][:1]
        if mark == "+":
            new_left -= 1
            hunk.added += 1
        elif mark == "-":
            old_left -= 1
            hunk.removed += 1
        elif mark in (" ", ""):  # some tools strip the space of an empty context line
            old_left -= 1
            new_left -= 1
        elif mark != "\\":
            break
        end += 1
    if end < len(rows) and rows[end].startswith("\\"):
        end += 1  # `\ No newline at end of file` after the last line
    hunk.end = end
    return hunk


def _combined_hunk(rows: list[str], index: int, parents: int) -> Hunk:
    hunk = Hunk(index, index + 1)
    end = index + 1
    while end < len(rows):
        marks = rows[end][:parents]
        if len(marks) < parents or set(marks) - {" ", "+", "-"}:
            break
        hunk.added += "+" in marks
        hunk.removed += "-" in marks
        end += 1
    hunk.end = end
    return hunk


# --------------------------------------------------------------------------- value


# What a file's change is worth to a reader, best first: the source the change is about, the
# manifests that carry its version and dependencies, its tests, its docs, CI and tool config,
# then lock files, generated, vendored and binary files.
SOURCE, MANIFEST, TESTS, DOCS, CONFIG, LOCKED = range(6)
_GENERATED = lazy(r".*(?:\.lock|\.min\.(?:js|css)|\.map|\.snap|\.svg|_pb2\.pyi?|\.pb\.go"
                        r"|\.generated\.\w+|\.g\.dart)$")
_MACHINE_FOLDERS = frozenset({"vendor", "node_modules", "dist", "third_party", "__snapshots__"})
_PINS = "requirements"  # pip-compile's pinned requirements/*.txt, made from requirements/*.in
_MANIFESTS = frozenset({"pyproject.toml", "setup.py", "setup.cfg", "package.json", "cargo.toml",
                        "go.mod", "pom.xml", "build.gradle", "build.gradle.kts", "gemfile",
                        "composer.json", "cmakelists.txt", "makefile", "meson.build",
                        "configure.ac", "version", "version.txt", "requirements.txt"})
_TEST_FOLDERS = frozenset({"test", "tests", "testing", "spec", "specs", "__tests__", "testdata",
                           "fixtures", "e2e", "bench", "benches", "benchmarks"})
_TEST_NAME = lazy(r"test_.*|.*(?:_test|_tests|\.test|\.spec|_spec|test|tests)\.\w+$")
_DOC_FOLDERS = frozenset({"doc", "docs", "documentation", "man", "examples", "changelog.d",
                          "changes", "newsfragments"})
_DOC_NAME = lazy(r"(?:readme|changes|changelog|history|news|license|copying|authors"
                       r"|contributing|notice|security|code_of_conduct)(?:\.\w+)?$"
                       r"|.*\.(?:md|rst|txt|adoc|rdoc|texi|pod)$")
_CONFIG_NAME = lazy(r"\..*|.*\.(?:ini|cfg|ya?ml|toml|json|conf)$|tox\.ini|dockerfile.*"
                          r"|jenkinsfile|procfile|noxfile\.py|codecov\.yml|renovate\.json")


def value_class(path: str, notes: list[str] = ()) -> int:
    """Which of SOURCE … LOCKED a changed file is, told by its path (and a binary patch)."""
    parts = [part.lower() for part in split(path)] or [""]
    name = parts[-1]
    folders = set(parts[:-1])
    if "binary" in notes or name in LOCKS or _GENERATED.match(name) or folders & _MACHINE_FOLDERS:
        return LOCKED
    if _PINS in folders:
        return LOCKED if name.endswith(".txt") else CONFIG
    if parts[0].startswith(".") or folders & {"ci", ".github", ".circleci"}:
        return CONFIG
    if folders & _TEST_FOLDERS or _TEST_NAME.match(name):
        return TESTS
    if folders & _DOC_FOLDERS or _DOC_NAME.match(name):
        return DOCS
    if name in _MANIFESTS:
        return MANIFEST
    return CONFIG if _CONFIG_NAME.match(name) else SOURCE


# --------------------------------------------------------------------------- planning


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = list(lines)
    plain = bodies(rows)
    parsed = parse(plain)
    if not parsed.files:
        return None
    job = _Job(rows, plain, lines, parsed, LineCosts(rows, counter, cut_long=False),
               budget - CLOSING_MARKER_TOKENS)
    if job.room <= 0:
        return None
    return (_by_value(job, verbatim=True) or _by_value(job, verbatim=False)
            or _rolled_up(job))


@dataclass
class _Job:
    rows: list[str]  # as printed (a numbered listing keeps its numbers)
    plain: list[str]  # the rows without their numbers
    lines: Lines
    parsed: Parsed  # of the rows without their numbers
    costs: LineCosts
    room: int
    context: list[int] = field(init=False)  # the output's own lines the context share keeps
    commits: list[int] = field(init=False)
    ranked: list[int] = field(init=False)  # the output's own lines by value

    def __post_init__(self) -> None:
        # The output's own lines around the diff, in order, its last line first (black's
        # "7 files would be reformatted."): kept whenever it fits. `git log -p`'s commit lines
        # belong to the map.
        self.commits = [i for i in self.parsed.context if _COMMIT.match(self.plain[i])]
        self.ranked = self._ranked()
        share = HISTORY_SHARE if len(self.commits) > 1 else CONTEXT_SHARE
        self.context = sorted(fit_in_order(self.ranked, int(self.room * share), self.costs))

    def _ranked(self) -> list[int]:
        """The output's own lines by value: its last line, the first commit's line, every
        commit's subject (the first line of its message: a history read at a glance) — a
        person's before a bot's, a merge's or a repeat's — the commit lines, then the rest in
        order."""
        context = self.parsed.context
        last = [i for i in context[-1:] if i == len(self.rows) - 1]
        own = set(context)
        subjects, routine, seen = [], [], set()
        for commit in self.commits:
            subject = next((i for i in range(commit + 1, min(commit + 8, len(self.plain)))
                            if i in own and self.plain[i].startswith("    ")
                            and self.plain[i].strip()), None)
            if subject is None:
                continue
            said = _PULL_REQUEST.sub("", self.plain[subject].strip())
            header = self.plain[commit + 1:subject]
            if said in seen or any(_ROUTINE_HEADER.match(row) for row in header):
                routine.append(subject)
            else:
                subjects.append(subject)
                seen.add(said)
        return list(dict.fromkeys(last + self.commits[:1] + subjects + routine + self.commits
                                  + context))


def _counts(f: FileDiff) -> str:
    return f"+{f.added:,} {_MINUS}{f.removed:,}"


def _hunks(count: int) -> str:
    return f"{count:,} hunk" + ("" if count == 1 else "s")


def _name_lines(job: _Job, f: FileDiff) -> list[int]:
    """The lines that name a file: its first (`diff --git a/x b/x`, `diff -ru A B`, `Only in`),
    or the `--- `/`+++ ` pair of a plain `diff -u`."""
    pair = f.header_end - f.start >= 2 and _is_patch_header(job.plain, f.start)
    return [f.start, f.start + 1] if pair else [f.start]


def _by_value(job: _Job, verbatim: bool) -> Plan | None:
    """The map first: every file named (verbatim: by its own first line, `diff --git a/x b/x`,
    with its counts after it; else `path (counts)`), then the output's own lines, then hunks
    by value (_spend). Verbatim, each omitted body under a shown header is a gap of its own;
    else the closing marker counts them."""
    kept, notes, used = _map(job, verbatim)
    if used > job.room:
        return None
    # The output's own lines the context share left out (black's "would reformat" verdicts,
    # commit messages) come next: the tool's own words about its diff.
    more = fit_in_order([i for i in job.parsed.context if i not in kept], job.room - used,
                        job.costs)
    kept.update(dict.fromkeys(more, ""))
    used += sum(job.costs.line(i) for i in more)
    shown = _spend(job, kept, used, marked=verbatim)
    kept = dict(sorted(kept.items()))
    files = job.parsed.files
    marks = partial(_marked_gap, job, _shown_hunks(files, shown)) if verbatim else None
    items = line_items(job.lines, kept, marks, notes)
    omitted = len(job.rows) - len(kept)
    silent = omitted - sum(i.last_line - i.first_line + 1 for i in items if isinstance(i, Gap))
    summary = _value_summary(job, kept, shown, verbatim) if silent else ""
    return Plan("diff", tuple(items), len(job.rows), omitted, summary=summary,
                regap=partial(_gap, job) if verbatim else None)


def _map(job: _Job, verbatim: bool) -> tuple[dict[int, str], dict[int, list[str]], int]:
    """The kept lines (index -> suffix), the notes and what they cost: the context share,
    `git log -p`'s commit lines and every file named; counted only until over the room."""
    kept: dict[int, str] = dict.fromkeys(sorted({*job.context, *job.commits}), "")
    notes: dict[int, list[str]] = {}
    used = sum(job.costs.line(i) for i in kept)
    for f in job.parsed.files:
        if verbatim:
            named = _name_lines(job, f)
            kept.update(dict.fromkeys(named, ""))
            kept[named[-1]] = f"  ({_details(f)})"
            used += sum(job.costs.line(i, kept[i]) for i in named)
        else:
            notes[f.start] = [_short_line(job, f)]
            used += job.costs.note(notes[f.start][0])
        if used > job.room:
            break
    return kept, notes, used


def _spend(job: _Job, kept: dict[int, str], used: int, marked: bool) -> set[int]:
    """Hunks by value (value_class), into `kept`, file by file, the smallest change of a class
    first (a release's version bump before a rewrite takes the room; changed files before new
    ones, deleted ones last): a file's hunk headers, all or none, then its bodies, each whole;
    then the next class. Marked: an omitted body under a shown header costs its marker, and
    what is left goes to the head of the first that did not fit. Returns the files shown."""
    files = job.parsed.files
    shown: set[int] = set()
    skipped: list[int] = []
    skipped_file, skipped_marker = -1, 0
    misses = 0
    order = sorted(range(len(files)), key=lambda n: (
        value_class(files[n].path, files[n].notes), _fate(files[n]),
        files[n].added + files[n].removed, n))
    for n in order:
        if not _whole_file(files[n]):  # (a whole file's header comes with its body)
            headers = [h.header for h in files[n].hunks]
            cost = sum(job.costs.line(i) for i in headers) + (sum(
                _marker_cost(job, h.header + 1, h.end - 1) for h in files[n].hunks
                if h.end > h.header + 1) if marked else 0)
            if headers and used + cost <= job.room:
                kept.update(dict.fromkeys(headers, ""))
                used += cost
                shown.add(n)
        for hunk in (h for h in files[n].hunks if h.end > h.header + 1):
            alone = n not in shown  # a new or deleted file's one hunk: its header comes too
            if alone and not _whole_file(files[n]) or misses > _MAX_MISSES:
                continue  # past the misses, counting bodies that cannot fit costs more than it prints
            body = list(range(hunk.header + 1 - alone, hunk.end))
            marker = _marker_cost(job, body[0], body[-1]) if marked and not alone else 0
            room = job.room - used + marker
            if len(body) <= room and len(fit_in_order(body, room, job.costs)) == len(body):
                kept.update(dict.fromkeys(body, ""))
                used += sum(job.costs.line(i) for i in body) - marker
                shown.add(n)
                continue
            if not skipped:
                skipped, skipped_file = body, n
                if alone:  # its header comes with its head: the rest of it then costs a marker
                    skipped_marker = _marker_cost(job, body[1], body[-1]) if len(body) > 1 else 0
            misses += 1
    if marked and skipped:  # what is left goes to the head of the first body that did not fit
        head = fit_in_order(skipped, job.room - used - skipped_marker, job.costs)
        if len(head) > 1 or skipped_file in shown:  # a header alone says no more than the map
            kept.update(dict.fromkeys(head, ""))
            shown.add(skipped_file)
    return shown


def _fate(f: FileDiff) -> int:
    """Changed files first, new ones next, deleted ones last."""
    return ("new file" in f.notes) + 2 * ("deleted" in f.notes)


def _whole_file(f: FileDiff) -> bool:
    return len(f.hunks) == 1 and ("new file" in f.notes or "deleted" in f.notes)


def _details(f: FileDiff) -> str:
    parts = [f"{_counts(f)}, {_hunks(len(f.hunks))}"] if f.hunks else []
    return "; ".join(parts + f.notes) or "header only"


def _shown_hunks(files: list[FileDiff], shown: set[int]) -> tuple[list[int], list[Hunk]]:
    """The hunks whose header is shown, in line order, and their header lines."""
    hunks = sorted((h for n in shown for h in files[n].hunks), key=lambda h: h.header)
    return [h.header for h in hunks], hunks


def _marked_gap(job: _Job, shown: tuple[list[int], list[Hunk]], first: int,
                last: int) -> Gap | None:
    """A gap marker for an omitted run inside a shown hunk's body (its whole body, or what the
    head shown left); any other run is counted in the closing marker."""
    headers, hunks = shown
    at = bisect_right(headers, first) - 1
    if at < 0 or not hunks[at].header < first <= last < hunks[at].end:
        return None
    return _gap(job, first, last)


def _value_summary(job: _Job, kept: dict[int, str], shown: set[int], marked: bool) -> str:
    files = job.parsed.files
    unshown = [f for n, f in enumerate(files) if n not in shown and f.hunks]
    hunks = [h for n in shown for h in files[n].hunks]
    cut = [h for h in hunks if h.end > h.header + 1 and h.header + 1 not in kept]
    parts = []
    if unshown:
        added = sum(f.added for f in unshown)
        removed = sum(f.removed for f in unshown)
        parts.append(f"the hunks of {len(unshown):,} of {len(files):,} files (+{added:,} "
                     f"{_MINUS}{removed:,} in {_hunks(sum(len(f.hunks) for f in unshown))}; "
                     f"each file named above with its counts)")
    if cut and not marked:
        added = sum(h.added for h in cut)
        removed = sum(h.removed for h in cut)
        parts.append(f"the bodies of {len(cut):,} of {_hunks(len(hunks))} shown "
                     f"(+{added:,} {_MINUS}{removed:,})")
    if any(i not in kept for f in files for i in range(f.start, f.header_end)):
        parts.append("other header lines")
    own = sum(1 for i in job.parsed.context if i not in kept)
    if own:
        parts.append(f"{own:,} of the output's own lines")
    return (f"{len(job.rows) - len(kept):,} of {len(job.rows):,} lines omitted: "
            + "; ".join(parts))


def _named_line(job: _Job, f: FileDiff) -> str:
    """A file's line in a map that has no room for its header lines: its own first line
    (`diff --git a/x b/x`, `Only in d: x`: greppable as printed) with its details, or, for a
    plain `diff -u` named by its `---`/`+++` pair, `path (details)`."""
    if len(_name_lines(job, f)) > 1:
        return _file_line(f)
    return f"{job.rows[f.start].rstrip()}  ({_details(f)})"


def _short_line(job: _Job, f: FileDiff) -> str:
    """A file's line in a map without room for every file's own first line: `path (details)`,
    but a file only in one tree keeps its own line (`Only in d: x`, a few tokens more than its
    path: greppable as the tool printed it) with the tree it is in after it."""
    return _named_line(job, f) if _ONLY_IN.match(job.plain[f.start]) else _file_line(f)


def _file_line(f: FileDiff) -> str:
    return f"{f.path or '?'} ({_details(f)})"


def _rolled_up(job: _Job) -> Plan | None:
    """Level 3: files rolled up under their directories (planners/rollup.py), with counts; what
    the roll-up leaves unspent names the first files of the biggest group again."""
    files = job.parsed.files
    room = job.room - sum(job.costs.line(i) for i in job.context)
    entries = roll_up([_key(f.path) for f in files], lambda key, members: _group_line(
        job, key, [files[i] for i in members]), job.costs.note, room)
    if sum(job.costs.note(entry) for entry, _ in entries) > room:
        return None
    entries = _peeled(job, entries, room)
    kept = dict.fromkeys(job.context, "")
    # What the roll-up leaves goes to more of the output's own lines (commit subjects first).
    left = room - sum(job.costs.note(entry) for entry, _ in entries)
    kept.update(dict.fromkeys(fit_in_order([i for i in job.ranked if i not in kept], left,
                                           job.costs), ""))
    anchored: dict[int, list[str]] = {}
    for entry, members in entries:
        anchored.setdefault(files[members[0]].start, []).append(entry)
    items = _items(job, kept, with_gaps=False, notes=anchored)
    what = f"{len(files):,} files in {len(entries):,} lines named above with counts"
    return Plan("diff", tuple(items), len(job.rows), len(job.rows) - len(kept),
                summary=_summary(job, len(kept), what))


def _key(path: str) -> str:
    # Folders in the roll-up are slash-joined parts: keys must be spelled the same way.
    return "/".join(split(path)) or path


def _group_line(job: _Job, key: str, group: list[FileDiff], more: bool = False) -> str:
    if len(group) == 1 and _key(group[0].path) == key and not more:
        return _named_line(job, group[0])
    added = sum(f.added for f in group)
    removed = sum(f.removed for f in group)
    hunks = sum(len(f.hunks) for f in group)
    folder = "/" + key if key and group[0].path.startswith("/") else key or "./"
    files = f"{len(group):,} {'more ' if more else ''}file{'' if len(group) == 1 else 's'}"
    if not hunks:
        return f"{folder} ({files})"
    return f"{folder} ({files}, +{added:,} {_MINUS}{removed:,}, {_hunks(hunks)})"


def _peeled(job: _Job, entries: list[tuple[str, list[int]]],
            room: int) -> list[tuple[str, list[int]]]:
    files = job.parsed.files
    grouped = [i for i, (_, members) in enumerate(entries) if len(members) > 1]
    if not grouped:
        return entries
    index = max(grouped, key=lambda i: len(entries[i][1]))
    text, members = entries[index]
    folder = _folder_of([_key(files[i].path) for i in members])
    used = sum(job.costs.note(entry) for entry, _ in entries) - job.costs.note(text)
    best = entries
    for count in range(1, len(members) + 1):
        used += job.costs.note(_named_line(job, files[members[count - 1]]))
        rest = [] if count == len(members) else [(_group_line(job,
            folder, [files[i] for i in members[count:]], more=True), members[count:])]
        if used + sum(job.costs.note(text) for text, _ in rest) > room:
            break
        singles = [(_named_line(job, files[i]), [i]) for i in members[:count]]
        best = entries[:index] + singles + rest + entries[index + 1:]
    return best


def _folder_of(keys: list[str]) -> str:
    """The deepest folder holding every key ("" for none), spelled as the roll-up does."""
    parts = [split(key)[:-1] for key in keys]
    common = []
    for level in zip(*parts):
        if len(set(level)) > 1:
            break
        common.append(level[0])
    return "/".join(common) + "/" if common else ""


def _summary(job: _Job, kept: int, what: str) -> str:
    files = job.parsed.files
    added = sum(f.added for f in files)
    removed = sum(f.removed for f in files)
    hunks = sum(len(f.hunks) for f in files)
    return (f"{len(job.rows) - kept:,} of {len(job.rows):,} lines omitted: every hunk "
            f"(+{added:,} {_MINUS}{removed:,} in {_hunks(hunks)}; {what})")


# --------------------------------------------------------------------------- items


def _runs(kept: dict[int, str], total: int):
    """(first, last, is_kept) line runs in order; a line with a suffix is a run of its own."""
    cursor = 0
    for index in sorted(kept):
        if index > cursor:
            yield cursor, index - 1, False
        yield index, index, True
        cursor = index + 1
    if cursor < total:
        yield cursor, total - 1, False


def line_items(lines: Lines, kept: dict[int, str], gap: Callable[[int, int], Gap] | None,
               notes: dict[int, list[str]] | None = None,
               cut: Callable[[int], tuple[int, str]] | None = None) -> list[Item]:
    """Keep items for the kept lines (line index -> suffix), in line order. Each omitted run
    becomes gap(first, last), or is left out silently when gap is None or returns None (the
    plan's summary then accounts for it); notes anchored at an omitted line follow the run that holds it.
    cut(index) -> (characters kept, note) shortens an overlong line. Shared with the listing
    planner."""
    items: list[Item] = []
    pending = sorted((notes or {}).items())
    for first, last, is_kept in _runs(kept, len(lines)):
        if is_kept:
            chars, note = cut(first) if cut else (0, "")
            if note:
                start = lines.start(first)
                items.append(Keep(start, start + chars, note + kept[first]))
            else:
                _keep_line(items, lines, first, kept[first])
            continue
        marker = gap(first, last) if gap else None
        if marker is not None:
            items.append(marker)
        while pending and pending[0][0] <= last:
            items.extend(Note(text) for text in pending.pop(0)[1])
    items.extend(Note(text) for _, texts in pending for text in texts)
    return items


def _items(job: _Job, kept: dict[int, str], with_gaps: bool,
           notes: dict[int, list[str]] | None = None) -> list[Item]:
    return line_items(job.lines, kept, (lambda a, b: _gap(job, a, b)) if with_gaps else None,
                      notes)


def _keep_line(items: list[Item], lines: Lines, index: int, suffix: str) -> None:
    start, end = lines.start(index), lines.end(index)
    last = items[-1] if items else None
    if isinstance(last, Keep) and not last.suffix and last.end == start and not suffix:
        items[-1] = Keep(last.start, end)
    else:
        items.append(Keep(start, end, suffix))


def _gap(job: _Job, first: int, last: int) -> Gap:
    rows = job.plain[first:last + 1]
    added = sum(1 for row in rows if row.startswith("+"))
    removed = sum(1 for row in rows if row.startswith("-"))
    detail = f"+{added:,} {_MINUS}{removed:,}" if added or removed else ""
    return Gap(job.lines.start(first), job.lines.end(last), first + 1, last + 1, detail)


def _marker_cost(job: _Job, first: int, last: int) -> int:
    return job.costs.note(inline_marker(_gap(job, first, last)))
