"""The command wrapper that Claude Code, Codex and Gemini CLI hooks put around a shell command:
the command must behave exactly as it would unwrapped — directory, variables, stdin, exit
status — with only its output clipped."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys

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
    # The job outlives any hang guard: had it held the wrapper open, run() would time out.
    done = run(wrapped("sleep 100000 & echo started $!"))
    words = done.stdout.split()
    os.kill(int(words[1]), signal.SIGKILL)
    assert words[0] == b"started"


def test_the_byte_cap_holds():
    done = run(wrapped("seq 1 50000", budget=100_000, max_bytes=5000))
    assert 0 < len(done.stdout) <= 5000 and b"headroom:" in done.stdout


def test_invalid_utf8_is_carried_through():
    done = run(wrapped(r"printf 'caf\351\n'"))
    assert done.stdout == b"caf\xe9\n"


@pytest.mark.parametrize("command", [
    "exec ls", "trap 'x' EXIT", "ls; builtin exec bash", "\\exec ls", "echo $(trap '' INT)",
    "return 1", "eval \"$CMD\"", "for f in *; do exec x; done", "git diff > x.patch", "make >> build.log 2>&1", "ls &> all.txt",
    "cat <<EOF > file\nx\nEOF", "   ", "",
])
def test_commands_left_as_written(command):
    assert shell.reason_not_to_wrap(command) is not None


@pytest.mark.parametrize("command", [
    "ls | xargs echo", "make 2>&1 | tail -50", "grep -rn foo . 2>/dev/null", "ls >/dev/null",
    "echo 'a > b'", "cmd 2>err.log", "diff <(ls a) <(ls b)", "echo hi >&2", "python -c 'x'",
    "make test; exit 3", "set -e; make", "set -euo pipefail; x", "rg -n exit src/",
    "seq 1 9 | grep -v exit", 'git commit -m "exit"', "echo exec trap return eval",
    "cat <<'EOF' | wc -l\nexec > x\nEOF", "grep -rn 'trap ' . | head",
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
        assert path != shell.new_output_file()
    finally:
        for made in tmp_path.glob("headroom-*.out"):
            made.unlink()


def test_a_missing_tmpdir_falls_back_to_mkstemps_choice(tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setenv("TMPDIR", str(tmp_path / "gone"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where mkstemp then looks
    path = shell.new_output_file()
    assert os.path.dirname(path) == str(tmp_path) and os.stat(path).st_size == 0
    os.unlink(path)


# --- the wrapper keeps what the shell does: the same run with and without it ---------------
#
# Claude Code runs a command as `… && eval CMD && pwd -P >| CWDFILE` (read in the installed
# 2.1.330): the directory is recorded only when CMD succeeded and the shell did not exit.

AGENT_SHELL = 'cd "$1" && eval "$2" && pwd -P >| "$1/cwd"'


def agent_run(command: str, directory, sh: str = "bash"):
    (directory / "cwd").unlink(missing_ok=True)
    (directory / "sub").mkdir(exist_ok=True)
    done = subprocess.run([sh, "-c", AGENT_SHELL, "agent", str(directory), command],
                          capture_output=True, timeout=120)
    recorded = (directory / "cwd").read_text().strip() if (directory / "cwd").exists() else None
    return done.returncode, done.stdout, recorded


SAME_RUN = [
    "echo hi; exit 3",
    "cd sub && echo moved",
    "cd sub; echo moved; exit 0",
    "cd sub && false",
    "echo a; set -e; false; echo never",
    "f() { echo in-f; exit 4; }; f; echo never",
    "(exit 5); echo after-subshell",
    "echo 'exit' \"exec\" trap; grep -c exit <<'EOF'\nexit 1\nnot this\nEOF",
    "x=1 && cd sub && echo \"x=$x\" | tr x y && exit 2",
    "true || exit 9; echo kept",
    "logout 2>/dev/null; echo 'not a login shell'",
]


@pytest.mark.parametrize("sh", SHELLS)
@pytest.mark.parametrize("command", SAME_RUN)
def test_a_small_output_runs_exactly_as_unwrapped(command, sh, tmp_path):
    assert agent_run(wrapped(command), tmp_path, sh) == agent_run(command, tmp_path, sh)


@pytest.mark.parametrize("sh", SHELLS)
def test_a_command_that_exits_is_clipped_with_its_status_and_its_end(sh, tmp_path):
    command = ('for i in $(seq 1 3000); do echo "line $i of the build"; done; '
               'echo "error: FAILED at the end" >&2; exit 3')
    status, out, recorded = agent_run(wrapped(command), tmp_path, sh)
    assert status == 3 and recorded is None  # the shell exited, as it would have
    text = out.decode()
    assert "headroom:" in text and "The command exited with status 3." in text
    assert text.rstrip().endswith("error: FAILED at the end")
    assert not list(tmp_path.glob("headroom-*.out"))


@pytest.mark.parametrize("sh", SHELLS)
def test_set_e_and_a_failure_are_clipped_with_the_status(sh):
    # At the top level (in Claude Code's `… && eval CMD` set -e has no effect, with or
    # without the wrapper: SAME_RUN covers that).
    done = run(wrapped("set -e; seq 1 20000; false; echo never"), sh)
    assert done.returncode == 1 and b"headroom:" in done.stdout and b"never" not in done.stdout


def test_a_filter_path_with_spaces_and_quotes_works_in_the_trap(tmp_path):
    link = tmp_path / "it's a dir"
    link.mkdir()
    script = link / "head room"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m headroom_cli "$@"\n')
    script.chmod(0o755)
    argv = [str(script), "hook", "filter", "--budget", "100"]
    done = run(shell.wrap_checked("seq 1 5000; exit 3", argv))
    assert done.returncode == 3 and b"headroom:" in done.stdout


def test_exec_runs_as_written_and_behaves_as_exec(tmp_path):
    # exec replaces the shell: no trap would run, so the command is left unwrapped — and
    # unwrapped, what follows it never runs.
    assert shell.reason_not_to_wrap("exec echo replaced; echo never") is not None
    status, out, recorded = agent_run("exec echo replaced; echo never", tmp_path)
    assert (status, out, recorded) == (0, b"replaced\n", None)
    # exec as a word in an argument is no exec: wrapped, and runs as without headroom.
    command = "echo exec; printf '%s\\n' 'exec ls'"
    assert agent_run(wrapped(command), tmp_path) == agent_run(command, tmp_path)
