"""The savings ledger: concurrent writers lose no rows; summaries add up; failures are quiet."""

from __future__ import annotations

import subprocess
import sys

from headroom_cli.ledger import Recorded, Run, record, summary

WRITER = """
import sys
from headroom_cli.ledger import Recorded, Run, record
path, worker = sys.argv[1], int(sys.argv[2])
for i in range(25):
    assert record(path, Run("clip", tool="Bash", kind="log", input_tokens=1000 + worker,
                            output_tokens=100, clipped=True, store_id=f"{worker:012x}")
                  ) is not Recorded.FAILED
"""


def test_32_concurrent_writers_lose_no_rows(tmp_path):
    path = str(tmp_path / "state" / "ledger.sqlite3")
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, path, str(n)]) for n in range(32)]
    assert all(w.wait(timeout=120) == 0 for w in writers)
    totals = summary(path)["totals"]
    assert totals["runs"] == 32 * 25
    assert totals["input_tokens"] == sum((1000 + n) * 25 for n in range(32))
    assert totals["saved_tokens"] == totals["input_tokens"] - 32 * 25 * 100


def test_summary_groups_by_tool_kind_and_day(tmp_path):
    path = str(tmp_path / "ledger.sqlite3")
    day = 86400.0
    record(path, Run("clip", "Bash", "log", 5000, 900, True), now=10 * day)
    record(path, Run("clip", "Grep", "search", 3000, 800, True), now=10 * day + 60)
    record(path, Run("clip", "Bash", "other", 100, 100, False), now=12 * day)
    record(path, Run("show", store_id="abc"), now=12 * day + 5)
    result = summary(path)
    assert result["by_tool"]["Bash"]["runs"] == 2
    assert result["by_tool"]["Bash"]["saved_tokens"] == 5000 - 900
    assert result["by_kind"]["search"]["input_tokens"] == 3000
    assert result["totals"]["shows"] == 1 and result["totals"]["clipped"] == 2
    assert len(result["by_period"]) == 2


def test_a_show_is_booked_to_the_clip_it_retrieves_never_to_a_phantom_row(tmp_path):
    path = str(tmp_path / "ledger.sqlite3")
    record(path, Run("clip", "Grep", "search", 3000, 800, True, store_id="0123456789ab"), now=10)
    record(path, Run("show", store_id="0123456789ab"), now=11)
    record(path, Run("show", store_id="ba9876543210"), now=12)  # its clip was not recorded
    result = summary(path)
    assert result["by_tool"]["Grep"]["shows"] == 1 and result["by_kind"]["search"]["shows"] == 1
    assert set(result["by_tool"]) == {"Grep"} and set(result["by_kind"]) == {"search"}
    assert result["totals"]["shows"] == 2 and result["by_tool"]["Grep"]["runs"] == 1


