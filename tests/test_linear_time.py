"""Linear time on any input, proven without a clock.

Every regular expression of the pure core is wrapped in a counting proxy while adversarial
inputs (long runs of spaces, tabs, digits, colons, backslashes, escapes, one long line) go
through the whole filter at n and 4n characters. Two things are asserted:

- a pattern searched unanchored (search, sub, finditer, findall, split) must not open with an
  unbounded repeat: the engine retries at every position of a run the repeat matches, so a
  run of n such characters costs n²/2 steps (the `[ \\t]*\\d+(?:\\t|→)` prefix that once took 200 s
  on 520 KB of spaces);
- the characters handed to regex calls grow linearly: 4n input, at most ~4× the scanning
  (a per-line re-scan of the whole text would show as 16×).
"""

from __future__ import annotations

import importlib
import re

import pytest

from headroom_cli.api import compress
from headroom_cli.patterns import LazyPattern
from headroom_cli.tokens import EstimateCounter

_MODULES = ("sniff", "clean", "render", "planners.code", "planners.diff", "planners.json_shape",
            "planners.listing", "planners.log.signals", "planners.log.planning",
            "planners.log.scanner", "planners.other", "planners.search.signals",
            "planners.search.planning", "planners.search.scanner",
            "planners.rollup")
_UNANCHORED = {"search", "sub", "subn", "finditer", "findall", "split"}
_UNITS = (" ", "\t", "1", ":", "\\", "\x1b[", "a:1:", " \t", "1\t", "/a", ")", "(", "E ", "=",
          "*", "-", "\r", "a ", "0x", "#")
_KINDS = ("auto", "search", "log", "code", "listing", "json", "diff", "other")


class _CountingPattern:
    """A compiled pattern that records how it is called and how many characters it is given."""

    def __init__(self, name: str, pattern: re.Pattern, ledger: "_Ledger") -> None:
        self._name, self._pattern, self._ledger = name, pattern, ledger

    def __getattr__(self, attribute: str):
        found = getattr(self._pattern, attribute)
        if not callable(found):
            return found

        def counted(string, *args, **kwargs):
            self._ledger.record(self._name, self._pattern, attribute, string, args, kwargs)
            return found(string, *args, **kwargs)

        return counted


class _Ledger:
    def __init__(self) -> None:
        self.chars = 0
        self.unanchored: dict[str, re.Pattern] = {}

    def record(self, name, pattern, method, first, args, kwargs) -> None:
        if method in ("sub", "subn"):  # sub(repl, string, count)
            string, start, end = args[0], 0, len(args[0])
        elif method == "split":
            string, start, end = first, 0, len(first)
        else:  # search(string, pos, endpos) and the like
            string = first
            start = args[0] if args else kwargs.get("pos", 0)
            end = min(len(string), args[1] if len(args) > 1 else kwargs.get("endpos", len(string)))
        self.chars += max(0, end - max(0, start))
        if method in _UNANCHORED:
            self.unanchored[name] = pattern


@pytest.fixture
def ledger(monkeypatch):
    ledger = _Ledger()
    for module_name in _MODULES:
        module = importlib.import_module(f"headroom_cli.{module_name}")
        for attribute, value in list(vars(module).items()):
            if isinstance(value, LazyPattern):  # compiled on first use: count it all the same
                value = value.compiled()
            if isinstance(value, re.Pattern):
                monkeypatch.setattr(module, attribute, _CountingPattern(
                    f"{module_name}.{attribute}", value, ledger))
    return ledger


def _adversarial(unit: str, size: int, lines: bool) -> str:
    if not lines:
        return unit * (size // len(unit)) + "x\n"
    row = unit * 40 + "x\n"
    return row * (size // len(row))


def _run_all(size: int) -> None:
    counter = EstimateCounter()
    for unit in _UNITS:
        for lines in (False, True):
            text = _adversarial(unit, size, lines)
            for kind in _KINDS:
                for tool in ("Bash", "Read", "Grep"):
                    compress(text, tool=tool, budget=60, kind=kind, counter=counter)


def _opens_with_unbounded_repeat(parsed) -> bool:
    """Whether a parsed pattern can begin by repeating a character class without bound."""
    from re import _constants as c  # noqa: PLC0415 (the parser's own names, for a test only)

    for op, value in parsed:
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            _, high, body = value
            return high > 16 or _opens_with_unbounded_repeat(body)
        if op is c.BRANCH:
            return any(_opens_with_unbounded_repeat(alt) for alt in value[1])
        if op is c.SUBPATTERN:
            return _opens_with_unbounded_repeat(value[-1])
        if op is c.ATOMIC_GROUP:
            return _opens_with_unbounded_repeat(value)
        if op is c.ASSERT:  # a lookahead constrains the first character but consumes none
            continue
        return False  # a literal, a class, an anchor or a lookbehind: one position, then on
    return False


def test_no_pattern_searched_unanchored_opens_with_an_unbounded_repeat(ledger):
    from re import _parser  # noqa: PLC0415

    _run_all(2_000)
    assert ledger.unanchored, "the proxy saw no unanchored search at all"
    offenders = sorted(name for name, pattern in ledger.unanchored.items()
                       if _opens_with_unbounded_repeat(_parser.parse(pattern.pattern, pattern.flags)))
    assert offenders == []


def test_regex_work_grows_linearly_with_adversarial_input(ledger):
    _run_all(4_000)
    small = ledger.chars
    ledger.chars = 0
    _run_all(16_000)
    assert small > 0
    assert ledger.chars <= 4.5 * small, (small, ledger.chars)


def test_the_detector_flags_the_prefix_that_once_was_quadratic():
    from re import _parser  # noqa: PLC0415

    assert _opens_with_unbounded_repeat(_parser.parse(r"[ \t]*\d+(?:\t|→)"))
    assert _opens_with_unbounded_repeat(_parser.parse(r"(?:a|\s*b)"))
    assert not _opens_with_unbounded_repeat(_parser.parse(r"\n[ \t]*\d+"))
    assert not _opens_with_unbounded_repeat(_parser.parse(r"(?m)^[ \t]*\d+"))
    assert not _opens_with_unbounded_repeat(_parser.parse(r"\d{1,3}x"))


def test_a_path_is_split_into_a_bounded_number_of_folder_levels():
    # Every level's folder name is built as a string; unbounded depth was quadratic.
    from headroom_cli.planners.rollup import split

    parts = split("/a" * 10_000)
    assert len(parts) <= 40
    assert "/".join(parts).replace("\\", "/").count("a") == 10_000
