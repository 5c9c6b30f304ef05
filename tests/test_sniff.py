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
         "tsc-noemit-defu-optional-param", "make-k-cjson-utils-undeclared",
         "go-vet-debian-gocode-tree", "shellcheck-pyenv-libexec", "ctest-cjson-print-string-escape")
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


# Real outputs (tests/corpus) that were filed under another shape, each now told by a general
# rule of its tool's format, not by its name: the shape a person would call it.
_CALLED = {
    "cmake-configure-cjson": "log",  # cmake's "-- " status records
    "ctest-cjson-print-string-escape": "log",  # "***Failed", "N% tests passed, N tests failed"
    "go-build-pflag-return-values": "log",  # path:line:col: message, with no word for it
    "go-vet-debian-gocode-tree": "log",
    "shellcheck-pyenv-libexec": "log",  # "SC1087 (error):"
    "oxlint-pedantic-defu": "log",  # miette's "! eslint(rule):" warnings
    "prettier-check-commander-width60": "log",  # "[warn]" records
    "strace-python-import-attrs-toolz": "log",  # syscall(...) = result records
    "unbuild-defu-rollup-ok": "log",  # consola's glyph records
    "pytest-q-packaging-all-green": "log",  # a closing runner summary with figures
    "bandit-r-paramiko-3.5.0": "log",  # ">> Issue: [B601:…]" findings
    "gdb-batch-bt-cpython-ctypes-null": "log",  # "Program received signal SIGSEGV"
    "rg-json-commander-parseoptions": "search",  # rg --json records
    "rg-n-typescript-lib-interface-promise": "search",  # a few matches, from a search tool
    "rg-t-py-packaging-def-parse": "search",
    "curl-v-localhost-cjson-readme": "markdown",  # a Markdown document quoting C, not C
    "read-pyenv-readme-md": "markdown",
    "read-rustc-book-warn-by-default-html": "html",
    "read-pyenv-workflow-yaml": "yaml",
    "read-attrs-pyproject-toml": "toml",  # its "# comments" are no Markdown headings
    "read-boltons-iterutils-py": "code",  # docstrings are neither code nor prose to judge by
    "jest-semver-minor-patch-swapped": "log",  # no YAML for all its "key: value" lines
    "node-test-tap-commander-literal-bug": "log",  # TAP's "# tests 12" are no headings
    "esbuild-minify-commander-stdout": "other",  # minified code's "{error:" is no error
    "npm-pack-dry-run-lodash-4.17.21": "log",  # "npm notice …": a tool's name and a level
    "getent-services-debian": "other",  # `ssh   22/tcp`: aligned columns, no list of paths
}


def test_outputs_are_called_what_a_person_would_call_them():
    import json

    for name, shape in _CALLED.items():
        tool = json.loads((HERE / "corpus" / name / "meta.json").read_text())["tool"]
        assert sniff(Lines("\n".join(_run(name)) + "\n"), lookup(tool)) == shape, name


def test_a_table_under_a_title_row_is_a_table_even_with_timestamps():
    rows = ["date,commit,author,subject"] + [
        f"2026-11-{d:02d}T18:34:10+00:00,{d:07x},Jo Doe,\"fix {d}, and more\"" for d in range(1, 29)]
    for tool in ("Read", "Bash"):
        assert sniff(Lines("\n".join(rows) + "\n"), lookup(tool)) == "listing"
        numbered = [f"{i + 1:>6}\t{row}" for i, row in enumerate(rows)]  # cat -n
        assert sniff(Lines("\n".join(numbered) + "\n"), lookup(tool)) == "listing"


def test_the_cheap_gates_agree_with_their_planners():
    from headroom_cli import sniff as sniffer
    from headroom_cli.planners import json_shape, listing

    assert sniffer._DELIMITERS == listing._DELIMITERS
    assert sniffer._JSON_OPENS_WITHIN > json_shape.STRAY_LINES


def test_sniffing_a_log_loads_no_other_planner():
    import subprocess
    import sys

    log = (HERE / "corpus" / "make-k-cjson-utils-undeclared" / "output.txt").read_text()
    probe = ("import sys\nfrom headroom_cli.plan import Lines\nfrom headroom_cli.sniff import sniff\n"
             "from headroom_cli.tools import lookup\n"
             f"print(sniff(Lines({log!r}), lookup('Bash')))\n"
             "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules"
             " if m.startswith('headroom_cli.planners.')))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    # diagnostics: the helper both search and log tell a linter's findings by (no planner)
    assert out.stdout.split("\n")[:2] == [
        "log", "['costs', 'diagnostics', 'log', 'rollup', 'search', 'signals', 'signals']"]


def test_an_access_log_is_no_search():
    """A web server's access lines (`127.0.0.1 - - [29/Nov/2026:08:12:11 +0000] "GET …`) read
    as grep's `path:line:text` once their bracketed date is taken for a path with spaces and
    its hour for a line number: gunicorn's console (real) was planned as a search of one file.
    A bracketed day/month/year is a log record's, never a path's."""
    from headroom_cli.planners.search.signals import is_path

    assert not is_path("127.0.0.1 - - [29/Nov/2026")
    assert is_path("docs/[slug]/page.md")  # a bracket in a path is still a path
    rows = _run("gunicorn-27-flask-sync-worker-timeout")
    assert sum(" - - [" in row and '"GET ' in row for row in rows) > 1000
    assert sniff(Lines("\n".join(rows) + "\n"), lookup("Bash")) == "log"
