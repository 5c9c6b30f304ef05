"""Runs one agent CLI against the scripted model server, both inside the caller's network
namespace (the tests start this under `unshare -n`: loopback only, nothing leaves the machine).

    python driver.py --agent AGENT --bin PATH --work DIR --log LOG --command CMD [...]

Brings loopback up, serves fake_model on 127.0.0.1, runs the agent in DIR/proj with HOME and
every state directory under DIR and telemetry off, and exits with the agent's status. What the
agent sent back as tool results is in LOG (JSON lines, see fake_model.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fake_model import MARKER, Script, serve  # noqa: E402

PROMPT = f"{MARKER}: run the scripted commands"


def loopback_up() -> None:
    ip = shutil.which("ip") or "/sbin/ip"
    done = subprocess.run([ip, "link", "set", "lo", "up"], capture_output=True)
    if done.returncode:
        sys.exit(f"cannot bring loopback up: {done.stderr.decode(errors='replace').strip()}")


def base_env(work: str, extra_path: list[str]) -> dict:
    home = os.path.join(work, "home")
    env = {
        "PATH": os.pathsep.join([*extra_path, "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": home, "TMPDIR": os.path.join(work, "tmp"), "TERM": "dumb", "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "HEADROOM_STORE": os.path.join(work, "store"),
    }
    os.makedirs(env["TMPDIR"], exist_ok=True)
    return env


def claude(args, port: int, env: dict) -> list[str]:
    env.update({
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}", "ANTHROPIC_API_KEY": "sk-e2e-dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
        "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1", "SHELL": shutil.which("bash") or "/bin/bash",
    })
    if os.geteuid() == 0:
        env["IS_SANDBOX"] = "1"  # as root, Claude Code refuses bypassPermissions without it
    return [args.bin, "-p", PROMPT, "--output-format", "json"]


def claude_sdk(args, port: int, env: dict) -> list[str]:
    """A Python harness on the Claude Agent SDK (claude_sdk_harness.py; --bin: its Python)."""
    claude(args, port, env)
    return [args.bin, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   "claude_sdk_harness.py"), PROMPT]


def pi(args, port: int, env: dict) -> list[str]:
    agent_dir = os.path.join(args.work, "pi-agent")
    os.makedirs(agent_dir, exist_ok=True)
    models = {"providers": {"e2e": {
        "baseUrl": f"http://127.0.0.1:{port}/v1", "api": "openai-completions",
        "apiKey": "e2e-dummy",
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
        "models": [{"id": "scripted"}]}}}
    with open(os.path.join(agent_dir, "models.json"), "w") as out:
        json.dump(models, out)
    env.update({"PI_CODING_AGENT_DIR": agent_dir, "PI_OFFLINE": "1", "PI_TELEMETRY": "0",
                "PI_SKIP_VERSION_CHECK": "1"})
    # HEADROOM_E2E_KEEP_SESSION: pi keeps its session file (under the agent dir's sessions/),
    # a real transcript for `headroom audit`'s fixtures (tests/audit/README.md).
    keep = os.environ.get("HEADROOM_E2E_KEEP_SESSION")
    return [args.bin, "-p", PROMPT, "--provider", "e2e", "--model", "scripted",
            *(() if keep else ("--no-session",))]


CODEX_CONFIG = """\
model = "scripted"
model_provider = "e2e"
check_for_update_on_startup = false

[model_providers.e2e]
name = "e2e"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "E2E_API_KEY"

[analytics]
enabled = false

[feedback]
enabled = false

