"""How search output is told and parsed: match lines, context lines, headings, paths, and
`looks_like`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from itertools import chain, count, repeat

from ...patterns import lazy
from ...tools import Tool
from ...values import field, value
from ..diagnostics import after_place
from ..rollup import split

# `git grep -n PATTERN HEAD` names each file after its tree: `HEAD:src/a.c:12:` (the tree is
# part of the path: `git show HEAD:src/a.c` prints the file). Never a bare number after it.
REVISION = r"(?:[\w.^~@{}-]++:(?![\\/]|\d+:))?"
_MATCH = lazy(rf"(?P<path>{REVISION}(?:[A-Za-z]:[\\/])?[^:\n]*?[^\s:]):(?P<line>\d+):"
                    r"(?:(?P<col>\d+):)?")
# _MATCH's common case, matched the same (a tree or a drive is followed by no `NN:`, so where
# the first colon is followed by one, the path is what comes before it), at half its cost.
_PLAIN_MATCH = lazy(r"(?P<path>[^:\n]*[^\s:]):(?P<line>\d+):(?:(?P<col>\d+):)?")
# Rows joined by "\n", each one a match: (the row's head, up to where its text starts; the text
# before its first colon) when the row is shaped as _PLAIN_MATCH reads it but for the path's
# last character, else ("", "") — read in one pass over the rows' text.
_PLAIN_ROWS = lazy(r"\n(([^:\n]*+):\d++:(?:\d++:)?+)?")
_HEADING_ENTRY = lazy(r"\d+[:-]")
# ctags' cross-reference form (`ctags -x`, GNU GLOBAL's `global -x`/`-rx`): the symbol, its
# line number and its file, aligned by spaces, then the line's text.
_XREF_WIDTH = 16
_CROSS_REFERENCE = lazy(r"[A-Za-z_$~][\w$:.~<>-]*+[ \t]++\d++[ \t]++(?P<path>[^\s:]++)[ \t]")
# A context line's separator: `path-12-text` (-A/-B/-C), `path=12=text` (the enclosing
# function's line, git grep -p / --show-function).
CONTEXT_SEP = lazy(r"-(\d+)-|=(\d+)=")
# What a log record has and a path has not: a date's hour before a clock's minutes (`[26/Nov/
# 2026 16:37:29]` read as path `…2026 16`, line 37), a clock, a quote (`"GET /a HTTP/1.1"`),
# an access log's bracketed date (`127.0.0.1 - - [29/Nov/2026:08:12:11 +0000] "GET …`: path
# `127.0.0.1 - - [29/Nov/2026`, line 08).
_RECORD = lazy(r"[\sT]\d\d?$|\d:\d\d|\"|\[\d\d?/[A-Z][a-z]{2}/\d{4}$")
_EXTENSION = lazy(r"\.[A-Za-z0-9_+~-]{1,12}$")
# A row that holds a path among other fields, not a path with spaces in it: words after a file
# name's extension (`row 0 src/a.py passed`), a checksum before it (`sha256sum`'s
# `9f86d0…  src/a.py`), or columns aligned by runs of spaces (`getent services`'s
# `ssh   22/tcp`). Its order is its own: it is no list of paths to map.
_FIELDS = lazy(r"[0-9a-fA-F]{32,}\s|.*\.[A-Za-z]\w{0,11}\s+\S|.*\S {2,}\S")
# The common path: folders, then a name with a letter; no space, colon, quote or backslash, and
# no clock's `T12` at its end. It passes every test of is_path, so it is told in one match.
_COMMON_PATH = lazy(r"/?[\w.~+@-][\w.~+@/-]*/[\w.~+@-]*[A-Za-z][\w.~+@-]*(?<!T\d)(?<!T\d\d)")
_BARE_FILES = {"Makefile", "Dockerfile", "Gemfile", "Rakefile", "Procfile", "Jenkinsfile",
               "Vagrantfile", "Justfile", "LICENSE", "README", "BUILD", "WORKSPACE", "go.mod",
               "PKG-INFO", "CHANGELOG", "CHANGES", "NEWS", "AUTHORS", "NOTICE", "COPYING",
               "CONTRIBUTING", "MANIFEST", "METADATA"}
# Compiler and linter diagnostics (`x.c:12:5: error: …`, `x.py:3:1: F401 …`, go's `x.go:12:5:
# message`, cpplint's `x.c:3:  … [whitespace/braces] [4]`) look like vimgrep output but are
# logs: diagnostics.after_place tells their messages from a matched line.
# rg --json: a JSON object a line; begin, match, context, end and summary records.
_RG_JSON = lazy(r'\{"type":"(?P<type>begin|match|context|end|summary)","data":\{'
                r'(?:"path":\{"text":"(?P<path>(?:[^"\\]|\\.)*+)"\})?')
_RG_JSON_TEXT = '"lines":{"text":"'

_KEYWORD_DEFINITION = (
    r"(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:static\s+)?"
    r"(?:def|class|function|func|fn|interface|struct|enum|trait|impl|module|macro|sub|type)\s+\S")
DEFINITION = lazy(
    _KEYWORD_DEFINITION
    + r"|(?:export\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:const|let|var|static)\s+[\w$]+"
    r"[^=\n]*=|[\w$.\[\]'\"]+\s*=(?!=)"
)
# Inside a definition, the lines a search is after: a definition by its keyword (a method:
# `    def send(`), not an assignment, and a line that raises or throws (where an error a reader
# saw comes from: `    raise ImproperlyConfigured(`, `throw new …Exception();`, Go's `panic(`).
RAISES = r"(?:raise|throw|panic!?)\b"
NESTED_SITE = lazy(r"[ \t]++(?:" + _KEYWORD_DEFINITION + "|" + RAISES + ")")
# (const, let, var, static: with an export or pub before, and a type before the `=`: `pub const
# DEFAULT: &str = "sh";`, `export const routes: Route[] = [`, `static mut N: u32 = 0;`, Go's
# `var timeout time.Duration = 5`.)
MIN_MATCH_LINES = 20
MIN_SHARE_OF_PATHS = 0.95  # of a file list's lines; the rest bare names (`LICENSE`, `INSTALL`)
_BARE_NAME = lazy(r"[\w.@+~-]+")
MAX_STRAY_SHARE = 0.02  # of a file list's rows, the tool's own messages (`find`'s errors)
_MESSAGE = lazy(r"[\w.-]+: \S")  # `find: ‘/root’: Permission denied`
TREE_COUNT = lazy(r"\d+ director(?:y|ies)(?:, \d+ files?)?$")  # `tree`'s last line
MIN_MATCH_LINES_FROM_SEARCH = 3  # a search tool's own output (Grep, Glob) needs less to show it
MIN_SHARE = 0.75
DIAGNOSTIC_SHARE = 0.3  # of the match lines, at most: more and it is a compiler's or linter's log
HEADER_SHARE_FOR_STRAYS = 0.1  # lines that are not matches (rg's own errors) get at most this


def looks_like(sample: list[str], tool: Tool) -> bool:
    non_empty = sum(1 for line in sample if line.strip())
    if not non_empty:
        return False
    # Parsing stops as soon as the sample cannot be a search (a log's lines), or is one
    # made of compiler diagnostics: a log is not read through for a search's sake.
    parsed = parse(sample, hopeless=int((1 - MIN_SHARE) * non_empty),
                   diagnostics=int(DIAGNOSTIC_SHARE * non_empty))
    if parsed is None:
        return False
    least = MIN_MATCH_LINES_FROM_SEARCH if tool.hint == "search" else MIN_MATCH_LINES
    if parsed.file_list:
        return len(parsed.files) >= least and len(parsed.files) >= 0.9 * non_empty
    matches = sum(len(f.matches) for f in parsed.files.values())
    # A context line (`path-12-text`) names a file a match line named: as much a search's
    # as a match (`grep -C5`, `git grep -W` around one definition).
    context = sum(len(f.context) for f in parsed.files.values())
    if not matches or matches + context < least or parsed.recognised < MIN_SHARE * non_empty:
        return False
    diagnostics = sum(1 for f in parsed.files.values() for i in f.matches
                      if after_place(sample[i], f.text_start[i]))
    return diagnostics < DIAGNOSTIC_SHARE * matches


@value(frozen=False)
class FileHits:
    path: str
    matches: list[int] = field(default_factory=list)  # line indexes
    context: list[int] = field(default_factory=list)
    heading: int | None = None  # the heading line, in `rg --heading` output
    text_start: dict[int, int] = field(default_factory=dict)  # where the matched text begins
    total: int | None = None  # matches in the whole output, when `matches` holds only some
    files: int = 1  # more than one: a folder's files past the scanner's cap (path "dir/")
    folder: bool = False

    @property
    def count(self) -> int:
        return len(self.matches) if self.total is None else self.total


@value(frozen=False)
class Parsed:
    files: dict[str, FileHits]
    strays: list[int]  # lines that are neither matches, context, separators nor blank
    recognised: int
    file_list: bool = False


def parse(rows: list[str], hopeless: int | None = None,
          diagnostics: int | None = None) -> Parsed | None:
    """The rows as search output. Sniffing gives up early (None) once more than `hopeless`
    rows can be no part of a search, or more than `diagnostics` match lines are a compiler's
    messages (`x.c:12:5: warning: …`)."""
    files: dict[str, FileHits] = {}
    unmatched: list[int] = []
    recognised = 0
    if hopeless is not None:
        readable = _Readable(any(row.startswith('{"type":"') for row in rows))
    # A planner's rows (a sniff gives up early: it reads row by row): the heads of most, the
    # plain match lines, read in one pass; a row whose path is no path (or one a plain match
    # cannot have, ending in a space) is read again below, as every row of a sniff is.
    heads = _plain_heads(rows) if hopeless is None and diagnostics is None else None
    last, hits = None, None
    for index, row, (head, path) in zip(count(), rows, heads or repeat(("", ""))):
        if head:
            if path != last:
                if not (path and not path[-1].isspace() and is_path(path)):
                    head = ""  # not a plain match line's: read as every row is, below
                else:
                    last, hits = path, files.get(path)
                    if hits is None:
                        hits = files[path] = FileHits(path)
            if head:
                hits.matches.append(index)
                hits.text_start[index] = len(head)
                recognised += 1
                continue
        if row.startswith('{"type":"') and (record := _RG_JSON.match(row)):
            recognised += _rg_json_row(record, index, row, files)
            continue
        m = _PLAIN_MATCH.match(row) or _MATCH.match(row)
        cross = None if m else _CROSS_REFERENCE.match(row)
        m = m or cross
        if m and is_path(path := m["path"]):
            last, hits = path, files.get(path)
            if hits is None:  # a FileHits per file, not one built and dropped per match
                hits = files[path] = FileHits(path)
            hits.matches.append(index)
            hits.text_start[index] = m.end() if cross is None else _cross_text(row, cross)
            recognised += 1
            if diagnostics is not None and after_place(row, m.end()):
                diagnostics -= 1
                if diagnostics < 0:
                    return None
        else:
            unmatched.append(index)
            if hopeless is not None and not readable(row):
                hopeless -= 1
                if hopeless < 0:
                    return None
    strays: list[int] = []
    heading: FileHits | None = None
    for index in unmatched:
        row = rows[index]
        if not row.strip() or row == "--":
            heading = None if not row.strip() else heading
            recognised += bool(row.strip())
            continue
        context = context_path(row, files)
        if context:
            files[context].context.append(index)
            recognised += 1
        elif heading and _HEADING_ENTRY.match(row):
            _add_heading_entry(heading, index, row)
            recognised += 1
        elif is_path(row.rstrip("\r")) and index + 1 < len(rows) \
                and _HEADING_ENTRY.match(rows[index + 1]):
            path = row.rstrip("\r")  # CRLF output: the CR is the line's end, not the path's
            heading = files.setdefault(path, FileHits(path))
            heading.heading = index
            recognised += 1
        else:
            strays.append(index)
    if not files and strays:
        listed = _file_list(rows, strays)
        if listed is not None:
            return listed
    return Parsed(files, strays, recognised)


class _Readable:
    """Whether a row that is no match line may still be read as a search's, judged in order:
    blank, a separator, a listed path or bare file name, a heading's entry (once a row that
    may be a heading, a path, came before it), a context line (of a file whose path it
    starts with; of any file, in rg --json output, whose paths are not checked)."""

    def __init__(self, json: bool) -> None:
        self.json, self.heading = json, False

    def __call__(self, row: str) -> bool:
        bare = row.rstrip("\r")
        if is_path(bare):
            self.heading = True
            return True
        return (not bare.strip() or bare == "--" or _BARE_NAME.fullmatch(bare) is not None
                or self.heading and _HEADING_ENTRY.match(bare) is not None
                or any(self.json or is_path(bare[:m.start()])
                       for m in CONTEXT_SEP.finditer(bare)))


_HEADS_AT_ONCE = 4096  # rows read in one pass at a time: the copy made of them stays small


def _plain_heads(rows: list[str]) -> Iterator[tuple[str, str]]:
    """Each row's (head, path) by _PLAIN_ROWS, a few thousand rows at a time."""
    return chain.from_iterable(map(_batch_heads, (rows[start:start + _HEADS_AT_ONCE]
                                                  for start in range(0, len(rows),
                                                                     _HEADS_AT_ONCE))))


