"""The JSON planner: a skeleton of the document, its own lines kept verbatim when pretty-printed.

Expectations are derived from the inputs with the json module, never copied from the output.
Golden cases: tests/cases/json-*/{input,args,expected}; after an intended change of output
regenerate them with HEADROOM_REGEN_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli.api import compress
from headroom_cli.plan import Lines
from headroom_cli.planners import json_shape
from headroom_cli.planners.costs import line_limit
from headroom_cli.tools import lookup

CASES_DIR = Path(__file__).resolve().parent / "cases"
JSON_CASES = sorted(p.name for p in CASES_DIR.glob("json-*") if (p / "input").is_file())
HIDDEN = re.compile(r"… ([\d,]+) of ([\d,]+) (?:keys|items|records?|key|item)\b")


def case_input(name: str) -> str:
    return (CASES_DIR / name / "input").read_text(encoding="utf-8")


def clip(text: str, budget: int, counter, tool: str = "Bash"):
    result = compress(text, tool=tool, budget=budget, counter=counter)
    assert counter.count(result.text) <= budget
    return result


def sniffed(text: str, tool: str = "Bash") -> bool:
    return json_shape.looks_like(text.splitlines(), lookup(tool))


# --------------------------------------------------------------------------- golden cases


# The byte-for-byte comparison of every tests/cases/json-* case (and its budget) is
# tests/test_golden.py's, which runs all golden cases.


def test_the_real_inputs_are_sniffed_as_json():
    for name in JSON_CASES:
        assert sniffed(case_input(name)), name


# --------------------------------------------------------------------------- sniffing

NOT_JSON = {
    "maven": "[INFO] Scanning for projects...\n[INFO] BUILD SUCCESS\n[INFO] Total time: 1 s\n",
    "bracketed timestamps": "[2024-05-01 12:00:01] started\n[2024-05-01 12:00:02] done [ok]\n",
    "dmesg": "[    0.000000] Linux version 6.1\n[    0.000001] Command line: ro quiet ]\n",
    "ninja": "[1/3] Building C object a.o\n[2/3] Building C object b.o\n[3/3] Linking x\n",
    "python repr": "{'name': 'x', 'deps': ['a', 'b']}\n{'name': 'y', 'deps': []}\n",
    "js object": "{\n  name: 'x',\n  version: 1,\n}\n",
    "markdown": "[link](https://example.com) and more prose\n- item [x]\n",
    "hcl": "{\n  resource = \"aws\"\n  count    = 2\n}\n",
    "json then a warning": '{\n  "a": 1\n}\nnpm WARN config production Use `--omit=dev` instead.\n',
    "prose": "The build finished. See {details} in the [log].\n",
}


@pytest.mark.parametrize("name", sorted(NOT_JSON))
def test_other_shapes_are_not_taken_for_json(name):
    assert not sniffed(NOT_JSON[name])


@pytest.mark.parametrize("key", ["level", "severity", "lvl", "Level"])
def test_json_lines_with_a_log_level_are_logs(key):
    records = [json.dumps({"ts": f"2024-05-01T12:00:0{i}Z", key: "info", "msg": f"step {i}"})
               for i in range(5)]
    assert not sniffed("\n".join(records) + "\n")
    plain = [json.dumps({"ts": f"2024-05-01T12:00:0{i}Z", "msg": f"step {i}"}) for i in range(5)]
    assert sniffed("\n".join(plain) + "\n")


def test_a_head_cut_inside_a_long_string_still_sniffs():
    doc = {"description": 'say "hi" ' * 2000, "name": "x"}
    assert sniffed(json.dumps(doc))
    assert sniffed(json.dumps(doc, indent=2))


# --------------------------------------------------------------------------- pretty documents


def test_package_lock_keeps_the_top_and_the_entries_the_manifest_names(counter):
    text = case_input("json-package-lock-read")
    lock = json.loads(text)
    result = clip(text, 1000, counter, tool="Read")
    assert result.kind == "json"
    for key, value in lock.items():
        if not isinstance(value, (dict, list)):
            assert f"  {json.dumps(key)}: {json.dumps(value)}," in result.text
    for dependency in lock["packages"][""]["dependencies"]:
        assert f'    "node_modules/{dependency}": {{' in result.text


def test_shown_lines_are_the_inputs_own_lines(counter):
    """Grep-ability: what is not a planner's note is an input line, indentation and all (a
    container on one line starts with its input line: `  "engines": {` + its preview)."""
    text = case_input("json-npm-view-express")
    input_lines = set(text.splitlines())
    result = clip(text, 1000, counter)
    for line in result.text.splitlines()[:-1]:
        if line.lstrip().startswith(("…", "(all ")):
            continue
        opening = line[:line.index(": ") + 3] if ": " in line else line
        assert line in input_lines or opening in input_lines, line


def test_an_array_shows_its_ends_and_counts_the_rest(counter):
    text = case_input("json-npm-view-express")
    versions = json.loads(text)["versions"]
    out = clip(text, 1000, counter).text
    block = out[out.index('  "versions": [\n'):]
    block = block[:block.index("\n  ],\n")]
    assert f'    "{versions[0]}",' in block and f'    "{versions[-1]}"' in block
    shown = sum(1 for line in block.splitlines()[1:] if line.startswith('    "'))
    hidden = [HIDDEN.search(line) for line in block.splitlines() if "not shown" in line]
    assert sum(int(m[1].replace(",", "")) for m in hidden) == len(versions) - shown
    assert all(int(m[2].replace(",", "")) == len(versions) for m in hidden)


def test_a_marker_names_the_lines_it_stands_for(counter):
    text = case_input("json-npm-view-express")
    lines = text.splitlines()
    out = clip(text, 1000, counter).text
    markers = r"… ([\d,]+) of [\d,]+ items not shown \(lines ([\d,]+)–([\d,]+)\)"
    for m in re.finditer(markers, out):
        count, first, last = (int(g.replace(",", "")) for g in m.groups())
        # An array of scalars holds one item per line.
        assert last - first + 1 == count
        assert lines[first - 1].strip().startswith('"')


def test_long_strings_are_cut_with_their_length(counter):
    text = case_input("json-pip-inspect")
    doc = json.loads(text)
    lengths = {len(p["metadata"].get("description", "")) for p in doc["installed"]}
    out = clip(text, 4000, counter).text
    cut = re.findall(r'^\s+"description": ".*…" \(([\d,]+) chars\)$', out, re.M)
    assert cut, "the case needs a cut description"
    assert all(int(n.replace(",", "")) in lengths for n in cut)


def test_keys_every_item_shares_are_said_once(counter):
    text = case_input("json-pip-inspect")
    items = json.loads(text)["installed"]
    common = [k for k in items[0] if all(k in item for item in items)]
    out = clip(text, 2000, counter).text
    named = ", ".join(json.dumps(k) for k in common)
    assert f"(all {len(items):,} items have keys {named})" in out


def test_the_environment_at_the_end_is_kept(counter):
    text = case_input("json-pip-inspect")
    environment = json.loads(text)["environment"]
    out = clip(text, 2000, counter).text
    for key, value in environment.items():
        assert f"    {json.dumps(key)}: {json.dumps(value)}" in out


def test_the_marker_says_it_is_not_literal_json(counter):
    out = clip(case_input("json-npm-view-express"), 1000, counter).text
    closing = out.splitlines()[-1]
    assert closing.startswith("[…headroom: JSON skeleton:") and "not literal JSON" in closing


# --------------------------------------------------------------------------- minified, JSON Lines


def test_minified_json_is_re_indented_with_counts_and_jq_paths(counter):
    text = case_input("json-package-lock-minified")
    packages = json.loads(text)["packages"]
    out = clip(text, 800, counter).text
    assert "JSON skeleton of minified JSON" in out
    # Each entry is written as the input wrote it (npm's minified `"key":{`), re-indented on a
    # line of its own or within the input's first characters, which open the clip as they are.
    shown = sum(1 for key in packages if f"{json.dumps(key)}:" in out)
    hidden = [HIDDEN.search(line) for line in out.splitlines() if "of .packages not shown" in line]
    assert hidden and sum(int(m[1].replace(",", "")) for m in hidden) == len(packages) - shown


def test_json_lines_keep_first_and_last_records_and_shared_keys(counter):
    text = case_input("json-lines-lock-entries")
    rows = text.splitlines()
    records = [json.loads(row) for row in rows]
    out = clip(text, 700, counter).text
    assert out.splitlines()[1] == rows[0] and rows[-1] in out.splitlines()
    common = [k for k in records[0] if all(k in r for r in records)]
    assert out.splitlines()[0].startswith(f"(all {len(records)} records have keys "
                                          f"{', '.join(json.dumps(k) for k in common)}")
    hidden = [HIDDEN.search(line) for line in out.splitlines() if "not shown" in line]
    shown = sum(1 for row in rows if row in out or row[:120] in out)
    assert sum(int(m[1].replace(",", "")) for m in hidden) == len(rows) - shown


def test_not_json_after_all_is_left_to_the_head_and_tail_clip(counter):
    document = '{\n  "a": [\n' + ",\n".join(f'    "{i}"' for i in range(3000)) + "\n  ]\n}\n"
    for text in (document + "".join(f"EOF {i}\n" for i in range(json_shape.STRAY_LINES + 1)),
                 document.replace('"17"', "17 18")):
        assert json_shape.plan(text, Lines(text), 500, counter, lookup("Bash")) is None
        result = compress(text, budget=500, kind="json", counter=counter)
        assert result.kind == "other" and counter.count(result.text) <= 500


def test_stray_lines_around_the_document_are_kept_as_they_are(counter):
    # `npm view PKG --json 2>&1`: npm's warning on stderr comes first, merged in.
    warn = ('npm warn Unknown user config "nodedir". This will stop working in the next major '
            "version of npm.")
    document = '{\n  "name": "x",\n  "versions": [\n' + ",\n".join(
        f'    "0.{i}.0"' for i in range(2000)) + "\n  ]\n}\n"
    text = warn + "\n" + document + "npm notice done\n"
    assert sniffed(text)
    result = compress(text, budget=400, counter=counter)
    assert result.kind == "json" and counter.count(result.text) <= 400
    out = result.text.splitlines()
    assert out[:3] == [warn, "{", '  "name": "x",'] and "npm notice done" in out
    assert not sniffed(warn + "\n" + "\n".join(["oops"] * (json_shape.STRAY_LINES + 1)) + "\n"
                     + document)


# --------------------------------------------------------------------------- properties

SCALARS = (st.none() | st.booleans() | st.integers()
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=300))


def containers(inner):
    return st.lists(inner, max_size=30) | st.dictionaries(st.text(max_size=20), inner, max_size=30)


JSON_VALUES = st.recursive(SCALARS, containers, max_leaves=200)
SMALL_VALUES = st.recursive(SCALARS, containers, max_leaves=8)
DOCUMENTS = st.one_of(st.lists(JSON_VALUES, min_size=1, max_size=30),
                      st.dictionaries(st.text(max_size=20), JSON_VALUES, min_size=1, max_size=30))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=DOCUMENTS, indent=st.sampled_from([None, 1, 2, 4]),
       budget=st.integers(min_value=40, max_value=1500),
       ascii_only=st.booleans())
def test_any_json_fits_the_budget_deterministically(counter, doc, indent, budget, ascii_only):
    text = json.dumps(doc, indent=indent, ensure_ascii=ascii_only) + "\n"
    first = compress(text, budget=budget, kind="json", counter=counter)
    assert counter.count(first.text) <= budget
    assert compress(text, budget=budget, kind="json", counter=counter).text == first.text
    plan = json_shape.plan(text, Lines(text), budget, counter, lookup("Bash"))
    assert plan is None or plan.kind == "json"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.lists(st.dictionaries(st.sampled_from(["id", "name", "tags", "n"]),
                                        SMALL_VALUES, min_size=1), min_size=2, max_size=40),
       budget=st.integers(min_value=40, max_value=800))
def test_any_json_lines_fit_the_budget(counter, records, budget):
    text = "".join(json.dumps(r) + "\n" for r in records)
    result = compress(text, budget=budget, kind="json", counter=counter)
    assert counter.count(result.text) <= budget


def test_a_stream_of_pretty_values_is_records_each_named(counter):
    """`go list -json ./...` (real, testify): one pretty-printed object per package, one after
    another. At a quarter of the default budget each record is named, by its ImportPath line or,
    collapsed, by its Name, and the keys left out inside a record are counted as keys, indented
    as the record's own."""
    text = (Path(__file__).resolve().parent / "corpus" / "go-list-json-testify-packages"
            / "output.txt").read_text()
    decoder, values, position = json.JSONDecoder(), [], 0
    while text[position:].strip():
        value, position = decoder.raw_decode(text, len(text) - len(text[position:].lstrip()))
        values.append(value)
    assert len(values) == 6
    result = compress(text, tool="Bash", budget=1000, counter=counter)
    assert result.kind == "json" and counter.count(result.text) <= 1000
    for value in values:
        assert (f'\t"ImportPath": "{value["ImportPath"]}",' in result.text.splitlines()
                or f'{{ "Name": "{value["Name"]}", … ' in result.text)
    inner = [line for line in result.text.splitlines() if re.match(r"\s*… [\d,]+ of [\d,]+ keys", line)]
    assert inner and all(line.startswith("\t…") for line in inner)
    assert "JSON stream skeleton" in result.text


