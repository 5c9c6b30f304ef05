#!/usr/bin/env python3
"""Benchmark headroom against its targets, with references measured in the same run.

    python bench/bench.py            # everything (sizes up to 100 MB; several minutes)
    python bench/bench.py --quick    # sizes up to 10 MB, fewer repeats

Prints medians of repeated runs: wall time and peak RSS (from /usr/bin/time), with ratios
against a bare `python3 -c pass`, `cat` and `tail -c` on the same inputs. Peers (simonw's
`ttok`, the `headroom-ai` package's CLI) are measured when they are installed. Inputs are
generated under bench/out/ (deterministically: the same bytes every run) and from
../shared/corpus when it is there. Nothing here is used by the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
CORPUS = HERE.parent.parent / "shared" / "corpus"
MB = 1_000_000


def headroom_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("headroom")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "headroom_cli"]


# --------------------------------------------------------------------------- inputs


def generate(kind: str, size: int) -> Path:
    path = OUT / f"{kind}-{size // MB or size}{'MB' if size >= MB else 'B'}.txt"
    if path.exists() and path.stat().st_size >= size:
        return path
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(f"{kind}{size}")
    line = {"search": _search_line, "log": _log_line, "plain": _plain_line}[kind]
    with open(path, "w") as fh:
        written = 0
        while written < size:
            chunk = "".join(line(rng, i) for i in range(written, written + 2000))
            fh.write(chunk)
            written += len(chunk)
    return path


def _search_line(rng: random.Random, i: int) -> str:
    folder = f"src/pkg{rng.randrange(40)}/mod{rng.randrange(12)}"
    return f"{folder}/file{rng.randrange(30)}.py:{rng.randrange(1, 4000)}:    value = compute_{i % 97}(x)\n"


def _log_line(rng: random.Random, i: int) -> str:
    roll = rng.random()
    if roll < 0.0005:
        return f"ERROR [worker-{i % 7}] request {i} failed: ConnectionResetError(104)\n"
    if roll < 0.05:
        return f"2024-05-01 12:{i % 60:02d}:{i % 60:02d} WARN [pool] slow query took {rng.randrange(900, 5000)} ms\n"
    return f"2024-05-01 12:{i % 60:02d}:{i % 60:02d} INFO [http] GET /api/items/{i} 200 {rng.randrange(1, 90)}ms\n"


def _plain_line(rng: random.Random, i: int) -> str:
    words = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta")
    return " ".join(rng.choice(words) for _ in range(12)) + f" {i}\n"


def single_line(size: int) -> Path:
    path = OUT / f"oneline-{size // MB}MB.txt"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        with open(path, "w") as fh:
            for _ in range(size // MB):
                fh.write("x" * MB)
    return path


# --------------------------------------------------------------------------- measuring


def measure(cmd: list[str], stdin: Path | None, repeats: int) -> tuple[float, float]:
    """Median wall seconds and median peak RSS (MB) over repeated runs."""
    walls, rss = [], []
    for _ in range(repeats):
        timed = ["/usr/bin/time", "-f", "%e %M", *cmd]
        with open(stdin or os.devnull, "rb") as fh:
            done = subprocess.run(timed, stdin=fh, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, env=_env())
        wall, kb = done.stderr.decode().strip().splitlines()[-1].split()
        walls.append(float(wall))
        rss.append(int(kb) / 1000)
    return statistics.median(walls), statistics.median(rss)


def measure_fast(cmd: list[str], stdin: Path | None, repeats: int) -> float:
    """Median wall seconds, timed in-process (finer than /usr/bin/time's 10 ms)."""
    import time

    walls = []
    for _ in range(repeats):
        with open(stdin or os.devnull, "rb") as fh:
            start = time.perf_counter()
            subprocess.run(cmd, stdin=fh, stdout=subprocess.DEVNULL, env=_env())
            walls.append(time.perf_counter() - start)
    return statistics.median(walls)


def _env() -> dict:
    env = dict(os.environ)
    env.setdefault("HEADROOM_STORE", str(OUT / "store"))
    env.setdefault("HEADROOM_LEDGER", "off")
    return env


def row(label: str, *cells: str) -> None:
    print(f"{label:44s} " + " ".join(f"{c:>14s}" for c in cells))


# --------------------------------------------------------------------------- targets


def startup(repeats: int) -> None:
    print("\n1. Output that fits: wall time vs a bare `python3 -c pass` (target ≤ 4×)")
    small = OUT / "hi.txt"
    small.write_text("hi\n")
    three_kb = OUT / "3KB.txt"
    three_kb.write_text(("x" * 59 + "\n") * 50)
    base = measure_fast([sys.executable, "-c", "pass"], None, repeats)
    row("", "median ms", "ratio")
    row("python3 -c pass", f"{base * 1000:.1f}", "1.00")
    for label, path, extra in (("echo hi | headroom", small, []),
                               ("3 KB | headroom --budget 4000", three_kb, ["--budget", "4000"])):
        wall = measure_fast([*headroom_cmd(), *extra], path, repeats)
        row(label, f"{wall * 1000:.1f}", f"{wall / base:.2f}")


def one_megabyte(repeats: int) -> None:
    print("\n2. Clipping 1 MB (target ≤ 0.5 s wall)")
    row("", "wall s", "peak RSS MB")
    inputs = [("search 1 MB", generate("search", MB)), ("log 1 MB", generate("log", MB)),
              ("plain 1 MB", generate("plain", MB))]
    lodash = CORPUS / "read-lodash-js" / "output.txt"
    if lodash.exists():
        inputs.append(("corpus read-lodash-js (0.67 MB)", lodash))
    for label, path in inputs:
        wall, rss = measure([*headroom_cmd(), "--tool", "Bash"], path, repeats)
        row(label, f"{wall:.3f}", f"{rss:.0f}")


def throughput(sizes: list[int], repeats: int) -> None:
    print("\n3. Throughput and memory by size (targets: search/log ≥ 50 MB/s, plain ≥ 200 MB/s "
          "at 100 MB; RSS ≤ 150 MB)")
    row("", "wall s", "MB/s", "peak RSS MB", "cat s", "tail -c s")
    for kind, kind_flag in (("search", "search"), ("log", "log"), ("plain", "other")):
        for size in sizes:
            path = generate(kind, size)
            wall, rss = measure([*headroom_cmd(), "--tool", "Bash", "--kind", kind_flag], path,
                                repeats)
            cat, _ = measure(["cat"], path, repeats)
            tail, _ = measure(["tail", "-c", "16000"], path, repeats)
            row(f"{kind} {size // MB} MB", f"{wall:.3f}", f"{size / MB / wall:.1f}",
                f"{rss:.0f}", f"{cat:.3f}", f"{tail:.3f}")


def giant_line(repeats: int, size: int) -> None:
    print(f"\n4. A single {size // MB} MB line (target: RSS ≤ 150 MB)")
    path = single_line(size)
    wall, rss = measure([*headroom_cmd()], path, repeats)
    row("", "wall s", "peak RSS MB")
    row(f"one {size // MB} MB line", f"{wall:.3f}", f"{rss:.0f}")


def peers(repeats: int) -> None:
    print("\n5. Peers on the same 1 MB log (when installed)")
    path = generate("log", MB)
    row("", "wall s", "peak RSS MB")
    wall, rss = measure([*headroom_cmd(), "--budget", "4000"], path, repeats)
    row("headroom --budget 4000", f"{wall:.3f}", f"{rss:.0f}")
    ttok = shutil.which("ttok")
    if ttok:
        wall, rss = measure([ttok, "-t", "4000"], path, repeats)
        row("ttok -t 4000 (head truncation)", f"{wall:.3f}", f"{rss:.0f}")
    else:
        row("ttok", "not installed")
    if not shutil.which("headroom-ai"):
        row("headroom-ai", "not installed")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to 10 MB, 3 repeats")
    parser.add_argument("--repeats", type=int, default=None)
    args = parser.parse_args()
    repeats = args.repeats or (3 if args.quick else 5)
    sizes = [MB, 10 * MB] if args.quick else [MB, 10 * MB, 100 * MB]
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.uname().machine}, {os.cpu_count()} cores, Python "
          f"{sys.version.split()[0]}; medians of {repeats} runs")
    startup(repeats * 4)
    one_megabyte(repeats)
    throughput(sizes, repeats)
    giant_line(repeats, 10 * MB if args.quick else 100 * MB)
    peers(repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
