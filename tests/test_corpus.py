"""The grown corpus (tests/corpus/<id>/{output.txt,meta.json}) is well formed.

Not a quality threshold: bench/quality.py reports quality. These checks keep every case usable by
it and by ../shared/eval/score.py: the format is the one ../shared/corpus/README.md describes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from headroom_cli.clean import clean

CORPUS = Path(__file__).parent / "corpus"
CASES = sorted(p for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []
KINDS = {"log", "search", "other"}
TOOLS = {"Bash", "Grep", "Read", "Glob", "WebFetch"}
# a path is named when no path character is glued to either side (score.py's rule)
PATH_CHARS = r"[\w./\\-]"


def _meta(case: Path) -> dict:
    return json.loads((case / "meta.json").read_text(encoding="utf-8"))


def _text(case: Path) -> str:
    return (case / "output.txt").read_bytes().decode("utf-8", errors="replace")


def test_the_corpus_has_cases():
    assert len(CASES) >= 60


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_is_well_formed(case: Path):
    assert sorted(p.name for p in case.iterdir()) == ["meta.json", "output.txt"]
    meta = _meta(case)
    assert meta["id"] == case.name
    assert meta["kind"] in KINDS
    assert meta["tool"] in TOOLS
    assert isinstance(meta["command"], str) and meta["command"]
    assert isinstance(meta["source"], str) and meta["source"]
    assert isinstance(meta["exit_code"], int)
    assert (case / "output.txt").stat().st_size > 0


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_needles_are_short_literal_substrings(case: Path):
    meta, text = _meta(case), _text(case)
    needles = meta["needles"]
    assert needles, "a case without needles measures nothing"
    for needle in needles:
        assert set(needle) == {"text", "why"} and needle["why"]
        assert 0 < len(needle["text"]) <= 200
        # as a terminal shows it: a needle is never asked to hold colour codes (clean.py)
        assert needle["text"] in text or needle["text"] in clean(text), needle["text"]
    texts = [n["text"] for n in needles]
    assert len(set(texts)) == len(texts), "a needle listed twice"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_search_cases_name_their_files(case: Path):
    meta, text = _meta(case), _text(case)
    files = meta.get("files")
    if meta["kind"] != "search":
        assert files is None
        return
    assert files, "a search case lists every file that had a match"
    assert len(set(files)) == len(files)
    for path in files:
        named = re.search(rf"(?<!{PATH_CHARS}){re.escape(path)}(?![\w/\\-])", text)
        assert named, path


def test_corpus_stays_small():
    total = sum((c / "output.txt").stat().st_size for c in CASES)
    assert total < 40_000_000
