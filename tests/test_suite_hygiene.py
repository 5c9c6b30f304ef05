"""The suite and the package metadata keep their promises: a missing corpus fails loudly, and
every file pyproject.toml names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import conftest

ROOT = Path(__file__).resolve().parents[1]


def test_a_missing_corpus_fails_loudly_instead_of_yielding_no_cases(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "CORPUS_DIR", tmp_path / "no-corpus")
    with pytest.raises(FileNotFoundError, match="no-corpus"):
        conftest.corpus_cases("log")


def test_every_file_pyproject_names_exists():
    import tomllib

    text = (ROOT / "pyproject.toml").read_text()
    data = tomllib.loads(text)
    hatch = data["tool"]["hatch"]
    named = {data["project"]["readme"], hatch["version"]["path"],
             *hatch["build"]["targets"]["wheel"]["shared-data"]}
    named |= set(re.findall(r"[\w./-]+\.md\b", text))  # documents named in comments too
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert not missing, missing


def test_the_readmes_install_commands_name_no_unpublished_package():
    """headroom is not on PyPI yet: every `pip install` in a command installs a path."""
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"^\s*(?:- )?(?:\S*/)?pip install (\S+)", readme, re.M)
    assert commands, "no install command found: the pattern is wrong"
    assert all(target.startswith((".", "/", "-e", "'.")) for target in commands), commands
