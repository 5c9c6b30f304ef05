"""How a log line is told: the failure, summary and warning signals the sniffer and the
planner share, and `looks_like`."""

from __future__ import annotations

import re
from functools import cache

from ...patterns import lazy
from ...tools import Tool
from ..costs import JUDGED_CHARS
from ..diagnostics import (INDENTED_CODE, LOWER_WORDS, SIGNAL as DIAGNOSTIC_SIGNAL, SPELLED_PLACE,
                           is_finding, located)

SUMMARY, ERROR, WARNING = "summary", "error", "warning"


# Substrings, case variants spelled out, one of which every error or warning line holds unless
# START_SIGNAL or END_SIGNAL knows it by its start. A literal search runs at memory speed, a
# regex alternation of the same words ~10x slower; each word is one pass, so the list is short.
TRIGGERS = ("rror", "RROR", "arn", "ARN", "AIL", "xception", "FATAL", "undefined reference")
TRIGGER_PATTERNS = tuple(re.compile(re.escape(word)) for word in TRIGGERS)

# Valgrind's error records: what went wrong, said without an error word — memcheck's, and the
# thread checkers' (helgrind's races and lock misuse, DRD's conflicting accesses).
_MEMCHECK = (r"==\d++==\ (?:Invalid\ (?:read|write|free)|Conditional\ jump|Use\ of\ uninitialised"
             r"|Mismatched\ free|Syscall\ param|Source\ and\ destination\ overlap"
             r"|Process\ terminating|Argument\ '|[\d,]++\ bytes\ in\ [\d,]++\ blocks\ are"
             r"\ definitely\ lost|Possible\ data\ race\ during|Conflicting\ (?:load|store)\ by"
             r"|Thread\ \#\d++(?::\ lock\ order|\ unlocked\ a\ not-locked))")

# Failure signals recognisable at the start of a line, looked for all through the text. The
# lookahead skips most lines after one character test.
START_SIGNAL = lazy(r"""\n(?=[ \tETpftn=\[●✕✗✘×!⚠>A-Z0-9])(?:
    E\ {2} | Traceback\ \( | panic:\  | fatal:\  | npm\ ERR!
  | thread\ '[^'\n]*'(?:\ \(\d+\))?\ panicked                       # Rust 1.9x: the thread's id
  | [ \t]*[!⚠]\ [\w-]+(?:/[\w-]+)*\(                                 # miette: "! eslint(rule)"
  | [ \t]*\d+/\d+\ Test\ +\#\d+:[^\n]*\*\*\*                         # ctest: "***Failed"
  | >>\ Issue:\  | Program\ (?:received|terminated\ with)\ signal\   # bandit, gdb (a core)
  | [A-Z]{1,5}\d{2,4}(?:\ \[\*\])?\ [^\n]*\n[ \t]*-->              # ruff full: code, then location
  | [ \t]*(?:\d+\ (?:passing|failing|pending|passed|failed|skipped)|[●✕✗✘×]\ |not\ ok\ )
  | =+\  | \[?(?:CRITICAL|SEVERE|PANIC|EMERG|ALERT)\b | Segmentation\ fault | Aborted\ \(core
  | [EW]:\ (?![\ \t\n])                                              # apt, lintian: "E: …"
  | """ + _MEMCHECK + r"""
)""", re.VERBOSE)
# A verdict over what came before: `→ Overall exposure level for nginx.service: 9.6 UNSAFE`
# (systemd-analyze security, one a unit), lcov's `Overall coverage rate:`.
_OVERALL = r"(?:[→⇒]\ )?Overall\ [\w\ .-]*+:\ *+\S"
# Runner summaries sit at the ends of an output: only the first and last ENDS_CHARS are searched
# for these (a failing summary says FAIL or error, which the triggers find anywhere). Tried at
# every line start there, so a branch does not walk a line and back: a repeat that a failed
# test cannot shorten into a match is possessive, and the go location first checks that a
# path and a ":" and digit open the line (test_log_signals holds it to the plain form).
END_SIGNAL = lazy(r"""\n(?:
    (?:collecting\ \.\.\.\ )?collected\ \d | Ran\ \d | OK\b | ok\s | test\ result: | \[\*\]\ \d
  | Tests?:\  | Test\ Suites:\  | Snapshots:\  | Found\ \d | BUILD\  | \[INFO\]\ (?:BUILD|Tests)
  | make(?:\[\d+\])?:\  | Success:\  | All\ checks\ passed | Some\ errors | For\ more\ information
  | Successfully\ installed | Failed\ to\ build | added\ \d | found\ \d
  | [\#ℹ]\ (?:tests|pass)\ \d
  | [ \t]*+\S++(?<=\S:)\ (?:OK|commands\ succeeded) | [ \t]*congratulations | Tests\ run:
  | \d++\ (?:errors?|warnings?)\ generated | compilation\ terminated | Errors\ +Files
  | [\w./\\-]++:\d++:\d++:?+\ [A-Z]{1,5}\d{2,4}\b | \d++%\ tests\ passed | Total\ Test\ time
  | (?=[\w./\\-]++:\d)[\w./\\-]+\.[A-Za-z]\w*:\d+:\d+:\ \S          # go: a located message
  | ==\d+==\ +(?:in\ use\ at\ exit|ERROR\ SUMMARY):                   # valgrind
  | ninja:\ build\ stopped | Process\ finished\ with | exit\ status\ \d | [ \t]*+ELIFECYCLE
  | Command\ exited\ with | \d++\ examples?,\ \d                        # a process's verdict, rspec
  | """ + _OVERALL + r"""
)""", re.VERBOSE)
ENDS_CHARS = 256 * 1024
# Lint output without a trigger word (ruff/flake8/pylint concise: path:12:5: F821 message) is
# looked for all through the text only when the ends show it.
LINT_SIGNAL = lazy(r"\n[\w./\\-]++:\d+:\d+:?\ [A-Z]{1,5}\d{2,4}\b")  # ++: no retries
# Go's compiler and vet say what is wrong after a location, with no word for it
# (./flag.go:1103:12: not enough return values): looked for like lint output.
LOCATED_SIGNAL = lazy(r"\n[\w./\\-]++:\d++:\d++:\ \S")
LOCATED_MESSAGE = lazy(rf"[\w./\\-]+\.[A-Za-z]\w*:\d+:\d+:\ (?!(?:{LOWER_WORDS})\b)\S")
# Test results that passed, whatever their names say (test_error_message PASSED): searched in
# a line's last RESULT_TAIL characters (pytest pads results to column 80), or at its start.
RESULT_TAIL = 100
_PASSED_END = lazy(r" (?:PASSED|SKIPPED|XFAIL|XPASS|PASS|SKIP)(?:\s+\[\s*\d+%\])?\s*$"
                   r"| \.\.\. (?:ok|skipped\b.*|expected failure)\s*$")
