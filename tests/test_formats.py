"""--format markdown|json: the same clip, wrapped for CI summaries and harnesses.

Golden files in tests/formats/ are the contract; regenerate after an intended change with
    HEADROOM_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_formats.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from headroom_cli.api import compress

HERE = Path(__file__).resolve().parent
LOG = (HERE / "cases" / "make-lua-link-error" / "input").read_bytes()
REGENERATE = os.environ.get("HEADROOM_REGEN_GOLDEN", "") not in ("", "0")


@pytest.mark.parametrize("fmt", ["markdown", "json"])
def test_format_golden(fmt, run_cli):
    run = run_cli(["--tool", "Bash", "--budget", "800", "--format", fmt], LOG)
    assert run.exit_code == 0, run.stderr
    golden = HERE / "formats" / f"make-lua-link-error.{fmt}"
    if REGENERATE:
        golden.write_bytes(run.stdout)
    assert run.stdout == golden.read_bytes()


def test_json_carries_the_figures_of_the_clip(run_cli, counter):
    run = run_cli(["--tool", "Bash", "--budget", "800", "--format", "json"], LOG)
    record = json.loads(run.stdout)
    direct = compress(LOG.decode(), tool="Bash", budget=800, counter=counter)
    assert record["kind"] == direct.kind
    assert record["tool"] == "Bash"
    assert record["omitted"] == [list(span) for span in direct.omitted]
    assert record["output_tokens"] == counter.count(record["text"])
    assert record["input_tokens"] == counter.count(LOG.decode())
    assert record["store_id"] and f"headroom show {record['store_id']}" in record["text"]
    assert record["exit_status"] is None


def test_json_for_output_that_fits_has_no_store_id(run_cli):
    record = json.loads(run_cli(["--format", "json"], b"hi\n").stdout)
    assert record["text"] == "hi\n" and record["store_id"] is None and record["omitted"] == []
    assert record["kind"] == "passthrough"


def test_markdown_fence_outlasts_backticks_in_the_output(run_cli):
    data = b"```\ncode\n````\n"
    run = run_cli(["--format", "markdown"], data)
    lines = run.stdout.decode().splitlines()
    fence = lines[2][:-len("text")]
    assert set(fence) == {"`"} and len(fence) > 4
    assert lines[-1] == fence and "\n".join(lines[3:-1]) + "\n" == data.decode()


def test_markdown_header_names_kind_tokens_and_exit_status():
    from headroom_cli.formats import wrap

    result = compress("x\n" * 5000, tool="Bash", budget=200, exit_status=3)
    header = wrap("markdown", result, result.text, tool="Bash", store_id=None,
                  exit_status=3).splitlines()[0]
    assert result.kind in header and "exit status 3" in header
    assert f"{result.input_tokens:,} → {result.output_tokens:,} tokens" in header


def test_unknown_format_is_a_usage_error(run_cli):
    run = run_cli(["--format", "yaml"], b"hi\n")
    assert run.exit_code == 2 and "--format" in run.stderr
