"""`headroom -- CMD`: the wrapped command's contract, tested against real processes.

Children are `sys.executable -c ...`; headroom itself runs as `python -m headroom_cli`. Timeouts
are hang guards only: no assertion depends on how long anything takes.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

HEADROOM = [sys.executable, "-m", "headroom_cli"]
HANG_GUARD = 60  # seconds


pytestmark = pytest.mark.usefixtures("private_env")


def headroom(*args: str, input: bytes | None = b"", **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*HEADROOM, *args], input=input, capture_output=True,
                          timeout=HANG_GUARD, **kwargs)


def child(code: str) -> list[str]:
    return ["--", sys.executable, "-c", code]


def assert_no_traceback(stderr: bytes) -> None:
    assert b"Traceback" not in stderr


# --- exit status ----------------------------------------------------------------------------

@pytest.mark.parametrize("status", [0, 1, 2, 3, 42, 126, 127, 255])
def test_exit_status_is_the_commands(status):
    done = headroom(*child(f"import sys; print('bye'); sys.exit({status})"))
    assert done.returncode == status
    assert done.stdout == b"bye\n"
    assert done.stderr == b""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL, signal.SIGSEGV])
def test_death_by_signal_is_128_plus_n(signum):
    # No core file for SIGSEGV: the test must leave nothing behind.
    done = headroom(*child(
        "import os, resource, sys; resource.setrlimit(resource.RLIMIT_CORE, (0, 0)); "
        f"print('before', flush=True); os.kill(os.getpid(), {int(signum)})"))
    assert done.returncode == 128 + signum
    assert done.stdout == b"before\n"
    assert_no_traceback(done.stderr)


def test_command_not_found_is_127_with_one_line():
    done = headroom("--", "no-such-cmd-for-headroom-tests")
    assert done.returncode == 127
    assert done.stdout == b""
    assert done.stderr.decode().count("\n") == 1
    assert "no-such-cmd-for-headroom-tests: command not found" in done.stderr.decode()


def test_not_executable_is_126_with_one_line(tmp_path):
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o644)
    done = headroom("--", str(script))
    assert done.returncode == 126
    assert done.stderr.decode().count("\n") == 1
    assert "cannot execute" in done.stderr.decode()


def test_a_directory_is_not_executable_and_says_so_as_a_shell_does(tmp_path):
    done = headroom("--", str(tmp_path))
    assert done.returncode == 126
    assert_no_traceback(done.stderr)
    shell = subprocess.run(["bash", "-c", f"{tmp_path}"], capture_output=True)
    assert shell.returncode == 126 and b"Is a directory" in shell.stderr  # the reference
    assert done.stderr.decode() == f"headroom: {tmp_path}: Is a directory\n"


def test_a_missing_interpreter_is_126_not_127(tmp_path):
    script = tmp_path / "script"
    script.write_text("#!/no/such/interpreter\n")
    script.chmod(0o755)
    done = headroom("--", str(script))
    assert done.returncode == 126
    assert "bad interpreter" in done.stderr.decode()


def test_nothing_after_the_separator_is_a_usage_error():
    done = headroom("--")
    assert done.returncode == 2
    assert "nothing to run" in done.stderr.decode()


def test_runs_no_shell():
    done = headroom("--", sys.executable, "-c", "import sys; print(sys.argv[1:])", "$HOME", "*")
    assert done.stdout == b"['$HOME', '*']\n"


# --- the output -----------------------------------------------------------------------------

def test_stdout_and_stderr_merge_in_the_order_written():
    done = headroom(*child(
        "import os\n"
        "for i in range(200):\n"
        "    os.write(1, b'out %d\\n' % i)\n"
        "    os.write(2, b'err %d\\n' % i)\n"), "--budget", "0")
    expected = b"".join(b"out %d\nerr %d\n" % (i, i) for i in range(200))
    assert done.stdout == expected
    assert done.stderr == b""


def test_output_that_fits_passes_through_byte_for_byte():
    payload = bytes(range(1, 256)) + b"\n\xff\xfe not utf-8\n"
    done = headroom(*child(f"import sys; sys.stdout.buffer.write({payload!r})"))
    assert done.stdout == payload


def test_a_failed_clipped_run_says_its_status_in_the_marker():
    done = headroom("--budget", "200",
                    *child("import sys\nfor i in range(3000): print('line', i)\nsys.exit(1)"))
    assert done.returncode == 1
    text = done.stdout.decode()
    assert "The command exited with status 1." in text
    assert "of this Bash output omitted" in text  # --tool defaults to Bash here
    assert re.search(r"headroom show [0-9a-f]{12} --lines \d+:\d+", text)


def test_a_clipped_run_killed_by_a_signal_says_so():
    done = headroom("--budget", "200", *child(
        "import os, signal\nfor i in range(3000): print('line', i)\n"
        "os.kill(os.getpid(), signal.SIGTERM)"))
    assert done.returncode == 143
    assert "The command exited with status 143." in done.stdout.decode()


def test_a_daemon_holding_the_pipe_does_not_hold_headroom(tmp_path):
    # The child starts a grandchild that keeps the output pipe open, prints its pid and exits.
    pid_file = tmp_path / "grandchild.pid"
    code = (
        "import subprocess, sys\n"
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(p.pid))\n"
        "print('started', flush=True)\n")
    try:
        done = headroom(*child(code))
        assert done.returncode == 0
        assert done.stdout == b"started\n"
    finally:
        if pid_file.exists():
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


# --- stdin ------------------------------------------------------------------------------------

def test_stdin_passes_through_to_the_command():
    done = headroom(*child("import sys; sys.stdout.write(''.join(sorted(sys.stdin)))"),
                    input=b"b\na\n")
    assert done.stdout == b"a\nb\n"
    assert done.returncode == 0


@pytest.mark.skipif(not os.path.exists("/usr/bin/sort") and not os.path.exists("/bin/sort"),
                    reason="no sort(1)")
def test_stdin_passes_through_to_sort():
    done = headroom("--", "sort", input=b"b\na\n")
    assert done.stdout == b"a\nb\n"


def test_a_terminal_on_stdin_stays_the_commands_terminal():
    primary, secondary = os.openpty()
    try:
        done = subprocess.run(
            [*HEADROOM, *child("import os; print('tty' if os.isatty(0) else 'not a tty')")],
            stdin=secondary, capture_output=True, timeout=HANG_GUARD)
    finally:
        os.close(secondary)
        os.close(primary)
    assert done.stdout == b"tty\n"
    assert done.returncode == 0


# --- signals ------------------------------------------------------------------------------------

# Each of SIGINT, SIGTERM and SIGHUP passed on to the command, with the output kept: in
# test_signal_delivery.py (with its stress option).


def wait_for(path: Path, process: subprocess.Popen) -> None:
    """Until the child has started (a hang guard, not a timing assumption)."""
    deadline = time.monotonic() + HANG_GUARD
    while not path.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"the child never started: {process.communicate()}")
        time.sleep(0.01)


def test_output_printed_before_a_signal_is_still_clipped_and_stored(tmp_path):
    code = ("import os, signal, sys, time\n"
            "for i in range(3000): print('line', i)\n"
            "sys.stdout.flush()\n"
            "open(sys.argv[1], 'w').close()\n"
            "time.sleep(600)\n")
    ready = tmp_path / "ready"
    process = subprocess.Popen(
        [*HEADROOM, "--budget", "200", "--", sys.executable, "-c", code, str(ready)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True)
    wait_for(ready, process)
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 143
    text = stdout.decode()
    assert text.startswith("line 0\n") and text.endswith("line 2999\n")
    assert "The command exited with status 143." in text
    item_id = re.search(r"headroom show ([0-9a-f]{12})", text).group(1)
    shown = headroom("show", item_id)
    assert shown.stdout == b"".join(b"line %d\n" % i for i in range(3000))


def test_a_signal_the_child_handles_leaves_its_own_status(tmp_path):
    # Blocked and waited for, not a handler around time.sleep (test_signal_delivery.py: why).
    code = ("import signal, sys\n"
            "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})\n"
            "open(sys.argv[1], 'w').close()\n"
            "signal.sigwait({signal.SIGTERM})\n"
            "print('cleaned up')\n")
    ready = tmp_path / "ready"
    process = subprocess.Popen(
        [*HEADROOM, "--", sys.executable, "-c", code, str(ready)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True)
    wait_for(ready, process)
    process.send_signal(signal.SIGTERM)
    stdout, _ = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 0
    assert stdout == b"cleaned up\n"


# --- stdin mode keeps working -------------------------------------------------------------------

def test_stdin_mode_small_input_passes_through():
    done = headroom(input=b"hi\n")
    assert (done.returncode, done.stdout, done.stderr) == (0, b"hi\n", b"")


def test_stdin_mode_clips_to_the_budget():
    data = b"".join(b"%d\n" % i for i in range(1, 5001))
    done = headroom("--budget", "100", input=data)
    assert done.returncode == 0
    assert b"[\xe2\x80\xa6headroom: " in done.stdout
    assert len(done.stdout) < 1000


def test_a_reader_that_closes_early_gets_141_and_no_traceback():
    process = subprocess.Popen([*HEADROOM, "--budget", "0"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    data = b"".join(b"%d\n" % i for i in range(1, 100001))
    # --budget 0 streams straight through, as cat does: it writes while we still feed it.
    feeder = threading.Thread(target=_feed_and_close, args=(process.stdin, data), daemon=True)
    feeder.start()
    assert process.stdout.readline() == b"1\n"
    process.stdout.close()  # far more than a pipe's buffer is still unwritten
    stderr = process.stderr.read()
    assert process.wait(timeout=HANG_GUARD) == 141
    assert_no_traceback(stderr)
    feeder.join(timeout=HANG_GUARD)


def _feed_and_close(stdin, data: bytes) -> None:
    try:
        stdin.write(data)
        stdin.close()
    except BrokenPipeError:
        pass  # the reader left first: that is the point
