"""diff: the map first, then hunks by value.

Understands `git diff` (also `--stat -p`, `--no-index` and `--word-diff`, whose hunks mark
words inside lines), `git show` and `git log -p` (commit headers stay), patch mails
(`git format-patch`, a Debian patch's DEP-3 header: the message runs to its `---`), `diff -u`,
`diff -ru` and `diff -Naur` (with `Only in` and `Binary files … differ` lines), the normal
(`diff`, `diff -r`: `3c3`, `< old`, `---`, `> new`) and context (`diff -c`, `diff -rc`:
`***************`, `*** 3,8 ****`, `--- 3,9 ----`) formats, git's extended
headers (renames, copies, mode changes, new and deleted files, binary patches) and combined
(merge) diffs.

The first of these that fits the budget is the plan:
1. the map: files named by their own first line verbatim (`diff --git a/x b/x`) with their
   `(+N −M, K hunks)`, in the order their hunks are spent, while the names take at most
   MAP_SHARE of the room; the rest rolled up by folder with their counts. Then the output's own
   lines (a history's commit subjects first, its other lines after its hunks), then hunks by
   value (value_class: release notes, source, manifests, tests, vendored code, docs, config,
   lock/generated last), file by file, the smallest change of a class first: a file's every
   hunk header, then its bodies, each whole (a release-notes body too long for that shows its
   head: the newest entries); each omitted body under a shown header is a gap marked with its
   line range. Key lines come before bodies: the version set, each source file's first
   signature, a manifest's changed lines, the lines naming what the notes name (_noted).
   A test, doc or config file's hunks wait while a file worth more shows none and still could;
   a hunk that only re-sorts or re-wraps lines (_cosmetic) is spent last;
2. every file rolled up by directory (planners/rollup.py), a single file by its own first
   line, the rest of the budget naming the first files of the biggest group, then more of the
   output's own lines.
Commit headers and lines that are no part of any file (a stat's summary, a tool's own messages)
stay first; `--stat`'s line per file, which the map repeats, comes after the hunks.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import partial

from ..patterns import lazy
from ..plan import Gap, Item, Lines, Plan, line_items
from ..render import CLOSING_MARKER_TOKENS, inline_marker
from ..tokens import Counter
from ..tools import Tool
from ..values import field, value
from .code import VERSION_MACRO
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
_CONTEXT_OLD_FILE = lazy(r"\*\*\* (?P<path>[^\t]+?)(?:\t.*)?$")
_NEW_FILE = lazy(r"\+\+\+ (?P<path>[^\t]+?)(?:\t.*)?$")
_EXTENDED = lazy(r"index [0-9a-f]+[.,]|(?:old|new|deleted file|new file) mode "
                       r"|(?:dis)?similarity index |rename (?:from|to) |copy (?:from|to) "
                       r"|Binary files ")
_HUNK = lazy(r"@@ -\d+(?:,(?P<old>\d{1,9}))? \+\d+(?:,(?P<new>\d{1,9}))? @@")
_COMBINED_HUNK = lazy(r"(?P<ats>@{3,}) (?:-\d+(?:,\d+)? )+\+\d+(?:,\d+)? (?P=ats)")
# diff's normal format: `3c3`, `5,7d4`, `9a10,12` (old lines, an action, new lines). Counts
# read by int() have at most 9 digits here: it refuses a number past 4,300.
_NORMAL_HUNK = lazy(r"(?P<o1>\d{1,9})(?:,(?P<o2>\d{1,9}))?(?P<action>[acd])"
                    r"(?P<n1>\d{1,9})(?:,(?P<n2>\d{1,9}))?$")
_NORMAL_SPLIT = "---"  # between a change's old and new lines
# diff's context format: each hunk opens with a row of stars, then each side's range
_CONTEXT_HUNK = "***************"
_CONTEXT_OLD = lazy(r"\*\*\* (?P<first>\d{1,9})(?:,(?P<last>\d{1,9}))? \*\*\*\*$")
_CONTEXT_NEW = lazy(r"--- (?P<first>\d{1,9})(?:,(?P<last>\d{1,9}))? ----$")
_BINARY_PATCH = "GIT binary patch"
_BINARY_PATCH_LINE = lazy(r"(?:(?:literal|delta) \d+|[A-Za-z][\x21-\x7e]*|)$")
_COMMIT = lazy(r"(?:commit [0-9a-f]{7,64}|From [0-9a-f]{40} )\b")
# What follows a commit line: fields, the indented message, blank lines, `--stat` lines.
_COMMIT_BODY = lazy(r"(?:Author|AuthorDate|Commit|CommitDate|Date|Merge|From|Subject):"
                    r"|\s|$")
# A patch mail: `git format-patch`'s (after its `From <hash>` line), a Debian patch's (gbp pq's
# `From:`, DEP-3's `Description:`): a header field with another on the next line. Its message
# runs to the `---` line before the patch.
_MAIL = lazy(r"(?:From|Subject|Description|Author): \S")
_FIELD = lazy(r"[A-Z][\w-]*: ")
_SENDER_FIELD = lazy(r"(?:From|Date|Author|AuthorDate|Commit|CommitDate|Merge|Subject|[\w-]*-by):")
_MAIL_END = "---"
_SUBJECT = lazy(r"(?:Subject|Description): \S")  # a mail's subject: its commit's first line
_FILE_STAT = lazy(r" .+ \| +(?:\d+ ?[+-]*|Bin .*)$")  # `--stat`'s line for one file
_STAT = lazy(r" .+ \| +(?:\d+ ?[+-]*|Bin .*)$| \d+ files? changed")
_ONE_SIDE = "only on one side"
_MINUS = "−"  # U+2212: a count reads `−3`, never a removed line `-3`
CONTEXT_SHARE = 0.3  # commit headers and stray lines get at most this share of the budget
# The files' names get at most this share of what the context leaves; the rest is for hunks (a
# map of 118 files at 30 tokens a name would take a 4000-token budget whole).
MAP_SHARE = 0.5
BODY_FOR_MARKER = 1.5  # a body that costs at most this many times its marker is shown instead
HEADERS_SHARE = 0.5  # of the room the notes and version lines leave: hunk headers by value
VERSION_FIRST_SHARE = 0.12  # of the room the map leaves: a version line that fits comes first
MANIFEST_LINES_SHARE = 0.1  # of the room the notes and version lines leave: manifests' lines
NOTES_SHARE = 1 / 3  # of the room left, for the head of release notes too long to show whole
FLOOR_SHARE = 0.25  # of the room, at most, for the folders below the one every file shares
NAMED_SHARE = 0.8  # of the map's share, when not every file fits: the rest rolls up by folder
HISTORY_SHARE = 0.5  # in a history (`git log -p`): its commits' subjects say what it is about
# A commit whose subject says less than a person's own: a merge (`Merge: a b`), or one a bot
# made (GitHub names bot accounts `name[bot]`: dependabot, pre-commit-ci, renovate).
# An added line that sets the version (`__version__ = "8.1.8"`, `VERSION = (2, 3)`,
# `"version": "1.2.0"`, `version = "26.3"`): what a release is, in one line.
_VERSION_SET = lazy(r"\+\s*[\"']?(?:__version__|version|VERSION|Version)[\"']?\s*[:=]")
_ROUTINE_HEADER = lazy(r"Merge: |Author: .*\[bot\]")
# A squashed pull request repeats its branch's subject with the request's number after it.
_PULL_REQUEST = lazy(r" \(#\d+\)$")
_TRIES = 3  # spendings tried, each setting aside what the folders' lines then cost
_FILLS = 4  # passes over the bodies, each ending with the head of one that did not fit
_MAX_MISSES = 32  # bodies tried in vain before the rest are left out untried


@value(frozen=False)
class Hunk:
    header: int  # line index of the `@@` line
    end: int  # one past the last body line
    added: int = 0
    removed: int = 0
    short: bool = False  # its header's line counts did not run out (a word diff's do not)


@value(frozen=False)
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


@value(frozen=False)
class Parsed:
    files: list[FileDiff]
    context: list[int]  # commit headers, stats, blank and stray lines: no part of any file
    strays: int  # non-blank context lines that are neither commit headers nor stats
    commits: list[int] = field(default_factory=list)  # first lines of commits and patch mails


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
    """The most stray lines that read as hunks (bodies and headers) in one run ending at a
    file."""
    longest, previous_end = 0, 0
    for f in files:
        index, run = f.start - 1, 0
        while index >= previous_end and _reads_as_hunk(rows[index]):
            run += bool(rows[index].strip())
            index -= 1
        longest = max(longest, run)
        previous_end = f.end
    return longest


def _reads_as_hunk(row: str) -> bool:
    return (row[:1] in (" ", "+", "-", "\\", "@", "", "<", ">", "!") or row == _CONTEXT_HUNK
            or bool(_NORMAL_HUNK.match(row) or _CONTEXT_OLD.match(row)))


def parse(rows: list[str]) -> Parsed:
    files: list[FileDiff] = []
    context: list[int] = []
    commits: list[int] = []
    strays = 0
    index = 0
    words = any(_word_marked(row) for row in rows)
    while index < len(rows):
        found = _file_at(rows, index, words)
        if found:
            files.append(found)
            index = found.end
            continue
        end = _commit_end(rows, index)
        if end > index + 1 or _COMMIT.match(rows[index]):
            commits.append(index)
        elif rows[index].strip() and not _STAT.match(rows[index]):
            strays += 1
        context.extend(range(index, end))
        index = end
    _name_sides(rows, files)
    return Parsed(files, context, strays, commits)


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
    """One past a commit header starting at index (index + 1 when it is not one); a patch
    mail's runs through its message and the `---` line after it."""
    row = rows[index]
    if row.startswith("From ") and _COMMIT.match(row) or _MAIL.match(row) and (
            index + 1 < len(rows) and _FIELD.match(rows[index + 1])):
        end = index + 1
        while end < len(rows) and rows[end] != _MAIL_END and not _COMMIT.match(rows[end]) and (
                _file_at(rows, end) is None):
            end += 1
        return end + (end < len(rows) and rows[end] == _MAIL_END)
    if not _COMMIT.match(row):
        return index + 1
    end = index + 1
    while end < len(rows) and _COMMIT_BODY.match(rows[end]):
        end += 1
    return end


