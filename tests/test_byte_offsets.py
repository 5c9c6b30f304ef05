"""Byte offsets in markers are offsets of the raw output, the stored copy's bytes, whatever
cleaning removed (colour codes, CR redraws) and whatever a streamed output never held
(clean.ByteMap, built by api.py for held outputs and by intake.py for streamed ones).

The property: for random bytes with escapes, NULs and CRs, a marker that names `--bytes A:B`
shows the output's bytes before A and after B (cleaned, unless binary) and omits exactly
bytes A..B, which `headroom show ID --bytes A:B` prints back; "of N bytes" is the raw size.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli import intake as stage
from headroom_cli.clean import ByteMap, clean, kept_runs

MARKER = re.compile(rb"\[\xe2\x80\xa6headroom: [^\n]*?--bytes (\d+):(\d+)\]\n")
OF_BYTES = re.compile(rb"bytes ([\d,]+)\xe2\x80\x93([\d,]+) of ([\d,]+)")
TEXT = [b"a", b"b", b" ", b"\r", b"\x1b[31m", b"\x1b[0m", b"\x1b]0;t\x07", b"\x1b", b"\xc3\xa9",
        b"\xff", b"xyz"]
HOLD_MODES = ["held", "streamed"]


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def shown_as(data: bytes, binary: bool) -> bytes:
    """How a kept part of the output is printed: as it is when binary, else cleaned."""
    return data if binary else clean(decode(data)).encode("utf-8", "surrogateescape")


@pytest.fixture
def streaming(monkeypatch):
    """Held whole up to 64 bytes, parts of 100, head and tail of ~budget x 2 characters."""
    monkeypatch.setattr(stage, "HOLD", 64)
    monkeypatch.setattr(stage, "PART", 100)
    monkeypatch.setattr(stage, "MIN_KEEP", 16)
    monkeypatch.setattr(stage, "MAX_KEEP", 120)


def check_named_bytes(run_cli, data: bytes, budget: int, binary: bool) -> bool:
    run = run_cli(["--budget", str(budget), "--encoding", "estimate"], data)
    assert run.exit_code == 0
    found = MARKER.search(run.stdout)
    if found is None:  # cut by lines, or fits: no bytes named
        return False
    first, last = int(found[1]), int(found[2])
    assert 1 <= first <= last + 1 <= len(data) + 1
    before, after = run.stdout[:found.start()], run.stdout[found.end():]
    assert before in (shown_as(data[:first - 1], binary), shown_as(data[:first - 1], binary) + b"\n")
    assert after == shown_as(data[last:], binary)
    spans = OF_BYTES.search(found[0])
    if spans:
        assert [int(value.replace(b",", b"")) for value in spans.groups()] == [first, last, len(data)]
    item_id = re.search(rb"show ([0-9a-f]{12})", found[0])[1].decode()
    assert run_cli(["show", item_id, "--bytes", f"{first}:{last}"]).stdout == data[first - 1:last]
    return True


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.lists(st.sampled_from(TEXT + [b"\x00", b"\n"]), min_size=1, max_size=600)
       .map(lambda parts: b"\x00\x01" + b"".join(parts)), budget=st.integers(70, 160))
@pytest.mark.parametrize("mode", HOLD_MODES)
def test_binary_markers_name_the_stored_bytes(run_cli, request, mode, data, budget):
    if mode == "streamed":
        request.getfixturevalue("streaming")
    check_named_bytes(run_cli, data, budget, binary=True)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.tuples(st.lists(st.sampled_from(TEXT), max_size=60),  # CR redraws and all
                      st.lists(st.sampled_from([t for t in TEXT if t != b"\r"]), min_size=100,
                               max_size=600)).map(lambda two: b"".join(two[0] + two[1])),
       budget=st.integers(70, 160))
@pytest.mark.parametrize("mode", HOLD_MODES)
def test_a_cut_inside_a_line_with_colour_codes_names_the_stored_bytes(run_cli, request, mode,
                                                                      data, budget):
    if mode == "streamed":
        request.getfixturevalue("streaming")
    check_named_bytes(run_cli, data, budget, binary=False)


# Lines of text whose first field a NUL ends, as `grep -Z` prints them: text, not binary data
# (no byte outside UTF-8, no BEL: TEXT's others, escapes and CRs included).
FIELD_TEXT = [part for part in TEXT if part not in (b"\xff", b"\x1b]0;t\x07")]
nul_lines = st.lists(st.lists(st.sampled_from(FIELD_TEXT), min_size=3, max_size=10)
                      .map(lambda parts: b"f.c\x00" + b"".join(parts) + b"\n"),
                      min_size=20, max_size=200).map(b"".join)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=nul_lines, budget=st.integers(70, 160))
@pytest.mark.parametrize("mode", HOLD_MODES)
def test_nul_separated_text_is_cleaned_and_never_cut_as_binary(run_cli, request, mode, data,
                                                               budget):
    if mode == "streamed":
        request.getfixturevalue("streaming")
    run = run_cli(["--budget", str(budget), "--encoding", "estimate"], data)
    assert run.exit_code == 0
    assert b"binary output" not in run.stdout
    check_named_bytes(run_cli, data, budget, binary=False)


def test_dev_urandom_like_output_names_its_bytes_from_the_start(run_cli, streaming):
    """The first cleaned-away bytes are named: binary output is never cleaned."""
    data = bytes(range(256)) * 40  # NUL, ESC, CR and every other byte
    assert check_named_bytes(run_cli, data, 120, binary=True)


def test_colour_codes_in_one_long_line_are_counted_in_the_bytes(run_cli):
    data = b"".join(b"\x1b[3%dmword%d\x1b[0m " % (i % 8, i) for i in range(3000))
    assert check_named_bytes(run_cli, data, 100, binary=False)


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["a", "\n", "\r", "\x1b[1m", "\x1b]x\x07", "\x1b", "é",
                                 "\udcff", "[", "m"]), max_size=40).map("".join))
def test_kept_runs_rebuild_the_cleaned_text_and_map_every_character(text):
    cleaned, runs = clean(text), kept_runs(text)
    rebuilt = "".join(text[source:source + (runs[i + 1][0] if i + 1 < len(runs) else
                                            len(cleaned)) - position]
                      for i, (position, source) in enumerate(runs))
    assert rebuilt == cleaned
    byte_map = ByteMap.of_cleaning(text, cleaned)
    raw = text.encode("utf-8", "surrogateescape")
    for position, char in enumerate(cleaned):
        at = byte_map.at(position)
        assert raw[at:at + len(char.encode("utf-8", "surrogateescape"))] == \
            char.encode("utf-8", "surrogateescape")
    assert byte_map.at(len(cleaned)) == len(raw) and byte_map.after(0) == 0
