"""Retrieval streams from disk (retrieve.py): every selection of a stored copy, whole or partial,
equals the same selection of the original output restricted to the bytes the copy kept, and
holds at most a part in memory, whatever the output's size.

Parts are shrunk to a few bytes so that every boundary case (a line across parts, a newline at
a part's end, a giant line) is met on small inputs. Nothing is timed.
"""

from __future__ import annotations

import re
import time
import tracemalloc

import pytest
from pathlib import Path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli import retrieve
from headroom_cli.clean import strip_ansi
from headroom_cli.retrieve import split_lines
from headroom_cli.store import Layout, Retention, Store, content_id, first_line

# Bytes that make lines and cleaning interesting: newlines, CRs, NULs, escapes, UTF-8.
ALPHABET = st.sampled_from([b"a", b"b", b"\n", b"\r", b"\x00", b"\x1b[31m", b"\xc3\xa9", b"ERR"])
OUTPUTS = st.lists(ALPHABET, max_size=300).map(b"".join)


@pytest.fixture
def small_parts(monkeypatch):
    monkeypatch.setattr(retrieve, "PART", 5)
    monkeypatch.setattr(retrieve, "LONG_LINE", 8)


def stored_copy(root, data: bytes, limit: int | None):
    store = Store(root)
    item_id = content_id(data)
    cap = Retention(max_bytes=1 << 40) if limit is None else Retention(max_bytes=2 * limit)
    store.put(item_id, data, cap, time.time())
    return store.open(item_id)


def collect(select, *args) -> tuple[bytes, retrieve.Shown]:
    printed = []
    shown = select(*args, printed.append)
    return b"".join(printed), shown


def kept_only(data: bytes, layout: Layout, start: int, end: int) -> bytes:
    """Bytes start..end (0-based, exclusive) of the output that the copy holds."""
    return data[start:min(end, layout.head_bytes)] + data[max(start, layout.tail_from):end]


def line_starts(data: bytes) -> list[int]:
    """Byte offset of every line's start, and the output's end."""
    starts = [0]
    for line in split_lines(data):
        starts.append(starts[-1] + len(line))
    return starts


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=OUTPUTS.filter(bool), limit=st.one_of(st.none(), st.integers(2, 200)),
       first=st.integers(1, 80), length=st.integers(0, 80), open_end=st.booleans())
def test_every_selection_is_the_originals_restricted_to_what_was_kept(
        tmp_path_factory, small_parts, data, limit, first, length, open_end):
    stored = stored_copy(tmp_path_factory.mktemp("store"), data, limit)
    with stored:
        layout = stored.layout
        last = None if open_end else first + length
        starts = line_starts(data)
        total_lines = len(starts) - 1
        # --lines
        line_end = starts[min(total_lines, last if last is not None else total_lines)]
        line_start = starts[min(first - 1, total_lines)]
        printed, shown = collect(retrieve.line_range, stored, first, last)
        assert printed == kept_only(data, layout, line_start, max(line_start, line_end))
        assert (shown.past_end is not None) == ((last or first) > total_lines)
        # --bytes
        printed, shown = collect(retrieve.byte_range, stored, first, last)
        assert printed == kept_only(data, layout, first - 1,
                                    len(data) if last is None else last)
        assert (shown.past_end is not None) == ((last or first) > len(data))
        # --head and --tail
        printed, _ = collect(retrieve.head, stored, first)
        assert printed == kept_only(data, layout, 0, starts[min(first, total_lines)])
        printed, _ = collect(retrieve.tail, stored, first)
        assert printed == kept_only(data, layout, starts[max(0, total_lines - first)], len(data))
        # the whole copy
        printed, shown = collect(retrieve.everything, stored)
        assert printed == kept_only(data, layout, 0, len(data))
        assert (shown.lost is None) == (not layout.partial)