def _file_at(rows: list[str], index: int, words: bool = False) -> FileDiff | None:
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
    elif _is_patch_header(rows, index) or _is_context_header(rows, index):
        end = index
    else:
        return None
    while end < len(rows) and _EXTENDED.match(rows[end]):
        end += 1
    if _is_patch_header(rows, end):
        path = path or _patch_path(rows[end], rows[end + 1])
        end += 2
    elif _is_context_header(rows, end):
        path = path or _context_path(rows[end], rows[end + 1])
        end += 2
    found = FileDiff(index, end, path or "", notes=_header_notes(rows[index:end]))
    while end < len(rows) and (hunk := _hunk_at(rows, end, words)):
        found.hunks.append(hunk)
        end = hunk.end
    return found


def _is_patch_header(rows: list[str], index: int) -> bool:
    return (index + 1 < len(rows) and rows[index].startswith("--- ")
            and rows[index + 1].startswith("+++ "))


def _is_context_header(rows: list[str], index: int) -> bool:
    """`diff -c`'s file header: `*** old<TAB>date`, `--- new<TAB>date`, then a hunk's stars."""
    return (index + 2 < len(rows) and rows[index].startswith("*** ")
            and rows[index + 1].startswith("--- ") and rows[index + 2] == _CONTEXT_HUNK)


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


def _context_path(old_row: str, new_row: str) -> str:
    old = _CONTEXT_OLD_FILE.match(old_row)["path"]
    new = _OLD_FILE.match(new_row)["path"]  # a context diff names its new file on the `---` line
    return old if new == "/dev/null" else new


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


def _hunk_at(rows: list[str], index: int, words: bool) -> Hunk | None:
    row = rows[index]
    if row == _BINARY_PATCH:
        end = index + 1
        while end < len(rows) and _BINARY_PATCH_LINE.match(rows[end]):
            end += 1
        return Hunk(index, end)
    if m := _HUNK.match(row):
        hunk = _counted_hunk(rows, index, int(m["old"] or 1), int(m["new"] or 1))
        return _word_diff_hunk(rows, hunk) if words else hunk
    if m := _COMBINED_HUNK.match(row):
        return _combined_hunk(rows, index, len(m["ats"]) - 1)
    if m := _NORMAL_HUNK.match(row):
        return _normal_hunk(rows, index, m)
    if row == _CONTEXT_HUNK and index + 1 < len(rows) and _CONTEXT_OLD.match(rows[index + 1]):
        return _context_hunk(rows, index + 1)
    return None


def _span(first: str, last: str | None) -> int:
    """How many lines a range names: `5,7` three, `5` one, `0` (an empty file's) none."""
    return int(last) - int(first) + 1 if last else int(first != "0")


def _normal_hunk(rows: list[str], index: int, m) -> Hunk:
    """`5,7c5,6`: the old lines (`< x`), `---`, the new ones (`> x`); `a` has no old lines, `d`
    no new ones."""
    old = 0 if m["action"] == "a" else _span(m["o1"], m["o2"])
    new = 0 if m["action"] == "d" else _span(m["n1"], m["n2"])
    end, removed = _side(rows, index + 1, old, "<")
    if old and new and end < len(rows) and rows[end] == _NORMAL_SPLIT:
        end += 1
    end, added = _side(rows, end, new, ">")
    return Hunk(index, end, added, removed)


def _side(rows: list[str], index: int, count: int, marks: str,
          changed: str = "") -> tuple[int, int]:
    """One past up to `count` lines from index that start with one of `marks` (and the
    `\\ No newline at end of file` notes among them), and how many start with one of `changed`
    (all of them when `changed` is empty)."""
    end, seen, hits = index, 0, 0
    while end < len(rows) and seen < count:
        mark = rows[end][:1] or " "  # some tools strip a blank context line's space
        if mark == "\\":
            end += 1
            continue
        if mark not in marks:
            break
        hits += mark in (changed or marks)
        seen += 1
        end += 1
    if end < len(rows) and rows[end].startswith("\\"):
        end += 1
    return end, hits


