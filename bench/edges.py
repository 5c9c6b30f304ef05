#!/usr/bin/env python3
"""Needles at the edges of an output: kept or lost at small budgets, by where their line sits.

    PYTHONPATH=. .venv/bin/python bench/edges.py                      # tests/corpus, ../shared/corpus
    PYTHONPATH=. .venv/bin/python bench/edges.py --budget 500 --misses  # which needles (not sealed)

For every case and budget, the case's output is clipped in-process (api.compress, the same
pipeline as the CLI) and each needle is placed by the line its first occurrence starts on:

  first20   in the first 20 lines of an output of 200+ lines
  last20    in the last 20 lines of an output of 200+ lines
  middle    elsewhere in an output of 200+ lines
  mid-size  an output of 100-199 lines
  short     an output under 100 lines that is still over the budget (long lines)

Counts only, per corpus, place, budget and the shape headroom sniffs: kept / needles. Pointed
at tests/sealed it prints the same aggregates and never a case name or text (--misses is refused
there).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
FOLDERS = (REPO / "tests" / "corpus", REPO.parent / "shared" / "corpus")
BUDGETS = (500, 1000)
EDGE = 20
LONG, SHORT = 200, 100
PLACES = ("first20", "last20", "middle", "mid-size", "short")


def is_sealed(folder: Path) -> bool:
    return "sealed" in folder.resolve().parts


def cases(folder: Path):
    for meta_path in sorted(folder.glob("*/meta.json")):
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        needles = [n["text"] if isinstance(n, dict) else str(n) for n in meta.get("needles", [])]
        raw = (meta_path.parent / "output.txt").read_bytes().decode("utf-8", "surrogateescape")
        yield meta.get("id", meta_path.parent.name), meta.get("tool", "Bash"), needles, raw


def place(text: str, needle: str, total: int) -> str | None:
    at = text.find(needle)
    if at < 0:
        return None  # not in the input as given (cleaning may change it): not counted
    line = text.count("\n", 0, at)
    if total >= LONG:
        return "first20" if line < EDGE else "last20" if line >= total - EDGE else "middle"
    return "mid-size" if total >= SHORT else "short"


def measure(folder: Path, budgets, show_misses: bool):
    from headroom_cli import tools
    from headroom_cli.api import compress
    from headroom_cli.clean import clean
    from headroom_cli.plan import Lines
    from headroom_cli.sniff import sniff

    counts = defaultdict(lambda: [0, 0])  # (place, shape, budget) -> [kept, needles]
    ends = defaultdict(lambda: [0, 0, 0])  # (shape, budget) -> [clips, last lines, first lines]
    misses = []
    for name, tool, needles, raw in cases(folder):
        text = clean(raw) if "\x00" not in raw else raw
        total = len(Lines(text))
        shape = "other" if "\x00" in raw else sniff(Lines(text), tools.lookup(tool))
        for budget in budgets:
            # a store id as the CLI gives one: its marker costs what the CLI's does
            out = compress(raw, tool=tool, budget=budget, store_id="0123456789ab")
            if out.clipped and total >= LONG:
                rows = text.split("\n")[:total]
                for key in ((shape, budget), ("all", budget)):
                    ends[key][0] += 1
                    ends[key][1] += _run_in(reversed(rows[-EDGE:]), out.text)
                    ends[key][2] += _run_in(rows[:EDGE], out.text)
            for needle in needles:
                where = place(text, needle, total)
                if where is None or (where == "short" and not out.clipped):
                    continue
                kept = needle in out.text
                for key in ((where, shape, budget), (where, "all", budget)):
                    counts[key][0] += kept
                    counts[key][1] += 1
                if not kept and show_misses:
                    misses.append((budget, where, shape, name, needle))
    return counts, ends, misses


def _run_in(rows, out: str) -> int:
    """How many of `rows`, in order from an end, are in `out` before the first that is not
    (a blank line counts as in)."""
    shown = 0
    for row in rows:
        if row.strip() and row not in out:
            break
        shown += 1
    return shown


def report_ends(title: str, ends, budgets) -> None:
    print(f"\n{title}: outputs of {LONG}+ lines, clipped: mean lines shown unbroken from each "
          f"end (of {EDGE})")
    shapes = sorted({s for (s, _) in ends if s != "all"}) + ["all"]
    print(f"{'shape':10s} " + " ".join(f"{f'{b} last/first':>18s}" for b in budgets))
    for shape in shapes:
        cells = [ends.get((shape, b)) for b in budgets]
        print(f"{shape:10s} " + " ".join(
            f"{c[1] / c[0]:>9.1f}/{c[2] / c[0]:<4.1f} n={c[0]:<2d}" if c else f"{'-':>18s}"
            for c in cells))


def report(title: str, counts, budgets) -> None:
    print(f"\n{title}: needles kept / needles, by where the needle's line sits")
    shapes = sorted({s for (_, s, _) in counts if s != "all"}) + ["all"]
    print(f"{'place':9s} {'shape':10s} " + " ".join(f"{b:>9d}" for b in budgets))
    for where in PLACES:
        for shape in shapes:
            cells = [counts.get((where, shape, b)) for b in budgets]
            if not any(cells):
                continue
            print(f"{where:9s} {shape:10s} " + " ".join(
                f"{c[0]:>4d}/{c[1]:<4d}" if c else f"{'-':>9s}" for c in cells))


def corpus_parser(doc: str, folders: str, budgets: tuple[int, ...]) -> argparse.ArgumentParser:
    """The arguments of a report on corpus folders: the folders (`folders` names the
    default), --budget (repeatable) and --misses."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("folders", nargs="*", type=Path, help=f"corpus folders (default: {folders})")
    p.add_argument("--budget", action="append", type=int, help="budget (repeatable; default "
                   f"{' and '.join(map(str, budgets))})")
    p.add_argument("--misses", action="store_true", help="list the needles lost (never for a "
                   "sealed folder)")
    return p


def main(argv=None) -> int:
    args = corpus_parser(__doc__, "tests/corpus and ../shared/corpus", BUDGETS).parse_args(argv)
    budgets = tuple(sorted(set(args.budget or BUDGETS)))
    total = defaultdict(lambda: [0, 0])
    for folder in args.folders or [f for f in FOLDERS if f.is_dir()]:
        sealed = is_sealed(folder)
        if sealed and args.misses:
            print("edges.py: --misses is refused for a sealed folder", file=sys.stderr)
            return 2
        counts, ends, misses = measure(folder, budgets, args.misses and not sealed)
        report(str(folder), counts, budgets)
        report_ends(str(folder), ends, budgets)
        for key, (kept, n) in counts.items():
            total[key][0] += kept
            total[key][1] += n
        for budget, where, shape, name, needle in sorted(misses):
            print(f"  lost @{budget} {where:8s} {shape:9s} {name}: {needle[:80]!r}")
    if len(args.folders or FOLDERS) > 1:
        report("all folders", total, budgets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
