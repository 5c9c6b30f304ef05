"""Running commands and measuring them: wall time, peak RSS, exit status, and a safety net.

Peak RSS comes from os.wait4(), the rusage of exactly the process waited for (plus whatever it
waited for itself, e.g. a wrapped command) — what `/usr/bin/time -f %M` reports, without
parsing its stderr. getrusage(RUSAGE_CHILDREN) cannot be used per run: its ru_maxrss is the
largest of all children so far, so a small run after a big one would inherit the big figure.

Every run has a watchdog: one that exceeds the wall-time limit or the RSS cap is killed and
reported as stopped, so a headroom that holds a 2 GB input in memory fails the memory target
instead of taking the machine down.
"""

from __future__ import annotations

import contextlib
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

TIMED_OUT = "killed: still running"
MARKER = b"[\xe2\x80\xa6headroom:"  # "[…headroom:", the start of every marker headroom writes


@dataclass(frozen=True)
class Limits:
    seconds: float
    rss_mb: float


@dataclass(frozen=True)
class Run:
    wall: float  # seconds, from start until the measured process exited
    rss_mb: float  # peak resident set size, MB (10^6 bytes, like every MB here)
    status: int  # exit status as a shell reports it (128 + N after signal N)
    stopped: str = ""  # why the watchdog killed it, or ""
    cpu: float = 0.0  # CPU seconds (user + system) of the measured process and its threads
    marker: bool = False  # stdout holds a headroom marker (checked only when asked)
    stderr: str = ""  # first line of stderr, for failures


@dataclass(frozen=True)
class Measured:
    """Medians over repeated runs, with the worst outcome of any of them."""

    wall: float
    rss_mb: float
    status: int
    stopped: str
    marker: bool
    stderr: str
    repeats: int
    cpu: float = 0.0  # median CPU seconds (user + system): what a loaded machine disturbs least

    @property
    def trouble(self) -> str:
        """What went wrong in any run, or "" — a crashed or killed run meets no target."""
        if self.stopped:
            return self.stopped
        if self.status:
            return f"exit {self.status}" + (f": {self.stderr}" if self.stderr else "")
        return ""


class Workspace:
    """Where runs write what they produce, and the environment headroom runs in."""

    def __init__(self, out: Path, headroom: Sequence[str]) -> None:
        self.out = out
        self.headroom = list(headroom)
        self.stdout_path = out / "last-stdout"
        self.stderr_path = out / "last-stderr"
        self.store = out / "store"

    def env(self) -> dict[str, str]:
        """The caller's environment, minus their headroom settings, plus private state dirs.

        A private store keeps benchmark outputs out of the user's; the ledger is off so no
        sqlite write is timed; private config and cache directories keep a user's config file
        out and make the tokenizer cache ours (warmed once, untimed, before measuring). Python
        may write bytecode, as on a user's machine (pip compiles it at install): a caller's
        PYTHONDONTWRITEBYTECODE would have every run compile headroom's sources again.
        """
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("HEADROOM_") and k != "PYTHONDONTWRITEBYTECODE"}
        env.update(HEADROOM_STORE=str(self.store), HEADROOM_LEDGER="off",
                   XDG_CACHE_HOME=str(self.out / "cache"),
                   XDG_CONFIG_HOME=str(self.out / "config"),
                   XDG_STATE_HOME=str(self.out / "state"))
        return env

    def clear_store(self) -> None:
        # Each run starts from an empty store: a repeat must not find its output already saved,
        # and 2 GB inputs saved three times would fill a small disk.
        import shutil

        shutil.rmtree(self.store, ignore_errors=True)


def run_once(ws: Workspace, cmd: Sequence[str], *, stdin: Path | None = None,
             through_pipe: bool = False, limits: Limits, env: dict | None = None,
             check_marker: bool = False, keep_stdout: bool = True) -> Run:
    """Run cmd with stdin from a file (or `cat file |` when through_pipe).

    stdout goes to a file (headroom's is small, and the marker check reads it) unless
    keep_stdout is off: `cat` of a 100 MB input is timed reading, not writing to disk.
    """
    ws.clear_store()
    with contextlib.ExitStack() as stack:
        stdout = (stack.enter_context(open(ws.stdout_path, "wb")) if keep_stdout
                  else subprocess.DEVNULL)
        stderr = stack.enter_context(open(ws.stderr_path, "wb"))
        feeder = None
        start = time.perf_counter()
        if through_pipe:
            feeder = subprocess.Popen(["cat", str(stdin)], stdout=subprocess.PIPE)
            source = feeder.stdout
        else:
            source = stack.enter_context(open(stdin or os.devnull, "rb"))
        proc = subprocess.Popen(list(cmd), stdin=source, stdout=stdout, stderr=stderr,
                                env=env or ws.env())
        if feeder:
            feeder.stdout.close()  # only headroom holds the read end: cat sees SIGPIPE if it dies
        status, rss_mb, stopped, cpu = wait_measured(proc, limits)
        wall = time.perf_counter() - start
        if feeder:
            feeder.wait()
    return Run(wall, rss_mb, status, stopped, cpu=cpu,
               marker=check_marker and file_holds(ws.stdout_path, MARKER),
               stderr=_first_line(ws.stderr_path) if status else "")


