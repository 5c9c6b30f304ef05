"""The piped wrapper Codex's hook puts around a command (agents/piped.py): nothing is written
anywhere, the command runs as written, its status is the wrapper's, and only its output is
clipped."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom_cli.agents import piped

SHELLS = [name for name in ("bash", "zsh", "dash") if shutil.which(name)]
HEADROOM = [sys.executable, "-m", "headroom_cli"]


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()


def wrapped(command: str, budget: int = 200, max_bytes: int | None = None) -> str:
    argv = [*HEADROOM, "hook", "filter", "--budget", str(budget), "--tool", "Bash"]
    if max_bytes:
        argv += ["--max-bytes", str(max_bytes)]
    text = piped.wrap_checked(command, argv)
    assert text is not None, command
    return text


def run(script: str, sh: str = "bash", stdin: bytes = b"", cwd=None):
    return subprocess.run([sh, "-c", script], input=stdin, capture_output=True, cwd=cwd,
                          timeout=120)


@pytest.mark.parametrize("sh", SHELLS)
def test_a_long_failing_run_is_clipped_with_its_status_and_its_end(sh, tmp_path):
    command = ('for i in $(seq 1 3000); do echo "line $i of the build"; done; '
               'echo "error: the build FAILED at the end" >&2; exit 3')
    done = run(wrapped(command, max_bytes=8000), sh, cwd=tmp_path)
    assert done.returncode == 3
    out = done.stdout.decode()
    assert "The command exited with status 3." in out
    assert out.rstrip().endswith("error: the build FAILED at the end")
    assert len(out.encode()) <= 8000
    assert not list((tmp_path / "tmp").iterdir())  # no temporary file


@pytest.mark.parametrize("sh", SHELLS)
@pytest.mark.parametrize("command", [
    "printf 'no newline at the end'",
    "printf 'one\\ntwo\\n\\n'",
    "printf '\\x00\\x01\\xff bytes\\n'",
    "true",
    "echo \"it's 'quoted'\" | tr a-z A-Z && echo 'a|b' | cut -d'|' -f2",
    "cat <<'EOF'\nheredoc $HOME stays\n  indented\nEOF",
    "mkdir -p sub && cd sub && pwd | sed 's:.*/::'",
    "echo before; exit 0; echo never",
    "set -e; echo one; false; echo never",
    "exec echo replaced",
    "echo err >&2; echo out",
    "read line; echo \"got $line\"",
])
def test_output_that_fits_is_byte_for_byte_the_commands_own(sh, command, tmp_path):
    if sh == "dash" and "\\x" in command:
        pytest.skip("dash's printf has no \\x escapes")
    (tmp_path / "sub").mkdir(exist_ok=True)
    got = run(wrapped(command), sh, stdin=b"from stdin\n", cwd=tmp_path)
    expected = run(command + "\n", sh, stdin=b"from stdin\n", cwd=tmp_path)
    merged = subprocess.run([sh, "-c", "{ " + command + "\n} 2>&1"], input=b"from stdin\n",
                            capture_output=True, cwd=tmp_path, timeout=60)
    assert got.stdout == merged.stdout
    assert got.returncode == expected.returncode


@pytest.mark.parametrize("status", [0, 1, 3, 101, 255])
def test_the_wrappers_status_is_the_commands(status):
    assert run(wrapped(f"echo x; exit {status}")).returncode == status


def test_a_command_killed_by_a_signal_reports_it():
    assert run(wrapped("sh -c 'kill -TERM $$'")).returncode == 128 + 15


def test_the_filter_ignores_an_older_calls_status_line():
    old = piped.new_token()
    nonce = old.removeprefix(piped.STATUS_PREFIX)
    out = run(wrapped(f"printf '\\n%s%s 9\\n' headroom-stat us-{nonce}; echo after; exit 2"))
    assert out.returncode == 2
    assert out.stdout == f"\n{old} 9\nafter\n".encode()


@pytest.mark.parametrize("command", [
    "npm run dev &", "sleep 100 & echo started", "(server &)", "nohup x >/dev/null 2>&1 &",
    "make > build.log 2>&1", "git diff >> fix.patch", "echo 'unclosed", "",
    "echo headroom-status-abc",
])
def test_commands_left_exactly_as_written(command):
    assert piped.wrap_checked(command, [*HEADROOM, "hook", "filter"]) is None


@pytest.mark.parametrize("command", [
    "a && b", "a 2>&1 | b", "a >&2", "a &>/dev/null", "echo '&' \"&\" \\&", "a |& b",
    "exit 3", "grep -rn exit src/", "cd /tmp && ls",
])
def test_commands_that_are_wrapped(command):
    assert piped.reason_not_to_wrap(command) is None


def chunks_of(data: bytes, sizes: list[int]):
    stream = io.BytesIO(data)
    sizes = list(sizes)

    def read(limit: int) -> bytes:
        size = sizes.pop(0) if sizes else limit
        return stream.read(max(1, min(size, limit)))

    return read


@settings(max_examples=200, deadline=None)
@given(output=st.binary(max_size=300), after=st.binary(max_size=40),
       status=st.integers(0, 255), sizes=st.lists(st.integers(1, 50), max_size=40))
def test_read_until_status_splits_output_from_status_whatever_the_chunks(output, after,
                                                                        status, sizes):
    token = piped.new_token()
    stream = output + f"\n{token} {status}\n".encode() + after
    data, got = piped.read_until_status(chunks_of(stream, sizes), token)
    assert (data, got) == (output, status)


def test_an_input_without_its_status_line_is_all_output():
    data, status = piped.read_until_status(io.BytesIO(b"cut off\n").read, piped.new_token())
    assert (data, status) == (b"cut off\n", None)


def test_the_wrapper_needs_no_writable_directory(tmp_path):
    """As in Codex's read-only sandbox: no directory the wrapper could write to."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("needs root (unshare -m) to mount a read-only root")
    script = ("mount --bind / /mnt 2>/dev/null; mount -o remount,bind,ro / || exit 99; "
              + wrapped("seq 1 20000; exit 3", max_bytes=8000))
    env = dict(os.environ, HEADROOM_STORE="off")
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "bash", "-c", script],
                          capture_output=True, timeout=120, env=env)
    if done.returncode == 99:
        pytest.skip("cannot remount / read-only here")
    assert done.returncode == 3, done.stderr
    assert b"Read-only file system" not in done.stdout
    assert done.stdout.rstrip().endswith(b"20000") and b"headroom:" in done.stdout
