"""hermes-agent, end to end: `headroom init hermes` and `hermes plugins enable headroom`, then
the real package (`hermes chat -q`, 0.19.0 from PyPI) against a scripted OpenAI-compatible
model, inside `unshare -n`.

hermes gives the model a terminal result as JSON, {"output": …, "exit_code": N, "error": …},
the output stripped of surrounding blank space. Its config here raises `tool_output.max_bytes`
as headroom's guide says (hermes keeps only that many characters of an output, its first 40 %
and last 60 %, before any plugin sees it); without the plugin a result that large is saved to
a file and the model gets its first lines.
"""

from __future__ import annotations

import json

import pytest

from harness import e2e_home, headroom, pypi_bin, run_agent  # noqa: F401 - fixture
from matrix import (COMMANDS, COMPLEX_OUTPUT, FAILING, FITS_OUTPUT, check_failing,
                    check_fifty_thousand, check_hint_followed)

pytestmark = pytest.mark.e2e


def output_of(result: dict) -> tuple[str, int]:
    value = json.loads(result["text"])
    return value["output"], value["exit_code"]


def enable(work, env) -> None:
    installed = headroom("init", "hermes", env=env)
    assert installed.returncode == 0, installed.stderr
    plugin = work / "home" / ".hermes" / "plugins" / "headroom"
    assert (plugin / "plugin.yaml").exists() and (plugin / "__init__.py").exists()


def test_hermes_matrix(e2e_home):
    work, env = e2e_home
    enable(work, env)
    run = run_agent("hermes", COMMANDS, work, env, binary=pypi_bin("hermes"))
    (big, big_status), (hint, _), (failing, failing_status), (fits, _), \
        (complex_, complex_status) = [output_of(result) for result in run.tool_results]

    assert big_status == 0
    check_fifty_thousand(big)
    assert "OUTPUT TRUNCATED" not in big and len(big) < 45_000
    check_hint_followed(hint, big)

    assert failing_status == 3 and "OUTPUT TRUNCATED" not in failing
    check_failing(failing)

    assert fits == FITS_OUTPUT
    assert (complex_, complex_status) == (COMPLEX_OUTPUT.strip(), 4)


def test_without_headroom_hermes_shows_the_model_only_a_preview(e2e_home):
    work, env = e2e_home
    run = run_agent("hermes", ["seq 1 50000 | sed 's/^/row /'"], work, env,
                    binary=pypi_bin("hermes"))
    text = run.tool_results[0]["text"]
    # hermes saves a result this large to a file and sends the model its beginning
    assert text.startswith("<persisted-output>") and "[…headroom:" not in text
    assert "row 50000" not in text


def test_hermes_budget_follows_the_tokens_it_reports_with_a_configured_window(e2e_home):
    """Every reply of the scripted model says its context holds 180,000 tokens; hermes hands
    that usage to post_api_request, and with `[context] window = 200000` in headroom's config
    the terminal's output is clipped to the budget for a 90 %-full context."""
    work, env = e2e_home
    enable(work, env)
    settings = work / "home" / ".config" / "headroom" / "config.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text("[context]\nwindow = 200000\n")
    run = run_agent("hermes", ["seq 1 50000 | sed 's/^/row /'"], work, env,
                    binary=pypi_bin("hermes"), context_tokens=180_000)
    big, status = output_of(run.tool_results[0])
    assert status == 0
    check_fifty_thousand(big)
    # the documented curve: 6,000 * (1 - 0.75 * (0.90 - 0.50) / 0.45) = 2,000
    assert "Budget 2,000 of 6,000 tokens: the context is 90% full." in big

