"""The log signals' patterns: rewritten for speed, they match what their plain forms match."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from headroom_cli.planners.log import signals

# CONTINUATION_STEP's lines as first written (before issue #24): branches that walk a line and
# back (`\S+:`, `[\w.$/*()\[\]-]+\(`). The rewrite must match where this matches, to the same end.
_BACKTRACKING_CONTINUATION = r"""(?:
    [ \t]+\S
  | (?:Caused\ by|Suppressed|Wrapped\ by):\  | During\ handling\ of\ the\ above\ exception
  | The\ above\ exception\ was\ the\ direct\ cause | Traceback\ \(most\ recent\ call
  | \.\.\.\ \d+\ (?:more|common\ frames) | --> | \| | =\  | \d+\ *\| | \d+\ {2,}\S | [~^]+\s*$
  | (?:note|help|hint|Note|Hint):\  | \S+:\d+(?::\d+)?:\ (?:note|required\ from|in\ expansion)
  | In\ file\ included\ from | \S+:\ In\ (?:function|member|instantiation|constructor|lambda)
  | E\ {2} | E\s*$ | >\ {2} | -{5,}\s*$ | [-+?]\ \S | First\ \w+
  | (?:Expected|Received|Got|Actual|Failed\ example)\b
  | goroutine\ \d+\ \[ | created\ by\  | [\w.$/*()\[\]-]+\(.*\)\s*$
  | \#\d+\ +(?:0x[\da-f]+\ in\ )?\S+\ \(                  # a gdb backtrace frame
  | [\w.:<>~$]+\ \(.*\)\ at\ \S+:\d+\s*$ | \d+\t              # gdb: the frame, its source line
)"""
_PLAIN_STEP = (r"(?:" + _BACKTRACKING_CONTINUATION + r"[^\n]*(?:\n|\Z)"
               r"|[ \t\r]*\n(?:[ \t\r]*\n)?(?=" + signals._BRIDGE + r"))")
_FLAGS = re.VERBOSE | re.MULTILINE
_PLAIN = re.compile(_PLAIN_STEP, _FLAGS)
_PLAIN_RUN = re.compile(_PLAIN_STEP + "*", _FLAGS)
_STEP = re.compile(signals.CONTINUATION_STEP, _FLAGS)

# What the branches look at: their words and signs, digits, blanks of each kind, a non-ASCII
# letter and space, so that random text reaches deep into each branch.
_PIECES = st.sampled_from([
    " ", "\t", "\r", "\n", "\x0b", "\x1c", "\xa0", "\u2003", ":", "::", "1", "12", "0x1f", "a",
    "É", "_", ".", "$", "/", "*", "(", ")", "[", "]", "-", "-----", "~", "^", "|", "=", "#",
    "<", ">", "?", "+", "E", "E  ", "note", "required from", "in expansion", "In ",
    "function", "lambda", " at ", "x.c", "Caused by", "help", "First ", "Expected",
    "goroutine ", "created by ", "In file included from", "2024-05-01T00:00:00.042Z INFO ",
    "src/a.c:12:5: ", "a.cc: In function", "f(x)", " (", "-->", "... 3 more", "Traceback (most",
])


def _lines_of(pieces):
    """Text of a few short lines made of `pieces`: each line start is where the patterns try."""
    return st.lists(st.lists(pieces, max_size=6).map("".join), max_size=6).map("\n".join)


_TEXT = st.one_of(_lines_of(_PIECES), st.text(max_size=40))


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT)
def test_continuation_step_matches_what_its_backtracking_form_matches(text):
    for position in range(len(text) + 1):
        plain, fast = _PLAIN.match(text, position), _STEP.match(text, position)
        assert (plain and plain.end()) == (fast and fast.end()), (text, position)
    run_end = signals.CONTINUATION_RUN.match(text).end()
    assert run_end == _PLAIN_RUN.match(text).end()


# END_SIGNAL as first written (before issue #24), with the repeats that walk a line and back.
_PLAIN_END = re.compile(r"""\n(?:
    (?:collecting\ \.\.\.\ )?collected\ \d | Ran\ \d | OK\b | ok\s | test\ result: | \[\*\]\ \d
  | Tests?:\  | Test\ Suites:\  | Snapshots:\  | Found\ \d | BUILD\  | \[INFO\]\ (?:BUILD|Tests)
  | make(?:\[\d+\])?:\  | Success:\  | All\ checks\ passed | Some\ errors | For\ more\ information
  | Successfully\ installed | Failed\ to\ build | added\ \d | found\ \d
  | [\#ℹ]\ (?:tests|pass)\ \d
  | [ \t]*\S+:\ (?:OK|commands\ succeeded) | [ \t]*congratulations | Tests\ run:
  | \d+\ (?:errors?|warnings?)\ generated | compilation\ terminated | Errors\ +Files
  | [\w./\\-]+:\d+:\d+:?\ [A-Z]{1,5}\d{2,4}\b | \d+%\ tests\ passed | Total\ Test\ time
  | [\w./\\-]+\.[A-Za-z]\w*:\d+:\d+:\ \S                             # go: a located message
  | ==\d+==\ +(?:in\ use\ at\ exit|ERROR\ SUMMARY):                   # valgrind
)""", re.VERBOSE)
_END_PIECES = st.sampled_from([
    "\n", " ", "\t", ":", "1", "12", "%", ".", "/", "a", "go", "É", "\xa0", "x.go:", "a.py:1:2:",
    " OK", " commands succeeded", "E501", " F", "Ran 3", "ok", "OK", "collected 2", " errors",
    " warning", " generated", " tests passed", "Tests run:", "==12== ", "ERROR SUMMARY:",
    "make[2]: ", "./flag.go:1103:12: not", "2024-05-01T00:00:00.042Z INFO ",
])


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(_lines_of(_END_PIECES), st.text(max_size=40)), data=st.data())
@example(text="\n: OK\nx: OK", data=None)
def test_end_signal_finds_what_its_backtracking_form_finds(text, data):
    start, end = 0, len(text)
    if data and data.draw(st.booleans()):  # a range of the text, as the planner searches its ends
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, len(text)))
    assert [m.span() for m in signals.END_SIGNAL.finditer(text, start, end)] == [
        m.span() for m in _PLAIN_END.finditer(text, start, end)]