_PASSED_START = lazy(r"\s*+(?:--- (?:PASS|SKIP)|=== (?:RUN|PAUSE|CONT)|[✓✔√] )")

# Progress: a line that says work goes on and nothing about how it went (a build step, a
# download, a passing test's dots). It is the log ladder's last rung.
_PROGRESS = lazy(r"""[ \t]*+(?:
    \[\s*\d{1,3}%\]\ |                                    # cmake/make: [ 42%] Building C object
    (?:Compiling|Checking|Downloading|Downloaded|Fetching|Collecting|Installing|Building
      |Linking|Resolving|Unpacking|Preparing|Obtaining|Using\ cached
      |Requirement\ already\ satisfied)\b |
    \S+\ [.sx]+\s+\[\s*\d{1,3}%\]\s*$                      # pytest: a.py ....s   [ 40%]
)""", re.VERBOSE)


_SUMMARY = lazy(r"""[ \t]*+(?:\[(?:INFO|ERROR|WARNING)\]\ *)?(?:
    =+\ .*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?
              |no\ tests\ ran)\b.*=+
  | =+\ (?:FAILURES|ERRORS|short\ test\ summary\ info|warnings\ summary|PASSES)\ =+
  | (?:collecting\ \.\.\.\ )?collected\ \d+\ items?
  | \d+\ (?:passed|failed|errors?)\b.*\bin\ [\d.]+s
  | Ran\ \d+\ tests?\ in | OK(?:\ \(.*\))?\s*$ | FAILED\ \((?:failures|errors|skipped|expected)
  | \d+\ (?:passing|failing|pending)\b | Tests?:\ +\d | Test\ Suites:\ | Snapshots:\ +\d
  | test\ result:\ | ok\s+\S+\s+(?:[\d.]+s|\(cached\)|\[no\ test\ files\])
  | FAIL\s+\S+\s+[\d.]+s\s*$
  | (?:FAIL|PASS)\s*$ | BUILD\ (?:SUCCESS|FAILURE|SUCCESSFUL|FAILED) | Total\ time:
  | Tests\ run:\ \d+,\ Failures: | \d+\ actionable\ tasks?
  | Found\ \d+\ (?:errors?|problems?|warnings?) | Errors\ +Files\s*$
  | \d+\ (?:errors?|warnings?|problems?)\s*$                       # jshint: "431 errors"
  | Total\ (?:[a-z]+\ )?(?:errors|warnings|problems|issues)(?:\ found)?\ *[:=]\ *\d+\s*$
  | \S*\ *\d+\ problems?\ \(\d+\ errors?,\ \d+\ warnings?\)
  | \d+\ errors?\ and\ \d+\ warnings?\ potentially\ fixable | \[\*\]\ \d+\ fixable
  | Success:\ no\ issues\ found | All\ checks\ passed | """ + _OVERALL + r"""
  | error:\ (?:could\ not\ compile|aborting\ due\ to|test\ failed) | Some\ errors\ have\ detailed
  | For\ more\ information\ about\ (?:this|an)\ error | warning:\ .*generated\ \d+\ warnings?
  | warning:\ \d+\ warnings?\ emitted | \d+\ (?:errors?|warnings?)\ generated\.
  | make(?:\[\d+\])?:\ (?:\*\*\*|Target\ .*\ not\ remade) | compilation\ terminated
  | collect2:\ error: | Successfully\ installed | ERROR:\ Could\ not\ (?:build|install|find)
  | Failed\ to\ build\b | npm\ (?:ERR!|error)\ (?:code|A\ complete\ log) | added\ \d+\ packages?
  | found\ \d+\ vulnerabilit | \S+:\ (?:OK|FAIL)\ (?:code\ \d+\ )?\( | \S+:\ commands\ succeeded
  | congratulations\ :\) | evaluation\ failed\ :\( | Error:\ Process\ completed\ with\ exit\ code
  | [\#ℹ]\ (?:tests|pass|fail|suites|cancelled|skipped|todo|duration_ms)\ \d
  | \d+%\ tests\ passed,\ \d+\ tests?\ failed\ out\ of | Total\ Test\ time
  | \d+\ Tests\ \d+\ Failures\ \d+\ Ignored
  | ==\d+==\ +(?:in\ use\ at\ exit|total\ heap\ usage|definitely\ lost|ERROR\ SUMMARY):
  | ninja:\ build\ stopped | Build\ FAILED\.?\s*$ | \d+\ (?:Error|Warning)\(s\)\s*$     # msbuild
  | \d+\ examples?,\ \d+\ failures?                                     # rspec
  | (?:\#\#\[error\])?Process\ (?:completed|finished)\ with\ exit\ code  # a process's verdict
  | exit\ status\ \d+\s*$ | Command\ exited\ with\ non-zero | ELIFECYCLE\b
  | (?:error\ )?Command\ failed\ with\ exit\ code
)""", re.VERBOSE)

