"""Streaming: outputs too large to hold are read once, kept in bounded memory, planned from their
excerpt, and still labelled exactly (intake.py, excerpt.py).

In-process tests shrink intake.HOLD so that a few kilobytes stream; the process tests run the
installed command on real pipes. Figures are counted from the tests' own inputs.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import handles_signals

from headroom_cli import intake as stage
from headroom_cli.api import compress_streamed
from headroom_cli.intake import Held, Intake, Streamed
from headroom_cli.sniff import scanner
from headroom_cli.tokens import EstimateCounter
from headroom_cli.tools import lookup


GAP = re.compile(r"^\[…headroom: lines ([\d,]+)–([\d,]+) of ([\d,]+) \(~[\d,]+ tokens\) of this "
                 r"(?:\w+ )?output omitted[^\n]*?(?:show (\w{12}) --lines[^\n]*)?\]$", re.M)
HANG_GUARD = 60


def num(text: str) -> int:
    return int(text.replace(",", ""))


def numbered(count: int, width: int = 30) -> bytes:
    return b"".join(b"line %d %s\n" % (i, b"x" * (i % width)) for i in range(1, count + 1))


def take(data: bytes, parts: list[int], *, hold: int, keep: int, kind: str = "auto",
         tool: str = "Bash") -> Held | Streamed:
    """Feed data to an Intake in parts of the given sizes (then the rest)."""
    row = lookup(tool)
    intake = Intake(keep=keep, hold=hold,
                    start=lambda sample: scanner(sample, row, kind, 100_000))
    position = 0
    for size in parts:
        intake.feed(data[position:position + size])
        position += size
    if position < len(data):
        intake.feed(data[position:])
    return intake.finish()


def plan_text(taken: Streamed, budget: int, counter) -> str:
    return compress_streamed(taken.excerpt, kind=taken.kind, planner=taken.planner,
                             tool="Bash", budget=budget, counter=counter).text


# --------------------------------------------------------------------------- the intake itself


def test_input_within_hold_is_held_whole():
    data = numbered(50)
    taken = take(data, [7, 100, 3], hold=len(data), keep=64)
    assert isinstance(taken, Held) and taken.data == data


def test_memory_is_bounded_by_keep_not_by_input_size():
    data = numbered(200_000)  # ~9 MB
    taken = take(data, [65536] * 40, hold=4096, keep=2048, kind="other")
    assert isinstance(taken, Streamed)
    excerpt = taken.excerpt
    assert len(excerpt.text) <= 2 * 2048
    assert excerpt.total_chars == len(data)
    assert excerpt.total_lines == 200_000
    assert excerpt.text.startswith("line 1 ") and excerpt.text.endswith("line 200000 " +
                                                                       "x" * (200_000 % 30) + "\n")


INLINE = re.compile(r"^\[… lines ([\d,]+)(?:–([\d,]+))? omitted \(.*\) …\]$")


def rebuilt(out: str, original: list[str]) -> str:
    """The output with every gap marker replaced by the original lines it names."""
    parts = []
    for line in out.splitlines(keepends=True):
        found = INLINE.match(line.rstrip("\n")) or GAP.match(line.rstrip("\n"))
        if found:
            first = num(found[1])
            last = num(found[2]) if found[2] else first
            parts.append("".join(original[first - 1:last]))
        elif not line.startswith("[…headroom:"):
            parts.append(line)
    return "".join(parts)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(200, 3000), budget=st.integers(60, 600),
       cuts=st.lists(st.integers(1, 5000), max_size=30))
def test_kept_lines_and_gaps_reconstruct_the_input(count, budget, cuts):
    data = numbered(count)
    taken = take(data, cuts, hold=2000, keep=700, kind="other")
    assert isinstance(taken, Streamed)
    counter = EstimateCounter()
    out = plan_text(taken, budget, counter)
    assert counter.count(out) <= budget
    if "lines " not in out or " is cut" in out:
        return  # a budget too small for a full marker, or a line cut inside (tested below)
    original = data.decode().splitlines(keepends=True)
    assert rebuilt(out, original) == data.decode()
    closing = re.search(r"of ([\d,]+) (?:\(|lines)", out)
    assert closing and num(closing[1]) == count


@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(1, 9000), max_size=20))
def test_the_same_input_gives_the_same_output_however_it_arrives(cuts):
    data = numbered(3000)
    counter = EstimateCounter()
    whole = plan_text(take(data, [], hold=3000, keep=900), 300, counter)
    assert plan_text(take(data, cuts, hold=3000, keep=900), 300, counter) == whole


@settings(max_examples=30, deadline=None)
@given(data=st.binary(min_size=3000, max_size=12000), budget=st.integers(0, 300),
       cuts=st.lists(st.integers(1, 4000), max_size=10))
def test_arbitrary_bytes_stream_without_error_and_within_budget(data, budget, cuts):
    taken = take(data, cuts, hold=1000, keep=300)
    assert isinstance(taken, Streamed)
    counter = EstimateCounter()
    out = compress_streamed(taken.excerpt, kind=taken.kind, planner=taken.planner, tool="Bash",
                            budget=budget, counter=counter).text
    assert counter.count(out) <= budget or budget == 0


def test_a_giant_line_is_cut_inside_with_an_exact_character_span(counter):
    line = "".join(chr(ord("a") + i % 26) for i in range(3_000_000))
    taken = take(line.encode(), [1 << 16] * 10, hold=1 << 20, keep=stage.MIN_KEEP)
    out = plan_text(taken, 300, counter)
    found = re.search(r"characters ([\d,]+)–([\d,]+) of line 1 \(a ([\d,]+)-character line", out)
    assert found, out
    first, last, length = (num(g) for g in found.groups())
    assert length == len(line)
    head, _, rest = out.partition("[…headroom:")
    tail = rest.split("]\n", 1)[1]
    assert head.rstrip("\n") + line[first - 1:last] + tail.rstrip("\n") == line


# --------------------------------------------------------------------------- through the CLI


@pytest.fixture
def small_hold(monkeypatch):
    monkeypatch.setattr(stage, "HOLD", 4096)


def test_a_streamed_output_is_stored_whole_and_shown_back(run_cli, small_hold):
    data = numbered(5000)
    run = run_cli(["--budget", "300", "--kind", "other"], data)
    assert run.exit_code == 0
    found = GAP.search(run.stdout.decode())
    assert found and num(found[3]) == 5000
    shown = run_cli(["show", found[4]])
    assert shown.stdout == data
    part = run_cli(["show", found[4], "--lines", f"{num(found[1])}:{num(found[2])}"])
    lines = data.splitlines(keepends=True)
    assert part.stdout == b"".join(lines[num(found[1]) - 1:num(found[2])])


def test_json_format_reports_whole_output_line_ranges(run_cli, small_hold):
    import json

    data = numbered(5000)
    run = run_cli(["--budget", "300", "--kind", "other", "--format", "json"], data)
    record = json.loads(run.stdout)
    omitted = sum(last - first + 1 for first, last in record["omitted"])
    kept = sum(1 for line in record["text"].splitlines() if line.startswith("line "))
    assert omitted + kept == 5000
    assert record["input_tokens"] > record["output_tokens"]


def test_budget_zero_passes_a_large_input_straight_through(run_cli, small_hold):
    data = numbered(20_000)
    assert run_cli(["--budget", "0"], data).stdout == data


# --------------------------------------------------------------------------- real processes


def headroom(*args: str) -> list[str]:
    return [sys.executable, "-m", "headroom_cli", *args]


def wait_until(ready, guard: float = HANG_GUARD) -> None:
    """Poll `ready()` until it holds; the guard only stops a hung test (it asserts no speed)."""
    deadline = time.monotonic() + guard
    while not ready():
        assert time.monotonic() < deadline, "never became ready"
        time.sleep(0.01)


def test_live_prints_the_head_before_the_input_ends(private_env):
    process = subprocess.Popen(headroom("--live", "--budget", "200"), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdin.write(b"first line\nsecond line\n")
    process.stdin.flush()
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout=HANG_GUARD)
    assert got == [b"first line\n"]  # while stdin is still open
    process.stdin.write(numbered(3000))
    process.stdin.close()
    rest = process.stdout.read()
    assert process.wait(timeout=HANG_GUARD) == 0
    text = "first line\n" + rest.decode()
    assert text.startswith("first line\nsecond line\nline 1 ")
    found = GAP.search(text)
    assert found and num(found[3]) == 3002
    assert EstimateCounter().count(text) <= 200  # private_env counts with the estimate


def test_live_output_that_fits_is_the_input_byte_for_byte(private_env):
    data = numbered(20)
    done = subprocess.run(headroom("--live", "--budget", "2000"), input=data,
                          capture_output=True, timeout=HANG_GUARD)
    assert done.returncode == 0 and done.stdout == data


def test_a_long_running_command_is_planned_when_it_is_stopped(private_env, tmp_path):
    ready = tmp_path / "ready"
    script = ("import pathlib, sys, time\n"
              "i = 0\n"
              "while True:\n"
              "    i += 1\n"
              "    sys.stdout.write(f'tick {i}\\n')\n"
              "    if i % 100 == 0: sys.stdout.flush(); time.sleep(0.001)\n"
              f"    if i == 1000: pathlib.Path({str(ready)!r}).touch()\n")
    process = subprocess.Popen(headroom("--budget", "200", "--", sys.executable, "-c", script),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # Ready when the command has printed its first thousand lines and headroom forwards
        # the signal (no sleep to race).
        wait_until(lambda: ready.exists() and handles_signals(process.pid))
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=HANG_GUARD)
    finally:
        if process.poll() is None:  # a failed test leaves no endless writer behind
            process.kill()  # the writer then dies on its closed pipe
            process.communicate()
    assert process.returncode == 128 + signal.SIGTERM
    text = out.decode()
    assert text.startswith("tick 1\n") and "exited with status 143" in text
    assert EstimateCounter().count(text) <= 200  # private_env counts with the estimate


def test_a_cut_inside_a_giant_line_points_to_its_exact_bytes(run_cli, small_hold):
    line = ("".join(chr(ord("a") + i % 26) for i in range(50_000)) + "\n").encode()
    out = run_cli(["--budget", "200"], line).stdout.decode()
    found = re.search(r"headroom show (\w{12}) --bytes (\d+):(\d+)\]", out)
    assert found, out
    first, last = int(found[2]), int(found[3])
    middle = run_cli(["show", found[1], "--bytes", f"{first}:{last}"]).stdout
    assert middle == line[first - 1:last]
    head, _, rest = out.partition("[…headroom:")
    assert head.rstrip("\n").encode() + middle + rest.split("]\n", 1)[1].encode() == line


def test_budget_zero_in_json_wraps_the_whole_large_input(run_cli, small_hold):
    import json

    data = numbered(20_000)
    record = json.loads(run_cli(["--budget", "0", "--format", "json"], data).stdout)
    assert record["text"] == data.decode() and record["omitted"] == []


def _picks_one_by_one(picks, head_end: int, tail_origin: int):
    """Intake._picks as it was written first, pick by pick: the rule its slice must agree with."""
    for offset, line, text in picks:
        end = offset + len(text)
        if end <= head_end or offset >= tail_origin:
            continue
        if offset < head_end:
            cut = head_end - offset
            line += text.count("\n", 0, cut)
            text, offset = text[cut:], head_end
        if end > tail_origin:
            text = text[:tail_origin - offset]
        yield offset, line, text


_PICK_LINES = st.lists(st.lists(st.text("ab", max_size=4).map(lambda s: s + "\n"),
                                min_size=1, max_size=3).map("".join), max_size=12)


@settings(deadline=None, max_examples=400)
@given(texts=_PICK_LINES, gaps=st.lists(st.integers(0, 6), min_size=12, max_size=12),
       head_end=st.integers(0, 120), tail_length=st.integers(0, 120))
def test_picks_between_head_and_tail_are_those_the_pick_by_pick_rule_keeps(
        texts, gaps, head_end, tail_length):
    """The picks kept between head and tail (one slice by bisection, its two ends trimmed) are
    those trimming pick by pick keeps: picks cut by either end, one cut by both, none inside."""
    picks, offset, line = [], 0, 0
    for text, gap in zip(texts, gaps):
        offset, line = offset + gap, line + (gap > 0)
        picks.append((offset, line, text))
        offset, line = offset + len(text), line + text.count("\n")
    tail_origin = max(head_end, offset + 2 - tail_length)
    intake = Intake(keep=1, start=lambda sample: ("log", None))
    intake.scanner = type("Picked", (), {"picks": lambda self: picks})()
    assert intake._picks(head_end, tail_origin) == list(
        _picks_one_by_one(picks, head_end, tail_origin))


@settings(deadline=None, max_examples=300)
@given(positions=st.lists(st.integers(0, 40), max_size=15).map(sorted),
       asks=st.lists(st.tuples(st.integers(-2, 42), st.integers(-2, 42)), max_size=8))
def test_seams_are_handed_out_once_in_order_as_one_by_one(positions, asks):
    """_Seams.take hands a range out as one slice when none of it was taken: the same seams,
    in the same order, as taking them one by one."""
    from headroom_cli.excerpt import Seam, _Seams

    seams = [Seam(position, index + 1, index + 2) for index, position in enumerate(positions)]
    fast, taken = _Seams(seams), set()
    for start, end in asks:
        expected = [seam for index, seam in enumerate(seams)
                    if start <= seam.position <= end and index not in taken]
        taken.update(index for index, seam in enumerate(seams) if start <= seam.position <= end)
        assert fast.take(start, end) == expected


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.sampled_from(["plain ascii line", "naïve café", "\x1b[31mred\x1b[0m",
                                       "50%\r100%", "", "tab\there", "\x00nul"]),
                      min_size=200, max_size=600),
       part=st.integers(40, 400), cuts=st.lists(st.integers(1, 900), max_size=12))
def test_parts_counted_as_bytes_give_the_excerpt_of_parts_decoded(monkeypatch, lines, part,
                                                                  cuts):
    # intake._undecoded takes a part as its bytes (ASCII that cleaning leaves alone, past the
    # head): whatever the mix of parts, the excerpt is the one decoding every part gives.
    data = "".join(f"{i} {line}\n" for i, line in enumerate(lines)).encode()
    with monkeypatch.context() as patch:  # (each example patches anew: the fixture is shared)
        patch.setattr(stage, "PART", part)
        fast = take(data, cuts, hold=500, keep=300, kind="other")
        patch.setattr(Intake, "_undecoded", lambda self, raw: False)
        slow = take(data, cuts, hold=500, keep=300, kind="other")
    assert isinstance(fast, Streamed) and fast.excerpt == slow.excerpt
