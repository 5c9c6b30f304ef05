"""The excerpt: what a streamed output keeps in memory, and how a plan made on it maps back.

An output too large to hold is read once (intake.py). Its head, its tail and the lines its
shape's scanner picks are kept as pieces, in order; the planner runs on their concatenation as
if it were the whole output. translate() then turns that plan into one about the whole output:
line numbers become the original ones, and wherever two pieces were not adjacent, the text
between them (never held) joins the planner's gap there, or becomes a gap of its own, counted
exactly in lines and characters.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import cached_property
from operator import itemgetter
from typing import NamedTuple

from .plan import Gap, Keep, Plan
from .values import field, replace, value


_STRIDE = 1 << 16


# NamedTuples, not frozen dataclasses: a flood of picks makes tens of thousands of each, and a
# tuple is built ~3x faster.
class Piece(NamedTuple):
    start: int  # where the piece starts in the excerpt text
    origin: int  # where it starts in the whole (cleaned) output, in characters
    line: int  # 0-based number of the line holding `origin`
    length: int  # characters
    at_line_start: bool  # origin is the first character of its line
    byte_origin: int | None = None  # where it starts in bytes, when known (head and tail)


@value
class Excerpt:
    text: str
    pieces: tuple[Piece, ...]
    total_chars: int  # of the whole cleaned output
    total_bytes: int
    total_lines: int
    # Where the excerpt's domain starts: with --live, what came before was printed already,
    # so it is neither kept nor omitted.
    domain_start: int = 0
    domain_line: int = 0
    binary: bool = False
    # clean.ByteMap of `text` into the raw output's bytes (None: not known exactly, when
    # scanner picks stand between head and tail): what markers that name bytes count in.
    byte_map: object | None = field(default=None, compare=False, repr=False)

    @cached_property
    def seams(self) -> list[Seam]:
        """Where text of the whole output is missing from the excerpt, and how much."""
        found = []
        edge, edge_bytes = self.domain_start, None if self.domain_start else 0
        for start, origin, _, length, _, byte_origin in self.pieces:
            if origin > edge:  # (the pieces unpacked: a log has tens of thousands)
                found.append(Seam(start, origin - edge, _byte_gap(edge_bytes, byte_origin,
                                                                  origin - edge)))
            edge = origin + length
            edge_bytes = None if byte_origin is None else (
                byte_origin + _size(self.text[start:start + length]))
        if edge < self.total_chars:
            found.append(Seam(len(self.text), self.total_chars - edge,
                              _byte_gap(edge_bytes, self.total_bytes, self.total_chars - edge)))
        return found

    @property
    def hidden_chars(self) -> int:
        return (self.total_chars - self.domain_start) - len(self.text)

    # ---- positions: excerpt → whole output

    @cached_property
    def _starts(self) -> list[int]:
        return [piece.start for piece in self.pieces]

    @cached_property
    def _origins(self) -> list[int]:
        return [piece.origin for piece in self.pieces]

    @cached_property
    def _checkpoints(self) -> list[int]:
        """Newlines before every _STRIDE-th character: a count costs at most one stride."""
        counts, total = [0], 0
        for start in range(0, len(self.text), _STRIDE):
            total += self.text.count("\n", start, start + _STRIDE)
            counts.append(total)
        return counts

    def _newlines_before(self, position: int) -> int:
        index = position // _STRIDE
        return self._checkpoints[index] + self.text.count("\n", index * _STRIDE, position)

    def _newlines(self, start: int, end: int) -> int:
        if end - start <= _STRIDE:
            return self.text.count("\n", start, end)
        return self._newlines_before(end) - self._newlines_before(start)

    def _piece_at(self, position: int) -> int:
        return max(0, bisect_right(self._starts, position) - 1)

    def origin_of_start(self, position: int) -> int:
        """A gap or keep starting at `position`: the text missing just before it belongs to
        what comes before, so a start at a piece's first character maps to the previous
        piece's end."""
        if position <= 0 or not self.pieces:
            return self.domain_start
        index = self._piece_at(position)
        piece = self.pieces[index]
        if position == piece.start and index > 0:
            before = self.pieces[index - 1]
            return before.origin + before.length
        return piece.origin + position - piece.start

    def origin_of_end(self, position: int) -> int:
        """An end at `position`: at a piece's first character it maps to that piece's origin
        (what was missing before it lies inside); at the excerpt's end, the output's end."""
        if position >= len(self.text):
            return self.total_chars
        piece = self.pieces[self._piece_at(position)]
        return piece.origin + position - piece.start

    def line_of_char(self, origin: int) -> int:
        """0-based line of the character at `origin` of the whole output: one held, or one at
        either end of a run that is not (the only ones a gap asks about)."""
        if origin >= self.total_chars:
            return max(0, self.total_lines - 1)
        index = bisect_right(self._origins, origin) - 1
        if index >= 0:
            piece = self.pieces[index]
            inside = origin - piece.origin
            if inside <= piece.length:
                # Held, or the first character missing after it: count the piece's newlines.
                return piece.line + self._newlines(piece.start, piece.start + inside)
        elif origin == self.domain_start:
            return self.domain_line
        # The last character missing before the next piece: on the line that piece starts on,
        # or the one before when the piece starts a line.
        if index + 1 < len(self.pieces):
            after = self.pieces[index + 1]
            return after.line - (1 if after.at_line_start else 0)
        return max(0, self.total_lines - 1)


