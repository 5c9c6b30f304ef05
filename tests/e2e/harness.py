"""Helpers for the end-to-end tests, which run the real agent CLIs (from npm) against a
scripted model on 127.0.0.1, inside a network namespace with only loopback. Marked `e2e` and
left out of the default run (pyproject's addopts): `python -m pytest -m e2e`. They skip,
saying why, when npm, a package or `unshare` is not available.

The CLIs are installed once, each into its own $HEADROOM_E2E_DIR/<agent> (default
~/.cache/headroom-e2e/<agent>) with `npm install --prefix`, pinned to the versions the
integration was checked against (HEADROOM_E2E_<AGENT>_VERSION picks another, e.g.
HEADROOM_E2E_CODEX_VERSION=0.170.0).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
# agent: (npm package, the version checked, its command)
PINNED = {
    "claude": ("@anthropic-ai/claude-code", "2.1.330", "claude"),
    "codex": ("@openai/codex", "0.169.0", "codex"),
    "gemini": ("@google/gemini-cli", "0.61.0", "gemini"),
    "opencode": ("opencode-ai", "1.18.33", "opencode"),
    "pi": ("@mariozechner/pi-coding-agent", "0.73.1", "pi"),
    # 7.8.1, the newest, ships no linux-x64 binary package: 7.7.7 is the newest that installs
    "kilo": ("@kilocode/cli", "7.7.7", "kilo"),
}
PINNED.update({"copilot": ("@github/copilot", "1.0.102", "copilot"),
               "droid": ("droid", "0.215.0", "droid"),
               "qwen": ("@qwen-code/qwen-code", "0.24.4", "qwen")})
# An MCP server from npm, for the proxy's conformance runs (test_e2e_mcp.py, and Claude Code
# through `headroom init mcp` in test_e2e_claude_code.py).
EVERYTHING = ("@modelcontextprotocol/server-everything", "2026.8.31", "mcp-server-everything")
PACKAGES = {agent: (package, os.environ.get(f"HEADROOM_E2E_{agent.upper()}_VERSION", version),
                    command) for agent, (package, version, command) in PINNED.items()}


def install_dir() -> Path:
    configured = os.environ.get("HEADROOM_E2E_DIR")
    if configured:
        return Path(configured).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "headroom-e2e"


def _installed_version(prefix: Path, package: str) -> str | None:
    try:
        manifest = prefix / "node_modules" / package / "package.json"
        return json.loads(manifest.read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def agent_bin(agent: str) -> Path:
    """The agent's CLI, installed if needed; skips the test when that is not possible."""
    return npm_bin(agent, *PACKAGES[agent])


def npm_bin(name: str, package: str, version: str, command: str) -> Path:
    """`command` of the npm package, installed if needed into its own prefix `name`; skips
    the test when that is not possible."""
    npm = shutil.which("npm")
    prefix = install_dir() / name
    binary = prefix / "node_modules" / ".bin" / command
    if binary.exists() and _installed_version(prefix, package) == version:
        return binary
    if npm is None:
        pytest.skip(f"npm is not installed: cannot install {package}@{version}")
    prefix.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run([npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
                               "--loglevel=error", f"{package}@{version}"],
                              capture_output=True, timeout=1200, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as err:
        pytest.skip(f"npm install {package}@{version} failed: {err}")
    _skip_unless_installed(done, binary, f"npm install {package}@{version}")
    return binary


# agent: (PyPI package, the version checked, its command), each in its own venv
PINNED_PYPI = {"hermes": ("hermes-agent", "0.19.0", "hermes")}


def pypi_bin(name: str) -> Path:
    """`command` of the pinned PyPI package, installed if needed into its own venv
    $HEADROOM_E2E_DIR/NAME; skips the test when that is not possible."""
    package, version, command = PINNED_PYPI[name]
    version = os.environ.get(f"HEADROOM_E2E_{name.upper()}_VERSION", version)
    prefix = install_dir() / name
    binary, python = prefix / "bin" / command, prefix / "bin" / "python"
    if binary.exists():
        done = subprocess.run([str(python), "-c", "import importlib.metadata as m; "
                               f"print(m.version({package!r}))"], capture_output=True)
        if done.stdout.decode().strip() == version:
            return binary
    try:
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(prefix)], check=True,
                           capture_output=True, timeout=300)
        done = subprocess.run([str(python), "-m", "pip", "install", "-q",
                               f"{package}=={version}"], capture_output=True, timeout=1200,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as err:
        pytest.skip(f"pip install {package}=={version} failed: {err}")
    _skip_unless_installed(done, binary, f"pip install {package}=={version}")
    return binary


def _skip_unless_installed(done: subprocess.CompletedProcess, binary: Path, what: str) -> None:
    """Skips the test, with the installer's last lines, when `what` left no `binary`."""
    if done.returncode or not binary.exists():
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-3:]
        pytest.skip(f"{what} failed: {' / '.join(tail)}")


