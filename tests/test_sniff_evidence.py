"""Sniffing through line numbers and past a misleading sample, on real outputs.

tests/outputs/ (made here, each a real run):
- nl-black-changes-md.txt: `nl CHANGES.md` of the black 24.10.0 sdist (PyPI);
- psql-d-plus-pg-catalog.txt: `psql -c '\\d+ pg_catalog.pg_*'`, PostgreSQL 15.18 on 127.0.0.1;
- psql-d-plus-pgbench-tables.txt: `psql bench -c '\\d+ pgbench_*'` after `pgbench -i --foreign-keys`;
- kubectl-create-deployment-web.yaml: `kubectl create deployment web --image=nginx:1.27
  --replicas=3 --dry-run=client -o yaml` (kubectl 1.32);
- alternatives-log-debian12.txt, apt-history-log-debian12.txt: /var/log/alternatives.log and
  /var/log/apt/history.log of this Debian 12 machine, whole;
- terraform-plan-terraform-data-40.txt: `terraform plan -no-color` (Terraform 1.11.4, no CLI
  configuration) of `resource "terraform_data" "file" { count = 40; input = {name, size} }`
  and an output of their names.
tests/real/gcc-wconversion-psutil-6.1.0-proc-c-repeated-build.txt (tests/real/README.md): a
build's located warnings, repeated.
Golden cases (tests/cases/): doc-markdown-cat-n-black-changes (`cat -n` of the same CHANGES.md),
yaml-kubectl-create-configmap-logs (`kubectl create configmap --from-file` of /etc/*.conf and
/var/log/{alternatives,apt/history}.log), listing-sqlite3-header-column-click-commits
(`sqlite3 -header -column` of pallets/click's commits, wide subjects), diff-git-release-click-4000.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import GROWN_DIR, corpus_case
from headroom_cli.api import compress
from headroom_cli.numbered import numbered, stripped
from headroom_cli.plan import Lines
from headroom_cli.planners import diff, yaml_doc
from headroom_cli.planners.diagnostics import after_place
from headroom_cli.planners.log import signals as log_signals
from headroom_cli.planners.search import signals as search_signals
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

HERE = Path(__file__).parent
OUTPUTS = HERE / "outputs"
CASES = HERE / "cases"
BASH = lookup("Bash")
TOOLS = (BASH, lookup("Read"), lookup(None))  # a shell, a file read, an unnamed pipe
CORPUS = sorted(p.name for p in GROWN_DIR.iterdir() if (p / "output.txt").is_file())


def shape(text: str, tool=BASH) -> str:
    return sniff(Lines(text), tool)


def number(text: str, style: str, first: int) -> str:
    """The text as `cat -n` (tab), a Read (→) or `nl` (empty lines left unnumbered, padded
    with 7 spaces; a line of spaces is numbered, as nl's default -bt does) print it."""
    rows = text.split("\n")
    if rows[-1] == "":
        rows.pop()
    out, n = [], first
    for row in rows:
        if style == "nl" and not row:
            out.append(" " * 7)
            continue
        out.append(f"{n:>6}{'→' if style == 'read' else chr(9)}{row}")
        n += 1
    return "\n".join(out) + "\n"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(CORPUS), style=st.sampled_from(["cat", "read", "nl"]),
       first=st.integers(1, 5000))
def test_a_numbered_output_sniffs_as_its_unnumbered_twin(name, style, first):
    _, text = corpus_case(GROWN_DIR, name)
    if numbered(text.splitlines()[:3000]):
        text = "".join(row + "\n" for row in stripped(text.splitlines()))
    assert shape(number(text, style, first)) == shape(text)


def test_numbered_lines_are_printed_with_their_numbers(counter):
    """A numbered diff and a numbered log: planned as the shape their lines are, and every
    line printed that is no marker or note of the planner's is a line of the numbered input."""
    release = (CASES / "diff-git-release-click-4000" / "input").read_text()
    _, log = corpus_case(GROWN_DIR, "make-k-cjson-utils-undeclared")
    for text, kind in ((release, "diff"), (log, "log")):
        numbered_text = number(text, "cat", 1)
        result = compress(numbered_text, tool="Bash", budget=1500, counter=counter)
        assert result.kind == kind
        rows = set(numbered_text.splitlines())
        printed = [re.sub(r"  \((?:[^()]|\([^()]*\))*\)$", "", line)
                   for line in result.text.splitlines() if re.match(r"\s*\d+\t", line)]
        assert len(printed) > 10
        assert all(line in rows for line in printed)


