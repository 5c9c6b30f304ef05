"""The store's size cap holds while an output is written: an output larger than half the cap
keeps its head and its latest tail, is marked partial (in the marker and by `headroom show`),
and never empties the store of earlier outputs (store.py, retrieve.py).

Figures are counted from the tests' own inputs; nothing is timed.
"""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
import tempfile
import time

import pytest
from pathlib import Path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli import intake as stage
from headroom_cli import store as store_module
from headroom_cli.retrieve import split_lines
from headroom_cli.store import Layout, Retention, Store, content_id

HANG_GUARD = 120  # seconds; never an assertion
ID = re.compile(r"headroom show ([0-9a-f]{12})")
PARTIAL = re.compile(r"the stored copy is partial \(the store's size cap\): bytes ([\d,]+)–"
                     r"([\d,]+) of ([\d,]+) \(lines? ([\d,]+)(?:–([\d,]+))?\) were not kept")
MIB = 1 << 20


def num(text: str) -> int:
    return int(text.replace(",", ""))


def numbered(count: int, prefix: bytes = b"line") -> bytes:
    return b"".join(b"%s %d\n" % (prefix, i) for i in range(1, count + 1))


def disk_use(root) -> int:
    return sum(entry.stat().st_size for entry in os.scandir(root)) if os.path.isdir(root) else 0


def spilled(store: Store, data: bytes, limit: int, parts: list[int], counted: bool = False):
    """Write `data` through a Spill in parts of the given sizes (then the rest); commit it.
    `counted`: each part comes with its newlines counted (as the intake passes them)."""
    spill = store.spill(Retention(max_bytes=2 * limit))  # an output's limit: half the cap
    position = 0
    for size in [*parts, len(data)]:
        part = data[position:position + size]
        spill.write(part, part.count(b"\n") if counted else None)
        position += len(part)
    return spill, spill.commit(Retention(max_bytes=2 * limit), time.time())


# --------------------------------------------------------------------------- the capped copy


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=3000).map(lambda b: b.replace(b"\x00", b"\n")),
       limit=st.integers(0, 1200), parts=st.lists(st.integers(0, 700), max_size=6),
       counted=st.booleans())
def test_a_spilled_copy_keeps_head_and_tail_within_its_limit(tmp_path, data, limit, parts,
                                                             counted):
    store = Store(tempfile.mkdtemp(dir=tmp_path))
    spill, item_id = spilled(store, data, limit, parts, counted)
    layout = spill.layout
    stored = Path(store.root, item_id).read_bytes()
    assert item_id == content_id(data)  # the whole output's hash, whatever was kept
    assert len(stored) <= max(limit, 1)
    assert layout == Layout.of(data, limit)  # held or streamed, the same copy
    assert stored == data[:layout.head_bytes] + data[layout.tail_from:]
    assert layout.partial == (len(data) != len(stored))
    # Only the copy and its layout are left: no segment of the rolling tail stays behind.
    assert sorted(os.listdir(store.root)) == sorted(
        [item_id] + ([item_id + ".partial"] if layout.partial else []))
    if layout.partial:
        assert layout.head_bytes == limit // 2  # the head is kept whole
        lost = layout.lost
        assert (lost.first_byte, lost.last_byte) == (layout.head_bytes + 1, layout.tail_from)
        assert lost.first_line == data[:layout.head_bytes].count(b"\n") + 1
        assert lost.last_line == data[:layout.tail_from - 1].count(b"\n") + 1
        assert lost.total_lines == len(split_lines(data))


def test_a_copy_over_the_limit_keeps_most_of_its_share_for_the_tail(tmp_path):
    store = Store(tmp_path / "store")
    data = numbered(100_000)
    limit = 64 << 10
    spill, item_id = spilled(store, data, limit, [4096] * 50)
    stored = Path(store.root, item_id).read_bytes()
    assert limit * 7 // 8 <= len(stored) <= limit
    assert stored.endswith(b"line 100000\n") and stored.startswith(b"line 1\n")


def test_the_disk_never_holds_more_than_the_limit_while_writing(tmp_path, monkeypatch):
    store = Store(tmp_path / "store")
    limit, peak = 100_000, []
    write = store_module._Segment.write

    def measured(self, *args):
        write(self, *args)
        self.file.flush()
        peak.append(disk_use(Path(store.root)))

    monkeypatch.setattr(store_module._Segment, "write", measured)
    spilled(store, os.urandom(1_000_000), limit, [3000] * 300)
    assert peak and max(peak) <= limit


def test_a_held_output_larger_than_half_the_cap_is_kept_in_part(tmp_path):
    store = Store(tmp_path / "store")
    data = numbered(2000)
    layout = store.put(content_id(data), data, Retention(max_bytes=4000), time.time())
    assert layout.partial and layout.stored_bytes <= 2000
    with store.open(content_id(data)) as stored:
        assert stored.layout == layout


# --------------------------------------------------------------------------- through the CLI