def reference_grep(data: bytes, pattern: re.Pattern[str]) -> bytes:
    hits = []
    for number, line in enumerate(split_lines(data), start=1):
        text = line.decode("utf-8", "surrogateescape").rstrip("\n").removesuffix("\r")
        if pattern.search(strip_ansi(text)):
            hits.append(b"%d:%s" % (number, line if line.endswith(b"\n") else line + b"\n"))
    return b"".join(hits)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=OUTPUTS.filter(bool), pattern=st.sampled_from(["ERR", "a", "^b", "é", "a$", "x"]))
def test_grep_numbers_and_prints_matching_lines_as_stored(tmp_path_factory, monkeypatch, data,
                                                          pattern):
    monkeypatch.setattr(retrieve, "PART", 5)  # lines across parts; none longer than LONG_LINE
    with stored_copy(tmp_path_factory.mktemp("store"), data, None) as stored:
        printed, (shown, found) = collect(retrieve.grep, stored, re.compile(pattern))
    assert printed == reference_grep(data, re.compile(pattern))
    assert found == printed.count(b"\n")  # one newline a hit


def test_a_giant_line_is_matched_in_parts_and_printed_whole(tmp_path, small_parts):
    data = b"short\n" + b"x" * 40 + b"NEEDLE" + b"y" * 40 + b"\nlast"
    with stored_copy(tmp_path / "store", data, None) as stored:
        printed, (_, found) = collect(retrieve.grep, stored, re.compile("NEEDLE|last"))
    assert printed == b"2:" + data[6:6 + 87] + b"3:last\n"
    assert found == 2


def peak_allocated(action) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module")
def large_copy(tmp_path_factory):
    """A 48 MiB stored output: 48 times what any selection may hold."""
    data = b"".join(b"line %d of a long output\n" % i for i in range(2_000_000))
    data += b"z" * ((48 << 20) - len(data))
    root = tmp_path_factory.mktemp("large")
    store = Store(root)
    store.put(content_id(data), data, Retention(max_bytes=1 << 40), time.time())
    return store, content_id(data)


@pytest.mark.parametrize("select", [
    lambda stored, out: retrieve.head(stored, 1, out),
    lambda stored, out: retrieve.tail(stored, 1, out),
    lambda stored, out: retrieve.line_range(stored, 1_000_000, 1_000_002, out),
    lambda stored, out: retrieve.byte_range(stored, 30 << 20, (30 << 20) + 100, out),
    lambda stored, out: retrieve.grep(stored, re.compile("line 1999999 "), out),
])
def test_a_selection_holds_a_part_not_the_output(large_copy, select):
    store, item_id = large_copy

    def show():
        with store.open(item_id) as stored:  # the hash check streams too
            select(stored, lambda data: None)

    assert peak_allocated(show) < 4 * retrieve.PART


def test_store_list_reads_a_prefix_only(large_copy):
    store, item_id = large_copy
    assert peak_allocated(lambda: first_line(Path(store.root, item_id))) < 64 << 10
    assert first_line(Path(store.root, item_id)) == b"line 0 of a long output\n"


# --------------------------------------------------------------------------- through the CLI


def test_lines_past_the_end_print_what_exists_and_say_so(run_cli):
    data = b"".join(b"line %d\n" % i for i in range(1, 813))
    item_id = re.search(rb"show ([0-9a-f]{12})", run_cli(["--budget", "100"], data).stdout)[1]
    item_id = item_id.decode()
    past = run_cli(["show", item_id, "--lines", "900:950"])
    assert (past.exit_code, past.stdout) == (0, b"")
    assert past.stderr == "headroom: lines 900:950 are past the end: the output has 812 lines\n"
    partly = run_cli(["show", item_id, "--lines", "811:820"])
    assert partly.stdout == b"line 811\nline 812\n"
    assert "lines 813:820 are past the end" in partly.stderr
    one = run_cli(["show", item_id, "--lines", "813"])
    assert one.stderr == "headroom: line 813 is past the end: the output has 812 lines\n"
    inside = run_cli(["show", item_id, "--lines", "1:812"])
    assert inside.stdout == data and inside.stderr == ""
    assert "bytes 9000: are past the end" in run_cli(["show", item_id, "--bytes", "9000:"]).stderr
