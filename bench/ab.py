#!/usr/bin/env python3
"""Before and after a rule change, in about a minute a corpus: what quality.py judges, run
in-process on this tree, case by case, so two trees can be compared.

    .venv/bin/python bench/ab.py save before.json            # tuning and sealed, this tree
    (change a rule)
    .venv/bin/python bench/ab.py save after.json
    .venv/bin/python bench/ab.py compare before.json after.json [--names]

`save` runs headroom's api.compress on every case of the tuning and sealed corpora (the
`--tool` of its meta.json, budgets 500, 1000, 2000 and 4000, two processes) and writes each
run's needle recall and a digest of its output. `compare` prints, per corpus and budget, the
mean recall of each file, how many outputs changed, and how many cases' recall went up or down;
`--names` names the tuning cases that moved, never a sealed one (tests/sealed/README.md: sealed
cases are scored, never opened while rules are written). quality.py, which runs the installed
command on every corpus, stays the judge before landing; this is the loop while writing rules.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from multiprocessing import Pool
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))  # this tree's headroom_cli, not an installed one

from quality import BUDGETS, SEALED, SEALED_NAME, TUNING, TUNING_NAME, Case, load  # noqa: E402

_counter = None


def _run(case: Case) -> tuple[str, dict[str, list]]:
    """One case at every budget: {budget: [recall or None, digest of the output]}."""
    global _counter
    from headroom_cli.api import compress
    from headroom_cli.tokens import load_counter

    if _counter is None:  # once per worker process
        _counter = load_counter("cl100k_base")
    text = case.raw.decode("utf-8", "surrogateescape")
    runs = {}
    for budget in BUDGETS:
        out = compress(text, tool=case.tool, budget=budget, counter=_counter).text
        data = out.encode("utf-8", "surrogateescape")
        shown = data.decode("utf-8", "replace")
        recall = (sum(n in shown for n in case.needles) / len(case.needles)
                  if case.needles else None)
        runs[str(budget)] = [recall, hashlib.sha256(data).hexdigest()[:16]]
    return case.id, runs


def save(path: Path, corpora: list[tuple[Path, str]], jobs: int) -> None:
    result = {}
    with Pool(jobs) as pool:
        for folder, name in corpora:
            cases = load(folder, name)
            result[name] = dict(pool.map(_run, cases, chunksize=4))
    path.write_text(json.dumps(result, sort_keys=True))
    for name, runs in result.items():
        print(f"{name:7} {len(runs)} cases  " + "  ".join(
            f"{b}: {_mean(runs, b):.4f}" for b in map(str, BUDGETS)))


def _mean(runs: dict, budget: str) -> float:
    scored = [r[budget][0] for r in runs.values() if r[budget][0] is not None]
    return sum(scored) / len(scored) if scored else 0.0


def compare(before: dict, after: dict, names: bool) -> list[str]:
    """The comparison's lines (pure, for the tests)."""
    out = []
    for corpus in (c for c in (TUNING_NAME, SEALED_NAME) if c in before and c in after):
        old, new = before[corpus], after[corpus]
        shared = sorted(set(old) & set(new))
        if not shared:
            continue
        out.append(f"{corpus} ({len(shared)} cases in both)")
        for budget in map(str, BUDGETS):
            changed = [c for c in shared if old[c][budget][1] != new[c][budget][1]]
            up = [c for c in changed if (new[c][budget][0] or 0) > (old[c][budget][0] or 0)]
            down = [c for c in changed if (new[c][budget][0] or 0) < (old[c][budget][0] or 0)]
            out.append(f"  {budget:>5}  {_mean({c: old[c] for c in shared}, budget):.4f} -> "
                       f"{_mean({c: new[c] for c in shared}, budget):.4f}  changed "
                       f"{len(changed)}  up {len(up)}  down {len(down)}")
            if names and corpus != SEALED_NAME:
                out += [f"         {sign} {c}  {old[c][budget][0]:.2f} -> {new[c][budget][0]:.2f}"
                        for sign, cases in (("+", up), ("-", down)) for c in cases]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    saving = commands.add_parser("save", help="run this tree on the corpora, write OUT")
    saving.add_argument("out", type=Path)
    saving.add_argument("--tuning", type=Path, default=TUNING)
    saving.add_argument("--sealed", type=Path, default=SEALED)
    saving.add_argument("--jobs", type=int, default=2)
    comparing = commands.add_parser("compare", help="compare two saved runs")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    comparing.add_argument("--names", action="store_true",
                           help="name the tuning cases that moved (never a sealed one)")
    args = parser.parse_args(argv)
    if args.command == "save":
        save(args.out, [(args.tuning, TUNING_NAME), (args.sealed, SEALED_NAME)], args.jobs)
        return 0
    try:
        before, after = (json.loads(p.read_text()) for p in (args.before, args.after))
    except (OSError, ValueError) as e:
        print(f"ab.py: {e}", file=sys.stderr)
        return 2
    print("\n".join(compare(before, after, args.names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
