"""log: keep every error with its trace, dedup every warning.

Build, test, lint and application logs. Lines are classified as summary, error or warning; each
error grows into a block (its trace, code frame or notes). What is kept, in priority order:
head and tail, runner summaries, one instance of every error kind (rarest kinds first, so the one
odd error among thousands of style nits survives), the last instance of repeated kinds, the
blocks around them, each distinct warning once with its repeat count, the remaining errors, and
finally more head and tail. Everything else becomes inline gaps.

Speed: the whole text is never classified line by line. A few literal searches and two
line-start regexes find the candidate lines; only those, the lines of the error blocks that are
considered, and the lines considered for keeping are looked at one by one or counted in tokens.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter as Tally
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import accumulate, compress, repeat
from operator import not_
from typing import Callable

from ..plan import Gap, Item, Keep, Lines, Note, Plan, gap
from ..render import inline_marker
from ..tokens import Counter
from ..tools import Tool
from .costs import JUDGED_CHARS

SUMMARY, ERROR, WARNING = "summary", "error", "warning"

# ---------------------------------------------------------------------------------- patterns

# Substrings, case variants spelled out, one of which every error or warning line holds unless
# _START_SIGNAL or _END_SIGNAL knows it by its start. A literal search runs at memory speed, a
# regex alternation of the same words ~10x slower; each word is one pass, so the list is short.
_TRIGGERS = ("rror", "RROR", "arn", "ARN", "AIL", "xception", "FATAL", "undefined reference")
_TRIGGER_PATTERNS = tuple(re.compile(re.escape(word)) for word in _TRIGGERS)

# Failure signals recognisable at the start of a line, looked for all through the text. The
# lookahead skips most lines after one character test.
_START_SIGNAL = re.compile(r"""\n(?=[ \tETpftn=\[●✕✗✘×A-Z0-9])(?:
    E\ {2} | Traceback\ \( | panic:\  | thread\ '[^'\n]*'\ panicked | fatal:\  | npm\ ERR!
  | [A-Z]{1,5}\d{2,4}(?:\ \[\*\])?\ [^\n]*\n[ \t]*-->              # ruff full: code, then location
  | [ \t]*(?:\d+\ (?:passing|failing|pending|passed|failed|skipped)|[●✕✗✘×]\ |not\ ok\ )
  | =+\  | \[?(?:CRITICAL|SEVERE|PANIC|EMERG|ALERT)\b | Segmentation\ fault | Aborted\ \(core
)""", re.VERBOSE)
# Runner summaries sit at the ends of an output: only the first and last _ENDS_CHARS are searched
# for these (a failing summary says FAIL or error, which the triggers find anywhere).
_END_SIGNAL = re.compile(r"""\n(?:
    (?:collecting\ \.\.\.\ )?collected\ \d | Ran\ \d | OK\b | ok\s | test\ result: | \[\*\]\ \d
  | Tests?:\  | Test\ Suites:\  | Snapshots:\  | Found\ \d | BUILD\  | \[INFO\]\ (?:BUILD|Tests)
  | make(?:\[\d+\])?:\  | Success:\  | All\ checks\ passed | Some\ errors | For\ more\ information
  | Successfully\ installed | Failed\ to\ build | added\ \d | found\ \d
  | [\#ℹ]\ (?:tests|pass)\ \d
  | [ \t]*\S+:\ (?:OK|commands\ succeeded) | [ \t]*congratulations | Tests\ run:
  | \d+\ (?:errors?|warnings?)\ generated | compilation\ terminated | Errors\ +Files
  | [\w./\\-]+:\d+:\d+:?\ [A-Z]{1,5}\d{2,4}\b
)""", re.VERBOSE)
_ENDS_CHARS = 256 * 1024
# Lint output without a trigger word (ruff/flake8/pylint concise: path:12:5: F821 message) is
# looked for all through the text only when the ends show it.
_LINT_SIGNAL = re.compile(r"\n[\w./\\-]++:\d+:\d+:?\ [A-Z]{1,5}\d{2,4}\b")  # ++: no retries
# Test results that passed, whatever their names say (test_error_message PASSED): searched in
# a line's last _RESULT_TAIL characters (pytest pads results to column 80), or at its start.
_RESULT_TAIL = 100
_PASSED_END = re.compile(r" (?:PASSED|SKIPPED|XFAIL|XPASS|PASS|SKIP)(?:\s+\[\s*\d+%\])?\s*$"
                         r"| \.\.\. (?:ok|skipped\b.*|expected failure)\s*$")
_PASSED_START = re.compile(r"\s*+(?:--- (?:PASS|SKIP)|=== (?:RUN|PAUSE|CONT)|[✓✔√] )")

_SUMMARY = re.compile(r"""[ \t]*+(?:\[(?:INFO|ERROR|WARNING)\]\ *)?(?:
    =+\ .*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?
              |no\ tests\ ran)\b.*=+
  | =+\ (?:FAILURES|ERRORS|short\ test\ summary\ info|warnings\ summary|PASSES)\ =+
  | (?:collecting\ \.\.\.\ )?collected\ \d+\ items?
  | \d+\ (?:passed|failed)\b.*\bin\ [\d.]+s
  | Ran\ \d+\ tests?\ in | OK(?:\ \(.*\))?\s*$ | FAILED\ \((?:failures|errors|skipped|expected)
  | \d+\ (?:passing|failing|pending)\b | Tests?:\ +\d | Test\ Suites:\ | Snapshots:\ +\d
  | test\ result:\ | ok\s+\S+\s+(?:[\d.]+s|\(cached\)|\[no\ test\ files\])
  | FAIL\s+\S+\s+[\d.]+s\s*$
  | (?:FAIL|PASS)\s*$ | BUILD\ (?:SUCCESS|FAILURE|SUCCESSFUL|FAILED) | Total\ time:
  | Tests\ run:\ \d+,\ Failures: | \d+\ actionable\ tasks?
  | Found\ \d+\ (?:errors?|problems?|warnings?) | Errors\ +Files\s*$
  | \S*\ *\d+\ problems?\ \(\d+\ errors?,\ \d+\ warnings?\)
  | \d+\ errors?\ and\ \d+\ warnings?\ potentially\ fixable | \[\*\]\ \d+\ fixable
  | Success:\ no\ issues\ found | All\ checks\ passed
  | error:\ (?:could\ not\ compile|aborting\ due\ to|test\ failed) | Some\ errors\ have\ detailed
  | For\ more\ information\ about\ (?:this|an)\ error | warning:\ .*generated\ \d+\ warnings?
  | warning:\ \d+\ warnings?\ emitted | \d+\ (?:errors?|warnings?)\ generated\.
  | make(?:\[\d+\])?:\ (?:\*\*\*|Target\ .*\ not\ remade) | compilation\ terminated
  | collect2:\ error: | Successfully\ installed | ERROR:\ Could\ not\ (?:build|install|find)
  | Failed\ to\ build\b | npm\ ERR!\ (?:code|A\ complete\ log) | added\ \d+\ packages?
  | found\ \d+\ vulnerabilit | \S+:\ (?:OK|FAIL)\ (?:code\ \d+\ )?\( | \S+:\ commands\ succeeded
  | congratulations\ :\) | evaluation\ failed\ :\( | Error:\ Process\ completed\ with\ exit\ code
  | [\#ℹ]\ (?:tests|pass|fail|suites|cancelled|skipped|todo|duration_ms)\ \d
)""", re.VERBOSE)

# A log record's own level decides its class, whatever words its message contains. Looked for
# in the first 80 characters; a quoted word ('INFO' in an assertion) is not a level.
_LEVEL = re.compile(r"ERROR|ERR!|FATAL|CRITICAL|SEVERE|EMERG|ALERT|PANIC|WARN(?:ING)?|INFO|DEBUG"
                    r"|TRACE|NOTICE|VERBOSE")
_LEVEL_BOUNDARY = frozenset("'\"`-_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_NAMED_LEVEL = re.compile(r"""(?:level|lvl|severity)"?\s*[:=]\s*"?([A-Za-z]+)""")
_GLOG = re.compile(r"([EWIF])\d{4} \d\d:\d\d:\d\d")
_LEVEL_CLASS = {
    "ERROR": ERROR, "ERR!": ERROR, "FATAL": ERROR, "CRITICAL": ERROR, "SEVERE": ERROR,
    "EMERG": ERROR, "ALERT": ERROR, "PANIC": ERROR, "WARN": WARNING, "WARNING": WARNING,
    "CRIT": ERROR, "ERR": ERROR, "E": ERROR, "F": ERROR, "W": WARNING,
}

# Errors recognised by how the line starts (matched, never searched: cheap on long lines).
_ERROR_START = re.compile(r"""[ \t]*+(?:
    (?:Caused\ by:\ |Uncaught\ |Exception\ in\ thread\ \S+\ )?
        [\w$.]*(?:Error|Exception|Failure|Fault)\b(?:\ \[[\w-]+\])?(?::|\s*$)   # exception
  | Traceback\ \(most\ recent\ call\ last\) | panic:\  | thread\ '[^']*'\ panicked | fatal:\ 
  | [\-=>*\#|\ ]*(?:FAIL|FAILED|FAILURE)\b | (?:[✕✗✘×]|●|not\ ok)\  | npm\ ERR!
  | \d+:\d+\ +error\ {2}                                             # eslint stylish
  | [\w./\\-]+:\d+:\d+:?\ [A-Z]{1,5}\d{2,4}\b                       # lint concise
  | \S+:\d+:\ [\w.]*(?:Error|Exception)\b                            # pytest location line
  | \[?(?:CRITICAL|SEVERE|PANIC|EMERG|ALERT)\b | Segmentation\ fault | Aborted\ \(core
)|E\ {2}""", re.VERBOSE)
# "error:" anywhere (gcc, mypy, rustc error[E0308]:, tsc error TS2322:), found by its literal
# tail; the letter before it is checked in Python.
_ERROR_WORD = re.compile(r"rror(?:\[[\w-]+\]| +[A-Z]{1,4}\d{2,5})?:")
_ERROR_END = re.compile(r" (?:FAILED|FAIL|ERROR)(?:\s+\[.*\])?\s*$")  # pytest -v, unittest -v
_WARNING_START = re.compile(r"[ \t]*+(?:\d+:\d+\ +warning\ {2}|npm\ warn\b)")
_WARNING_WORD = re.compile(r"[Ww]arn(?:ing)?(?:\[[\w-]+\])?:")
_RULE_HEADED = re.compile(r"[A-Z]{1,5}\d{2,4}(?: \[\*\])? \S")  # ruff full, before a --> line
_LOCATION = re.compile(r"[ \t]*+--> ")

# Lines that carry an error block on: traces, code frames, notes, test diffs.
_CONTINUATION = r"""(?:
    [ \t]+\S
  | (?:Caused\ by|Suppressed|Wrapped\ by):\  | During\ handling\ of\ the\ above\ exception
  | The\ above\ exception\ was\ the\ direct\ cause | Traceback\ \(most\ recent\ call
  | \.\.\.\ \d+\ (?:more|common\ frames) | --> | \| | =\  | \d+\ *\| | \d+\ {2,}\S | [~^]+\s*$
  | (?:note|help|hint|Note|Hint):\  | \S+:\d+(?::\d+)?:\ (?:note|required\ from|in\ expansion)
  | In\ file\ included\ from | \S+:\ In\ (?:function|member|instantiation|constructor|lambda)
  | E\ {2} | E\s*$ | >\ {2} | -{5,}\s*$ | [-+?]\ \S | First\ \w+
  | (?:Expected|Received|Got|Actual|Failed\ example)\b
  | goroutine\ \d+\ \[ | created\ by\  | [\w.$/*()\[\]-]+\(.*\)\s*$
)"""
# After a blank line (or two), only these carry the block on: a chained trace, a code frame.
_BRIDGE = r"""(?:
    [ \t]+\S | (?:Caused\ by|Suppressed):\  | During\ handling | The\ above\ exception
  | Traceback\ \(most | goroutine\ \d+ | \d+\ {2,}\S | \d+\ *\| | --> | [-+?]\ \S
  | First\ (?:list|tuple|sequence|set|dict|differing)
)"""
# A run of continuation lines, matched from a block's second line: the regex engine walks the
# lines, not Python. Each step is a line, or a blank line or two before a bridge.
_CONTINUATION_STEP = (r"(?:" + _CONTINUATION + r"[^\n]*(?:\n|\Z)"
                      r"|[ \t\r]*\n(?:[ \t\r]*\n)?(?=" + _BRIDGE + r"))")
_CONTINUATION_RUN = re.compile(_CONTINUATION_STEP + "*", re.VERBOSE | re.MULTILINE)
# An error line that says what happened by itself (a timestamped or levelled record, a
# path:line:col diagnostic): the next such line is a new event, not part of this block.
_SELF_CONTAINED = re.compile(r"[\w./\\-]+[:(]\d+(?:[:,]\d+)?\)?:?\s"
                             r"|[ \t]*+\d+:\d+\s+(?:error|warning)\s")  # eslint stylish
_PY_EXCEPTION = re.compile(r"[\w.]+(?::|\s*$)")

# Rule codes name an error's kind: rustc E0308, tsc TS2322, lint F821, eslint rule, -Wflag.
_KIND_CODE = re.compile(r"""
    error\[(?P<rustc>[A-Z]\d{4})\]
  | \berror\ +(?P<compiler>[A-Z]{1,4}\d{2,5}):
  | ^[\w./\\-]+:\d+:\d+:?\ (?P<lint>[A-Z]{1,5}\d{2,4})\b
  | ^(?P<ruff>[A-Z]{1,5}\d{2,4})(?:\ \[\*\])?\ 
  | ^[ \t]*\d+:\d+\ +(?:error|warning)\ {2}.*\ {2}(?P<eslint>@?[\w-]+(?:/[\w-]+)*)\s*$
  | \[(?P<flag>-W[\w-]+|[a-z][\w-]*[a-z])\]\s*$
""", re.VERBOSE)

# What varies between repeats of one message goes, in three C-speed passes over all lines at
# once (a per-match replacement would cost a Python call per number): a leading path:line:col,
# path tails after a "/", then every hex digit (numbers, hex ids, UUIDs and timestamps vanish;
# words keep their other letters, which tell messages apart well enough). Signatures are bytes.
_LOCATION_PREFIX = re.compile(rb"\n[ \t]*[^\s:(]+[:(]\d+(?:[:,]\d+)*\)?:?")
_PATH_TAIL = re.compile(rb"/[^\s'\"`:,;)\]]*")
_HEX_DIGITS = b"0123456789abcdefABCDEF"
# Prefixes stripped for display in the by-kind note: timestamps, levels, [threads], locations.
_LABEL_PREFIX = re.compile(r"""^(?:
    \d[\d\-:.,/TZ+]*\s* | \[[^\]]*\]\s* | (?:ERROR|FATAL|CRITICAL|SEVERE|ERR!)\b:?\s*
  | -\s+ | \S+:\d+(?::\d+)?:?\s+ | \S+\(\d+,\d+\):\s*
)+""", re.VERBOSE)

# Sniffing a file that is not shell output: does the line look like a log record?
_READ_PREFIX = re.compile(r"[ \t]*+\d++(?:\t|→)")
_LOG_RECORD = re.compile(r"""[ \t]*+(?:
    \[?\d{4}-\d\d-\d\d[T\ ]\d\d:\d\d | \[?\d{4}/\d\d/\d\d[T\ ]\d\d:\d\d
  | [A-Z][a-z]{2}\ [\ \d]\d\ \d\d:\d\d:\d\d | \[?\d\d:\d\d:\d\d[.,\]\ ] | \[?\d{10}(?:\.\d+)?\]?\s
  | [EWIFD]\d{4}\ \d\d:\d\d:\d\d | \S+\ \S+\ \S+\ \[\d\d/\w{3}/\d{4}:
  | \[?(?:ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|CRITICAL|NOTICE)\b
  | \{.*"(?:level|severity|lvl|log\.level)"\s*:
)""", re.VERBOSE)
_LOG_RECORD_SHARE = 0.6
# A line's shape: its first characters with the digits removed (timestamps, ids), so that a
# flood of records differing only in those is looked at once.
_SHAPE_CHARS = 80
_DIGITS = b"0123456789"

# A summary line that reports a failure is kept before one that reports success.
_FAILING_SUMMARY = re.compile(r"(?i)fail|error|\bnot ok\b")
_NOTHING_FAILED = re.compile(r"\b0 (?:failed|errors?|failures?)\b")
_CAUSE = re.compile(r"\s*+Caused by: ")
# Words of a bug rather than a style nit: among rare kinds, these messages go first.
_BUG_WORDS = re.compile(r"""(?i)undefined|not\ defined|undeclared|unresolved|cannot\ find
    |could\ not\ find|not\ found|no\ such|no\ module|has\ no\ (?:attribute|member)|unknown\ name
    |mismatch|syntax\ ?error|invalid\ syntax|incompatible\ type|cannot\ be\ applied
    |not\ assignable|segmentation\ fault|null\ pointer|out\ of\ range|overflow|deadlock
    |moved\ value|use\ of\ possibly|uninitiali[sz]ed|unbound|not\ callable""", re.VERBOSE)
_BUG_WEIGHT = 0.25  # a bug-worded kind ranks as if it were this much rarer
# Lines that carry no words: separators, bare gutters, the traceback banner.
_UNINFORMATIVE = re.compile(r"\s*+(?:[-=_~^|*#+]+|Traceback \(most recent call last\):)?\s*$")

# ---------------------------------------------------------------------------------- budget

# Rendered sizes in tokens, measured on cl100k: an inline gap marker is 13-25 (an estimate while
# choosing; counted exactly before the plan is returned); the closing marker 50-78, the most
# with a store id and an exit status.
_GAP_TOKENS = 17
_CLOSING_TOKENS = 80
_HEAD_SHARE, _TAIL_SHARE = 0.10, 0.17
_SUMMARY_SHARE = 0.30  # summary lines past this share wait until errors and warnings are in
_NEAR, _FAR = 3, 12  # block lines this close to a key line come early / late
_WHOLE_BLOCK_SHARE = 0.25  # a block at most this big is kept whole rather than trimmed
_MAX_BLOCK = 3000  # lines one error block may grow to (a runaway trace)
_OWNER_REACH = 50  # lines to look back for the unindented line an indented error sits under
_NOTE_KINDS = 8  # kinds named in the omitted-errors note
_MIN_ROOM = 4  # tokens: below this nothing more fits
_CHARS_PER_TOKEN_MAX = 32  # longer lines than this many characters per budget token are skipped
_MAX_MISSES = 40  # failed additions in a row before a tier gives up (each costs a count)


# ---------------------------------------------------------------------------------- sniffing

def looks_like(sample: list[str], tool: Tool) -> bool:
    """Shell output with an error signal or runner summaries, or text made of log records."""
    if tool.trusts_log_signal and _has_log_signal(sample):
        return True
    return _mostly_log_records(sample)


def _has_log_signal(sample: list[str]) -> bool:
    """An error line, two runner summaries, or three warnings."""
    summaries = warnings = 0
    for index, line in enumerate(sample):
        following = sample[index + 1] if index + 1 < len(sample) else ""
        if not _might_signal(line, following):
            continue
        kind = _classify(line, following)
        if kind == ERROR:
            return True
        summaries += kind == SUMMARY
        warnings += kind == WARNING
        if summaries >= 2 or warnings >= 3:
            return True
    return False


def _mostly_log_records(sample: list[str]) -> bool:
    lines = [_without_read_prefix(line) for line in sample]
    lines = [line for line in lines if line.strip()]
    records = sum(1 for line in lines if _LOG_RECORD.match(line))
    return records >= 3 and records >= _LOG_RECORD_SHARE * len(lines)


def _without_read_prefix(line: str) -> str:
    # Matched, not substituted: an unanchored search would retry at every position of a
    # whitespace or digit run, quadratic in the line's length.
    prefix = _READ_PREFIX.match(line)
    return line[prefix.end():] if prefix else line


def _might_signal(line: str, following: str) -> bool:
    """The per-line twin of _candidate_lines' whole-text search."""
    if any(word in line for word in _TRIGGERS):
        return True
    pair = "\n" + line + "\n" + following
    return bool(_START_SIGNAL.match(pair) or _END_SIGNAL.match(pair) or _LINT_SIGNAL.match(pair))


def _classify(line: str, following: str) -> str | None:
    """summary, error, warning or None (following: the next line, which ruff's format needs)."""
    return _classify_why(line, following)[0]


def _classify_why(line: str, following: str) -> tuple[str | None, bool]:
    """(class, whether the record's level word alone decided it)."""
    line = line.rstrip("\r")
    head = line[:JUDGED_CHARS]  # per-line patterns see a bounded part (see costs.JUDGED_CHARS)
    if _RULE_HEADED.match(head) and _LOCATION.match(following[:JUDGED_CHARS]):
        return ERROR, False  # ruff's full format: "F821 Undefined name `x`", then "  --> a:1:2"
    if _PASSED_END.search(line, len(line) - _RESULT_TAIL) or _PASSED_START.match(head):
        return None, False
    level = _level(line)
    # Records with a level are classified by it (and a record flood is classified fast); only
    # Maven's "[INFO] BUILD FAILURE" kind of summary carries a level.
    if (level is None or line.lstrip().startswith("[")) and _SUMMARY.match(head):
        return SUMMARY, False
    if level is not None:
        return _LEVEL_CLASS.get(level), not line.lstrip().startswith("[")
    if _ERROR_START.match(head) or _has_error_word(line) or _ERROR_END.search(line, len(line) - _RESULT_TAIL):
        return ERROR, False
    if "undefined reference to" in line or "ld returned" in line or "ld: cannot find" in line:
        return ERROR, False
    if _WARNING_START.match(head) or ("arn" in line and _WARNING_WORD.search(line)):
        return WARNING, False
    return None, False


def _level(line: str) -> str | None:
    """The record's level word (ERROR, WARN, INFO…), or None when the line has none."""
    for match in _LEVEL.finditer(line, 0, 80):
        start, end = match.span()
        if (start == 0 or line[start - 1] not in _LEVEL_BOUNDARY) and \
                (end == len(line) or line[end] not in _LEVEL_BOUNDARY):
            return match.group()
    named = _NAMED_LEVEL.search(line, 0, 120) if "l" in line[:120] else None
    if named:
        return named.group(1).upper()
    glog = _GLOG.match(line)
    return glog.group(1) if glog else None


def _has_error_word(line: str) -> bool:
    """error: / Error: / error[E0308]: / error TS2322: as a word (not "stderror:")."""
    for match in _ERROR_WORD.finditer(line):
        start = match.start()
        if start >= 1 and line[start - 1] in "eE" and (start < 2 or not line[start - 2].isalnum()):
            return True
    return False


# ---------------------------------------------------------------------------------- scanning

def _line_reader(lines: Lines):
    """line(i) -> text of line i without its newline. Lines.get's method calls cost more than
    the slicing, and blocks are read line by line."""
    text, starts, total = lines.text, lines.starts, len(lines)

    def line(index: int) -> str:
        if index + 1 < total:
            return text[starts[index]:starts[index + 1] - 1]
        return text[starts[index]:].rstrip("\n")

    return line


@dataclass
class _Block:
    """An error line with its trace: lines first..last (0-based, inclusive), key lines inside."""

    first: int
    last: int
    keys: list[int]
    context: int | None  # the line of leading context
    owner: int | None = None  # for an indented block: the unindented line it sits under


@dataclass
class _Scan:
    text: str
    starts: list[int]
    total: int
    line: Callable[[int], str]
    classes: dict[int, str] = field(default_factory=dict)  # classified line -> class
    summaries: list[int] = field(default_factory=list)
    errors: list[int] = field(default_factory=list)
    warnings: list[int] = field(default_factory=list)
    kind: dict[int, str | bytes] = field(default_factory=dict)  # error line -> code or signature
    signature: dict[int, bytes] = field(default_factory=dict)  # classified line -> signature
    _blocks: dict[int, _Block] = field(default_factory=dict)
    _ends: dict[int, int] = field(default_factory=dict)  # key inside a grown block -> its end

    def block(self, key: int) -> _Block:
        """The block an error line opens. Grown on demand: in a flood of thousands of errors
        only those considered for keeping are ever read past their first line."""
        found = self._blocks.get(key)
        if found is not None:
            return found
        end = self._ends.get(key)
        if end is None:
            grown = _grow_block(self, key)
            end, context = grown.last, grown.context
            for inner in grown.keys[1:]:  # a later key's block is the rest of this one
                self._ends.setdefault(inner, end)
        else:
            context = None
        first = _traceback_start(self, key)  # a Python exception: from "Traceback (most …"
        keys = self.errors[bisect_left(self.errors, first):bisect_right(self.errors, end)]
        found = self._blocks[key] = _Block(first, end, keys, context if first == key else None,
                                           _owner(self.line, first))
        return found


def _owner(line, first: int) -> int | None:
    """The unindented line an indented block sits under (eslint's file path, a test's name)."""
    if not _is_frame(line(first)):
        return None
    for index in range(first - 1, max(-1, first - _OWNER_REACH), -1):
        text = line(index)
        if text.strip() and not text[0].isspace():
            return index
    return None


def _traceback_start(scan: _Scan, key: int) -> int:
    """The "Traceback (most recent call last):" line whose frames end at `key`, else key."""
    line = scan.line
    if key == 0 or not _is_frame(line(key - 1)) or _is_frame(line(key)):
        return key
    for index in range(key - 1, max(-1, key - _MAX_BLOCK), -1):
        text = line(index)
        if text.startswith("Traceback (most recent call last)"):
            return index
        if not _is_frame(text):
            break
    return key


def _scan(text: str, lines: Lines, line: Callable[[int], str]) -> _Scan:
    scan = _Scan(text, lines.starts, len(lines), line)
    scan.classes = _classified_candidates(text, lines, line)
    for index in sorted(scan.classes):
        {SUMMARY: scan.summaries, ERROR: scan.errors, WARNING: scan.warnings}[
            scan.classes[index]].append(index)
    # "Traceback (most recent call last):" opens a block but says nothing by itself: the
    # exception line under its frames is the error that is ranked, counted and reported.
    scan.errors = [i for i in scan.errors if not line(i).startswith("Traceback (most recent")]
    _name_kinds(line, scan)
    return scan


def _classified_candidates(text: str, lines: Lines, line) -> dict[int, str]:
    classes, total = {}, len(lines)
    # A log record's class follows from its level word, in its first 80 characters (and from
    # its end, which could say PASSED). Records that differ only in digits there (timestamps,
    # ids) share their class: a flood of them is classified once per shape.
    by_shape: dict[bytes, str | None] = {}
    for index in sorted(_candidate_lines(text, lines)):
        current = line(index)
        shape = (current[:_SHAPE_CHARS] + "\n" + current[-_RESULT_TAIL:]).encode(
            "utf-8", "surrogateescape").translate(None, _DIGITS)  # bytes: fast translate
        kind = by_shape.get(shape, _UNKNOWN)
        if kind is _UNKNOWN:
            ruff = index + 1 < total and _RULE_HEADED.match(current)  # needs the next line
            kind, by_level = _classify_why(current, line(index + 1) if ruff else "")
            if by_level:
                by_shape[shape] = kind
        if kind:
            classes[index] = kind
    return classes


_UNKNOWN = object()


def _candidate_lines(text: str, lines: Lines) -> set[int]:
    """Lines holding a trigger word or a line-start signal (a superset of the interesting ones)."""
    # bisect_right(starts, offset) is the 1-based number of the line holding offset; mapped
    # through C (map, partial), not a Python loop per hit.
    numbered = partial(bisect_right, lines.starts)
    found: set[int] = {1}
    for trigger in _TRIGGER_PATTERNS:
        found.update(map(numbered, [match.start() for match in trigger.finditer(text)]))

    def add(matches) -> None:  # line-start patterns match from the newline before the line
        found.update(map(numbered, [match.start() + 1 for match in matches]))

    add(_START_SIGNAL.finditer(text))
    head_end = min(len(text), _ENDS_CHARS)
    tail_start = max(head_end, len(text) - _ENDS_CHARS)
    add(_END_SIGNAL.finditer(text, 0, head_end))
    add(_END_SIGNAL.finditer(text, tail_start))
    if _LINT_SIGNAL.search(text, 0, head_end) or _LINT_SIGNAL.search(text, tail_start):
        add(_LINT_SIGNAL.finditer(text, head_end, tail_start))
    return {number - 1 for number in found}


def _grow_block(scan: _Scan, first: int) -> _Block:
    """The error line at `first` and the trace that follows it."""
    line, total, starts = scan.line, scan.total, scan.starts
    opening = line(first)
    # Before a log record (timestamp or level first) lies another event, not its context; after
    # a record or a path:line:col diagnostic, the next one is an event of its own.
    record = bool(_LOG_RECORD.match(opening))
    separate = record or bool(_SELF_CONTAINED.match(opening))
    keys, index = [first], first + 1
    while index < total and index - first < _MAX_BLOCK:
        run_end = _CONTINUATION_RUN.match(scan.text, starts[index]).end()
        stop = min(bisect_left(starts, run_end), first + _MAX_BLOCK)
        summary = bisect_left(scan.summaries, index)
        if summary < len(scan.summaries) and scan.summaries[summary] < stop:
            stop = scan.summaries[summary]  # a summary line ends the block
        if separate:  # so does the next diagnostic, even an indented one (eslint)
            stop = _next_event(scan, index, stop)
        keys.extend(scan.errors[bisect_left(scan.errors, index):bisect_left(scan.errors, stop)])
        index = stop
        if index >= total or (summary < len(scan.summaries) and scan.summaries[summary] == index):
            break
        text = line(index)
        if scan.classes.get(index) == ERROR and not (separate and _opens_event(text)):
            keys.append(index)  # errors next to each other are one block (trace, then message)
        elif _ends_traceback(scan, index, text):
            keys.append(index)  # a Python exception whose name says neither Error nor Exception
        else:
            break
        index += 1
    last = index - 1
    while last > first and not line(last).strip():
        last -= 1
    context = first - 1 if first > 0 and not record and line(first - 1).strip() else None
    return _Block(first, last, keys, context)


def _next_event(scan: _Scan, start: int, stop: int) -> int:
    """The first error or warning line in start..stop-1 that is an event of its own, or stop."""
    for group in (scan.warnings, scan.errors):
        position = bisect_left(group, start)
        while position < len(group) and group[position] < stop:
            if _opens_event(scan.line(group[position])):
                stop = group[position]
                break
            position += 1
    return stop


def _opens_event(text: str) -> bool:
    return bool(_LOG_RECORD.match(text) or _SELF_CONTAINED.match(text))


def _ends_traceback(scan: _Scan, index: int, text: str) -> bool:
    """Right under a Python traceback's frames, an unindented line is its exception."""
    return (bool(text) and not text[0].isspace() and bool(_PY_EXCEPTION.match(text))
            and _traceback_start(scan, index) < index)


def _name_kinds(line, scan: _Scan) -> None:
    """Kind of every error (its rule code, else its signature); signatures of all lines."""
    for group in (scan.errors, scan.warnings, scan.summaries):
        scan.signature.update(zip(group, _signatures([line(i) for i in group])))
    for index in scan.errors:
        code = _KIND_CODE.search(line(index))
        scan.kind[index] = code.group(code.lastgroup) if code else scan.signature[index]


def _signatures(texts: list[str]) -> list[bytes]:
    """Each line with what varies between repeats removed (see _LOCATION_PREFIX)."""
    if not texts:
        return []
    data = ("\n" + "\n".join(texts)).encode("utf-8", "surrogateescape")
    data = _PATH_TAIL.sub(b"/", _LOCATION_PREFIX.sub(b"\n", data))
    return [line.strip() for line in data.translate(None, _HEX_DIGITS).split(b"\n")[1:]]


# ---------------------------------------------------------------------------------- choosing

class _Picker:
    """Kept lines under a token budget; every addition pays for its lines and gap markers, and
    can be taken back (last in, first out) when the exact count says the plan is too big."""

    def __init__(self, line, total: int, counter: Counter, budget: int) -> None:
        self.line, self.counter, self.budget = line, counter, budget
        self.total = total
        self.kept = bytearray(total)
        self.runs = 1  # unkept runs, each one gap marker
        self.spent = 0
        self.misses = 0  # failed additions in a row
        self.suffixes: dict[int, str] = {}
        self.history: list[tuple[list[int], int | None, int, int]] = []
        self._tokens: dict[int, int] = {}

    def tokens(self, index: int) -> int:
        cost = self._tokens.get(index)
        if cost is None:
            text = self.line(index)
            # A line this long cannot fit (a token spans a few characters, not dozens), and
            # counting a multi-megabyte line would cost more than the whole plan.
            too_long = len(text) > _CHARS_PER_TOKEN_MAX * self.budget
            cost = self.budget + 1 if too_long else self.counter.count(text + "\n")
            self._tokens[index] = cost
        return cost

    def overhead(self, runs: int) -> int:
        return _CLOSING_TOKENS + (_GAP_TOKENS * runs if runs >= 2 else 0)

    def room(self) -> int:
        return self.budget - self.spent - self.overhead(self.runs)

    def exhausted(self) -> bool:
        return self.room() < _MIN_ROOM or self.misses >= _MAX_MISSES

    def add(self, indices, suffix: tuple[int, str] | None = None, cap: int | None = None,
            force: bool = False) -> bool:
        """Keep all of `indices` if they fit (and their own tokens are within `cap`); `force`
        skips the estimate (the caller has counted exactly)."""
        new = sorted({i for i in indices if 0 <= i < self.total and not self.kept[i]})
        extra = self.counter.count(suffix[1]) if suffix else 0
        if not new and not extra:
            return True
        tokens = extra
        for index in new:
            tokens += self.tokens(index)
            if tokens > self.budget:
                break
        runs = self.runs + self._run_change(new)
        if not force and ((cap is not None and tokens > cap)
                          or self.spent + tokens + self.overhead(runs) > self.budget):
            self.misses += 1
            return False
        for index in new:
            self.kept[index] = 1
        if suffix:
            self.suffixes[suffix[0]] = suffix[1]
        self.history.append((new, suffix[0] if suffix else None, tokens, self.runs))
        self.spent += tokens
        self.runs = runs
        self.misses = 0
        return True

    def undo(self) -> None:
        new, suffixed, tokens, runs = self.history.pop()
        for index in new:
            self.kept[index] = 0
        self.suffixes.pop(suffixed, None)
        self.spent -= tokens
        self.runs = runs

    def _run_change(self, new: list[int]) -> int:
        change, position = 0, 0
        while position < len(new):
            first = last = new[position]
            while position + 1 < len(new) and new[position + 1] == last + 1:
                position += 1
                last = new[position]
            position += 1
            left = first == 0 or self.kept[first - 1]
            right = last == self.total - 1 or self.kept[last + 1]
            change += -1 if left and right else (1 if not left and not right else 0)
        return change

    def add_run(self, indices, cap: int) -> None:
        """Keep lines in order until one does not fit within `cap` tokens."""
        used = 0
        for index in indices:
            cost = self.tokens(index)
            if used + cost > cap or not self.add((index,)):
                break
            used += cost

    def unkept_runs(self) -> list[tuple[int, int]]:
        runs, index, kept, total = [], 0, self.kept, self.total
        while index < total:
            start = kept.find(0, index)
            if start == -1:
                break
            end = kept.find(1, start)
            end = total if end == -1 else end
            runs.append((start, end - 1))
            index = end
        return runs


def _choose(scan: _Scan, picker: _Picker, budget: int) -> None:
    """Spend the budget tier by tier, most important first."""
    total = scan.total
    picker.add_run(range(total - 1, -1, -1), int(budget * _TAIL_SHARE))
    picker.add_run(range(total), int(budget * _HEAD_SHARE))
    late_summaries = _keep_summaries(scan, picker, int(budget * _SUMMARY_SHARE))
    chosen, rest = _instances_by_priority(scan, picker.line)
    _keep_cores(scan, picker, chosen)
    _keep_blocks(scan, picker, chosen, _NEAR)
    _keep_whole_blocks(scan, picker, chosen, int(budget * _WHOLE_BLOCK_SHARE))
    _keep_warnings(scan, picker)
    _keep_cores(scan, picker, rest)
    _keep_blocks(scan, picker, rest, _NEAR)
    _keep_each(picker, ((i,) for i in late_summaries))
    _keep_blocks(scan, picker, chosen + rest, _FAR)


def _keep_each(picker: _Picker, groups) -> None:
    """Add each group of lines that fits, until the budget (or patience) runs out."""
    picker.misses = 0
    for group in groups:
        if picker.exhausted():
            break
        picker.add(group)


def _keep_summaries(scan: _Scan, picker: _Picker, cap: int) -> list[int]:
    """The last line of each summary signature (failures first, latest first) within the cap;
    returns the summary lines left for later, in order."""
    last: dict[bytes, int] = {}
    for index in scan.summaries:
        last[scan.signature[index]] = index

    def failing(index: int) -> bool:
        text = picker.line(index)
        return bool(_FAILING_SUMMARY.search(text)) and not _NOTHING_FAILED.search(text)

    order = sorted(last.values(), key=lambda i: (not failing(i), -i))
    used = 0
    for index in order:
        cost = 0 if picker.kept[index] else picker.tokens(index)
        if used + cost <= cap and picker.add((index,)):
            used += cost
    return [index for index in scan.summaries if not picker.kept[index]]


def _instances_by_priority(scan: _Scan, line) -> tuple[list[int], list[int]]:
    """(chosen, rest). Chosen: the first instance of every kind, rarest kinds first, then the
    last instance of every repeated kind (it shows the error persisted). Rest: the others,
    rarer kinds first; a message that names a bug (undefined, mismatch…) counts as rarer than
    a style nit. Java's innermost "Caused by:" is the root cause: it goes first. A bare
    test-result line (test_x ... FAIL) waits behind the failure reports that explain it."""
    kinds = Tally(scan.kind.values())
    first: dict[str | bytes, int] = {}
    last: dict[str | bytes, int] = {}
    for key in scan.errors:  # sorted by position
        first.setdefault(scan.kind[key], key)
        last[scan.kind[key]] = key

    # Judged once per kind, on its first instance: the search is slow for a per-line test.
    rarity = {kind: kinds[kind] * (_BUG_WEIGHT if _BUG_WORDS.search(line(key)) else 1)
              for kind, key in first.items()}

    def rank(key: int) -> tuple:
        text = line(key)
        root = _CAUSE.match(text) is not None and _is_root_cause(scan, key)
        return (_is_result_line(text), rarity[scan.kind[key]], not root, key)

    firsts = sorted(first.values(), key=rank)
    lasts = sorted((last[k] for k in first if last[k] != first[k]), key=rank)
    chosen = firsts + lasts
    taken = set(chosen)
    rest = sorted((key for key in scan.errors if key not in taken), key=rank)
    return chosen, rest


def _is_root_cause(scan: _Scan, key: int) -> bool:
    """The last "Caused by:" of its chain (no later one in the trace it starts)."""
    return not any(_CAUSE.match(scan.line(later)) for later in scan.block(key).keys if later > key)


def _is_result_line(text: str) -> bool:
    return bool(_ERROR_END.search(text, len(text) - _RESULT_TAIL)) and not (
        _ERROR_START.match(text) or _has_error_word(text))


def _keep_cores(scan: _Scan, picker: _Picker, keys: list[int]) -> None:
    """Each error line with the two lines after it in its block (location, first frame) or,
    when it ends a trace, the three indented lines before it (the innermost frame), and the
    block's last error line when it comes later (ERROR: test_x, then its exception); the
    error line alone when that is all that fits. Separator and gutter-only lines are skipped;
    an indented block brings the line it sits under (eslint's file path)."""
    picker.misses = 0
    for key in keys:
        if picker.exhausted():
            break
        block = scan.block(key)
        core = [key] + [i for i in (key + 1, key + 2)
                        if i <= block.last and not _UNINFORMATIVE.match(scan.line(i))]
        if key == block.last and key > block.first:
            core += [i for i in (key - 1, key - 2, key - 3) if i >= block.first]
        if block.keys and block.keys[-1] > key:
            core.append(block.keys[-1])  # a report's header goes with its final message
        if block.owner is not None:
            core.append(block.owner)  # whose error it is: the file, the test
        if not picker.add(core):
            picker.add((key,))


def _is_frame(text: str) -> bool:
    return text[:1] in (" ", "\t") and bool(text.strip())


def _keep_blocks(scan: _Scan, picker: _Picker, keys: list[int], reach: int) -> None:
    """Lines of the blocks holding kept keys, nearest to a key line (or block end) first."""
    picker.misses = 0
    for block in _blocks_in_order(scan, picker, keys):
        for index in _by_distance(block, reach):
            if picker.exhausted():
                return
            picker.add((index,))


def _keep_whole_blocks(scan: _Scan, picker: _Picker, keys: list[int], cap: int) -> None:
    """Blocks small enough are kept whole (a trace reads better without holes)."""
    picker.misses = 0
    for block in _blocks_in_order(scan, picker, keys):
        if picker.exhausted():
            break
        first = block.context if block.context is not None else block.first
        if block.last - first < 200:
            picker.add(range(first, block.last + 1), cap=cap)


def _blocks_in_order(scan: _Scan, picker: _Picker, keys: list[int]) -> list[_Block]:
    """Blocks opened by the kept ones among `keys`, in the order of `keys`."""
    return [scan.block(key) for key in keys if picker.kept[key]]


def _by_distance(block: _Block, reach: int) -> list[int]:
    """Block lines (and its context line) within `reach` of a key line or the block's ends."""
    anchors = sorted(set(block.keys) | {block.first, block.last})
    first = block.context if block.context is not None else block.first
    found = []
    for index in range(first, block.last + 1):
        position = bisect_left(anchors, index)
        nearest = min(abs(anchors[p] - index) for p in (position - 1, position)
                      if 0 <= p < len(anchors))
        if nearest <= reach:
            found.append((nearest, index))
    return [index for _, index in sorted(found)]


def _keep_warnings(scan: _Scan, picker: _Picker) -> None:
    """Each distinct warning once, with its repeat count: the most frequent and the rarest
    alternately (the first explain the bulk of what was cut, the second are likelier signal)."""
    counts = Tally(scan.signature[i] for i in scan.warnings)
    first: dict[bytes, int] = {}
    for index in scan.warnings:
        first.setdefault(scan.signature[index], index)
    by_count = sorted(first, key=lambda s: (-counts[s], first[s]))
    order = []
    while by_count:
        order.append(by_count.pop(0))
        if by_count:
            order.append(by_count.pop())
    picker.misses = 0
    for signature in order:
        if picker.exhausted():
            break
        index, count = first[signature], counts[signature]
        picker.add((index,), (index, f"  (×{count:,})") if count > 1 else None)


# ---------------------------------------------------------------------------------- assembly

def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    total = len(lines)
    if total < 3 or budget < _CLOSING_TOKENS + 2 * _GAP_TOKENS:
        return None
    line = _line_reader(lines)
    scan = _scan(text, lines, line)
    picker = _Picker(line, total, counter, budget)
    _choose(scan, picker, budget)
    note = _finish(scan, lines, picker, budget)
    if not any(picker.kept):
        return None
    return _assemble(lines, scan, picker, note)


def _finish(scan: _Scan, lines: Lines, picker: _Picker, budget: int) -> str:
    """From estimates to exact counts: take back what does not fit, turn small gaps back into
    lines, spend what is left on head and tail, and check again. Returns the note."""
    cost, note = _settle(scan, lines, picker, budget)
    slack = budget - cost
    for first, last in picker.unkept_runs():
        if last - first <= 1:  # a gap of a line or two costs about as much as its marker
            extra = sum(picker.tokens(i) for i in range(first, last + 1)) - \
                _marker_tokens(scan, lines, picker, first, last)
            if extra <= slack and picker.add(range(first, last + 1), force=True):
                slack -= extra
    # Let the estimates that guide growth see the budget the exact count leaves.
    cost, note = _exact_cost(scan, lines, picker)
    picker.budget = budget + (picker.spent + picker.overhead(picker.runs)) - cost
    _grow_ends(picker)
    picker.budget = budget
    return _settle(scan, lines, picker, budget)[1]


def _grow_ends(picker: _Picker) -> None:
    """Spend what is left on more head and more tail, two tail lines for each head line."""
    kept = picker.kept
    head, tail = kept.find(0), kept.rfind(0)
    turn = 0
    while 0 <= head <= tail and picker.room() >= _MIN_ROOM:
        if turn % 3 == 2:
            if not picker.add((head,)):
                break
        elif not picker.add((tail,)):
            break
        turn += 1
        head, tail = kept.find(0), kept.rfind(0)


def _settle(scan: _Scan, lines: Lines, picker: _Picker, budget: int) -> tuple[int, str]:
    """Take back the latest additions until the exact count fits; returns (cost, note)."""
    while True:
        cost, note = _exact_cost(scan, lines, picker)
        if cost <= budget or not picker.history:
            return cost, note
        over = cost - budget
        while over > 0 and picker.history:
            over -= picker.history[-1][2]
            picker.undo()


def _exact_cost(scan: _Scan, lines: Lines, picker: _Picker) -> tuple[int, str]:
    """Tokens of the rendered plan (the closing marker estimated), and the note it carries."""
    note = _omitted_note(scan, picker.line, picker)
    runs = picker.unkept_runs()
    markers = 0
    if len(runs) >= 2:  # a single gap is rendered as the closing marker itself
        markers = sum(_marker_tokens(scan, lines, picker, *run) for run in runs)
    closing = _CLOSING_TOKENS if runs else 0
    return picker.spent + markers + closing + (picker.counter.count(note) if note else 0), note


def _marker_tokens(scan: _Scan, lines: Lines, picker: _Picker, first: int, last: int) -> int:
    return picker.counter.count(inline_marker(_gap(lines, scan, first, last))) + 1


def _omitted_note(scan: _Scan, line, picker: _Picker) -> str:
    """[omitted errors by kind: S101 ×1,203, ANN001 ×802, …] when some errors were left out."""
    omitted = Tally(scan.kind[key] for key in scan.errors if not picker.kept[key])
    if not omitted:
        return ""
    first_line: dict[str | bytes, int] = {}
    for key in scan.errors:
        first_line.setdefault(scan.kind[key], key)
    named = [f"{_label(kind, line(first_line[kind]))} ×{count:,}"
             for kind, count in omitted.most_common(_NOTE_KINDS)]
    more = len(omitted) - len(named)
    tail = f" (and {more:,} more kinds)" if more > 0 else ""
    return f"[omitted errors by kind: {', '.join(named)}{tail}]"


def _label(kind: str | bytes, first_line: str) -> str:
    """A kind as a reader would name it: its rule code, or the start of its message."""
    if isinstance(kind, str):
        return kind
    message = _LABEL_PREFIX.sub("", first_line.strip()) or first_line.strip()
    return message if len(message) <= 50 else message[:49].rstrip() + "…"


def _assemble(lines: Lines, scan: _Scan, picker: _Picker, note: str) -> Plan:
    items: list[Item] = []
    omitted = position = 0
    for first, last in picker.unkept_runs():
        if first > position:
            items.extend(_keeps(lines, picker, position, first - 1))
        items.append(_gap(lines, scan, first, last))
        omitted += last - first + 1
        position = last + 1
    if position < len(lines):
        items.extend(_keeps(lines, picker, position, len(lines) - 1))
    if note:
        items.append(Note(note))
    return Plan("log", tuple(items), len(lines), omitted)


def _keeps(lines: Lines, picker: _Picker, first: int, last: int) -> list[Keep]:
    """Kept lines first..last, split after each line that carries a repeat count."""
    keeps, start = [], first
    for index in sorted(i for i in picker.suffixes if first <= i <= last):
        keeps.append(Keep(lines.start(start), lines.end(index), picker.suffixes[index]))
        start = index + 1
    if start <= last:
        keeps.append(Keep(lines.start(start), lines.end(last)))
    return keeps


def _gap(lines: Lines, scan: _Scan, first: int, last: int) -> Gap:
    """An inline gap whose detail counts the error and warning lines inside it."""
    errors = bisect_right(scan.errors, last) - bisect_left(scan.errors, first)
    warnings = bisect_right(scan.warnings, last) - bisect_left(scan.warnings, first)
    parts = [f"{errors:,} error{'s' * (errors != 1)}" if errors else "",
             f"{warnings:,} warning{'s' * (warnings != 1)}" if warnings else ""]
    return gap(lines, first, last, ", ".join(part for part in parts if part))


# ---------------------------------------------------------------------------------- streaming

# An output too large to hold is fed to a Scanner in parts (intake.py); the planner then runs on
# an excerpt: the output's head and tail with the lines picked here in between. What is picked
# is what the planner would consider: every candidate line (_candidate_lines' searches, but for
# _END_SIGNAL, whose summaries the head and tail hold), the line before it (unless it is a log
# record, whose context the planner never takes) and its block: the continuation run, capped
# at _MAX_BLOCK lines, and the line right after it when that can end a Python traceback.

# _START_SIGNAL and _LINT_SIGNAL in one pass: both start at the newline before their line, and
# the engine's step from one newline to the next is most of what a line-start search costs.
# Most log lines start with a timestamp, so lines starting with a digit get a branch of their
# own: of those signals, such a line can only be a test count (3 passing) or a lint location
# (2to3.py:1:1: E501). Its digits are read once for both, and the lint location's numbers
# possessively (a timestamp's "2024-05-01T00:00:00.000Z" fails at the ".", without retries).
# (test_log_stream checks that this finds what the two regexes find.)
assert _START_SIGNAL.pattern.startswith(r"\n") and _LINT_SIGNAL.pattern.startswith(r"\n")
_TEST_COUNT = r"\ (?:passing|failing|pending|passed|failed|skipped)"
assert r"\d+" + _TEST_COUNT in _START_SIGNAL.pattern  # the one start signal that is a digit
_LINT_PATH, _LINT_REST = r"[\w./\\-]", r":\d+:\d+:?\ [A-Z]{1,5}\d{2,4}\b"
assert _LINT_SIGNAL.pattern == r"\n" + _LINT_PATH + "++" + _LINT_REST
_LINE_SIGNAL_PATTERN = (
    r"\n(?:(?=\D)(?:" + _START_SIGNAL.pattern[2:] + "|" + _LINT_SIGNAL.pattern[2:] + ")"
    r"|\d++(?:" + _TEST_COUNT + "|" + _LINT_PATH + "*+"  # the digits begin the path
    + _LINT_REST.replace("+", "++").replace("?", "?+") + "))")  # a retry finds no ":" or " "
_LINE_SIGNAL = re.compile(_LINE_SIGNAL_PATTERN, re.VERBOSE)
# The same for a text that is all ASCII (most are). On it ASCII mode's \w, \d and \b match what
# Unicode mode's do (\s would not: \x1c-\x1f are Unicode spaces, so none is used), and a path
# character is one bitmap test rather than a Unicode category lookup: ~2x faster.
assert r"\s" not in _LINE_SIGNAL_PATTERN and r"\S" not in _LINE_SIGNAL_PATTERN
_LINE_SIGNAL_ASCII = re.compile(_LINE_SIGNAL_PATTERN.replace(_LINT_PATH, r"[0-9A-Za-z_./\\-]"),
                                re.VERBOSE | re.ASCII)
_CONTINUES = re.compile(_CONTINUATION_STEP, re.VERBOSE | re.MULTILINE)  # a run's first step
_NOT_SPACE = re.compile(r"\S")
_BLANK_LINE = re.compile(r"[^\S\n]*(?:\n|\Z)")
_FRAME_LINE = re.compile(r"[ \t][^\S\n]*\S")  # _is_frame, at a position
_MAX_SHAPES = 200_000
_NEW_SHAPE_SHARE = 0.25  # past the limit, lines of a new shape may add this share of it,
_NEW_ERROR_SHARE = 0.25  # and those that may be errors (not found by a warning word) this more
_WARNING_TRIGGERS = frozenset({"arn", "ARN"})
# How the scanner searches for the trigger words. The engine's literal search is a scan for
# the word's first letter, which is most of what it costs, so the words with a capital A share
# one search, from their A (FATAL by looking back from it): the rare A then has the engine try
# three words, which costs less than two more scans, even in text in capitals (~200 vs ~250 ms
# per 100 MB, where a tenth of the letters is an A). Group 1 marks the warning word. The three
# cannot overlap one another, so each line holding any of them has a match, as with a search
# per word. A long word is found by str.find, whose two-way search skips ahead by most of its
# length: twice as fast.
_CAPITAL_A_TRIGGERS = re.compile(r"A(?:(RN)|IL|TAL(?<=FATAL))")
assert {"ARN", "AIL", "FATAL"} <= set(_TRIGGERS) and "ARN" in _WARNING_TRIGGERS
_LONG_TRIGGER = "undefined reference"
_SCANNER_TRIGGERS = tuple((word in _WARNING_TRIGGERS, pattern)
                          for word, pattern in zip(_TRIGGERS, _TRIGGER_PATTERNS)
                          if word not in ("ARN", "AIL", "FATAL", _LONG_TRIGGER))
assert len(_SCANNER_TRIGGERS) == len(_TRIGGERS) - 4 and _LONG_TRIGGER not in _WARNING_TRIGGERS
_MAX_CARRY = 8 << 20  # characters held back for a block still open at a part's end


class Scanner:
    """Picks the lines the log planner needs from an output fed in order, in parts.

    feed(text, offset, line): the next part of the cleaned output, starting at a line start
    (offset: of text[0] in the whole output; line: its 0-based number). A part ends just after
    a newline, but for the last one, and for one cut inside a line too long for a part: such a
    line is never picked. picks(): whole lines kept, as (offset, line, text), ascending and
    non-overlapping. planner(): the plan function to run on the excerpt.

    Speed: each part is searched for what _candidate_lines finds in a whole text (literal
    searches for the trigger words, one line-start regex), and Python looks at candidate lines
    only: what it needs of them is worked out through C calls in bulk, and a line with no run
    after it (most) takes a short path. A part's last line, and a block that may go on into the
    next part, wait for that part: the picks do not depend on where the parts were cut.

    Memory: past `limit` characters of picks, a candidate line is kept only when its shape
    (its first characters, digits removed) is new, within a bounded number of shapes and a
    quarter of `limit` more (half, for a line no warning word alone found); the others are
    counted, and the plan says so in a note.
    """

    def __init__(self, tool: Tool, limit: int) -> None:
        self.tool, self.limit = tool, limit
        self._carry = ""  # text not yet settled, from a line start
        self._carry_offset = self._carry_line = 0
        self._scan_from = 0  # where in _carry the unsearched lines start
        self._fresh = True  # _carry's first line has no line before it that may be picked
        self._split = False  # inside a line cut across parts: skipped to its end
        self._finished = False
        self._picks: list[tuple[int, int, str]] = []
        self._open: tuple[str, ...] | None = None  # texts of the pick being built
        self._open_offset = self._open_line = 0
        self._done = -1  # where the pick being built ends
        self._chars = 0  # characters picked
        self._shapes: set[int] = set()
        # Until the limit is reached the shapes are only recorded, not looked up: the first
        # characters of each line picked wait here (a string per part, "\n" between lines: fewer
        # characters than were picked) and are hashed only if the limit is reached.
        self._unhashed: list[str] | None = []
        self.folded = 0  # candidate lines past the limit whose shape was picked before
        self.skipped = 0  # other candidate lines past the limit

    # ---- the interface

    def feed(self, text: str, offset: int, line: int) -> None:
        if self._finished:
            raise RuntimeError("feed after picks()")
        if self._carry and self._carry[-1] != "\n":
            # The carried last line goes on in this part: a line cut across parts.
            self._carry = self._carry[:self._carry.rfind("\n") + 1]
            self._process(final=True)  # what comes before it is whole
            self._split = True
        if self._split:
            end = text.find("\n")
            if end == -1:
                return
            self._split = False
            text, offset, line = text[end + 1:], offset + end + 1, line + 1
            self._restart(offset, line)
        if not text:
            return
        if self._carry:
            self._carry += text
        else:
            self._carry, self._carry_offset, self._carry_line = text, offset, line
        self._process(final=False)
        if len(self._carry) > _MAX_CARRY:  # a block of huge lines: settle what is held
            carry, offset, line = self._carry, self._carry_offset, self._carry_line
            cut = carry.rfind("\n") + 1
            self._carry = carry[:cut]
            self._process(final=True)
            self._restart(offset + cut, line + carry.count("\n", 0, cut))
            self._carry = carry[cut:]

    def picks(self) -> list[tuple[int, int, str]]:
        if not self._finished:
            self._finished = True
            if self._carry:
                self._process(final=True)
            self._flush()
        return self._picks

    def note(self) -> str:
        """What the plan of the excerpt must say when lines were counted but not picked."""
        if not self.folded and not self.skipped:
            return ""
        counted = f"{self.folded:,} repeats of lines shown"
        if self.skipped:
            counted += f" and {self.skipped:,} other such lines"
        return (f"[past the first {self.limit:,} characters of error and warning lines, "
                f"{counted} were counted but not examined]")

    def planner(self):
        self.picks()  # the counts are final once the last part is settled
        note = self.note()
        return partial(_plan_with_note, note=note) if note else plan

    # ---- the scan

    def _restart(self, offset: int, line: int) -> None:
        self._carry, self._carry_offset, self._carry_line = "", offset, line
        self._scan_from, self._fresh = 0, True

    def _process(self, final: bool) -> None:
        """Pick from _carry what is settled; keep the rest (and its context line) carried."""
        buf, base = self._carry, self._carry_offset
        size, begin = len(buf), self._scan_from
        if not buf:
            return
        if final:
            window = size
        else:  # the last whole line waits: ruff's format needs the line after it
            newline = buf.rfind("\n")
            window = buf.rfind("\n", 0, newline) + 1 if newline > 0 else 0
            if window <= begin:
                return
        # Candidate lines, as the offsets of the newline before them (-1: the first line).
        newline_before = partial(buf.rfind, "\n", 0)
        found: set[int] = set()
        warnings: set[int] = set()
        start_of = re.Match.start
        for warning, trigger in _SCANNER_TRIGGERS:
            (warnings if warning else found).update(
                map(newline_before, map(start_of, trigger.finditer(buf, begin, window))))
        hits = list(_CAPITAL_A_TRIGGERS.finditer(buf, begin, window))
        hit_lines = list(map(newline_before, map(start_of, hits)))
        warned = list(map(re.Match.group, hits, repeat(1)))  # "RN" for ARN, else None
        warnings.update(compress(hit_lines, warned))
        found.update(compress(hit_lines, map(not_, warned)))
        hit = buf.find(_LONG_TRIGGER, begin, window)
        while hit != -1:
            found.add(newline_before(hit))
            hit = buf.find(_LONG_TRIGGER, hit + 1, window)
        signal = _LINE_SIGNAL_ASCII if buf.isascii() else _LINE_SIGNAL
        signals = list(map(start_of, signal.finditer(buf, max(0, begin - 1))))
        found.update(signals[:bisect_left(signals, window - 1)])
        if self._fresh and begin == 0:
            found.add(-1)
        warnings -= found  # lines only a warning word found
        found |= warnings
        newlines = sorted(found)

        # What the loop needs of every candidate line, worked out by C calls through map rather
        # than one by one in Python: where it starts, its number, where it ends (its newline, or
        # the text's end) and where the next line starts.
        starts = [newline + 1 for newline in newlines]
        numbers = list(accumulate(map(buf.count, repeat("\n"), [0, *starts[:-1]], starts),
                                  initial=self._carry_line))[1:]
        ends = list(map(partial(buf.find, "\n"), starts))
        nexts = [end + 1 for end in ends]
        if ends and ends[-1] == -1:  # only the last line can lack a newline
            ends[-1] = nexts[-1] = size
        is_record, continues_at = partial(_LOG_RECORD.match, buf), partial(_CONTINUES.match, buf)

        limit = self.limit
        ceiling = limit + int(limit * _NEW_SHAPE_SHARE)
        error_ceiling = ceiling + int(limit * _NEW_ERROR_SHARE)
        shapes, unhashed, picks = self._shapes, self._unhashed, self._picks
        # The pick being built: where it starts, its texts from earlier parts, and where its
        # text in buf starts (`seg`) and ends (`done`: nothing is picked from there on yet).
        parts, first, first_line = self._open, self._open_offset, self._open_line
        done, chars, folded, skipped = self._done - base, self._chars, self.folded, self.skipped
        seg = done  # (below 0 when the pick ended before buf: it is never added to then)
        run_from = run_end = -1  # the last continuation run looked at: buf[run_from:run_end]
        run_line, run_settled, run_after, run_after_end = 0, True, False, 0
        target = -1  # the open block's last line (-1: none), where it ends (or -1, and the
        target_end = target_anchor = 0  # line its _MAX_BLOCK cap counts from)
        deferred = -1
        cp, cl = 0, self._carry_line  # the line looked at (its start and number)
        for cp, cl, end, nxt in zip(starts, numbers, ends, nexts):
            if target >= 0:  # the open block: kept up to this line, or done before it
                if cl <= target:
                    stop = nxt
                else:
                    stop = target_end if target_end >= 0 else _cap_end(buf, target_anchor)
                    target = -1
                if stop > done:
                    chars += stop - done
                    done = stop
            # Picked so far, counted to this line's end: the same wherever the parts were cut.
            # (It is at most chars: below the limit, chars alone settles the test.)
            picked = chars if done <= nxt or chars < limit else chars - (done - nxt)
            if picked >= limit:  # and so are all the lines after this one
                covered = cp < done
                if unhashed is not None:  # the shapes picked so far are needed from now on
                    heads = _heads(buf, starts[:bisect_left(starts, cp)], ends)
                    _hash_shapes(shapes, [*unhashed, heads] if heads is not None else unhashed)
                    unhashed = self._unhashed = None
                shape = hash(buf[cp:min(end, cp + _SHAPE_CHARS)]
                             .encode("utf-8", "surrogateescape").translate(None, _DIGITS))
                if shape in shapes:
                    folded += not covered
                    continue
                if (picked >= ceiling or len(shapes) >= _MAX_SHAPES) and (
                        picked >= error_ceiling or cp - 1 in warnings):
                    skipped += not covered
                    continue
            # The block: the continuation run after the line (the run it is in, if any). Mostly
            # none follows, and the next line starts with a word: the block is the line alone.
            # The next line (whole: at worst it is the last, held back) settles that; an
            # unindented line takes no line after its run with it (a frame's line does). So the
            # line is picked below with no `target`, and no note of its run: nothing is in it.
            if nxt <= run_end or buf[cp] in " \t" or not final and buf[nxt].isspace() or (
                    continues_at(nxt) is not None):
                if not (run_from <= nxt <= run_end and (nxt == run_end or not buf[nxt].isspace()
                                                        or not _BLANK_LINE.match(buf, nxt))):
                    run_from, run_end = nxt, _CONTINUATION_RUN.match(buf, nxt).end()
                    run_line = cl + 1 + buf.count("\n", nxt, run_end)
                    if final:
                        run_settled = True
                        if run_end == size and run_end > nxt and buf[-1] != "\n":
                            run_line += 1  # the last line, without its newline
                    else:  # settled when what follows it is here (its first non-blank line whole)
                        after = _NOT_SPACE.search(buf, run_end)
                        run_settled = after is not None and buf.find("\n", after.start()) != -1
                    tail = buf.rfind("\n", 0, run_end - 1) + 1 if run_end > nxt else cp
                    run_after = run_end < size and buf[tail] in " \t" and bool(
                        _FRAME_LINE.match(buf, tail))
                    run_after_end = (buf.find("\n", run_end) + 1 or size) if run_after else run_end
                if run_line - cl > _MAX_BLOCK:  # capped: the first _MAX_BLOCK lines, the next
                    block_last, block_end = cl + _MAX_BLOCK, -1
                elif not run_settled:
                    deferred = cp
                    break
                else:
                    block_last, block_end = run_line - (not run_after), run_after_end
                if block_last > target:  # kept up to there from the next candidate line on
                    target, target_end, target_anchor = block_last, block_end, cp
            if unhashed is None and len(shapes) < _MAX_SHAPES:  # (else: hashed later)
                shapes.add(shape)
            # The line, and the line before it unless it is a log record (no matter which, when
            # the line starts inside the pick being built): more of that pick, or a new one.
            start, start_line = cp, cl
            if (parts is None or cp > done) and cp and not is_record(cp, end):
                start, start_line = buf.rfind("\n", 0, cp - 1) + 1, cl - 1
            if parts is not None and start <= done:
                if nxt > done:
                    chars += nxt - done
                    done = nxt
            else:
                if parts is not None:
                    text = buf[seg:done]
                    picks.append((first, first_line, "".join((*parts, text)) if parts else text))
                parts, seg, first, first_line = (), start, base + start, start_line
                chars += nxt - start
                done = nxt
        if target >= 0:
            stop = target_end if target_end >= 0 else _cap_end(buf, target_anchor)
            if stop > done:
                chars += stop - done
                done = stop
        if parts is not None and done > seg:
            parts = (*parts, buf[seg:done])
        if unhashed is not None:  # the lines looked at were all picked (but a deferred one)
            heads = _heads(buf, starts[:bisect_left(starts, deferred)] if deferred >= 0
                           else starts, ends)
            if heads is not None:
                unhashed.append(heads)
        at, line_at = cp, cl
        self._open, self._open_offset, self._open_line = parts, first, first_line
        self._done, self._chars, self.folded, self.skipped = base + done, chars, folded, skipped
        if final:
            self._carry, self._carry_offset = "", base + size
            self._carry_line = line_at + buf.count("\n", at)
            self._scan_from, self._fresh = 0, False
            return
        # Carried on: the unsearched lines (from the first one deferred) and the line before.
        scan = deferred if deferred >= 0 else window
        keep = buf.rfind("\n", 0, scan - 1) + 1 if scan > 0 else 0
        if keep >= at:
            line = line_at + buf.count("\n", at, keep)
        else:
            line = line_at - buf.count("\n", keep, at)
        self._carry = buf[keep:]
        self._carry_offset, self._carry_line = base + keep, line
        self._scan_from = scan - keep
        self._fresh = self._fresh and scan == 0

    def _flush(self) -> None:
        if self._open is not None:
            self._picks.append((self._open_offset, self._open_line, "".join(self._open)))
            self._open = None


def _heads(buf: str, starts: list[int], ends: list[int]) -> str | None:
    """The first characters of the lines at `starts` (ending at `ends`), "\n" between them."""
    if not starts:
        return None
    return "\n".join(map(buf.__getitem__, map(slice, starts, map(
        min, ends, [start + _SHAPE_CHARS for start in starts]))))


def _hash_shapes(shapes: set[int], unhashed: list[str]) -> None:
    """Add the shapes of the lines in `unhashed` (strings of line heads, "\n" between them), in
    order, while there are fewer than _MAX_SHAPES: as if each were added as it was picked."""
    for joined in unhashed:
        for shape in map(hash, joined.encode("utf-8", "surrogateescape")
                         .translate(None, _DIGITS).split(b"\n")):
            if len(shapes) >= _MAX_SHAPES:
                return
            shapes.add(shape)


def _cap_end(buf: str, anchor: int) -> int:
    """Where the line _MAX_BLOCK lines after the one at `anchor` ends (or the text does)."""
    # Compiled here (re caches it): _MAX_BLOCK is read when a runaway block needs it.
    capped = re.compile(r"(?:[^\n]*\n){%d}" % (_MAX_BLOCK + 1)).match(buf, anchor)
    return capped.end() if capped else len(buf)


def _plan_with_note(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool,
                    note: str) -> Plan | None:
    """log.plan of an excerpt, with the scanner's note on what it counted but did not pick."""
    found = plan(text, lines, budget - counter.count(note) - 1, counter, tool)
    return None if found is None else replace(found, items=found.items + (Note(note),))
