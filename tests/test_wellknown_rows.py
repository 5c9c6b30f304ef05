"""The rows of a long list a reader looks up by name (issue #22, class: a single well-known row
among hundreds of one form): the C library in the linker's cache, pip in `pip list`, libc6 in
`dpkg -l`. No structure sets those rows apart; their names do (planners/wellknown.py).

Every expected row is found in the input by the name it carries, never copied from a clip.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import GROWN_DIR, corpus_case
from headroom_cli.api import compress
from headroom_cli.planners.wellknown import known_rows


def _clip(name: str, budget: int, counter) -> tuple[list[str], str]:
    meta, raw = corpus_case(GROWN_DIR, name)
    out = compress(raw, tool=meta["tool"], budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    return raw.splitlines(), out


def _row(lines: list[str], pattern: str) -> str:
    """The one input row matching `pattern`."""
    found = [line for line in lines if re.search(pattern, line)]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("name, pattern", [
    ("ldconfig-p-debian-bookworm", r"^\s*libc\.so\.6 "),  # one form on all 539 rows
    ("pip-list-v-pyenv-3.11", r"^pip\s"),  # a column table of 100 packages
    ("dpkg-l-debian-bookworm-dev-image", r"^ii\s+libc6:amd64\s"),  # a table under a legend
    ("cpp-dm-gcc-12-predefined-macros", r"^#define __GNUC__ "),  # 380 macros of one form
])
def test_a_well_known_row_is_kept_at_1000_tokens(name, pattern, counter):
    lines, out = _clip(name, 1000, counter)
    assert _row(lines, pattern) in out.splitlines()


def test_a_word_on_every_row_names_no_row(counter):
    """`(libc6,x86-64)` closes every row of `ldconfig -p`: it names the list. The rows named
    as known are the few whose own name is (libc, libssl, libm…), not hundreds."""
    _, raw = corpus_case(GROWN_DIR, "ldconfig-p-debian-bookworm")
    rows = raw.splitlines()
    found = known_rows(rows, len(rows))
    assert 0 < len(found) < len(rows) // 10
    assert rows.index(_row(rows, r"^\s*libc\.so\.6 ")) in found
    assert any(rows[i].strip().startswith("libssl") for i in found)


def test_the_most_fundamental_name_comes_first():
    """Asked for one row, the C library's before a compression library's, whatever their order
    in the list."""
    rows = ["\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1",
            "\tlibyaml-0.so.2 (libc6,x86-64) => /lib/x86_64-linux-gnu/libyaml-0.so.2",
            "\tlibc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6"]
    assert known_rows(rows, 1) == [2]


def test_a_path_names_where_a_thing_is_not_what_it_is():
    """An lsof row's path runs through `postgresql`, another's ends in `bash`: neither row is
    named by it; the row whose command is `bash` is."""
    rows = ["sleep 10241 root cwd DIR 8,1 4096 1041 /var/lib/postgresql/15/main",
            "sleep 10481 root txt REG 8,1 35336 5207 /usr/bin/bash",
            "bash 10470 root cwd DIR 8,1 4096 2 /root"]
    assert known_rows(rows, 3) == [2]


def test_a_name_between_other_words_is_an_argument():
    """`gcc` names the row `CC = "gcc"`, not the linker command that starts with it."""
    rows = ['BLDSHARED = "gcc -shared -L/root/lib"', 'AR = "ar"', 'CC = "gcc"']
    assert known_rows(rows, 3) == [2]


def test_names_are_read_through_their_coordinates_units_and_pods():
    """A Maven artifact is named after its group (`org.slf4j:slf4j-api:jar:1.7.36`), a systemd
    unit before its kind (`ssh.service`), a pod after its workload (`coredns-5d78c9869d-x7k2p`);
    `util-linux` is a name as it stands, not a pod of `util`."""
    rows = ["[INFO] +- org.example:widget-core:jar:2.1.0:compile",
            "[INFO] |  \\- org.slf4j:slf4j-api:jar:1.7.36:compile",
            "  ssh.service   loaded active running OpenBSD Secure Shell server",
            "kube-system   coredns-5d78c9869d-x7k2p   1/1   Running   0   3d",
            "ii  util-linux   2.38.1-5+deb12u3   amd64   miscellaneous system utilities"]
    assert sorted(known_rows(rows, 9)) == [1, 2, 3, 4]


def test_a_row_named_by_its_key_comes_before_one_whose_value_names_a_thing():
    """`python3 -m sysconfig` (real, tests/real): asked for a dozen rows, the settings whose own
    key is well known (`SHELL`, `PYTHONPATH`, `CXX`) come before those whose value only names
    something (`INSTSONAME = "libpython3.11.so.1.0"`, `RUNSHARED = "LD_LIBRARY_PATH=…"`)."""
    rows = (Path(__file__).parent / "real" / "python3-m-sysconfig-debian12.txt").read_text() \
        .splitlines()
    keys = [rows[i].split("=")[0].strip() for i in known_rows(rows, 12)]
    for own in ("SHELL", "PYTHONPATH", "CXX"):
        assert own in keys
        for valued in ("INSTSONAME", "RUNSHARED"):
            assert valued not in keys or keys.index(own) < keys.index(valued)
