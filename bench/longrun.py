"""Target 5: long-running wrapped commands (a dev server, `--watch`, a 20-minute CI job).

The wrapped command is a Python "ticker" printing a log line every ~50 µs (~1.7 MB/s). Three
things are checked: memory stays flat however long it runs (a short and a long run compared);
SIGINT and SIGTERM make headroom print the plan of everything seen and exit; and `--live`
passes the head through while the command still runs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

from harness import MARKER, Limits, file_holds, measure, wait_measured
from targets import RSS_LIMIT_MB, Bench

BUDGET = ["--budget", "2000"]
# Memory may grow a little with run length (counters, a longer store path) but not with the
# output: this much more at the long run than at the short one still counts as flat.
FLAT_GROWTH_MB = 20
SIGNAL_AFTER_S = 2.0  # how long the command runs before the benchmark signals headroom
EXIT_WITHIN_S = 15.0  # how long headroom may take to plan, print and exit after the signal
LIVE_COMMAND_S = 4.0

TICKER = r"""
import sys, time
seconds = float(sys.argv[1])
start = time.monotonic()
write = sys.stdout.write
number = 0
while (elapsed := time.monotonic() - start) < seconds:
    # Catch up to one line per 50 us, flush, then sleep ~1 ms: a steady ~20,000 lines/s that
    # leaves the CPU to headroom instead of spinning.
    while number < elapsed / 50e-6:
        level = "ERROR" if number % 20011 == 0 else "WARN " if number % 97 == 0 else "INFO "
        write(f"2024-05-01T12:{number // 1200000 % 60:02d}:{number // 20000 % 60:02d}"
              f".{number % 20000:05d}Z {level} [dev-server] GET /api/items/{number} 200"
              f" {number % 900}ms\n")
        number += 1
    sys.stdout.flush()
    time.sleep(0.001)
