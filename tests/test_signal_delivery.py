"""SIGINT, SIGTERM and SIGHUP reach headroom whichever of its threads the kernel hands them to.

A signal sent to a process goes to any thread that does not block it; Python runs the handler
only when the main thread next runs, and headroom's main thread sleeps in select() (source.py).
So each signal is sent once the run is ready (a file the child writes, or the input read and
the handlers installed: never sleep-then-signal), in command mode and on stdin, and once more
straight to each helper thread (tgkill), which is where a lost signal used to go.

HEADROOM_SIGNAL_STRESS=N repeats each process-directed case N times under a load of at least
one busy loop per core, to make the kernel's choice of thread vary (see `load`):

    HEADROOM_SIGNAL_STRESS=500 .venv/bin/python -m pytest tests/test_signal_delivery.py -q

Timeouts are hang guards only: no assertion depends on how long anything takes.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import handles_signals, pipe_is_drained

HEADROOM = [sys.executable, "-m", "headroom_cli"]
HANG_GUARD = 60  # seconds
SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
STRESS = int(os.environ.get("HEADROOM_SIGNAL_STRESS") or 0)  # read before private_env clears it
ROUNDS = range(STRESS or 1)

pytestmark = pytest.mark.usefixtures("private_env")

# The child says it got the signal, then dies of it: its status says so as well. It waits with
# the signals blocked (sigwait), so one that comes early stays pending: a Python handler around
# time.sleep would race, since a signal landing between the interpreter's check and the sleep's
# system call is noticed only when the sleep ends (that hung a stress round for 60 s, while
# headroom had passed the signal on).
CHILD = """
import os, signal, sys
stopping = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
signal.pthread_sigmask(signal.SIG_BLOCK, stopping)
print('started', flush=True)
open(sys.argv[1], 'w').close()
signum = int(signal.sigwait(stopping))
print('child got', signum, flush=True)
signal.signal(signum, signal.SIG_DFL)
os.kill(os.getpid(), signum)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})
"""


@pytest.fixture(scope="module", autouse=True)
def stops_not_ignored():
    """A shell without job control starts a background job (`.ci/run &`) with SIGINT ignored,
    `nohup` ignores SIGHUP, and every child inherits that: headroom then rightly keeps them
    ignored, and these tests would measure the shell, not headroom. With a handler here, each
    child starts with the signal's default (exec resets a handled signal; an ignored one stays
    ignored)."""
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGHUP)}
    for signum, handler in before.items():
        if handler == signal.SIG_IGN:
            signal.signal(signum, signal.default_int_handler)
    yield
    for signum, handler in before.items():
        signal.signal(signum, handler)


@pytest.fixture(scope="module")
def load():
    """Under HEADROOM_SIGNAL_STRESS, busy loops while this module's tests run, enough to make
    the load at least one per core: on a machine busy already, none (they would only slow the
    rounds down). The load is what makes the kernel's choice of thread vary."""
    cores = os.cpu_count() or 1
    missing = max(0, cores - round(os.getloadavg()[0])) if STRESS else 0
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(missing)]
    yield
    for spinner in spinners:
        spinner.kill()
        spinner.wait()


# --- command mode -------------------------------------------------------------------------------

