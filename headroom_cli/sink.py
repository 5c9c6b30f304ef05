"""Where a run's output goes: stdout, written whole, and stderr, one line per message.

A reader that goes away (`headroom … | head -1`) is not an error worth a traceback: the run
ends quietly with exit status 141, as `cat` would. The only module that writes to stdout.
"""

from __future__ import annotations

import os
import sys

from .status import ExitStatus


def write(data: bytes, *, hook: bool = False) -> None:
    """All of data to stdout; a reader that went away ends the run quietly (exit 141). A
    hook's reply (`hook`) never changes the hook's exit status: any failure is ignored."""
    try:
        _write(data)
    except BrokenPipeError:
        # Here, not only at the top: typer turns a broken pipe into exit status 1 on its own.
        if not hook:
            quiet_broken_pipe()
        _stdout_to_devnull()
    except (OSError, ValueError):
        if not hook:
            raise


def _write(data: bytes) -> None:
    out = sys.stdout.buffer
    view = memoryview(data)
    # A pipe whose reader left mid-write takes part of a large write without an error;
    # writing the rest is what raises BrokenPipeError.
    while view:
        written = out.write(view)
        if not written:
            break
        view = view[written:]
    out.flush()


def quiet_broken_pipe() -> None:
    """End the run with 141, stdout pointed at /dev/null so the final flush cannot fail."""
    _stdout_to_devnull()
    sys.exit(ExitStatus.PIPE_CLOSED)


def _stdout_to_devnull() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def warn(message: str) -> None:
    """`headroom: message` on stderr; nothing when stderr is closed (a hook's may be)."""
    try:
        print(f"headroom: {message}", file=sys.stderr)
    except (OSError, ValueError):
        pass
