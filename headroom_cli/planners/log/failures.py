"""What a run of a command reports as failing, and what changed since its previous run.

Read from the log plan's own signal lines (planning.signal_lines): the error lines and the
runner's summary lines. A failure is named by the test it reports when the run names tests
(pytest, unittest, go test, cargo test, jest/vitest, TAP, googletest): one failure per test.
Otherwise each error line is one failure, named by its text without what varies between runs
of the same failure (line and column numbers, a leading timestamp, addresses, durations), so
an edit that moves an error down three lines does not make it a new one. Two runs are compared
as multisets of those names. The summary is the runner's last summary line with figures
(`2 failed, 1 passed`), durations removed. Pure.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ...patterns import lazy
from ...plan import Lines
from .planning import signal_lines

# Result lines that name a test (matched on the stripped line).
_PYTEST = lazy(r"(?:FAILED|ERROR) (\S+)(?: - .*)?$")  # short test summary
_PYTEST_VERBOSE = lazy(r"(\S+::\S+) (?:FAILED|ERROR)\b")
_UNITTEST = lazy(r"(?:FAIL|ERROR): (\w+) \(([\w.]+)\)")
_NAMED = (
    re.compile(r"--- FAIL: (\S+)"),  # go test
    re.compile(r"test (\S+) \.\.\. FAILED$"),  # cargo test
    re.compile(r"[✕✗✘×] (.+?)(?: \(\d+(?:\.\d+)? ?m?s\))?$"),  # jest, vitest
    re.compile(r"not ok \d+(?: -)? ?(.+?)(?: # .*)?$"),  # TAP
    re.compile(r"\[ +FAILED +\] (\w[\w/]*\.\w\S*)"),  # googletest
)
# A pytest report's heading, `____ test_name ____`, or a `====` rule that ends its section.
_HEADINGS = lazy(r"^[ \t]*(?:_{3,} (.+?) _{3,}|={3,}[^\n]*)[ \t]*$", re.M)

# What varies between runs of the same failure.
_LOCATION = lazy(r"^(\S*?[^\s:(\d])(?::\d+(?::\d+)?|\(\d+(?:,\d+)?\)):?")
_TIMESTAMP = lazy(r"^\[?(?:\d{4}-\d\d-\d\d[T ])?\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?"
                  r"(?:Z|[+-]\d\d:?\d\d)?\]?\s*")
_ADDRESS = lazy(r"0x[0-9a-fA-F]+")
DURATION = lazy(r"(?:\bin )?\(?(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds)\b\)?")
_RULE = lazy(r"^[=\-*_#\s]+|[=\-*_#\s]+$")
NAME_CHARS = 200  # a failure's name is cut here (the session keeps names, not whole lines)


class Failures(NamedTuple):
    names: tuple[str, ...]  # one per failure, in order of appearance
    summary: str | None  # the runner's last summary line with figures, durations removed
    by_test: bool  # named by test (else by error line)


class Reading(NamedTuple):
    failures: Failures
    lines_of: dict[str, tuple[int, ...]]  # name -> the error lines (0-based) that report it
    signals: tuple[int, ...]  # every error and summary line (0-based), in order


class Changes(NamedTuple):
    fixed: tuple[str, ...]  # names gone since the earlier run (distinct, in its order)
    new: tuple[str, ...]  # names not in the earlier run (distinct, in this run's order)
    fixed_count: int
    new_count: int
    unchanged: int
    summary: str | None
    was: str | None  # the earlier run's summary

    @property
    def nothing_failed(self) -> bool:
        return not (self.fixed_count or self.new_count or self.unchanged)


def read(text: str) -> Reading:
    """The failures a log reports (`text` cleaned, as the planner sees it)."""
    lines = Lines(text)
    errors, summaries = signal_lines(text, lines)
    tests: dict[str, list[int]] = {}
    for index in errors:
        name = test_name(lines.get(index).strip())
        if name:
            tests.setdefault(name, []).append(index)
    if tests:
        _add_sections(lines, errors, tests)
        lines_of = {name: tuple(found) for name, found in tests.items()}
        names = tuple(tests)
    else:
        found: dict[str, list[int]] = {}
        names_in_order = []
        for index in errors:
            name = error_name(lines.get(index))
            if name:
                found.setdefault(name, []).append(index)
                names_in_order.append(name)
        lines_of = {name: tuple(where) for name, where in found.items()}
        names = tuple(names_in_order)
    summary = next((summary_of(lines.get(i)) for i in reversed(summaries)
                    if _has_figures(lines.get(i))), None)
    return Reading(Failures(names, summary, bool(tests)), lines_of,
                   tuple(sorted(set(errors) | set(summaries))))


def compare(before: Failures, after: Failures) -> Changes:
    """What changed from `before` to `after`, names compared as multisets."""
    from collections import Counter

    was, now = Counter(before.names), Counter(after.names)
    fixed = tuple(name for name in dict.fromkeys(before.names) if was[name] > now[name])
    new = tuple(name for name in dict.fromkeys(after.names) if now[name] > was[name])
    return Changes(fixed, new, sum((was - now).values()), sum((now - was).values()),
                   sum((was & now).values()), after.summary, before.summary)


def focus(reading: Reading, names) -> frozenset[int]:
    """The error lines that report any of `names`: the planner keeps them first."""
    return frozenset(index for name in names for index in reading.lines_of.get(name, ()))


def test_name(line: str) -> str | None:
    """The test a result line names, or None."""
    found = _PYTEST.match(line)
    if found and ("::" in found.group(1) or found.group(1).endswith(".py")):
        return found.group(1)[:NAME_CHARS]
    found = _PYTEST_VERBOSE.match(line)
    if found:
        return found.group(1)[:NAME_CHARS]
    found = _UNITTEST.match(line)
    if found:
        test, where = found.groups()
        return (where if where.endswith("." + test) else f"{where}.{test}")[:NAME_CHARS]
    for pattern in _NAMED:
        found = pattern.match(line)
        if found and found.group(1).strip():
            return found.group(1).strip()[:NAME_CHARS]
    return None


def error_name(line: str) -> str | None:
    """An error line without what varies between runs of the same failure."""
    name = _TIMESTAMP.sub("", line.strip())
    name = _LOCATION.sub(r"\1:", name)
    name = DURATION.sub("", _ADDRESS.sub("0x…", name))
    name = " ".join(name.split())
    return name[:NAME_CHARS] or None


def summary_of(line: str) -> str:
    """A summary line as compared and shown: rules and durations removed."""
    return " ".join(_RULE.sub("", DURATION.sub("", line)).split())[:NAME_CHARS]


def _has_figures(line: str) -> bool:
    stripped = line.strip()
    return any(char.isdigit() for char in DURATION.sub("", stripped)) and \
        not stripped.startswith(("collected", "collecting"))


def _add_sections(lines: Lines, errors: list[int], tests: dict[str, list[int]]) -> None:
    """A pytest report's error lines (`E  assert …`, `x.py:12: AssertionError`) belong to the
    test its heading names (`____ test_name ____`; a `====` rule ends the section)."""
    from bisect import bisect_right

    short: dict[str, str] = {}
    for name in tests:
        if "::" in name:
            tail = name.split("::", 1)[1]
            short.setdefault(tail.replace("::", "."), name)
            short.setdefault(tail.rsplit("::", 1)[-1], name)
    if not short:
        return
    marks = [(bisect_right(lines.starts, found.start()) - 1,
              short.get(found.group(1)) if found.group(1) else None)
             for found in _HEADINGS.finditer(lines.text)]
    starts = [line for line, _ in marks]
    for index in errors:
        position = bisect_right(starts, index) - 1
        owner = marks[position][1] if position >= 0 else None
        if owner and index not in tests[owner]:
            tests[owner].append(index)
    for found in tests.values():
        found.sort()
