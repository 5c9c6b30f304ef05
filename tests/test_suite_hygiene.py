"""The suite and the package metadata keep their promises: a missing corpus fails loudly, every
file pyproject.toml names exists, and the sealed set stays sealed and well formed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import conftest

ROOT = Path(__file__).resolve().parents[1]


def test_a_missing_corpus_fails_loudly_instead_of_yielding_no_cases(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "CORPUS_DIR", tmp_path / "no-corpus")
    with pytest.raises(FileNotFoundError, match="no-corpus"):
        conftest.corpus_cases("log")


def test_every_file_pyproject_names_exists():
    import tomllib

    text = (ROOT / "pyproject.toml").read_text()
    data = tomllib.loads(text)
    hatch = data["tool"]["hatch"]
    named = {data["project"]["readme"], hatch["version"]["path"],
             *hatch["build"]["targets"]["wheel"]["shared-data"]}
    named |= set(re.findall(r"[\w./-]+\.md\b", text))  # documents named in comments too
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert not missing, missing


SEALED = ROOT / "tests" / "sealed"
SEALED_KINDS = {"log", "search", "other"}
SEALED_MAX_BYTES = 3_000_000  # the set's own rule: no output above 3 MB
# A path is named when no path character is glued to either side (score.py's rule).
PATH_CHARS = r"[\w./\\-]"


def _sealed_cases() -> list[Path]:
    return sorted(p for p in SEALED.iterdir() if p.is_dir()) if SEALED.is_dir() else []


def test_no_planner_or_test_names_a_sealed_case():
    """The sealed set is scored, never opened while rules are written: no file of headroom_cli/
    or tests/ (but tests/sealed/ itself) names one of its cases. The ids are read here from the
    folder names, never written down; bench/quality.py's loader reads the folder, names none."""
    ids = sorted((case.name for case in _sealed_cases()), key=len, reverse=True)
    if not ids:
        pytest.skip("no sealed set in this checkout")
    named = re.compile(rf"(?<![\w.-])(?:{'|'.join(map(re.escape, ids))})(?![\w.-])")
    hits = []
    for top in (ROOT / "headroom_cli", ROOT / "tests"):
        for path in top.rglob("*"):
            if (not path.is_file() or path.is_relative_to(SEALED) or path.suffix == ".pyc"
                    or "__pycache__" in path.parts):
                continue
            text = path.read_bytes().decode("utf-8", errors="replace")
            if any(case_id in text for case_id in ids):  # the regex only where an id occurs
                hits += [f"{path.relative_to(ROOT)}: {m.group()}" for m in named.finditer(text)]
    assert not hits, hits


def _path_tokens(text: str) -> set[str]:
    """The runs of path characters, and each one's prefixes that a "." ends: a path among them
    is named (the regex below decides the rest, e.g. paths with an @ or a space)."""
    tokens = set()
    for token in re.findall(f"{PATH_CHARS}+", text):
        tokens.add(token)
        tokens.update(token[:i] for i, ch in enumerate(token) if ch == "." and i)
    return tokens


def _sealed_case_problems(case: Path) -> list[str]:
    if sorted(p.name for p in case.iterdir()) != ["meta.json", "output.txt"]:
        return ["a case is its meta.json and output.txt, nothing else"]
    meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
    raw = (case / "output.txt").read_bytes()
    text = raw.decode("utf-8", errors="replace")
    problems = []
    if meta.get("id") != case.name:
        problems.append(f"id {meta.get('id')!r} is not the folder's name")
    if meta.get("kind") not in SEALED_KINDS:
        problems.append(f"kind {meta.get('kind')!r} is not one of {sorted(SEALED_KINDS)}")
    for field in ("tool", "command", "source"):
        if not isinstance(meta.get(field), str) or not meta[field].strip():
            problems.append(f"no {field}")
    if not isinstance(meta.get("exit_code"), (int, type(None))):
        problems.append("exit_code is not a number")
    if not 0 < len(raw) <= SEALED_MAX_BYTES:
        problems.append(f"output.txt is {len(raw)} bytes")
    needles = meta.get("needles") or []
    if not needles:
        problems.append("no needles: the case measures nothing")
    for needle in needles:
        if not isinstance(needle, dict) or set(needle) != {"text", "why"}:
            problems.append(f"needle {needle!r} is not {{text, why}}")
            continue
        if not needle["why"].strip():
            problems.append(f"needle {needle['text']!r} says not why")
        if not 0 < len(needle["text"]) < 200 or "\n" in needle["text"]:
            problems.append(f"needle {needle['text'][:60]!r} is not one line under 200 characters")
        if needle["text"] not in text:
            problems.append(f"needle {needle['text'][:60]!r} is not in output.txt")
    texts = [n.get("text") for n in needles if isinstance(n, dict)]
    if len(set(texts)) != len(texts):
        problems.append("a needle listed twice")
    files = meta.get("files")
    if meta.get("kind") == "search":
        if not files:
            problems.append("a search case lists every file that had a match")
        tokens = _path_tokens(text)
        for path in files or ():
            if path not in tokens and not re.search(
                    rf"(?<!{PATH_CHARS}){re.escape(path)}(?![\w/\\-])", text):
                problems.append(f"file {path!r} is not named in output.txt")
    elif files is not None:
        problems.append("files belong to search cases")
    return problems


def test_every_sealed_case_is_well_formed():
    """Each sealed case is in the corpus format (../shared/corpus/README.md): its needles are
    literal one-line substrings of its output, each saying why a person would look for it; its
    kind is log, search or other; a search case names every file that matched."""
    problems = [f"{case.name}: {p}" for case in _sealed_cases() for p in _sealed_case_problems(case)]
    assert not problems, problems


def test_at_least_a_third_of_the_corpus_is_sealed():
    """Issue #22: tuning (tests/corpus) and sealed (tests/sealed) split the corpus, at least a
    third of it sealed, so the gap between them says whether the rules fit shapes or cases."""
    tuning = [p for p in (ROOT / "tests" / "corpus").iterdir() if (p / "meta.json").is_file()]
    sealed = [p for p in _sealed_cases() if (p / "meta.json").is_file()]
    assert 3 * len(sealed) >= len(tuning) + len(sealed), (len(sealed), len(tuning))
