"""Terminal noise: ANSI escapes and carriage-return redraws, removed before planning.

Only output that is going to be clipped is cleaned; output that fits passes untouched. Cleaning
never adds or removes a newline, so line numbers still point into the original output.
"""

from __future__ import annotations

import re

from .patterns import lazy

# CSI (any parameters and intermediates, not only digits), OSC (ended by BEL or ST), the other
# string commands (DCS, SOS, PM, APC), and two-byte escapes. 8-bit C1 CSI too.
_ANSI = lazy(
    r"""
    (?: \x1b\[ | \x9b ) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]    # CSI ... final byte
  | (?: \x1b\] | \x9d ) [^\x07\x1b\n]* (?: \x07 | \x1b\\ )?       # OSC ... BEL or ST
  | \x1b [PX^_] [^\x1b\n]* (?: \x1b\\ )?                          # DCS, SOS, PM, APC
  | \x1b [\x20-\x2f]* [\x30-\x7e]                                 # other escapes (ESC 7, ESC ( B)
    """,
    re.VERBOSE,
)
# A CR that is not part of a CRLF line ending: what came before it on the line was redrawn.
# Anchored at line starts so the scan stays linear.
_REDRAWN = lazy(r"^[^\n]*\r(?=[^\r\n])", re.MULTILINE)


# Beside a NUL, what only binary data holds: C0 controls that no text output prints (tab,
# newline, form feed, carriage return, backspace and escape are text's), DEL, and the lone
# surrogates that stand for bytes that are not UTF-8 (decoded with surrogateescape).
_BINARY_COMPANY = lazy("[\x01-\x07\x0e-\x1a\x1c-\x1f\x7f\udc80-\udcff]")
_MOST_NULS = 0.25  # of the characters: more is UTF-16 text or padding, not separators


def binary(text: str) -> bool:
    """Whether output holding a NUL is binary data, cut at its ends by bytes; otherwise it is
    text whose NULs separate fields (`git grep -z`, `grep -Z`: `path\0NN\0text`), planned
    as that text (fields). NUL-ended records without a newline (`find -print0`, `env -0`) are
    one giant line, so are cut by bytes as binary data is."""
    if "\x00" not in text:
        return False
    return ("\n" not in text or text.count("\x00") > _MOST_NULS * len(text)
            or _BINARY_COMPANY.search(text) is not None)


def fields(text: str) -> str:
    """Text with NUL field separators as `:` (a `git grep -z` line then reads as grep's
    `path:NN:text`): what its shape is told from and its planner reads. The same length and
    the same lines, so a plan of it is a plan of `text`, which is what is printed."""
    return text.replace("\x00", ":") if "\x00" in text else text


def strip_ansi(text: str) -> str:
    if "\x1b" not in text and "\x9b" not in text and "\x9d" not in text:
        return text
    return _ANSI.sub("", text)


def collapse_redraws(text: str) -> str:
    """Keep only the final state of lines redrawn with carriage returns (progress bars)."""
    if "\r" not in text:
        return text
    return _REDRAWN.sub("", text)


def clean(text: str) -> str:
    return collapse_redraws(strip_ansi(text))


# ---- where the cleaned characters came from: byte offsets that refer to the raw output

def _size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogateescape"))


def kept_runs(text: str) -> list[tuple[int, int]]:
    """Where clean(text) came from: (cleaned position, position in `text`) at the start of
    every run of characters cleaning kept, in order. Linear: two regex scans and a merge."""
    ansi = [match.span() for match in _ANSI.finditer(text)] if (
        "\x1b" in text or "\x9b" in text or "\x9d" in text) else []
    stripped = _ANSI.sub("", text) if ansi else text
    redrawn = [match.span() for match in _REDRAWN.finditer(stripped)] if "\r" in stripped else []
    if redrawn:  # their ends, in `stripped`, back to positions in `text`
        from bisect import bisect_right

        at, removed, total = [], [], 0
        for start, end in ansi:
            at.append(start - total)  # where the escape stood in `stripped`
            total += end - start
            removed.append(total)
        ansi = sorted(ansi + [(_origin(start, at, removed, bisect_right),
                               _origin(end, at, removed, bisect_right)) for start, end in redrawn])
    runs, cleaned, cursor = [], 0, 0
    for start, end in ansi:
        if start > cursor:
            runs.append((cleaned, cursor))
            cleaned += start - cursor
        cursor = max(cursor, end)
    if cursor < len(text) or not runs:
        runs.append((cleaned, cursor))
    return runs


def _origin(position: int, at: list[int], removed: list[int], bisect_right) -> int:
    """A position in the escape-stripped text, in the text before stripping: escapes that
    stood at or before it come before it."""
    index = bisect_right(at, position)
    return position + (removed[index - 1] if index else 0)


class ByteMap:
    """Character positions of a cleaned text (or an excerpt of one) → byte offsets of the raw
    output, so that every `--bytes A:B` a marker names is in the stored copy's bytes.

    `anchors`: (position in the text, raw byte offset) at the start of every run of kept
    characters, in order (a run's bytes are its characters' UTF-8, as cleaning keeps them).
    Bytes cleaning removed, or a streamed output never held, lie between two runs: a gap
    that starts or ends there takes them in, so they are named, never silently skipped.
    """

    def __init__(self, text: str, anchors: list[tuple[int, int]], total: int,
                 base: int = 0) -> None:
        self.text, self.total, self.base = text, total, base
        self._anchors = anchors

    @classmethod
    def of_cleaning(cls, original: str, cleaned: str, base: int = 0) -> "ByteMap":
        """For clean(original) == cleaned, `original` starting at raw byte `base`. The runs
        are found when a marker first asks (most clips name no byte)."""
        found = cls(cleaned, [], base + _size(original), base)
        found._original = original
        return found

    _original: str | None = None

    @property
    def anchors(self) -> list[tuple[int, int]]:
        if self._original is not None:
            original, self._original = self._original, None
            consumed, done = self.base, 0
            runs = kept_runs(original) if original != self.text else [(0, 0)]
            for position, source in runs:
                consumed += _size(original[done:source])
                self._anchors.append((position, consumed))
                done = source
        return self._anchors

    def _run(self, position: int, strictly_before: bool) -> int:
        from bisect import bisect_left, bisect_right

        find = bisect_left if strictly_before else bisect_right
        return find(self.anchors, (position,)) - 1 if strictly_before else (
            find(self.anchors, (position, float("inf"))) - 1)

    def at(self, position: int) -> int:
        """Raw offset of the character at `position` (what was removed before it, before it);
        the text's end is the output's end."""
        if position >= len(self.text):
            return self.total
        index = self._run(position, strictly_before=False)
        if index < 0:
            return self.base
        start, raw = self.anchors[index]
        return raw + _size(self.text[start:position])

    def after(self, position: int) -> int:
        """Raw offset just after the character before `position` (what was removed after it,
        after it); the text's start is where the mapped output starts."""
        index = self._run(position, strictly_before=True)
        if position <= 0 or index < 0:
            return self.base
        start, raw = self.anchors[index]
        return raw + _size(self.text[start:position])
