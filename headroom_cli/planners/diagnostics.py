"""Diagnostics: the findings of a linter, type checker or compiler, one located record each.

`path:12:5: E501 line too long` has a grep hit's shape (`path:12:text`); what tells it apart is
the message: a severity word or a rule code right after the place (`error`, `warning`, `E501`,
`MD013/line-length`, tsc's ` - error TS2322`, flawfinder's `[4] (buffer)`), one space and a
word (go vet, codespell, vulture: a matched source line is rarely indented by one space), or a
rule's name or a confidence at its end (cpplint's `[whitespace/braces] [4]`, clang's
`[-Wunused]`, vulture's `(60% confidence)`). Places are `path:line[:col]`, `path(line,col)`
and jshint's `path: line 8, col 7,`. Two-line records (pydocstyle: `path:12 in public
function f:`, then an indented `D103: …`) are told by their indented coded line.

The search sniffer asks `after_place` of the text after each match's place (many such lines:
no search); the log sniffer counts located diagnostics as records, and the log planner takes
them for errors whose kind is their rule code, or else their message's template (quoted names
and numbers masked, a percentage kept: it is a confidence), so each kind is shown once, the
rare before the common, and the omitted ones are counted by kind.
"""

from __future__ import annotations

import re

from ..patterns import lazy

# Severity words, as linters print them; note, info and hint are the lower ones (a compiler's
# note carries an error on; a linter's info is a finding of its own).
_SEVERITY = (r"(?:fatal\ error|[Ee]rror|ERROR|[Ww]arn(?:ing)?|WARN(?:ING)?|fatal|note|info"
             r"|information|hint|style|convention|refactor|performance|portability)")
_CODE = r"[A-Z][A-Za-z]{0,4}\d{2,5}"  # E501, MD013, SC2086, DL3008, C0114, TS2322, D103
# At the message's start: a column without its colon (markdownlint's `:12:81 MD013`, tsc's
# `:12:5 - error`), up to two spaces, a ` - `, a bracket; then a severity word or a code. Or
# one space and a word; or flawfinder's level and category (`  [4] (format)`).
_OPENING = (rf"(?:\d++\ (?:-\ )?)?[ \t]{{0,2}}(?:-\ )?[\[(]?(?:{_SEVERITY}(?=[\s:\[\]()]|$)"
            rf"|{_CODE}\b)|\ (?=\S)|[ \t]{{1,2}}\[\d\]\ \(\w")
# At the message's end: a rule's name and a level in brackets after two spaces (cpplint), a
# compiler's flag, a confidence.
_ENDING = (r"(?:\ {2}\[[\w./-]+\](?:\ \[\d\])?|\[-W[\w-]+(?:=[\w-]+)?\]"
           r"|\(\d{1,3}%\ confidence\))[ \t\r]*(?![^\n])")
OPENING = lazy(_OPENING)
ENDING = lazy(_ENDING)
_ENDING_CHARS = 80  # the end is looked for in a line's last characters
# A place at a line's start: a path (a name with an extension, or folders), then its line. The
# lookahead wants a dot or a slash before any colon, so a timestamp (`2024-05-01T00:00:00`, a
# log's every line) is no place and the search for an ending never starts there.
_PLACE = (r"(?P<path>(?:[A-Za-z]:[\\/])?(?=[\w@+~-]*+[./\\])[\w.@+~-][\w./\\@+~-]*+)"
          r"(?::\d++(?::\d++)*+:?|\(\d++(?:,\d++)?\):?|:\ line\ \d++,\ col(?:umn)?\ \d++,)")
