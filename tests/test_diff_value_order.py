"""The diff planner spends hunks by value on every real diff of the corpus (tests/corpus cases
sniffed as diffs: `git diff`, `git log -p`, `git show`, `git format-patch`, `diff -ru`, …):

- no test, vendored, doc, config or lock hunk is shown while a changed source file or manifest
  shows none of its hunks (a reviewer reads the change before its tests);
- every file is named by its own first line when the files' first lines take a small part of
  the budget;
- a hunk that only re-sorts or re-wraps what it touches is told from one that changes it.

What is kept is read from the plan itself (its Keep items), the classes from the file paths.
"""

from __future__ import annotations

import json
from functools import cache

import pytest
from conftest import GROWN_DIR

from headroom_cli.api import compress
from headroom_cli.clean import clean
from headroom_cli.plan import Keep, Lines
from headroom_cli.planners import diff
from headroom_cli.render import CLOSING_MARKER_TOKENS
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

BUDGETS = (500, 1000, 2000, 4000)


@cache
def _diff_cases() -> tuple[str, ...]:
    names = []
    for case in sorted(p for p in GROWN_DIR.iterdir() if (p / "meta.json").is_file()):
        meta = json.loads((case / "meta.json").read_text(encoding="utf-8"))
        text = (case / "output.txt").read_bytes().decode("utf-8", errors="replace")
        if "\x00" not in text and sniff(Lines(clean(text)), lookup(meta["tool"])) == "diff":
            names.append(case.name)
    return tuple(names)


def _text(case: str) -> str:
    return clean((GROWN_DIR / case / "output.txt").read_bytes().decode("utf-8",
                                                                      errors="replace"))


def _kept(text: str, budget: int, counter) -> set[int]:
    """The 0-based lines the diff planner keeps at `budget`."""
    lines = Lines(text)
    plan = diff.plan(text, lines, budget, counter, lookup("Bash"))
    assert plan is not None
    kept: set[int] = set()
    for item in plan.items:
        if isinstance(item, Keep) and item.end > item.start:
            kept.update(range(lines.line_of(item.start), lines.line_of(item.end - 1) + 1))
    return kept


def test_the_corpus_has_diffs_of_many_forms():
    cases = _diff_cases()
    assert len(cases) >= 25
    for form in ("git-diff", "git-log-p", "git-show", "git-format-patch", "diff-ru"):
        assert any(case.startswith(form) for case in cases), form




@pytest.mark.parametrize("budget", BUDGETS)
def test_no_test_doc_or_config_hunk_while_a_source_file_shows_none(budget, counter):
    """… unless that file's hunk headers alone (each with its body's marker) cost more than
    the budget less what the clip keeps besides the lower files' hunks: it could not be shown,
    and its room goes to the next class instead of being left unused."""
    for case in _diff_cases():
        text = _text(case)
        rows = text.splitlines()
        files = diff.parse(rows).files
        kept = _kept(text, budget, counter)
        used = counter.count(compress(text, tool="Bash", budget=budget, counter=counter).text)
        classes = [diff.value_class(f.path, f.notes) for f in files]
        shown = [any(h.header in kept for h in f.hunks) for f in files]
        for f, c, s in zip(files, classes, shown):
            if not s or c < diff.TESTS:
                continue
            lower = {i for g, d in zip(files, classes) if d >= c
                     for h in g.hunks for i in range(h.header, h.end)}
            # (less the room a plan sets aside for its closing marker, which the marker
            # printed need not use up, and which fitting may take from the plan's budget)
            free = budget - used - CLOSING_MARKER_TOKENS + sum(
                counter.count(rows[i]) for i in kept if i in lower)
            for g, d, t in zip(files, classes, shown):
                if d < c and g.hunks and not t and "deleted" not in g.notes:
                    cost = sum(counter.count(rows[h.header]) + counter.count(
                        f"[… lines {h.header + 2:,}–{h.end:,} omitted ({h.end - h.header - 1:,}"
                        f" lines; +{h.added:,} −{h.removed:,}) …]") for h in g.hunks)
                    assert cost > free, (case, budget, f.path, "shown while", g.path,
                                         "shows no hunk")