def test_a_markdown_changelog_is_no_yaml_numbered_or_not(counter):
    text = (OUTPUTS / "nl-black-changes-md.txt").read_text()
    bare = "".join(row + "\n" for row in stripped(text.splitlines()))
    assert shape(text) == shape(bare) == "markdown"
    # Level first: every release heading (`## 24.10.0`) is named before any `### Stable style`.
    out = compress(text, tool="Bash", budget=1500, counter=counter).text
    versions = [row for row in text.splitlines() if re.match(r"\s*\d+\t## ", row)]
    assert len(versions) > 40
    assert all(row in out for row in versions)


def test_a_table_with_ruled_headers_is_no_yaml():
    """psql's `\\d+`: titles, `Indexes:` and `Access method: heap` read as keys, the rows as
    indented values; its `------+------` rules say it is a table."""
    for name in ("psql-d-plus-pg-catalog.txt", "psql-d-plus-pgbench-tables.txt"):
        rows = (OUTPUTS / name).read_text().splitlines()
        assert not yaml_doc.looks_like(rows, BASH), name
        assert shape("\n".join(rows) + "\n") != "yaml"


def test_a_kubernetes_manifest_is_yaml_whatever_its_values_hold():
    configmap = (CASES / "yaml-kubectl-create-configmap-logs" / "input").read_text()
    deployment = (OUTPUTS / "kubectl-create-deployment-web.yaml").read_text()
    for text in (configmap, deployment):
        assert yaml_doc.looks_like_a_manifest(text.splitlines(), BASH)
        assert shape(text) == "yaml"
    for name in CORPUS:  # no log or search output is taken for one
        meta, text = corpus_case(GROWN_DIR, name)
        if meta["kind"] in ("log", "search"):
            assert not yaml_doc.looks_like_a_manifest(text.splitlines()[:3000], BASH), name


def test_a_ruled_column_table_is_a_listing():
    text = (CASES / "listing-sqlite3-header-column-click-commits" / "input").read_text()
    assert shape(text) == "listing"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.integers(0, 3700), length=st.integers(300, 1500))
def test_a_diff_sample_that_starts_inside_a_hunk_is_still_a_diff(cut, length):
    """`git diff | tail -n N`, or the tail half of the sniffer's sample: the rest of a hunk
    whose header it does not hold (bodies and `@@` lines) comes before the first file."""
    rows = (CASES / "diff-git-release-click-4000" / "input").read_text().splitlines()
    part = rows[cut:cut + length]
    if any(row.startswith("diff --git ") for row in part) and any(
            row.startswith("@@") for row in part[next(i for i, row in enumerate(part)
                                                      if row.startswith("diff --git ")):]):
        assert diff.looks_like(part, BASH)


def test_a_compilers_located_messages_are_a_log_whichever_tool_read_them():
    """`x.c:12:5: warning: …` lines are records of a build: a log for a pipe with no --tool
    and for a Read of a saved build log too, not only for a shell's output."""
    text = (HERE / "real" / "gcc-wconversion-psutil-6.1.0-proc-c-repeated-build.txt").read_text()
    for tool in TOOLS:
        assert shape(text, tool) == "log", tool.name


def test_records_known_by_a_clock_near_their_start_are_a_log():
    """`update-alternatives 2025-06-24 14:36:53: run with …`: a program's name, then the
    time: a log read or piped (it was `other`)."""
    text = (OUTPUTS / "alternatives-log-debian12.txt").read_text()
    for tool in TOOLS:
        assert shape(text, tool) == "log", tool.name


# Known, open (issue #22): pretty-printed JSON after its tool's own error records (`npm ls --json`
# with stderr merged: 18 `npm error` lines, then the report; `pip install --dry-run --report -`
# after 21 `WARNING: Location … is ignored` lines) is read as records, its indented members as
# lines the records carry on. Listed so that a fix shows (the test then fails until the entry
# goes).
_JSON_AFTER_RECORDS = {"npm-ls-json-all-npm-11-elsproblems",
                       "pip-install-dry-run-report-sphinx-8.1.3"}
