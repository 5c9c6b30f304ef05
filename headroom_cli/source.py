"""Where the input comes from: a stream's bytes, or a command run with its output captured.

Both are read in parts and handed on as they arrive (to intake.py), so nothing here holds the
whole output. Reading stdin stops early on SIGINT, SIGTERM or SIGHUP: what arrived until then is
still planned and printed (`tail -f app.log | headroom`, then Ctrl-C).

A wrapped command runs directly (no shell), with one pipe as both its stdout and its stderr, so
what it prints arrives merged in the order it wrote it. It inherits our stdin: a pipe passes
through, a terminal stays its terminal. SIGINT, SIGTERM and SIGHUP sent to us are passed on, and
whatever it printed until it ended is returned with its status, as a shell would report it.
"""

from __future__ import annotations

import os
import select

from .status import ExitStatus

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (~5 ms)
if TYPE_CHECKING:
    import subprocess
    from typing import BinaryIO, Callable, Sequence

    Sink = Callable[[bytes], None]

# signal (~2 ms: it builds enums), selectors, threading and typing are imported where they are
# used: the pass-through of output that fits reads its prefix here, and never waits or catches.
_STOPPING = ("SIGINT", "SIGTERM", "SIGHUP")
_CHUNK = 1 << 20


class CannotRun(Exception):
    """The command never started; `status` is what a shell would exit with (126 or 127)."""

    def __init__(self, message: str, status: ExitStatus) -> None:
        super().__init__(message)
        self.status = status


def read_prefix(stream: BinaryIO, limit: int) -> tuple[bytes, bool, int | None]:
    """Up to `limit` bytes of the stream (the pass-through's look at whether output fits),
    whether it ended within them, and the stopping signal that cut the reading short (or None).

    It takes os.read's parts, not the buffered reader's: what it leaves stays in the stream for
    read_stream. Stopping signals are caught from the first read that would wait (`tail -f
    log | headroom`, then Ctrl-C): without that, SIGTERM or SIGHUP would kill us, and what was
    read would be lost. The catching then lasts into read_stream (see _held), so a signal that
    comes while the full path loads is not lost either. A read error stops early, not ended:
    read_stream meets it again and reports it.
    """
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # an in-memory stream: it cannot block
        data = stream.read(limit)
        return (data, len(data) < limit, None)
    parts, size = [], 0
    try:
        while size < limit:
            if _held is None and not select.select([fd], [], [], 0)[0]:
                _hold()
            if _held is not None:
                signum = _wait(fd, _held)
                if signum is not None:
                    _release()
                    return (b"".join(parts), False, signum)
            part = os.read(fd, limit - size)
            if not part:
                _release()
                return (b"".join(parts), True, None)
            parts.append(part)
            size += len(part)
    except OSError:
        pass
    return (b"".join(parts), False, None)


def read_stream(stream: BinaryIO, sink: Sink) -> int | None:
    """Hand every part of the stream to sink, until its end or a stopping signal; returns
    that signal's number, else None."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # an in-memory stream: it cannot block
        while chunk := stream.read(_CHUNK):
            sink(chunk)
        return None
    _widen(fd)
    catching = _hold()  # (or carry on with read_prefix's)
    try:
        while True:
            # Stopped between two parts, never inside one: no part is lost.
            signum = _wait(fd, catching)
            if signum is not None:
                return signum
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                return None
            sink(chunk)
    finally:
        _release()


def _wait(fd: int, catching: _Catching) -> int | None:
    """Until fd can be read or a stopping signal comes: that signal's number, else None."""
    while True:
        ready, _, _ = select.select([fd, catching.wakeup], [], [])
        # Read whatever the wakeup fd says: a signal that came with the data made select()
        # return without counting the wakeup fd (its handler ran on select's way out).
        for signum in catching.caught():
            return signum
        if fd in ready:
            return None


# The catching begun by the first read_prefix that would wait, until read_stream ends: one
# module-level value, because between the two the full path loads (settings, planners) and
# a signal that comes meanwhile must stop the reading, not kill the process.
_held: _Catching | None = None


def _hold() -> _Catching:
    global _held
    if _held is None:
        _held = _Catching().__enter__()
    return _held


def _release() -> None:
    global _held
    if _held is not None:
        _held.__exit__(None, None, None)
        _held = None


def _widen(fd: int) -> None:
    """A pipe holds 64 KB, so each read returns at most that much; a 1 MiB pipe takes a fast
    writer's output in 16 times fewer reads. Linux only; anything else reads as it is."""
    import fcntl

    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _CHUNK)
    except (AttributeError, OSError):
        pass


def run_command(argv: Sequence[str], sink: Sink) -> int:
    """Run the command, handing what it prints to sink as it arrives; returns its status."""
    with _Catching() as catching:
        child = _start(argv)
        with child.stdout:
            _collect(child, sink, catching)
        child.wait()
    return shell_status(child.returncode)


