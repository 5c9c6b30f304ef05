"""The regression guard: the figures of the last landed run, and how a new run compares.

bench/figures.json keeps, per figure, its value and which way is better: start-up as CPU time
over a bare `python3 -c pass` (lower is better), throughput as input MB per CPU second (higher
is better). `bench.py --compare` measures, prints each figure beside the stored one, and runs
once more when one is more than WORSE_BY worse: it fails only on a figure worse in both runs
(one slow run on a shared machine is noise; two in a row is a regression). `--update` writes
the figures of the run into the file, for a change that is meant. Pure but for load and save:
the unit suite tests the comparison without timing anything (tests/test_bench_figures.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

FIGURES_FILE = Path(__file__).resolve().parent / "figures.json"
WORSE_BY = 0.25  # a figure this much worse than the stored one (a quarter) is worse


@dataclass(frozen=True)
class Figure:
    value: float
    higher_is_better: bool


@dataclass(frozen=True)
class Compared:
    key: str
    stored: Figure | None  # None: a figure the file does not have yet
    runs: tuple[float, ...]  # this figure in each run made, in order

    @property
    def worse_in(self) -> tuple[bool, ...]:
        return tuple(is_worse(self.stored, value) for value in self.runs)

    @property
    def regressed(self) -> bool:
        """Worse in two runs in a row."""
        return any(a and b for a, b in zip(self.worse_in, self.worse_in[1:]))


MISSING = float("nan")  # a stored figure a run could not measure (its case failed or was killed)


def is_worse(stored: Figure | None, value: float) -> bool:
    if stored is None:
        return False
    if value != value:  # MISSING: no figure is worse than any figure
        return True
    if stored.higher_is_better:
        return value < stored.value * (1 - WORSE_BY)
    return value > stored.value * (1 + WORSE_BY)


def section(key: str) -> str:
    """What a figure belongs to: "start-up", or the mode its throughput was measured in."""
    return key.split(":", 1)[0]


def compare(stored: dict[str, Figure], runs: list[dict[str, Figure]]) -> list[Compared]:
    """Each figure measured in any run, beside its stored value; and each stored figure of a
    section the runs measured but that a run lacks, as MISSING there: a case whose output was
    wrong, or that was killed, gives no figure, and must not pass for one that kept its pace.
    Sorted by key."""
    measured = {section(key) for run in runs for key in run}
    keys = sorted({key for run in runs for key in run}
                  | {key for key in stored if section(key) in measured})
    return [Compared(key, stored.get(key), tuple(run[key].value if key in run else MISSING
                                                 for run in runs)) for key in keys]


def needs_another_run(compared: list[Compared]) -> bool:
    """Is a figure worse in the last run made (then one more run says whether it stays so)?"""
    return any(row.worse_in and row.worse_in[-1] for row in compared)


def table(compared: list[Compared]) -> list[str]:
    lines = []
    for row in compared:
        stored = f"{row.stored.value:.2f}" if row.stored else "(new)"
        runs = "  ".join(("missing" if value != value else f"{value:.2f}")
                         + (" worse" if worse and value == value else "")
                         for value, worse in zip(row.runs, row.worse_in))
        verdict = "REGRESSED" if row.regressed else "ok"
        lines.append(f"  {row.key:<66} {stored:>9}  {runs:<28} {verdict}")
    return lines


def merged(stored: dict[str, Figure], measured: dict[str, Figure]) -> dict[str, Figure]:
    """The file's figures with this run's in place of theirs (the others kept)."""
    return {**stored, **measured}


def measured_at(path: Path = FIGURES_FILE) -> str:
    """What the file says about the run its figures come from (commit, mode, machine, load)."""
    return json.loads(path.read_text()).get("measured", "") if path.exists() else ""


def load(path: Path = FIGURES_FILE) -> dict[str, Figure]:
    if not path.exists():
        return {}
    raw = json.loads(path.read_text())["figures"]
    return {key: Figure(entry["value"], entry["better"] == "higher") for key, entry in raw.items()}


def save(figures: dict[str, Figure], about: str, path: Path = FIGURES_FILE) -> None:
    raw = {key: {"value": round(figure.value, 3),
                 "better": "higher" if figure.higher_is_better else "lower"}
           for key, figure in sorted(figures.items())}
    path.write_text(json.dumps({"measured": about, "figures": raw}, indent=1,
                               ensure_ascii=False) + "\n")
