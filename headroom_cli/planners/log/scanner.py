"""The streaming Scanner: fed an output too large to hold in parts, it picks what the planner
would consider (see intake.py); the planner then runs on the excerpt."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import deque
from functools import partial
from itertools import accumulate, compress, islice, repeat
from operator import not_

from ...patterns import lazy
from ...plan import Lines, Note, Plan
from ...tokens import Counter
from ...tools import Tool
from ...values import replace
from .planning import MAX_BLOCK, plan
from .signals import (CONTINUATION_RUN, CONTINUATION_STEP, DIGITS, LINT_SIGNAL, LOG_RECORD,
                      SHAPE_CHARS, shape_of, START_SIGNAL, TRIGGER_PATTERNS, TRIGGERS)

# An output too large to hold is fed to a Scanner in parts (intake.py); the planner then runs on
# an excerpt: the output's head and tail with the lines picked here in between. What is picked
# is what the planner would consider: every candidate line (_candidate_lines' searches, but for
# END_SIGNAL, whose summaries the head and tail hold), the line before it (unless it is a log
# record, whose context the planner never takes) and its block: the continuation run, capped
# at MAX_BLOCK lines, and the line right after it when that can end a Python traceback.

# START_SIGNAL and LINT_SIGNAL in one pass: both start at the newline before their line, and
# the engine's step from one newline to the next is most of what a line-start search costs.
# Most log lines start with a timestamp, so lines starting with a digit get a branch of their
# own: of those signals, such a line can only be a test count (3 passing) or a lint location
# (2to3.py:1:1: E501). Its digits are read once for both, and the lint location's numbers
# possessively (a timestamp's "2024-05-01T00:00:00.000Z" fails at the ".", without retries).
# (test_log_stream checks that this finds what the two regexes find.)
assert START_SIGNAL.pattern.startswith(r"\n") and LINT_SIGNAL.pattern.startswith(r"\n")
_TEST_COUNT = r"\ (?:passing|failing|pending|passed|failed|skipped)"
assert r"\d+" + _TEST_COUNT in START_SIGNAL.pattern  # the one start signal that is a digit
_LINT_PATH, _LINT_REST = r"[\w./\\-]", r":\d+:\d+:?\ [A-Z]{1,5}\d{2,4}\b"
assert LINT_SIGNAL.pattern == r"\n" + _LINT_PATH + "++" + _LINT_REST
_LINE_SIGNAL_PATTERN = (
    r"\n(?:(?=\D)(?:" + START_SIGNAL.pattern[2:] + "|" + LINT_SIGNAL.pattern[2:] + ")"
    r"|\d++(?:" + _TEST_COUNT + "|" + _LINT_PATH + "*+"  # the digits begin the path
    + _LINT_REST.replace("+", "++").replace("?", "?+") + "))")  # a retry finds no ":" or " "
_LINE_SIGNAL = lazy(_LINE_SIGNAL_PATTERN, re.VERBOSE)
# The same for a text that is all ASCII (most are). On it ASCII mode's \w, \d and \b match what
# Unicode mode's do (\s would not: \x1c-\x1f are Unicode spaces, so none is used), and a path
# character is one bitmap test rather than a Unicode category lookup: ~2x faster.
assert r"\s" not in _LINE_SIGNAL_PATTERN and r"\S" not in _LINE_SIGNAL_PATTERN
_LINE_SIGNAL_ASCII = lazy(_LINE_SIGNAL_PATTERN.replace(_LINT_PATH, r"[0-9A-Za-z_./\\-]"),
                          re.VERBOSE | re.ASCII)
_CONTINUES = lazy(CONTINUATION_STEP, re.VERBOSE | re.MULTILINE)  # a run's first step
_NOT_SPACE = lazy(r"\S")
_BLANK_LINE = lazy(r"[^\S\n]*(?:\n|\Z)")
_FRAME_LINE = lazy(r"[ \t][^\S\n]*\S")  # _is_frame, at a position
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
_CAPITAL_A_TRIGGERS = lazy(r"A(?:(RN)|IL|TAL(?<=FATAL))")
assert {"ARN", "AIL", "FATAL"} <= set(TRIGGERS) and "ARN" in _WARNING_TRIGGERS
_LONG_TRIGGER = "undefined reference"
# A word that opens with a rare letter (the A above, the x of xception) is found faster from
# that letter: str.find of one character is a memchr, several times faster than the engine's
# scan, and Python tests each hit for the word. Where the letter is not rare (a part with more
# than one per _MEMCHR_SPACING characters: text in capitals, hex), the engine searches instead.
_RARE_TRIGGER = "xception"
_MEMCHR_SPACING = 1024
_SCANNER_TRIGGERS = tuple((word in _WARNING_TRIGGERS, pattern)
                          for word, pattern in zip(TRIGGERS, TRIGGER_PATTERNS)
                          if word not in ("ARN", "AIL", "FATAL", _LONG_TRIGGER, _RARE_TRIGGER))
assert len(_SCANNER_TRIGGERS) == len(TRIGGERS) - 5 and _LONG_TRIGGER not in _WARNING_TRIGGERS
assert _RARE_TRIGGER not in _WARNING_TRIGGERS
_RARE_TRIGGER_PATTERN = TRIGGER_PATTERNS[TRIGGERS.index(_RARE_TRIGGER)]
_MAX_CARRY = 8 << 20  # characters held back for a block still open at a part's end
_RECENT = 4 << 20  # characters of folds remembered: more than an excerpt's tail (intake.MAX_KEEP)


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
        self.folds: dict[int, int] = {}  # of them, by shape
        # The latest folds (last line's offset, first line's offset, line width, lines, shape),
        # for those the excerpt's tail holds again: kept back to _RECENT characters.
        self._recent: deque[tuple[int, int, int, int, int]] = deque()
        self.skipped = 0  # other candidate lines past the limit

    # ---- the interface

    def feed(self, text: str, offset: int, line: int) -> int | None:
        """The newlines in text: the scan counts the lines it picks from, so the intake need not
        count them again (None: more is carried than the part holds, and it counts them)."""
        self._feed(text, offset, line)
        if len(self._carry) > len(text):
            return None
        return self._carry_line + self._carry.count("\n") - line

    def _feed(self, text: str, offset: int, line: int) -> None:
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

    def note(self, in_counts: int = 0) -> str:
        """What the plan of the excerpt must say when lines were counted but not picked;
        `in_counts`: the repeats a shown line's `(×N)` counts. Empty when each repeat counted
        is in a count: the `(×N)` says all there is (issue #22: a flood's count is the input's
        total, and counting a repeat needs no examination)."""
        if self.skipped == 0 and in_counts >= self.folded:
            return ""
        counted = f"{self.folded:,} repeats of lines shown"
        if in_counts:
            counted += (" (in the (×N) of the line they repeat)" if in_counts == self.folded
                        else f" ({in_counts:,} of them in the (×N) of the line they repeat)")
        if self.skipped:
            counted += f" and {self.skipped:,} other such lines"
        return (f"[past the first {self.limit:,} characters of error and warning lines, "
                f"{counted} were counted but not examined]")

    def planner(self, tail_origin: int | None = None):
        """The plan function for the excerpt; `tail_origin`: where the excerpt's tail starts
        in the whole output (the repeats folded there are in the excerpt again)."""
        self.picks()  # the counts are final once the last part is settled
        if tail_origin is not None:
            self._unfold_from(tail_origin)
        if not self.folded and not self.skipped:
            return plan
        return partial(_plan_with_note, scanner=self)

    def _unfold_from(self, origin: int) -> None:
        """Folds at or past `origin` no longer count: those lines are in the excerpt."""
        for last, first, width, lines, shape in self._recent:
            if last >= origin:
                inside = lines - max(0, -((first - origin) // width))  # those from origin on
                self.folds[shape] -= inside
                self.folded -= inside
        self._recent.clear()

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
        # Past the limit, copies of one folded line (a flood of one warning) are counted here,
        # not searched: the search skips them, and only the copies at the run's ends are looked at.
        skip_from, skip_to = self._folded_run(buf, begin, window)
        for low, high in ((begin, skip_from), (skip_to, window)):
            for warning, trigger in _SCANNER_TRIGGERS:
                (warnings if warning else found).update(
                    map(newline_before, map(start_of, trigger.finditer(buf, low, high))))
            _capital_a_lines(buf, low, high, found, warnings)
            found.update(map(newline_before, _rare_trigger_hits(buf, low, high)))
            hit = buf.find(_LONG_TRIGGER, low, high)
            while hit != -1:
                found.add(newline_before(hit))
                hit = buf.find(_LONG_TRIGGER, hit + 1, high)
        signal = _LINE_SIGNAL_ASCII if buf.isascii() else _LINE_SIGNAL
        if skip_to > skip_from:
            # Up to the first skipped copy (which a line-start signal may look into), and on
            # from the newline before the last copy.
            width = (skip_from - begin) // 2
            signals = list(map(start_of, signal.finditer(buf, max(0, begin - 1),
                                                         skip_from + width)))
            signals = signals[:bisect_left(signals, skip_from - 1)]
            signals += map(start_of, signal.finditer(buf, skip_to - 1))
        else:
            signals = list(map(start_of, signal.finditer(buf, max(0, begin - 1))))
        signals = signals[:bisect_left(signals, window - 1)]
        found.update(signals)
        if self._fresh and begin == 0:
            found.add(-1)
        warnings -= found  # lines only a warning word found
        found |= warnings
        if skip_to > skip_from and begin + width - 1 in found:  # the second copy is a
            self.folded += (skip_to - skip_from) // width  # candidate: so is each one skipped
            self._fold(shape_of(buf[begin:begin + width - 1]), base + skip_from, width,
                       (skip_to - skip_from) // width)
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
        is_record, continues_at = partial(LOG_RECORD.match, buf), partial(_CONTINUES.match, buf)

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
        target_end = target_anchor = 0  # line its MAX_BLOCK cap counts from)
        deferred = -1
        cp, cl = 0, self._carry_line  # the line looked at (its start and number)
        rows = zip(starts, numbers, ends, nexts)
        for cp, cl, end, nxt in rows:
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
                shape = hash(buf[cp:min(end, cp + SHAPE_CHARS)]
                             .encode("utf-8", "surrogateescape").translate(None, DIGITS))
                if shape in shapes:
                    if not covered:
                        folded += 1
                        self._fold(shape, base + cp, nxt - cp, 1)
                    if target < 0 and nxt < size and _copy_follows(buf, cp, nxt):
                        # Copies of this line follow (a flood of one warning): each would be
                        # folded alike, so they are counted in bulk, not looked at one by one.
                        after = bisect_left(starts, nxt)
                        past = bisect_left(starts, _run_end(buf, cp, nxt), after)
                        if past > after:
                            first_folded = max(after, bisect_left(starts, done, after))
                            if past > first_folded:
                                folded += past - first_folded
                                self._fold_lines(shape, base, starts[first_folded:past], nxt - cp)
                            next(islice(rows, past - after - 1, None))
                            cp, cl = starts[past - 1], numbers[past - 1]
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
                    run_from, run_end = nxt, CONTINUATION_RUN.match(buf, nxt).end()
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
                if run_line - cl > MAX_BLOCK:  # capped: the first MAX_BLOCK lines, the next
                    block_last, block_end = cl + MAX_BLOCK, -1
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
            if (target < 0 and done == nxt < size and chars < limit and buf[cp] not in " \t"
                    and _copy_follows(buf, cp, nxt)):
                # Copies of this line follow, each picked alike (as the line alone, after it)
                # until the limit: in bulk. The run's last copy, before another line, is not.
                width, after = nxt - cp, bisect_left(starts, nxt)
                past = min(bisect_left(starts, _run_end(buf, cp, nxt) - width, after),
                           after + (limit - chars + width - 1) // width)
                if past > after:
                    chars += (past - after) * width
                    done += (past - after) * width
                    next(islice(rows, past - after - 1, None))
                    cp, cl = starts[past - 1], numbers[past - 1]
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
        recent = self._recent
        while recent and recent[0][0] < base - _RECENT:
            recent.popleft()
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

    def _fold(self, shape: int, offset: int, width: int, count: int) -> None:
        """Count `count` folded copies of a line of `width` characters, the first at `offset`."""
        self.folds[shape] = self.folds.get(shape, 0) + count
        recent = self._recent
        if recent and recent[-1][4] == shape and recent[-1][2] == width and \
                recent[-1][0] + width == offset:  # the run goes on
            last, first, _, lines, _ = recent[-1]
            recent[-1] = (last + count * width, first, width, lines + count, shape)
        else:
            recent.append((offset + (count - 1) * width, offset, width, count, shape))

    def _fold_lines(self, shape: int, base: int, starts: list[int], width: int) -> None:
        """_fold for copies at `starts` (of buf, at `base`): one run, unless a skipped run
        (_folded_run) lies between them, counted there."""
        if starts[-1] - starts[0] == (len(starts) - 1) * width:
            self._fold(shape, base + starts[0], width, len(starts))
            return
        for start in starts:
            self._fold(shape, base + start, width, 1)

    def _folded_run(self, buf: str, begin: int, window: int) -> tuple[int, int]:
        """The copies of buf's line at `begin` that follow it, but for the first and the last,
        when each would be folded without being looked at (else begin, begin): past the limit
        with nothing picked in buf yet, a line whose shape was picked, and no continuation
        line (that no block of an earlier line can take in)."""
        newline = buf.find("\n", begin, window)
        if (self._unhashed is not None or self._chars < self.limit or newline == -1
                or self._done - self._carry_offset > begin or buf[begin] in " \t\n"
                or _CONTINUES.match(buf, begin) is not None):
            return begin, begin
        width = newline + 1 - begin
        copies = (min(_run_end(buf, begin, begin + width), window) - begin) // width
        if copies < 4 or shape_of(buf[begin:newline]) not in self._shapes:
            return begin, begin
        return begin + 2 * width, begin + (copies - 1) * width

    def _flush(self) -> None:
        if self._open is not None:
            self._picks.append((self._open_offset, self._open_line, "".join(self._open)))
            self._open = None


def _letter_hits(buf: str, letter: str, low: int, high: int) -> list[int] | None:
    """Where `letter` stands in buf[low:high] (str.find: a memchr), or None when it is not rare
    there (more than one per _MEMCHR_SPACING characters)."""
    most = (high - low) // _MEMCHR_SPACING + 1
    hits, find = [], buf.find
    hit = find(letter, low, high)
    while hit != -1:
        if len(hits) == most:
            return None
        hits.append(hit)
        hit = find(letter, hit + 1, high)
    return hits


def _rare_trigger_hits(buf: str, low: int, high: int):
    """Where _RARE_TRIGGER starts in buf[low:high]: from its rare first letter (a memchr), or
    by the engine's search where that letter is not rare."""
    hits = _letter_hits(buf, _RARE_TRIGGER[0], low, high)
    if hits is None:
        return map(re.Match.start, _RARE_TRIGGER_PATTERN.finditer(buf, low, high))
    return (hit for hit in hits if buf.startswith(_RARE_TRIGGER, hit, high))


