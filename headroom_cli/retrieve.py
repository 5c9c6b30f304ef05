"""Parts of a stored output, for `headroom show`: exact bytes, selected by line, byte or pattern.

Lines are what the planners count: 1-based, split at "\\n" only (a lone "\\r" does not end a
line), each printed with its own newline, so `--lines A:B` prints exactly the lines a marker
named. Every selection streams from the stored file in parts of at most PART bytes and hands
what it prints to `out` as it goes: memory is bounded by a part (and for --grep by one line of
up to LONG_LINE bytes), whatever the output's size.

Line and byte numbers are the original output's, also for a partial copy (store.py), whose
missing middle is reported as `Shown.lost` rather than printed.
"""

from __future__ import annotations

import re
from typing import BinaryIO, Callable, NamedTuple

from .clean import strip_ansi
from .store import Layout, Lost, Stored

PART = 1 << 20
LONG_LINE = 1 << 20  # --grep: a longer line is matched in parts of this size

# What a person (or an agent copying from a marker) may write between the ends of a range:
# 301:4870, 301-4870, "301–4,870" (the markers' own style), 301..4870.
# Matched on the stripped text: \s* at both ends of each alternative made a run of spaces
# cubic to reject.
_RANGE = re.compile(r"(\d*)\s*(?::|\.\.|-|–|—)\s*(\d*)|(\d+)")

Out = Callable[[bytes], None]


class Shown(NamedTuple):
    """What a selection could not print: its part that a partial copy did not keep (None:
    none), and its part past the end of the output ("lines 900:950", or None)."""

    lost: Lost | None = None
    past_end: str | None = None


class _Span(NamedTuple):
    """A run of the output's bytes held in the stored file."""

    origin: int  # 0-based byte of the output
    offset: int  # where it is in the file
    length: int
    line: int  # 1-based number of the line holding its first byte


def parse_range(text: str) -> tuple[int, int | None]:
    """'A:B' → (A, B), 1-based inclusive; 'A:' runs to the end, ':B' starts at 1, 'A' is one."""
    match = _RANGE.fullmatch(text.replace(",", "").replace("_", "").strip())
    if not match:
        raise ValueError(f"not a range: {text!r} (expected A:B, e.g. 301:4870)")
    if match.group(3):
        first = last = int(match.group(3))
    else:
        first = int(match.group(1)) if match.group(1) else 1
        last = int(match.group(2)) if match.group(2) else None
    if first < 1 or (last is not None and last < first):
        raise ValueError(f"not a range: {text!r} (1-based, and A must not exceed B)")
    return first, last


def split_lines(data: bytes) -> list[bytes]:
    """Each line with its newline; a trailing newline ends the last line, it starts none."""
    pieces = data.split(b"\n")
    lines = [piece + b"\n" for piece in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1])
    return lines


def _spans(layout: Layout) -> list[_Span]:
    spans = [_Span(0, 0, layout.head_bytes, 1)]
    if layout.partial:
        spans.append(_Span(layout.tail_from, layout.head_bytes,
                           layout.total_bytes - layout.tail_from,
                           layout.newlines_before_tail + 1))
    return [span for span in spans if span.length]


def _copy(file: BinaryIO, offset: int, length: int, out: Out) -> None:
    file.seek(offset)
    while length > 0 and (part := file.read(min(PART, length))):
        out(part)
        length -= len(part)


def _past(what: str, first: int, last: int | None, total: int) -> str | None:
    """The part of first..last beyond the output's `total` lines (or bytes), said in a line:
    "lines 900:950 are past the end: the output has 812 lines"."""
    if (last if last is not None else first) <= total:
        return None
    first = max(first, total + 1)
    wanted = (f"{what[:-1]} {first} is" if first == last
              else f"{what} {first}:{'' if last is None else last} are")
    return f"{wanted} past the end: the output has {total:,} {what}"


def select(stored: Stored, out: Out, lines: tuple[int, int | None] | None = None,
           byte_span: tuple[int, int | None] | None = None, head_count: int | None = None,
           tail_count: int | None = None) -> Shown:
    """`headroom show`'s one selection (the first given), printed to `out`: lines A..B,
    bytes A..B, the first or last N lines, or else everything."""
    if lines is not None:
        return line_range(stored, *lines, out)
    if byte_span is not None:
        return byte_range(stored, *byte_span, out)
    if head_count is not None:
        return head(stored, head_count, out)
    if tail_count is not None:
        return tail(stored, tail_count, out)
    return everything(stored, out)