# Labelled `other` by the person who chose its needles, but made of a compiler's located
# messages (`lstrlib.c:130:14: missed: not vectorized: …`, gcc's -fopt-info remarks), which are a
# build's records here whatever their level (test_a_compilers_located_messages_are_a_log…).
_LOCATED_REMARKS = {"gcc-fopt-info-vec-all-lua-lstrlib"}


def test_no_corpus_output_that_is_no_log_is_made_of_records():
    """The broader record prefixes take no table, listing, blame or document for a log: the
    corpus's outputs that are no log are not mostly records (asked of a file read and of a
    pipe with no tool named, where records alone decide)."""
    taken = set()
    for name in CORPUS:
        meta, text = corpus_case(GROWN_DIR, name)
        if meta["kind"] != "log":
            sample = text.splitlines()[:3000]
            taken.update(name for tool in TOOLS[1:] if log_signals.looks_like(sample, tool))
    assert taken == _JSON_AFTER_RECORDS | _LOCATED_REMARKS


def test_fields_in_stanzas_and_a_terraform_plan_are_no_yaml():
    """apt's history.log repeats `Start-Date:`/`Commandline:`/`End-Date:` (a YAML document
    never repeats a key); terraform's plan indents `+ resource "x" "y" {` lines that read as
    no YAML: neither is outlined by its "keys"."""
    for name in ("apt-history-log-debian12.txt", "terraform-plan-terraform-data-40.txt"):
        text = (OUTPUTS / name).read_text()
        assert not yaml_doc.looks_like(text.splitlines(), BASH), name
        assert shape(text) != "yaml", name


def test_yaml_with_block_scalars_and_wrapped_values_is_still_yaml():
    """A CI workflow's `run: |` scripts, a manifest's log files as values: the rows inside a
    block scalar read as YAML."""
    for case in ("doc-yaml-pyenv-workflow", "yaml-kubectl-create-configmap-logs"):
        text = (CASES / case / "input").read_text()
        assert yaml_doc.looks_like(text.splitlines(), BASH), case


def test_search_sniffing_stops_early_and_answers_as_a_whole_parse_would():
    """search.looks_like gives up once a sample cannot be a search (a log's lines) or is a
    compiler's diagnostics: the answer is the one the whole sample's parse gives."""
    log = (HERE / "real" / "gcc-wconversion-psutil-6.1.0-proc-c-repeated-build.txt"
           ).read_text().splitlines()[:3000]
    filled = sum(1 for row in log if row.strip())
    assert search_signals.parse(log, hopeless=int(0.25 * filled),
                                diagnostics=int(0.3 * filled)) is None
    for name in CORPUS:
        _, text = corpus_case(GROWN_DIR, name)
        sample = text.splitlines()[:3000]
        assert search_signals.looks_like(sample, BASH) == _whole_parse_says_search(sample), name


def test_a_timestamped_log_is_given_up_early_though_its_dates_look_like_a_searchs_numbers():
    """`2026-11-26 23:10:50 UTC …` starts like a heading's entry (`2026-`) and holds a context
    line's `-11-`; with no path before it (a heading) nor a path before its `-NN-` it can be
    neither, so sniffing stops once a quarter of the sample is such rows."""
    _, text = corpus_case(GROWN_DIR, "postgres-15-server-log-pgbench-serialization")
    log = text.splitlines()[:3000]
    filled = sum(1 for row in log if row.strip())
    assert search_signals.parse(log) is not None  # read whole, it is no search either
    assert search_signals.parse(log, hopeless=int(0.25 * filled),
                                diagnostics=int(0.3 * filled)) is None
    assert not search_signals.looks_like(log, BASH) and not _whole_parse_says_search(log)