def _context_hunk(rows: list[str], index: int) -> Hunk:
    """From `*** 3,8 ****` (after the stars): the old side's lines (`  `, `- `, `! `), printed
    only when it has changes, then `--- 3,9 ----` and the new side's (`  `, `+ `, `! `), printed
    only when it has additions."""
    first = _CONTEXT_OLD.match(rows[index])
    end, removed = index + 1, 0
    if end < len(rows) and not _CONTEXT_NEW.match(rows[end]):
        end, removed = _side(rows, end, _span(first["first"], first["last"]), " -!", "-!")
    added = 0
    if end < len(rows) and (second := _CONTEXT_NEW.match(rows[end])):
        end += 1
        if end < len(rows) and rows[end] != _CONTEXT_HUNK:
            end, added = _side(rows, end, _span(second["first"], second["last"]), " +!", "+!")
    return Hunk(index, end, added, removed)


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
            hunk.short = True
            break
        end += 1
    if end < len(rows) and rows[end].startswith("\\"):
        end += 1  # `\ No newline at end of file` after the last line
    hunk.end = end
    return hunk


def _word_marked(row: str) -> bool:
    """`git diff --word-diff`'s marks: `{+added+}`, `[-removed-]`."""
    return "{+" in row and "+}" in row or "[-" in row and "-]" in row


def _word_diff_hunk(rows: list[str], counted: Hunk) -> Hunk:
    """In an output with `git diff --word-diff`'s marks, a hunk's lines carry `[-removed-]`
    and `{+added+}` inside them, with no +/- column: counted, its body changes no line or
    stops short. Then its body runs to the next hunk, file or commit: lines with `{+` count as
    added, with `[-` as removed."""
    if not counted.short and (counted.added or counted.removed):  # a unified hunk's
        return counted
    end = counted.end
    while end < len(rows) and not _stops_a_body(rows, end):
        end += 1
    body = rows[counted.header + 1:end]
    return Hunk(counted.header, end, sum("{+" in row for row in body),
                sum("[-" in row for row in body))


def _stops_a_body(rows: list[str], index: int) -> bool:
    row = rows[index]
    return (row.startswith(("@@", "diff ", "Only in ", "Binary files ")) or bool(_COMMIT.match(row))
            or _is_patch_header(rows, index))


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


# What a file's change is worth to a reader, best first: the release notes (the change in its
# authors' words, a line or two per entry), the source the change is about, the manifests that
# carry its version and dependencies, its tests, code copied in from another project (vendored:
# written by people and shipped, so read before docs, but not this change's own), its docs, CI
# and tool config, then lock files, generated, installed and binary files.
NOTES, SOURCE, MANIFEST, TESTS, VENDORED, DOCS, CONFIG, LOCKED = range(8)
_NOTES_NAME = lazy(r"(?:changes|changelog|history|news|release[-_ ]?notes)(?:\.(?:md|rst|txt|adoc|markdown))?$")
_GENERATED = lazy(r".*(?:\.lock|\.min\.(?:js|css)|\.map|\.snap|\.svg|_pb2\.pyi?|\.pb\.go"
                        r"|\.generated\.\w+|\.g\.dart)$")
_VENDOR_FOLDERS = frozenset({"vendor", "_vendor", "vendored", "third_party"})
_MACHINE_FOLDERS = frozenset({"node_modules", "dist",
                              "__snapshots__"})
_MADE_METADATA = ("pkg-info", ".egg-info", ".dist-info")  # what setuptools writes into an sdist
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
    """Which of NOTES … LOCKED a changed file is, told by its path (and a binary patch)."""
    parts = [part.lower() for part in split(path)] or [""]
    name = parts[-1]
    folders = set(parts[:-1])
    if ("binary" in notes or name in LOCKS or _GENERATED.match(name) or folders & _MACHINE_FOLDERS
            or any(part.endswith(_MADE_METADATA) for part in parts)):
        return LOCKED
    if folders & _VENDOR_FOLDERS:
        return VENDORED
    if _PINS in folders:
        return LOCKED if name.endswith(".txt") else CONFIG
    if parts[0].startswith(".") or folders & {"ci", ".github", ".circleci"}:
        return CONFIG
    if folders & _TEST_FOLDERS or _TEST_NAME.match(name):
        return TESTS
    if _NOTES_NAME.match(name):
        return NOTES
    if name in _MANIFESTS and not folders & _DOC_FOLDERS:  # (CMakeLists.txt is no doc)
        return MANIFEST
    if folders & _DOC_FOLDERS or _DOC_NAME.match(name):
        return DOCS
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
    return _by_value(job) or _rolled_up(job)