def _batch_heads(rows: list[str]) -> list[tuple[str, str]]:
    """("", "") for every row when one holds a newline: the rows are then not the lines of
    their text joined (each is read as a sniff reads it)."""
    heads = _PLAIN_ROWS.findall("\n" + "\n".join(rows))
    return heads if len(heads) == len(rows) else [("", "")] * len(rows)


def _file_list(rows: list[str], candidates: list[int]) -> Parsed | None:
    """A list of paths (`find`, `fd`, `git ls-files`, `rg -l`, `tree -fi`): every line a path
    or a bare file name (git's `LICENSE`), most of them paths. A row in a folder other paths
    name is a path whatever its spaces spell (`Help/generator/Visual Studio 7 .NET 2003.rst`);
    a few of the tool's own messages (`find: ‘/root’: Permission denied`, `tree`'s closing
    count) are strays, shown as a search's own, at most MAX_STRAY_SHARE of the rows; any other
    row (dpkg -L's `/.`) and it is no list of paths. Rows of words apart (`python3-jwt/oldstable
    2.6.0-1 all`), half of them or more, are a table's, not paths."""
    paths, others = [], []
    for i in candidates:
        row = rows[i].rstrip("\r")
        if not TREE_COUNT.match(row) and (is_path(listed_path(row)) or _BARE_NAME.fullmatch(row)):
            paths.append(i)
        else:
            others.append(i)
    if others and any("/" in rows[i] or "\\" in rows[i] for i in paths):
        folders = {folder_key(rows[i].rstrip("\r")) for i in paths}
        found = {i for i in others if " " in rows[i] and "\t" not in rows[i]
                 and folder_key(rows[i].rstrip("\r")) in folders.difference(("./",))}
        paths = sorted(paths + list(found))
        others = [i for i in others if i not in found]
    named = sum(1 for i in paths if is_path(listed_path(rows[i])))
    spaced = sum(1 for i in paths if " " in rows[i])
    messages = sum(1 for i in others if TREE_COUNT.match(rows[i]) or _MESSAGE.match(rows[i]))
    if not paths or named < MIN_SHARE_OF_PATHS * len(paths) or 2 * spaced > len(paths) \
            or messages < len(others) or messages > max(1, MAX_STRAY_SHARE * len(candidates)):
        return None
    return Parsed({rows[i].rstrip("\r"): FileHits(rows[i].rstrip("\r"), heading=i)
                   for i in paths}, others, len(candidates), file_list=True)


