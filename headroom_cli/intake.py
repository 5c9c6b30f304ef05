"""Intake: the input read once, in parts, with memory bounded whatever its size.

Up to `hold` bytes are held whole and planned as they are: most outputs, and every golden case.
Past that the output streams. Every byte goes on to the spill (the store's full copy, written
part by part as the parts are cut), and only what a plan can use stays in memory: the head, the
tail, and the lines the shape's scanner picks. A scanner (planners/search/scanner.py,
planners/log/scanner.py) is fed the cleaned text in order and offers `feed(text, offset, line)`
(which may return the part's newlines, counted on its way), `picks()` and `planner()`.

With --live the first lines go straight to the reader as they arrive (cleaned, whole lines, at
most `live_limit` bytes: every token covers a byte, so they stay within the budget), and the plan
at the end covers only what follows them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import deque
from operator import add, itemgetter
from typing import Callable

from .clean import ByteMap, binary, clean
from .excerpt import Excerpt, Piece
from .values import value

HOLD = 4 << 20  # held whole: planned in memory at ~10x its size, well under 150 MB
PART = 1 << 20  # what a scanner is fed at a time once streaming
LONGEST_PART = 1 << 20  # a line longer than this is fed in parts (a 1 GB line)
MIN_KEEP = 256 << 10  # head and tail kept: runner summaries sit in the last 256 KB
MAX_KEEP = 2 << 20


def keep_for(budget: int) -> int:
    """Characters of head (and of tail) to keep: more than any plan can print of either end,
    at up to 32 characters a token (the log planner's limit for a line worth keeping)."""
    return max(MIN_KEEP, min(MAX_KEEP, budget * 32))


# Characters of picked lines a scanner may hold (with head, tail and planning: ~100 MB at most).
PICK_LIMIT = 4_000_000
PICKS_PER_KEPT = 4


def pick_limit_for(budget: int) -> int:
    """Characters of picked lines a scanner holds before it keeps only lines of a new shape
    (counting the rest): four times the head kept, at most PICK_LIMIT. The excerpt's plan
    reads every picked line, so its cost follows this; a 4,000-token plan prints ~16 KB of
    a megabyte of candidates. Past the head: the head's lines are picked, never folded."""
    return min(PICK_LIMIT, PICKS_PER_KEPT * keep_for(budget))


def decode(data: bytes) -> str:
    # Invalid UTF-8 travels as lone surrogates, so every byte that is kept is written back as is.
    return data.decode("utf-8", "surrogateescape")


@value
class Held:
    data: bytes
    # What --live printed already: input bytes, cleaned characters, lines, printed bytes.
    live_bytes: int = 0
    live_chars: int = 0
    live_lines: int = 0
    live_out_bytes: int = 0

    def rest(self) -> Excerpt:
        """What --live did not print, as an excerpt of the whole output (held whole)."""
        original = decode(self.data[self.live_bytes:])
        held_binary = binary(original)
        text = original if held_binary else clean(original)
        size = len(text.encode("utf-8", "surrogateescape"))
        ends_open = bool(text) and not text.endswith("\n")
        return Excerpt(text, (Piece(0, self.live_chars, self.live_lines, len(text), True,
                                    self.live_out_bytes),) if text else (),
                       self.live_chars + len(text), self.live_out_bytes + size,
                       self.live_lines + text.count("\n") + ends_open,
                       domain_start=self.live_chars, domain_line=self.live_lines,
                       binary=held_binary,
                       byte_map=ByteMap.of_cleaning(original, text, self.live_bytes))


@value
class Streamed:
    excerpt: Excerpt
    kind: str
    planner: Callable | None  # the scanner's plan function (exact whole-output figures)


class Intake:
    def __init__(self, *, keep: int, start: Callable, hold: int = HOLD,
                 make_spill: Callable | None = None, live: Callable[[bytes], None] | None = None,
                 live_limit: int = 0) -> None:
        """`start(sample)` is called once streaming begins, with the cleaned text held so far;
        it returns the shape's name and its scanner (or None: head and tail only).
        `make_spill()` then opens the store's copy (or returns None)."""
        self.keep, self.hold, self.start, self.make_spill = keep, hold, start, make_spill
        self.spill = None
        self.printed: list[str] = []  # by --live
        self.live, self.live_limit = live, live_limit
        self.held: bytearray | None = bytearray()
        # Printed so far by --live: input bytes, and the cleaned characters, lines and bytes.
        self.live_bytes = self.live_chars = self.live_lines = self.live_out_bytes = 0
        self.pending = bytearray()
        self.kind, self.scanner = "other", None
        self.head: list[str] = []
        self.head_chars = 0
        self.tail: deque[str] = deque()
        self.tail_chars = 0
        self.chars = self.lines = self.bytes = 0
        # Each head and tail part as (its cleaned text, what cleaning read or None when it
        # read nothing away, its first raw byte): the map of their bytes (clean.ByteMap).
        self.head_parts: list[tuple] = []
        self.tail_parts: deque[tuple] = deque()
        self.raw_bytes = 0  # raw bytes taken in so far (the cleaned count is self.bytes)
        self.binary = False

    # ---- feeding

    def feed(self, chunk: bytes) -> None:
        if self.held is None:
            self.pending += chunk
            if len(self.pending) >= PART:
                self._feed_pending(final=False)
            return
        self.held += chunk
        if self.live is not None:
            self._print_live()
        if len(self.held) > self.hold:
            self._start_streaming()

    def _print_live(self) -> None:
        room = self.live_limit - self.live_bytes
        end = self.held.rfind(b"\n", self.live_bytes, self.live_bytes + room + 1)
        if end == -1:
            if len(self.held) - self.live_bytes > room:
                self.live = None  # the next line does not fit: the live head is done
            return
        text = clean(decode(bytes(self.held[self.live_bytes:end + 1])))
        out = text.encode("utf-8", "surrogateescape")
        self.live(out)
        self.printed.append(text)
        self.live_out_bytes += len(out)
        self.live_bytes = end + 1
        self.live_chars += len(text)
        self.live_lines += text.count("\n")

    def _start_streaming(self) -> None:
        held, self.held = self.held, None
        self.live = None
        self.spill = self.make_spill() if self.make_spill is not None else None
        if self.spill is not None and self.live_bytes:
            self.spill.write(bytes(held[:self.live_bytes]))  # the rest goes part by part
        # Already printed by --live: counted, neither kept nor omitted.
        self.chars, self.lines, self.bytes = self.live_chars, self.live_lines, self.live_out_bytes
        self.raw_bytes = self.live_bytes
        self.pending = held[self.live_bytes:]
        # The first `hold` bytes, however the input arrived: the same input, the same shape.
        cut = _cut_point(self.pending[:self.hold - self.live_bytes], final=False)
        raw = self._take(cut)
        original, sample = self._clean(raw)
        self.kind, self.scanner = self.start(sample)
        self._feed_text(sample, original, raw)

    def _feed_pending(self, final: bool) -> None:
        while self.pending:
            cut = _cut_point(self.pending, final)
            if not cut:
                return
            raw = self._take(cut)
            if self._undecoded(raw):
                self._feed_text(raw, None, raw)  # decoded at the end if the tail keeps it
                continue
            original, text = self._clean(raw)
            self._feed_text(text, original, raw)

    def _undecoded(self, raw: bytes) -> bool:
        """Whether a part may be taken as its bytes: no scanner reads it, the head is full,
        and it is ASCII that cleaning leaves as it is (its characters are its bytes). Most of
        a large plain output is only counted: decoding it would be a tenth of the clip."""
        return (self.scanner is None and not self.binary and self.head_chars >= self.keep
                and raw.isascii() and b"\x1b" not in raw and b"\r" not in raw
                and b"\x00" not in raw)

    def _take(self, cut: int) -> bytes:
        """The first `cut` bytes pending, taken out (copied once, not twice)."""
        with memoryview(self.pending) as pending:
            raw = bytes(pending[:cut])
        del self.pending[:cut]
        return raw

    def _clean(self, raw: bytes) -> tuple[str | None, str]:
        """A part's text as read, and as cleaned; binary output is not cleaned (read: None)."""
        original = decode(raw)
        if not self.binary and binary(original):
            self.binary = True
            self.scanner = None  # binary output is cut at its ends only
        if self.binary:
            return None, original
        text = clean(original)
        return (None if text is original else original), text

    def _feed_text(self, text: str | bytes, original: str | None, raw: bytes) -> None:
        """One part, cleaned (or, bytes: an undecoded part, see _undecoded)."""
        counted = None
        if self.scanner is not None:
            counted = self.scanner.feed(text, self.chars, self.lines)
        # Counted once: by the scanner on its way, else here. Cleaning never adds or removes a
        # newline, so the raw part has as many as its text, and the spill is told them.
        newlines = counted if counted is not None else text.count(
            b"\n" if type(text) is bytes else "\n")
        if self.spill is not None:
            self.spill.write(raw, newlines)
        size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogateescape"))
        part = (text, original, self.raw_bytes)
        self.raw_bytes += len(raw)
        if self.head_chars < self.keep:
            piece = text[:self.keep - self.head_chars]
            self.head.append(piece)
            self.head_parts.append(part)
            self.head_chars += len(piece)
        self.tail.append(text)
        self.tail_parts.append(part)
        self.tail_chars += len(text)
        while self.tail_chars - len(self.tail[0]) >= self.keep:
            self.tail_chars -= len(self.tail.popleft())
            self.tail_parts.popleft()
        self.chars += len(text)
        self.lines += newlines
        self.bytes += size

    # ---- the end

    def finish(self) -> Held | Streamed:
        if self.held is not None:
            return Held(bytes(self.held), self.live_bytes, self.live_chars, self.live_lines,
                        self.live_out_bytes)
        self._feed_pending(final=True)
        self._decode_tail()
        excerpt = self._excerpt()
        return Streamed(excerpt, self.kind,
                        self.scanner.planner(self._tail_origin) if self.scanner is not None
                        else None)

    def _decode_tail(self) -> None:
        """The tail's undecoded parts (_undecoded), as text."""
        texts = {id(text): decode(text) for text in self.tail if type(text) is bytes}
        if texts:
            self.tail = deque(texts.get(id(text), text) for text in self.tail)
            self.tail_parts = deque((texts.get(id(text), text), original, raw)
                                    for text, original, raw in self.tail_parts)

    def _excerpt(self) -> Excerpt:
        head = "".join(self.head)
        newline = head.rfind("\n")
        if 0 <= newline < len(head) - 1:
            head = head[:newline + 1]  # whole lines, unless the first line is a giant one
        head_end = self.live_chars + len(head)
        joined = "".join(self.tail)
        tail = joined[-self.keep:]
        if len(joined) > len(tail) and joined[-len(tail) - 1] != "\n":
            newline = tail.find("\n")
            if 0 <= newline < len(tail) - 1:
                tail = tail[newline + 1:]  # whole lines, unless the last line is a giant one
        tail = tail[max(0, head_end - (self.chars - len(tail))):]  # never the head again
        tail_origin = self._tail_origin = self.chars - len(tail)
        before_tail = joined[-len(tail) - 1:-len(tail)] if 0 < len(tail) < len(joined) else (
            head[-1:])
        pieces: list[Piece] = []
        texts: list[str] = []

        def add(text: str, origin: int, line: int, at_line_start: bool,
                byte_origin: int | None = None) -> None:
            if not text:
                return
            texts.append(text)
            last = pieces[-1] if pieces else None
            if last is not None and last.origin + last.length == origin:
                # Adjacent in the output too: one piece (a flood of picks, one object).
                pieces[-1] = Piece(last.start, last.origin, last.line, last.length + len(text),
                                   last.at_line_start, last.byte_origin)
                return
            start = last.start + last.length if last is not None else 0
            pieces.append(Piece(start, origin, line, len(text), at_line_start, byte_origin))

        add(head, self.live_chars, self.live_lines, True, self.live_out_bytes)
        picks = self._picks(head_end, tail_origin)
        _add_picks(picks, pieces, texts)
        add(tail, tail_origin, self.lines - tail.count("\n"),
            tail_origin == 0 or before_tail in ("\n", ""),
            self.bytes - len(tail.encode("utf-8", "surrogateescape")))
        total_lines = self.lines + (1 if joined and not joined.endswith("\n") else 0)
        text = "".join(texts)
        byte_map = None
        if not picks:  # head and tail only: every byte's place is known
            anchors = _anchors(self.head_parts, 0, len(head))
            anchors += [(len(head) + position, raw) for position, raw in
                        _anchors(self.tail_parts, len(joined) - len(tail), len(tail))]
            byte_map = ByteMap(text, anchors, self.raw_bytes, self.live_bytes)
        return Excerpt(text, tuple(pieces), self.chars, self.bytes, total_lines,
                       domain_start=self.live_chars, domain_line=self.live_lines,
                       binary=self.binary, byte_map=byte_map)

    def _picks(self, head_end: int, tail_origin: int) -> list[tuple[int, int, str]]:
        """The scanner's picks between head and tail, trimmed to whole lines outside them.
        The picks are ascending and do not overlap, so those inside are one slice, found by
        bisection; only the two at its ends can need trimming (a log has tens of thousands)."""
        if self.scanner is None:
            return []
        picks = self.scanner.picks()
        offsets = list(map(itemgetter(0), picks))
        ends = list(map(add, offsets, map(len, map(itemgetter(2), picks))))
        picks = picks[bisect_right(ends, head_end):bisect_left(offsets, tail_origin)]
        if picks and picks[0][0] < head_end:
            offset, line, text = picks[0]
            cut = head_end - offset
            picks[0] = (head_end, line + text.count("\n", 0, cut), text[cut:])
        if picks and picks[-1][0] + len(picks[-1][2]) > tail_origin:
            offset, line, text = picks[-1]
            picks[-1] = (offset, line, text[:tail_origin - offset])
        return picks


def _add_picks(picks: list[tuple[int, int, str]], pieces: list[Piece], texts: list[str]) -> None:
    """The scanner's picks (whole lines at line starts, ascending) as pieces after those so far:
    a run of picks adjacent in the output is one piece, made once (a log's picks are tens of
    thousands: _excerpt's add() for each, a tuple made again for each adjacent one, cost
    ~0.1 s)."""
    texts += filter(None, map(itemgetter(2), picks))
    last = pieces.pop() if pieces else None
    start, origin, line, length, at_line_start, byte_origin = (
        last if last is not None else (0, -1, 0, 0, True, None))
    for offset, number, text in picks:
        if not text:
            continue
        if origin + length == offset:  # adjacent in the output too: the same piece
            length += len(text)
            continue
        if origin >= 0:
            pieces.append(Piece(start, origin, line, length, at_line_start, byte_origin))
            start += length
        origin, line, length, at_line_start, byte_origin = offset, number, len(text), True, None
    if origin >= 0:
        pieces.append(Piece(start, origin, line, length, at_line_start, byte_origin))


def _anchors(parts, start: int, length: int) -> list[tuple[int, int]]:
    """The ByteMap anchors of characters start..start+length of the parts' texts joined
    (positions from `start`): each part's runs of kept characters, clipped to the window."""
    found, offset = [], 0
    for text, original, raw in parts:
        end = offset + len(text)
        if end > start and offset < start + length:
            runs = ByteMap.of_cleaning(original, text, raw).anchors if original is not None \
                else [(0, raw)]
            for index, (position, byte) in enumerate(runs):
                run_end = runs[index + 1][0] if index + 1 < len(runs) else len(text)
                first, last = offset + position, offset + run_end
                if last <= start or first >= start + length:
                    continue
                if first < start:  # the window starts inside this run
                    byte += len(text[position:start - offset].encode("utf-8", "surrogateescape"))
                    first = start
                found.append((first - start, byte))
        offset = end
    return found


def _cut_point(data: bytearray, final: bool) -> int:
    """Where the next part ends: after its last newline; all of it at the end; and inside a
    line too long to hold, at a character boundary."""
    if final:
        return len(data)
    cut = data.rfind(b"\n") + 1
    if cut or len(data) <= LONGEST_PART:
        return cut
    cut = LONGEST_PART
    while cut > LONGEST_PART - 4 and data[cut] & 0xC0 == 0x80:  # not inside a UTF-8 sequence
        cut -= 1
    return cut
