"""The command wrapper that Claude Code, Codex and Gemini CLI hooks put around a shell command:
the command must behave exactly as it would unwrapped — directory, variables, stdin, exit
status — with only its output clipped."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from headroom_cli.agents import shell

SHELLS = [name for name in ("bash", "zsh", "dash") if shutil.which(name)]
HEADROOM = [sys.executable, "-m", "headroom_cli"]


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path, monkeypatch):
    # The filter stores clipped outputs and the wrapper makes a temporary file: both here.
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)


def wrapped(command: str, budget: int = 200, max_bytes: int | None = None) -> str:
    argv = [*HEADROOM, "hook", "filter", "--budget", str(budget), "--tool", "Bash"]
    if max_bytes:
        argv += ["--max-bytes", str(max_bytes)]
    text = shell.wrap_checked(command, argv)
    assert text is not None, command
    return text


def run(script: str, sh: str = "bash", stdin: bytes = b"", cwd=None):
    return subprocess.run([sh, "-c", script], input=stdin, capture_output=True, cwd=cwd,
                          timeout=120)


@pytest.mark.parametrize("sh", SHELLS)
def test_a_long_failing_output_is_clipped_and_keeps_its_status_and_its_end(sh, tmp_path):
    command = ('for i in $(seq 1 3000); do echo "line $i of the build"; done; '
               'echo "error: the build FAILED at the end" >&2; false')
    done = run(wrapped(command), sh)
    assert done.returncode == 1
    out = done.stdout.decode()
    assert "headroom:" in out and "The command exited with status 1." in out
    assert out.rstrip().endswith("error: the build FAILED at the end")
    assert len(out) < 3000 * 20
    assert not list(tmp_path.glob("headroom-*.out"))  # the output file is gone


@pytest.mark.parametrize("sh", SHELLS)
def test_cd_variables_and_functions_stay_in_the_shell(sh, tmp_path):
    (tmp_path / "sub").mkdir()
    script = wrapped("cd sub && X=42 && seq 1 2000") + '\necho "after: $(pwd) X=$X"'
    done = run(script, sh, cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.decode().rstrip().endswith(f"after: {tmp_path / 'sub'} X=42")


@pytest.mark.parametrize("sh", SHELLS)
def test_the_status_is_the_commands_for_the_next_command(sh):
    done = run(wrapped("seq 1 5; (exit 3)") + " && echo next-ran || echo status=$?", sh)
    assert done.stdout.decode().splitlines()[-1] == "status=3"
    done = run(wrapped("true") + " && echo next-ran", sh)
    assert done.stdout.decode().splitlines()[-1] == "next-ran"


@pytest.mark.parametrize("sh", SHELLS)
def test_stdin_reaches_the_command(sh):
    done = run(wrapped("sort -r"), sh, stdin=b"a\nc\nb\n")
    assert done.stdout == b"c\nb\na\n" and done.returncode == 0


def test_small_output_passes_byte_for_byte():
    data = "ümlaut \x1b[31mred\x1b[0m\n\tlast line without newline"
    done = run(wrapped(f"printf '%s' '{data}'"))
    assert done.stdout == data.encode()


def test_heredocs_pipes_and_trailing_comments_work():
    command = "cat <<'EOF' | tr a-z A-Z\nhello $HOME\nEOF\n# a trailing comment"
    done = run(wrapped(command))
    assert done.stdout == b"HELLO $HOME\n"


def test_stderr_is_merged_in_order():
    done = run(wrapped("echo one; echo two >&2; echo three"))
    assert done.stdout == b"one\ntwo\nthree\n" and done.stderr == b""


def test_a_background_process_does_not_hold_the_wrapper_open():
    started = time.monotonic()
    done = run(wrapped("sleep 10 & echo started"))
    assert done.stdout == b"started\n"
    assert time.monotonic() - started < 8


def test_the_byte_cap_holds():
    done = run(wrapped("seq 1 50000", budget=100_000, max_bytes=5000))
    assert 0 < len(done.stdout) <= 5000 and b"headroom:" in done.stdout


def test_invalid_utf8_is_carried_through():
    done = run(wrapped(r"printf 'caf\351\n'"))
    assert done.stdout == b"caf\xe9\n"


@pytest.mark.parametrize("command", [
    "echo ok; exit 3", "set -e; make", "set -euo pipefail; x", "exec ls", "trap 'x' EXIT",
    "return 1", "git diff > x.patch", "make >> build.log 2>&1", "ls &> all.txt",
    "cat <<EOF > file\nx\nEOF", "   ", "",
])
def test_commands_left_as_written(command):
    assert shell.reason_not_to_wrap(command) is not None


@pytest.mark.parametrize("command", [
    "ls | xargs echo", "make 2>&1 | tail -50", "grep -rn foo . 2>/dev/null", "ls >/dev/null",
    "echo 'a > b'", "cmd 2>err.log", "diff <(ls a) <(ls b)", "echo hi >&2", "python -c 'x'",
])
def test_commands_that_are_wrapped(command):
    assert shell.reason_not_to_wrap(command) is None


def test_a_command_that_does_not_parse_is_left_as_written():
    assert shell.wrap_checked("echo 'unterminated", [*HEADROOM, "hook", "filter"]) is None
    assert shell.wrap_checked("if true; then echo", [*HEADROOM, "hook", "filter"]) is None
    assert shell.wrap_checked("echo continued \\", [*HEADROOM, "hook", "filter"]) is None


def test_no_output_file_is_left_behind_when_not_wrapped(tmp_path):
    shell.wrap_checked("echo 'unterminated", [*HEADROOM, "hook", "filter"])
    assert not list(tmp_path.glob("headroom-*.out"))


def test_the_wrapper_uses_no_command_substitution():
    # Gemini CLI refuses any command with $(…), backticks, <(…) or >(…).
    text = wrapped("seq 1 3")
    body_free = text.replace("seq 1 3", "")
    assert "$(" not in body_free and "`" not in body_free and "<(" not in body_free


def test_the_output_file_is_private(tmp_path):
    path = shell.new_output_file()
    try:
        assert os.stat(path).st_mode & 0o777 == 0o600
        assert os.path.dirname(path) == str(tmp_path)
    finally:
        os.unlink(path)