@pytest.mark.parametrize("budget", BUDGETS)
def test_a_long_diff_uses_its_budget(budget, counter):
    """Hunks that wait for a file that cannot be shown do not leave the budget unused: a clip of
    a diff more than twice its budget uses at least 85% of it."""
    for case in _diff_cases():
        text = _text(case)
        if counter.count(text) <= 2 * budget:
            continue
        result = compress(text, tool="Bash", budget=budget, counter=counter)
        assert counter.count(result.text) >= 0.85 * budget, (case, budget)


def test_every_file_is_named_when_their_first_lines_take_a_tenth_of_the_budget(counter):
    budget = 4000
    checked = 0
    for case in _diff_cases():
        text = _text(case)
        rows = text.splitlines()
        files = diff.parse(rows).files
        if sum(counter.count(rows[f.start]) for f in files) > budget // 10:
            continue
        kept = _kept(text, budget, counter)
        for f in files:
            assert f.start in kept, (case, rows[f.start])
        checked += 1
    assert checked >= 10


def _hunks(case: str) -> tuple[list[str], list[diff.Hunk]]:
    rows = _text(case).splitlines()
    return rows, [h for f in diff.parse(rows).files for h in f.hunks]


def test_a_resorted_import_or_rewrapped_call_is_cosmetic_and_a_new_option_is_not():
    rows, hunks = _hunks("git-diff-fd-v10.3.0-v10.4.0")
    by_body = {h.header: "\n".join(rows[h.header + 1:h.end]) for h in hunks}
    resorted = [h for h in hunks if "-use anyhow::{anyhow, Result};" in by_body[h.header]]
    assert resorted and all(diff._cosmetic(rows, h) for h in resorted)
    rewrapped = [h for h in hunks if "+        assert!(\n" in by_body[h.header]
                 and "+" + " " * 8 + "assert!(" in by_body[h.header]]
    assert rewrapped and any(diff._cosmetic(rows, h) for h in rewrapped)
    feature = [h for h in hunks if ".ignore_contain" in by_body[h.header]]
    assert feature and not any(diff._cosmetic(rows, h) for h in feature)


def test_a_cosmetic_body_is_shown_only_after_every_other_source_body_fits(counter):
    """fd 10.4.0 re-sorts imports across its source (edition 2024's rustfmt): at each budget,
    a re-sorted body is shown only when every other source body is shown whole (a body that
    costs little more than the marker that would stand for it is shown instead of the marker:
    only bodies of more than 60 tokens, three markers' worth, are looked at)."""
    case = "git-diff-fd-v10.3.0-v10.4.0"
    text = _text(case)
    rows = text.splitlines()
    files = diff.parse(rows).files
    for budget in BUDGETS:
        kept = _kept(text, budget, counter)
        source = [h for f in files if diff.value_class(f.path, f.notes) == diff.SOURCE
                  for h in f.hunks]
        cosmetic = [h for h in source if diff._cosmetic(rows, h)]
        other = [h for h in source if not diff._cosmetic(rows, h)]
        if any(all(i in kept for i in range(h.header + 1, h.end)) for h in cosmetic
               if sum(counter.count(rows[i]) for i in range(h.header + 1, h.end)) > 60):
            assert all(all(i in kept for i in range(h.header + 1, h.end)) for h in other), budget


def test_vendored_code_is_read_after_tests_and_before_docs():
    assert diff.value_class("source/vendor/supports-color/index.js") == diff.VENDORED
    assert diff.value_class("src/pip/_vendor/rich/console.py") == diff.VENDORED
    assert diff.TESTS < diff.VENDORED < diff.DOCS
    assert diff.value_class("node_modules/chalk/index.js") == diff.LOCKED


