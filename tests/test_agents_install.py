"""`headroom init AGENT`: each installer edits the agent's configuration idempotently (run twice
→ one entry), keeps a backup, leaves other settings alone, writes nothing on --dry-run, refuses
to touch a file it cannot understand, and never asks anything (it runs without a terminal)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from headroom_cli.agents import config
from headroom_cli.cli.agents import INIT_NAMES

HEADROOM = ["/opt/headroom/bin/headroom"]
# Variables that move an agent's configuration out of HOME (a private home has none of them).
AGENT_HOMES = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "PI_CODING_AGENT_DIR", "GEMINI_CLI_HOME",
               "COPILOT_HOME", "QWEN_HOME", "FACTORY_HOME", "HERMES_HOME", "CRUSH_GLOBAL_CONFIG")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A private HOME (and XDG and agent directories) for the installers."""
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_STATE_HOME": str(home / ".local/state"), "XDG_CACHE_HOME": str(home / ".cache")}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for name in AGENT_HOMES:
        monkeypatch.delenv(name, raising=False)
    return home


def cli(args, home: Path, stdin=subprocess.DEVNULL):
    env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_STATE_HOME=str(home / ".local/state"), XDG_CACHE_HOME=str(home / ".cache"))
    for name in AGENT_HOMES:
        env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "headroom_cli", *args], stdin=stdin,
                          capture_output=True, env=env, timeout=120)


def apply(module, path, uninstall=False):
    config.apply(module.install(path, HEADROOM, uninstall=uninstall), dry_run=False,
                 out=open(os.devnull, "w"))


JSON_AGENTS = [("claude", "PreToolUse", "Bash"), ("codex", "PreToolUse", "Bash"),
               ("gemini", "BeforeTool", "run_shell_command")]


def our_entries(settings: dict, event: str, agent: str) -> list:
    return [hook for group in settings.get("hooks", {}).get(event, [])
            for hook in group.get("hooks", []) if config.is_hook_command(hook.get("command"),
                                                                         agent)]


@pytest.mark.parametrize("agent,event,matcher", JSON_AGENTS)
def test_hook_installers_are_idempotent_and_keep_other_settings(home, tmp_path, agent, event,
                                                                matcher):
    from headroom_cli.agents import load

    module = load(agent)
    path = tmp_path / "settings.json"
    theirs = {"type": "command", "command": "my-own-hook.sh"}
    path.write_text(json.dumps({"model": "x", "hooks": {event: [
        {"matcher": matcher, "hooks": [theirs]}]}}))
    apply(module, path)
    first = path.read_bytes()
    apply(module, path)
    assert path.read_bytes() == first  # the second run changes nothing
    settings = json.loads(first)
    assert settings["model"] == "x"
    assert len(our_entries(settings, event, agent)) == 1
    groups = settings["hooks"][event]
    assert groups[0]["hooks"] == [theirs] and groups[-1]["matcher"] == matcher
    assert our_entries(settings, event, agent)[0]["command"] == \
        f"/opt/headroom/bin/headroom hook {agent}"
    backup = path.with_name(path.name + config.BACKUP_SUFFIX)
    assert json.loads(backup.read_text())["hooks"][event][0]["hooks"] == [theirs]
    apply(module, path, uninstall=True)
    assert json.loads(path.read_text()) == {"model": "x", "hooks": {event: [
        {"matcher": matcher, "hooks": [theirs]}]}}


@pytest.mark.parametrize("agent,event,matcher", JSON_AGENTS)
def test_reinstalling_replaces_an_entry_with_an_old_path_and_options(home, tmp_path, agent,
                                                                    event, matcher):
    from headroom_cli.agents import load

    path = tmp_path / "settings.json"
    old = {"type": "command", "command": f"/old/venv/bin/headroom hook {agent} --budget 9000"}
    path.write_text(json.dumps({"hooks": {event: [{"matcher": matcher, "hooks": [old]}]}}))
    apply(load(agent), path)
    settings = json.loads(path.read_text())
    assert [entry["command"] for entry in our_entries(settings, event, agent)] == \
        [f"/opt/headroom/bin/headroom hook {agent}"]
    assert len(settings["hooks"][event]) == 1


def test_uninstall_removes_a_file_that_only_init_wrote(home, tmp_path):
    from headroom_cli.agents import claude

    path = tmp_path / "settings.json"
    apply(claude, path)
    apply(claude, path, uninstall=True)
    assert not path.exists()