PLACE = lazy(_PLACE)
# jshint's and eslint compact's place says so itself: no search prints it.
SPELLED_PLACE = lazy(r"[^\s:]++:\ line\ \d++,\ col(?:umn)?\ \d++,")
# A two-line record's second line: an indented rule code and its message (pydocstyle); not a
# digest (keytool's `SHA256: EB:C5:57:…`: its "message" is hex pairs).
INDENTED_CODE = lazy(rf"[ \t]++{_CODE}:\ (?![0-9A-Fa-f]{{2}}:)\S")
# A traceback frame's place (pytest --tb=short: `tests/a.py:12: in test_x`): no finding.
_FRAME = lazy(r"\ in\ \S")
# A located line below a finding: a note carrying an error on, a hint, or an optimizer's remark
# (gcc -fopt-info's `missed:` and `optimized:`, clang -Rpass's `remark:`): a report, no failure.
LOWER_WORDS = r"note|info|hint|remark|missed|optimized"
_LOWER = lazy(rf"[ \t]*+(?:\d++\ )?(?:-\ )?[\[(]?(?:{LOWER_WORDS})\b")
# For the log planner's search through a whole text, from the newline before a line: a
# located diagnostic with its evidence at the message's start, or an indented coded line.
SIGNAL = lazy(rf"\n(?:{_PLACE}(?:{_OPENING}|(?=[^\n]*?{_ENDING}))|{INDENTED_CODE.pattern})")

# What varies between findings of one kind: quoted names, bracketed details with a colon
# (`[Expected: 80; Actual: 104]`, `[Context: "…"]`), numbers other than a percentage.
_VARYING = lazy(r"""'[^'\n]*'|"[^"\n]*"|`[^`\n]*`|‘[^’\n]*’|“[^”\n]*”|\[\w+:\ [^\]\n]*\]
    |(?<![\w.])\d+(?:\.\d+)?(?![\w%]|\.\d)""", re.VERBOSE)
_RULE_AT_END = lazy(r"\[(?P<rule>[\w.-]+/[\w./-]+|-W[\w-]+)\](?:\ \[\d\])?[ \t\r]*$")
_RULE_AT_START = lazy(rf"[ \t]*+(?:\d++\ )?(?:-\ )?[\[(]?(?:{_SEVERITY}[:\]) ]\ *)?"
                      rf"(?P<code>{_CODE})\b")
KIND_CHARS = 50


def after_place(line: str, start: int) -> bool:
    """Whether the text of `line` from `start` (just after a place) reads as a finding."""
    if OPENING.match(line, start):
        return True
    return ENDING.search(line, max(start, len(line) - _ENDING_CHARS)) is not None


def located(line: str) -> bool:
    """A finding with its place at the line's start (not a traceback frame's place)."""
    return _message_start(line) is not None


def _message_start(line: str) -> int | None:
    """Where a located finding's message starts (just after its place); None for no finding."""
    place = PLACE.match(line)
    if place is None or not _names_a_file(place["path"]):
        return None
    end = place.end()
    if SPELLED_PLACE.match(line) or not _FRAME.match(line, end) and after_place(line, end):
        return end
    return None


def is_finding(line: str) -> bool:
    """A finding the log takes for an error: a located one other than a note (a compiler's
    note carries an error on), or a two-line record's indented coded line."""
    start = _message_start(line)
    if start is not None:
        return not _LOWER.match(line, start)
    return INDENTED_CODE.match(line) is not None


def _names_a_file(path: str) -> bool:
    """The place's path has a folder or an extension: `a/b:3`, `a.c:3`; not `Makefile:3`."""
    name = path.replace("\\", "/")
    return "/" in name or "." in name.strip(".")


def kind(line: str) -> str:
    """A finding's kind: its rule code (`D103`, `MD013` of `MD013/line-length`, cpplint's
    `whitespace/braces`),
    else its message with what varies masked, cut to KIND_CHARS."""
    place = PLACE.match(line)
    rest = line[place.end():] if place else line
    ending = _RULE_AT_END.search(rest, max(0, len(rest) - _ENDING_CHARS))
    if ending:
        return ending["rule"]
    code = _RULE_AT_START.match(rest)
    if code:
        return code["code"]
    message = _VARYING.sub(_mask, rest.strip())
    return message if len(message) <= KIND_CHARS else message[:KIND_CHARS - 1].rstrip() + "…"


def _mask(match) -> str:
    text = match.group()
    return text[0] + "…" + text[-1] if text[0] in "'\"`‘“[" else "N"