def test_a_list_of_packages_keeps_the_well_known_ones_between_its_ends(counter):
    """`pip list --format json -v`, 103 packages on one line: at a budget for a dozen, the
    first and last entries, then those a reader looks up by name (pip, setuptools, numpy,
    pytest, requests: wellknown.py) before the rest from both ends."""
    raw = (Path(__file__).parent / "real" / "pip-list-format-json-v-pyenv-3.11.7.txt").read_text()
    out = compress(raw, tool="Bash", budget=500, counter=counter).text
    assert counter.count(out) <= 500
    shown = set(re.findall(r'\{"name": "([^"]+)"', out))
    assert {"annotated-types", "xmltodict"} <= shown  # the ends
    assert {"pip", "setuptools", "numpy", "pytest", "requests"} <= shown


@pytest.mark.parametrize("budget", [1000, 2000])
def test_an_entry_s_preview_names_its_version_beside_its_name(budget, counter):
    """`pip inspect` (real, the json-pip-inspect case): a package collapsed to one line shows
    which release it is, not only its name — `{ "name": "urllib3", "version": "2.8.0", … }`.
    Every preview naming a package that has a version shows that version."""
    text = (CASES_DIR / "json-pip-inspect" / "input").read_text()
    versions = {entry["metadata"]["name"]: entry["metadata"]["version"]
                for entry in json.loads(text)["installed"]}
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    previews = re.findall(r'"metadata": \{ "name": "([^"]+)"(.*)', out)
    assert previews
    for name, rest in previews:
        assert rest.startswith(f', "version": "{versions[name]}", … ')


