"""The store: whatever a marker says was dropped comes back, byte for byte, from `headroom show`."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import time

import pytest
from pathlib import Path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from headroom_cli.api import compress
from headroom_cli.clean import clean
from headroom_cli.cli import app
from headroom_cli.retrieve import parse_range, split_lines
from headroom_cli.store import Retention, Store, content_id
from headroom_cli.tokens import EstimateCounter

HEADROOM = [sys.executable, "-m", "headroom_cli"]
HANG_GUARD = 120  # seconds; never an assertion
ID = re.compile(r"headroom show ([0-9a-f]{12})")
DAY = 86400.0


pytestmark = pytest.mark.usefixtures("private_env")


@pytest.fixture
def store_dir(tmp_path):
    return tmp_path / "store"


def cli(*args: str, input: bytes | None = None, command: list[str] | None = None,
        env: dict | None = None):
    return CliRunner().invoke(app, list(args), input=input, obj={"command": command}, env=env)


def numbered(count: int, prefix: str = "line") -> bytes:
    return b"".join(b"%s %d\n" % (prefix.encode(), i) for i in range(1, count + 1))


def stored_id(stdout: bytes) -> str:
    match = ID.search(stdout.decode("utf-8", "surrogateescape"))
    assert match, stdout
    return match.group(1)


# --- the flow: clip, store, name ----------------------------------------------------------------

def test_a_clipped_output_is_stored_and_named_by_the_marker(store_dir):
    data = numbered(5000)
    result = cli("--budget", "100", input=data)
    assert result.exit_code == 0
    item_id = stored_id(result.stdout_bytes)
    assert item_id == content_id(data)
    assert (store_dir / item_id).read_bytes() == data
    assert cli("show", item_id).stdout_bytes == data


def test_the_marker_is_deterministic(store_dir):
    data = numbered(5000)
    first = cli("--budget", "100", input=data).stdout_bytes
    second = cli("--budget", "100", input=data).stdout_bytes
    assert first == second
    assert os.listdir(store_dir) == [content_id(data)]


def test_output_that_fits_is_not_stored(store_dir):
    result = cli(input=b"hi\n")
    assert result.stdout_bytes == b"hi\n"
    assert not store_dir.exists()


@pytest.mark.parametrize("how", ["option", "env"])
def test_the_store_can_be_turned_off(store_dir, how, monkeypatch):
    if how == "env":
        monkeypatch.setenv("HEADROOM_STORE", "off")
    result = cli(*(["--no-store"] if how == "option" else []), "--budget", "100",
                 input=numbered(5000))
    assert result.exit_code == 0
    assert "re-run piped through sed -n" in result.stdout
    assert "headroom show" not in result.stdout
    assert result.stderr == ""
    assert not store_dir.exists()


def test_permissions_are_private_whatever_the_umask(store_dir):
    old = os.umask(0)
    try:
        item_id = stored_id(cli("--budget", "100", input=numbered(5000)).stdout_bytes)
    finally:
        os.umask(old)
    assert stat.S_IMODE(store_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE((store_dir / item_id).stat().st_mode) == 0o600


def test_default_location_is_the_xdg_state_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("HEADROOM_STORE")
    assert cli("store", "path").stdout == f"{tmp_path}/state/headroom/store\n"
    monkeypatch.delenv("XDG_STATE_HOME")
    assert cli("store", "path").stdout == f"{tmp_path}/home/.local/state/headroom/store\n"
    stored_id(cli("--budget", "100", input=numbered(5000)).stdout_bytes)
    assert len(os.listdir(tmp_path / "home/.local/state/headroom/store")) == 1


# --- the property: every marker's id and range bring back exactly what was dropped -------------

LINE_TEXT = st.text(alphabet=st.sampled_from(list("abcxyz 019:.-_/\t\r\x1b[m") + ["é", "█"]),
                    max_size=30)
TEMPLATES = st.lists(
    st.one_of(LINE_TEXT.map(lambda t: t.encode()),
              st.binary(max_size=12).map(lambda b: b.replace(b"\x00", b"").replace(b"\n", b""))),
    min_size=1, max_size=30)


@st.composite
def outputs(draw) -> bytes:
    """Up to a few thousand lines, cycling through drawn templates (numbered, or repeated
    verbatim), with or without a final newline: big enough to clip at the budgets drawn."""
    templates = draw(TEMPLATES)
    count = draw(st.integers(min_value=1, max_value=3000))
    numbered_lines = draw(st.booleans())
    lines = [templates[i % len(templates)] + (b" %d" % i if numbered_lines else b"")
             for i in range(count)]
    return b"\n".join(lines) + (b"\n" if draw(st.booleans()) else b"")


# One store for all of a test's examples is fine: it is content-addressed.
SHARED_STORE = [HealthCheck.function_scoped_fixture]


def clip_as_the_cli_does(data: bytes, budget: int, kind: str):
    """compress() as the CLI calls it (same id, so the same marker and the same plan)."""
    return compress(data.decode("utf-8", "surrogateescape"), tool=None, budget=budget,
                    kind=kind, counter=EstimateCounter(), store_id=content_id(data))


@settings(max_examples=60, deadline=None, suppress_health_check=SHARED_STORE)
@given(data=outputs(), budget=st.integers(min_value=80, max_value=400))
def test_kept_lines_and_shown_ranges_rebuild_the_input(store_dir, data, budget):
    result = cli("--budget", str(budget), "--kind", "other", input=data)
    assert result.exit_code == 0
    clipped = clip_as_the_cli_does(data, budget, "other")
    if not clipped.clipped:
        assert result.stdout_bytes == data
        return
    item_id = stored_id(result.stdout_bytes) if clipped.omitted else None
    output = result.stdout_bytes.decode("utf-8", "surrogateescape")
    lines = split_lines(data)
    rebuilt, position, next_line = [], 0, 1
    for first, last in (*clipped.omitted, (len(lines) + 1, None)):
        for number in range(next_line, first):  # a kept line: in the output, in order, cleaned
            kept = clean(lines[number - 1].decode("utf-8", "surrogateescape").rstrip("\n"))
            found = output.find(kept, position)
            assert found >= 0, (number, kept)
            position = found + len(kept)
            rebuilt.append(lines[number - 1])
        if last is None:
            break
        shown = cli("show", item_id, "--lines", f"{first}:{last}")
        assert shown.exit_code == 0
        assert shown.stdout_bytes == b"".join(lines[first - 1:last])
        rebuilt.append(shown.stdout_bytes)
        next_line = last + 1
    assert b"".join(rebuilt) == data


@settings(max_examples=40, deadline=None, suppress_health_check=SHARED_STORE)
@given(data=outputs(), budget=st.integers(min_value=80, max_value=400))
def test_every_omitted_range_of_any_shape_comes_back_exactly(store_dir, data, budget):
    result = cli("--budget", str(budget), input=data)
    assert result.exit_code == 0
    ranges = clip_as_the_cli_does(data, budget, "auto").omitted
    if ranges:
        item_id = stored_id(result.stdout_bytes)
        lines = split_lines(data)
        assert all(1 <= first <= last <= len(lines) for first, last in ranges)
        for first, last in ranges:
            shown = cli("show", item_id, "--lines", f"{first}:{last}").stdout_bytes
            assert shown == b"".join(lines[first - 1:last])


@settings(max_examples=40, deadline=None, suppress_health_check=SHARED_STORE)
@given(data=st.binary(min_size=2000, max_size=6000), position=st.integers(0, 1999),
       budget=st.integers(min_value=120, max_value=300))
def test_binary_markers_name_the_exact_dropped_bytes(store_dir, data, position, budget):
    data = data[:position] + b"\x00" + data[position:]
    result = cli("--budget", str(budget), input=data)
    output = result.stdout_bytes
    match = re.search(rb"headroom show ([0-9a-f]{12}) --bytes (\d+):(\d+)", output)
    assert match, output[-300:]
    item_id, first, last = match.group(1).decode(), int(match.group(2)), int(match.group(3))
    shown = cli("show", item_id, "--bytes", f"{first}:{last}").stdout_bytes
    assert shown == data[first - 1:last]
    assert output.startswith(data[:first - 1])  # what was kept before the gap, exactly


# --- show -------------------------------------------------------------------------------------

@pytest.fixture
def stored():
    data = numbered(5000)
    return stored_id(cli("--budget", "100", input=data).stdout_bytes), data


def test_show_head_tail_lines_bytes(stored):
    item_id, data = stored
    assert cli("show", item_id, "--head", "2").stdout_bytes == b"line 1\nline 2\n"
    assert cli("show", item_id, "--tail", "2").stdout_bytes == b"line 4999\nline 5000\n"
    assert cli("show", item_id, "--tail", "0").stdout_bytes == b""
    assert cli("show", item_id, "--lines", "301:303").stdout_bytes == (
        b"line 301\nline 302\nline 303\n")
    assert cli("show", item_id, "--lines", "4999:").stdout_bytes == b"line 4999\nline 5000\n"
    assert cli("show", item_id, "--bytes", "1:6").stdout_bytes == b"line 1"
    assert cli("show", item_id.upper()).stdout_bytes == data


@pytest.mark.parametrize("written", ["301:4870", "301-4870", "301–4,870", "301..4870"])
def test_ranges_may_be_copied_from_a_marker(written):
    assert parse_range(written) == (301, 4870)


def test_show_grep_numbers_matching_lines(stored):
    item_id, _ = stored
    result = cli("show", item_id, "--grep", r"^line 49\d9$")
    assert result.stdout == "".join(f"{n}:line {n}\n" for n in range(4909, 5000, 10))
    assert cli("show", item_id, "--grep", "LINE 4999$", "-i").stdout == "4999:line 4999\n"


def test_show_grep_matches_through_colour_codes_and_prints_them(store_dir):
    data = numbered(3000) + b"\x1b[31mERROR\x1b[0m: boom\n"
    item_id = stored_id(cli("--budget", "100", input=data).stdout_bytes)
    assert cli("show", item_id, "--grep", "ERROR: boom").stdout_bytes == (
        b"3001:\x1b[31mERROR\x1b[0m: boom\n")


def test_huge_grep_output_is_clipped_under_the_budget(stored):
    item_id, _ = stored
    result = cli("show", item_id, "--grep", "line", "--budget", "200")
    assert result.exit_code == 0
    assert EstimateCounter().count(result.stdout) <= 200
    assert result.stdout.startswith("1:line 1\n")
    assert "[…headroom: " in result.stdout


def test_show_no_match_is_not_an_error(stored):
    result = cli("show", stored[0], "--grep", "nothing like this")
    assert (result.exit_code, result.stdout) == (0, "")
    assert "no line matches" in result.stderr


@pytest.mark.parametrize("args, status, message", [
    (["show", "0123456789ab"], 1, "may have been pruned"),
    (["show", "not-an-id"], 1, "not a stored output's id"),
    (["show", "../../etc/passwd"], 1, "not a stored output's id"),
])
def test_unknown_ids_fail_in_one_line(args, status, message):
    result = cli(*args)
    assert result.exit_code == status
    assert message in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stdout == ""


@pytest.mark.parametrize("options", [
    ["--lines", "1:2", "--head", "3"],
    ["--lines", "nonsense"],
    ["--lines", "5:2"],
    ["--lines", "0:2"],
    ["--grep", "("],
])
def test_bad_show_options_are_usage_errors(stored, options):
    result = cli("show", stored[0], *options)
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_a_damaged_copy_is_refused(stored, store_dir):
    item_id, data = stored
    (store_dir / item_id).write_bytes(data[:100])
    result = cli("show", item_id)
    assert result.exit_code == 1
    assert "damaged" in result.stderr
    assert result.stdout == ""


def test_show_never_prints_a_traceback_as_a_process(tmp_path):
    done = subprocess.run([*HEADROOM, "show", "0123456789ab"], capture_output=True,
                          timeout=HANG_GUARD)
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr
    assert b"pruned" in done.stderr


def test_show_with_the_store_off(stored, monkeypatch):
    monkeypatch.setenv("HEADROOM_STORE", "off")
    result = cli("show", stored[0])
    assert result.exit_code == 1
    assert "store is off" in result.stderr


# --- an unwritable store never breaks the main job ----------------------------------------------

def unwritable_locations(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    yield blocker / "store"  # under a file
    yield blocker  # a file itself
    if os.geteuid() != 0:  # root writes through read-only modes
        read_only = tmp_path / "read-only"
        read_only.mkdir(mode=0o500)
        yield read_only / "store"


def test_an_unwritable_store_warns_once_and_keeps_the_output(tmp_path, monkeypatch):
    for location in unwritable_locations(tmp_path):
        monkeypatch.setenv("HEADROOM_STORE", str(location))
        result = cli("--budget", "100", input=numbered(5000))
        assert result.exit_code == 0
        assert "[…headroom: " in result.stdout
        assert "re-run piped through sed -n" in result.stdout
        assert "headroom show" not in result.stdout
        assert result.stderr.count("\n") == 1
        assert "cannot keep the full output" in result.stderr


def test_an_unwritable_store_keeps_the_commands_exit_status(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = dict(os.environ, HEADROOM_STORE=str(blocker / "store"))
    done = subprocess.run(
        [*HEADROOM, "--budget", "200", "--", sys.executable, "-c",
         "import sys\nfor i in range(3000): print('line', i)\nsys.exit(3)"],
        capture_output=True, env=env, timeout=HANG_GUARD)
    assert done.returncode == 3
    assert b"The command exited with status 3." in done.stdout
    assert b"re-run piped through sed -n" in done.stdout
    assert done.stderr.count(b"\n") == 1
    assert b"Traceback" not in done.stderr


# --- many writers at once -----------------------------------------------------------------------

def test_concurrent_processes_store_byte_identical_copies(store_dir):
    same = numbered(4000, "shared")
    inputs = [same] * 16 + [numbered(4000 + i, f"own {i}") for i in range(16)]
    processes = [subprocess.Popen([*HEADROOM, "--budget", "100"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in inputs]
    for process, data in zip(processes, inputs):  # write all before reading any: overlap
        process.stdin.write(data)
        process.stdin.close()
    outputs = [(process.stdout.read(), process.stderr.read(), process.wait(timeout=HANG_GUARD))
               for process in processes]
    for (stdout, stderr, status), data in zip(outputs, inputs):
        assert (status, stderr) == (0, b"")
        item_id = stored_id(stdout)
        assert item_id == content_id(data)
        assert cli("show", item_id).stdout_bytes == data
    assert sorted(os.listdir(store_dir)) == sorted({content_id(data) for data in inputs})


# --- retention ------------------------------------------------------------------------------------

# Ages are set relative to now, as file times; the CLI prunes against the real clock.
NOW = time.time()
KEEP_ALL = Retention(max_bytes=1 << 40, max_age_days=float("inf"))


def fill(store: Store, ages_in_days: list[float], size: int = 1000) -> list[str]:
    """One stored output per age, `size` bytes each; returns their ids, oldest first."""
    ids = []
    for index, age in enumerate(ages_in_days):
        data = (b"%d " % index) * (size // 2)
        data = data[:size]
        item_id = content_id(data)
        store.put(item_id, data, KEEP_ALL, NOW)
        os.utime(Path(store.root, item_id), (NOW - age * DAY, NOW - age * DAY))
        ids.append(item_id)
    return ids


def test_prune_by_age(store_dir):
    store = Store(store_dir)
    ids = fill(store, [20, 15, 13, 1])
    pruned = store.prune(Retention(max_age_days=14), NOW)
    assert [entry.id for entry in pruned.removed] == ids[:2]
    assert [entry.id for entry in store.entries()] == ids[2:]


def test_prune_by_size_oldest_first(store_dir):
    store = Store(store_dir)
    ids = fill(store, [5, 4, 3, 2, 1])
    store.prune(Retention(max_bytes=2500), NOW)
    assert [entry.id for entry in store.entries()] == ids[3:]


def test_an_output_bigger_than_the_cap_takes_half_of_it_and_spares_the_rest(store_dir,
                                                                            monkeypatch):
    old_ids = fill(Store(store_dir), [3, 2, 1])
    monkeypatch.setenv("HEADROOM_STORE_MAX_BYTES", "2500")
    data = numbered(500)  # bigger than the cap on its own: kept in part, in half the cap
    item_id = stored_id(cli("--budget", "100", input=data).stdout_bytes)
    entries = Store(store_dir).entries()
    assert [entry.id for entry in entries] == [old_ids[2], item_id]  # the oldest made room
    assert entries[1].size <= 1250 and sum(entry.size for entry in entries) <= 2500


def test_pruning_on_write_by_age(store_dir, monkeypatch):
    ids = fill(Store(store_dir), [40, 10, 1])
    monkeypatch.setenv("HEADROOM_STORE_MAX_AGE_DAYS", "5")
    item_id = stored_id(cli("--budget", "100", input=numbered(5000)).stdout_bytes)
    assert sorted(os.listdir(store_dir)) == sorted([ids[2], item_id])


def test_a_bad_retention_setting_is_ignored_with_a_warning(store_dir, monkeypatch):
    monkeypatch.setenv("HEADROOM_STORE_MAX_BYTES", "lots")
    result = cli("--budget", "100", input=numbered(5000))
    assert result.exit_code == 0
    assert "ignoring HEADROOM_STORE_MAX_BYTES" in result.stderr
    assert (store_dir / stored_id(result.stdout_bytes)).exists()


def test_store_prune_command(store_dir):
    ids = fill(Store(store_dir), [20, 10, 1])
    result = cli("store", "prune", "--max-age-days", "14")
    assert result.exit_code == 0
    assert result.stdout == "removed 1 stored outputs (1,000 bytes); 2 remain (2,000 bytes)\n"
    assert sorted(os.listdir(store_dir)) == sorted(ids[1:])
    assert cli("store", "prune", "--max-bytes", "1K").exit_code == 0
    assert os.listdir(store_dir) == [ids[2]]
    assert cli("store", "prune", "--max-bytes", "0").exit_code == 0
    assert os.listdir(store_dir) == []
    assert cli("store", "prune", "--max-bytes", "plenty").exit_code == 2


def test_stale_temporary_files_are_cleaned_and_fresh_ones_left(store_dir):
    store = Store(store_dir)
    fill(store, [1])
    stale, fresh = store_dir / ".incoming-dead.tmp", store_dir / ".incoming-busy.tmp"
    for path, age in ((stale, 1.0), (fresh, 0.0)):
        path.write_bytes(b"partial")
        os.utime(path, (NOW - age * DAY, NOW - age * DAY))
    store.prune(Retention(), NOW)
    assert not stale.exists() and fresh.exists()


def test_store_list_and_path(store_dir):
    item_id = stored_id(cli("--budget", "100", input=numbered(5000)).stdout_bytes)
    listing = cli("store", "list").stdout
    assert listing.startswith(item_id)
    assert listing.rstrip().endswith("line 1")
    assert cli("store", "path").stdout == f"{store_dir}\n"
    assert cli("store").exit_code in (0, 2)  # help, not a traceback


def test_a_clip_that_names_no_id_stores_nothing(store_dir):
    # Only colour codes dropped: the cleaned text fits, no marker, nothing to point to.
    data = b"\x1b[31m" * 2000 + b"red\n"
    result = cli("--budget", "100", input=data)
    assert result.stdout_bytes == b"red\n"
    assert not store_dir.exists()


def test_a_range_padded_with_spaces_parses_and_a_run_of_spaces_is_rejected_at_once():
    # The pattern once had \s* at both ends of each alternative: 1,000 spaces took seconds to
    # reject and 100,000 would not finish (cubic). Matching the stripped text is linear.
    assert parse_range("  301 : 4870  ") == (301, 4870)
    assert parse_range(" 17 ") == (17, 17)
    with pytest.raises(ValueError):
        parse_range(" " * 100_000 + "x")
