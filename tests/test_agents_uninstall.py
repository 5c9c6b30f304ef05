"""`headroom init AGENT --uninstall` in a fresh home leaves nothing behind, for every agent: when
init created the file, nothing of the user's was ever in it, so neither the file nor a backup of
it (which would hold only headroom's own entries) may remain. A reinstall from another headroom
(an upgrade that moved it) makes no backup of headroom's own entries either."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from headroom_cli.agents import AGENTS, config, load
from headroom_cli.agents.cli import init_command

# Variables that move an agent's configuration out of HOME: a fresh home has none of them.
AGENT_HOMES = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "PI_CODING_AGENT_DIR", "GEMINI_CLI_HOME",
               "COPILOT_HOME", "QWEN_HOME", "FACTORY_HOME")


@pytest.fixture
def fresh_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME",
                 *AGENT_HOMES):
        monkeypatch.delenv(name, raising=False)
    return home


def files_under(home: Path) -> list[str]:
    return sorted(str(Path(root, name).relative_to(home))
                  for root, _dirs, names in os.walk(home) for name in names)


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_uninstall_after_install_in_a_fresh_home_leaves_no_file(fresh_home, agent, capsys):
    assert init_command(agent, uninstall=False, dry_run=False, config_path=None) == 0
    assert files_under(fresh_home), "init wrote nothing"
    assert init_command(agent, uninstall=True, dry_run=False, config_path=None) == 0
    assert files_under(fresh_home) == []


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_reinstall_from_another_headroom_keeps_no_backup(fresh_home, agent, capsys):
    module = load(agent)
    path = module.default_path()
    out = open(os.devnull, "w")
    config.apply(module.install(path, ["/old/place/headroom"]), dry_run=False, out=out)
    config.apply(module.install(path, ["/new/place/headroom"]), dry_run=False, out=out)
    assert b"/new/place/headroom" in path.read_bytes()
    assert not path.with_name(path.name + config.BACKUP_SUFFIX).exists()
    config.apply(module.install(path, ["/new/place/headroom"], uninstall=True),
                 dry_run=False, out=out)
    assert files_under(fresh_home) == []