def _capital_a_lines(buf: str, low: int, high: int, found: set[int], warnings: set[int]) -> None:
    """The lines (as the offset of the newline before them) holding ARN (into `warnings`), AIL
    or FATAL (into `found`) in buf[low:high]: what _CAPITAL_A_TRIGGERS.finditer finds."""
    newline_before = partial(buf.rfind, "\n", 0)
    hits = _letter_hits(buf, "A", low, high)
    if hits is None:
        matches = list(_CAPITAL_A_TRIGGERS.finditer(buf, low, high))
        lines = list(map(newline_before, map(re.Match.start, matches)))
        warned = list(map(re.Match.group, matches, repeat(1)))  # "RN" for ARN, else None
        warnings.update(compress(lines, warned))
        found.update(compress(lines, map(not_, warned)))
        return
    # The words cannot overlap, so testing every A finds what the engine's search finds; each
    # must end by `high`, and FATAL's F may stand before `low` (a lookbehind sees it).
    startswith = buf.startswith
    for hit in hits:
        if startswith("RN", hit + 1, high):
            warnings.add(newline_before(hit))
        elif startswith("IL", hit + 1, high) or hit and startswith("FATAL", hit - 1, high):
            found.add(newline_before(hit))


def _copy_follows(buf: str, start: int, nxt: int) -> bool:
    """Whether the line at nxt is a copy of the one at start (which ends at nxt). Lines of
    another length (most) are told by one character, without slicing the line."""
    return buf.startswith("\n", 2 * nxt - start - 1) and buf.startswith(buf[start:nxt], nxt)


