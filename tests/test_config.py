"""The config file: parsing, checks that name the file and line, and precedence."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

from conftest import invoke_cli
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
    assert config.where("tools.Bash.head_share") == "/cfg.toml:9"


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


# --------------------------------------------------------------------------- through the CLI
# In-process: Settings are resolved from the environment on every run (no module state), so
# each call reads the config file the test just wrote.


class Run:
    def __init__(self, done):
        self.returncode, self.stdout = done.exit_code, done.stdout
        self.stderr = done.stderr.encode()


def headroom(args, data: bytes, env: dict):
    return Run(invoke_cli(list(args), data, env, env["HOME"]))


@pytest.fixture
def home(tmp_path):
    config = tmp_path / "config" / "headroom" / "config.toml"
    config.parent.mkdir(parents=True)
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "HEADROOM_STORE": str(tmp_path / "store")}
    return config, env


NUMBERS = b"".join(b"%d\n" % i for i in range(1, 2001))
# Over a configured budget of 80 tokens, well under the default budget: clipped only when the
# configured budget applies.
MIDDLE = b"".join(b"%d\n" % i for i in range(1, 301))


def test_the_middle_input_fits_the_default_budget(home):
    _, env = home
    assert headroom([], MIDDLE, env).stdout == MIDDLE


def test_the_config_budget_applies_on_both_paths(home):
    config, env = home
    config.write_text("budget = 80\n")
    clipped = headroom([], MIDDLE, env)
    assert clipped.returncode == 0 and b"[\xe2\x80\xa6headroom:" in clipped.stdout
    small = headroom([], b"1\n2\n", env)  # the pass-through reads the config too
    assert small.stdout == b"1\n2\n"


def test_flags_and_environment_beat_the_config(home):
    config, env = home
    config.write_text("budget = 80\n")
    assert headroom(["--budget", "0"], NUMBERS, env).stdout == NUMBERS
    assert headroom([], NUMBERS, {**env, "HEADROOM_BUDGET": "0"}).stdout == NUMBERS


def test_a_per_tool_budget_applies_to_that_tool_only(home):
    config, env = home
    config.write_text("budget = 80\n[tools.Grep]\nbudget = 0\n")
    assert headroom(["--tool", "grep"], MIDDLE, env).stdout == MIDDLE
    assert b"[\xe2\x80\xa6headroom:" in headroom(["--tool", "Read"], MIDDLE, env).stdout


def test_a_broken_config_is_one_line_and_status_1(home):
    config, env = home
    config.write_text("budget = 80\nbudgte = 3\n")
    for args, data in (([], b"hi\n"), ([], NUMBERS), (["config"], b""), (["stats"], b"")):
        run = headroom(args, data, env)
        assert run.returncode == 1 and run.stdout == b""
        message = run.stderr.decode().strip()
        assert "\n" not in message and f"{config}:2" in message


@pytest.mark.parametrize("setting", ['max_bytes = "lots"', 'max_age_days = "x"'])
def test_a_bad_store_cap_in_the_file_is_an_error_like_any_other(home, setting):
    config, env = home
    config.write_text(f"[store]\n{setting}\n")
    run = headroom([], NUMBERS, {**env, "HEADROOM_BUDGET": "100"})
    assert run.returncode == 1 and run.stdout == b""
    message = run.stderr.decode().strip()
    assert "\n" not in message and f"{config}:2" in message


def test_headroom_config_names_each_source(home):
    config, env = home
    config.write_text("encoding = \"estimate\"\n")
    run = headroom(["config", "--json"], b"", {**env, "HEADROOM_BUDGET": "900"})
    settings = json.loads(run.stdout)["settings"]
    assert settings["budget"] == {"value": "900", "source": "env HEADROOM_BUDGET"}
    assert settings["encoding"] == {"value": "estimate", "source": f"{config}:1"}
    assert settings["format"]["source"] == "default"


def test_clips_and_shows_are_recorded_in_the_ledger_and_what_fits_is_not(home):
    _, env = home
    env = {**env, "HEADROOM_BUDGET": "100"}
    out = headroom([], NUMBERS, env).stdout.decode()
    store_id = out.split("headroom show ")[1].split()[0]
    headroom(["show", store_id, "--lines", "1:2"], b"", env)
    # Output that fits is not recorded, on either path: held whole, or a wrapped command.
    headroom(["--budget", "100000"], NUMBERS, env)
    headroom(["--", sys.executable, "-c", "print('hi')"], b"", env)
    totals = json.loads(headroom(["stats", "--json"], b"", env).stdout)["totals"]
    assert totals["runs"] == 1 and totals["clipped"] == 1 and totals["shows"] == 1
    assert totals["output_tokens"] <= 100 < totals["input_tokens"]


def test_the_ledger_can_be_turned_off(home):
    _, env = home
    env = {**env, "HEADROOM_BUDGET": "100", "HEADROOM_LEDGER": "off"}
    headroom([], NUMBERS, env)
    assert not (pathlib.Path(env["XDG_STATE_HOME"]) / "headroom" / "ledger.sqlite3").exists()
