"""`headroom init --help` names every agent as users say it, each name one that init takes."""

from __future__ import annotations

import re
import subprocess
import sys

from headroom_cli.agents import canonical


def test_init_help_lists_at_least_twelve_agents_by_names_init_takes():
    done = subprocess.run([sys.executable, "-m", "headroom_cli", "init", "--help"],
                          capture_output=True, text=True, timeout=60)
    table = re.search(r"AGENT is one of.*?\n\n(.*?)\n\n", done.stdout, re.S).group(1)
    rows = [re.match(r"\s+(\S.*?)\s{2,}(\S.*)", line).groups() for line in table.splitlines()]
    assert len(rows) >= 12
    for names, _what in rows:
        said = names.split(", ")
        assert {canonical(name) for name in said} == {said[0]}, names
    listed = {name for names, _ in rows for name in names.split(", ")}
    assert {"qwen-code", "github-copilot", "factory", "kilocode", "hermes-agent"} <= listed