@value(frozen=False)
class _Job:
    rows: list[str]  # as printed (a numbered listing keeps its numbers)
    plain: list[str]  # the rows without their numbers
    lines: Lines
    parsed: Parsed  # of the rows without their numbers
    costs: LineCosts
    room: int
    context: list[int] = field(init=False)  # the output's own lines the context share keeps
    commits: list[int] = field(init=False)
    trees: tuple[str, str] | None = field(init=False)  # `diff -r OLD NEW`'s two folders
    # `git log -p`'s `commit <hash>` lines: they name its commits (a patch mail's `From <hash>`
    # line is a fixed date after it; its subject, ranked, names it).
    hashes: list[int] = field(init=False)
    # `--stat`'s line per file: the map says the same (the file, its counts), so these come
    # after the hunks, with what is left.
    stats: frozenset[int] = field(init=False)
    worth: list[int] = field(init=False)  # the files in the order their hunks are spent
    classes: list[int] = field(init=False)  # each file's value_class
    # the headers of hunks that only move or re-wrap what they touch (_cosmetic)
    cosmetic: frozenset[int] = field(init=False)
    noted: frozenset[str] = field(init=False)  # the names the notes and messages give (_noted)
    header_costs: dict[int, int] = field(init=False)  # a file -> _least_show's, but its name
    hunk_costs: dict[int, int] = field(init=False)  # a hunk's header line -> _header_cost's
    ranked: list[int] = field(init=False)  # the output's own lines by value, but the stats

    def __post_init__(self) -> None:
        # The output's own lines around the diff, in order, its last line first (black's
        # "7 files would be reformatted."): kept whenever it fits. `git log -p`'s commit lines
        # belong to the map.
        self.commits = self.parsed.commits
        self.trees = next((_trees(m["old"], m["new"]) for f in self.parsed.files
                           if (m := _DIFF_COMMAND.match(self.plain[f.start]))), None)
        self.hashes = [i for i in self.commits if self.plain[i].startswith("commit ")]
        self.stats = frozenset(i for i in self.parsed.context if _FILE_STAT.match(self.plain[i]))
        self.classes = [value_class(f.path, f.notes) for f in self.parsed.files]
        self.header_costs = {}
        self.hunk_costs = {}
        self.cosmetic = frozenset(h.header for f in self.parsed.files for h in f.hunks
                                  if _cosmetic(self.plain, h))
        said = [i for n, f in enumerate(self.parsed.files) if self.classes[n] == NOTES
                for h in f.hunks for i in range(h.header + 1, h.end)
                if self.plain[i][:1] in "+>!"]
        self.noted = _noted(self.plain, said + [i for i in self.parsed.context
                                                 if i not in self.stats])
        self.worth = _by_worth(self.parsed.files, self._bumps())
        self.ranked, heads = self._ranked()
        if len(self.commits) > 1:
            # a history's subjects and commit lines in its share; its messages' other lines
            # only in what they leave of the context's (the rest comes after the hunks)
            first = fit_in_order(self.ranked[:heads], int(self.room * HISTORY_SHARE),
                                 self.costs)
            left = int(self.room * CONTEXT_SHARE) - sum(self.costs.line(i) for i in first)
            rest = fit_in_order(self.ranked[heads:], left, self.costs) if left > 0 else []
            self.context = sorted(first + rest)
        else:
            self.context = sorted(fit_in_order(self.ranked, int(self.room * CONTEXT_SHARE),
                                               self.costs))

    def _bumps(self) -> set[int]:
        """The files whose hunks set a version."""
        return {n for n, f in enumerate(self.parsed.files)
                if any(_VERSION_SET.match(self.plain[i]) for h in f.hunks
                       for i in range(h.header + 1, h.end))}

    def _ranked(self) -> tuple[list[int], int]:
        """The output's own lines by value: its last line, the first commit's line, every
        commit's subject (the first line of its message: a history read at a glance) — a
        person's before a bot's, a merge's or a repeat's — the commit lines, then the rest in
        order."""
        context = self.parsed.context
        last = [i for i in context[-1:] if i == len(self.rows) - 1]
        own = set(context)
        subjects, routine, seen = [], [], set()
        bots: list[int] = []  # the first lines of commits a bot or a merge made
        for commit in self.commits:
            subject = next((i for i in range(commit, min(commit + 8, len(self.plain)))
                            if i in own and (self.plain[i].startswith("    ")
                                             and self.plain[i].strip()
                                             or _SUBJECT.match(self.plain[i]))), None)
            if subject is None:
                continue
            said = _PULL_REQUEST.sub("", self.plain[subject].strip())
            header = self.plain[commit + 1:subject]
            made = any(_ROUTINE_HEADER.match(row) for row in header)
            if made:
                bots.append(commit)
            if said in seen or made:
                routine.append(subject)
            else:
                subjects.append(subject)
                seen.add(said)
        # a bot's or a merge's message (a dependency bump's changelog, pre-commit's list of
        # hooks) after every other commit's
        made_by = [bisect_right(self.commits, i) - 1 for i in context]
        bot_lines = {i for i, at in zip(context, made_by) if at >= 0 and self.commits[at] in bots}
        # a patch's own header fields (a Debian patch's `Bug:`, `Origin:`, `Forwarded:`: what
        # it fixes and where it comes from), not who sent it or when
        fields = [i for i in context if i not in bot_lines and _FIELD.match(self.plain[i])
                  and not _SENDER_FIELD.match(self.plain[i])]
        heads = list(dict.fromkeys(last + self.commits[:1] + subjects + routine + self.hashes
                                   + fields))
        chosen = set(heads)
        return heads + [i for i in context if i not in self.stats and i not in chosen and (
            i not in bot_lines)] + [i for i in context if i in bot_lines and i not in self.stats
                                    and i not in chosen], len(heads)


def _cosmetic(rows: list[str], hunk: Hunk) -> bool:
    """A hunk whose removed lines and added lines hold the same characters, spaces aside:
    imports re-sorted, a call re-wrapped, lines re-indented or moved. It changes no behaviour a
    reviewer looks for: its body comes after every other of its class, and no key line is read
    in it."""
    if not hunk.added or not hunk.removed or hunk.added + hunk.removed > _COSMETIC_LINES:
        return False
    old, new = [], []
    for i in range(hunk.header + 1, hunk.end):
        row = rows[i]
        if row[:1] == "-":
            old.append(row[1:])
        elif row[:1] == "+":
            new.append(row[1:])
    if not old or not new:
        return False
    return sorted("".join(old).replace(" ", "").replace("\t", "")) == sorted(
        "".join(new).replace(" ", "").replace("\t", ""))


_COSMETIC_LINES = 400  # changed lines past which a hunk is not compared


def _counts(f: FileDiff) -> str:
    return f"+{f.added:,} {_MINUS}{f.removed:,}"


def _hunks(count: int) -> str:
    return f"{count:,} hunk" + ("" if count == 1 else "s")


def _name_lines(job: _Job, f: FileDiff) -> list[int]:
    """The lines that name a file: its first (`diff --git a/x b/x`, `diff -ru A B`, `Only in`),
    or the `--- `/`+++ ` pair of a plain `diff -u`."""
    pair = f.header_end - f.start >= 2 and (_is_patch_header(job.plain, f.start)
                                             or _is_context_header(job.plain, f.start))
    return [f.start, f.start + 1] if pair else [f.start]


def _by_value(job: _Job) -> Plan | None:
    """The map first: files named by their own first line (`diff --git a/x b/x`) with their
    counts after it, the rest counted in their folders' lines (room for those is set aside
    first), then the output's own lines, then hunks by value (_spend), each file whose hunks
    are shown named; each omitted body under a shown header is a gap of its own."""
    mapped = _map(job)
    if mapped is None:
        return None
    mapped_kept, mapped_used, mapped_named, reserve = mapped
    history = len(job.commits) > 1
    files = job.parsed.files
    for _ in range(_TRIES):
        kept, used, named = dict(mapped_kept), mapped_used, set(mapped_named)
        # The output's own lines the context share left out (black's "would reformat"
        # verdicts) come next: the tool's own words about its diff; a history's (its commits'
        # messages, stats and mail headers) after its hunks, its subjects being in the share.
        if not history:
            used += _more_own_lines(job, kept, job.room - reserve - used, but=job.stats)
        shown: set[int] = set()
        used = _spend(job, kept, used, named, shown, job.room - reserve)
        notes, counted = _counted_by_folder(job, named, reserve)
        if used + counted <= job.room:
            break
        reserve = counted  # the folders of the files left cost more than set aside: again
    else:
        return None
    used += counted
    # `--stat`'s lines say what the map says: none while a hunk goes unshown
    unshown = any(h.header not in kept for f in files for h in f.hunks)
    _more_own_lines(job, kept, job.room - used, but=job.stats if unshown else frozenset())
    kept = dict(sorted(kept.items()))
    marks = partial(_marked_gap, job, _shown_hunks(files, shown))
    items = line_items(job.lines, kept, marks, notes)
    omitted = len(job.rows) - len(kept)
    silent = omitted - sum(i.last_line - i.first_line + 1 for i in items if isinstance(i, Gap))
    summary = _value_summary(job, kept, shown, named) if silent else ""
    return Plan("diff", tuple(items), len(job.rows), omitted, summary=summary,
                regap=partial(_gap, job))


