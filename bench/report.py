"""Printing tables as rows are measured, and keeping the score of every judged figure.

Rows print as soon as they are measured (a full run takes a while; progress matters). A judged
row ends with its target and PASS or FAIL; the summary repeats every FAIL and gives the exit
status: 1 when any target fails, so the benchmark can serve as a check.
"""

from __future__ import annotations

from dataclasses import dataclass

from figures import Figure

LABEL_WIDTH = 46
CELL_WIDTH = 11
LIMIT_WIDTH = 22


@dataclass(frozen=True)
class Verdict:
    target: int
    case: str
    figure: str
    limit: str
    passed: bool
    note: str = ""  # why it failed beyond the figure (killed, crashed), or that it was reduced


class Report:
    def __init__(self) -> None:
        self.verdicts: list[Verdict] = []
        self.columns = 0
        self.figures: dict[str, Figure] = {}  # what the regression guard compares (figures.py)

    def figure(self, key: str, value: float, higher_is_better: bool) -> None:
        self.figures[key] = Figure(value, higher_is_better)

    def section(self, title: str, *columns: str, note: str = "", judged: bool = True) -> None:
        print(f"\n{title}", flush=True)
        if note:
            print(f"  {note}")
        self.columns = len(columns)
        if columns:
            self._line("", list(columns), f"{'target':>{LIMIT_WIDTH}}  verdict" if judged else "")

    def row(self, label: str, *cells: str) -> None:
        """An informative row: no target."""
        self._line(label, list(cells))

    def judged(self, target: int, label: str, cells: list[str], *, figure: str, limit: str,
               passed: bool, note: str = "") -> Verdict:
        verdict = Verdict(target, label, figure, limit, passed, note)
        self.verdicts.append(verdict)
        outcome = ("PASS" if passed else "FAIL") + (f"  ({note})" if note else "")
        padded = cells + [""] * (self.columns - len(cells))  # line the targets up
        self._line(label, padded, f"{limit:>{LIMIT_WIDTH}}  {outcome}")
        return verdict

    def summary(self, mode_note: str, elapsed: float) -> int:
        failed = [v for v in self.verdicts if not v.passed]
        print("\nSummary")
        for verdict in failed:
            note = f" ({verdict.note})" if verdict.note else ""
            print(f"  FAIL  target {verdict.target}: {verdict.case}: {verdict.figure}, "
                  f"target {verdict.limit}{note}")
        passed = len(self.verdicts) - len(failed)
        print(f"SUMMARY: {passed} of {len(self.verdicts)} checks pass, {len(failed)} fail "
              f"({mode_note}; {elapsed / 60:.1f} min)")
        return 1 if failed else 0

    def _line(self, label: str, cells: list[str], tail: str = "") -> None:
        text = f"  {label:<{LABEL_WIDTH}}" + "".join(f"{cell:>{CELL_WIDTH}}" for cell in cells)
        print((text + tail).rstrip(), flush=True)