def _run_end(buf: str, start: int, nxt: int) -> int:
    """Where the run of copies of the line buf[start:nxt] that starts at nxt ends: the number
    of copies is found by doubling, then halving, each step one C comparison."""
    width = nxt - start
    copies, step = 0, 1
    while buf.startswith(buf[start:start + (copies + step) * width], nxt) and \
            nxt + (copies + step) * width <= len(buf):
        copies += step
        step *= 2
    while step > 1:
        step //= 2
        if nxt + (copies + step) * width <= len(buf) and \
                buf.startswith(buf[start:start + (copies + step) * width], nxt):
            copies += step
    return nxt + copies * width


def _heads(buf: str, starts: list[int], ends: list[int]) -> str | None:
    """The first characters of the lines at `starts` (ending at `ends`), "\n" between them."""
    if not starts:
        return None
    return "\n".join(map(buf.__getitem__, map(slice, starts, map(
        min, ends, [start + SHAPE_CHARS for start in starts]))))


def _hash_shapes(shapes: set[int], unhashed: list[str]) -> None:
    """Add the shapes of the lines in `unhashed` (strings of line heads, "\n" between them), in
    order, while there are fewer than _MAX_SHAPES: as if each were added as it was picked."""
    for joined in unhashed:
        # Repeats dropped first, in C (dict.fromkeys keeps the order): a flood of one line is
        # one shape, not one Python step per copy.
        for shape in dict.fromkeys(map(hash, joined.encode("utf-8", "surrogateescape")
                                       .translate(None, DIGITS).split(b"\n"))):
            if len(shapes) >= _MAX_SHAPES:
                return
            shapes.add(shape)


def _cap_end(buf: str, anchor: int) -> int:
    """Where the line MAX_BLOCK lines after the one at `anchor` ends (or the text does)."""
    # Compiled here (re caches it): MAX_BLOCK is read when a runaway block needs it.
    capped = re.compile(r"(?:[^\n]*\n){%d}" % (MAX_BLOCK + 1)).match(buf, anchor)
    return capped.end() if capped else len(buf)


def _plan_with_note(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool,
                    scanner: Scanner) -> Plan | None:
    """log.plan of an excerpt, a shown warning's `(×N)` counting the repeats folded past the
    limit, with the scanner's note on what it counted but did not pick."""
    longest = max(scanner.note(), scanner.note(max(1, scanner.folded - 1)), key=len)
    folds = {shape: count for shape, count in scanner.folds.items() if count > 0}
    found = plan(text, lines, budget - counter.count(longest) - 1, counter, tool, folds=folds)
    note = scanner.note(scanner.folded - sum(folds.values()))
    if found is None or not note:
        return found
    return replace(found, items=found.items + (Note(note),))