def test_a_partial_copy_is_named_in_the_marker_and_by_show(run_cli, monkeypatch):
    monkeypatch.setattr(stage, "HOLD", 4096)
    env = {"HEADROOM_STORE_MAX_BYTES": "64K"}
    data = numbered(50_000)
    run = run_cli(["--budget", "300", "--kind", "other"], data, env=env)
    text = run.stdout.decode()
    item_id = ID.search(text)[1]
    found = PARTIAL.search(text)
    assert found, text
    first, last, total = num(found[1]), num(found[2]), num(found[3])
    assert total == len(data) and first == (64 << 10) // 4 + 1  # the head: a quarter of the cap
    first_line = data[:first - 1].count(b"\n") + 1
    assert num(found[4]) == first_line
    # What was kept comes back exactly, by the output's own numbers; the rest is named.
    lines = data.splitlines(keepends=True)
    shown = run_cli(["show", item_id, "--tail", "3"], env=env)
    assert shown.stdout == b"".join(lines[-3:]) and shown.stderr == ""
    shown = run_cli(["show", item_id, "--lines", f"{first_line - 2}:{first_line + 2}"], env=env)
    line_start = len(b"".join(lines[:first_line - 3]))
    assert shown.stdout == data[line_start:first - 1]  # up to the end of the kept head
    assert "were not kept; what was kept is printed" in shown.stderr
    assert f"bytes {found[1]}–{found[2]}" in shown.stderr
    shown = run_cli(["show", item_id, "--bytes", f"{last + 1}:{last + 10}"], env=env)
    assert shown.stdout == data[last:last + 10] and shown.stderr == ""
    whole = run_cli(["show", item_id], env=env)
    assert whole.stdout == data[:first - 1] + data[last:]
    assert "partial" in whole.stderr
    # `store list` gives the output's own size and says the copy is partial, with what it kept.
    listed = run_cli(["store", "list"], env=env).stdout.decode()
    row = next(line for line in listed.splitlines() if line.startswith(item_id))
    kept = (first - 1) + (total - last)
    assert f"  {total:,}  " in row and row.endswith(f"(partial: {kept:,} bytes kept) line 1")


def test_a_full_disk_while_streaming_warns_once_and_keeps_the_output(run_cli, monkeypatch):
    monkeypatch.setattr(stage, "HOLD", 4096)

    def full(self, data, newlines=None):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(store_module._Capped, "write", full)
    run = run_cli(["--budget", "300", "--kind", "other"], numbered(5000))
    assert run.exit_code == 0
    assert run.stderr.count("\n") == 1 and os.strerror(errno.ENOSPC) in run.stderr
    assert "cannot keep the full output" in run.stderr
    assert b"re-run piped through" in run.stdout and b"headroom show" not in run.stdout


# A producer like `yes`: 24 MiB of "y" lines, measuring the store's disk use after every write
# (what the streaming copy holds at that moment, however far behind it is), never sleeping.
_YES = """
import os, sys
root, out = sys.argv[1], sys.argv[2]

def size(entry):
    try:
        return entry.stat().st_size
    except FileNotFoundError:  # a segment of the rolling tail, dropped meanwhile
        return 0

peak = 0
for _ in range(24 * 16):
    sys.stdout.buffer.write(b"y\\n" * 32768)
    sys.stdout.buffer.flush()
    peak = max(peak, sum(size(entry) for entry in os.scandir(root)))
open(out, "w").write(str(peak))
"""


def test_yes_through_headroom_stays_under_the_cap_and_earlier_outputs_survive(private_env,
                                                                             tmp_path):
    """`yes | headroom` with a 2 MiB store cap: at most the cap on disk, before and after."""
    root = tmp_path / "store"
    store = Store(root)
    earlier = [numbered(3000, b"earlier %d" % i) for i in range(3)]
    for data in earlier:
        store.put(content_id(data), data, Retention(), time.time())
    env = dict(os.environ, HEADROOM_STORE_MAX_BYTES="2M")
    producer = subprocess.Popen([sys.executable, "-c", _YES, str(root), str(tmp_path / "peak")],
                                stdout=subprocess.PIPE)
    run = subprocess.run([sys.executable, "-m", "headroom_cli", "--budget", "500"],
                         stdin=producer.stdout, capture_output=True, env=env, timeout=HANG_GUARD)
    producer.stdout.close()
    producer.wait(timeout=HANG_GUARD)
    assert run.returncode == 0, run.stderr
    assert int((tmp_path / "peak").read_text()) <= 2 * MIB
    assert disk_use(root) <= 2 * MIB
    for data in earlier:
        with store.open(content_id(data)) as stored:
            assert stored.layout.total_bytes == len(data)
    item_id = ID.search(run.stdout.decode())[1]
    found = PARTIAL.search(run.stdout.decode())
    assert found and num(found[3]) == 24 * MIB
    show = subprocess.run([sys.executable, "-m", "headroom_cli", "show", item_id, "--tail", "2"],
                          capture_output=True, env=env, timeout=HANG_GUARD)
    assert show.stdout == b"y\ny\n"


def test_the_same_input_gets_the_same_id_and_marker_when_partial(run_cli, monkeypatch):
    monkeypatch.setattr(stage, "HOLD", 4096)
    env = {"HEADROOM_STORE_MAX_BYTES": "64K"}
    data = numbered(30_000)
    first = run_cli(["--budget", "300"], data, env=env)
    again = run_cli(["--budget", "300"], data, env=env)
    assert PARTIAL.search(first.stdout.decode())
    assert first.stdout == again.stdout