def test_a_hand_fixed_vendored_module_shows_its_fix_when_the_budget_allows(counter):
    """chalk's colour-support fixes live in its vendored supports-color: at 4000 tokens (the
    17 patches are ~5,000) every one of those hunks is shown, its added lines with it."""
    case = "git-format-patch-chalk-v5.3.0-v5.6.2"
    text = _text(case)
    rows = text.splitlines()
    kept = _kept(text, 4000, counter)
    vendored = [f for f in diff.parse(rows).files
                if diff.value_class(f.path, f.notes) == diff.VENDORED]
    assert vendored
    for f in vendored:
        for h in f.hunks:
            assert all(i in kept for i in range(h.header, h.end) if rows[i].startswith("+")), (
                f.path, rows[h.header])


@pytest.mark.parametrize("case, line", [
    ("git-show-stat-M-wheel-refactor", '+requires-python = ">=3.9"'),
    ("git-diff-fd-v10.3.0-v10.4.0", '+rust-version = "1.90.0"'),
])
def test_a_manifests_changed_requirement_is_shown_at_4000(case, line, counter):
    text = _text(case)
    rows = text.splitlines()
    kept = _kept(text, 4000, counter)
    assert any(rows[i] == line for i in kept), line


def test_the_code_that_does_what_the_notes_say_is_shown(counter):
    """fd 10.4.0's changelog names its new option `--ignore-contain`; the source spells it
    `ignore_contain` in four files (the option, the config, main, the walker). At 2000 tokens each
    of them shows a changed line that names it."""
    case = "git-diff-fd-v10.3.0-v10.4.0"
    text = _text(case)
    rows = text.splitlines()
    kept = _kept(text, 2000, counter)
    files = [f for f in diff.parse(rows).files if diff.value_class(f.path, f.notes) == diff.SOURCE]
    naming = [f for f in files if any(rows[i][:1] in "+-" and "ignore_contain" in rows[i]
                                      for h in f.hunks for i in range(h.header + 1, h.end))]
    assert len(naming) >= 3
    for f in naming:
        assert any(rows[i][:1] in "+-" and "ignore_contain" in rows[i] for h in f.hunks
                   for i in range(h.header + 1, h.end) if i in kept), f.path


def test_a_series_that_bumps_a_version_again_and_again_shows_the_newest_bump(counter):
    """chalk's 17 patches bump package.json's version four times (5.4.0 … 5.6.2); the
    newest bump says where the series ends, and at 1000 tokens it is shown."""
    case = "git-format-patch-chalk-v5.3.0-v5.6.2"
    text = _text(case)
    rows = text.splitlines()
    kept = _kept(text, 1000, counter)
    bumps = [i for i, row in enumerate(rows) if row.startswith('+\t"version": ')]
    assert len(bumps) >= 4
    assert bumps[-1] in kept
    assert sum(i in kept for i in bumps) < len(bumps)


@pytest.mark.parametrize("budget", [550, 600])
def test_a_file_whose_key_lines_showed_some_headers_gets_the_others_when_they_fit(budget,
                                                                                   counter):
    """`diff -u` of urllib3's response.py between 2.2.3 and 2.3.0 (real, 9 hunks): the key lines
    (a signature changed, a method added) show four hunks with their headers; the other five
    headers, all of which fit, are shown too — within a shown file every hunk header — and the
    clip no longer stops at 414 tokens of its budget."""
    text = (GROWN_DIR / "diff-u-urllib3-response-2.2.3-2.3.0" / "output.txt").read_text()
    headers = [row for row in text.splitlines() if row.startswith("@@ ")]
    assert len(headers) == 9
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    assert all(header in out.splitlines() for header in headers)


def test_room_left_after_the_bodies_names_the_shown_file_s_other_hunks(counter):
    """The same diff at 500 tokens: the five other headers do not all fit, and all-or-none left
    86 tokens unspent (414 of 500). What is left names the file's other hunks in order, as far
    as it goes: the clip fills at least 85 % of its budget."""
    text = (GROWN_DIR / "diff-u-urllib3-response-2.2.3-2.3.0" / "output.txt").read_text()
    headers = [row for row in text.splitlines() if row.startswith("@@ ")]
    out = compress(text, tool="Bash", budget=500, counter=counter).text
    assert 0.85 * 500 <= counter.count(out) <= 500
    shown = [header for header in headers if header in out.splitlines()]
    assert 4 < len(shown) < len(headers)