# A log record's own level decides its class, whatever words its message contains. Looked for
# in the first 80 characters; a quoted word ('INFO' in an assertion) is not a level.
_LEVEL_WORDS = (r"ERROR|ERR!|FATAL|CRITICAL|SEVERE|EMERG|ALERT|PANIC|WARN(?:ING)?|INFO|DEBUG"
                r"|TRACE|NOTICE|VERBOSE")
_LEVEL = lazy(_LEVEL_WORDS)
# A level word listed beside another (`QUIET, FATAL, ERROR, INFO`: a document naming the
# levels) is no record's own level.
_LISTED_LEVEL = lazy(rf",\s*(?:{_LEVEL_WORDS}|QUIET)(?!\w)"
                     rf"|\s*(?:,\s*)?(?:and|or)\s+(?:{_LEVEL_WORDS})(?!\w)")
_LEVEL_BOUNDARY = frozenset("'\"`-_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_NAMED_LEVEL = lazy(r"""(?:level|lvl|severity)"?\s*[:=]\s*"?([A-Za-z]+)""")
_GLOG = lazy(r"([EWIF])\d{4} \d\d:\d\d:\d\d")
# Debian's tools open a record with its level's letter: apt's `E: Unable to locate package x`,
# `W: Some index files failed to download`, lintian's `W: pkg: hardening-no-pie [usr/bin/x]`.
_LETTER_LEVEL = lazy(r"([EW]): (?=\S)")
_RULE_SEVERITY = lazy(r"\b[A-Z]{1,4}\d{3,5} \((?:error|warning)\):")
_BRACKET_LEVEL = lazy(r"\[(error|warn|warning|info|debug|fatal)\]", re.IGNORECASE)  # prettier
# Apache httpd's `[proxy_http:error]` after its date: the module, then the record's level.
_MODULE_LEVEL = lazy(r"\[\w*:(emerg|alert|crit|error|warn|notice|info|debug|trace\d)\]")
_LEVEL_CLASS = {
    "ERROR": ERROR, "ERR!": ERROR, "FATAL": ERROR, "CRITICAL": ERROR, "SEVERE": ERROR,
    "EMERG": ERROR, "ALERT": ERROR, "PANIC": ERROR, "WARN": WARNING, "WARNING": WARNING,
    "CRIT": ERROR, "ERR": ERROR, "E": ERROR, "F": ERROR, "W": WARNING,
}

# Errors recognised by how the line starts (matched, never searched: cheap on long lines).
ERROR_START = lazy(r"""[ \t]*+(?:
    (?:\|[ \t]+)*(?:Caused\ by:\ |Uncaught\ |Exception\ in\ thread\ \S+\ )?
        [\w$.]*(?:Error|Exception|Failure|Fault)\b(?:\ \[[\w-]+\])?(?::|\s*$)   # exception
  | Traceback\ \(most\ recent\ call\ last\) | panic:\  | fatal:\ 
  | thread\ '[^']*'(?:\ \(\d+\))?\ panicked
  | [\-=>*\#|\ ]*(?:FAIL|FAILED|FAILURE)\b | (?:[✕✗✘×]|●|not\ ok)\  | npm\ ERR!
  | \d+:\d+\ +error\ {2}                                             # eslint stylish
  | [\w./\\-]+:\d+:\d+:?\ [A-Z]{1,5}\d{2,4}\b                       # lint concise
  | \S+:\d+:\ [\w.]*(?:Error|Exception)\b                            # pytest location line
  | \S+:\d+:\w+:FAIL\b                                              # Unity: file:line:test:FAIL
  | \d+/\d+\ Test\ +\#\d+:.*\*\*\*\w | The\ following\ tests\ FAILED:
  | Errors\ while\ running\ CTest | >>\ Issue:\  | Program\ (?:received|terminated\ with)\ signal\ 
  | \[?(?:CRITICAL|SEVERE|PANIC|EMERG|ALERT)\b | Segmentation\ fault | Aborted\ \(core
  | \#\#\[error\] | npm\ error\  | CMake\ Error\b | FAILURES!           # Actions, npm 10, cmake, phpunit
  | rspec\ \S+:\d+\ \#                                                  # rspec's failed examples
  | """ + _MEMCHECK + r"""
)|E\ {2}""", re.VERBOSE)
# "error:" anywhere (gcc, mypy, rustc error[E0308]:, tsc error TS2322:), found by its literal
# tail; the letter before it is checked in Python.
_ERROR_WORD = lazy(r"rror(?:\[[\w-]+\]| +[A-Z]{1,4}\d{2,5}|\))?:")  # shellcheck: (error):
ERROR_END = lazy(r" (?:FAILED|FAIL|ERROR)(?:\s+\[.*\])?\s*$")  # pytest -v, unittest -v
_WARNING_START = lazy(r"[ \t]*+(?:\d+:\d+\ +warning\ {2}|npm\ warn\b|[!⚠]\ [\w-]+(?:/[\w-]+)*\("
                      r"|\#\#\[warning\]|CMake\ (?:Deprecation\ )?Warning\b)")
# An assertion that failed, said as an event (C's `Assertion `x' failed.`, Lua's and Rust's
# `assertion failed!`, `assertion failed: x`; not prose's "a failed assertion"): told when the
# line is a candidate (no trigger word of its own: a whole-text search more would cost the
# streamed log a pass), as the message under a panic or before `Aborted (core dumped)` is;
# and a CI runner's annotations after a timestamp.
_ASSERTION_FAILED = lazy(r"\b[Aa]ssertion failed(?:[!:.,]|\s*$)|\bAssertion [`'‘\"].*['’\"] failed")
_ANNOTATION = lazy(r"\#\#\[(error|warning)\]")
_WARNING_WORD = lazy(r"[Ww]arn(?:ing)?(?:\[[\w-]+\]|\))?:")
RULE_HEADED = lazy(r"[A-Z]{1,5}\d{2,4}(?: \[\*\])? \S")  # ruff full, before a --> line
_LOCATION = lazy(r"[ \t]*+--> ")

# Lines that carry an error block on: traces, code frames, notes, test diffs. Tested at the
# start of most lines after a candidate (a timestamped record, mostly), so no branch may walk a
# line and back: a repeat that a failed test cannot shorten into a match is possessive, and the
# two that open on a whole token (`\S+:`) first check, possessively, the word after it, which
# every line they match has (the first blank ends the token). The same lines match, with the
# same ends (test_log_signals checks against the backtracking form, on hypothesis text).
_CONTINUATION = r"""(?:
    [ \t]++\S
  | (?:Caused\ by|Suppressed|Wrapped\ by):\  | During\ handling\ of\ the\ above\ exception
  | The\ above\ exception\ was\ the\ direct\ cause | Traceback\ \(most\ recent\ call
  | \.\.\.\ \d+\ (?:more|common\ frames) | --> | \| | =\  | \d++\ *+\| | \d++\ {2,}+\S | [~^]++\s*$
  | (?:note|help|hint|Note|Hint):\  |
    (?=\S++\ (?:note|required\ from|in\ expansion))\S+:\d+(?::\d+)?:\  |
    In\ file\ included\ from
  | \S\S++(?<=:)\ In\ (?:function|member|instantiation|constructor|lambda)
  | E\ {2} | E\s*$ | >\ {2} | -{5,}+\s*$ | [-+?]\ \S | First\ \w+
  | (?:Expected|Received|Got|Actual|Failed\ example)\b
  | goroutine\ \d+\ \[ | created\ by\  |
    [\w.$/*()\[\]-][\w.$/*)\[\]-]*+\(.*\)\s*$       # a call: from its first "(" past the first
  | \#\d+\ +(?:0x[\da-f]+\ in\ )?\S+\ \(                  # a gdb backtrace frame
  | [\w.:<>~$]++\ \(.*\)\ at\ \S+:\d+\s*$ | \d++\t             # gdb: the frame, its source line
  | ==\d++==\ {2,}+\S                                                 # memcheck: a record's frames
)"""
# After a blank line (or two), only these carry the block on: a chained trace, a code frame.
_BRIDGE = r"""(?:
    [ \t]+\S | (?:Caused\ by|Suppressed):\  | During\ handling | The\ above\ exception
  | Traceback\ \(most | goroutine\ \d+ | \d+\ {2,}\S | \d+\ *\| | --> | [-+?]\ \S
  | First\ (?:list|tuple|sequence|set|dict|differing)
)"""
# A run of continuation lines, matched from a block's second line: the regex engine walks the
# lines, not Python. Each step is a line, or a blank line or two before a bridge.
CONTINUATION_STEP = (r"(?:" + _CONTINUATION + r"[^\n]*(?:\n|\Z)"
                r"|[ \t\r]*\n(?:[ \t\r]*\n)?(?=" + _BRIDGE + r"))")
CONTINUATION_RUN = lazy(CONTINUATION_STEP + "*", re.VERBOSE | re.MULTILINE)
# An error line that says what happened by itself (a timestamped or levelled record, a
# path:line:col diagnostic): the next such line is a new event, not part of this block.
SELF_CONTAINED = lazy(r"[\w./\\-]+[:(]\d+(?:[:,]\d+)?\)?:?\s"
                             r"|[ \t]*+\d+:\d+\s+(?:error|warning)\s"  # eslint stylish
                             rf"|{SPELLED_PLACE.pattern}")  # jshint: `a.js: line 8, col 7,`
PY_EXCEPTION = lazy(r"[\w.]+(?::|\s*$)")

# Rule codes name an error's kind: rustc E0308, tsc TS2322, lint F821, eslint rule, -Wflag.
KIND_CODE = lazy(r"""
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
LOCATION_PREFIX = lazy(rb"\n[ \t]*[^\s:(]+[:(]\d+(?:[:,]\d+)*\)?:?")
PATH_TAIL = lazy(rb"/[^\s'\"`:,;)\]]*")
HEX_DIGITS = b"0123456789abcdefABCDEF"
# A structured (JSON) record's message and the logger that wrote it: what names its kind. The
# rest of the record (the request, its headers, a port, a timestamp) varies between repeats.
_JSON_MESSAGE = lazy(r'"(?:msg|message)"\s*:\s*"((?:[^"\\\n]|\\.)*)"')
_JSON_LOGGER = lazy(r'"(?:logger|logger_name|component|module)"\s*:\s*"([^"\n]*)"')


def record_message(line: str) -> str | None:
    """A JSON record's logger and message (`http.log.error no upstreams available`), or None
    when the line is no JSON record or names no message."""
    if not line[:64].lstrip().startswith("{"):  # (a record's line can be megabytes long)
        return None
    message = _JSON_MESSAGE.search(line)
    if message is None:
        return None
    logger = _JSON_LOGGER.search(line)
    return f"{logger[1]} {message[1]}" if logger else message[1]


@cache  # compiled on first use (~4 ms): most clips of a log name no omitted kinds
def label_prefix() -> re.Pattern:
    """Prefixes stripped for display in the by-kind note: timestamps, levels, [threads],
    locations."""
    return re.compile(r"""^(?:
    \d[\d\-:.,/TZ+]*\s* | \[[^\]]*\]\s* | (?:ERROR|FATAL|CRITICAL|SEVERE|ERR!)\b:?\s*
  | -\s+ | \S+:\d+(?::\d+)?:?\s+ | \S+\(\d+,\d+\):\s*
)+""", re.VERBOSE)


# Sniffing a file that is not shell output: does the line look like a log record?
_READ_PREFIX = lazy(r"[ \t]*+\d++(?:\t|→)")
LOG_RECORD = lazy(r"""[ \t]*+(?:
    \[?\d{4}-\d\d-\d\d[T\ ]\d\d:\d\d | \[?\d{4}/\d\d/\d\d[T\ ]\d\d:\d\d
  | [A-Z][a-z]{2}\ [\ \d]\d\ \d\d:\d\d:\d\d | \[?\d\d:\d\d:\d\d[.,\]\ ] | \[?\d{10}(?:\.\d+)?\]?\s
  | [EWIFD]\d{4}\ \d\d:\d\d:\d\d | \S+\ \S+\ \S+\ \[\d\d/\w{3}/\d{4}:
  | \[?(?:ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|CRITICAL|NOTICE)\b
  | \{.*"(?:level|severity|lvl|log\.level)"\s*:
)""", re.VERBOSE)
# Shell tools' own record forms, for their output only: cmake's "-- ", prettier's "[warn]",
# consola's glyphs (unbuild, nuxi), strace's system calls, the commands make echoes (`gcc -c …`,
# `rm -f x.o`: a program and an option) and make's own lines.
SHELL_RECORD = lazy(r"""(?:
    --\ \S | \[(?i:error|warn|warning|info|debug|log|success|fatal)\]\  | [ℹ✔✖⚠◐]\ 
  | (?:\[pid\ +\d+\]\ )?[a-z_]\w*\(.*\)\ +=\ (?:-?\d+|0x[\da-f]+|\?) | \+\+\+\ exited\ with
  | [a-z_][\w.+-]*+\ ++-{1,2}[A-Za-z] | make(?:\[\d++\])?:\ 
)""", re.VERBOSE)
# Records the sniffer also counts, by their prefix (the planner's record starts stay LOG_RECORD):
# a compiler's or linter's located message (`x.c:12:5: warning: …`, `a.py:3:1: F401 …`: a
# file of them is a build log whichever tool read it); a clock with seconds after at most three
# words, or a date and a clock after at most one (`update-alternatives 2025-06-24 14:36:53: …`,
# Apache's `[Tue Nov 26 12:00:00.1 2024]`; `ps -ef`'s TIME column and `git blame`'s dates lie
# further in; not the common log format's `host - - [27/Nov/2026:01:41:08] "GET …`: an access
# log's failures are its status codes, which no log rule reads, and the template rung keeps
# its rare 404s); a time since start in brackets (the JVM's `[0.005s][info]`,
# dmesg's `[    0.000000]`); a progress step that starts its line with its verb, after the
# tool's name or not (`Unpacking x …`, configure's `checking for z... yes`,
# `config.status: creating Makefile`); a tool's name and a lower-case level (`npm verbose …`,
# `gyp info …`); a status and its target in brackets (ansible's `ok: [host]`); or a step's
# number (BuildKit's `#5 [2/4] RUN …`, `Step 2/9 : RUN …`, ninja's `[3/35] Building …`).
_PREFIXED_RECORD = lazy(r"""(?:
    [\w./\\-]++:\d++(?::\d++)?:\ (?:fatal\ error|error|warning|note)\b
  | [\w./\\-]++:\d++:\d++:?\ [A-Z]{1,5}\d{2,4}\b
  | (?:\S++[ \t]++)?\[?\d{4}[-/]\d\d[-/]\d\d[T\ ]++\d\d:\d\d:\d\d(?!\d)
      (?![.,]?\d*+(?:\ ?[+-]\d\d:?\d\d|\ ?Z|\ [A-Z]{3,4})?\s*$)   # a time that ends its line: a value
  | (?:(?!\d{4}[-/])\S++[ \t]++){0,3}?\[?\d\d?:\d\d:\d\d(?!\d)
  | \[\ *+\d++\.\d++m?s?\]
  | (?:[\w.-]++:\ )?[A-Za-z][a-z]++(?<=ing)\b(?!\ *[:=])
  | [a-z][\w.-]*+\ (?:verbose|verb|silly|sill|http|timing|notice|info|warn|error|debug)\ 
  | [a-z]++:\ \[[^\]\s]++\]
  | \#\d++\ | Step\ \d++/\d++\ : | \[\d++/\d++\]\ 
)""", re.VERBOSE)
# Lines that carry a record on: indented (a trace, a wrapped message), a chained cause, a
# Java frame count, a compiler's context (`x.c: In function ‘f’:`, `In file included from`).
_CARRIED = lazy(r"[ \t]|Caused by:|\.\.\. \d+ (?:more|common frames)|In file included from"
                r"|\S+: In (?:function|member|instantiation|constructor|lambda|static)")
_LOG_RECORD_SHARE = 0.6
# A line's shape: its first characters with the digits removed (timestamps, ids), so that a
# flood of records differing only in those is looked at once.
SHAPE_CHARS = 80
DIGITS = b"0123456789"


def shape_of(line: str) -> int:
    """The hash of a line's shape (the scanner inlines it where each line counts)."""
    return hash(line[:SHAPE_CHARS].encode("utf-8", "surrogateescape").translate(None, DIGITS))

# A summary line that reports a failure is kept before one that reports success.
FAILING_SUMMARY = lazy(r"(?i)fail|error|\bnot ok\b|\bexit (?:code|status) [1-9]|ELIFECYCLE")
NOTHING_FAILED = lazy(r"(?i)\b0 (?:failed|errors?|failures?)(?!\w)")  # (`0 Error(s)` too)
CAUSE = lazy(r"\s*+Caused by: ")
# Words of a bug rather than a style nit: among rare kinds, these messages go first.
BUG_WORDS = lazy(r"""(?i)undefined|not\ defined|undeclared|unresolved|cannot\ find
    |could\ not\ find|not\ found|no\ such|no\ module|has\ no\ (?:attribute|member)|unknown\ name
    |mismatch|syntax\ ?error|invalid\ syntax|incompatible\ type|cannot\ be\ applied
    |not\ assignable|segmentation\ fault|null\ pointer|out\ of\ range|overflow|deadlock
    |moved\ value|use\ of\ possibly|uninitiali[sz]ed|unbound|not\ callable|before\ assignment
    |already\ defined|segfault|SIGSEGV""", re.VERBOSE)
BUG_WEIGHT = 0.25  # a bug-worded kind ranks as if it were this much rarer
# A compiler's caret line, pointing into the source line quoted above it: clang's `    ^~~~~~`,
# gcc's and rustc's under a gutter (`      |     ^~~~`, `  |  ^^^ expected u32`), shellcheck's
# `  ^-- SC2086 (info): …`, Python's `~^~`. The quoted line is code, whatever its words say
# (`snprintf(buf, …, "Query buffer during protocol error")`): no record of its own.
CARET_LINE = lazy(r"[ \t]*+(?:\d++[ \t]*+)?\|?[ \t]*+[~^][~^ \t-]*+(?:$|\S)")
# Lines that carry no words: separators, bare gutters, the traceback banner.
UNINFORMATIVE = lazy(r"\s*+(?:[-=_~^|*#+]+|Traceback \(most recent call last\):)?\s*$")


def looks_like(sample: list[str], tool: Tool) -> bool:
    """Shell output with an error signal or runner summaries, or text made of log records."""
    if tool.trusts_log_signal and _has_log_signal(sample):
        return True
    return _mostly_log_records(sample, tool.trusts_log_signal)


def looks_like_a_failed_run(sample: list[str], tool: Tool) -> bool:
    """Shell output of a failing test run or build: an error and a runner's or compiler's
    summary, or an error that names its own place (path:line:col, a traceback, error[E…]).
    Such output quotes source (tracebacks, code frames), so this is asked before code is."""
    if not tool.trusts_log_signal:
        return False
    summary = located = False
    for kind, line in _signals(sample):
        summary = summary or kind == SUMMARY
        located = located or kind == ERROR and _names_its_place(line)
        if located or summary and kind == ERROR:
            return True
    return False


def _names_its_place(line: str) -> bool:
    """Its location, or a linter's rule code with its severity (shellcheck's `SC1087 (error):`,
    under the `In FILE line N:` it belongs to)."""
    return (line.startswith(("Traceback (most recent call last)", "error[")) or
            bool(SELF_CONTAINED.match(line[:JUDGED_CHARS]) or _RULE_SEVERITY.search(line, 0, JUDGED_CHARS)))


def _has_log_signal(sample: list[str]) -> bool:
    """An error line, two runner summaries, a closing one with figures, or three warnings."""
    last = next((line for line in reversed(sample) if line.strip()), "")
    if any(c.isdigit() for c in last) and _classify(last, "") == SUMMARY:
        return True
    tally = {SUMMARY: 0, WARNING: 0}
    for kind, _ in _signals(sample):
        if kind == ERROR:
            return True
        tally[kind] += 1
        if tally[SUMMARY] >= 2 or tally[WARNING] >= 3:
            return True
    return False


# An exception's bare name, indented, with no message: a class listed in a document (pydoc's
# class tree, an API index), not an error raised (a traceback's last line starts its row).
_MENTION = lazy(r"[ \t]++(?:\|[ \t]++)?[\w.]*(?:Error|Exception)[ \t]*$")
# A message's template, not a message: a printf placeholder (`WARNING: %s major version %s`),
# or a level with nothing after it (`ERROR:  `) — what `strings` finds in a binary, or a
# message catalog holds. No event happened.
_TEMPLATE = lazy(r"[^%]*+%[-+#0]*+(?:\d++|\*)?(?:\.(?:\d++|\*))?(?:l{0,2}|z)[sdiufxXcp]\b"
                  r"|\W*+\w++:[ \t]*$")


def _signals(sample: list[str]):
    """(class, line) of every line of the sample that has a class, in order. Sniffing asks
    this of one sample twice (looks_like_a_failed_run, then looks_like): what the first asking
    read is kept for the second, and the judging goes on from where it stopped."""
    global _read
    if _read is None or _read[0] is not sample:  # (held: its id is not reused meanwhile)
        _read = (sample, [], _judged_signals(sample))
    _, seen, rest = _read
    yield from seen
    for signal in rest:
        seen.append(signal)
        yield signal


_read: tuple[list[str], list[tuple[str, str]], object] | None = None


def _judged_signals(sample: list[str]):
    """_signals, judged: a line with the line after it (ruff's format needs it); a pair seen
    before (a flood of one warning) is not judged again."""
    judged: dict[tuple[str, str], str | None] = {}
    for index, line in enumerate(sample):
        following = sample[index + 1] if index + 1 < len(sample) else ""
        kind = judged.get((line, following), _UNJUDGED)
        if kind is _UNJUDGED:
            kind = judged[line, following] = _classify(line, following) if _might_signal(
                line, following) else None
            if kind and ((kind == ERROR and _MENTION.match(line))
                         or (kind != SUMMARY and _TEMPLATE.match(line))):
                kind = judged[line, following] = None
        if kind:
            yield kind, line


_UNJUDGED = object()


# A clock, then only numbers: a row of a sampling tool's table (pidstat's, sar's, `vmstat
# -t`'s `12:09:13   101   5239   7.92   5.94 …`), no record, which says something after its time.
_SAMPLED_ROW = lazy(r"[ \t]*+\d\d?:\d\d:\d\d(?:[ \t]++[AP]M)?(?:[ \t]++[-+]?[\d.,]++%?){4}")


def _mostly_log_records(sample: list[str], shell: bool = False) -> bool:
    """Most lines are records; the lines that carry a record on (a trace, a wrapped message)
    are not counted either way."""
    records = others = 0
    # Past this many others the share cannot be reached however the rest reads (records are
    # at most the sample's other lines): prose is not read through for a log's sake.
    most_others = (1 - _LOG_RECORD_SHARE) * len(sample)
    for index, line in enumerate(sample):
        if not line.strip():
            continue
        if others > most_others:
            return False
        line = _without_read_prefix(line)
        if _SAMPLED_ROW.match(line):
            others += 1
        elif _is_record(line) or shell and SHELL_RECORD.match(line) or _opens_a_finding(
                line, sample[index + 1] if index + 1 < len(sample) else ""):
            records += 1
        elif not _CARRIED.match(line):
            others += 1
    return records >= 3 and records >= _LOG_RECORD_SHARE * (records + others)


def _opens_a_finding(line: str, following: str) -> bool:
    """A two-line record's first line: its place, with the rule code indented under it
    (pydocstyle's `a.py:12 in public function f:`, then `    D103: Missing docstring`)."""
    return line[:1] not in (" ", "\t") and INDENTED_CODE.match(following) is not None


def _is_record(line: str) -> bool:
    return bool(LOG_RECORD.match(line) or _PREFIXED_RECORD.match(line)) or located(line)


def _without_read_prefix(line: str) -> str:
    # Matched, not substituted: an unanchored search would retry at every position of a
    # whitespace or digit run, quadratic in the line's length.
    prefix = _READ_PREFIX.match(line)
    return line[prefix.end():] if prefix else line


def _might_signal(line: str, following: str) -> bool:
    """The per-line twin of _candidate_lines' whole-text search."""
    if any(word in line for word in TRIGGERS):
        return True
    pair = "\n" + line + "\n" + following
    return bool(START_SIGNAL.match(pair) or END_SIGNAL.match(pair) or LINT_SIGNAL.match(pair)
                or DIAGNOSTIC_SIGNAL.match(pair))


def _classify(line: str, following: str) -> str | None:
    """summary, error, warning or None (following: the next line, which ruff's format needs)."""
    return classify_why(line, following)[0]


def classify_why(line: str, following: str) -> tuple[str | None, bool]:
    """(class, whether the record's level word alone decided it)."""
    line = line.rstrip("\r")
    head = line[:JUDGED_CHARS]  # per-line patterns see a bounded part (see costs.JUDGED_CHARS)
    if RULE_HEADED.match(head) and _LOCATION.match(following[:JUDGED_CHARS]):
        return ERROR, False  # ruff's full format: "F821 Undefined name `x`", then "  --> a:1:2"
    if _PASSED_END.search(line, len(line) - RESULT_TAIL) or _PASSED_START.match(head):
        return None, False
    level = _level(line)
    # Records with a level are classified by it (and a record flood is classified fast); only
    # Maven's "[INFO] BUILD FAILURE" kind of summary carries a level.
    if (level is None or line.lstrip().startswith("[")) and _SUMMARY.match(head):
        return SUMMARY, False
    if level is not None:
        return _LEVEL_CLASS.get(level), not line.lstrip().startswith("[")
    if ERROR_START.match(head) or has_error_word(head) or ERROR_END.search(line, len(line) - RESULT_TAIL):
        return ERROR, False
    if "undefined reference to" in line or "ld returned" in line or "ld: cannot find" in line:
        return ERROR, False
    if "##[" in head:
        annotation = _ANNOTATION.search(head)
        if annotation:
            return (ERROR if annotation.group(1) == "error" else WARNING), False
    if "ssertion" in head and _ASSERTION_FAILED.search(head):
        return ERROR, False
    if _WARNING_START.match(head) or ("arn" in line and _WARNING_WORD.search(head)):
        return WARNING, False
    if LOCATED_MESSAGE.match(head) or is_finding(head):
        return ERROR, False  # a linter's finding, whatever its words (diagnostics.py)
    return None, False


_GRAVEST = frozenset({"FATAL", "CRITICAL", "CRIT", "EMERG", "ALERT", "PANIC", "F"})


def gravest(line: str) -> bool:
    """A record whose own level is above ERROR (FATAL, CRITICAL, PANIC, EMERG, ALERT: a
    process or a connection given up, not a statement that failed)."""
    return _level(line) in _GRAVEST


def _level(line: str) -> str | None:
    """The record's level word (ERROR, WARN, INFO…), or None when the line has none."""
    for match in _LEVEL.finditer(line, 0, 80):
        start, end = match.span()
        if (start == 0 or line[start - 1] not in _LEVEL_BOUNDARY) and \
                (end == len(line) or line[end] not in _LEVEL_BOUNDARY) and \
                not _LISTED_LEVEL.match(line, end):
            return match.group()
    bracketed = _BRACKET_LEVEL.match(line) if line[:1] == "[" else None
    if bracketed:
        return bracketed.group(1).upper()
    module = _MODULE_LEVEL.search(line, 0, 80) if ":" in line[:80] else None
    if module:
        return module.group(1).upper()
    named = _NAMED_LEVEL.search(line, 0, 120) if "l" in line[:120] else None
    if named:
        return named.group(1).upper()
    letter = _GLOG.match(line) or _LETTER_LEVEL.match(line)
    return letter.group(1) if letter else None


def is_progress(line: str) -> bool:
    """Whether a line only says that work goes on (see _PROGRESS), or reports a passing test."""
    head = line[:JUDGED_CHARS]
    if _PASSED_END.search(line, len(line) - RESULT_TAIL) or _PASSED_START.match(head):
        return True
    return bool(_PROGRESS.match(head)) and not has_error_word(head) and \
        not _WARNING_WORD.search(head)


def has_error_word(line: str) -> bool:
    """error: / Error: / error[E0308]: / error TS2322: as a word (not "stderror:", nor an
    object key in code: "{error:")."""
    for match in _ERROR_WORD.finditer(line):
        start = match.start()
        if start >= 1 and line[start - 1] in "eE" and (
                start < 2 or not line[start - 2].isalnum() and line[start - 2] not in "{,;.$"):
            return True
    return False