def wait_measured(proc: subprocess.Popen, limits: Limits) -> tuple[int, float, str, float]:
    """Wait for proc under the watchdog: (exit status, peak RSS in MB, why it was stopped,
    CPU seconds: user + system of proc, from the same rusage)."""
    watchdog = _Watchdog(proc.pid, limits)
    watchdog.start()
    _, raw_status, usage = os.wait4(proc.pid, 0)
    watchdog.finish()
    proc.returncode = os.waitstatus_to_exitcode(raw_status)  # we reaped it, not Popen
    return (shell_status(proc.returncode), usage.ru_maxrss * 1024 / 1_000_000, watchdog.reason,
            usage.ru_utime + usage.ru_stime)


def shell_status(returncode: int) -> int:
    return 128 - returncode if returncode < 0 else returncode


def measure(ws: Workspace, cmd: Sequence[str], *, repeats: int, **options) -> Measured:
    """Medians over `repeats` runs; stops repeating once the watchdog had to step in."""
    runs = []
    for _ in range(repeats):
        runs.append(run_once(ws, cmd, **options))
        if runs[-1].stopped:
            break  # the next run would be killed as well, after as long a wait
    worst = max(runs, key=lambda run: (bool(run.stopped), run.status != 0))
    return Measured(wall=statistics.median(run.wall for run in runs),
                    rss_mb=max(run.rss_mb for run in runs) if worst.stopped
                    else statistics.median(run.rss_mb for run in runs),
                    status=worst.status, stopped=worst.stopped,
                    marker=all(run.marker for run in runs), stderr=worst.stderr,
                    repeats=len(runs), cpu=statistics.median(run.cpu for run in runs))


def quick_times(cmd: Sequence[str], stdin: Path | None, env: dict) -> tuple[float, float]:
    """One run's wall seconds, timed in-process (finer than /usr/bin/time's 10 ms), and the
    CPU seconds (user + system) it used, which a loaded machine disturbs far less."""
    with open(stdin or os.devnull, "rb") as source:
        start = time.perf_counter()
        proc = subprocess.Popen(list(cmd), stdin=source, stdout=subprocess.DEVNULL, env=env)
        _, raw_status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(raw_status)  # we reaped it, not Popen
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, list(cmd))
    return wall, usage.ru_utime + usage.ru_stime


def file_holds(path: Path, needle: bytes) -> bool:
    """Does the file contain needle? Read in chunks: stdout may be as large as the input."""
    overlap = len(needle) - 1
    tail = b""
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            if needle in tail + chunk:
                return True
            tail = chunk[-overlap:]
    return False


def _first_line(path: Path) -> str:
    with open(path, "rb") as fh:
        lines = fh.read(4096).decode("utf-8", "replace").strip().splitlines()
    return lines[-1][:100] if lines else ""  # a traceback's last line says what happened


class _Watchdog(threading.Thread):
    """Kill the process when it runs too long or grows too big; say which it was."""

    _POLL = 0.05

    def __init__(self, pid: int, limits: Limits) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.limits = limits
        self.reason = ""
        self.done = threading.Event()
        # A pidfd names this process, never a later one that reuses its pid after we reap it.
        self.pidfd = os.pidfd_open(pid) if hasattr(os, "pidfd_open") else None

    def run(self) -> None:
        deadline = time.monotonic() + self.limits.seconds
        while not self.done.wait(self._POLL):
            rss_mb = _rss_mb(self.pid)
            if rss_mb > self.limits.rss_mb:
                self._kill(f"killed: RSS above {self.limits.rss_mb:.0f} MB")
            elif time.monotonic() > deadline:
                self._kill(f"{TIMED_OUT} after {self.limits.seconds:.0f} s")

    def _kill(self, reason: str) -> None:
        if self.reason:
            return
        self.reason = reason
        with contextlib.suppress(ProcessLookupError, OSError):
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)

    def finish(self) -> None:
        self.done.set()
        self.join()
        if self.pidfd is not None:
            os.close(self.pidfd)


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024 / 1_000_000
    except OSError:
        pass
    return 0.0


def headroom_command() -> list[str]:
    """The headroom installed next to the running interpreter (the project's venv)."""
    exe = Path(sys.executable).with_name("headroom")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "headroom_cli"]
