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


def tree(home: Path) -> dict[str, bytes | None]:
    """Every folder (None) and file (its bytes) under `home`."""
    entries: dict[str, bytes | None] = {}
    for root, dirs, names in os.walk(home):
        for name in dirs:
            entries[str(Path(root, name).relative_to(home)) + "/"] = None
        for name in names:
            entries[str(Path(root, name).relative_to(home))] = Path(root, name).read_bytes()
    return entries


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_uninstall_after_install_in_a_fresh_home_leaves_nothing(fresh_home, agent, capsys):
    assert init_command(agent, uninstall=False, dry_run=False, config_path=None) == 0
    assert files_under(fresh_home), "init wrote nothing"
    assert init_command(agent, uninstall=True, dry_run=False, config_path=None) == 0
    assert tree(fresh_home) == {}


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_uninstall_gives_back_a_home_byte_for_byte(fresh_home, agent, capsys):
    """A home where the agent's folder holds the user's own file (and an empty folder of
    theirs): after install and uninstall, every folder and byte is as it was."""
    folder = load(agent).default_path().parent
    while folder.parent != fresh_home:
        folder = folder.parent
    (folder / "keep").mkdir(parents=True)
    (folder / "notes.txt").write_bytes(b"the user's\n")
    before = tree(fresh_home)
    assert init_command(agent, uninstall=False, dry_run=False, config_path=None) == 0
    assert tree(fresh_home) != before
    assert init_command(agent, uninstall=True, dry_run=False, config_path=None) == 0
    assert tree(fresh_home) == before


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_reinstall_from_another_headroom_keeps_no_backup(fresh_home, agent, capsys):
    module = load(agent)
    path = module.default_path()
    out = open(os.devnull, "w")
    config.apply(module.install(path, ["/old/place/headroom"]), dry_run=False, out=out)
    config.apply(module.install(path, ["/new/place/headroom"]), dry_run=False, out=out)
    written = [fresh_home / name for name in files_under(fresh_home)]
    # the hook names the new headroom (Qwen Code's settings name a script that does)
    assert any(b"/new/place/headroom" in file.read_bytes() for file in written)
    assert not any(file.name.endswith(config.BACKUP_SUFFIX) for file in written)
    config.apply(module.install(path, ["/new/place/headroom"], uninstall=True),
                 dry_run=False, out=out)
    assert files_under(fresh_home) == []
