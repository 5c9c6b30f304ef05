"""The log plan: scan the candidate lines, grow error blocks, keep them tier by tier under the
budget, and assemble the plan with its inline gaps."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter as Tally
from functools import partial
from itertools import compress, count
from operator import itemgetter, not_
from typing import Callable

from ...patterns import lazy
from ...plan import Gap, Item, Keep, Lines, Note, Plan, gap
from ...render import CLOSING_MARKER_TOKENS, inline_marker
from ...tokens import Counter
from ..costs import JUDGED_CHARS, repeat_key
from ...tools import Tool
from ...values import field, value
from .. import diagnostics, templates
from .signals import (BUG_WEIGHT, BUG_WORDS, CARET_LINE, CAUSE, classify_why,
                      CONTINUATION_RUN, DIGITS, END_SIGNAL, ENDS_CHARS, ERROR, ERROR_END,
                      ERROR_START, FAILING_SUMMARY, gravest, has_error_word, HEX_DIGITS,
                      is_progress, KIND_CODE, label_prefix, LINT_SIGNAL, LOCATED_SIGNAL,
                      LOCATION_PREFIX, LOG_RECORD, NOTHING_FAILED, PATH_TAIL, PY_EXCEPTION,
                      record_message, RESULT_TAIL, RULE_HEADED, SELF_CONTAINED, SHAPE_CHARS,
                      shape_of, START_SIGNAL, SUMMARY, TRIGGER_PATTERNS, TRIGGERS,
                      UNINFORMATIVE, WARNING)

# Rendered sizes in tokens, measured on cl100k: an inline gap marker is 13-25 (an estimate while
# choosing; counted exactly before the plan is returned); the closing marker's is render's.
_GAP_TOKENS = 17
_HEAD_SHARE, _TAIL_SHARE = 0.10, 0.17
_SUMMARY_SHARE = 0.30  # summary lines past this share wait until errors and warnings are in
_NEAR, _FAR = 3, 12  # block lines this close to a key line come early / late
_WHOLE_BLOCK_SHARE = 0.25  # a block at most this big is kept whole rather than trimmed
MAX_BLOCK = 3000  # lines one error block may grow to (a runaway trace)
_OWNER_REACH = 50  # lines to look back for the unindented line an indented error sits under
_NOTE_KINDS = 8  # kinds named in the omitted-errors note, at most
_NOTE_SHARE = 0.06  # of the budget: a note past it names fewer kinds (the errors come first)
_PROGRESS_RUN = 3  # progress lines in a row the head passes over
_HEAD_READ = 5000  # lines the head looks through for what is not progress
_MIN_ROOM = 4  # tokens: below this nothing more fits
_CHARS_PER_TOKEN_MAX = 32  # longer lines than this many characters per budget token are skipped
_MAX_MISSES = 40  # failed additions in a row before a tier gives up (each costs a count)
# A process died: what a server's log says in no error word when a worker is killed.
_DIED = lazy(r"(?i)\b(?:killed|terminated by signal|(?:by|on|with) signal \d+"
             r"|exit(?:ed)? with (?:exit )?(?:code|status) [1-9]|out of memory"
             r"|core dumped|abnormal(?:ly)?)\b")
# Characters past which one-off lines are not looked for: their mask pass costs ~0.3 s a MB
# (bench: the 1 MB log's start-up), and a streamed log's excerpt could not offer them either.
_RARE_CHARS = 400_000
_PRINT_LINES = 12  # of an error's block, the lines after its first that _unlike compares
_RARE_TOKENS = 60  # a one-off line longer than this (or a 50th of the budget) waits for the ends
_FLOOD = 20  # instances of one error kind that make a flood (pgbench's retried transactions)
_SAME_MOMENT = 20  # records of one process at one moment that continue an error record
_MOMENT_CHARS = 80  # of a record, where its process id is looked for


def _line_reader(lines: Lines):
    """line(i) -> text of line i without its newline: a list lookup in C (blocks are read line
    by line, and a flood's copies are each read a few times)."""
    return lines.texts.__getitem__


@value(frozen=False)
class _Block:
    """An error line with its trace: lines first..last (0-based, inclusive), key lines inside."""

    first: int
    last: int
    keys: list[int]
    context: int | None  # the line of leading context
    owner: int | None = None  # for an indented block: the unindented line it sits under


@value(frozen=False)
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
    for index in range(key - 1, max(-1, key - MAX_BLOCK), -1):
        text = line(index)
        if text.startswith("Traceback (most recent call last)"):
            return index
        if not _is_frame(text):
            break
    return key


def _scan(text: str, lines: Lines, line: Callable[[int], str]) -> _Scan:
    scan = _Scan(text, lines.starts, len(lines), line)
    scan.classes = _classified_candidates(text, lines, line)
    groups = {SUMMARY: scan.summaries, ERROR: scan.errors, WARNING: scan.warnings}
    for index in sorted(scan.classes):
        groups[scan.classes[index]].append(index)
    # "Traceback (most recent call last):" opens a block but says nothing by itself: the
    # exception line under its frames is the error that is ranked, counted and reported.
    scan.errors = [i for i in scan.errors if not line(i).startswith("Traceback (most recent")]
    _name_kinds(line, scan)
    return scan


def signal_lines(text: str, lines: Lines) -> tuple[list[int], list[int]]:
    """The error lines and the runner-summary lines (0-based, in order), told as the plan tells
    them: what changed between two runs of a command is read from these (failures.py)."""
    scan = _scan(text, lines, _line_reader(lines))
    return scan.errors, scan.summaries


def _classified_candidates(text: str, lines: Lines, line) -> dict[int, str]:
    classes, total = {}, len(lines)
    # A log record's class follows from its level word, in its first 80 characters (and from
    # its end, which could say PASSED). Records that differ only in digits there (timestamps,
    # ids) share their class: a flood of them is classified once per shape.
    by_shape: dict[bytes, str | None] = {}
    # A line seen before has the class it had then (a flood of one warning is classified
    # once), unless it may be ruff's, whose class depends on the next line.
    by_text: dict[str, str | None] = {}
    for index in sorted(_candidate_lines(text, lines)):
        current = line(index)
        kind = by_text.get(current, _UNKNOWN)
        if kind is _UNKNOWN:
            shape = (current[:SHAPE_CHARS] + "\n" + current[-RESULT_TAIL:]).encode(
                "utf-8", "surrogateescape").translate(None, DIGITS)  # bytes: fast translate
            kind = by_shape.get(shape, _UNKNOWN)
            if kind is _UNKNOWN:
                ruff = index + 1 < total and RULE_HEADED.match(current)  # needs the next line
                kind, by_level = classify_why(current, line(index + 1) if ruff else "")
                if by_level:
                    by_shape[shape] = kind
                if not ruff:
                    by_text[current] = kind
        if kind and not _quoted_by_caret(current, index, total, line):
            classes[index] = kind
    return classes


_UNKNOWN = object()


def _quoted_by_caret(current: str, index: int, total: int, line) -> bool:
    """A source line a compiler quotes, its caret line under it: no record, whatever its words.
    A caret line under a caret line is not quoted (shellcheck's findings, one under another)."""
    if index + 1 >= total:
        return False
    below = line(index + 1)
    return "^" in below and CARET_LINE.match(below) is not None and not (
        "^" in current and CARET_LINE.match(current))


def _candidate_lines(text: str, lines: Lines) -> set[int]:
    """Lines holding a trigger word or a line-start signal (a superset of the interesting ones)."""
    # bisect_right(starts, offset) is the 1-based number of the line holding offset; mapped
    # through C (map, partial), not a Python loop per hit.
    numbered, start_of = partial(bisect_right, lines.starts), re.Match.start
    found: set[int] = {1}
    copies = _mostly_copies(lines)
    found.update(_trigger_lines(text, lines, numbered, copies))

    def add(matches) -> None:  # line-start patterns match from the newline before the line
        found.update(map(numbered, map((1).__add__, map(start_of, matches))))

    add(START_SIGNAL.finditer(text))
    head_end = min(len(text), ENDS_CHARS)
    tail_start = max(head_end, len(text) - ENDS_CHARS)
    add(END_SIGNAL.finditer(text, 0, head_end))
    add(END_SIGNAL.finditer(text, tail_start))
    # A linter's findings without a trigger word (diagnostics.py) are looked for in the ends
    # as the end signals are, and all through the text when the ends show them.
    findings = diagnostics.SIGNAL
    add(findings.finditer(text, 0, head_end))
    add(findings.finditer(text, tail_start))
    for signal in (LINT_SIGNAL, LOCATED_SIGNAL, findings):
        if signal.search(text, 0, head_end) or signal.search(text, tail_start):
            if copies:  # a flood of one located warning: each distinct line is asked once
                found.update(_signal_lines(signal, text, lines, head_end, tail_start))
            else:
                add(signal.finditer(text, head_end, tail_start))
    return {number - 1 for number in found}


def _mostly_copies(lines: Lines) -> bool:
    """Most lines are copies of others (a flood of one warning): worth asking per distinct line."""
    return len(dict.fromkeys(lines.texts)) * _COPIES_FOR_DISTINCT <= len(lines.texts)


def _signal_lines(signal, text: str, lines: Lines, start: int, end: int) -> list[int]:
    """The 1-based numbers of the lines `signal.finditer(text, start, end)` finds, each
    distinct line matched once. For LINT_SIGNAL and LOCATED_SIGNAL: they match from the
    newline before a line and end inside it. A line the range cuts is matched in the text."""
    starts, texts = lines.starts, lines.texts
    # The lines whose newline before lies in start..end-1.
    low, high = bisect_left(starts, start + 1), bisect_right(starts, end)
    if low >= high:
        return []
    answers: dict[str, bool] = {}
    for line in dict.fromkeys(texts[low:high]):
        answers[line] = signal.match("\n" + line) is not None
    numbers = list(compress(range(low + 1, high + 1), map(answers.__getitem__, texts[low:high])))
    last = high - 1  # the last line may be cut by `end`, or lack its newline: asked in place
    if starts[last] + len(texts[last]) + 1 > end and answers[texts[last]] != (
            signal.match(text, starts[last] - 1, end) is not None):
        numbers = numbers[:-1] if numbers and numbers[-1] == high else numbers + [high]
    return numbers


def _trigger_lines(text: str, lines: Lines, numbered, copies: bool) -> set[int]:
    """The 1-based numbers of the lines holding a trigger word. Where most lines are copies
    (a flood of one warning), each distinct line is tested once and its copies found by text
    (a set lookup each, in C); else each word is searched through the whole text."""
    texts = lines.texts
    found: set[int] = set()
    if not copies:
        start_of = re.Match.start
        for trigger in TRIGGER_PATTERNS:
            found.update(map(numbered, map(start_of, trigger.finditer(text))))
        return found
    hits = {line for line in dict.fromkeys(texts) if any(word in line for word in TRIGGERS)}
    found.update(compress(count(1), map(hits.__contains__, texts)))
    return found


_COPIES_FOR_DISTINCT = 4  # lines per distinct line past which triggers are tested per text


def _grow_block(scan: _Scan, first: int) -> _Block:
    """The error line at `first` and the trace that follows it."""
    line, total, starts = scan.line, scan.total, scan.starts
    opening = line(first)
    # Before a log record (timestamp or level first) lies another event, not its context; after
    # a record or a path:line:col diagnostic, the next one is an event of its own.
    record = bool(LOG_RECORD.match(opening))
    separate = record or bool(SELF_CONTAINED.match(opening))
    moment = _moment(opening) if record else None
    keys, index = [first], first + 1
    if _announces_next(opening) and index < total and _is_message(scan, index):
        index += 1  # Rust's "thread 'x' panicked at src/a.rs:9:5:", then its message
    while index < total and index - first < MAX_BLOCK:
        run_end = CONTINUATION_RUN.match(scan.text, starts[index]).end()
        stop = min(bisect_left(starts, run_end), first + MAX_BLOCK)
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
        elif record and moment and index - first <= _SAME_MOMENT and text.startswith(moment) \
                and index not in scan.classes:
            pass  # the same process's next record at the same moment: DETAIL, STATEMENT, HINT
        elif not text.strip() and _announces_list(scan, index + 1):
            index += 2  # past a blank line, "The conflict is caused by:": the list it announces
            continue
        else:
            break
        index += 1
    last = index - 1
    while last > first and not line(last).strip():
        last -= 1
    context = first - 1 if first > 0 and not record and line(first - 1).strip() else None
    return _Block(first, last, keys, context)


def _moment(record: str) -> str | None:
    """A record's prefix through its process id, `2026-11-28 02:49:55.725 UTC [13726]`,
    `Nov 28 02:49:55 host sshd[812]`: the records after it that start the same are one event
    (its DETAIL, its STATEMENT). None without a bracketed number (a timestamp alone is not
    one process)."""
    end = record.find("]", 0, _MOMENT_CHARS)
    start = record.rfind("[", 0, end) if end > 0 else -1
    if start < 0 or not record[start + 1:end].isdigit():
        return None
    return record[:end + 1]


def _announces_list(scan: _Scan, index: int) -> bool:
    """Does an unindented line at index end with a colon, the lines after it indented (what
    caused the error, what it needs)? Neither line a signal nor an event of its own."""
    if index + 1 >= scan.total or index in scan.classes or index + 1 in scan.classes:
        return False
    header, item = scan.line(index), scan.line(index + 1)
    return (header[:1].isalpha() and _announces_next(header) and not _opens_event(header)
            and item[:1] in (" ", "\t") and bool(item.strip()))


def _announces_next(text: str) -> bool:
    return text.rstrip().endswith(":")


def _is_message(scan: _Scan, index: int) -> bool:
    """Can the line at index be what the error line before it announced? Not a blank line,
    nor a line of its own class, nor an event of its own."""
    text = scan.line(index)
    return bool(text.strip()) and index not in scan.classes and not _opens_event(text)


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
    return bool(LOG_RECORD.match(text) or SELF_CONTAINED.match(text))


def _ends_traceback(scan: _Scan, index: int, text: str) -> bool:
    """Right under a Python traceback's frames, an unindented line is its exception."""
    return (bool(text) and not text[0].isspace() and bool(PY_EXCEPTION.match(text))
            and _traceback_start(scan, index) < index)


def _rule_code(text: str) -> str | None:
    """The rule or error code a diagnostic names (`E0308`, `[-Wconversion]`'s flag), if any."""
    code = KIND_CODE.search(text)
    return code.group(code.lastgroup) if code else None


def _name_kinds(line, scan: _Scan) -> None:
    """Kind of every error (its rule code, a JSON record's logger and message, else its
    signature); signatures of all lines."""
    for group in (scan.errors, scan.warnings, scan.summaries):
        scan.signature.update(zip(group, _signatures(list(map(line, group)))))
    messages = {index: "{" + message for index in scan.errors
                if (message := record_message(line(index))) is not None}
    record_kinds = dict(zip(messages, _signatures(list(messages.values()))))
    for index in scan.errors:
        text = line(index)
        code = _rule_code(text)
        bare = None if code or "FAIL" not in text and "ERROR" not in text else (
            _BARE_FAILURE.match(text))
        scan.kind[index] = code if code else bare.group(1) if bare else (
            # a linter's finding: its kind is its rule or its message's template
            diagnostics.kind(text) if diagnostics.is_finding(text[:JUDGED_CHARS])
            else record_kinds.get(index, scan.signature[index]))


# A failure word and one name after it, no message (ninja's `FAILED: run-scanner`, pytest's
# short summary `ERROR tests/t.py::test_x`, go's `--- FAIL: TestX (0.01s)`): which target
# failed, not why. One kind whatever the name (the first and the last are chosen, the others
# wait behind the errors that say why).
_BARE_FAILURE = lazy(r"[ \t]*+[-=>*#| ]*+((?:FAIL|FAILED|FAILURE|ERROR):?)[ \t]++\S++"
                     r"(?:[ \t]+\([\d.]+m?s\))?[ \t]*$")


def _signatures(texts: list[str]) -> list[bytes]:
    """Each line with what varies between repeats removed (see LOCATION_PREFIX)."""
    if not texts:
        return []
    distinct = list(dict.fromkeys(texts))
    if len(distinct) < len(texts):  # a flood of one line: its signature is worked out once
        signature_of = dict(zip(distinct, _signatures(distinct)))
        return list(map(signature_of.__getitem__, texts))
    data = ("\n" + "\n".join(texts)).encode("utf-8", "surrogateescape")
    data = PATH_TAIL.sub(b"/", LOCATION_PREFIX.sub(b"\n", data))
    return [line.strip() for line in data.translate(None, HEX_DIGITS).split(b"\n")[1:]]


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
        # Lines a shown line's `(×N)` count stands for: no growth shows them again.
        self.repeats: set[int] = set()
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
        return CLOSING_MARKER_TOKENS + (_GAP_TOKENS * runs if runs >= 2 else 0)

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

    def kept_indexes(self):
        """The kept lines' indexes, in order (a bytearray's find skips the others in C)."""
        index = self.kept.find(1)
        while index != -1:
            yield index
            index = self.kept.find(1, index + 1)

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


def _choose(scan: _Scan, picker: _Picker, budget: int, focus: frozenset[int],
            folds: dict[int, int], notable: Callable[[], list[int]]) -> None:
    """Spend the budget tier by tier, most important first; what the signals leave goes to
    each warning's other places, then to the log's slowest and one-off lines (`notable`: a
    request that took seconds, a killed process, a recovery begun), before more head and
    tail."""
    total = scan.total
    picker.add_run(range(total - 1, -1, -1), int(budget * _TAIL_SHARE))
    picker.add_run(_head(picker), int(budget * _HEAD_SHARE))
    late_summaries = _keep_summaries(scan, picker, int(budget * _SUMMARY_SHARE))
    chosen, rest, flood = _instances_by_priority(scan, picker.line, focus)
    _keep_cores(scan, picker, chosen)
    _keep_places(scan, picker, chosen)
    _keep_blocks(scan, picker, chosen, _NEAR)
    _keep_whole_blocks(scan, picker, chosen, int(budget * _WHOLE_BLOCK_SHARE))
    places = _keep_warnings(scan, picker, folds)
    _keep_subjects(scan, picker, chosen)
    rest = _unlike(scan, chosen, rest)
    _keep_cores(scan, picker, rest)
    _keep_subjects(scan, picker, rest)
    _keep_blocks(scan, picker, rest, _NEAR)
    _keep_each(picker, ((i,) for i in late_summaries))
    _keep_blocks(scan, picker, chosen + rest, _FAR)
    _keep_each(picker, ((i,) for i in _round_robin(places)))
    if not picker.exhausted() and len(scan.text) <= _RARE_CHARS:
        # a one-off record is short; a long line (a task's JSON result) is kept by its ends
        short = max(_RARE_TOKENS, budget // 50)
        _keep_each(picker, ((i,) for i in _deaths_first(picker.line, notable())
                            if picker.tokens(i) <= short))
    _keep_cores(scan, picker, flood)


def _unlike(scan: _Scan, chosen: list[int], rest: list[int]) -> list[int]:
    """The errors of `rest` whose block says something the chosen ones' do not: an instance
    whose trace repeats a chosen one's line for line (numbers aside) is counted, not shown."""
    def prints(block: _Block) -> tuple:
        last = min(block.last, block.first + _PRINT_LINES)
        return tuple(_signatures([scan.line(i) for i in range(block.first, last + 1)]))

    seen = {prints(scan.block(key)) for key in chosen}
    blocks = map(scan.block, rest)  # a finding of a line or two (another file's) always tells
    return [key for key, block in zip(rest, blocks)
            if block.last - block.first < 2 or prints(block) not in seen]


def _deaths_first(line, indexes: list[int]) -> list[int]:
    """The one-off lines that say a process died (killed, terminated by a signal, exited
    with a non-zero code, out of memory, an abnormal shutdown) before the others: a server's
    crash is a one-off line whose words are no error word."""
    died = [bool(_DIED.search(line(i), 0, JUDGED_CHARS)) for i in indexes]
    return list(compress(indexes, died)) + list(compress(indexes, map(not_, died)))


def _head(picker: _Picker):
    """The head's lines, runs of progress lines passed over (the ladder's last rung, kept only
    when the rest is in); a run of fewer than _PROGRESS_RUN costs less than its gap marker.
    Past _HEAD_READ lines the head is given up: a log of nothing but progress has none."""
    index, total = 0, min(picker.total, _HEAD_READ)
    while index < total:
        end = index
        while end < total and end - index < _PROGRESS_RUN and is_progress(picker.line(end)):
            end += 1
        if end - index < _PROGRESS_RUN:
            yield from range(index, min(end + 1, total))
            index = end + 1
            continue
        while end < total and is_progress(picker.line(end)):
            end += 1
        index = end


def _keep_each(picker: _Picker, groups) -> None:
    """Add each group of lines that fits, until the budget (or patience) runs out."""
    picker.misses = 0
    for group in groups:
        if picker.exhausted():
            break
        picker.add(group)


def _keep_summaries(scan: _Scan, picker: _Picker, cap: int) -> list[int]:
    """The last line of each summary signature (failures first, latest first) within the cap,
    and after each failing one the line of its signature that counts the most failures when
    that is another (each test binary, package or file has its verdict: `test result:
    FAILED. 15 passed; 5 failed` before the doctests' `3 passed; 1 failed`); returns the
    summary lines left for later, in order."""
    last: dict[bytes, int] = {}
    most: dict[bytes, tuple[int, int]] = {}  # signature -> (failures counted, line)
    for index in scan.summaries:
        signature = scan.signature[index]
        last[signature] = index
        counted = _failures_counted(picker.line(index))
        if counted > most.get(signature, (0, 0))[0]:
            most[signature] = (counted, index)

    def failing(index: int) -> bool:
        text = picker.line(index)
        return bool(FAILING_SUMMARY.search(text)) and not NOTHING_FAILED.search(text)

    order = []
    ranked = sorted(last.values(), key=lambda i: (not failing(i), -i))
    if scan.errors or ranked and failing(ranked[0]):
        # A run that failed: what passed (`test result: ok.`, `ok  pkg 0.1s`) waits until
        # the errors are in; counts of warnings do not.
        ranked = [index for index in ranked
                  if failing(index) or not _PASSED.search(picker.line(index), 0, JUDGED_CHARS)]
    for index in ranked:
        order.append(index)
        counted, worst = most.get(scan.signature[index], (0, index))
        if worst != index and failing(index) and counted > _failures_counted(picker.line(index)):
            order.append(worst)
    used = 0
    for index in order:
        cost = 0 if picker.kept[index] else picker.tokens(index)
        if used + cost <= cap and picker.add((index,)):
            used += cost
    return [index for index in scan.summaries if not picker.kept[index]]


# A summary that says something passed (`test result: ok.`, `PASS`, `Success: no issues`).
_PASSED = lazy(r"(?i)\b(?:ok|pass(?:ed|ing)?|succe(?:ss|eded)\w*)\b")
# A figure counting failures: `5 failed`, `64 previous errors`, `failures=3`.
_FAILURE_FIGURE = lazy(r"(?i)\b(\d+) (?:\w+ )?(?:fail|error)|\b(?:failures|errors)=(\d+)")


def _failures_counted(text: str) -> int:
    return max((int(a or b) for a, b in _FAILURE_FIGURE.findall(text, 0, JUDGED_CHARS)),
               default=0)


def _instances_by_priority(scan: _Scan, line, focus: frozenset[int] = frozenset()
                           ) -> tuple[list[int], list[int], list[int]]:
    """(chosen, rest, flood). Chosen: the error lines in `focus` (what is new since the
    previous run of the command: failures.py), then the first instance of every kind, rarest
    kinds first, then the last instance of every repeated kind (it shows the error
    persisted). Rest: the others, rarer kinds first; a record whose level is above ERROR
    (FATAL, PANIC: a connection or a process given up) before the rest; a message that names
    a bug (undefined, mismatch…) counts as rarer than a style nit. Java's innermost "Caused
    by:" is the root cause: it goes first. A bare test-result line (test_x ... FAIL) waits
    behind the failure reports that explain it. Flood: the others of a kind of _FLOOD
    instances or more, in the same order; its first and last say what its count does, and the
    log's one-off lines (a closing report) come before a third."""
    kinds = Tally(scan.kind.values())
    first: dict[str | bytes, int] = {}
    last: dict[str | bytes, int] = {}
    for key in scan.errors:  # sorted by position
        first.setdefault(scan.kind[key], key)
        last[scan.kind[key]] = key

    # Judged once per kind, on its first instance: the search is slow for a per-line test.
    rarity = {kind: kinds[kind] * (BUG_WEIGHT if BUG_WORDS.search(line(key)) else 1)
              for kind, key in first.items()}

    def rank(key: int) -> tuple:
        text = line(key)
        root = CAUSE.match(text) is not None and _is_root_cause(scan, key)
        return (_is_result_line(text), not gravest(text), rarity[scan.kind[key]], not root, key)

    firsts = sorted(first.values(), key=rank)
    lasts = sorted((last[k] for k in first if last[k] != first[k]), key=rank)
    focused = [key for key in scan.errors if key in focus]
    chosen = focused + [key for key in firsts + lasts if key not in focus]
    taken = set(chosen)
    others = sorted((key for key in scan.errors if key not in taken), key=rank)
    rest = [key for key in others if kinds[scan.kind[key]] < _FLOOD]
    flood = [key for key in others if kinds[scan.kind[key]] >= _FLOOD]
    return chosen, rest, flood


def _is_root_cause(scan: _Scan, key: int) -> bool:
    """The last "Caused by:" of its chain (no later one in the trace it starts)."""
    return not any(CAUSE.match(scan.line(later)) for later in scan.block(key).keys if later > key)


def _is_result_line(text: str) -> bool:
    return bool(ERROR_END.search(text, len(text) - RESULT_TAIL)) and not (
        ERROR_START.match(text) or has_error_word(text))


def _keep_cores(scan: _Scan, picker: _Picker, keys: list[int]) -> None:
    """Each error line with the two lines after it in its block (location, first frame) or,
    when it ends a trace, the three indented lines before it (the innermost frame), and the
    block's last error line when it comes later (ERROR: test_x, then its exception). Separator
    and gutter-only lines are skipped; an indented block brings the line it sits under
    (eslint's file path). When the whole core does not fit, the error line with the one after
    it (a panic's message, an exception's location), and else the error line alone."""
    picker.misses = 0
    for key in keys:
        if picker.exhausted():
            break
        block = scan.block(key)
        core = [key] + [i for i in (key + 1, key + 2)
                        if i <= block.last and not UNINFORMATIVE.match(scan.line(i))]
        if key == block.last and key > block.first:
            core += [i for i in (key - 1, key - 2, key - 3) if i >= block.first]
        if block.keys and block.keys[-1] > key:
            core.append(block.keys[-1])  # a report's header goes with its final message
        if block.owner is not None:
            core.append(block.owner)  # whose error it is: the file, the test
        if not picker.add(core) and not (len(core) > 2 and picker.add(core[:2])):
            picker.add((key,))


# A source place inside a line: a file with an extension, then its line (`a/b.ts:36:20`,
# `x.c(12,`, `"a.py", line 3`), wherever the line names it (bandit's `Location: `, vitest's
# `❯ `, a frame's `at f (…)`); and the places that are a dependency's, not the project's.
_PLACE_IN_LINE = lazy(r"(?<![\w.])[\w@+~-][\w./\\@+~-]*\.[a-z][a-z\d]{0,4}"
                      r"(?::\d+|\(\d+[,:)]|\", line \d+)")
# (Node's own frames: `(node:events:…)`, before Node 16 `(internal/…)`; a Go project's own
# `internal/` packages are the project's.)
_DEPENDENCY = lazy(r"site-packages|dist-packages|node_modules|/rustc/|/usr/(?:lib|include)/"
                   r"|<frozen |\(node:|\(internal/")
# A quoted name in an error (a module, a key, a file), as a whole quoted token.
_QUOTED = lazy(r"""'[^'\s][^'\n]{1,78}[^'\s]'|"[^"\s][^"\n]{1,78}[^"\s]"|‘[^’\n]{3,80}’""")
_SUBJECT_ERRORS = 12  # errors whose quoted names are looked for before them
_SUBJECT_REACH = 200_000  # characters before an error looked through for its names
_PLACE_REACH = 40  # lines after an error line its place is looked for in (past a test's diff)


def _keep_subjects(scan: _Scan, picker: _Picker, keys: list[int]) -> None:
    """For each of the first errors of `keys`, the last line before it that names what it
    quotes: what happened to the thing it failed on just before (`Cannot find module
    '@app/lib/money'` after a resolution trace's `Module name '@app/lib/money' was not
    resolved.`). Looked for within _SUBJECT_REACH characters before the error, by a search
    in C."""
    found = []
    for key in keys[:_SUBJECT_ERRORS]:
        start = scan.starts[key]
        for quoted in _QUOTED.finditer(scan.line(key), 0, JUDGED_CHARS):
            subject = quoted[0]
            if any(char.isalpha() for char in subject):
                at = scan.text.rfind(subject, max(0, start - _SUBJECT_REACH), start)
                if at != -1:
                    found.append(bisect_right(scan.starts, at) - 1)
    _keep_each(picker, ((i,) for i in dict.fromkeys(found)))


def _keep_places(scan: _Scan, picker: _Picker, keys: list[int]) -> None:
    """For each kept error whose kept lines name no source place, the line that does: the
    innermost project frame above a report's final message (a traceback's), else the first
    project place after the error line before the next error (bandit's `Location:`, vitest's
    `❯ a.test.ts:36:20` past the diff, a stack's first frame of the project's own)."""
    picker.misses = 0
    for key in keys:
        if picker.exhausted():
            break
        if not picker.kept[key]:
            continue
        block = scan.block(key)
        final = block.keys[-1] if block.keys and block.keys[-1] > key else None
        near = [i for i in (key, key + 1, key + 2, final)
                if i is not None and i < scan.total and picker.kept[i]]
        if any(map(_names_place, map(scan.line, near))):
            continue
        place = _place_before(scan, key, final) if final is not None else _place_after(scan, key)
        if place is not None:
            picker.add((place,))


def _names_place(text: str) -> bool:
    return _PLACE_IN_LINE.search(text, 0, JUDGED_CHARS) is not None


def _is_project_place(text: str) -> bool:
    text = text[:JUDGED_CHARS]
    return _names_place(text) and not _DEPENDENCY.search(text)


def _place_before(scan: _Scan, key: int, final: int) -> int | None:
    for index in range(final - 1, key, -1):
        if _is_project_place(scan.line(index)):
            return index
    return None


def _place_after(scan: _Scan, key: int) -> int | None:
    errors = scan.errors
    position = bisect_right(errors, key)
    block = scan.block(key)
    while position < len(errors) and errors[position] <= block.last:
        position += 1  # the block's own later keys
    stop = min(errors[position] if position < len(errors) else scan.total,
               key + _PLACE_REACH + 1, scan.total)
    if LOG_RECORD.match(scan.line(key)):
        stop = min(stop, block.last + 1)  # the records after a record are events of their own
    for index in range(key + 1, stop):
        if _is_project_place(scan.line(index)):
            return index
    return None


def _is_frame(text: str) -> bool:
    return text[:1] in (" ", "\t") and bool(text.strip())


def _keep_blocks(scan: _Scan, picker: _Picker, keys: list[int], reach: int) -> None:
    """Lines of the blocks holding kept keys, nearest to a key line (or block end) first; a
    line that repeats one kept (costs.repeat_key: valgrind's `by 0x…: main (server.c:7275)`
    closing every record's stack) is left out, for the lines not shown yet."""
    picker.misses = 0
    shown = {repeat_key(picker.line(index)) for index in picker.kept_indexes()}
    for block in _blocks_in_order(scan, picker, keys):
        for index in _by_distance(scan, block, reach):
            if picker.exhausted():
                return
            key = repeat_key(picker.line(index))
            if key and key in shown and not picker.kept[index]:
                continue
            if picker.add((index,)):
                shown.add(key)


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


def _by_distance(scan: _Scan, block: _Block, reach: int) -> list[int]:
    """Block lines (and its context line) within `reach` of a key line, nearest first (a
    trace's frames nearest the error), then those nearer a part's head than the block's
    ends, then those within `reach` of the ends. A part's head (_part_heads: memcheck's
    `Address 0x… is 0 bytes inside a block of size 16 free'd` after the frames of the read,
    Java's `Caused by:`) says what the frames under it are."""
    keys = sorted(block.keys)
    heads = _part_heads(scan, block)
    ends = (block.first, block.last)
    first = block.context if block.context is not None else block.first
    found = []
    for index in range(first, block.last + 1):
        near_key = _nearest(keys, index, reach)
        near_head = _nearest(heads, index, reach)
        near_end = min(abs(end - index) for end in ends)
        if near_key <= reach:
            found.append((0, near_key, index))
        elif near_head <= min(reach, near_end):
            found.append((1, near_head, index))
        elif near_end <= reach:
            found.append((2, near_end, index))
    return [index for *_, index in sorted(found)]


def _nearest(marks: list[int], index: int, reach: int) -> int:
    """How far `index` is from the nearest of the sorted `marks` (past `reach`: reach + 1)."""
    position = bisect_left(marks, index)
    return min((abs(marks[p] - index) for p in (position - 1, position)
                if 0 <= p < len(marks)), default=reach + 1)


_PROCESS_PREFIX = lazy(r"==\d+==|--\d+--")  # valgrind's: `==20952==    at 0x1C34A1: …`


def _indent(text: str) -> int:
    prefix = _PROCESS_PREFIX.match(text)
    body = text[prefix.end():] if prefix else text
    stripped = body.lstrip(" \t")
    return len(body) - len(stripped) if stripped.strip() else -1


def _part_heads(scan: _Scan, block: _Block) -> list[int]:
    """The lines of a block less indented than the line before them (not blank), at a depth
    few of its lines share (a quarter at most): memcheck's `Address …` among its frames, not
    each `  File …` line of a Python traceback between its frames' code lines."""
    depths = [(index, _indent(scan.line(index)))
              for index in range(block.first + 1, block.last + 1)]
    shared: dict[int, int] = {}
    for _, depth in depths:
        shared[depth] = shared.get(depth, 0) + 1
    heads, previous = [], -1
    for index, depth in depths:
        if 0 <= depth < previous and 4 * shared[depth] <= len(depths):
            heads.append(index)
        previous = depth if depth >= 0 else previous
    return heads


def _keep_warnings(scan: _Scan, picker: _Picker, folds: dict[int, int]) -> list[list[int]]:
    """Each distinct warning once, with its repeat count: the most frequent and the rarest
    alternately (the first explain the bulk of what was cut, the second are likelier signal),
    one of each kind (its rule code: `[-Wconversion]`, clang-tidy's `[bugprone-sizeof-…]`)
    before a kind's second. Returns, for each shown warning, its instances at other places
    (another file: the same message is no repeat there, but another place to fix), in text
    order."""
    signatures = list(map(scan.signature.__getitem__, scan.warnings))
    counts = Tally(signatures)
    # Built backwards, each signature's first warning is the one written last.
    first = dict(zip(reversed(signatures), reversed(scan.warnings)))
    members = _members(scan.warnings, signatures)
    by_count = sorted(first, key=lambda s: (-counts[s], first[s]))
    alternated = []
    while by_count:
        alternated.append(by_count.pop(0))
        if by_count:
            alternated.append(by_count.pop())
    order = _kinds_first(alternated,
                         lambda signature: _rule_code(picker.line(first[signature])) or signature)
    picker.misses = 0
    places: list[list[int]] = []
    for signature in order:
        if picker.exhausted():
            break
        index, count = first[signature], counts[signature]
        shape = shape_of(picker.line(index)) if folds else None
        count += folds.get(shape, 0)  # its repeats past the scanner's limit
        if picker.add((index,), (index, f"  (×{count:,})") if count > 1 else None) and count > 1:
            folds.pop(shape, None)
            # Its repeats: the same line, its numbers aside (a signature joins more: files).
            shown = _numbers_aside(picker.line(index))
            copies = members[signature][1:]  # [0] is index, the first
            texts = list(map(picker.line, copies))
            # One test per distinct text: a flood's copies are one text.
            aside = {text: _numbers_aside(text) for text in dict.fromkeys(texts)}
            repeat = {text: place == shown for text, place in aside.items()}
            flags = list(map(repeat.__getitem__, texts))
            picker.repeats.update(compress(copies, flags))
            if not all(flags):
                places.append(_other_places(copies, texts, flags, aside))
    return places


def _kinds_first(items: list, kind_of) -> list:
    """The items in order, the first of each kind before any kind's second."""
    seen: set = set()
    firsts, seconds = [], []
    for item in items:
        kind = kind_of(item)
        (seconds if kind in seen else firsts).append(item)
        seen.add(kind)
    return firsts + seconds


def _other_places(copies: list[int], texts: list[str], flags: list[bool],
                  aside: dict[str, bytes]) -> list[int]:
    """The first copy at each other place (`flags`: the copies that repeat the shown line;
    `aside`: a text with its numbers aside, one place however many times it is written), in
    text order. Built in C: a dict keeps the last of each key, so it is fed backwards."""
    others = list(compress(zip(copies, texts), map(not_, flags)))
    first = dict(zip(map(aside.__getitem__, map(itemgetter(1), reversed(others))),
                     map(itemgetter(0), reversed(others))))
    return sorted(first.values())


def _round_robin(groups: list[list[int]]):
    """The first of every group, then the second of every group, and so on."""
    depth = 0
    while True:
        row = [group[depth] for group in groups if depth < len(group)]
        if not row:
            return
        yield from row
        depth += 1


def _members(indexes: list[int], signatures: list[bytes]) -> dict[bytes, list[int]]:
    """The warnings of each signature, in text order, in one pass (a sort of the signatures
    compared their long shared prefixes: ~2x the time on a log's ~40,000 warnings)."""
    groups: dict[bytes, list[int]] = {}
    for index, signature in zip(indexes, signatures):
        group = groups.get(signature)
        if group is None:
            groups[signature] = [index]
        else:
            group.append(index)
    return groups


def _numbers_aside(line: str) -> bytes:
    return line.encode("utf-8", "surrogateescape").translate(None, DIGITS)


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool,
         focus: frozenset[int] = frozenset(), folds: dict[int, int] | None = None
         ) -> Plan | None:
    """`focus`: error lines (0-based) kept before every other error, with their traces;
    `folds`: repeats of lines counted but not in `text` (the scanner's, by shape_of): a shown
    warning's `(×N)` counts those of its shape, and each it counts is taken out of `folds`."""
    total = len(lines)
    if total < 3 or budget < CLOSING_MARKER_TOKENS + 2 * _GAP_TOKENS:
        return None
    line = _line_reader(lines)
    scan = _scan(text, lines, line)
    if folds is None and not (scan.errors or scan.warnings or scan.summaries):
        # No signal this planner knows (an installer's log, a tool's own records): the general
        # rung's templates find its rare lines, where head and tail would keep neither.
        found = templates.plan(text, lines, budget, counter, tool)
        if found is not None:
            return found
    picker = _Picker(line, total, counter, budget)
    _choose(scan, picker, budget, focus, {} if folds is None else folds,
            partial(templates.notable_lines, text, lines))
    _release_repeats(picker)
    note = _finish(scan, lines, picker, budget)
    if not any(picker.kept):
        return None
    return _assemble(lines, scan, picker, note)


def _release_repeats(picker: _Picker) -> None:
    """Take back the lines a shown line's `(×N)` stands for that were kept before the count
    was (the tail, the head): a count's repeats are never printed again. The picker is rebuilt
    from its history without them, so taking back later (last in, first out) still holds."""
    repeats = picker.repeats
    if not any(picker.kept[i] for i in repeats):
        return
    history, suffixes = picker.history, picker.suffixes
    picker.kept[:] = bytes(picker.total)
    picker.runs, picker.spent, picker.suffixes, picker.history = 1, 0, {}, []
    for new, suffixed, _, _ in history:
        suffix = (suffixed, suffixes[suffixed]) if suffixed is not None else None
        picker.add([i for i in new if i not in repeats], suffix, force=True)


def _finish(scan: _Scan, lines: Lines, picker: _Picker, budget: int) -> str:
    """From estimates to exact counts: take back what does not fit, turn small gaps back into
    lines, spend what is left on head and tail, and check again. Returns the note."""
    undone: list = []
    cost, note = _settle(scan, lines, picker, budget, undone)
    slack = budget - cost
    for first, last in picker.unkept_runs():
        if last - first <= 1 and (  # a gap of a line or two costs about its marker
                picker.repeats.isdisjoint(range(first, last + 1))):  # (but a count's repeats)
            extra = sum(picker.tokens(i) for i in range(first, last + 1)) - \
                _marker_tokens(scan, lines, picker, first, last)
            if extra <= slack and picker.add(range(first, last + 1), force=True):
                slack -= extra
    cost, _ = _exact_cost(scan, lines, picker)
    _calibrate(picker, budget, cost)
    # Taking back by estimates may take back more than the count asked: what was taken back
    # comes again, in its order, each addition that fits, before head and tail grow.
    for new, suffix in reversed(undone):
        picker.add(new, suffix)
    cost, note = _grow_and_settle(scan, lines, picker, budget)
    if undone and cost < budget:  # what came again may have been taken back with more: regrow
        _calibrate(picker, budget, cost)
        cost, note = _grow_and_settle(scan, lines, picker, budget)
    return note


def _calibrate(picker: _Picker, budget: int, cost: int) -> None:
    """Let the estimates that guide growth see the budget the exact count `cost` leaves."""
    picker.budget = budget + (picker.spent + picker.overhead(picker.runs)) - cost


def _grow_and_settle(scan: _Scan, lines: Lines, picker: _Picker,
                     budget: int) -> tuple[int, str]:
    """Grow head and tail by the calibrated estimates, then take back what the exact count
    says does not fit; returns (cost, note)."""
    _grow_ends(picker)
    picker.budget = budget
    return _settle(scan, lines, picker, budget)


def _grow_ends(picker: _Picker) -> None:
    """Spend what is left on more head and more tail, two tail lines for each head line. An end
    passes the lines a shown line's `(×N)` already counts (each stays a gap of its own) only
    while a line not shown yet lies beyond them: a repeated warning's own location
    (`--> src/lib.rs:105:16`) is news, a flood's context lines printed again are not, and
    where only those are left that end stops."""
    news = _News(picker)
    head, tail = picker.kept.find(0), picker.kept.rfind(0)
    turn = 0
    while picker.room() >= _MIN_ROOM:
        head, tail = _next_end(picker, head, 1, news), _next_end(picker, tail, -1, news)
        if head < 0 and tail < 0 or 0 <= tail < head:
            break  # both ends meet repeats of shown lines, or they met
        index = head if turn % 3 == 2 and head >= 0 or tail < 0 else tail
        if not picker.add((index,)):
            break
        news.shown(index)
        turn += 1


def _next_end(picker: _Picker, index: int, step: int, news: _News) -> int:
    """From an end (`step`: 1 the head's, -1 the tail's), the next line to grow it by: past the
    kept lines, and past a count's repeats when a line not shown yet lies beyond them; -1 when
    there is none."""
    kept, repeats, total = picker.kept, picker.repeats, picker.total
    while 0 <= index < total and kept[index]:
        index += step
    if index in repeats:
        if not news.beyond(index, step):
            return -1
        while 0 <= index < total and (kept[index] or index in repeats):
            index += step
    return index if 0 <= index < total else -1


class _News:
    """Whether a line not shown yet (neither kept, nor a count's repeat, nor the text of a
    shown line) lies beyond a place, looking one way; each way's search only moves on, so
    asking costs the output's length once."""

    def __init__(self, picker: _Picker) -> None:
        self.picker = picker
        self.texts: set[str] | None = None  # of the shown lines, read when first asked
        self.found = {1: -1, -1: -1}  # the last new line found each way (-1: none yet)
        self.done = {1: False, -1: False}

    def shown(self, index: int) -> None:
        if self.texts is not None:
            self.texts.add(self.picker.line(index))

    def beyond(self, place: int, step: int) -> bool:
        picker = self.picker
        if self.texts is None:
            self.texts = set(map(picker.line, picker.kept_indexes()))
        found = self.found[step]
        ahead = found >= 0 and (found - place) * step > 0
        if ahead and self._new(found):
            return True
        if self.done[step]:
            return False
        # lines between an earlier place and what it found were not new then, nor are now
        index = found if ahead else place
        while 0 <= index < picker.total:
            if self._new(index):
                self.found[step] = index
                return True
            index += step
        self.done[step] = True
        return False

    def _new(self, index: int) -> bool:
        picker = self.picker
        return not picker.kept[index] and index not in picker.repeats \
            and picker.line(index) not in self.texts


def _settle(scan: _Scan, lines: Lines, picker: _Picker, budget: int,
            undone: list | None = None) -> tuple[int, str]:
    """Take back the latest additions until the exact count fits; returns (cost, note).
    `undone` collects what was taken back, (lines, suffix), the latest first."""
    while True:
        cost, note = _exact_cost(scan, lines, picker)
        if cost <= budget or not picker.history:
            return cost, note
        over = cost - budget
        while over > 0 and picker.history:
            new, suffixed, tokens, _ = picker.history[-1]
            if undone is not None:
                undone.append((new, None if suffixed is None else
                               (suffixed, picker.suffixes[suffixed])))
            over -= tokens
            picker.undo()


def _exact_cost(scan: _Scan, lines: Lines, picker: _Picker) -> tuple[int, str]:
    """Tokens of the rendered plan (the closing marker estimated), and the note it carries."""
    note = _omitted_note(scan, picker.line, picker)
    runs = picker.unkept_runs()
    markers = 0
    if len(runs) >= 2:  # a single gap is rendered as the closing marker itself
        markers = sum(_marker_tokens(scan, lines, picker, *run) for run in runs)
    closing = CLOSING_MARKER_TOKENS if runs else 0
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
    cap = int(picker.budget * _NOTE_SHARE)
    while True:
        more = len(omitted) - len(named)
        tail = f" (and {more:,} more kinds)" if more > 0 else ""
        note = f"[omitted errors by kind: {', '.join(named)}{tail}]"
        if len(named) <= 1 or picker.counter.count(note) <= cap:
            return note
        named.pop()


def _label(kind: str | bytes, first_line: str) -> str:
    """A kind as a reader would name it: its rule code, or the start of its message."""
    if isinstance(kind, str):
        return kind
    stripped = first_line.strip()
    message = record_message(first_line) or label_prefix().sub("", stripped) or stripped
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
    # Gaps may shrink (spend.py), never past an error the note counts.
    counted = frozenset(key for key in scan.errors if not picker.kept[key]) if note else frozenset()
    counted |= frozenset(i for i in picker.repeats if not picker.kept[i])
    return Plan("log", tuple(items), len(lines), omitted, regap=partial(_gap, lines, scan),
                counted=counted)


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
