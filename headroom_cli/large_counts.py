"""Token counts of large texts: exact up to EXACT_COUNT_LIMIT characters, estimated beyond from
windows spread through them; a text counted again (an excerpt planned twice, what each plan
drops of it) reuses the last count where the two agree, and the spans of one text are read
off one count of it."""

from __future__ import annotations

from bisect import bisect_left

from .tokens import SEAM, Counter


# Counting every character of a 100 MB input would cost seconds; past this many characters a
# token figure is estimated (which is why markers say "~").
EXACT_COUNT_LIMIT = 200_000
# The estimate: the tokens of SAMPLE_WINDOWS windows of WINDOW_CHARS spread evenly through the
# text, scaled to its length. Many small windows read a text's every part (a diff's --stat and
# its hunks, a log's start-up and its run, long lines' ends): on the corpus's 37 outputs past
# the limit they are a median 0.6 % off (at most 2.2 %), where the first 200,000 characters
# were 1.1 % (at most 25 %), and they cost a third as much: ~40 ms of a 1 MB clip's ~250.
# A window's ragged ends (a token cut in two) move a figure a few tokens in tens of thousands.
SAMPLE_WINDOWS = 64
WINDOW_CHARS = 1_000


def count_large(counter: Counter, pieces: list[str]) -> int:
    """Tokens in the pieces: exact up to EXACT_COUNT_LIMIT characters, estimated beyond."""
    total_chars = sum(len(piece) for piece in pieces)
    if total_chars <= EXACT_COUNT_LIMIT:
        return sum(_count_reusing(counter, piece) for piece in pieces)
    return _estimated(counter, [(piece, 0, len(piece)) for piece in pieces], total_chars)