def test_an_array_of_records_shows_its_entries_of_rare_field_values(counter):
    """`ruff check --output-format=json` (real, typer): 225 findings, nearly all `E501`. The
    findings of a rule seen on few of them (a code held by at most a tenth of the entries and
    a quarter of the usual code's) are shown before the middle's other entries."""
    text = (Path(__file__).parent / "corpus" / "ruff-json-select-typer-0.27.3"
            / "output.txt").read_text()
    findings = json.loads(text)
    codes: dict[str, int] = {}
    for finding in findings:
        codes[finding["code"]] = codes.get(finding["code"], 0) + 1
    usual = max(codes.values())
    rare = [code for code, n in codes.items() if n <= len(findings) // 10 and 4 * n <= usual]
    assert rare and usual > 100
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    for code in rare:
        name = next(f["name"] for f in findings if f["code"] == code)
        assert f'"code": "{code}"' in out or f'{{ "name": "{name}"' in out, code


def test_records_of_a_field_s_rarest_values_come_before_merely_unique_measurements(counter):
    """nginx's JSON access log (real, 1,828 records): a status seen once among eight (a 504,
    a 499, a 413) tells more than one of 46 request times or 22 byte counts seen once. Rare
    values are ranked by how much rarer than their field's average value they are."""
    text = (Path(__file__).parent / "corpus" / "nginx-1.22-json-access-log-upstream-timings"
            / "output.txt").read_text()
    statuses: dict[int, int] = {}
    for line in text.splitlines():
        status = json.loads(line)["status"]
        statuses[status] = statuses.get(status, 0) + 1
    once = [status for status, n in statuses.items() if n == 1]
    assert len(once) >= 3 and len(statuses) <= 10
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    for status in once:
        assert f'"status":{status},' in out, status


@pytest.mark.parametrize("budget", [1000, 4000])
def test_records_of_a_failed_rare_value_come_before_other_rare_ones(counter, budget):
    """The same log: its 10 answers 500 and 25 answers 502 are rare too, but one request time
    seen once outranked them by rarity, so an application's first 500 (what a reader
    correlates with its own log) and the first 502 were not shown even at 4000. A rare value
    that reads as a failure (templates.severity of `"key": value`: a 5xx status, a level
    `error`) comes first, then a warning's (4xx), then the others."""
    text = (Path(__file__).parent / "corpus" / "nginx-1.22-json-access-log-upstream-timings"
            / "output.txt").read_text()
    rows = text.splitlines()
    first = {}
    for row in rows:
        first.setdefault(json.loads(row)["status"], row)
    failed = [status for status in first if status >= 500]
    assert len(failed) >= 3
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    shown = [line for line in out.splitlines() if line.startswith("{")]
    for status in failed:  # the first record of each, if cut then by its own start
        start = first[status][:150]
        assert any(line.startswith(start) for line in shown), status


def test_a_larger_budget_cuts_a_long_record_later(counter):
    """The same log's records run 300-370 characters; cut at 200, the one 504 (the request
    that timed out on both upstreams) lost the upstream addresses that say so. A line is cut
    at LINE_LIMIT characters or at a fifth of the budget, whichever is more: at 1000 tokens
    the record is cut, at 2000 it is whole."""
    text = (Path(__file__).parent / "corpus" / "nginx-1.22-json-access-log-upstream-timings"
            / "output.txt").read_text()
    timed_out = next(row for row in text.splitlines() if json.loads(row)["status"] == 504)
    assert len(timed_out) > line_limit(1000, json_shape.LINE_LIMIT)
    lines = {budget: compress(text, tool="Bash", budget=budget, counter=counter).text.splitlines()
             for budget in (1000, 2000)}
    assert timed_out not in lines[1000]
    assert any(line.startswith(timed_out[:150]) for line in lines[1000])
    assert timed_out in lines[2000]
