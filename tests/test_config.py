"""The config file: parsing, checks that name the file and line, and precedence."""

from __future__ import annotations

import pytest

from headroom_cli.config import DEFAULTS, ConfigError, parse, resolve

GOOD = """\
budget = 6000
encoding = "estimate"

[store]
max_age_days = 3

[tools.bash]
budget = 8000
head_share = 0.5
"""


def test_values_tools_and_lines_are_read():
    config = parse(GOOD, "/cfg.toml")
    assert config.values == {"budget": 6000, "encoding": "estimate", "store.max_age_days": 3.0}
    assert config.tools == {"Bash": {"budget": 8000, "head_share": 0.5}}
    assert config.where("store.max_age_days") == "/cfg.toml:5"
    assert config.where("tools.bash.head_share") == "/cfg.toml:9"


@pytest.mark.parametrize("text, line, words", [
    ("budget = 10\nbudgte = 3\n", 2, "unknown setting 'budgte'"),
    ("budget = -1\n", 1, "whole number"),
    ('budget = "lots"\n', 1, "whole number"),
    ('\n\nformat = "yaml"\n', 3, "one of text, markdown, json"),
    ("[tools.Nope]\nbudget = 1\n", 2, "unknown setting"),
    ("[tools.Read]\ntail_share = 2\n", 2, "between 0 and 1"),
    ("ledger = 1\n", 1, "true or false"),
    ("budget = = 3\n", 1, "line 1"),
])
def test_a_broken_file_is_one_error_naming_file_and_line(text, line, words):
    with pytest.raises(ConfigError) as caught:
        parse(text, "/home/u/.config/headroom/config.toml")
    message = str(caught.value)
    assert message.startswith("/home/u/.config/headroom/config.toml")
    assert f":{line}:" in message or f"line {line}" in message
    assert words in message
    assert "\n" not in message.strip()


def test_precedence_env_over_file_over_default():
    config = parse(GOOD, "/cfg.toml")
    assert resolve("budget", config, {"HEADROOM_BUDGET": "123"}) == ("123", "env HEADROOM_BUDGET")
    assert resolve("budget", config, {}) == (6000, "/cfg.toml:1")
    assert resolve("format", config, {}) == (DEFAULTS["format"], "default")
