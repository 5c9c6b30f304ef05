"""Floods: a shown line's `(×N)` count stands for its repeats, so spending never prints them
again. Real output: tests/real/ (see its README)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from headroom_cli.api import compress

FLOOD = Path(__file__).parent / "real" / "gcc-wconversion-psutil-6.1.0-proc-c-repeated-build.txt"
COUNT = re.compile(r"^(?P<line>.*)  \(×(?P<count>[\d,]+)\)$")


def masked(line: str) -> str:
    return re.sub(r"\d+", "N", line)


@pytest.mark.parametrize("budget", [600, 1000, 2000])
def test_every_warning_is_shown_once_with_its_count(budget, counter):
    text = FLOOD.read_text()
    out = compress(text, tool="Bash", kind="log", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    counted = [m for line in out.split("\n") if (m := COUNT.match(line))]
    assert counted
    for m in counted:  # a count is of the warning, its numbers aside (a line:col differs)
        same = sum(1 for row in text.split("\n") if masked(row) == masked(m["line"]))
        assert int(m["count"].replace(",", "")) == same, m["line"]


def test_budget_left_over_is_not_spent_on_repeats_a_count_stands_for(counter):
    """With room for far more, the plan shows every distinct line of the flood and stops:
    what it leaves out is repeats of lines shown (each warning's `(×N)` counts them)."""
    text = FLOOD.read_text()
    out = compress(text, tool="Bash", kind="log", budget=4000, counter=counter).text
    shown = {masked(COUNT.sub(r"\g<line>", line)) for line in out.split("\n")}
    assert {masked(row) for row in text.split("\n") if row} <= shown
    assert counter.count(out) <= 0.5 * 4000


@pytest.mark.parametrize("budget", [600, 1000, 2000, 4000])
def test_no_line_a_count_stands_for_is_printed_beside_it(budget, counter):
    """Not even in the tail or the head, which are kept before any count is known."""
    text = FLOOD.read_text()
    out = compress(text, tool="Bash", kind="log", budget=budget, counter=counter).text
    counted = {masked(m["line"]) for line in out.split("\n") if (m := COUNT.match(line))}
    plain = [masked(line) for line in out.split("\n") if not COUNT.match(line)]
    assert counted and not counted & set(plain)


@pytest.mark.parametrize("budget", [600, 2000])
def test_a_streamed_flood_is_its_line_and_the_inputs_total(budget, run_cli, monkeypatch):
    """Through the CLI, an output too large to hold (it streams: the scanner counts the copies
    past its limit without examining them): the warning once, its count the input's total, and
    the closing marker; no note that repeats went unexamined, no line cut (issue #22, item 6)."""
    from headroom_cli import intake

    monkeypatch.setattr(intake, "HOLD", 4096)
    warning = next(row for row in FLOOD.read_text().split("\n") if ": warning: " in row)
    copies = 80_000
    data = ((warning + "\n") * copies).encode()
    assert len(data) > 4_000_000 + 2 * intake.MAX_KEEP  # past the scanner's limit
    out = run_cli(["--budget", str(budget), "--tool", "Bash"], data).stdout.decode()
    shown, marker = out.rstrip("\n").split("\n")
    assert shown == f"{warning}  (×{copies:,})"
    assert marker.startswith("[…headroom: lines 2–") and "not examined" not in out


CLIPPY = "cargo-clippy-pedantic-nursery-itoa-offline"


def test_growth_passes_a_counted_heading_to_the_new_place_below_it(counter):
    """A warning repeated 25 times is one `(×25)` heading, but each repeat's body names its own
    place (`--> src/lib.rs:105:16`): with room left, growth passes the counted heading (a gap of
    one line) to show the places, and still never prints the heading again."""
    from conftest import corpus_case

    meta, raw = corpus_case(Path(__file__).parent / "corpus", CLIPPY)
    out = compress(raw, tool=meta["tool"], budget=4000, counter=counter).text
    heading = "warning: unexpected `cfg` condition value: `no-panic`"
    assert out.count(heading) == 1 and f"{heading}  (×25)" in out
    places = {line for line in raw.split("\n") if line.lstrip().startswith("--> src/")}
    shown = {line for line in out.split("\n") if line in places}
    assert len(shown) >= 0.8 * len(places)
