"""Properties that hold for every input: the budget is a hard limit, the head/tail clip loses
nothing it does not report, output is deterministic, no input raises, and what fits passes
through byte for byte."""

from __future__ import annotations

import re

import math
import os

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import line_count
from headroom_cli import tools
from headroom_cli.api import compress
from headroom_cli.clean import binary, clean
from headroom_cli.plan import Gap, Keep, Lines
from headroom_cli.planners import other
from headroom_cli.tokens import EstimateCounter

SETTINGS = settings(deadline=None, max_examples=40,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
KINDS = ["auto", "search", "log", "other"]
TOOLS = ["Bash", "Read", "Grep", "Glob", "WebFetch", None, "some-unknown-tool"]

# --------------------------------------------------------------------------- strategies

_no_newline = st.characters(codec="utf-8", exclude_characters="\n")
# Small pieces, repeated: big inputs (up to ~100k characters) without generating each character.
arbitrary_text = st.builds(
    lambda chunks, reps: "".join(chunks) * reps,
    st.lists(st.one_of(st.text(max_size=60), st.just("\n"), st.just("\r\n"),
                       st.text(_no_newline, max_size=20).map(lambda s: s * 50)),  # long lines
             min_size=1, max_size=12),
    st.integers(1, 300),
)

_dirs = st.sampled_from(["src", "lib/core", "tests/unit", "pkg/a/b", "./docs", "examples/web",
                         "/usr/src/app", "C:\\work dir\\proj"])
_path = st.builds(lambda d, name, ext: f"{d}/{name}.{ext}", _dirs,
                  st.from_regex(r"[a-z_]{1,10}", fullmatch=True),
                  st.sampled_from(["py", "js", "go", "rs", "md"]))
_match_line = st.one_of(
    st.builds(lambda p, n, body: f"{p}:{n}:{body}", _path, st.integers(1, 9999),
              st.text(_no_newline, max_size=100)),
    st.builds(lambda p, n, c, body: f"{p}:{n}:{c}:{body}", _path, st.integers(1, 9999),
              st.integers(1, 120), st.sampled_from(["def f(x):", "  x = 1", "class A:", "call()"])),
    st.builds(lambda p, n: f"{p}-{n}-    context line", _path, st.integers(1, 9999)),
    st.just("--"),
    _path,  # a bare path: rg -l, or an rg --heading heading
    st.builds(lambda n: f"{n}:    def test_{n}(self):", st.integers(1, 9999)),
)
_grep_line = st.builds(lambda p, n, body: f"{p}:{n}:{body}", _path, st.integers(1, 9999),
                       st.sampled_from(["def parse(x):", "    return parse(y)", "x = parse(z)",
                                        "    parse(a, b, c)  # a comment that runs on", ""]))
search_like = st.builds(
    lambda lines, reps: "\n".join(lines * reps) + "\n",
    st.one_of(st.lists(_match_line, min_size=1, max_size=80),
              st.lists(_grep_line, min_size=1, max_size=200)),  # all matches: sniffed as search
    st.integers(1, 40))

_log_line = st.one_of(
    st.builds(lambda s, lvl, msg: f"2024-01-01 12:00:{s:02d} {lvl} {msg}", st.integers(0, 59),
              st.sampled_from(["INFO", "DEBUG", "WARNING", "ERROR", "CRITICAL"]),
              st.text(_no_newline, max_size=60)),
    st.sampled_from([
        "Traceback (most recent call last):",
        '  File "/app/main.py", line 12, in <module>',
        "    main()",
        "ValueError: invalid literal for int() with base 10: 'x'",
        "error: linker command failed with exit code 1",
        "warning: unused variable 'x' [-Wunused-variable]",
        "FAILED tests/test_x.py::test_y - AssertionError: assert 1 == 2",
        "===== 3 failed, 412 passed in 12.34s =====",
        "[ERROR] Failed to execute goal org.apache.maven.plugins",
        "Caused by: java.lang.NullPointerException",
        "\tat com.example.Foo.bar(Foo.java:42)",
        "make: *** [Makefile:12: all] Error 2",
        "",
    ]),
    st.text(_no_newline, max_size=80),
)
log_like = st.builds(lambda lines, reps: "\n".join(lines * reps) + "\n",
                     st.lists(_log_line, min_size=1, max_size=80), st.integers(1, 40))

# Runs that once made a regex retry at every position (issue #12: 520 KB of spaces, 200 s):
# long runs of spaces, tabs, digits, colons, backslashes, escapes, path separators, often as
# one long line, sometimes mixed with the start of a real line.
_run_unit = st.sampled_from([" ", "\t", "1", ":", "\\", "\x1b[", "\x1b", "/a", "a:1:", " \t",
                             "1\t", ")", "(", "E ", "=", "*", "-", "\r", "0x", "#", "  at ",
                             "error: ", "[", "\\n", "→"])
adversarial_text = st.builds(
    lambda prefix, unit, reps, suffix, rows: ((prefix + unit * reps + suffix + "\n") * rows),
    st.sampled_from(["", "src/a.py:12:", "  File \"x\", line 1", "diff --git a/x b/x\n",
                     "{\"a\": \"", "E   ", "12\t", "    12→"]),
    _run_unit, st.integers(1_000, 60_000), st.sampled_from(["", "x", ":", "\t1\t"]),
    st.sampled_from([1, 1, 1, 3]))

any_text = st.one_of(arbitrary_text, search_like, log_like)
budgets = st.one_of(st.integers(100, 800), st.integers(100, 20_000))
arbitrary_bytes = st.builds(lambda chunk, reps: chunk * reps, st.binary(max_size=200),
                            st.integers(1, 300))


def utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogateescape"))


# --------------------------------------------------------------------------- clip identity


@SETTINGS
@given(text=arbitrary_text, budget=budgets, tool=st.sampled_from(TOOLS), binary=st.booleans())
def test_head_and_tail_clip_tiles_the_input_exactly(counter, text, budget, tool, binary):
    lines = Lines(text)
    plan = other.plan(text, lines, budget, counter, tools.lookup(tool), binary=binary)
    spans = [item for item in plan.items if isinstance(item, (Keep, Gap))]
    assert len(spans) == len(plan.items)
    # head + dropped + tail == input, in order, with no overlap and nothing missing
    assert "".join(text[s.start:s.end] for s in spans) == text
    assert [s.start for s in spans] == [0] + [s.end for s in spans[:-1]]
    assert spans[-1].end == len(text) if spans else text == ""
    for item in spans:
        if isinstance(item, Gap):
            assert item.start < item.end
            assert 1 <= item.first_line <= item.last_line <= max(1, line_count(text))
            assert item.first_line == text.count("\n", 0, item.start) + 1
            assert item.last_line == text.count("\n", 0, item.end - 1) + 1
    omitted = sum(g.last_line - g.first_line + 1 for g in spans if isinstance(g, Gap))
    assert plan.omitted_lines == omitted


@SETTINGS
@given(text=any_text, budget=budgets, tool=st.sampled_from(TOOLS))
def test_other_clip_reports_valid_line_ranges_and_keeps_every_line_outside_them(
        counter, text, budget, tool):
    result = compress(text, tool=tool, budget=budget, kind="other", counter=counter)
    if not result.clipped:
        assert result.omitted == ()
        return
    cleaned = text if binary(text) else clean(text)
    total = line_count(cleaned)
    previous_last = 0
    for first, last in result.omitted:
        assert previous_last < first <= last <= total
        previous_last = last
    if result.omitted and result.text:
        first, last = result.omitted[0][0], result.omitted[-1][1]
        rows = cleaned.split("\n")
        head = "".join(row + "\n" for row in rows[:first - 1])
        tail = "\n".join(rows[last:])
        # Lines summarised by template carry a count (`  (×N lines of this form, a–b)`),
        # and a clip with several gaps closes with its marker after the last line.
        shown = re.sub(r"  \(×[\d,]+ lines of this form, [\d,–]+\)$", "", result.text,
                       flags=re.M)
        shown = re.sub(r"\[…headroom: [^\n]*\]\n$", "", shown) if len(result.omitted) > 1 \
            else shown
        assert shown.startswith(head)
        assert shown.endswith(tail) or shown.endswith(tail + "\n")


@SETTINGS
@given(text=any_text, budget=budgets, kind=st.sampled_from(KINDS), tool=st.sampled_from(TOOLS))
def test_omitted_ranges_are_sorted_disjoint_and_inside_the_input_for_every_kind(
        counter, text, budget, kind, tool):
    result = compress(text, tool=tool, budget=budget, kind=kind, counter=counter)
    total = line_count(text if binary(text) else clean(text))
    previous_last = 0
    for first, last in result.omitted:
        assert previous_last < first <= last <= total, (result.omitted, total)
        previous_last = last
    if not result.clipped:
        assert result.omitted == ()


# --------------------------------------------------------------------------- the budget


@SETTINGS
@given(text=any_text, budget=budgets, kind=st.sampled_from(KINDS), tool=st.sampled_from(TOOLS))
def test_output_never_exceeds_the_budget(counter, text, budget, kind, tool):
    result = compress(text, tool=tool, budget=budget, kind=kind, counter=counter)
    assert counter.count(result.text) <= budget
    assert result.output_tokens <= budget


@SETTINGS
@given(text=any_text, budget=budgets, kind=st.sampled_from(KINDS), tool=st.sampled_from(TOOLS))
def test_output_never_exceeds_the_budget_with_the_estimate_counter(text, budget, kind, tool):
    result = compress(text, tool=tool, budget=budget, kind=kind, counter=EstimateCounter())
    assert math.ceil(len(result.text) / 4) <= budget


@SETTINGS
@given(text=search_like, budget=budgets, kind=st.sampled_from(["auto", "search"]),
       tool=st.sampled_from(["Grep", "Bash", None]))
def test_search_output_never_exceeds_the_budget(counter, text, budget, kind, tool):
    result = compress(text, tool=tool, budget=budget, kind=kind, counter=counter)
    assert counter.count(result.text) <= budget


@SETTINGS
@given(data=arbitrary_bytes, budget=budgets, kind=st.sampled_from(KINDS))
def test_arbitrary_bytes_never_raise_and_stay_within_budget(counter, data, budget, kind):
    text = data.decode("utf-8", "surrogateescape")
    result = compress(text, budget=budget, kind=kind, counter=counter)
    out = result.text.encode("utf-8", "surrogateescape")  # every kept byte can be written back
    assert counter.count(result.text) <= budget
    if not result.clipped:
        assert out == data


# Modest by default; run with HEADROOM_FUZZ_EXAMPLES=10000 HEADROOM_FUZZ_DEADLINE_MS=2000 by
# hand to fuzz for time (a deadline is a clock: it stays out of the default suite).
_FUZZ = settings(
    deadline=int(os.environ["HEADROOM_FUZZ_DEADLINE_MS"]) if os.environ.get(
        "HEADROOM_FUZZ_DEADLINE_MS") else None,
    max_examples=int(os.environ.get("HEADROOM_FUZZ_EXAMPLES", "30")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_FUZZ
@given(text=adversarial_text, budget=st.integers(1, 6_000),
       kind=st.sampled_from(["auto", "search", "log", "code", "listing", "json", "diff", "other"]),
       tool=st.sampled_from(TOOLS))
# Found by CI: a run of 4,301 digits before a tab was read as a line number (int() refuses it).
@example(text="1" * 4301 + "\t1\t\n", budget=1, kind="auto", tool="Bash")
# The same class, found by reading: a hunk's line count, diff's normal `NcM` and `rg -c`'s count.
@example(text="diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1," + "9" * 5000 + " +1 @@\n+x\n",
         budget=50, kind="auto", tool="Bash")
@example(text="diff -r a/x b/x\n" + "9" * 5000 + "a1\n> x\n", budget=20, kind="auto",
         tool="Bash")
@example(text="".join(f"src/m{i}.py:" + "7" * 5000 + "\n" for i in range(3)), budget=100,
         kind="search", tool="Grep")
def test_adversarial_runs_are_clipped_within_the_budget(counter, text, budget, kind, tool):
    result = compress(text, tool=tool, budget=budget, kind=kind, counter=counter)
    assert counter.count(result.text) <= budget


# --------------------------------------------------------------------------- determinism


@SETTINGS
@given(text=any_text, budget=budgets, kind=st.sampled_from(KINDS), tool=st.sampled_from(TOOLS))
def test_same_input_and_options_give_identical_output(counter, text, budget, kind, tool):
    first = compress(text, tool=tool, budget=budget, kind=kind, counter=counter)
    second = compress(text, tool=tool, budget=budget, kind=kind, counter=counter)
    assert (first.text, first.kind, first.clipped, first.omitted) == \
        (second.text, second.kind, second.clipped, second.omitted)


# --------------------------------------------------------------------------- passthrough


@settings(deadline=None, max_examples=200)
@given(text=st.text(max_size=400), budget=st.integers(100, 20_000), kind=st.sampled_from(KINDS),
       tool=st.sampled_from(TOOLS))
def test_text_no_bigger_than_the_budget_in_bytes_passes_through(counter, text, budget, kind,
                                                                tool):
    if utf8_size(text) > budget:
        text = text.encode("utf-8")[:budget].decode("utf-8", "ignore")
    result = compress(text, tool=tool, budget=budget, kind=kind, counter=counter)
    assert result.text == text
    assert not result.clipped
    assert result.omitted == ()


@SETTINGS
@given(text=any_text, budget=budgets)
def test_text_within_the_budget_in_tokens_passes_through(counter, text, budget):
    result = compress(text, budget=budget, counter=counter)
    if counter.count(text) <= budget:
        assert result.text == text and not result.clipped


@SETTINGS
@given(text=any_text)
def test_budget_zero_means_no_clipping(counter, text):
    result = compress(text, budget=0, counter=counter)
    assert result.text == text and not result.clipped


# --------------------------------------------------------------------------- through the CLI


@settings(deadline=None, max_examples=60,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.one_of(st.binary(max_size=300), arbitrary_bytes), budget=budgets,
       via=st.sampled_from(["main", "app"]))
def test_cli_on_arbitrary_bytes_exits_zero_and_passes_what_fits_byte_for_byte(
        run_cli, counter, data, budget, via):
    run = run_cli(["--budget", str(budget)], data, via=via)
    assert run.exit_code == 0, run.stderr
    assert "Traceback" not in run.stderr
    if len(data) <= budget:
        assert run.stdout == data
    assert counter.count(run.stdout.decode("utf-8", "surrogateescape")) <= budget
