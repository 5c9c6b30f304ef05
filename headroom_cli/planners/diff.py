"""diff: every file and hunk header stays, with its +/− counts; bodies follow in order.

Understands `git diff`, `git show` and `git log -p` (commit headers stay), `diff -u` and
`diff -ru` (with `Only in` and `Binary files … differ` lines), git's extended headers (renames,
copies, mode changes, new and deleted files, binary patches) and combined (merge) diffs.

The first of these that fits the budget is the plan:
1. every header line verbatim (the first one of each file with the file's `(+N −M)`) and every
   hunk header, then hunk bodies in order, each that fits whole; each omitted body is a gap
   marked with its line range and counts;
2. the same without a marker per omitted body (a hunk header followed by another header lost
   its body), the omitted bodies counted in the closing marker;
3. one line per file, `path (+N −M, K hunks)`, after as many whole files verbatim (in order)
   as fit;
4. those lines rolled up by directory (planners/rollup.py), the rest of the budget naming the
   first files of the biggest group.
Commit headers and lines that are no part of any file (stats, a tool's own messages) stay first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from ..patterns import lazy
from ..plan import Gap, Item, Keep, Lines, Note, Plan
from ..render import CLOSING_MARKER_TOKENS, inline_marker
from ..tokens import Counter
from ..tools import Tool
from .costs import LineCosts, fit_in_order
from .rollup import roll_up, split

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
    # A log that quotes a diff has its own lines around it: those are strays here.
    return parsed.strays <= 0.1 * non_empty


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


# --------------------------------------------------------------------------- planning


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = list(lines)
    parsed = parse(rows)
    if not parsed.files:
        return None
    job = _Job(rows, lines, parsed, LineCosts(rows, counter, cut_long=False), budget - CLOSING_MARKER_TOKENS)
    if job.room <= 0:
        return None
    return (_every_header(job, marked=True) or _every_header(job, marked=False)
            or _file_lines(job) or _rolled_up(job))


@dataclass
class _Job:
    rows: list[str]
    lines: Lines
    parsed: Parsed
    costs: LineCosts
    room: int
    context: list[int] = field(init=False)

    def __post_init__(self) -> None:
        # The output's own lines around the diff, in order, its last line first (black's
        # "7 files would be reformatted."): kept whenever it fits.
        context = self.parsed.context
        last = [i for i in context[-1:] if i == len(self.rows) - 1]
        self.context = sorted(fit_in_order(last + context[:len(context) - len(last)],
                                           int(self.room * CONTEXT_SHARE), self.costs))


def _counts(f: FileDiff) -> str:
    return f"+{f.added:,} {_MINUS}{f.removed:,}"


def _hunks(count: int) -> str:
    return f"{count:,} hunk" + ("" if count == 1 else "s")


def _every_header(job: _Job, marked: bool) -> Plan | None:
    """Level 1: all headers verbatim, then hunk bodies in order, each that fits whole. Marked:
    each omitted body is a gap of its own, and the first one shows its head with what is left;
    unmarked (when those markers do not fit): the omitted bodies are counted in the closing
    marker, and a hunk header followed by another header is a hunk whose body was omitted."""
    kept = _headers(job)
    used = _cost(job, kept, marked)
    if used > job.room:
        return None
    skipped: list[int] = []
    misses = 0
    for hunk in (h for f in job.parsed.files for h in f.hunks if h.end > h.header + 1):
        body = list(range(hunk.header + 1, hunk.end))
        marker = _marker_cost(job, body[0], body[-1]) if marked else 0
        room = job.room - used + marker
        shown = fit_in_order(body, room, job.costs) if len(body) <= room else []
        if len(shown) == len(body):
            kept.update(dict.fromkeys(shown, ""))
            used += sum(job.costs.line(i) for i in shown) - marker
            continue
        skipped = skipped or body
        misses += 1
        if misses > _MAX_MISSES:
            break  # counting body after body that cannot fit would cost more than it prints
    if marked and skipped:  # what is left goes to the head of the first body that did not fit
        kept.update(dict.fromkeys(fit_in_order(skipped, job.room - used, job.costs), ""))
    items = _items(job, kept, with_gaps=marked)
    omitted = len(job.rows) - len(kept)
    if marked or not omitted:
        return Plan("diff", tuple(items), len(job.rows), omitted, regap=partial(_gap, job))
    return Plan("diff", tuple(items), len(job.rows), omitted,
                summary=_bodies_summary(job, kept))


def _headers(job: _Job) -> dict[int, str]:
    """Line index -> suffix: the context, every file header (the first line with the file's
    counts) and every hunk header."""
    kept: dict[int, str] = dict.fromkeys(job.context, "")
    for f in job.parsed.files:
        kept.update(dict.fromkeys(range(f.start, f.header_end), ""))
        if f.hunks:
            kept[f.start] = f"  ({_counts(f)})"
        kept.update((h.header, "") for h in f.hunks)
    return kept


def _bodies_summary(job: _Job, kept: dict[int, str]) -> str:
    hunks = [h for f in job.parsed.files for h in f.hunks]
    cut = [h for h in hunks if h.end > h.header + 1 and h.header + 1 not in kept]
    added = sum(h.added for h in cut)
    removed = sum(h.removed for h in cut)
    return (f"{len(job.rows) - len(kept):,} of {len(job.rows):,} lines omitted: the bodies of "
            f"{len(cut):,} of {_hunks(len(hunks))} (+{added:,} {_MINUS}{removed:,}; every hunk "
            f"header is kept above, each omitted body right after its header)")


def _file_lines(job: _Job) -> Plan | None:
    """Level 3: one line per file; whole files verbatim, in order, while they fit, else the
    output's own lines past the context share while they fit. The `commit` lines of
    `git log -p` stay among the file lines, each before its files."""
    files = job.parsed.files
    notes = [_file_line(f) for f in files]
    chosen = set(job.context)
    commits = [i for i in job.parsed.context if i not in chosen and _COMMIT.match(job.rows[i])]
    used = sum(job.costs.line(i) for i in [*job.context, *commits])
    for note in notes:  # counted only until over the room
        used += job.costs.note(note)
        if used > job.room:
            return None
    whole = 0
    for f, note in zip(files, notes):
        size = fit_in_order(list(range(f.start, f.end)), job.room - used + job.costs.note(note),
                             job.costs)
        if len(size) < f.end - f.start:
            break
        used += sum(job.costs.line(i) for i in size) - job.costs.note(note)
        whole += 1
    if whole:
        return _verbatim_then_listed(job, whole, notes)
    # What the context share left out (black's "would reformat" lines) fills what is left.
    left_out = [i for i in job.parsed.context if i not in chosen and i not in commits]
    kept = dict.fromkeys(sorted([*job.context, *fit_in_order(left_out, job.room - used,
                                                             job.costs)]), "")
    anchored = {f.start: [note] for f, note in zip(files, notes)}
    anchored.update((i, [job.rows[i]]) for i in commits)
    items = _items(job, kept, with_gaps=False, notes=anchored)
    return Plan("diff", tuple(items), len(job.rows), len(job.rows) - len(kept),
                summary=_summary(job, len(kept), "each file named above with its counts"))


def _verbatim_then_listed(job: _Job, whole: int, notes: list[str]) -> Plan:
    files = job.parsed.files
    listed_from = files[whole].start if whole < len(files) else files[-1].end
    kept = {i: "" for i in job.context if i < listed_from or i >= files[-1].end}
    for f in files[:whole]:
        kept.update(dict.fromkeys(range(f.start, f.end), ""))
    commits = [(i, job.rows[i]) for i in job.parsed.context
               if listed_from <= i < files[-1].end and _COMMIT.match(job.rows[i])]
    listed = sorted([(f.start, note) for f, note in zip(files[whole:], notes[whole:])] + commits)
    items = _items(job, kept, with_gaps=True, notes={listed_from: [text for _, text in listed]})
    return Plan("diff", tuple(items), len(job.rows), len(job.rows) - len(kept),
                regap=partial(_gap, job))


def _file_line(f: FileDiff) -> str:
    parts = [f"{_counts(f)}, {_hunks(len(f.hunks))}"] if f.hunks else []
    return f"{f.path or '?'} ({'; '.join(parts + f.notes) or 'header only'})"


def _rolled_up(job: _Job) -> Plan | None:
    """Level 3: files rolled up under their directories (planners/rollup.py), with counts; what
    the roll-up leaves unspent names the first files of the biggest group again."""
    files = job.parsed.files
    room = job.room - sum(job.costs.line(i) for i in job.context)
    entries = roll_up([_key(f.path) for f in files], lambda key, members: _group_line(
        key, [files[i] for i in members]), job.costs.note, room)
    if sum(job.costs.note(entry) for entry, _ in entries) > room:
        return None
    entries = _peeled(job, entries, room)
    kept = dict.fromkeys(job.context, "")
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


def _group_line(key: str, group: list[FileDiff], more: bool = False) -> str:
    if len(group) == 1 and _key(group[0].path) == key and not more:
        return _file_line(group[0])
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
        used += job.costs.note(_file_line(files[members[count - 1]]))
        rest = [] if count == len(members) else [(_group_line(
            folder, [files[i] for i in members[count:]], more=True), members[count:])]
        if used + sum(job.costs.note(text) for text, _ in rest) > room:
            break
        singles = [(_file_line(files[i]), [i]) for i in members[:count]]
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
    becomes gap(first, last), or is left out silently when gap is None (the plan's summary
    then accounts for it); notes anchored at an omitted line follow the run that holds it.
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
        if gap:
            items.append(gap(first, last))
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
    rows = job.rows[first:last + 1]
    added = sum(1 for row in rows if row.startswith("+"))
    removed = sum(1 for row in rows if row.startswith("-"))
    detail = f"+{added:,} {_MINUS}{removed:,}" if added or removed else ""
    return Gap(job.lines.start(first), job.lines.end(last), first + 1, last + 1, detail)


def _marker_cost(job: _Job, first: int, last: int) -> int:
    return job.costs.note(inline_marker(_gap(job, first, last)))


def _cost(job: _Job, kept: dict[int, str], marked: bool) -> int:
    """What the kept lines (and the gap markers) cost, counted only until over the room."""
    used = 0
    for first, last, is_kept in _runs(kept, len(job.rows)):
        if is_kept:
            used += job.costs.line(first, kept[first])
        elif marked:
            used += _marker_cost(job, first, last)
        if used > job.room:
            break
    return used
