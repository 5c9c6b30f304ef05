"""`headroom doctor`: each thing that stops headroom working here is caught, one line with its
fix, and the exit status says so. Run as the installed script, in a private home."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BIN = os.path.dirname(sys.executable)
HEADROOM_SCRIPT = os.path.join(BIN, "headroom")
SYSTEM_PATH = "/usr/bin:/bin"


@pytest.fixture
def home(tmp_path):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)  # Claude Code is set up here; no other agent is
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("HEADROOM_", "CLAUDE_", "CODEX_", "PI_CODING", "XDG_"))}
    env.update(HOME=str(home), PATH=f"{BIN}:{SYSTEM_PATH}")
    return home, env


def headroom(*args: str, env: dict, argv0: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*(argv0 or [HEADROOM_SCRIPT]), *args], env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def failures(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stdout.splitlines() if line.startswith("FAIL")]


def test_all_is_well_after_init(home):
    _, env = home
    init = headroom("init", "claude", env=env)
    assert init.returncode == 0, init.stderr
    # init ends with the agent's part of the doctor
    assert "ok    claude hook: installed in" in init.stdout and "FAIL" not in init.stdout
    done = headroom("doctor", env=env)
    assert done.returncode == 0, done.stdout
    subjects = [line.split()[1] for line in done.stdout.splitlines()]
    assert subjects == ["headroom", "claude", "claude", "claude", "store", "ledger",
                        "tokenizer", "config"]
    assert "info  claude last clip: none recorded" in done.stdout
    assert done.stderr == ""


def test_no_hook(home):
    _, env = home
    done = headroom("doctor", env=env)
    assert done.returncode == 1
    (line,) = failures(done)
    assert line.startswith("FAIL  claude hook: no headroom hook in ")
    assert line.endswith(f"fix: run `{HEADROOM_SCRIPT} init claude`")


def test_a_hook_that_runs_another_headroom(home):
    _, env = home
    # Installed by `python -m headroom_cli` with no headroom on PATH: the hook runs that.
    other = headroom("init", "claude", env={**env, "PATH": SYSTEM_PATH},
                     argv0=[sys.executable, "-m", "headroom_cli"])
    assert other.returncode == 0, other.stderr
    done = headroom("doctor", env=env)
    assert done.returncode == 1
    (line,) = failures(done)
    assert line.startswith("FAIL  claude hook: the hook in ")
    assert f"runs another headroom (or an older set-up), not {HEADROOM_SCRIPT}" in line
    assert headroom("init", "claude", env=env).returncode == 0  # the fix it names
    assert headroom("doctor", env=env).returncode == 0


def test_headroom_not_on_the_path_the_agent_gives_its_shell(home):
    home_dir, env = home
    settings = home_dir / ".claude" / "settings.json"
    settings.write_text(json.dumps({"env": {"PATH": SYSTEM_PATH}}))
    assert headroom("init", "claude", env=env).returncode == 0
    done = headroom("doctor", env=env)
    assert done.returncode == 1
    (line,) = failures(done)  # headroom is on the doctor's own PATH, not on Claude Code's
    assert line == (f"FAIL  claude PATH: `headroom` is not on the PATH Claude Code gives its "
                    f"shell — fix: add {BIN} to that PATH")


def test_another_program_named_headroom_first_on_path(home, tmp_path):
    _, env = home
    other = tmp_path / "other-bin"
    other.mkdir()
    script = other / "headroom"  # stands in for PyPI's headroom-ai console script
    script.write_text("#!/bin/sh\nexec python3 -m headroom_ai \"$@\"\n")
    script.chmod(0o755)
    env = {**env, "PATH": f"{other}:{env['PATH']}"}
    assert headroom("init", "claude", env=env).returncode == 0
    done = headroom("doctor", env=env)
    assert done.returncode == 1
    lines = failures(done)
    assert [line.split(":")[0] for line in lines] == ["FAIL  headroom PATH", "FAIL  claude PATH"]
    assert f"`headroom` on PATH is {script}: another program named headroom (PyPI's " \
           "headroom-ai installs one)" in lines[0]
    assert lines[0].endswith(f"fix: put {BIN} first on PATH, or remove the other one")


def test_an_unwritable_store(home, tmp_path):
    _, env = home
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = {**env, "HEADROOM_STORE": str(blocker / "store")}
    assert headroom("init", "claude", env=env).returncode == 0
    done = headroom("doctor", env=env)
    assert done.returncode == 1
    (line,) = failures(done)
    assert line.startswith(f"FAIL  store writable: cannot write in {blocker} ")
    assert "fix: make" in line and "HEADROOM_STORE" in line


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a read-only folder")
def test_a_read_only_store(home, tmp_path):
    _, env = home
    store = tmp_path / "store"
    store.mkdir(mode=0o500)
    done = headroom("doctor", env={**env, "HEADROOM_STORE": str(store)})
    assert any(line.startswith("FAIL  store writable") for line in failures(done))


def test_a_broken_config(home, tmp_path):
    _, env = home
    config = tmp_path / "config.toml"
    config.write_text("budget = [\n")
    env = {**env, "HEADROOM_CONFIG": str(config)}
    assert headroom("init", "claude", env=env).returncode == 0
    done = headroom("doctor", env=env)
    assert done.returncode == 1
    (line,) = failures(done)
    assert line.startswith(f"FAIL  config valid: {config}")
    assert line.endswith("fix: fix that line (`headroom config` shows every setting), or "
                         "remove the file")
    assert done.stdout.splitlines()[-1] == line and done.stderr == ""


def test_the_last_clip_comes_from_the_agents_own_sessions(home, tmp_path):
    home_dir, env = home
    assert headroom("init", "claude", env=env).returncode == 0
    project = home_dir / ".claude" / "projects" / "-work-proj"
    project.mkdir(parents=True)
    (project / "3f0c2d9e-aaaa.jsonl").write_text("")
    rows = "".join(f"row {n}\n" for n in range(20_000)).encode()
    for session in ("3f0c2d9e-aaaa", "someone-else"):
        clipped = subprocess.run(
            [HEADROOM_SCRIPT, "--budget", "500", "--session", session, "--tool", "Bash"],
            input=rows, env=env, capture_output=True, timeout=120)
        assert clipped.returncode == 0
    done = headroom("doctor", env=env)
    (line,) = [line for line in done.stdout.splitlines() if "last clip" in line]
    found = re.fullmatch(r"info  claude last clip: \d{4}-\d\d-\d\d \d\d:\d\d: a Bash output, "
                         r"([\d,]+) → ([\d,]+) tokens \(session 3f0c2d9e-aaaa\)", line)
    assert found, line  # the other session's clip, though later, is not Claude Code's
    before, after = (int(figure.replace(",", "")) for figure in found.groups())
    assert after <= 500 < 20_000 * 2 <= before


def test_opencodes_last_clip_comes_from_its_session_database(home, tmp_path):
    home_dir, env = home
    assert headroom("init", "opencode", env=env).returncode == 0  # ~/.config/opencode: found
    data = home_dir / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    database = data / "opencode.db"
    (database).write_bytes(b"not a database " * 100)
    broken = headroom("doctor", env=env)  # an unreadable database: no last clip, no traceback
    assert "info  opencode last clip: none recorded" in broken.stdout and broken.stderr == ""
    # A real opencode session (tests/audit/opencode-matrix.db) and a clip under its id
    database.write_bytes((Path(__file__).parent / "audit" / "opencode-matrix.db").read_bytes())
    rows = "".join(f"row {n}\n" for n in range(20_000)).encode()
    clipped = subprocess.run([HEADROOM_SCRIPT, "--budget", "500", "--session",
                              "ses_de5ee5046ffeiO3qbuGIl5wv73", "--tool", "bash"],
                             input=rows, env=env, capture_output=True, timeout=120)
    assert clipped.returncode == 0
    done = headroom("doctor", env=env)
    (line,) = [line for line in done.stdout.splitlines() if "opencode last clip" in line]
    assert line.endswith("(session ses_de5ee5046ffeiO3qbuGIl5wv73)"), line
