#!/usr/bin/env python3
"""Benchmark headroom against the targets of the speed issue; exit 1 if any target fails.

    .venv/bin/python bench/bench.py --quick   # ~2 min: curve to 10 MB, a 100 MB log and line
    .venv/bin/python bench/bench.py           # ~5 min: the issue's 1/10/100 MB, 2 GB, 1 GB line

Every target prints its figure, the target and PASS or FAIL; a summary line ends the run.
Wall time and peak RSS are medians over repeated runs (3; 1 for the largest inputs), with
references measured in the same run: a bare `python3 -c pass` for start-up, `cat` and
`tail -c` on the same files for throughput, and peers (`ttok`, `headroom-ai`) when installed.
Inputs are generated under bench/out/ (deterministically: the same bytes every run, streamed,
kept for the next run) and taken from ../shared/corpus when it is there. bench/README.md says
more. Nothing here is used by the test suite.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import figures
from harness import Workspace, headroom_command
from longrun import long_running
from peers import compare_peers, install_peers
from report import Report
from startup import startup
from targets import FULL, QUICK, Bench, memory, one_megabyte, throughput

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus"
QUIET_LOAD = 1.0  # the targets are judged at a load average at most this
SECTIONS = {"1": startup, "2": one_megabyte, "3": throughput, "4": memory, "5": long_running,
            "peers": compare_peers}


def main() -> int:
    args = _parse_args()
    started = time.perf_counter()
    mode = QUICK if args.quick else FULL
    if args.repeats:
        mode = dataclasses.replace(mode, repeats=args.repeats)
    OUT.mkdir(parents=True, exist_ok=True)
    ws = Workspace(OUT, headroom_command())
    print(machine_line())
    print(f"headroom: {_headroom_version(ws)}; mode: {mode.name}; medians of {mode.repeats} "
          f"runs; MB = 10^6 bytes; RSS cap {args.rss_cap_mb:.0f} MB (a run above it is killed)")
    if args.peers_install:
        install_peers(OUT)
    bench = _measure(ws, mode, args)
    reduced = ("quick mode: targets 3 and 4 measured at reduced sizes, target 5 on shorter "
               "runs" if mode.reduced else "full mode: the issue's sizes")
    status = bench.report.summary(reduced, time.perf_counter() - started)
    if args.update and os.getloadavg()[0] > QUIET_LOAD and not args.loaded:
        print(f"\nnot written to {figures.FIGURES_FILE.name}: load {os.getloadavg()[0]:.1f} > "
              f"{QUIET_LOAD:g}, and figures measured on a busy machine would make every later "
              "--compare pass (--loaded stores them anyway)")
        status = 1
    elif args.update:
        figures.save(figures.merged(figures.load(), bench.report.figures),
                     f"{_headroom_version(ws)}, {mode.name} mode, {machine_line()}, "
                     f"load {os.getloadavg()[0]:.1f}")
        print(f"\n{len(bench.report.figures)} figures written to {figures.FIGURES_FILE}")
    if args.compare:
        return max(status, _compare(ws, mode, args, bench.report.figures))
    return status


def _measure(ws: Workspace, mode, args: argparse.Namespace) -> Bench:
    bench = Bench(ws, Report(), mode, args.corpus, args.rss_cap_mb)
    bench.warm_up()
    for name in args.only or SECTIONS:
        SECTIONS[name](bench)
    return bench


def _compare(ws: Workspace, mode, args: argparse.Namespace, first: dict) -> int:
    """Each figure beside the stored one; a run again when one is worse, and exit status 1
    when one is worse in both runs (figures.py)."""
    stored = figures.load()
    runs = [first]
    compared = figures.compare(stored, runs)
    if figures.needs_another_run(compared):
        print(f"\nA figure is more than {figures.WORSE_BY:.0%} worse than the stored one: "
              f"measuring again (load {os.getloadavg()[0]:.1f})", flush=True)
        runs.append(_measure(ws, mode, args).report.figures)
        compared = figures.compare(stored, runs)
    load = os.getloadavg()[0]
    print(f"\nCompared with {figures.FIGURES_FILE.name} (worse: more than "
          f"{figures.WORSE_BY:.0%} worse, or missing: its case failed; REGRESSED: worse in two "
          f"runs in a row); load {load:.1f}")
    print(f"  stored: {figures.measured_at() or 'nothing yet'}")
    if load > QUIET_LOAD:
        print(f"  note: load {load:.1f} > {QUIET_LOAD:g}: CPU-time figures run high on a busy "
              "machine (shared caches, frequency); judge on a quiet one, and store only those")
    print(f"  {'figure':<66} {'stored':>9}  this run (and the next)")
    print("\n".join(figures.table(compared)))
    regressed = [row.key for row in compared if row.regressed]
    print(f"COMPARE: {len(regressed)} of {len(compared)} figures regressed")
    return 1 if regressed else 0


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="reduced sizes (curve to 10 MB, a 100 MB log and line): ~2 min")
    parser.add_argument("--repeats", type=int, help="runs per median (default 3)")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, metavar="TARGET",
                        help=f"run only these: {', '.join(SECTIONS)}")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help="the shared corpus (default: ../shared/corpus)")
    parser.add_argument("--rss-cap-mb", type=float, default=4000,
                        help="kill a run whose RSS passes this (default 4000)")
    parser.add_argument("--compare", action="store_true",
                        help="compare with bench/figures.json; fail on a figure more than 25 %% "
                        "worse in two runs in a row")
    parser.add_argument("--update", action="store_true",
                        help="write this run's figures into bench/figures.json (a change meant)")
    parser.add_argument("--loaded", action="store_true",
                        help=f"with --update: store the figures even at a load above "
                        f"{QUIET_LOAD:g}")
    parser.add_argument("--peers-install", action="store_true",
                        help="first try `pip install ttok headroom-ai` into bench/out/peers-venv")
    return parser.parse_args()


def machine_line() -> str:
    cores = os.cpu_count()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores
    return (f"machine: {_cpu_model()}, {cores} cores ({usable} usable), {_memory_gb()} RAM, "
            f"{platform.machine()}; Python {platform.python_version()}; "
            f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _memory_gb() -> str:
    try:
        with open("/proc/meminfo") as fh:
            kib = int(fh.readline().split()[1])
        return f"{kib * 1024 / 1e9:.0f} GB"
    except (OSError, ValueError, IndexError):
        return "? GB"


def _headroom_version(ws: Workspace) -> str:
    done = subprocess.run([*ws.headroom, "--version"], capture_output=True, text=True,
                          env=ws.env())
    version = (done.stdout or done.stderr).strip() or "?"
    commit = subprocess.run(["git", "-C", str(HERE), "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip()
    return f"{version} at {commit}" if commit else version


if __name__ == "__main__":
    sys.exit(main())
