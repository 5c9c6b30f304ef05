"""Hints that run where the agent runs (issue #11, item 3): a hook names headroom in its
markers the way the agent started it (the absolute path `init` installed), so the hint works
with a PATH that has no headroom on it; `init` says when PATH does not find this headroom."""

from __future__ import annotations

import os
import re
import subprocess

from conftest import HEADROOM_SCRIPT

NO_HEADROOM_PATH = "/usr/bin:/bin"
OUTPUT = b"".join(b"row %d\n" % n for n in range(1, 3001))


def _env(tmp_path) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith("HEADROOM_")}
    env.update(PATH=NO_HEADROOM_PATH, HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), HEADROOM_STORE=str(tmp_path / "store"))
    return env


def test_without_headroom_on_path_the_hooks_hint_runs(tmp_path):
    env = _env(tmp_path)
    assert subprocess.run(["bash", "-c", "command -v headroom"], env=env,
                          capture_output=True).returncode != 0  # really not on PATH
    hooked = subprocess.run([HEADROOM_SCRIPT, "hook", "filter", "--budget", "300"],
                            input=OUTPUT, capture_output=True, env=env, timeout=120)
    assert hooked.returncode == 0
    hint = re.search(r"To retrieve: (\S+ show [0-9a-f]{12} --lines (\d+):(\d+))",
                     hooked.stdout.decode())
    assert hint, hooked.stdout[-400:]
    assert hint[1].startswith(HEADROOM_SCRIPT + " show ")
    followed = subprocess.run(["bash", "-c", hint[1]], capture_output=True, env=env, timeout=120)
    assert followed.returncode == 0, followed.stderr
    first, last = int(hint[2]), int(hint[3])
    assert followed.stdout == b"".join(OUTPUT.splitlines(keepends=True)[first - 1:last])


def test_the_command_line_still_says_plain_headroom(run_cli):
    out = run_cli(["--budget", "300"], OUTPUT).stdout.decode()
    assert "To retrieve: headroom show " in out


def test_init_warns_when_path_does_not_find_this_headroom(tmp_path):
    """init ends with the agent's part of `headroom doctor`: its PATH line says so, with the fix."""
    env = _env(tmp_path)
    done = subprocess.run([HEADROOM_SCRIPT, "init", "pi", "--config", str(tmp_path / "h.ts")],
                          capture_output=True, env=env, timeout=120)
    assert done.returncode == 0 and done.stderr == b""
    lines = done.stdout.decode().splitlines()
    assert f"ok    pi hook: installed in {tmp_path / 'h.ts'}, runs {HEADROOM_SCRIPT}" in lines
    (warning,) = [line for line in lines if line.startswith("FAIL")]
    assert "pi PATH: `headroom` is not on the PATH pi gives its shell" in warning
    assert f"fix: add {os.path.dirname(HEADROOM_SCRIPT)} to that PATH" in warning
    with_path = subprocess.run(
        [HEADROOM_SCRIPT, "init", "pi", "--config", str(tmp_path / "h2.ts")], capture_output=True,
        env={**env, "PATH": f"{os.path.dirname(HEADROOM_SCRIPT)}:{NO_HEADROOM_PATH}"},
        timeout=120)
    assert with_path.returncode == 0 and with_path.stderr == b""
    assert "FAIL" not in with_path.stdout.decode()
