"""Benchmark inputs: generated deterministically, streamed to bench/out/, kept between runs.

Each generator yields lines from a seeded random.Random, so the same size gives the same bytes
on every machine and every run. Files are written in ~1 MB chunks (a 2 GB input never exists as
one string) to a temporary name that is renamed into place when complete, so an interrupted run
never leaves a short file that a later run would trust.

The shapes imitate what agents actually feed headroom:
- search: `rg -n` / `grep -rn` output, grouped the way those tools print it: every match of one
  file on consecutive lines, line numbers rising, files of very different match counts.
- log: a service's log: mostly INFO, some WARN, rare ERROR followed by a short Python traceback.
- flood: one compiler warning repeated, as a CI log of a noisy build is (issue #24).
- plain: prose-like text with no structure a planner could use (the plain clip).
- oneline: one line of N bytes and no newline (minified JS/JSON, a base64 blob).
"""

from __future__ import annotations

import itertools
import os
import random
from pathlib import Path
from typing import Callable, Iterator

MB = 1_000_000  # decimal megabytes throughout: MB/s figures compare with `dd` and `pv`
# Part of every file name: bump it when a generator changes, so stale inputs are not reused.
GENERATOR_VERSION = 3
_CHUNK = MB


def input_file(out: Path, kind: str, size: int) -> Path:
    """The `kind` input of exactly `size` bytes, generated on first use."""
    path = out / "inputs" / f"{kind}-v{GENERATOR_VERSION}-{_size_name(size)}.txt"
    if not (path.exists() and path.stat().st_size == size):
        chunks = _CHUNK_MAKERS[kind](random.Random(f"{kind}-{size}"))
        _write_streaming(path, size, chunks, last_byte=b"" if kind == "oneline" else b"\n")
    return path


def small_file(out: Path, name: str, content: str | bytes) -> Path:
    path = out / "inputs" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def _size_name(size: int) -> str:
    if size >= 1000 * MB and size % (1000 * MB) == 0:
        return f"{size // (1000 * MB)}GB"
    return f"{size // MB}MB" if size % MB == 0 else f"{size}B"


