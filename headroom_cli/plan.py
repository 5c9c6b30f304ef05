"""What a planner returns: which parts of the text stay, which go, with exact counts.

A plan is data, not text: rendering it (and the wording of every marker) lives in render.py.
Positions are character offsets into the cleaned text; line numbers are 1-based and inclusive.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate

from .values import field, value


@value
class Keep:
    """text[start:end] verbatim, followed by an optional note (e.g. a repeat count)."""

    start: int
    end: int
    suffix: str = ""


@value
class Gap:
    """text[start:end] omitted; rendered as an inline marker naming lines first..last."""

    start: int
    end: int
    first_line: int
    last_line: int
    detail: str = ""
    # Text of a streamed output that never reached memory (see excerpt.py): omitted too, and
    # counted in the marker, though text[start:end] does not hold it.
    hidden_chars: int = 0
    hidden_bytes: int = 0


@value
class Note:
    """A line the planner writes itself (a file header with its match count, say)."""

    text: str


Item = Keep | Gap | Note


@value
class Narrowing:
    """Narrower searches that would fit the budget, with the figures a search output gives
    for them (render.py words them in the closing marker). Zero: not suggested."""

    where: str = ""  # the heaviest folder (ending in "/") or file whose matches would fit
    where_matches: int = 0
    where_files: int = 0
    where_tokens: int = 0
    list_files: int = 0  # the list of matching files (`rg -l`), when it would fit
    list_tokens: int = 0
    context: int = -1  # fewer context lines (`-C N`, 0: none) that would fit; -1: none
    context_lines: int = 0
    context_tokens: int = 0


@value
class Plan:
    kind: str
    items: tuple[Item, ...]
    total_lines: int
    # Whole-output figures for the closing marker: what the plan left out, in the shape's terms.
    omitted_lines: int
    summary: str = ""  # shape-specific wording for the closing marker (search: the match map)
    binary: bool = False
    hidden_tokens: int = 0  # estimated tokens of a streamed output's text never held (excerpt.py)
    # The gap a planner would write for 0-based lines first..last (its detail recounted), when
    # its gaps may shrink to spend what the plan leaves of the budget (spend.py); None: they
    # may not (the plan's notes or summary count what they hold).
    regap: Callable[[int, int], Gap] | None = field(default=None, compare=False, repr=False)
    # 0-based lines a note of the plan counts as omitted or lists (the log's omitted errors by
    # kind, an outline's entries): spending never shows them.
    counted: frozenset = field(default=frozenset(), compare=False, repr=False)
    narrowing: Narrowing | None = None  # a search plan's narrower searches that would fit

    def dropped_spans(self, size: int) -> tuple[tuple[int, int], ...]:
        """Character spans of the text (of length size) that no Keep covers."""
        kept = sorted((item.start, item.end) for item in self.items if isinstance(item, Keep))
        spans, cursor = [], 0
        for start, end in kept:
            if start > cursor:
                spans.append((cursor, start))
            cursor = max(cursor, end)
        if cursor < size:
            spans.append((cursor, size))
        return tuple(spans)

    def omitted_ranges(self, lines: "Lines") -> tuple[tuple[int, int], ...]:
        """1-based inclusive line ranges left out: the gaps, or else what no Keep covers."""
        gaps = [(item.first_line, item.last_line) for item in self.items if isinstance(item, Gap)]
        if gaps or not self.omitted_lines:
            return tuple(gaps)
        kept = sorted((lines.line_of(i.start), lines.line_of(max(i.start, i.end - 1)))
                      for i in self.items if isinstance(i, Keep))
        ranges, cursor = [], 0
        for first, last in kept:
            if first > cursor:
                ranges.append((cursor + 1, first))
            cursor = max(cursor, last + 1)
        if cursor < len(lines):
            ranges.append((cursor + 1, len(lines)))
        return tuple(ranges)


class Lines:
    """Line index over a text: where each line starts, and which line a position falls in."""

    def __init__(self, text: str) -> None:
        self.text = text
        # One split in C gives both the lines' texts and, from their lengths, where each
        # starts (a Python loop over newlines cost ~4x more on a planner's excerpt).
        texts = text.split("\n")
        starts = [0]
        starts.extend(accumulate(map((1).__add__, map(len, texts[:-1]))))
        if starts[-1] == len(text) and len(starts) > 1:
            starts.pop()  # a trailing newline ends the last line; it does not start a new one
        del texts[len(starts):]
        self.starts = starts
        # Each line's text without its newline: texts[i] == get(i) (for i < len(starts)).
        self.texts = texts

    def __len__(self) -> int:
        return 0 if not self.text else len(self.starts)

    def start(self, index: int) -> int:
        """Offset where 0-based line `index` starts (len(text) past the end)."""
        return self.starts[index] if index < len(self.starts) else len(self.text)

    def end(self, index: int) -> int:
        """Offset just past line `index`, its newline included."""
        return self.start(index + 1)

    def line_of(self, pos: int) -> int:
        """0-based line holding offset pos."""
        return max(0, bisect_right(self.starts, pos) - 1)

    def get(self, index: int) -> str:
        if 0 <= index < len(self.starts):
            return self.texts[index]
        return self.text[self.start(index):self.end(index)].rstrip("\n")

    def __iter__(self):
        return iter(self.texts if self.text else ())


def gap(lines: Lines, first: int, last: int, detail: str = "") -> Gap:
    """A Gap covering whole 0-based lines first..last."""
    return Gap(lines.start(first), lines.end(last), first + 1, last + 1, detail)


def _line_runs(kept: dict[int, str], total: int):
    """(first, last, is_kept) line runs in order; a line with a suffix is a run of its own."""
    cursor = 0
    for index in sorted(kept):
        if index > cursor:
            yield cursor, index - 1, False
        yield index, index, True
        cursor = index + 1
    if cursor < total:
        yield cursor, total - 1, False


def line_items(lines: Lines, kept: dict[int, str], gap: Callable[[int, int], Gap] | None,
               notes: dict[int, list[str]] | None = None,
               cut: Callable[[int], tuple[int, str]] | None = None) -> list[Item]:
    """Keep items for the kept lines (line index -> suffix), in line order. Each omitted run
    becomes gap(first, last), or is left out silently when gap is None or returns None (the
    plan's summary then accounts for it); notes anchored at an omitted line follow the run that holds it.
    cut(index) -> (characters kept, note) shortens an overlong line. (The diff and listing
    planners' way from kept lines to a plan's items.)"""
    items: list[Item] = []
    pending = sorted((notes or {}).items())
    for first, last, is_kept in _line_runs(kept, len(lines)):
        if is_kept:
            chars, note = cut(first) if cut else (0, "")
            if note:
                start = lines.start(first)
                items.append(Keep(start, start + chars, note + kept[first]))
            else:
                _keep_line(items, lines, first, kept[first])
            continue
        marker = gap(first, last) if gap else None
        if marker is not None:
            items.append(marker)
        while pending and pending[0][0] <= last:
            items.extend(Note(text) for text in pending.pop(0)[1])
    items.extend(Note(text) for _, texts in pending for text in texts)
    return items


def _keep_line(items: list[Item], lines: Lines, index: int, suffix: str) -> None:
    start, end = lines.start(index), lines.end(index)
    last = items[-1] if items else None
    if isinstance(last, Keep) and not last.suffix and last.end == start and not suffix:
        items[-1] = Keep(last.start, end)
    else:
        items.append(Keep(start, end, suffix))