def _counted_by_folder(job: _Job, named: set[int], room: int) -> tuple[dict[int, list[str]], int]:
    """The files not named, rolled up by folder (planners/rollup.py) into `room` where they
    can be: each line as a note at its first file's line, and what they cost."""
    files = job.parsed.files
    rest = [n for n in range(len(files)) if n not in named]
    notes: dict[int, list[str]] = {}
    if not rest:
        return notes, 0
    keys = [_tree_key(job, files[n].path) for n in rest]
    label = lambda key, members: _group_line(job, key, [files[rest[i]] for i in members])
    entries = roll_up(keys, label, job.costs.note, room)
    entries = _floored(job, keys, entries, label, max(room, int(job.room * FLOOR_SHARE)))
    for entry, members in entries:
        notes.setdefault(files[rest[members[0]]].start, []).append(entry)
    return notes, sum(job.costs.note(entry) for entry, _ in entries)


def _tree_key(job: _Job, path: str) -> str:
    """A path's key for folder counts: `diff -r OLD NEW` counts a file only in OLD in NEW's
    folders (one tree, as git's a/ and b/ are one)."""
    key = _key(path)
    if job.trees and key.startswith(job.trees[0] + "/"):
        return job.trees[1] + key[len(job.trees[0]):]
    return key


def _floored(job: _Job, keys: list[str], entries: list[tuple[str, list[int]]], label,
             room: int) -> list[tuple[str, list[int]]]:
    """A roll-up that went up to the folder every file shares (`click-8.1.8/ (44 files…)`,
    `./`) says no more than the summary: then the first level below it instead, each folder
    with its counts and each file there by name, when that fits in `room`."""
    common = _folder_of(keys)
    depth = len(split(common))
    if not any(len(members) > 1 and len(split(_folder_of([keys[i] for i in members]))) <= depth
               for _, members in entries):
        return entries
    groups: dict[str, list[int]] = {}
    for i, key in enumerate(keys):
        parts = split(key)
        groups.setdefault("/".join(parts[:depth + 1]) + "/" if len(parts) > depth + 1 else key,
                          []).append(i)
    floor = [(label(key, members), members) for key, members in groups.items()]
    if not any(key.endswith("/") for key in groups) or sum(  # (no folder below it)
            job.costs.note(entry) for entry, _ in floor) > room:
        return entries
    return sorted(floor, key=lambda entry: entry[1][0])


def _more_own_lines(job: _Job, kept: dict[int, str], room: int,
                    but: frozenset[int] = frozenset()) -> int:
    """The output's own lines not kept yet (nor in `but`), in order, into `kept`, while they fit
    in `room`: their cost."""
    more = fit_in_order([i for i in job.parsed.context if i not in kept and i not in but], room,
                        job.costs)
    kept.update(dict.fromkeys(more, ""))
    return sum(job.costs.line(i) for i in more)


def _map(job: _Job) -> tuple[dict[int, str], int, set[int], int] | None:
    """The kept lines (index -> suffix), what they cost, the files named and the room set
    aside to count the others in their folders' lines: the context share, `git log -p`'s
    commit lines, then files by their own first lines, those without hunks first (their names
    are all they say), then in the order their hunks are spent (_by_worth), while the names
    take at most MAP_SHARE of the room. None when even that does not fit."""
    kept: dict[int, str] = dict.fromkeys(sorted({*job.context, *job.hashes}), "")
    used = sum(job.costs.line(i) for i in kept)
    files = job.parsed.files
    end = used + max(job.room - used, 0) * MAP_SHARE  # where the map's share ends
    # (in a class, the biggest change first: the files a change is about, when not all fit;
    # binary, lock and generated files by their class, after every other, hunks or none)
    costs = {n: _name_cost(job, files[n]) for n in sorted(job.worth, key=lambda n: (
        bool(files[n].hunks) or job.classes[n] == LOCKED, job.classes[n],
        -files[n].added - files[n].removed))}
    everything = used + sum(costs.values()) <= end
    limit = used + (end - used) * NAMED_SHARE  # the rest of the share counts folders' files
    named: set[int] = set()
    for n, cost in costs.items():
        if not everything and used + cost > limit:
            break
        _name(job, kept, files[n])
        named.add(n)
        used += cost
    reserve = _counted_by_folder(job, named, int(end - used))[1]
    if used + reserve > job.room:
        return None
    return kept, used, named, reserve


def _name(job: _Job, kept: dict[int, str], f: FileDiff) -> None:
    """A file named by its own first line(s), its details after it."""
    lines = _name_lines(job, f)
    kept.update(dict.fromkeys(lines, ""))
    kept[lines[-1]] = f"  ({_details(f)})"


def _name_cost(job: _Job, f: FileDiff) -> int:
    lines = _name_lines(job, f)
    return sum(job.costs.line(i) for i in lines[:-1]) + job.costs.line(
        lines[-1], f"  ({_details(f)})")


def _by_worth(files: list[FileDiff], bumps: set[int]) -> list[int]:
    """Files by value (value_class); in a class those that set a version first (what a release
    is, in a line), then the smallest change (a small fix before a rewrite takes the room;
    changed files before new ones, deleted ones last)."""
    return sorted(range(len(files)), key=lambda n: (
        value_class(files[n].path, files[n].notes), n not in bumps, _fate(files[n]),
        files[n].added + files[n].removed, n))


def _spend(job: _Job, kept: dict[int, str], used: int, named: set[int], shown: set[int],
           room: int) -> int:
    """Hunks by value (_by_worth), into `kept` within `room`, in passes: the release notes
    (headers, then bodies whole or their head); the lines that set a version; the hunk headers
    of files by value, all of a file's or none, in at most HEADERS_SHARE of the room left (a
    header names the function its hunk changes); the changed lines a reviewer reads first
    (signatures, error handling, exports: _key_lines); then bodies whole, file by file
    (_bodies); then, in what is left, the other headers of the files shown, in order. An
    omitted run under a shown header costs its marker. The files shown go into
    `shown` (and `named`); returns what is used then."""
    files = job.parsed.files
    # When every body of the source and manifests fits whole, file by file, that is the plan.
    whole = _Spent(job, dict(kept), set(named), set(shown), {}, {}, used)
    _bodies(whole, job.worth, room)
    if all(i in whole.kept for f in files if value_class(f.path, f.notes) <= MANIFEST
           for h in f.hunks for i in range(h.header, h.end)):
        kept.update(whole.kept)
        named.update(whole.named)
        shown.update(whole.shown)
        return whole.used
    marks: dict[int, int] = {}  # a kept hunk header -> its body's markers, as counted in used
    inner: dict[int, list[int]] = {}  # a kept hunk header -> the body lines kept, in order
    spent = _Spent(job, kept, named, shown, marks, inner, used)
    notes = [n for n in job.worth if value_class(files[n].path, files[n].notes) == NOTES]
    # what the release is, in a line: before its notes when that line costs little of the room
    _key_lines(spent, int(spent.used + max(room - spent.used, 0) * VERSION_FIRST_SHARE),
               (_VERSION_TIER,))
    _bodies(spent, notes, room)
    _key_lines(spent, room, (_VERSION_TIER,))
    _key_lines(spent, room, (_SIGNATURE_TIER,), depths=1)  # each source file's first
    if job.noted:  # where the code does what the notes say: each source file's first
        _key_lines(spent, room, (_NOTED_TIER,), depths=1)
    # a manifest's changed lines (its dependencies, the language version it needs, its entry
    # points: what a user of the release meets first), in a share of the room
    _key_lines(spent, int(spent.used + max(room - spent.used, 0) * MANIFEST_LINES_SHARE),
               (_MANIFEST_TIER,))
    _key_lines(spent, room, (*_KEY_TIERS, _NOTED_TIER) if job.noted else _KEY_TIERS)
    _headers(spent, int(spent.used + max(room - spent.used, 0) * HEADERS_SHARE), room)
    for cosmetic in (False, True):  # a body that only moves or re-wraps lines comes last
        for _ in range(_FILLS):  # each pass gives what is left to the head of one more body
            before = spent.used
            _bodies(spent, [n for n in job.worth if n not in notes], room, cosmetic)
            if spent.used == before:
                break
    # what is left names the other hunks of the files shown, in order, as far as it goes: a
    # header more is worth more than room unspent
    for n in job.worth:
        f = files[n]
        if n in spent.shown and not _whole_file(f):
            for hunk in f.hunks:
                if hunk.header not in spent.kept and spent.used + _header_cost(job, hunk) <= room:
                    _show_header(spent, n, hunk)
    return spent.used


