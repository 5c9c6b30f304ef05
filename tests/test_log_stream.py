"""The log scanner: what a streamed output keeps for the log planner, fed in parts.

The picks must not depend on where the parts were cut, must be whole original lines at their
own offsets, must hold what the planner needs (the corpus needles survive planning the excerpt
of a padded log), and must stay bounded however many warnings stream past.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import corpus_cases
from headroom_cli.clean import clean
from headroom_cli.fit import fit
from headroom_cli.plan import Lines, Note
from headroom_cli.planners import log
from headroom_cli.planners.log import planning as log_planning
from headroom_cli.planners.log import scanner as log_scanner
from headroom_cli.planners.log import signals as log_signals
from headroom_cli.render import Context
from headroom_cli.tokens import load_counter
from headroom_cli.tools import lookup

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
KEEP = 256 * 1024  # head and tail of the excerpt, as intake.MIN_KEEP
PART = 1 << 20


@pytest.fixture(scope="module")
def cl100k():
    return load_counter("cl100k_base")


def scan(text: str, cuts=(), limit: int = 10**9, tool: str = "Bash") -> log.Scanner:
    """The scanner fed `text` in parts cut at the given offsets."""
    scanner = log.Scanner(lookup(tool), limit)
    position = line = 0
    for cut in [*sorted(set(cuts)), len(text)]:
        if cut > position:
            part = text[position:cut]
            counted = scanner.feed(part, position, line)
            assert counted in (None, part.count("\n"))  # the intake takes it as the count
            position, line = cut, line + part.count("\n")
    return scanner


def in_parts(text: str, size: int = PART) -> list[int]:
    """Cut points as the intake makes them: after the last newline within each `size`."""
    cuts, position = [], 0
    while len(text) - position > size:
        end = text.rfind("\n", position, position + size) + 1
        end = end if end > position else position + size
        cuts.append(end)
        position = end
    return cuts


def check_whole_lines(picks, text: str) -> None:
    """Each pick is whole lines of `text`, at its own offset and line number, in order."""
    lines = Lines(text)
    previous_end = -1
    for offset, line, piece in picks:
        assert piece and text[offset:offset + len(piece)] == piece
        assert offset > previous_end  # ascending, not overlapping, not adjacent
        assert lines.starts[line] == offset
        end = offset + len(piece)
        assert end == len(text) or text[end - 1] == "\n"
        previous_end = end


def excerpt_of(text: str, picks) -> str:
    """Head, picks and tail (whole lines), in order, as the intake builds the excerpt."""
    head_end = text.find("\n", KEEP) + 1 or len(text)
    tail_start = text.rfind("\n", 0, len(text) - KEEP) + 1
    spans = sorted([(0, head_end), (tail_start, len(text))] +
                   [(offset, offset + len(piece)) for offset, _, piece in picks])
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return "".join(text[start:end] for start, end in merged)


# ------------------------------------------------------------------------------ a reference

def reference_lines(text: str) -> set[int]:
    """The lines the scanner should pick, worked out line by line on the whole text."""
    lines = Lines(text)
    total, starts = len(lines), lines.starts
    if not total:
        return set()
    candidates = {0}
    for trigger in log_signals.TRIGGER_PATTERNS:
        candidates.update(lines.line_of(m.start()) for m in trigger.finditer(text))
    for signal in (log_signals.START_SIGNAL, log_signals.LINT_SIGNAL):
        candidates.update(lines.line_of(m.start() + 1) for m in signal.finditer(text))
    picked = set()
    for key in candidates:
        if key and not log_signals.LOG_RECORD.match(lines.get(key)):
            picked.add(key - 1)
        run_end = log_signals.CONTINUATION_RUN.match(text, lines.end(key)).end()
        after_run = bisect_left(starts, run_end) if run_end < len(text) else total
        if after_run - key > log_planning.MAX_BLOCK:
            last = key + log_planning.MAX_BLOCK
        else:
            before = lines.get(after_run - 1)
            frame = before[:1] in (" ", "\t") and bool(before.strip())
            last = after_run if after_run < total and frame else after_run - 1
        picked.update(range(key, min(last, total - 1) + 1))
    return picked


def picked_lines(picks) -> set[int]:
    found = set()
    for _, line, piece in picks:
        found.update(range(line, line + len(piece.splitlines())))
    return found


VOCABULARY = [
    "2024-03-05 12:00:01,123 INFO  [main] app.Server - started in 12 ms",
    "2024-03-05 12:00:02,456 WARN  [pool-1] app.Cache - slow response: 300 ms",
    "2024-03-05 12:00:03,789 ERROR [pool-2] app.Orders - Failed to process order 17",
    "java.lang.IllegalStateException: invoice 17 already closed",
    "\tat app.Orders.step(Orders.java:12)",
    "\t... 12 more",
    "Caused by: java.io.IOException: broken pipe",
    "Traceback (most recent call last):",
    '  File "app.py", line 3, in main',
    "    run()",
    "KeyboardInterrupt",
    "ValueError: bad value",
    "",
    "",
    "   ",
    "E       assert 2 == 3",
    ">       assert f(1) == 3",
    "F821 Undefined name `sequence`",
    "   --> src/app.py:157:12",
    "    |",
    "157 |     return sequence",
    "    |            ^^^^^^^^",
    "^^^^",
    "E",
    "-----",
    "src/app.py:12:5: E501 Line too long (99 > 88)",
    "2to3.py:1:1: F401 unused import",
    "tests/test_x.py::test_error_message PASSED",
    "FAILED tests/test_x.py::test_y - assert 1 == 2",
    "===== 1 failed, 3 passed in 0.12s =====",
    "3 passing (12ms)",
    "warning: unused variable `x`",
    "raiseError(x)",
    "learn more at https://example.com",
    "plain output line",
    "note: required by a bound",
    "goroutine 1 [running]:",
    "[CRITICAL] disk full",
    "  12:5  error  'x' is not defined  no-undef",
]

log_texts = st.builds(
    lambda lines, ending: "\n".join(lines) + ending,
    st.lists(st.sampled_from(VOCABULARY), max_size=120), st.sampled_from(["\n", ""]))


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(text=log_texts, data=st.data(), cap=st.sampled_from([3, 3000]),
       limit=st.sampled_from([10**9, 400, 60]))
def test_picks_do_not_depend_on_where_the_parts_were_cut(text, data, cap, limit):
    starts = Lines(text).starts[1:] if text else []
    cuts = data.draw(st.lists(st.sampled_from(starts), max_size=8) if starts else st.just([]))
    with mock.patch.object(log_planning, "MAX_BLOCK", cap), \
            mock.patch.object(log_scanner, "MAX_BLOCK", cap):
        whole = scan(text, limit=limit)
        parted = scan(text, cuts, limit=limit)
        assert parted.picks() == whole.picks()
        assert (parted.folded, parted.skipped) == (whole.folded, whole.skipped)
        check_whole_lines(whole.picks(), text)
        if limit == 10**9:
            assert picked_lines(whole.picks()) == reference_lines(text)


def test_line_signal_finds_what_the_planner_regexes_find():
    """_LINE_SIGNAL is _START_SIGNAL and _LINT_SIGNAL in one pass, with a shortcut for lines
    that start with a digit: it must find the same lines."""
    texts = [(CORPUS / case / "output.txt").read_text("utf-8", "surrogateescape")
             for case in corpus_cases("log")]
    texts.append("\n".join(VOCABULARY * 3) + "\n")
    texts.append("x\n12 passing\n3 failed\n2024.py:1:2: E501 x\n0a-b/c.py:10:2 W291 y\n"
                 "1:2 E12\n42\n7 skipped\n")
    for text in texts:
        text = "\n" + text
        expected = {m.start() for pattern in (log_signals.START_SIGNAL, log_signals.LINT_SIGNAL)
                    for m in pattern.finditer(text)}
        # The ruff format's match spans two lines; the next line's signal is found either way.
        assert {m.start() for m in log_scanner._LINE_SIGNAL.finditer(text)} == expected


_A_TEXT = st.lists(st.sampled_from(["A", "ARN", "AIL", "FATAL", "ATAL", "FAT", "AL", "RN", "IL",
                                     "x", "xception", "ception", "\n", " ", "a", "É"]),
                   max_size=40).map("".join)


@settings(deadline=None, max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(text=_A_TEXT, data=st.data(), spacing=st.sampled_from([1, 3, 1024]))
def test_words_found_from_a_rare_letter_are_what_the_regex_finds(text, data, spacing):
    """The capital-A words and xception, found from their first letter (memchr, then a test per
    hit; the engine's search where the letter is not rare), in any range of the text."""
    low = data.draw(st.integers(0, len(text)))
    high = data.draw(st.integers(low, len(text)))
    line_of = lambda offset: text.rfind("\n", 0, offset)  # noqa: E731
    found, warnings = set(), set()
    with mock.patch.object(log_scanner, "_MEMCHR_SPACING", spacing):
        log_scanner._capital_a_lines(text, low, high, found, warnings)
        rare = log_scanner._letter_hits(text, "x", low, high)
    matches = list(log_scanner._CAPITAL_A_TRIGGERS.finditer(text, low, high))
    assert warnings == {line_of(m.start()) for m in matches if m.group(1)}
    assert found == {line_of(m.start()) for m in matches if not m.group(1)}
    if rare is not None:
        assert {hit for hit in rare if text.startswith("xception", hit, high)} == {
            m.start() for m in re.finditer("xception", text[:high]) if m.start() >= low}
        assert len(rare) <= (high - low) // spacing + 1


# ------------------------------------------------------------------------------ lines

def test_a_trace_across_a_part_boundary_is_kept_whole():
    lines = [f"2024-03-05 12:00:{i % 60:02d},000 INFO  [main] app - tick {i}" for i in range(400)]
    trace = ['Traceback (most recent call last):', '  File "app.py", line 3, in main',
             '    run()', '  File "app.py", line 9, in run', '    step()', 'KeyboardInterrupt']
    text = "\n".join(lines[:200] + trace + lines[200:]) + "\n"
    start = text.index("Traceback")
    for cut in range(start - 80, start + 200, 7):
        cut = text.rfind("\n", 0, cut) + 1
        picks = scan(text, [cut]).picks()
        assert picks == scan(text).picks()
        kept = "".join(piece for _, _, piece in picks)
        assert "\n".join(trace) + "\n" in kept
        assert lines[199] + "\n" in kept  # the line before it


def test_a_line_cut_across_parts_is_never_picked():
    giant = "ERROR " + "x" * 3_000_000
    text = "error: before\nplain\n" + giant + "\nValueError: after\nplain\n"
    cuts = [len("error: before\nplain\n") + 1_000_000, len("error: before\nplain\n") + 2_000_000]
    picks = scan(text, cuts).picks()
    check_whole_lines(picks, text)
    kept = [piece for _, _, piece in picks]
    assert not any("xxxx" in piece for piece in kept)
    assert any("error: before" in piece for piece in kept)
    assert any("ValueError: after" in piece for piece in kept)


def test_the_last_line_without_a_newline_is_picked_whole():
    text = "plain\n" * 10 + "error: at the very end"
    for cuts in ([], [6], [30, 54]):
        picks = scan(text, cuts).picks()
        assert picks[-1] == (54, 9, "plain\nerror: at the very end")


# ------------------------------------------------------------------------------ the corpus

def filler(chars: int, seed: int) -> list[str]:
    """Application log records with no error or warning signal in them."""
    lines, total, i = [], 0, 0
    while total < chars:
        line = (f"2024-03-05 1{seed}:{i // 60000 % 60:02d}:{i // 1000 % 60:02d},{i % 1000:03d} "
                f"INFO  [worker-{i % 16}] com.example.Jobs - processed batch {i} in {i % 97} ms")
        lines.append(line)
        total += len(line) + 1
        i += 1
    return lines


def clip(text: str, planner, budget: int, counter, tool: str):
    return fit(text, Lines(text), planner, budget, counter, Context(lookup(tool)))


@pytest.mark.parametrize("layout", ["middle", "split"])
@pytest.mark.parametrize("case", corpus_cases("log"))
def test_corpus_needles_survive_the_excerpt_of_a_padded_log(case, layout, cl100k):
    """The log inside filler records, over 4 MB (middle: all of it between the fillers;
    split: its halves at the ends), planned on head, picks and tail: every needle kept by
    planning it whole (split: by planning the original case) is kept."""
    meta = json.loads((CORPUS / case / "meta.json").read_text())
    raw = (CORPUS / case / "output.txt").read_bytes().decode("utf-8", "surrogateescape")
    original = clean(raw).splitlines()
    half = len(original) // 2
    if layout == "middle":
        lines = filler(2_200_000, 1) + original + filler(2_200_000, 2)
    else:
        lines = original[:half] + filler(4_300_000, 1) + original[half:]
    text = "\n".join(lines) + "\n"
    assert len(text) > 4 << 20
    scanner = scan(text, in_parts(text), limit=16_000_000, tool=meta["tool"])
    picks = scanner.picks()
    check_whole_lines(picks, text)
    excerpt = excerpt_of(text, picks)
    assert len(excerpt) < len(text) // 2
    if layout == "split":  # the log's own ends are the ends: as good as the original case
        _, reference = clip(clean(raw), log.plan, 4000, cl100k, meta["tool"])
    else:  # no end is the log's own: as good as planning the padded text whole
        _, reference = clip(text, log.plan, 4000, cl100k, meta["tool"])
    _, out = clip(excerpt, scanner.planner(), 4000, cl100k, meta["tool"])
    assert cl100k.count(out) <= 4000
    expected = [n["text"] for n in meta["needles"] if n["text"] in reference]
    assert expected  # the comparison means something
    assert [n for n in expected if n not in out] == []


# ------------------------------------------------------------------------------ bounds

def test_a_flood_of_warnings_stays_bounded_and_says_what_it_counted(cl100k):
    words = [f"{a}{b}{c}" for a in "bcdfgklmnprstvz" for b in "aeiou" for c in "lmnprst"]
    lines = []
    for i in range(60_000):
        lines.append(f"2024-03-05 12:00:{i % 60:02d},{i % 1000:03d} WARN  [pool-{i % 9}] "
                     f"app.{words[i % 97]} - deprecated option `{words[i % len(words)]}` "
                     f"used by tenant {i}")
        if i % 3 == 0:
            lines.append(f"2024-03-05 12:00:{i % 60:02d},{i % 1000:03d} INFO  [main] app - ok")
    lines.append("ValueError: the one that matters")
    lines += ["2024-03-05 12:01:00,000 INFO  [main] app - ok"] * 5
    text = "\n".join(lines) + "\n"
    assert len(text) > 5_000_000
    limit = 100_000
    scanner = scan(text, in_parts(text, 300_000), limit=limit)
    picks = scanner.picks()
    check_whole_lines(picks, text)
    picked = sum(len(piece) for _, _, piece in picks)
    assert picked <= limit * (1 + log_scanner._NEW_SHAPE_SHARE + log_scanner._NEW_ERROR_SHARE) + 1_000
    assert scanner.folded > 1_000 and scanner.folded + scanner.skipped > 40_000
    assert any("ValueError: the one that matters" in piece for _, _, piece in picks)
    wording = (r"\[past the first 100,000 characters of error and warning lines, "
               r"[\d,]+ repeats of lines shown( \(([\d,]+ of them )?in the \(×N\) of the line "
               r"they repeat\))?( and [\d,]+ other such lines)? were counted but not examined\]")
    assert re.fullmatch(wording, scanner.note())
    excerpt = excerpt_of(text, picks)
    plan, out = clip(excerpt, scanner.planner(), 2000, cl100k, "Bash")
    notes = [item.text for item in plan.items if isinstance(item, Note) and "past the" in item.text]
    assert len(notes) == 1 and re.fullmatch(wording, notes[0])
    assert notes[0] in out
    assert cl100k.count(out) <= 2000


def test_no_note_when_nothing_was_folded():
    scanner = scan("error: one\nplain\n" * 10)
    assert scanner.picks() and scanner.note() == ""
    assert scanner.planner() is log.plan


def test_a_block_too_big_to_carry_is_settled_where_it_stands():
    trace = ["Traceback (most recent call last):"] + [
        f'  File "mod{i}.py", line {i}, in step{i}' for i in range(500)] + ["KeyboardInterrupt"]
    text = "\n".join(["plain"] * 20 + trace + ["plain"] * 20) + "\n"
    with mock.patch.object(log_scanner, "_MAX_CARRY", 2_000):
        picks = scan(text, in_parts(text, 1_000)).picks()
    check_whole_lines(picks, text)
    kept = "".join(piece for _, _, piece in picks)
    assert "\n".join(trace) + "\n" in kept  # in pieces, but all of it


def test_a_streamed_floods_count_is_the_inputs_total(cl100k):
    """Past the limit a flood's copies are counted, never examined, and the shown line's
    `(×N)` is still the input's total: the copies in the excerpt's tail, which the scanner
    folded too, are counted once. The line is a real gcc warning (tests/real/)."""
    real = Path(__file__).parent / "real" / "gcc-wconversion-psutil-6.1.0-proc-c-repeated-build.txt"
    warning = next(row for row in real.read_text().split("\n") if ": warning: " in row)
    copies = 60_000
    text = (warning + "\n") * copies
    # (The limit is past the head, as intake.pick_limit_for is past keep_for: the head's lines
    # are picked, never folded.)
    scanner = scan(text, in_parts(text, 300_000), limit=KEEP + 100_000)
    excerpt = excerpt_of(text, scanner.picks())
    tail_start = text.rfind("\n", 0, len(text) - KEEP) + 1
    plan, out = clip(excerpt, scanner.planner(tail_start), 600, cl100k, "Bash")
    assert re.findall(r"\(×([\d,]+)\)", out) == [f"{copies:,}"]
    assert out.count(warning) == 1  # its copies are never printed again
    assert scanner.folded > 0 and scanner.folded + excerpt.count("\n") == copies
    # Every repeat counted is in the (×N): no note says they went unexamined (issue #22).
    assert "not examined" not in out and len(out.rstrip("\n").split("\n")) == 2


def test_the_folds_a_tail_repeats_are_remembered_and_the_head_never_folds():
    """What test_a_streamed_floods_count_is_the_inputs_total relies on in a real run."""
    from headroom_cli import intake
    assert log_scanner._RECENT >= intake.MAX_KEEP
    for budget in (1, 500, 4000, 8192, 20_000, 65_536, 10**6):
        assert intake.pick_limit_for(budget) > intake.keep_for(budget)


# ------------------------------------------------------------------------------ floods

_FLOOD_ROWS = ["src/mod.c:12:5: warning: unused variable x [-Wunused-variable]",
               "a.py:3:1: F401 'os' imported but unused", "a.py:3:1: F4011", "ok", "",
               "  src/mod.c:1:2: x", "lib/x.go:9:12: not enough return values", "a:1:1:"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(st.sampled_from(_FLOOD_ROWS), min_size=1, max_size=40),
       newline=st.booleans(), data=st.data())
def test_a_flood_asks_each_distinct_line_what_the_whole_text_search_finds(rows, newline, data):
    """log/planning._signal_lines (each distinct line matched once) finds the lines that
    finditer over the range finds, wherever the range starts and ends."""
    text = "\n".join(rows) + ("\n" if newline else "")
    lines = Lines(text)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    for signal in (log_signals.LINT_SIGNAL, log_signals.LOCATED_SIGNAL):
        expected = [bisect_left(lines.starts, m.start() + 1) + 1
                    for m in signal.finditer(text, start, end)]
        assert log_planning._signal_lines(signal, text, lines, start, end) == expected