def start_wrapped(tmp_path: Path) -> subprocess.Popen:
    ready = tmp_path / "ready"
    ready.unlink(missing_ok=True)
    # Its own session: no controlling terminal, no signal from the test runner's terminal.
    process = subprocess.Popen([*HEADROOM, "--", sys.executable, "-c", CHILD, str(ready)],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    wait_until(ready.exists, process)
    return process


def assert_passed_on(process: subprocess.Popen, signum: int) -> None:
    try:
        stdout, stderr = process.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # its own session: the child goes with it
        process.communicate()
        raise
    assert process.returncode == 128 + signum
    assert stdout == b"started\nchild got %d\n" % signum
    assert b"Traceback" not in stderr


@pytest.mark.parametrize("round_", ROUNDS)
@pytest.mark.parametrize("signum", SIGNALS)
def test_command_mode_passes_the_signal_on(tmp_path, load, signum, round_):
    process = start_wrapped(tmp_path)
    process.send_signal(signum)
    assert_passed_on(process, signum)


@pytest.mark.parametrize("signum", SIGNALS)
def test_command_mode_passes_on_a_signal_a_helper_thread_got(tmp_path, signum):
    process = start_wrapped(tmp_path)  # the thread waiting for the child is running now
    helpers = helper_threads(process.pid)
    assert helpers, "no helper thread to send the signal to"
    tgkill(process.pid, helpers[0], signum)
    assert_passed_on(process, signum)


# --- stdin --------------------------------------------------------------------------------------

def log(lines: int) -> bytes:
    return b"".join(b"line %d of a log that goes on\n" % i for i in range(lines))


def start_reading(data: bytes) -> subprocess.Popen:
    """headroom reading a pipe that stays open (`tail -f log | headroom`), ready when it has
    read everything written and handles the signals."""
    process = subprocess.Popen([*HEADROOM, "--budget", "200"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdin.write(data)
    process.stdin.flush()
    wait_until(lambda: pipe_is_drained(process.stdin) and handles_signals(process.pid), process)
    return process


def stopped(process: subprocess.Popen, signum: int) -> str:
    """What headroom printed; it exited of itself with 128 + signum, without a traceback."""
    # stdin stays open until headroom has exited: the signal, not an end of file, stops it.
    stdout = process.stdout.read()
    stderr = process.stderr.read()
    assert process.wait(timeout=HANG_GUARD) == 128 + signum
    process.stdin.close()
    assert b"Traceback" not in stderr
    return stdout.decode()


def assert_planned(text: str, lines: int) -> None:
    # The closing marker counts every line that was read; no command was wrapped.
    assert "[…headroom:" in text and f"of {lines:,} (" in text
    assert "The command exited" not in text


@pytest.mark.parametrize("round_", ROUNDS)
@pytest.mark.parametrize("signum", SIGNALS)
def test_a_signal_stops_reading_stdin_and_the_plan_is_printed(load, signum, round_):
    process = start_reading(log(4000))
    process.send_signal(signum)
    assert_planned(stopped(process, signum), 4000)


@pytest.mark.parametrize("round_", ROUNDS)
@pytest.mark.parametrize("signum", SIGNALS)
def test_a_signal_stops_reading_stdin_that_fits_and_it_is_printed(load, signum, round_):
    # Under the budget, headroom is still looking at whether the input fits (the
    # pass-through's read, before the full path has loaded): the signal stops that read too.
    data = log(3)
    process = start_reading(data)
    process.send_signal(signum)
    assert stopped(process, signum) == data.decode()


@pytest.mark.parametrize("signum", SIGNALS)
def test_a_signal_a_helper_thread_got_stops_reading_stdin(signum):
    lines = 200_000  # past intake.HOLD: the store's copy is written by a thread of its own
    process = start_reading(log(lines))
    helpers = helper_threads(process.pid)
    assert helpers, "no helper thread to send the signal to"
    tgkill(process.pid, helpers[0], signum)
    assert_planned(stopped(process, signum), lines)


# --- helpers ------------------------------------------------------------------------------------

def wait_until(ready, process: subprocess.Popen) -> None:
    """Poll until ready (a hang guard, not a timing assumption)."""
    deadline = time.monotonic() + HANG_GUARD
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"never became ready: {process.communicate()}")
        time.sleep(0.01)


def helper_threads(pid: int) -> list[int]:
    return sorted(int(tid) for tid in os.listdir(f"/proc/{pid}/task") if int(tid) != pid)


def tgkill(pid: int, tid: int, signum: int) -> None:
    """A signal to one thread of a process (os.kill lets the kernel choose the thread)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.tgkill(pid, tid, int(signum)) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


@pytest.mark.parametrize("where, argv", [
    ("headroom_cli.cli.options.parse_plain", ["--budget", "10"]),  # start-up: before any handler
    ("headroom_cli.cli.filtering.run_filter", ["--budget", "10", "--", "true"]),
    ("headroom_cli.agents.cli.hook_command", ["hook", "claude"]),
])
def test_ctrl_c_anywhere_ends_with_130_and_no_traceback(monkeypatch, capsys, where, argv):
    """A KeyboardInterrupt raised where Ctrl-C can land before the run's own handlers are in
    place (or where none catches it) ends headroom with 128 + SIGINT, quietly."""
    import importlib

    from headroom_cli.cli import main

    module, name = where.rsplit(".", 1)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module(module), name, interrupted)
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 128 + signal.SIGINT
    assert "Traceback" not in capsys.readouterr().err