class Seam(NamedTuple):
    position: int  # in the excerpt text
    chars: int  # missing there
    bytes: int  # exact where the pieces around it know their byte offsets (head, tail)


# Seam.chars and Seam.bytes as C callables: a gap over many picks sums tens of thousands.
_SEAM_CHARS, _SEAM_BYTES = (itemgetter(Seam._fields.index(name)) for name in ("chars", "bytes"))


def _byte_gap(before: int | None, after: int | None, chars: int) -> int:
    return after - before if before is not None and after is not None else chars


def _size(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


def translate(plan: Plan, excerpt: Excerpt, tokens_per_char: float) -> Plan:
    """The plan made on the excerpt, as a plan about the whole output."""
    gaps = [item for item in plan.items if isinstance(item, Gap)]
    # A plan that is a map (search) says in its summary what it left out; it has no place in
    # which a gap could stand.
    positional = bool(gaps) or not plan.summary
    seams = _Seams(excerpt.seams if positional else [])
    # A seam next to a planner's gap joins it: one marker, not two in a row.
    absorbed = {id(gap): seams.take(gap.start, gap.end) for gap in gaps}
    items: list = []
    for item in plan.items:
        if isinstance(item, Gap):
            items.append(_whole_gap(item, excerpt, absorbed[id(item)]))
        elif isinstance(item, Keep):
            items.extend(_split_keep(item, seams.take(item.start, item.end), excerpt))
        else:
            items.append(item)
    items.extend(_hidden_gap(seam, excerpt) for seam in seams.take(0, len(excerpt.text)))
    return replace(plan, items=tuple(items), total_lines=excerpt.total_lines,
                   omitted_lines=sum(last - first + 1 for first, last in _omitted(items, excerpt)),
                   binary=plan.binary or excerpt.binary,
                   hidden_tokens=round(excerpt.hidden_chars * tokens_per_char))


class _Seams:
    """Seams in excerpt order, each handed out once."""

    def __init__(self, seams: list[Seam]) -> None:
        self.seams = seams
        self.positions = [seam.position for seam in seams]
        self.taken = bytearray(len(seams))

    def take(self, start: int, end: int) -> list[Seam]:
        """The seams not yet taken at positions start..end (inclusive)."""
        low, high = bisect_left(self.positions, start), bisect_right(self.positions, end)
        if self.taken.find(1, low, high) == -1:  # none taken yet (a gap over many picks): a slice
            self.taken[low:high] = b"\1" * (high - low)
            return self.seams[low:high]
        found = []
        for index in range(low, high):
            if not self.taken[index]:
                self.taken[index] = 1
                found.append(self.seams[index])
        return found


def _split_keep(keep: Keep, inside: list[Seam], excerpt: Excerpt) -> list:
    """A kept span with seams inside (or at its ends) is kept in parts around hidden gaps."""
    if not inside:
        return [keep]
    parts, cursor = [], keep.start
    for seam in inside:
        if seam.position > cursor:
            parts.append(Keep(cursor, seam.position))
        parts.append(_hidden_gap(seam, excerpt))
        cursor = seam.position
    if cursor < keep.end:
        parts.append(Keep(cursor, keep.end, keep.suffix))
    elif keep.suffix and any(isinstance(p, Keep) for p in parts):
        # The span ended at the seam: its note goes on its last kept part.
        last = max(i for i, p in enumerate(parts) if isinstance(p, Keep))
        parts[last] = replace(parts[last], suffix=keep.suffix)
    return parts


def _whole_gap(gap: Gap, excerpt: Excerpt, absorbed: list[Seam]) -> Gap:
    first = excerpt.origin_of_start(gap.start)
    last = excerpt.origin_of_end(gap.end)
    return replace(gap, first_line=excerpt.line_of_char(first) + 1,
                   last_line=excerpt.line_of_char(max(first, last - 1)) + 1,
                   hidden_chars=sum(map(_SEAM_CHARS, absorbed)),
                   hidden_bytes=sum(map(_SEAM_BYTES, absorbed)))


def _hidden_gap(seam: Seam, excerpt: Excerpt) -> Gap:
    return _whole_gap(Gap(seam.position, seam.position, 0, 0), excerpt, [seam])


def omitted_ranges(plan: Plan, excerpt: Excerpt) -> tuple[tuple[int, int], ...]:
    """1-based inclusive line ranges of the whole output that a translated plan leaves out
    entirely (a line shown in part counts as kept)."""
    return _omitted(plan.items, excerpt)


def _omitted(items, excerpt: Excerpt) -> tuple[tuple[int, int], ...]:
    kept = sorted((excerpt.line_of_char(excerpt.origin_of_end(item.start)),
                   excerpt.line_of_char(excerpt.origin_of_end(item.end - 1)))
                  for item in items if isinstance(item, Keep) and item.end > item.start)
    ranges, cursor = [], excerpt.domain_line
    for first, last in kept:
        if first > cursor:
            ranges.append((cursor + 1, first))
        cursor = max(cursor, last + 1)
    if cursor < excerpt.total_lines:
        ranges.append((cursor + 1, excerpt.total_lines))
    return tuple(ranges)