@value(frozen=False)
class _Spent:
    job: _Job
    kept: dict[int, str]
    named: set[int]
    shown: set[int]
    marks: dict[int, int]
    inner: dict[int, list[int]]
    used: int


def _body_marks(job: _Job, hunk: Hunk, inner: list[int]) -> int:
    """What the markers of a hunk's omitted body runs cost, `inner` (sorted) kept."""
    cost, cursor = 0, hunk.header + 1
    for index in [*inner, hunk.end]:
        if index > cursor:
            cost += _marker_cost(job, cursor, index - 1)
        cursor = index + 1
    return cost


def _display(job: _Job, hunk: Hunk, inner: list[int]) -> tuple[list[int], int]:
    """A shown hunk's body with `inner` (sorted) kept: those lines and each omitted run
    whose lines cost at most BODY_FOR_MARKER times its marker (then shown instead of it),
    and what the lines and the markers left cost."""
    shown, cost, cursor = [], 0, hunk.header + 1
    for index in [*inner, hunk.end]:
        if index > cursor:
            run = range(cursor, index)
            lines = sum(job.costs.line(i) for i in run)
            marker = _marker_cost(job, cursor, index - 1)
            if lines <= marker * BODY_FOR_MARKER:
                shown.extend(run)
                cost += lines
            else:
                cost += marker
        if index < hunk.end and (not shown or shown[-1] != index):
            shown.append(index)
            cost += job.costs.line(index)
        cursor = max(cursor, index + 1)
    return shown, cost


def _header_cost(job: _Job, hunk: Hunk) -> int:
    """A hunk header shown (_show_header): with its body's marker, or its body if that costs
    little more."""
    cost = job.hunk_costs.get(hunk.header)
    if cost is None:
        cost = job.hunk_costs[hunk.header] = job.costs.line(hunk.header) + _display(
            job, hunk, [])[1]
    return cost


def _show_header(spent: _Spent, n: int, hunk: Hunk) -> None:
    """Keep a hunk's header (its body under a marker, or shown when that costs little more:
    counted) and its file's name. `marks` holds what the body's display costs."""
    job = spent.job
    spent.kept[hunk.header] = ""
    spent.inner[hunk.header], spent.marks[hunk.header] = _display(job, hunk, [])
    spent.kept.update(dict.fromkeys(spent.inner[hunk.header], ""))
    spent.used += job.costs.line(hunk.header) + spent.marks[hunk.header]
    if n not in spent.named:
        spent.used += _name_cost(job, job.parsed.files[n])
        _name_once(job, spent.kept, spent.named, n)
    spent.shown.add(n)


def _waits(spent: _Spent, n: int, room: int) -> bool:
    """A test, doc, config or lock file's hunks wait while a file worth more (its source, a
    manifest, other tests before docs…) has hunks and none of them shown, and could still show
    them in `room`: a reviewer reads the change before its tests, and never a test while a
    changed source file shows no hunk. (A deleted file is not waited for: the map says it is
    gone; nor one whose headers no longer fit: its hunks cannot be shown, and the room left
    goes to the next class.)"""
    job = spent.job
    files = job.parsed.files
    worth = job.classes[n]
    if worth < TESTS:
        return False
    for m in job.worth:
        f = files[m]
        if job.classes[m] >= worth:
            return False
        if f.hunks and "deleted" not in f.notes and not any(
                h.header in spent.kept for h in f.hunks) and (
                spent.used + _least_show(spent, m) <= room):
            return True
    return False


def _least_show(spent: _Spent, n: int) -> int:
    """What showing a file's hunks costs at least: its name (when not named yet) and every
    hunk header with its body's marker (a new file's head is shown so)."""
    job = spent.job
    f = job.parsed.files[n]
    if n not in job.header_costs:
        job.header_costs[n] = sum(_header_cost(job, h) for h in f.hunks)
    return job.header_costs[n] + (0 if n in spent.named else _name_cost(job, f))


def _headers(spent: _Spent, limit: int, room: int) -> None:
    """Every hunk header of each file by value (all of a file's or none), within `limit`."""
    job = spent.job
    # files shown in part (a key line's hunk) first: each is then shown whole
    for n in sorted(job.worth, key=lambda n: n not in spent.shown):
        f = job.parsed.files[n]
        if _whole_file(f) or not f.hunks or value_class(f.path, f.notes) == LOCKED or (
                _waits(spent, n, room)):
            continue
        _show_headers(spent, n, limit)


def _show_headers(spent: _Spent, n: int, limit: int) -> None:
    """A file's hunk headers not shown yet: all of them when they fit within `limit`, or none."""
    job = spent.job
    f = job.parsed.files[n]
    new = [h for h in f.hunks if h.header not in spent.kept]
    cost = (0 if n in spent.named else _name_cost(job, f)) + sum(
        _header_cost(job, h) for h in new)
    if new and spent.used + cost <= limit:
        for h in new:
            _show_header(spent, n, h)


# The changed lines a reviewer reads first, by tier: one that sets a version; a signature
# (def, class, fn, func, struct, impl, …: an API changed); error handling (raise, except,
# throw, catch, panic, an error or exception named); imports and exports. Read after the
# change mark (`+`, `-`, `>`, `<`, `!`, a merge's two columns).
_VERSION_TIER, _SIGNATURE_TIER, _ERROR_TIER, _EXPORT_TIER, _MANIFEST_TIER, _NOTED_TIER = range(6)
_KEY_TIERS = (_SIGNATURE_TIER, _ERROR_TIER, _EXPORT_TIER)
_CHANGED = lazy(r"(?:[+\-<>!]|[ +\-][+\-])(?!\+\+ |-- )")
_ADDED = lazy(r"[+>!]|[ +][+]")
_KEY_VERSION = lazy(r"[+>! ]{0,2}\s*(?:[\"']?(?:__version__|version|VERSION|Version)\w*[\"']?"
                    rf"\s*[:=].*\d+[.,]\s*\d|{VERSION_MACRO})")
