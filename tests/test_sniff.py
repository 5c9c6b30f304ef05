"""Sniffing precedence: what a person would call the output. A failing test run or build quotes
source lines (tracebacks, code frames), and stays a log however much source it quotes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli.plan import Lines
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

HERE = Path(__file__).resolve().parent
# Real failing runs (tests/corpus) and a real source file (tests/cases).
_RUNS = ("pytest-tb-long-attrs-evolve-chained", "cargo-build-semver-u32-mismatch",
         "tsc-noemit-defu-optional-param", "make-k-cjson-utils-undeclared")
_SOURCE = (HERE / "cases" / "code-argparse-py" / "input").read_text().splitlines()


def _run(name: str) -> list[str]:
    return (HERE / "corpus" / name / "output.txt").read_text(errors="surrogateescape").splitlines()


def test_the_real_runs_are_logs_as_they_are():
    for name in _RUNS:
        assert sniff(Lines("\n".join(_run(name)) + "\n"), lookup("Bash")) == "log", name


_excerpt = st.builds(lambda start, size: _SOURCE[start:start + size],
                     st.integers(0, len(_SOURCE) - 60), st.integers(5, 60))


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(_RUNS), excerpts=st.lists(_excerpt, min_size=1, max_size=12),
       data=st.data())
def test_a_log_with_code_excerpts_is_never_sniffed_as_code(name, excerpts, data):
    rows = _run(name)
    for excerpt in excerpts:  # quoted where a traceback or a code frame would quote it
        at = data.draw(st.integers(0, len(rows)))
        rows[at:at] = ["    " + line for line in excerpt]
    assert sniff(Lines("\n".join(rows) + "\n"), lookup("Bash")) == "log"


def test_the_same_source_read_as_a_file_is_code():
    assert sniff(Lines("\n".join(_SOURCE) + "\n"), lookup("Read")) == "code"


def test_sniffing_loads_no_planning_or_streaming_patterns():
    # The sniffer asks every shape; only the chosen one's planner is loaded (#13 item 4).
    import subprocess
    import sys

    probe = ("import sys\nfrom headroom_cli.plan import Lines\nfrom headroom_cli.sniff import sniff\n"
             "from headroom_cli.tools import lookup\n"
             "print(sniff(Lines('hello\\n' * 50), lookup('Bash')))\n"
             "print(sorted(m for m in sys.modules if m.endswith(('.planning', '.scanner'))"
             " and m.startswith('headroom_cli')))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["other", "[]"]