def _whole_parse_says_search(sample: list[str]) -> bool:
    """The search question answered from a parse of every line, with no early stop."""
    parsed = search_signals.parse(sample)
    filled = sum(1 for row in sample if row.strip())
    if not filled:
        return False
    if parsed.file_list:
        return len(parsed.files) >= search_signals.MIN_MATCH_LINES and len(
            parsed.files) >= 0.9 * filled
    matches = sum(len(f.matches) for f in parsed.files.values())
    context = sum(len(f.context) for f in parsed.files.values())  # `git grep -W`'s functions
    if not matches or matches + context < search_signals.MIN_MATCH_LINES or (
            parsed.recognised < 0.75 * filled):
        return False
    diagnostics = sum(1 for f in parsed.files.values() for i in f.matches
                      if after_place(sample[i], f.text_start[i]))
    return diagnostics < 0.3 * matches


def test_every_shape_prints_numbered_lines_with_their_numbers(counter):
    """For one corpus output of each shape the sniffer finds, its `cat -n` twin is planned as
    that shape, and every line it prints that is a line of the input carries its number. (Of
    lines 200 characters long on average at most: a table of 440-character rows prints one
    whole at 1000 tokens, its others' beginnings.)"""
    by_shape: dict[str, str] = {}
    for name in CORPUS:
        _, text = corpus_case(GROWN_DIR, name)
        rows = text.count("\n")
        if len(text) > 6000 and rows >= 100 and len(text) <= 200 * rows and "\x00" not in text:
            by_shape.setdefault(shape(text), name)
    assert len(by_shape) >= 10, sorted(by_shape)
    for kind, name in sorted(by_shape.items()):
        _, text = corpus_case(GROWN_DIR, name)
        rows = text.splitlines()
        numbered_text = number(text, "read", 1)
        result = compress(numbered_text, tool="Bash", budget=1000, counter=counter)
        assert result.kind in (kind, "passthrough") or shape(numbered_text) == kind, name
        bare = {row for row in rows if len(row.strip()) > 8}
        lines = set(numbered_text.splitlines())
        printed = result.text.splitlines()
        assert not [row for row in printed if row in bare and row not in lines], name
        assert sum(row in lines for row in printed) >= 5, name


@pytest.mark.parametrize("style", ["cat", "read", "nl"])
def test_the_real_outputs_here_sniff_as_their_numbered_twins(style):
    for path in sorted(OUTPUTS.iterdir()):
        text = path.read_text()
        if numbered(text.splitlines()[:3000]):
            text = "".join(row + "\n" for row in stripped(text.splitlines()))
        for tool in TOOLS:
            assert shape(number(text, style, 1), tool) == shape(text, tool), (path.name, tool.name)


def test_a_document_that_lists_exception_classes_is_no_log():
    """`pydoc asyncio` lists `builtins.RuntimeError` and `CancelledError` in its class trees,
    indented under `|` gutters: names of classes, not errors raised (a tuning case)."""
    meta, text = corpus_case(GROWN_DIR, "pydoc-asyncio-3.11")
    assert meta["kind"] == "other"
    assert shape(text) == "other"


def test_a_manual_naming_the_log_levels_is_no_log():
    """`man ssh_config` (real): `LogLevel`'s entry lists `QUIET, FATAL, ERROR, INFO, …`. A level
    word listed beside another names the levels; it is no record's own level, so the page is
    no log (read as one, its 111 option headings were lost)."""
    meta, text = corpus_case(GROWN_DIR, "d2-man-ssh-config")
    rows = text.splitlines()
    assert any(re.search(r"\bFATAL, ERROR\b", row) for row in rows)
    assert sniff(Lines(text), lookup(meta["tool"])) != "log"
    listed = next(row for row in rows if "FATAL, ERROR" in row)
    assert log_signals.classify_why(listed, "")[0] is None


def test_a_certificate_s_digest_is_no_linter_finding():
    """`keytool -list -v -cacerts` (real): every entry prints `\\t SHA256: EB:C5:57:…`, which
    reads like pydocstyle's indented `D103: message`. Hex pairs are no message: no error line,
    and the listing is no log."""
    meta, text = corpus_case(GROWN_DIR, "d2-keytool-cacerts")
    digests = [row for row in text.splitlines() if row.lstrip().startswith("SHA256: ")]
    assert len(digests) > 100
    assert all(log_signals.classify_why(row, "")[0] is None for row in digests)
    assert sniff(Lines(text), lookup(meta["tool"])) != "log"