_KEY_SIGNATURE = lazy(
    r"[+\-<>! ]{1,2}\s*(?:(?:pub(?:\([\w:]+\))?|export|public|private|protected|internal"
    r"|static|async|default|abstract|final|override|unsafe|extern|virtual|inline|open|sealed)"
    r"\s+)*(?:def|class|fn|func|function|struct|enum|trait|interface|type|impl|module|record"
    r"|union|macro_rules!)\b")
_KEY_ERROR = lazy(r"[+\-<>! ]{1,2}.*\b(?:raise|except|throw|throws|catch|panic!?|bail!"
                  r"|Errorf|errors\.New|\w*(?:Error|Exception|Warning))\b")
_KEY_EXPORT = lazy(r"[+\-<>! ]{1,2}\s*(?:from\s+\S+\s+import\s|import\s|export\s|pub\s+use\s"
                   r"|module\.exports|__all__|#\s*include\s|require\()")
# A version set or a signature changed is shown with its own hunk's header when all of its
# file's do not fit (a file of 15 hunks would otherwise hide its new API).
_ALONE_TIERS = (_VERSION_TIER, _SIGNATURE_TIER, _MANIFEST_TIER, _NOTED_TIER)
# The names a change's own words give in code spans (`--ignore-contain`, ``TOMLDecodeError``,
# `parse_float`) or as a command's option: compound names only (snake_case, kebab-case,
# camelCase, a digit in a word), a plain word names too much. Read without case, `-` or `_`.
_CODE_SPAN = lazy(r"`+([^`]+)`+")
_OPTION = lazy(r"(?<![\w-])--[a-z][\w-]+")
_NAME = lazy(r"[A-Za-z_][\w-]*\w")
_COMPOUND = lazy(r"\w+[_-]\w|.*[a-z][A-Z]|.*[A-Za-z]\d|\d[A-Za-z]")
_NOTED_MIN = 5  # characters a noted name has at least
_KEYS = {_SIGNATURE_TIER: _KEY_SIGNATURE, _ERROR_TIER: _KEY_ERROR, _EXPORT_TIER: _KEY_EXPORT}


def _key_indexes(job: _Job, hunk: Hunk, tier: int) -> list[int]:
    rows = job.plain
    body = range(hunk.header + 1, hunk.end)
    if tier == _VERSION_TIER:  # the last added line of a hunk that sets a version (a
        # context diff's `!` lines show the old side first)
        found = [i for i in body if (_ADDED.match(rows[i]) or "{+" in rows[i])
                 and _KEY_VERSION.match(rows[i])]
        return found[-1:]
    if hunk.header in job.cosmetic:
        return []
    if tier == _NOTED_TIER:  # a changed line naming what the notes or messages name
        return [i for i in body if _CHANGED.match(rows[i]) and any(
            _plain_name(name) in job.noted for name in _NAME.findall(rows[i][1:]))]
    if tier == _MANIFEST_TIER:  # a manifest's every changed line: a dependency, a requirement
        return [i for i in body if _CHANGED.match(rows[i]) and rows[i][1:].strip()
                and not rows[i][1:].lstrip().startswith("#")]
    pattern = _KEYS[tier]
    if rows[hunk.header].startswith("@@@"):  # a merge's: the lines its resolution wrote
        return [i for i in body if rows[i][:1] in "+-" and rows[i][1:2] in "+-"
                and pattern.match(rows[i])]
    return [i for i in body if _CHANGED.match(rows[i]) and pattern.match(rows[i])]


