"""Where the input comes from: a stream's bytes, or a command run with its output captured.

A wrapped command runs directly (no shell), with one pipe as both its stdout and its stderr, so
what it prints arrives merged in the order it wrote it. It inherits our stdin: a pipe passes
through, a terminal stays its terminal. SIGINT, SIGTERM and SIGHUP sent to us are passed on, and
whatever it printed until it ended is returned with its status, as a shell would report it.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import signal
import subprocess
import threading
from typing import BinaryIO, NamedTuple, Sequence

from .status import ExitStatus

FORWARDED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_CHUNK = 1 << 16


class Captured(NamedTuple):
    output: bytes
    status: int  # the exit status, or 128 + N after death by signal N


class CannotRun(Exception):
    """The command never started; `status` is what a shell would exit with (126 or 127)."""

    def __init__(self, message: str, status: ExitStatus) -> None:
        super().__init__(message)
        self.status = status


def read_stream(stream: BinaryIO) -> bytes:
    return stream.read()


def run_command(argv: Sequence[str]) -> Captured:
    with _Forwarding() as forwarding:
        child = _start(argv)
        forwarding.attach(child)
        with child.stdout:
            output = _collect(child)
        child.wait()
    return Captured(output, shell_status(child.returncode))


def shell_status(returncode: int) -> int:
    return ExitStatus.SIGNAL_BASE - returncode if returncode < 0 else returncode


def _start(argv: Sequence[str]) -> subprocess.Popen:
    name = argv[0]
    try:
        # restore_signals (the default) gives the child the default SIGPIPE that Python drops.
        return subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except FileNotFoundError:
        if _exists(name):  # a script whose #! interpreter is missing
            raise CannotRun(f"{name}: cannot execute: bad interpreter",
                            ExitStatus.CANNOT_EXECUTE) from None
        raise CannotRun(f"{name}: command not found", ExitStatus.NOT_FOUND) from None
    except OSError as err:  # EACCES, ENOEXEC, EISDIR, E2BIG...: it exists but will not run
        reason = err.strerror or str(err)
        raise CannotRun(f"{name}: cannot execute: {reason}", ExitStatus.CANNOT_EXECUTE) from None


def _exists(name: str) -> bool:
    if os.sep in name:
        return os.path.exists(name)
    return shutil.which(name, mode=os.F_OK) is not None


def _collect(child: subprocess.Popen) -> bytes:
    """Everything the child writes until it exits.

    Reading stops at end of file, or once the child has exited and the pipe is drained: a
    daemon it started in the background may hold the pipe open for hours, and must not hold us.
    """
    exited_read, exited_write = os.pipe()
    waiter = threading.Thread(target=_wait_then_note, args=(child, exited_write), daemon=True)
    waiter.start()
    pipe = child.stdout.fileno()
    chunks: list[bytes] = []
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(pipe, selectors.EVENT_READ)
            selector.register(exited_read, selectors.EVENT_READ)
            while True:
                ready = {key.fd for key, _ in selector.select()}
                if pipe in ready:
                    chunk = os.read(pipe, _CHUNK)
                    if not chunk:
                        break
                    chunks.append(chunk)
                elif exited_read in ready:
                    chunks.extend(_drain(pipe))
                    break
    finally:
        waiter.join()
        os.close(exited_read)
    return b"".join(chunks)


def _wait_then_note(child: subprocess.Popen, exited_write: int) -> None:
    try:
        child.wait()
    finally:
        os.close(exited_write)  # end of file on exited_read wakes the reader


def _drain(pipe: int) -> list[bytes]:
    """What is already in the pipe, without waiting for more."""
    os.set_blocking(pipe, False)
    chunks = []
    with contextlib.suppress(BlockingIOError):
        while chunk := os.read(pipe, _CHUNK):
            chunks.append(chunk)
    return chunks


class _Forwarding:
    """Pass SIGINT, SIGTERM and SIGHUP on to the child while it runs.

    A signal that arrives before the child exists is passed on as soon as it does. A signal we
    were started ignoring (nohup, a background job) stays ignored: the child inherits that too.
    """

    def __init__(self) -> None:
        self.child: subprocess.Popen | None = None
        self.pending: list[int] = []
        self.previous: dict[int, object] = {}

    def __enter__(self) -> "_Forwarding":
        for signum in FORWARDED_SIGNALS:
            with contextlib.suppress(ValueError, OSError):  # not the main thread: cannot catch
                if signal.getsignal(signum) != signal.SIG_IGN:
                    self.previous[signum] = signal.signal(signum, self._forward)
        return self

    def __exit__(self, *exc_info) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)

    def attach(self, child: subprocess.Popen) -> None:
        self.child = child
        for signum in self.pending:
            self._forward(signum, None)

    def _forward(self, signum: int, _frame) -> None:
        if self.child is None:
            self.pending.append(signum)
        elif not (signum == signal.SIGINT and _keyboard_reached(self.child.pid)):
            with contextlib.suppress(ProcessLookupError):
                self.child.send_signal(signum)


def _keyboard_reached(child_pid: int) -> bool:
    """Did Ctrl-C at our terminal reach the child already?

    The terminal sends SIGINT to its whole foreground process group; when the child is in that
    group it has the signal, and a second copy would interrupt the clean-up the first started.
    """
    try:
        terminal = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:
        return False  # no controlling terminal: the signal was sent to us alone
    try:
        return os.tcgetpgrp(terminal) == os.getpgid(child_pid)
    except OSError:
        return False
    finally:
        os.close(terminal)