def test_an_unwritable_ledger_is_reported_not_raised(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert record(str(blocker / "ledger.sqlite3"), Run("clip")) is Recorded.FAILED


def test_a_missing_ledger_summarises_to_zero(tmp_path):
    assert summary(str(tmp_path / "none.sqlite3"))["totals"]["runs"] == 0


# ------------------------------------------------- a ledger another process holds locked

NUMBERS = b"".join(b"%d\n" % i for i in range(1, 2001))


def _clip(env, *args):
    from conftest import HEADROOM_SCRIPT

    return subprocess.run([HEADROOM_SCRIPT, "--budget", "100", *args], input=NUMBERS,
                          capture_output=True, env=env, timeout=120)


def test_a_locked_ledger_queues_the_row_and_the_next_run_records_it(private_env, tmp_path):
    import json
    import os

    from conftest import locked_ledger

    ledger = tmp_path / "state" / "headroom" / "ledger.sqlite3"
    with locked_ledger(ledger):  # the locker's own first row is in the ledger
        held = _clip(os.environ)
        assert held.returncode == 0 and held.stdout.rstrip().endswith(b"2000")
        assert held.stderr == b""  # nothing is lost, so nothing to warn about
        # Queued, not lost: stats reads the queue while the ledger is still locked.
        assert summary(str(ledger))["totals"]["runs"] == 2
    free = _clip(os.environ)
    assert free.returncode == 0 and free.stderr == b""
    assert not (ledger.parent / "ledger.sqlite3.queue").read_bytes()  # moved into the ledger
    stats = subprocess.run([sys.executable, "-m", "headroom_cli", "stats", "--json"],
                           capture_output=True, env=os.environ, timeout=120)
    assert json.loads(stats.stdout)["totals"]["runs"] == 3


def test_queued_rows_are_counted_once_and_a_torn_line_is_skipped(tmp_path):
    from headroom_cli.ledger import queue_path

    path = str(tmp_path / "ledger.sqlite3")
    with open(queue_path(path), "w") as queue:
        queue.write('[5.0, "clip", "Bash", "log", 900, 100, 1, null]\n[6.0, "cl')
    assert summary(path)["totals"]["runs"] == 1  # from the queue alone
    assert record(path, Run("clip", "Grep", "search", 50, 50, False), now=7.0) \
        is Recorded.RECORDED
    totals = summary(path)["totals"]
    assert totals["runs"] == 2 and totals["input_tokens"] == 950


def test_a_ledger_locked_for_good_stops_queueing_and_says_so_once(private_env, tmp_path):
    import os

    from conftest import locked_ledger
    from headroom_cli.ledger import QUEUE_LIMIT

    ledger = tmp_path / "state" / "headroom" / "ledger.sqlite3"
    with locked_ledger(ledger):
        full = ledger.parent / "ledger.sqlite3.queue"
        full.write_bytes(b"x" * QUEUE_LIMIT)  # a stuck lock's queue, at its limit
        held = _clip(os.environ)
        assert held.returncode == 0 and held.stdout.rstrip().endswith(b"2000")
        warning = held.stderr.decode().strip()
        assert len(warning.splitlines()) == 1 and "locked" in warning
        assert full.stat().st_size == QUEUE_LIMIT


# ------------------------------------------------- the calls table: a migration that is safe

_OLD_SCHEMA = """CREATE TABLE runs (at REAL NOT NULL, event TEXT NOT NULL, tool TEXT, kind TEXT,
    input_tokens INTEGER, output_tokens INTEGER, clipped INTEGER, store_id TEXT)"""


def test_an_old_ledger_gains_the_calls_table_and_keeps_its_rows(tmp_path):
    """A ledger an older headroom wrote keeps its rows; the first new write adds `calls`; an
    older headroom (positional inserts into `runs`) can still write to it afterwards."""
    import sqlite3

    from headroom_cli.ledger import Call, read_rows

    path = str(tmp_path / "ledger.sqlite3")
    old = sqlite3.connect(path)
    old.execute(_OLD_SCHEMA)
    old.execute("INSERT INTO runs VALUES (1.0, 'clip', 'Bash', 'log', 900, 100, 1, 'aaa')")
    old.commit()
    old.close()
    assert summary(path)["totals"]["runs"] == 1  # read before any new write
    call = Call(session="s", call=1, family="pytest", command="c1", tool="Bash", kind="log",
                budget=4000, input_tokens=5000, output_tokens=800, clipped=True, store_id="bbb")
    assert record(path, Run("clip", "Bash", "log", 5000, 800, True, "bbb"), now=2.0,
                  call=call) is Recorded.RECORDED
    older = sqlite3.connect(path)
    older.execute("INSERT INTO runs VALUES (3.0, 'show', NULL, NULL, NULL, NULL, 0, 'bbb')")
    older.commit()
    older.close()
    runs, calls = read_rows(path)
    assert [row[0] for row in runs] == [1.0, 2.0, 3.0]
    assert calls == [(2.0, "s", 1, "pytest", "c1", "Bash", "log", 4000, 5000, 800, 1, 0, 0,
                      "bbb", None, None)]


_CALLS_BEFORE_CONTEXT = """CREATE TABLE calls (at REAL NOT NULL, session TEXT, call INTEGER,
    family TEXT, command TEXT, tool TEXT, kind TEXT, budget INTEGER, input_tokens INTEGER,
    output_tokens INTEGER, clipped INTEGER, identical INTEGER, since INTEGER, store_id TEXT)"""


def test_a_calls_table_from_before_the_context_columns_gains_them_and_keeps_its_rows(tmp_path):
    """`calls` as the previous headroom made it (14 columns): its rows stay, the next write
    adds base_budget and context_fill, and that headroom (naming its columns) still writes.
    A call it queued (14 values) is read with the two unknown."""
    import json
    import sqlite3

    from headroom_cli.ledger import Call, queue_path, read_rows

    path = str(tmp_path / "ledger.sqlite3")
    old = sqlite3.connect(path)
    old.execute(_OLD_SCHEMA)
    old.execute(_CALLS_BEFORE_CONTEXT)
    old.execute("INSERT INTO calls VALUES (1.0, 's', 1, 'make', 'c', 'Bash', 'log', 6000, 9000, "
                "900, 1, 0, 0, 'aaa')")
    old.commit()
    old.close()
    call = Call(session="s", call=2, family="make", budget=2000, base_budget=6000,
                context_fill=90, clipped=True)
    assert record(path, None, now=2.0, call=call) is Recorded.RECORDED
    older = sqlite3.connect(path)
    older.execute("INSERT INTO calls (at, session, call, family, command, tool, kind, budget, "
                  "input_tokens, output_tokens, clipped, identical, since, store_id) VALUES "
                  "(3.0, 's', 3, 'make', 'c', 'Bash', 'log', 6000, 10, 10, 0, 0, 0, NULL)")
    older.commit()
    older.close()
    with open(queue_path(path), "w") as queue:
        queue.write(json.dumps({"run": None, "call": [4.0, "s", 4, "make", "c", "Bash", "log",
                                                      6000, 10, 10, 0, 0, 0, None]}) + "\n")
    calls = read_rows(path)[1]
    assert [(row[2], row[7], row[-2], row[-1]) for row in calls] == [
        (1, 6000, None, None), (2, 2000, 6000, 90), (3, 6000, None, None),
        (4, 6000, None, None)]


def test_a_queue_holds_old_and_new_rows_and_both_are_read(tmp_path):
    """An older headroom's line (the 8 `runs` values) and a new one ({"run", "call"})."""
    import json

    from headroom_cli.ledger import Call, queue_path, read_rows

    path = str(tmp_path / "ledger.sqlite3")
    call = Call(session="s", call=2, family="make", clipped=False)
    with open(queue_path(path), "w") as queue:
        queue.write('[5.0, "clip", "Bash", "log", 900, 100, 1, null]\n')
        queue.write(json.dumps({"run": None, "call": list(call.values(6.0))}) + "\n")
    runs, calls = read_rows(path)
    assert len(runs) == 1 and calls == [call.values(6.0)]
    assert record(path, None, now=7.0, call=Call(session="s", call=3)) is Recorded.RECORDED
    runs, calls = read_rows(path)
    assert len(runs) == 1 and [row[2] for row in calls] == [2, 3]
