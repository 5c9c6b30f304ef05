"""The Python-harness example in docs/python-api.md runs as printed and does what it says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "python-api.md"


def example() -> str:
    section = DOC.read_text(encoding="utf-8").split("## Any Python harness", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_harness_example_runs_and_clips_with_the_exit_status():
    namespace: dict = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(example(), str(DOC), "exec"), namespace)  # noqa: S102 - our own docs
    assert printed.getvalue().rstrip().endswith("error: boom")
    text = namespace["run_shell"]("seq 1 100000; echo 'error: boom' >&2; false")
    assert "The command exited with status 1." in text
    assert text.rstrip().endswith("error: boom")
    assert len(text) < 40_000
    assert namespace["run_shell"]("echo small") == "small\n"