"""


def ticker(seconds: float) -> list[str]:
    return [sys.executable, "-c", TICKER, f"{seconds:g}"]


def long_running(bench: Bench) -> None:
    short, long = bench.mode.wrapped_seconds
    bench.report.section(
        f"Target 5 — long-running wrapped commands: `headroom --budget 2000 -- <ticker, a log "
        f"line every ~50 µs>`: RSS flat (≤ {RSS_LIMIT_MB} MB, ≤ +{FLAT_GROWTH_MB} MB from "
        f"{short:g} s to {long:g} s); the plan printed at the end, on SIGINT and on SIGTERM; "
        "--live streams the head", "wall s", "RSS MB", "exit", "marker")
    _bounded_memory(bench, short, long)
    for signum in (signal.SIGINT, signal.SIGTERM):
        _interrupted(bench, signum)
    _live(bench)


def _bounded_memory(bench: Bench, short: float, long: float) -> None:
    peaks = []
    for seconds in (short, long):
        measured = measure(bench.ws, bench.headroom(*BUDGET, "--", *ticker(seconds)),
                           repeats=bench.mode.wrapped_repeats, limits=bench.limits(),
                           check_marker=True)
        peaks.append(measured.rss_mb)
        label = f"command runs {seconds:g} s, then ends"
        cells = [f"{measured.wall:.2f}", f"{measured.rss_mb:.0f}", f"{measured.status}",
                 "yes" if measured.marker else "no"]
        bench.report.judged(5, f"{label}: plan printed", cells,
                            figure="marker" if measured.marker else "no marker",
                            limit="marker, exit 0",
                            passed=measured.marker and not measured.trouble,
                            note=measured.trouble)
    growth = peaks[1] - peaks[0]
    bench.report.judged(
        5, f"RSS flat from {short:g} s to {long:g} s", [f"{peaks[0]:.0f} → {peaks[1]:.0f}"],
        figure=f"{peaks[0]:.0f} → {peaks[1]:.0f} MB", limit=f"+{FLAT_GROWTH_MB}, ≤ {RSS_LIMIT_MB}",
        passed=growth <= FLAT_GROWTH_MB and peaks[1] <= RSS_LIMIT_MB)


def _interrupted(bench: Bench, signum: signal.Signals) -> None:
    """Signal headroom (not its command) mid-run: it must pass the signal on, plan, print, exit.

    headroom runs in a session of its own. Otherwise, run from a terminal, it would see the
    child in the terminal's foreground group, conclude Ctrl-C had reached the child already
    (as it would have) and not forward a signal that in fact went to headroom alone.
    """
    ws = bench.ws
    ws.clear_store()
    with open(ws.stdout_path, "wb") as stdout, open(ws.stderr_path, "wb") as stderr:
        proc = subprocess.Popen(bench.headroom(*BUDGET, "--", *ticker(600)),
                                stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                                env=ws.env(), start_new_session=True)
        time.sleep(SIGNAL_AFTER_S)
        signalled = time.perf_counter()
        proc.send_signal(signum)
        status, rss_mb, stopped, _ = wait_measured(
            proc, Limits(seconds=EXIT_WITHIN_S, rss_mb=bench.rss_cap_mb))
        exit_after = time.perf_counter() - signalled
    marker = file_holds(ws.stdout_path, MARKER)
    cells = [f"{exit_after:.2f}", f"{rss_mb:.0f}", f"{status}", "yes" if marker else "no"]
    name = signal.Signals(signum).name
    bench.report.judged(
        5, f"{name} after {SIGNAL_AFTER_S:g} s: exits, plan printed", cells,
        figure=f"exit {status} {exit_after:.2f} s after {name}, "
               f"{'marker' if marker else 'no marker'}",
        limit=f"exit ≤ {EXIT_WITHIN_S:g} s, marker", passed=marker and not stopped,
        note=f"still running {EXIT_WITHIN_S:g} s after the signal: killed" if stopped else "")


def _live(bench: Bench) -> None:
    label = f"--live: first bytes before a {LIVE_COMMAND_S:g} s command ends"
    limit = f"< {LIVE_COMMAND_S / 2:g} s, marker"
    if not _has_live_option(bench):
        bench.report.judged(5, label, ["not available"], figure="not available", limit=limit,
                            passed=False, note="`headroom --help` does not mention --live")
        return
    first_byte, total, status, rss_mb, output = _time_first_byte(
        bench, bench.headroom("--live", *BUDGET, "--", *ticker(LIVE_COMMAND_S)))
    marker = MARKER in output
    shown = f"{first_byte:.2f}" if first_byte is not None else "never"
    passed = first_byte is not None and first_byte < LIVE_COMMAND_S / 2 and marker
    bench.report.judged(5, label, [f"{total:.2f}", f"{rss_mb:.0f}", f"{status}",
                                   "yes" if marker else "no"],
                        figure=f"first byte at {shown} s of {total:.2f} s", limit=limit,
                        passed=passed and status == 0,
                        note=f"first byte at {shown} s" + ("" if status == 0
                                                           else f", exit {status}"))


def _has_live_option(bench: Bench) -> bool:
    done = subprocess.run(bench.headroom("--help"), capture_output=True, text=True,
                          env=bench.ws.env())
    return "--live" in done.stdout


def _time_first_byte(bench: Bench, cmd: list[str]) -> tuple[float | None, float, int, float,
                                                              bytes]:
    """(seconds to the first stdout byte, total seconds, status, peak RSS MB, stdout)."""
    bench.ws.clear_store()
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=bench.ws.env(),
                            start_new_session=True)
    chunks: list[bytes] = []
    first: list[float] = []

    def read() -> None:  # in a thread: the main one waits for the process and its rusage
        while chunk := os.read(proc.stdout.fileno(), 1 << 16):
            if not first:
                first.append(time.perf_counter() - start)
            chunks.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    status, rss_mb, _, _ = wait_measured(proc, bench.limits())
    total = time.perf_counter() - start
    reader.join(timeout=5)
    proc.stdout.close()
    return (first[0] if first else None), total, status, rss_mb, b"".join(chunks)