def everything(stored: Stored, out: Out) -> Shown:
    for span in _spans(stored.layout):
        _copy(stored.file, span.offset, span.length, out)
    return Shown(stored.layout.lost)


def byte_range(stored: Stored, first: int, last: int | None, out: Out) -> Shown:
    """Bytes first..last (1-based, inclusive) of the output."""
    layout = stored.layout
    end = layout.total_bytes if last is None else min(last, layout.total_bytes)
    for span in _spans(layout):
        start, stop = max(first - 1, span.origin), min(end, span.origin + span.length)
        if start < stop:
            _copy(stored.file, span.offset + start - span.origin, stop - start, out)
    lost = layout.lost
    touched = lost is not None and first <= lost.last_byte and end >= lost.first_byte
    return Shown(lost if touched else None, _past("bytes", first, last, layout.total_bytes))


def line_range(stored: Stored, first: int, last: int | None, out: Out) -> Shown:
    """Lines first..last (1-based, inclusive) of the output, each with its newline."""
    layout = stored.layout
    for span in _spans(layout):
        _lines_of_span(stored.file, span, first, last, out)
    lost = layout.lost
    touched = lost is not None and first <= lost.last_line and (
        last is None or last >= lost.first_line)
    return Shown(lost if touched else None, _past("lines", first, last, layout.total_lines))


def _lines_of_span(file: BinaryIO, span: _Span, first: int, last: int | None,
                   out: Out) -> None:
    """Print the span's bytes that lie on lines first..last; `number` is the line being read."""
    file.seek(span.offset)
    number, left = span.line, span.length
    while left > 0 and (last is None or number <= last):
        part = file.read(min(PART, left))
        if not part:
            return
        left -= len(part)
        count = part.count(b"\n")
        if number + count < first:  # the whole part lies before the range
            number += count
            continue
        start = 0
        while number < first:  # skip to the first line's start
            start = part.index(b"\n", start) + 1
            number += 1
        stop = len(part)
        if last is not None and number + part.count(b"\n", start) > last:
            stop = start
            while number <= last:  # through the last line's newline
                stop = part.index(b"\n", stop) + 1
                number += 1
        else:
            number += part.count(b"\n", start)
        out(part[start:stop])


def head(stored: Stored, count: int, out: Out) -> Shown:
    return line_range(stored, 1, count, out) if count else Shown()


def tail(stored: Stored, count: int, out: Out) -> Shown:
    total = stored.layout.total_lines
    return line_range(stored, max(1, total - count + 1), None, out) if count and total else (
        Shown())


def grep(stored: Stored, pattern: re.Pattern[str], out: Out) -> tuple[Shown, int]:
    """Matching lines as `N:line`, N the line number in the original output; the count.

    Lines are matched without their terminal colour codes (a coloured ERROR is still an ERROR)
    but printed as stored. A line longer than LONG_LINE is matched in parts of that size (a
    match across two parts is missed) and printed from the file, never held whole.
    """
    found = 0
    for span in _spans(stored.layout):
        found += _grep_span(stored.file, span, pattern, out)
    return Shown(stored.layout.lost), found


def _matches(pattern: re.Pattern[str], line: bytes) -> bool:
    text = line.decode("utf-8", "surrogateescape").rstrip("\n").removesuffix("\r")
    return pattern.search(strip_ansi(text)) is not None


def _grep_span(file: BinaryIO, span: _Span, pattern: re.Pattern[str], out: Out) -> int:
    found, number, read = 0, span.line, 0
    # The line being read: where it starts in the span, its bytes held so far, and for a
    # giant line (its start no longer held) whether a part of it matched.
    line_start, carry, giant, matched = 0, b"", False, False

    def end_line(piece: bytes, end: int) -> None:
        nonlocal found
        hit = matched or _matches(pattern, piece)
        if hit:
            found += 1
            out(b"%d:" % number)
            if giant:
                _copy(file, span.offset + line_start, end - line_start, out)
            else:
                out(piece)
            if not piece.endswith(b"\n"):
                out(b"\n")

    while read < span.length:
        file.seek(span.offset + read)
        chunk = file.read(min(PART, span.length - read))
        if not chunk:
            break
        held, held_at = carry + chunk, read - len(carry)
        read += len(chunk)
        start = 0
        while (newline := held.find(b"\n", start)) != -1:
            end_line(held[start:newline + 1], held_at + newline + 1)
            number += 1
            start, giant, matched = newline + 1, False, False
            line_start = held_at + start
        carry = held[start:]
        if len(carry) > LONG_LINE:
            matched = matched or _matches(pattern, carry)
            carry, giant = b"", True
    if carry or giant:
        end_line(carry, span.length)
    return found
