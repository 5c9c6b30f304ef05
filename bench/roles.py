#!/usr/bin/env python3
"""Needles by the role of their line among the lines of its form: what a rule of shape can reach.

    PYTHONPATH=. .venv/bin/python bench/roles.py                         # tuning, sealed, shared
    PYTHONPATH=. .venv/bin/python bench/roles.py tests/corpus --misses   # which needles (not sealed)

Each case's output is clipped in-process (api.compress, the same pipeline as the CLI) at each
budget, and each needle is given the role of the line its first occurrence is on. A line's form
is the line with what varies between lines of one kind masked (numbers, hex ids, quoted strings,
paths: a masker of this script's own, so the figures do not follow the rung's keying):

  prose     a line of an output most of whose lines are each of a form of their own (a
            document, source code, a search's matches): what sets it apart is its words
  alone     the only line of its form in an output of repeated forms (a heading, a summary, an
            error of its own kind)
  first     the first line of a form several lines share (the exemplar a template rung shows)
  small     a later line of a form of 2-9 lines
  extreme   a later line of a form of 10+ lines that holds that form's largest or smallest value
            at some place (the heaviest row, the least covered module)
  lookup    any other later line of a form of 10+ lines: one row among many like it, which only
            the reader's question singles out (the certificate, library or setting looked for)

Counts only, per corpus, role and budget: kept / needles, and the share of the needles lost
that are lookups. Pointed at a sealed folder it prints the same aggregates and never a case's
name or text (--misses is refused there).
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from edges import cases, corpus_parser, is_sealed  # noqa: E402

REPO = HERE.parent
FOLDERS = (REPO / "tests" / "corpus", REPO / "tests" / "sealed", REPO.parent / "shared" / "corpus")
BUDGETS = (1000, 4000)
ROLES = ("prose", "alone", "first", "small", "extreme", "lookup")
LARGE = 10  # lines of a form whose later lines are extremes or lookups
PROSE = 0.5  # of an output's lines (not blank), those alone of their form in prose
_KEY_CHARS = 200
_MASK = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'|[\w.-]*/[\w./-]*|\b[0-9a-fA-F]*\d[0-9a-fA-F]*\b"
                   r"|\d+")
_NUMBER = re.compile(r"(?<![\w.:/-])\d+(?:\.\d+)?(?![\w:/-])")


_SPACES = re.compile(r"[ \t]+")
_NUMBERED = re.compile(r"[ \t]*\d+(?:\t|→)")  # `cat -n`'s and a Read's line numbers


def form(row: str) -> str:
    """The row with what varies masked and its alignment spaces read as one."""
    return _SPACES.sub(" ", _MASK.sub("#", row[:_KEY_CHARS])).rstrip()


def roles(rows: list[str]) -> list[str | None]:
    """The role of every row (None for a blank one; a row's line number, as `cat -n` and a
    Read print it, is no part of it)."""
    bodies = [row[m.end():] if (m := _NUMBERED.match(row)) else row for row in rows]
    forms = [form(row) if row.strip() else None for row in bodies]
    members: dict[str, list[int]] = defaultdict(list)
    for index, key in enumerate(forms):
        if key is not None:
            members[key].append(index)
    found: list[str | None] = [None] * len(rows)
    for at in members.values():
        found[at[0]] = "alone" if len(at) == 1 else "first"
        if len(at) < LARGE:
            for index in at[1:]:
                found[index] = "small"
            continue
        for index in at[1:]:
            found[index] = "lookup"
        for index in _extremes(rows, at):
            if index != at[0]:
                found[index] = "extreme"
    filled = sum(map(len, members.values()))
    if sum(1 for at in members.values() if len(at) == 1) > PROSE * filled:
        found = ["prose" if role == "alone" else role for role in found]
    return found


def _extremes(rows: list[str], at: list[int]) -> set[int]:
    """The rows of one form holding its largest or smallest value at some place (the n-th
    number of the row, among rows with as many numbers), where the values differ."""
    values = [list(map(float, _NUMBER.findall(rows[i][:_KEY_CHARS]))) for i in at]
    found = set()
    width = max(map(len, values), default=0)
    for place in range(width):
        column = [(v[place], i) for v, i in zip(values, at) if len(v) > place]
        if len(column) >= LARGE and len({v for v, _ in column}) > 2:
            found.add(max(column, key=lambda item: (item[0], -item[1]))[1])  # the first of
            found.add(min(column)[1])  # the largest, and of the smallest
    return found


def measure(folder: Path, budgets, show_misses: bool):
    from headroom_cli.api import compress
    from headroom_cli.clean import clean

    counts = defaultdict(lambda: [0, 0])  # (role, budget) -> [kept, needles]
    misses = []
    for name, tool, needles, raw in cases(folder):
        text = clean(raw) if "\x00" not in raw else raw
        rows = text.split("\n")
        role_of = roles(rows)
        outs = {budget: compress(raw, tool=tool, budget=budget, store_id="0123456789ab").text
                for budget in budgets}
        for needle in needles:
            at = text.find(needle)
            if at < 0:
                continue  # not in the input as cleaned: not counted
            role = role_of[text.count("\n", 0, at)] or "prose"
            for budget in budgets:
                kept = needle in outs[budget]
                counts[(role, budget)][0] += kept
                counts[(role, budget)][1] += 1
                if not kept and show_misses:
                    misses.append((budget, role, name, needle))
    return counts, misses


def report(title: str, counts, budgets) -> list[str]:
    out = [f"\n{title}: needles kept / needles, by the role of their line"]
    out.append(f"{'role':8s} " + " ".join(f"{b:>11d}" for b in budgets))
    for role in ROLES:
        cells = [counts.get((role, b)) for b in budgets]
        if any(cells):
            out.append(f"{role:8s} " + " ".join(
                f"{c[0]:>5d}/{c[1]:<5d}" if c else f"{'-':>11s}" for c in cells))
    lost = {b: sum(n - k for (r, bb), (k, n) in counts.items() if bb == b) for b in budgets}
    looked = {b: counts[("lookup", b)][1] - counts[("lookup", b)][0]
              if ("lookup", b) in counts else 0 for b in budgets}
    out.append("lookups among the needles lost: " + ", ".join(
        f"{looked[b]} of {lost[b]} at {b}" for b in budgets))
    return out


def main(argv=None) -> int:
    args = corpus_parser(__doc__, "tests/corpus, tests/sealed and ../shared/corpus",
                         BUDGETS).parse_args(argv)
    budgets = tuple(sorted(set(args.budget or BUDGETS)))
    folders = args.folders or [f for f in FOLDERS if f.is_dir()]
    if args.misses and any(is_sealed(f) for f in folders):
        print("roles.py: --misses is refused for a sealed folder", file=sys.stderr)
        return 2
    for folder in folders:
        counts, misses = measure(folder, budgets, args.misses)
        print("\n".join(report(str(folder), counts, budgets)))
        for budget, role, name, needle in sorted(misses):
            print(f"  lost @{budget} {role:7s} {name}: {needle[:80]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
