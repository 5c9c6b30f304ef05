"""The JSON planner shows the input's own text: what a reader greps for in a JSON output (a
version line, a name, an error field, usually a whole line of the input) is found in the clip.

On every real output of the corpora (tests/corpus, ../shared/corpus) that headroom sniffs as
JSON, at every budget of bench/quality.py:
- every line the clip shows, its markers and previews aside, is text of the input: nothing is
  re-written (no re-quoted value, no dropped comma, no new separator);
- the input's first lines open the clip, each as it is, when they are cheap.
And on outputs whose layout once defeated that: `ip -j -p`'s `[ {` and `},{` lines, one-line
(minified) documents.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from headroom_cli import tools
from headroom_cli.api import compress
from headroom_cli.clean import clean
from headroom_cli.plan import Lines
from headroom_cli.sniff import sniff

GROWN_DIR = Path(__file__).resolve().parent / "corpus"
CORPUS_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpus"  # beside the checkout
BUDGETS = (500, 1000, 2000, 4000)


def _cases() -> list[Path]:
    found = []
    for root in (GROWN_DIR, CORPUS_DIR):
        if not root.is_dir():
            continue
        for case in sorted(p for p in root.iterdir() if (p / "meta.json").is_file()):
            meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
            text = _text(case)
            if sniff(Lines(clean(text)), tools.lookup(meta["tool"])) == "json":
                found.append(case)
    return found


def _text(case: Path) -> str:
    return (case / "output.txt").read_bytes().decode("utf-8", errors="replace")


def _tool(case: Path) -> str:
    return json.loads((case / "meta.json").read_text(encoding="utf-8"))["tool"]


CASES = _cases()


def test_there_are_json_cases_of_every_layout():
    texts = [_text(case) for case in CASES]
    assert len(CASES) >= 10
    assert any(len(t.splitlines()) == 1 for t in texts)  # minified
    assert any(t.lstrip().startswith("[ {") for t in texts)  # ip -j -p


def _clips(case: Path, counter):
    text = _text(case)
    for budget in BUDGETS:
        result = compress(text, tool=_tool(case), budget=budget, counter=counter)
        if result.clipped:
            assert result.kind == "json" and counter.count(result.text) <= budget
            yield budget, text, result.text


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_line_shown_is_the_inputs_own_text(case, counter):
    """Markers, the keys-shared note and previews carry `…` or open with `(all `; every other
    line of the clip, its indentation aside, is a piece of the input as it is."""
    own_lines = set(Lines(clean(_text(case))))
    for budget, text, out in _clips(case, counter):
        for line in out.splitlines():
            shown = line.lstrip()
            if "…" in shown or shown.startswith("(all "):
                continue
            assert shown in text or _collapsed(line, own_lines), (budget, line)


def _collapsed(line: str, own_lines: set[str]) -> bool:
    """An input line opening a container, then the whole of that short container as its
    preview: `      "engines": {` + ` "node": ">=6.9.0" }`."""
    return line.endswith(("}", "]")) and any(
        line[:at] in own_lines and line[:at].endswith(("{", "["))
        for at in range(len(line)) if line[at] == " ")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_first_lines_open_the_clip_as_they_are(case, counter):
    """Up to 10 first lines, as many as cost a tenth of the budget, each open a line of the
    clip, in order (a line of the input collapsed to its preview still opens with that line, a
    long one cut with its rest's marker opens it with its beginning; one minified line opens
    the clip with the input's own first characters)."""
    raw = Lines(clean(_text(case)))
    first = [raw.get(i) for i in range(min(10, len(raw)))]
    for budget, text, out in _clips(case, counter):
        shown = out.splitlines()
        if len(raw) == 1:
            head = text.lstrip()[:20]
            assert shown[0].startswith(head) or shown[1].startswith(head), budget
            continue
        cheap = [line for n, line in enumerate(first)
                 if counter.count("\n".join(first[:n + 1])) <= budget // 10
                 and line.strip(" \t[]{},")]  # `[ {`, `},{`: brackets only, nothing to grep
        at = 0
        for line in cheap:
            while at < len(shown) and not _opens(shown[at], line):
                at += 1
            assert at < len(shown), (budget, line)
            at += 1


def _opens(shown: str, line: str) -> bool:
    """The clip's line opens with the input's (its preview's), or is the input line's beginning
    with the marker of a long line's rest (`…(+123 chars)`: a JSON access log's record)."""
    if shown.startswith(line):
        return True
    start, marked, _ = shown.rpartition(" …(+")
    return bool(marked) and len(start) >= 40 and line.startswith(start)


def _corpus_text(name: str) -> str:
    return _text(GROWN_DIR / name)


def test_ip_json_pretty_lines_stay_the_inputs_own(counter):
    """`ip -j -p -d addr` opens with `[ {` and joins entries with `},{`: the document is laid
    out on lines all the same, so each interface's lines are shown as they are."""
    text = _corpus_text("ip-j-p-d-addr-kvm-guest")
    interfaces = json.loads(text)
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert out != text
    lines = out.splitlines()
    for interface in interfaces:
        assert f'        "ifname": {json.dumps(interface["ifname"])},' in lines
        assert f'        "mtu": {interface["mtu"]},' in lines


def test_a_minified_document_opens_with_its_own_first_characters(counter):
    """`cargo metadata` prints one line: the clip's first line is the input's first characters,
    as they are, through the first package's name and version."""
    text = _corpus_text("cargo-metadata-semver-one-line-json")
    package = json.loads(text)["packages"][0]
    out = compress(text, tool="Bash", budget=500, counter=counter).text
    top = out.splitlines()[0]
    assert text.startswith(top)
    assert f'"name":{json.dumps(package["name"])}' in top
    assert f'"version":{json.dumps(package["version"])}' in top


def test_minified_entries_are_shown_as_the_input_wrote_them(counter):
    """`pip list --format=json`, one line: every package the clip names is shown whole, as pip
    wrote it (`{"name": "pip", "version": "23.2.1"}`), so a grep for it finds it."""
    text = _corpus_text("pip-list-format-json-pyenv-3.11")
    packages = json.loads(text)
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    named = [p for p in packages if f'"name": {json.dumps(p["name"])},' in out]
    assert len(named) >= len(packages) // 4
    for package in named:
        written = json.dumps(package)
        assert written in text and written in out
    assert "of . not shown" in out  # the markers still name a jq path


def test_an_array_of_one_line_entries_keeps_its_first_and_last_lines_as_written(counter):
    """`sqlite3 -json` writes `[{…},` first and `{…}]` last: the bracket shares its line with an
    entry. Those lines were shown re-written (`[` alone, then the entry without its comma; the
    last entry collapsed to `{"sha":"4f8cdc2a1", … 5 more keys }`), so the first and the last
    rows — often what the query was for — could not be grepped for."""
    text = (Path(__file__).parent / "real" / "sqlite3-json-redis-commits-2024.txt").read_text()
    first, last = text.splitlines()[0], text.splitlines()[-1]
    assert first.startswith("[{") and last.endswith("}]")
    for budget in (500, 1000, 4000):
        out = compress(text, tool="Bash", budget=budget, counter=counter)
        assert out.kind == "json"
        shown = out.text.splitlines()
        assert shown[0] == first and last in shown, budget
        assert "(all 284 items have keys" in shown[1], budget  # after the bracket; one entry a line