def _write_streaming(path: Path, size: int, chunks: Iterator[bytes], last_byte: bytes) -> None:
    """Write exactly `size` bytes; `last_byte` replaces the final one (a cut line still ends)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    written = 0
    with open(partial, "wb") as fh:
        for chunk in chunks:
            chunk = chunk[: size - written]
            if last_byte and written + len(chunk) == size:
                chunk = chunk[:-1] + last_byte
            fh.write(chunk)
            written += len(chunk)
            if written >= size:
                break
    os.replace(partial, path)


def _lines_in_chunks(lines: Iterator[str]) -> Iterator[bytes]:
    """Join lines into ~1 MB chunks: one write per chunk, not per line."""
    while True:
        batch, length = [], 0
        for line in lines:
            batch.append(line)
            length += len(line)
            if length >= _CHUNK:
                break
        if not batch:
            return
        yield "".join(batch).encode()


# --------------------------------------------------------------------------- search


_TOP_DIRS = ("src", "lib", "tests", "packages/core/src", "packages/cli/src", "tools", "docs",
             "vendor/third_party", "services/api", "services/worker", "examples", "scripts")
_SUB_DIRS = ("parsers", "handlers", "models", "utils", "io", "config", "net", "cache", "auth",
             "plugins", "internal", "compat", "commands", "storage", "schema", "render")
_STEMS = ("parser", "reader", "loader", "options", "tokenize", "session", "client", "server",
          "registry", "format", "convert", "validate", "context", "pipeline", "query", "index")
_EXTENSIONS = ("py", "py", "py", "ts", "js", "go", "rs", "md")
# What a `rg -n parse` match looks like in code: every template holds the searched word.
_MATCH_TEMPLATES = (
    "    result = parse_{w}(raw, strict={b})",
    "def parse_{w}(text: str, *, limit: int = {n}) -> {W}:",
    "    # parse the {w} header before the body ({n} bytes at most)",
    "from .{w} import parse_{w}, Parse{W}Error",
    "        raise Parse{W}Error(f\"cannot parse {{value!r}} as {w}\")",
    "    parsed = self.parser.parse({w}_source, offset={n})",
    "class Parse{W}Error(ValueError):",
    "    return [parse_{w}(item) for item in items[:{n}]]",
    "  it(\"parses a {w} with {n} fields\", () => expect(parse{W}(input)).toEqual(expected));",
    "        if not self._parse_{w}_line(line, number={n}):",
    "    parser.add_argument(\"--{w}\", type=int, default={n}, help=\"how to parse {w}\")",
    "The `parse_{w}` function accepts {n} options; see parse_{w}_strict for the strict form.",
)
_WORDS = ("header", "config", "token", "record", "query", "path", "date", "number", "url",
          "version", "manifest", "frame", "packet", "row", "entry", "block", "args", "schema")


def _search_lines(rng: random.Random) -> Iterator[str]:
    for file_number in itertools.count():
        path = _source_path(rng, file_number)
        line_number = rng.randrange(1, 60)
        for _ in range(_matches_in_file(rng)):
            yield f"{path}:{line_number}:{_match_text(rng)}\n"
            line_number += 1 + int(rng.expovariate(0.08))


def _source_path(rng: random.Random, file_number: int) -> str:
    top, sub, stem = rng.choice(_TOP_DIRS), rng.choice(_SUB_DIRS), rng.choice(_STEMS)
    return f"{top}/{sub}/{stem}_{file_number}.{rng.choice(_EXTENSIONS)}"


def _matches_in_file(rng: random.Random) -> int:
    # Heavy-tailed, as in real floods: most files match a few times, a few match hundreds.
    return min(int(rng.paretovariate(1.3)), 600)


def _match_text(rng: random.Random) -> str:
    word = rng.choice(_WORDS)
    return rng.choice(_MATCH_TEMPLATES).format(w=word, W=word.capitalize(),
                                               n=rng.randrange(2, 4096), b=rng.random() < 0.5)


# --------------------------------------------------------------------------- log


_COMPONENTS = ("http", "db.pool", "scheduler", "cache", "auth", "worker-1", "worker-2", "queue")
_INFO_TEMPLATES = (
    "GET /api/items/{n} 200 {ms}ms",
    "POST /api/orders 201 {ms}ms (order {n})",
    "cache hit ratio 0.{n2:02d} over the last 60 s",
    "job {n} finished in {ms} ms",
    "connection {n} returned to the pool ({ms} idle)",
    "user {n} signed in from 10.0.{n2}.{ms3}",
)
_WARN_TEMPLATES = (
    "slow query took {ms}0 ms: SELECT * FROM items WHERE owner_id = {n}",
    "retrying request {n} (attempt 2 of 5) after timeout",
    "pool nearly exhausted: {n2} of 64 connections in use",
)
_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/handlers/items.py", line {n2}, in get_item\n'
    "    row = await db.fetch_one(query, item_id)\n"
    '  File "/srv/app/db/pool.py", line 142, in fetch_one\n'
    "    conn = await self._acquire(timeout=self.timeout)\n"
    "ConnectionResetError: [Errno 104] Connection reset by peer\n"
)


def _log_lines(rng: random.Random) -> Iterator[str]:
    for number in itertools.count():
        millis = number * 7  # ~140 records a second: a busy service
        stamp = (f"2024-05-01T{millis // 3_600_000 % 24:02d}:{millis // 60_000 % 60:02d}:"
                 f"{millis // 1000 % 60:02d}.{millis % 1000:03d}Z")
        fields = {"n": rng.randrange(100_000), "n2": number % 100, "ms": number % 900 + 1,
                  "ms3": number % 250}
        roll = rng.random()
        component = _COMPONENTS[number % len(_COMPONENTS)]
        if roll < 0.0004:
            yield (f"{stamp} ERROR [{component}] request {fields['n']} failed\n"
                   + _TRACEBACK.format(**fields))
        elif roll < 0.04:
            yield f"{stamp} WARN  [{component}] {rng.choice(_WARN_TEMPLATES).format(**fields)}\n"
        else:
            yield f"{stamp} INFO  [{component}] {rng.choice(_INFO_TEMPLATES).format(**fields)}\n"


# --------------------------------------------------------------------------- flood


_FLOOD_LINE = "src/mod.c:12:5: warning: unused variable x [-Wunused-variable]\n"


def _flood_lines(rng: random.Random) -> Iterator[str]:
    del rng  # the same line, every time
    return itertools.repeat(_FLOOD_LINE)


# --------------------------------------------------------------------------- plain


_PROSE = ("the", "of", "and", "a", "to", "in", "is", "that", "it", "was", "for", "on", "are",
          "with", "as", "they", "be", "at", "one", "have", "this", "from", "by", "word", "but",
          "what", "some", "we", "can", "out", "other", "were", "all", "there", "when", "up",
          "use", "your", "how", "said", "each", "which", "their", "time", "will", "way",
          "about", "many", "then", "them", "would", "write", "like", "so", "these", "her",
          "long", "make", "thing", "see", "him", "two", "has", "look", "more", "day", "could",
          "go", "come", "did", "number", "sound", "no", "most", "people", "my", "over")


def _plain_lines(rng: random.Random) -> Iterator[str]:
    while True:
        yield " ".join(rng.choices(_PROSE, k=rng.randrange(6, 18))) + ".\n"


# --------------------------------------------------------------------------- one line


def _one_line_chunks(rng: random.Random) -> Iterator[bytes]:
    # One deterministic 1 MB block repeated: the content hardly matters, the absence of any
    # newline does. Words and punctuation, not "xxxx", so the tokenizer does real work.
    words = [rng.choice(_PROSE) + rng.choice(("", ",", ":", "=1;", "();", '":"')) for _ in
             range(MB // 4)]
    block = " ".join(words).encode()[:MB]
    while True:
        yield block


_CHUNK_MAKERS: dict[str, Callable[[random.Random], Iterator[bytes]]] = {
    "search": lambda rng: _lines_in_chunks(_search_lines(rng)),
    "log": lambda rng: _lines_in_chunks(_log_lines(rng)),
    "flood": lambda rng: _lines_in_chunks(_flood_lines(rng)),
    "plain": lambda rng: _lines_in_chunks(_plain_lines(rng)),
    "oneline": _one_line_chunks,
}
KINDS = tuple(_CHUNK_MAKERS)