def test_gemini_settings_keep_their_comments(home, tmp_path):
    from headroom_cli.agents import gemini

    path = tmp_path / "settings.json"
    original = '{\n  // my theme\n  "ui": {"theme": "GitHub"}, /* more */ "x": "a//b"\n}\n'
    path.write_text(original)
    apply(gemini, path)
    text = path.read_text()
    assert text.startswith('{\n  // my theme\n  "ui": {"theme": "GitHub"}, /* more */ "x": "a//b"')
    settings = config.load_json(path, text.encode(), comments=True)
    assert settings["ui"] == {"theme": "GitHub"} and settings["x"] == "a//b"
    assert len(our_entries(settings, "BeforeTool", "gemini")) == 1
    assert settings["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"] == 30000  # milliseconds
    apply(gemini, path, uninstall=True)
    assert path.read_text() == original


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_a_broken_config_is_left_untouched(home, tmp_path, agent):
    path = tmp_path / "settings.json"
    path.write_text('{"hooks": [1, 2')
    done = cli(["init", agent, "--config", str(path)], home)
    assert done.returncode == 1
    assert b"not valid JSON" in done.stderr
    assert path.read_text() == '{"hooks": [1, 2'
    assert not path.with_name(path.name + config.BACKUP_SUFFIX).exists()


DEFAULT_FILES = {"claude": ".claude/settings.json", "codex": ".codex/hooks.json",
                 "gemini": ".gemini/settings.json",
                 "opencode": ".config/opencode/plugins/headroom.js",
                 "pi": ".pi/agent/extensions/headroom.ts",
                 "copilot": ".copilot/hooks/headroom.json", "droid": ".factory/settings.json",
                 "crush": ".config/crush/crush.json", "kilo": ".config/kilo/plugins/headroom.js",
                 "cursor": ".cursor/hooks.json", "hermes": ".hermes/plugins/headroom/__init__.py",
                 "qwen": ".qwen/settings.json"}


def test_every_agent_init_takes_has_its_default_file_here():
    assert sorted(DEFAULT_FILES) == sorted(INIT_NAMES)


@pytest.mark.parametrize("agent,relative", sorted(DEFAULT_FILES.items()))
def test_init_writes_the_agents_default_file_without_a_terminal(home, agent, relative):
    done = cli(["init", agent], home)  # stdin is /dev/null: nothing may be asked
    assert done.returncode == 0, done.stderr
    target = home / relative
    assert target.is_file()
    first = target.read_bytes()
    again = cli(["init", agent], home)
    assert again.returncode == 0 and b"already" in again.stdout
    assert target.read_bytes() == first
    gone = cli(["init", agent, "--uninstall"], home)
    assert gone.returncode == 0
    assert list(home.iterdir()) == []  # init made it all: nothing of it is left


@pytest.mark.parametrize("agent", sorted(INIT_NAMES))
def test_dry_run_shows_the_change_and_writes_nothing(home, agent):
    done = cli(["init", agent, "--dry-run"], home)
    assert done.returncode == 0, done.stderr
    assert b"would create" in done.stdout and b"dry run" in done.stdout
    assert f"hook {agent}".encode() in done.stdout or b'"hook", "' in done.stdout
    assert not any(path.is_file() for path in home.rglob("*"))


def test_unknown_agent_is_a_usage_error(home):
    done = cli(["init", "vim"], home)
    assert done.returncode == 2 and b"unknown agent" in done.stderr


def test_a_plugin_file_someone_else_wrote_is_left_alone(home):
    target = home / ".config/opencode/plugins/headroom.js"
    target.parent.mkdir(parents=True)
    target.write_text("export const Mine = async () => ({})\n")
    for args in (["init", "opencode"], ["init", "opencode", "--uninstall"]):
        done = cli(args, home)
        assert done.returncode == 1 and b"not written by headroom" in done.stderr
        assert target.read_text() == "export const Mine = async () => ({})\n"


def test_plugins_name_the_headroom_that_installed_them(home):
    from headroom_cli.agents import opencode, pi

    assert b'["/opt/headroom/bin/headroom"]' in opencode.plugin_source(HEADROOM)
    assert b'["/opt/headroom/bin/headroom"]' in pi.extension_source(HEADROOM)


def test_codex_says_when_config_toml_turns_hooks_off(home, tmp_path, capsys):
    from headroom_cli.agents import codex

    (tmp_path / "config.toml").write_text('model = "x"\n[features]\nhooks = false\n')
    codex.install(tmp_path / "hooks.json", HEADROOM)
    assert "turns Codex hooks off" in capsys.readouterr().out


def test_the_hook_command_names_an_absolute_headroom():
    argv = config.headroom_argv()
    assert os.path.isabs(argv[0])
    assert config.is_hook_command(config.hook_command("claude", argv), "claude")
    assert not config.is_hook_command("my-hook claude", "claude")
    assert not config.is_hook_command("headroom hook codex", "claude")


def test_a_symlinked_config_keeps_its_link(home, tmp_path):
    from headroom_cli.agents import claude

    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text("{}")
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    apply(claude, link)
    assert link.is_symlink()
    assert len(our_entries(json.loads(real.read_text()), "PreToolUse", "claude")) == 1
