"""bench/figures.py: the regression guard's comparison, on figures made up here (no timing)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import figures  # noqa: E402
from figures import Figure, compare, needs_another_run  # noqa: E402

STORED = {"start-up": Figure(8.0, higher_is_better=False),
          "MB/s": Figure(60.0, higher_is_better=True)}


def run(startup: float, rate: float) -> dict[str, Figure]:
    return {"start-up": Figure(startup, False), "MB/s": Figure(rate, True)}


def by_key(rows):
    return {row.key: row for row in rows}


def test_a_quarter_worse_is_still_within_the_margin():
    rows = by_key(compare(STORED, [run(8.0 * 1.25, 60.0 * 0.75)]))
    assert rows["start-up"].worse_in == (False,) and rows["MB/s"].worse_in == (False,)
    assert not needs_another_run(list(rows.values()))


def test_more_than_a_quarter_worse_asks_for_another_run_but_does_not_fail_alone():
    rows = compare(STORED, [run(10.1, 60.0)])
    assert needs_another_run(rows)
    assert by_key(rows)["start-up"].worse_in == (True,)
    assert not any(row.regressed for row in rows)


def test_worse_in_two_runs_in_a_row_regresses():
    rows = by_key(compare(STORED, [run(8.0, 44.0), run(8.0, 40.0)]))
    assert rows["MB/s"].regressed and not rows["start-up"].regressed


def test_worse_once_then_within_the_margin_passes():
    rows = by_key(compare(STORED, [run(12.0, 60.0), run(9.0, 60.0)]))
    assert rows["start-up"].worse_in == (True, False) and not rows["start-up"].regressed


def test_better_is_never_worse_whichever_way_is_better():
    rows = by_key(compare(STORED, [run(2.0, 500.0), run(2.0, 500.0)]))
    assert not any(row.regressed or any(row.worse_in) for row in rows.values())


def test_a_figure_not_stored_yet_is_new_not_worse():
    rows = by_key(compare(STORED, [{"flood MB/s": Figure(1.0, True)}]))
    assert rows["flood MB/s"].stored is None and rows["flood MB/s"].worse_in == (False,)
    assert "(new)" in figures.table(list(rows.values()))[0]


def test_update_keeps_the_figures_it_did_not_measure(tmp_path):
    path = tmp_path / "figures.json"
    figures.save(STORED, "first", path)
    figures.save(figures.merged(figures.load(path), {"MB/s": Figure(70.0, True)}), "then", path)
    assert figures.load(path) == {"start-up": Figure(8.0, False), "MB/s": Figure(70.0, True)}


def test_a_stored_figure_a_run_of_its_section_lacks_is_missing_and_worse():
    # A case whose output was wrong (or that was killed) gives no figure: it must not pass.
    stored = {"start-up: clip": Figure(10.0, False), "start-up: hook": Figure(3.0, False),
              "quick: flood": Figure(60.0, True)}
    rows = by_key(compare(stored, [{"start-up: clip": Figure(9.0, False)},
                                   {"start-up: clip": Figure(9.0, False)}]))
    assert rows["start-up: hook"].worse_in == (True, True) and rows["start-up: hook"].regressed
    assert not rows["start-up: clip"].regressed
    assert "quick: flood" not in rows  # a section the runs did not measure (--only) is left out
    assert "missing" in figures.table([rows["start-up: hook"]])[0]


def test_missing_once_asks_for_another_run():
    rows = compare(STORED | {"start-up: hook": Figure(3.0, False)},
                   [{"start-up: clip": Figure(9.0, False)}])
    assert needs_another_run(rows) and not any(row.regressed for row in rows)