def listed_path(row: str) -> str:
    """A path list's row as the path it names: git quotes a path with a space or a byte past
    ASCII (`"docs/caf\\303\\251 menu.md"`); the quotes are no part of the path's folders."""
    row = row.rstrip("\r")
    return row[1:-1] if len(row) > 2 and row[0] == '"' == row[-1] else row


def _rg_json_row(record: re.Match, index: int, row: str, files: dict[str, FileHits]) -> bool:
    """An rg --json record: a match or context line is its file's (printed as it is); begin,
    end and summary records are bookkeeping that the map's headers stand in for."""
    path = record["path"]
    if record["type"] in ("match", "context") and path:
        hits = files.setdefault(path, FileHits(path))
        if record["type"] == "context":
            hits.context.append(index)
        else:
            hits.matches.append(index)
            text = row.find(_RG_JSON_TEXT, record.end())
            hits.text_start[index] = text + len(_RG_JSON_TEXT) if text != -1 else record.end()
    return True


def _cross_text(row: str, match: re.Match) -> int:
    """Where a cross-reference row's text starts: its path is padded to _XREF_WIDTH
    characters (`%-16s`), and the spaces of that padding are no indent of the line's."""
    padded = match.start("path") + _XREF_WIDTH + 1
    end = match.end()
    return padded if end < padded and not row[end:padded].strip() else end


