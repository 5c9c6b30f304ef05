"""Configuration files (planners/config.py): mostly comments around the few lines that set
something, read for what they set. Real files of this machine (tests/real, README there) and
one of the tuning corpus; what each test expects is counted from the file itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import GROWN_DIR, corpus_case
from headroom_cli.api import compress
from headroom_cli.clean import clean
from headroom_cli.plan import Lines
from headroom_cli.planners import config
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

REAL = Path(__file__).parent / "real"
NUMBER = re.compile(r"^ *\d+\t", re.MULTILINE)  # `cat -n`'s


def _real(name: str) -> str:
    return (REAL / name).read_text(encoding="utf-8")


def _set_lines(text: str) -> list[str]:
    """The lines that set something: neither blank nor a comment (after `cat -n`'s number)."""
    return [row for row in text.split("\n")
            if (body := NUMBER.sub("", row).strip()) and body[0] not in "#;"]


def test_a_config_file_read_with_its_numbers_shows_every_line_that_sets_something(counter):
    """postgresql.conf is 815 lines, 25 of which set something (`port = 5432`, spread from line
    42 to 805); read as a file, the head and the tail showed 6 of them and lost the port, the
    connection limit and the memory settings."""
    text = _real("cat-n-postgresql-15-main-conf.txt")
    assert sniff(Lines(clean(text)), lookup("Read")) == "other"
    out = compress(text, tool="Read", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    settings = _set_lines(text)
    assert len(settings) == 25
    assert all(row in out for row in settings)


def test_a_config_file_printed_by_cat_is_no_log(counter):
    """Without its numbers, postgresql.conf's settings and comments name errors and warnings
    (`log_min_error_statement`, `#log_min_messages = warning`): it was sniffed as a log and cut
    by its error words. Its structure says what it is."""
    text = NUMBER.sub("", _real("cat-n-postgresql-15-main-conf.txt"))
    assert sniff(Lines(clean(text)), lookup("Bash")) == "other"
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert all(row in out for row in _set_lines(text))


def test_settings_left_commented_out_come_after_those_set(counter):
    """redis.conf (2,326 lines, 74 setting something): the settings its comments hold
    (`# requirepass foobared`: an option's name and syntax) are listed once every setting is."""
    meta, text = corpus_case(GROWN_DIR, "cat-n-redis-7.4.1-redis-conf")
    settings = _set_lines(text)
    for budget, commented_shown in ((1000, False), (4000, True)):
        out = compress(text, tool=meta["tool"], budget=budget, counter=counter).text
        assert counter.count(out) <= budget
        shown = sum(row in out for row in settings)
        if commented_shown:
            assert shown == len(settings)
            assert "  1050\t# requirepass foobared" in out
            assert "  1162\t# maxmemory-policy noeviction" in out
        else:
            assert shown > 0.9 * len(settings) and "# requirepass foobared" not in out


def test_a_properties_file_is_read_as_a_config(counter):
    """java.security (1,385 lines; `key=value` properties, values continued with `\\`): its
    providers and disabled algorithms, not its first and last comments."""
    text = _real("cat-java-17-openjdk-java-security.txt")
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert "security.provider.1=SUN" in out
    assert "jdk.tls.disabledAlgorithms=SSLv3, TLSv1, TLSv1.1, DTLSv1.0, RC4, DES, \\" in out


@pytest.mark.parametrize("name", ["cat-gcore-gdb-13.1.txt"])
def test_a_well_commented_script_is_no_config(name):
    """gcore: a shell script, two fifths comments; its lines run commands (`if`, `echo`,
    `$(…)`), set nothing."""
    rows = _real(name).split("\n")
    assert 3 * sum(1 for row in rows if row.lstrip().startswith("#")) >= \
        sum(1 for row in rows if row.strip())
    assert not config.looks_like(rows, lookup("Bash"))


@pytest.mark.parametrize("row, level", [
    ("port = 5432\t\t\t\t# (change requires restart)", 0),
    ("bind 127.0.0.1 -::1", 0),
    ("[global]", 0),
    ("#listen_addresses = 'localhost'\t\t# what IP address(es) to listen on;", 1),
    ("# save 3600 1 300 100 60 10000", 1),
    ("# requirepass foobared", 1),
    ("# Note that in order to read the configuration file, Redis must be", None),
    ("# units are case insensitive so 1GB 1Gb 1gB are all the same.", None),
    ("\t\t\t\t\t# when reading streaming WAL;", None),
    ('if [ "$#" -eq "0" ]; then', None),
])
def test_what_a_line_sets(row, level):
    found = config.entries([row])
    assert found == ([] if level is None else [(0, level)])


def test_a_line_is_judged_on_its_start(counter):
    """A value a million characters long (a key pasted whole) is judged by its first
    characters, like every line (costs.JUDGED_CHARS): the file is still read for its settings,
    within the budget."""
    rows = NUMBER.sub("", _real("cat-n-postgresql-15-main-conf.txt")).split("\n")
    rows[63] = "ssl_ciphers = '" + "HIGH:" * 200_000 + "'"
    assert config.looks_like(rows, lookup("Bash"))
    text = "\n".join(rows)
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000 and "max_connections = 100" in out