def _estimated(counter: Counter, parts: list[tuple[str, int, int]], total_chars: int) -> int:
    """The tokens of the parts (text, start, end), in order, from windows spread evenly
    through their characters (a window stays in its part)."""
    counted = sampled = passed = 0
    places = iter([total_chars * k // SAMPLE_WINDOWS for k in range(SAMPLE_WINDOWS)])
    place = next(places)
    for text, start, end in parts:
        while place is not None and place < passed + end - start:
            at = start + place - passed
            stop = min(end, at + WINDOW_CHARS)
            counted += counter.count(text[at:stop])
            sampled += stop - at
            place = next(places, None)
        passed += end - start
    return int(round(counted * total_chars / sampled, -2))


def count_spans(counter: Counter, text: str, spans, tabulate: bool = False) -> int:
    """count_large(counter, [text[start:end] for start, end in spans]), the same figure, read
    off the text's SpanTable when there is one; `tabulate`: make one (a count and a half of
    the text), for a caller that knows the text's spans will be counted again (a streamed
    excerpt: counted whole, then what each rendered plan drops of it)."""
    spans = list(spans)
    total_chars = sum(end - start for start, end in spans)
    if total_chars > EXACT_COUNT_LIMIT:
        return _estimated(counter, [(text, start, end) for start, end in spans], total_chars)
    table = _span_table(counter, text, spans[-1][1], tabulate) if spans else None
    if table is None:
        return count_large(counter, [text[start:end] for start, end in spans])
    return sum(table.tokens(start, end) for start, end in spans)


class SpanTable:
    """Tokens of any span of a text's first `length` characters, from one count of them: the
    running total of tokens at each seam (SEAM), where the text counts as the sum of its parts;
    a span's ragged ends, before its first seam and after its last, are counted as they are."""

    def __init__(self, counter: Counter, text: str, length: int, seams: list[int],
                 totals: list[int]) -> None:
        self._counter, self._text, self.length = counter, text, length
        self._seams, self._totals = seams, totals  # totals[i]: tokens of text[:seams[i]]

    def tokens(self, start: int, end: int) -> int:
        seams, text, count = self._seams, self._text, self._counter.count
        first = bisect_left(seams, start)  # the span's seams: seams[first:last]
        last = bisect_left(seams, end + 1)
        if first >= last or seams[last - 1] <= seams[first] or end > self.length:
            return count(text[start:end]) if end > start else 0
        low, high = seams[first], seams[last - 1]
        head = count(text[start:low]) if low > start else 0
        tail = count(text[high:end]) if end > high else 0
        return head + self._totals[last - 1] - self._totals[first] + tail


_last_table: SpanTable | None = None


def _span_table(counter: Counter, text: str, needed: int, make: bool) -> SpanTable | None:
    """The SpanTable of text covering its first `needed` characters: the last one built
    (extended when it is short), or with `make` a new one; None when the counter has none
    to give."""
    global _last_table
    last = _last_table
    if last is None or last._text is not text or last._counter is not counter:
        if not make:
            return None
        last = None
    elif last.length >= needed:
        return last
    tabulate = getattr(counter, "running_totals_at_seams", None)
    start = last.length if last is not None else 0  # a seam, or 0: the rest is added on
    found = tabulate(text, start, needed) if tabulate is not None else None
    if found is None:
        return None
    length, seams, totals = found
    if last is not None:
        seams = last._seams + seams[1:]
        totals = last._totals + [last._totals[-1] + total for total in totals[1:]]
    _last_table = SpanTable(counter, text, length, seams, totals)
    return _last_table


# A clip counts large texts that are mostly the same: the excerpt's first 200,000 characters,
# then what each rendered plan drops of it (twice: planned, then grown at its gaps' edges). No
# token spans a newline followed by an ASCII letter or digit (in cl100k's and o200k's split
# patterns a piece holds a newline only at its end, or among spaces; neither looks back), so
# a text cut there counts as the sum of its parts: the text shared with the last large text
# counted is worked out from that count, and only what differs is counted.
# Only a counter that says additive_at_seams (byte-pair: BpeCounter) is counted so; the
# estimate's ceil(chars / 4) is not the sum of its parts.
_REUSE_MIN = 16_384  # characters: below this a count is cheap, and counted as it is
_last_large: tuple[object, str, int] | None = None  # (counter, text, its tokens)


def _count_reusing(counter: Counter, text: str) -> int:
    """counter.count(text), exactly, reusing the last large count where the texts agree."""
    global _last_large
    if len(text) < _REUSE_MIN or not getattr(counter, "additive_at_seams", False):
        return counter.count(text)
    last = _last_large
    tokens = _count_from(last, counter, text) if last is not None and last[0] is counter \
        else None
    if tokens is None:
        tokens = counter.count(text)
    _last_large = (counter, text, tokens)
    return tokens


def _count_from(last: tuple[object, str, int], counter: Counter, text: str) -> int | None:
    """text's tokens from the last large count, when the two share most of their text (None:
    they do not). The shared run is cut at seams (SEAM) inside it, or at both texts' ends."""
    import re  # (cached by re after the first large count; the pass-through never counts)

    _, old, old_tokens = last
    if text == old:
        return old_tokens
    seams = re.compile(SEAM)
    at_old = old.find(text[:64])
    if at_old >= 0:
        at_text = 0
    else:
        at_text, at_old = text.find(old[:64]), 0
        if at_text < 0:
            return None
    length = _agreeing(text, at_text, old, at_old)
    start, end = at_text, at_text + length
    shift = at_old - at_text  # a position in text, plus shift, is the same one in old
    if not (start == 0 and at_old == 0):  # not both texts' starts: cut at a seam inside
        if not (start == 0 and old[at_old - 1:at_old] == "\n" and text[:1].isalnum()
                and text[:1].isascii()):
            seam = seams.search(text, start, end)
            if seam is None:
                return None
            start = seam.end()
    if not (end == len(text) and end + shift == len(old)):  # not both texts' ends: likewise
        newline = text.rfind("\n", start, end - 1)
        while newline >= start and seams.match(text, newline, end) is None:
            newline = text.rfind("\n", start, newline)
        if newline < start:
            return None
        end = newline + 1
    if start >= end or (start + (len(old) - (end + shift)) + start + shift
                        + (len(text) - end)) * 2 > len(text):
        return None  # little shared: counting it all costs less

    def tokens(part: str) -> int:
        return counter.count(part) if part else 0

    return (tokens(text[:start]) + old_tokens - tokens(old[:start + shift])
            - tokens(old[end + shift:]) + tokens(text[end:]))


def _agreeing(a: str, i: int, b: str, j: int) -> int:
    """The length of the common prefix of a[i:] and b[j:] (whole texts compared in C)."""
    high = min(len(a) - i, len(b) - j)
    if a.startswith(b[j:j + high], i):
        return high
    low = 0
    while low < high:  # a[i:i + low] agrees, a[i:i + high + 1] does not
        middle = (low + high + 1) // 2
        if a.startswith(b[j:j + middle], i):
            low = middle
        else:
            high = middle - 1
    return low