def _add_heading_entry(hits: FileHits, index: int, row: str) -> None:
    digits = len(row) - len(row.lstrip("0123456789"))
    if row[digits] == ":":
        hits.matches.append(index)
        hits.text_start[index] = digits + 1
    else:
        hits.context.append(index)


def context_path(row: str, files: dict[str, FileHits]) -> str | None:
    for m in CONTEXT_SEP.finditer(row):
        if row[:m.start()] in files:
            return row[:m.start()]
    return None


@lru_cache(maxsize=8192)  # a flood repeats each path hundreds of times
def is_path(candidate: str) -> bool:
    if _COMMON_PATH.fullmatch(candidate):
        return True
    if not candidate or candidate[0].isspace() or "\t" in candidate or candidate.startswith("["):
        return False
    if not any(map(str.isalpha, candidate)) or _RECORD.search(candidate):
        return False  # a timestamp's `12:34:56`, or a log record's
    if " " in candidate and ("/" not in candidate and "\\" not in candidate
                             or _FIELDS.match(candidate)):
        return False
    trimmed = candidate.rstrip("/\\")
    name = trimmed[max(trimmed.rfind("/"), trimmed.rfind("\\")) + 1:]
    if "/" in candidate or "\\" in candidate:
        return bool(name) and ": " not in candidate
    return bool(_EXTENSION.search(name)) or name in _BARE_FILES


def folder_key(path: str) -> str:
    """The folder of a path, spelled as rollup.py spells folders (`./` for none)."""
    if "\\" not in path:  # the common case, without splitting
        return path[:path.rfind("/") + 1] or "./"
    parts = split(path)[:-1]
    root = "/" if path[:1] in "/\\" else ""
    return (root + "/".join(parts) + "/" if parts else root) or "./"
