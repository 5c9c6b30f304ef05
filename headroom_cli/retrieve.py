"""Parts of a stored output, for `headroom show`: exact bytes, selected by line, byte or pattern.

Pure functions over bytes. Lines are what the planners count: 1-based, split at "\\n" only (a
lone "\\r" does not end a line), each returned with its own newline, so `--lines A:B` prints
exactly the lines a marker named.
"""

from __future__ import annotations

import re

from .clean import strip_ansi

# What a person (or an agent copying from a marker) may write between the ends of a range:
# 301:4870, 301-4870, "301–4,870" (the markers' own style), 301..4870.
_RANGE = re.compile(r"\s*(\d*)\s*(?::|\.\.|-|–|—)\s*(\d*)\s*|\s*(\d+)\s*")


def parse_range(text: str) -> tuple[int, int | None]:
    """'A:B' → (A, B), 1-based inclusive; 'A:' runs to the end, ':B' starts at 1, 'A' is one."""
    match = _RANGE.fullmatch(text.replace(",", "").replace("_", ""))
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


def line_range(data: bytes, first: int, last: int | None) -> bytes:
    return b"".join(split_lines(data)[first - 1:last])


def head(data: bytes, count: int) -> bytes:
    return b"".join(split_lines(data)[:count])


def tail(data: bytes, count: int) -> bytes:
    return b"".join(split_lines(data)[-count:]) if count else b""


def byte_range(data: bytes, first: int, last: int | None) -> bytes:
    return data[first - 1:last]


def grep(data: bytes, pattern: re.Pattern[str]) -> bytes:
    """Matching lines as `N:line`, N the line number in the original output.

    Lines are matched without their terminal colour codes (a coloured ERROR is still an ERROR)
    but printed as stored.
    """
    hits = []
    for number, line in enumerate(split_lines(data), start=1):
        text = line.decode("utf-8", "surrogateescape")
        if pattern.search(strip_ansi(text.rstrip("\n").removesuffix("\r"))):
            hits.append(b"%d:%s" % (number, line if line.endswith(b"\n") else line + b"\n"))
    return b"".join(hits)