def shell_status(returncode: int) -> int:
    return ExitStatus.SIGNAL_BASE - returncode if returncode < 0 else returncode


def _start(argv: Sequence[str]) -> subprocess.Popen:
    import subprocess  # command mode only: stdin runs do without it (~3 ms)

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
        if os.path.isdir(name):  # execve says EACCES; a shell says what is wrong
            raise CannotRun(f"{name}: Is a directory", ExitStatus.CANNOT_EXECUTE) from None
        reason = err.strerror or str(err)
        raise CannotRun(f"{name}: cannot execute: {reason}", ExitStatus.CANNOT_EXECUTE) from None


def _exists(name: str) -> bool:
    import shutil

    if os.sep in name:
        return os.path.exists(name)
    return shutil.which(name, mode=os.F_OK) is not None


def _collect(child: subprocess.Popen, sink: Sink, catching: _Catching) -> None:
    """Everything the child writes until it exits, to sink; the stopping signals we get
    meanwhile, passed on to it (one that came before it started, too).

    Reading stops at end of file, or once the child has exited and the pipe is drained: a
    daemon it started in the background may hold the pipe open for hours, and must not hold us.
    After end of file the child may still run: signals are passed on until it exits.
    """
    import selectors
    import threading

    exited_read, exited_write = os.pipe()
    waiter = threading.Thread(target=_wait_then_note, args=(child, exited_write), daemon=True)
    waiter.start()
    pipe = child.stdout.fileno()
    _widen(pipe)
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(pipe, selectors.EVENT_READ)
            selector.register(exited_read, selectors.EVENT_READ)
            selector.register(catching.wakeup, selectors.EVENT_READ)
            reading = True
            while True:
                ready = {key.fd for key, _ in selector.select()}
                for signum in catching.caught():  # (whether or not select counted the wakeup)
                    _forward(child, signum)
                if reading and pipe in ready:
                    chunk = os.read(pipe, _CHUNK)
                    if chunk:
                        sink(chunk)
                        continue
                    reading = False  # end of file: wait for the child's exit
                    selector.unregister(pipe)
                if exited_read in ready:
                    if reading:
                        for chunk in _drain(pipe):
                            sink(chunk)
                    break
    finally:
        waiter.join()
        os.close(exited_read)


def _wait_then_note(child: subprocess.Popen, exited_write: int) -> None:
    try:
        child.wait()
    finally:
        os.close(exited_write)  # end of file on exited_read wakes the reader


def _drain(pipe: int):
    """What is already in the pipe, without waiting for more."""
    os.set_blocking(pipe, False)
    try:
        while chunk := os.read(pipe, _CHUNK):
            yield chunk
    except BlockingIOError:
        pass


class _Catching:
    """While inside, SIGINT, SIGTERM and SIGHUP are caught, and `caught()` reads which came.
    A signal we were started ignoring (nohup, a background job) stays ignored: a wrapped
    command inherits that too.

    Any thread may receive a signal sent to the process (the kernel picks one that does not
    block it), and Python runs a handler only once the main thread next runs bytecode: if the
    main thread sleeps in select(), it would sleep on. So the signals are read from the wakeup
    fd (signal.set_wakeup_fd), which the C-level handler writes in whichever thread got the
    signal: `wakeup` is readable at once, and the select() that waits on it returns. The
    Python handlers do nothing; every signal is handled where the wakeup fd is read.
    """

    def __enter__(self):
        import signal

        self.wakeup, self._wake = os.pipe()
        os.set_blocking(self.wakeup, False)
        os.set_blocking(self._wake, False)
        self.previous: dict[int, object] = {}
        self._previous_wakeup: int | None = None
        try:
            self._previous_wakeup = signal.set_wakeup_fd(self._wake, warn_on_full_buffer=False)
            for signum in (getattr(signal, name) for name in _STOPPING):
                if signal.getsignal(signum) != signal.SIG_IGN:
                    self.previous[signum] = signal.signal(signum, _noted)
        except (ValueError, OSError):  # not the main thread: nothing caught
            pass
        return self

    def __exit__(self, *exc_info) -> None:
        import signal

        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        if self._previous_wakeup is not None:
            signal.set_wakeup_fd(self._previous_wakeup)
        os.close(self.wakeup)
        os.close(self._wake)

    def caught(self) -> list[int]:
        """The stopping signals that came since the last call, in order."""
        numbers = b""
        try:
            while chunk := os.read(self.wakeup, 512):
                numbers += chunk
        except BlockingIOError:
            pass
        return [signum for signum in numbers if signum in self.previous]


def _noted(_signum: int, _frame) -> None:
    """A caught signal's Python handler: the wakeup fd has noted it already (_Catching)."""


def _forward(child: subprocess.Popen, signum: int) -> None:
    import signal

    if not (signum == signal.SIGINT and _keyboard_reached(child.pid)):
        try:
            child.send_signal(signum)
        except ProcessLookupError:
            pass


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