def unshare_argv() -> list[str]:
    """How to enter a new network namespace with a working loopback; skips when impossible."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("unshare is not installed (util-linux)")
    ip = shutil.which("ip") or ("/sbin/ip" if os.path.exists("/sbin/ip") else None)
    if ip is None:
        pytest.skip("ip (iproute2) is not installed: cannot bring loopback up")
    candidates = [[unshare, "-n"]] if os.geteuid() == 0 else [[unshare, "-rn"], [unshare, "-n"]]
    for argv in candidates:
        try:
            done = subprocess.run([*argv, ip, "link", "set", "lo", "up"], capture_output=True,
                                  timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return argv
    pytest.skip("unshare -n is not permitted here (needs root or user namespaces)")


@dataclass
class Run:
    status: int
    tool_results: list[dict]  # what the agent sent back, in order: {"text", "is_error"}
    work: Path
    env: dict


def run_installed(agent: str, commands: list[str], work: Path, env: dict,
                  agent_args: tuple[str, ...] = ()) -> Run:
    """`headroom init AGENT` in the private home, then the agent's run of `commands`."""
    done = headroom("init", agent, env=env)
    assert done.returncode == 0, done.stderr
    return run_agent(agent, commands, work, env, agent_args=agent_args)


def run_agent(agent: str, commands: list[str], work: Path, env: dict,
              agent_args: tuple[str, ...] = (), context_tokens: int | None = None,
              binary: Path | None = None) -> Run:
    """`binary`: the agent's program when it is not an npm package (the SDK harnesses)."""
    binary = binary or agent_bin(agent)
    namespace = unshare_argv()
    log = work / "log.jsonl"
    node_dir = os.path.dirname(shutil.which("node") or "")
    argv = [*namespace, sys.executable, str(HERE / "driver.py"), "--agent", agent,
            "--bin", str(binary), "--work", str(work), "--log", str(log)]
    if node_dir:
        argv += ["--path", node_dir]
    # headroom's own directory first: the hooks the installer wrote name it by absolute path,
    # but a PATH lookup must find the same one.
    argv += ["--path", os.path.dirname(sys.executable)]
    for command in commands:
        argv += ["--command", command]
    for arg in agent_args:
        argv.append(f"--agent-arg={arg}")
    if context_tokens is not None:  # what the scripted model's replies say of the context
        argv += ["--context-tokens", str(context_tokens)]
    done = subprocess.run(argv, capture_output=True, timeout=600, stdin=subprocess.DEVNULL,
                          env=dict(os.environ, **env))
    entries = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    results = entries[-1]["tool_results"] if entries else []
    if done.returncode != 0 or len(results) < len(commands):
        err = (work / "agent.err").read_text(errors="replace") if (work / "agent.err").exists() \
            else ""
        raise AssertionError(f"{agent} run failed (status {done.returncode}); driver: "
                             f"{done.stderr.decode(errors='replace')[-2000:]} agent: {err[-2000:]}"
                             f" results: {results}")
    return Run(done.returncode, results, work, env)


@pytest.fixture
def e2e_home(tmp_path):
    """A private HOME and store for one agent run (the real home is never touched)."""
    work = tmp_path / "work"
    home = work / "home"
    home.mkdir(parents=True)
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_STATE_HOME": str(home / ".local" / "state"),
           "XDG_DATA_HOME": str(home / ".local" / "share"),
           "XDG_CACHE_HOME": str(home / ".cache"), "HEADROOM_STORE": str(work / "store")}
    return work, env


def headroom(*args: str, env: dict) -> subprocess.CompletedProcess:
    full_env = {key: value for key, value in os.environ.items()
                if not key.startswith(("HEADROOM_", "CLAUDE_", "PI_CODING"))}
    full_env.update(env)
    return subprocess.run([sys.executable, "-m", "headroom_cli", *args], capture_output=True,
                          env=full_env, timeout=120, stdin=subprocess.DEVNULL)


def run_interactive(commands: list[str], work: Path, env: dict, answer: str,
                    agent_args: tuple[str, ...] = ()) -> int:
    """Claude Code in a tmux session (interactive.py) answering each permission prompt with
    `answer`; the number of prompts it showed (each saved as work/prompt_N.txt)."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    binary = agent_bin("claude")
    argv = [*unshare_argv(), sys.executable, str(HERE / "interactive.py"), "--bin", str(binary),
            "--work", str(work), "--answer", answer,
            "--path", os.path.dirname(shutil.which("node") or ""),
            "--path", os.path.dirname(sys.executable)]
    for command in commands:
        argv += ["--command", command]
    done = subprocess.run([*argv, "--", *agent_args], capture_output=True, timeout=300,
                          stdin=subprocess.DEVNULL, env=dict(os.environ, **env))
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    return json.loads(done.stdout.decode().strip().splitlines()[-1])["prompts"]


def tool_results(work: Path) -> list[dict]:
    """What the scripted model was sent back, in order (see fake_model.py)."""
    entries = (work / "log.jsonl").read_text().splitlines()
    return json.loads(entries[-1])["tool_results"] if entries else []