def _plain_name(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def _noted(rows: list[str], lines: list[int]) -> frozenset[str]:
    """The compound names `lines` (release notes, commit messages) give in code spans or as
    options, read without case, `-` or `_`."""
    names: set[str] = set()
    for i in lines:
        row = rows[i]
        if "`" not in row and "--" not in row:
            continue
        found = [m.group() for m in _OPTION.finditer(row)]
        for span in _CODE_SPAN.findall(row):
            found.extend(_NAME.findall(span))
        for name in found:
            name = name.lstrip("-")
            if len(name) >= _NOTED_MIN and _COMPOUND.match(name):
                names.add(_plain_name(name))
    return frozenset(names)


def _key_lines(spent: _Spent, room: int, tiers: tuple[int, ...], depths: int = 0) -> None:
    """The key changed lines of each tier, breadth first: each file's first (files by value),
    then each file's second, and so on (a lock or generated file has none; a version is read
    only in the source, release notes and manifests), each with its hunk's header and its
    file's name, while they fit."""
    job = spent.job
    files = job.parsed.files
    for tier in tiers:
        found = []
        for n in job.worth:
            worth = value_class(files[n].path, files[n].notes)
            if worth == NOTES or worth > MANIFEST or (  # (tests and docs after the source)
                    "deleted" in files[n].notes) or (  # (the map says a deleted file is gone)
                    tier == _MANIFEST_TIER and worth != MANIFEST):
                continue
            keys = [(hunk, i) for hunk in files[n].hunks for i in _key_indexes(job, hunk, tier)]
            if keys:
                found.append((n, keys))
        if tier == _VERSION_TIER:
            found = _newest_per_path(job, found)
        depth = 0
        while found:
            for n, keys in found:
                if room - spent.used < _MIN_KEY_ROOM:
                    return
                hunk, i = keys[depth]
                if i not in spent.kept and tier not in _ALONE_TIERS:
                    _add_key(spent, n, hunk, i, room)
                if i not in spent.kept and tier in _ALONE_TIERS:
                    _add_key(spent, n, hunk, i, room, alone=True)
            depth += 1
            found = [(n, keys) for n, keys in found if len(keys) > depth
                     and depth != depths]


_MIN_KEY_ROOM = 8  # tokens below which no key line is tried


def _newest_per_path(job: _Job, found: list) -> list:
    """A history that bumps a version release after release: the newest bump of each file
    says where it stands (the first in `git log -p`, newest first; the last of a series of
    patch mails, oldest first)."""
    files = job.parsed.files
    mails = any(job.plain[i].startswith("From ") for i in job.commits)
    chosen: dict[str, int] = {}
    for n, _ in found:
        path = files[n].path
        if path not in chosen or (files[n].start > files[chosen[path]].start) == mails:
            chosen[path] = n
    keep = set(chosen.values())
    return [(n, keys) for n, keys in found if n in keep]


def _add_key(spent: _Spent, n: int, hunk: Hunk, index: int, room: int,
             alone: bool = False) -> None:
    """Keep a key line (the markers of its hunk's omitted runs counted) when it fits: in a
    file not shown yet, with every hunk header of the file, or, `alone` (_ALONE_TIERS), with
    its own hunk's header only."""
    job = spent.job
    f = job.parsed.files[n]
    if hunk.header not in spent.kept:
        new = [h for h in (f.hunks if n not in spent.shown and not alone else [hunk])
               if h.header not in spent.kept]
        cost = (0 if n in spent.named else _name_cost(job, f)) + sum(
            _header_cost(job, h) for h in new)
        line = _display(job, hunk, [index])[1] - _display(job, hunk, [])[1]
        if spent.used + cost + max(line, 0) > room:
            return
        for h in new:
            _show_header(spent, n, h)
    if index in spent.kept:  # (a small body, shown whole with its header)
        return
    inner, display = _display(job, hunk, sorted([*spent.inner[hunk.header], index]))
    cost = display - spent.marks[hunk.header]
    if spent.used + cost > room:
        return
    spent.kept.update(dict.fromkeys(inner, ""))
    spent.inner[hunk.header] = inner
    spent.used += cost
    spent.marks[hunk.header] = display


def _bodies(spent: _Spent, order: list[int], room: int, cosmetic: bool = True) -> None:
    """Bodies whole, file by file in `order`: a file whose headers are not all shown yet shows
    the others first (all of them or none, and then no body for them: a new or deleted file's
    one hunk comes with its header); a body's lines already kept (key lines) cost nothing
    again. What is left goes to the head of the first body that did not fit; a release-notes
    body too long shows its head (_notes_head)."""
    job, kept, named, shown = spent.job, spent.kept, spent.named, spent.shown
    files = job.parsed.files
    skipped: list[int] = []
    skipped_file, skipped_marker = -1, 0
    misses = 0
    for n in order:
        f = files[n]
        if _waits(spent, n, room):
            continue
        if not _whole_file(f):
            _show_headers(spent, n, room)
        name = 0 if n in named else _name_cost(job, f)
        for hunk in (h for h in f.hunks if h.end > h.header + 1):
            alone = hunk.header not in kept  # a new or deleted file's one hunk: its header comes too
            if alone and not _whole_file(f) or misses > _MAX_MISSES:
                continue  # past the misses, counting bodies that cannot fit costs more than it prints
            if not cosmetic and hunk.header in job.cosmetic:
                continue  # (in the last pass)
            body = list(range(hunk.header + 1 - alone, hunk.end))
            rest = [i for i in body if i not in kept]
            if not rest or not alone and hunk.header not in spent.marks:
                continue  # (all shown, or a whole file's head shown with its header)
            marker = -name if alone else spent.marks[hunk.header]
            left = room - spent.used + marker
            if len(body) <= left and len(fit_in_order(body, left, job.costs)) == len(body):
                kept.update(dict.fromkeys(rest, ""))
                spent.used += sum(job.costs.line(i) for i in body) - marker
                if not alone:
                    spent.marks[hunk.header] = sum(job.costs.line(i) for i in body)
                    spent.inner[hunk.header] = body
                shown.add(n)
                _name_once(job, kept, named, n)
                continue
            if not alone and value_class(f.path, f.notes) == NOTES and not spent.inner.get(
                    hunk.header):
                spent.used = _notes_head(job, kept, body, spent.used, marker, room)
                continue
            if not skipped and not alone and len(rest) < len(body):
                skipped, skipped_file = rest, n  # (its head joins what its hunk shows)
            if not skipped:
                skipped, skipped_file = body, n
                if alone:  # its header comes with its head: the rest of it then costs a marker
                    skipped_marker = name + (
                        _marker_cost(job, body[1], body[-1]) if len(body) > 1 else 0)
            misses += 1
    hunk = next((h for h in files[skipped_file].hunks if h.header < skipped[0] < h.end), None
                ) if skipped else None
    if hunk is not None and hunk.header in kept:  # the head of what a shown hunk omits
        head = fit_in_order(skipped, room - spent.used, job.costs)
        while head:
            inner, display = _display(job, hunk, sorted({*spent.inner[hunk.header], *head}))
            if display - spent.marks[hunk.header] <= room - spent.used:
                kept.update(dict.fromkeys(inner, ""))
                spent.used += display - spent.marks[hunk.header]
                spent.inner[hunk.header], spent.marks[hunk.header] = inner, display
                break
            head.pop()
    elif skipped:  # what is left goes to the head of the first body that did not fit
        head = fit_in_order(skipped, room - spent.used - skipped_marker, job.costs)
        if len(head) > 1 or skipped_file in shown:  # a header alone says no more than the map
            kept.update(dict.fromkeys(head, ""))
            spent.used += sum(job.costs.line(i) for i in head)
            if skipped_file not in named:
                spent.used += _name_cost(job, files[skipped_file])
                _name_once(job, kept, named, skipped_file)
            shown.add(skipped_file)


def _name_once(job: _Job, kept: dict[int, str], named: set[int], n: int) -> None:
    if n not in named:
        _name(job, kept, job.parsed.files[n])
        named.add(n)


def _notes_head(job: _Job, kept: dict[int, str], body: list[int], used: int,
                marker: int, room: int) -> int:
    """A release-notes body too long to show whole: its head (the newest entries lead it), in
    at most NOTES_SHARE of the room left (the source's hunks come next), the rest under its marker (`used` counts the whole body's).
    Returns what is used then."""
    spare = room - used
    head = fit_in_order(body, int(spare * NOTES_SHARE), job.costs)
    while head:
        cost = sum(job.costs.line(i) for i in head) + _marker_cost(
            job, body[len(head)], body[-1]) - marker
        if cost <= spare:
            kept.update(dict.fromkeys(head, ""))
            return used + cost
        head.pop()
    return used


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


def _value_summary(job: _Job, kept: dict[int, str], shown: set[int], named: set[int]) -> str:
    files = job.parsed.files
    unshown = [f for n, f in enumerate(files) if n not in shown and f.hunks]
    parts = []
    if unshown:
        where = ("named above" if len(named) == len(files)
                 else "named above or counted in its folder's line")
        added = sum(f.added for f in unshown)
        removed = sum(f.removed for f in unshown)
        parts.append(f"the hunks of {len(unshown):,} of {len(files):,} files (+{added:,} "
                     f"{_MINUS}{removed:,} in {_hunks(sum(len(f.hunks) for f in unshown))}; "
                     f"each file {where} with its counts)")
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


def _file_line(f: FileDiff) -> str:
    return f"{f.path or '?'} ({_details(f)})"


def _rolled_up(job: _Job) -> Plan | None:
    """Level 2: files rolled up under their directories (planners/rollup.py), with counts; what
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
    if len(group) == 1 and _tree_key(job, group[0].path) == key and not more:
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


def _items(job: _Job, kept: dict[int, str], with_gaps: bool,
           notes: dict[int, list[str]] | None = None) -> list[Item]:
    return line_items(job.lines, kept, (lambda a, b: _gap(job, a, b)) if with_gaps else None,
                      notes)




def _gap(job: _Job, first: int, last: int) -> Gap:
    rows = job.plain[first:last + 1]
    added = sum(1 for row in rows if row.startswith(("+", ">")))  # `>`: the normal format's
    removed = sum(1 for row in rows if row.startswith("-") and row != _NORMAL_SPLIT
                  or row.startswith("<"))
    detail = f"+{added:,} {_MINUS}{removed:,}" if added or removed else ""
    return Gap(job.lines.start(first), job.lines.end(last), first + 1, last + 1, detail)


def _marker_cost(job: _Job, first: int, last: int) -> int:
    return job.costs.note(inline_marker(_gap(job, first, last)))