# As on a machine whose home is not under /tmp: the store is writable only if made so.
[sandbox_workspace_write]
exclude_slash_tmp = true
exclude_tmpdir_env_var = true
"""


def codex(args, port: int, env: dict) -> list[str]:
    # "scripted" has no entry in Codex's model catalogue: its own cut is the smaller one,
    # 10,000 bytes (catalogue models: 10,000 tokens counted as bytes / 4).
    home = env.get("CODEX_HOME") or os.path.join(env["HOME"], ".codex")
    os.makedirs(home, exist_ok=True)
    with open(os.path.join(home, "config.toml"), "a") as out:
        out.write(CODEX_CONFIG.format(port=port))
    env.update({"CODEX_HOME": home, "E2E_API_KEY": "e2e-dummy"})
    return [args.bin, "exec", "--skip-git-repo-check", "--strict-config",
            "--dangerously-bypass-hook-trust", PROMPT]


def gemini(args, port: int, env: dict) -> list[str]:
    path = os.path.join(env["HOME"], ".gemini", "settings.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    settings = json.load(open(path)) if os.path.exists(path) else {}
    settings.update({"privacy": {"usageStatisticsEnabled": False},
                     "telemetry": {"enabled": False},
                     "security": {"auth": {"selectedType": "gemini-api-key"}}})
    with open(path, "w") as out:
        json.dump(settings, out)
    env.update({"GEMINI_API_KEY": "e2e-dummy", "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}",
                "GEMINI_TELEMETRY_ENABLED": "false",
                "GEMINI_CLI_TRUST_WORKSPACE": "true", "SHELL": shutil.which("bash") or "/bin/bash"})
    return [args.bin, "-p", PROMPT, "--output-format", "json"]


def opencode(args, port: int, env: dict) -> list[str]:
    # A provider of opencode's bundled @ai-sdk/openai-compatible: nothing is fetched. Keys a
    # test wrote first (an MCP server) are kept.
    path = os.path.join(env["XDG_CONFIG_HOME"], "opencode", "opencode.json")
    config = json.load(open(path)) if os.path.exists(path) else {}
    config.update({"$schema": "https://opencode.ai/config.json", "autoupdate": False,
              "share": "disabled", "model": "e2e/scripted",
              # `opencode run` rejects what would need asking; the matrix cds to /usr
              "permission": {"bash": "allow", "external_directory": "allow"},
              "provider": {"e2e": {"npm": "@ai-sdk/openai-compatible", "name": "e2e",
                                   "options": {"baseURL": f"http://127.0.0.1:{port}/v1",
                                               "apiKey": "e2e-dummy"},
                                   "models": {"scripted": {"name": "scripted"}}}}})
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as out:
        json.dump(config, out)
    env.update({"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
                "OPENCODE_DISABLE_SHARE": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
                "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1", "OPENCODE_DISABLE_CLAUDE_CODE": "1",
                "OPENCODE_DISABLE_EXTERNAL_SKILLS": "1",
                "SHELL": shutil.which("bash") or "/bin/bash"})
    return [args.bin, "run", "--model", "e2e/scripted", PROMPT]


def copilot(args, port: int, env: dict) -> list[str]:
    """GitHub Copilot CLI through its BYOK provider settings (no GitHub sign-in). Its npm
    binary unpacks its package into a cache on first start: one beside the install, shared by
    the runs, not one per test."""
    prefix = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(args.bin))))
    env.update({"COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{port}/v1",
                "COPILOT_PROVIDER_TYPE": "openai", "COPILOT_PROVIDER_API_KEY": "e2e-dummy",
                "COPILOT_MODEL": "scripted", "COPILOT_AUTO_UPDATE": "false",
                "XDG_CACHE_HOME": os.path.join(prefix, "cache"),
                "SHELL": shutil.which("bash") or "/bin/bash"})
    return [args.bin, "-p", PROMPT, "--allow-all-tools", "--no-auto-update"]


def droid(args, port: int, env: dict) -> list[str]:
    """Factory Droid through a `customModels` entry of its settings (kept beside the hook
    `headroom init droid` wrote there)."""
    path = os.path.join(env["HOME"], ".factory", "settings.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    settings = json.load(open(path)) if os.path.exists(path) else {}
    settings["customModels"] = [{"model": "scripted", "displayName": "e2e",
                                 "baseUrl": f"http://127.0.0.1:{port}/v1", "apiKey": "e2e-dummy",
                                 "provider": "generic-chat-completion-api",
                                 "maxOutputTokens": 1000}]
    with open(path, "w") as out:
        json.dump(settings, out)
    env.update({"FACTORY_API_KEY": "e2e-dummy", "SHELL": shutil.which("bash") or "/bin/bash"})
    return [args.bin, "exec", "--model", "custom:scripted", "--auto", "high", PROMPT]


def qwen(args, port: int, env: dict) -> list[str]:
    """Qwen Code through its OpenAI-compatible provider (OPENAI_BASE_URL), settings kept beside
    whatever hooks the test wrote there."""
    path = os.path.join(env["HOME"], ".qwen", "settings.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    settings = json.load(open(path)) if os.path.exists(path) else {}
    settings.update({"security": {"auth": {"selectedType": "openai"}},
                     "privacy": {"usageStatisticsEnabled": False},
                     "telemetry": {"enabled": False}})
    with open(path, "w") as out:
        json.dump(settings, out)
    env.update({"OPENAI_API_KEY": "e2e-dummy", "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1",
                "OPENAI_MODEL": "scripted", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
                "SHELL": shutil.which("bash") or "/bin/bash"})
    return [args.bin, "-p", PROMPT, "--approval-mode", "yolo", "--auth-type", "openai"]


def kilo(args, port: int, env: dict) -> list[str]:
    """Kilo CLI, opencode's fork: the same provider config under its own name and folder."""
    argv = opencode(args, port, env)
    source = os.path.join(env["XDG_CONFIG_HOME"], "opencode", "opencode.json")
    path = os.path.join(env["XDG_CONFIG_HOME"], "kilo", "kilo.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(source) as config, open(path, "w") as out:
        out.write(config.read().replace("https://opencode.ai/config.json",
                                        "https://app.kilo.ai/config.json"))
    os.unlink(source)
    env.update({key.replace("OPENCODE_", "KILO_"): value for key, value in env.items()
                if key.startswith("OPENCODE_")})
    env["KILO_DISABLE_CODEBASE_INDEXING"] = env["KILO_DISABLE_SESSION_INGEST"] = "1"
    return [args.bin, *argv[1:]]


HERMES_CONFIG = """\
model:
  default: scripted
  provider: custom
  base_url: http://127.0.0.1:{port}/v1
  api_key: e2e-dummy
plugins:
  enabled: [headroom]
# hermes keeps at most this many characters of an output before any plugin sees it (the
# first 40 %, the last 60 %): raised, as headroom's guide says, so the plugin sees it whole
tool_output:
  max_bytes: 2000000
"""


def hermes(args, port: int, env: dict) -> list[str]:
    """hermes-agent (PyPI; --bin: its `hermes` script) on the scripted OpenAI-compatible model."""
    home = os.path.join(env["HOME"], ".hermes")
    os.makedirs(home, exist_ok=True)
    with open(os.path.join(home, "config.yaml"), "w") as out:
        out.write(HERMES_CONFIG.format(port=port))
    env.update({"HERMES_HOME": home, "OPENAI_API_KEY": "e2e-dummy",
                "SHELL": shutil.which("bash") or "/bin/bash"})
    return [args.bin, "chat", "-Q", "--yolo", "-q", PROMPT]


AGENTS = {"hermes": (hermes, "terminal"), "kilo": (kilo, "bash"), "claude": (claude, "Bash"), "claude-sdk": (claude_sdk, "Bash"), "pi": (pi, "bash"), "codex": (codex, "exec_command"),
          "gemini": (gemini, "run_shell_command"), "opencode": (opencode, "bash")}
AGENTS.update({"copilot": (copilot, "bash"), "droid": (droid, "Execute"),
               "qwen": (qwen, "run_shell_command")})


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", choices=sorted(AGENTS), required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--command", action="append", required=True)
    parser.add_argument("--path", action="append", default=[],
                        help="directories to put first on the agent's PATH (node)")
    parser.add_argument("--agent-arg", action="append", default=[],
                        help="one more argument for the agent's command line")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--context-tokens", type=int, default=None,
                        help="the context the scripted model's replies report (Anthropic)")
    args = parser.parse_args()

    loopback_up()
    setup, tool = AGENTS[args.agent]
    server = serve(Script(args.command, tool, args.log, args.context_tokens))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    env = base_env(args.work, args.path)
    for name in ("CODEX_HOME",):
        if os.environ.get(name):
            env[name] = os.environ[name]
    argv = [*setup(args, port, env), *args.agent_arg]
    project = os.path.join(args.work, "proj")
    os.makedirs(project, exist_ok=True)
    with open(os.path.join(args.work, "agent.out"), "wb") as out, \
            open(os.path.join(args.work, "agent.err"), "wb") as err:
        done = subprocess.run(argv, cwd=project, env=env, stdin=subprocess.DEVNULL, stdout=out,
                              stderr=err, timeout=args.timeout)
    server.shutdown()
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
