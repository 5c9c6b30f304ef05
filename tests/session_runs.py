"""Real test runs for the session tests: a small pytest file written by the test, run by the
real pytest (and unittest) in a temporary folder, then edited so one failure is fixed and one
appears. Nothing here synthesizes an output: every output is what the runner printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# Five tests, four failing; -vv makes the output well over the dedup threshold (~1,000 cl100k
# tokens), and well under the default budget.
TESTS = '''\
def check(values):
    total = 0
    for value in values:
        total += value
    return total


def test_sum_small():
    assert check([1, 2, 3]) == 7


def test_sum_large():
    assert check(range(100)) == 4951


def test_words():
    assert "headroom keeps what matters".split() == ["headroom", "keeps", "what", "counts"]


def test_mapping():
    assert {"a": 1, "b": 2, "c": 3} == {"a": 1, "b": 2, "c": 4}


def test_fine():
    assert check([]) == 0
'''
# The edit: test_sum_small is fixed, test_fine breaks.
EDITS = (("check([1, 2, 3]) == 7", "check([1, 2, 3]) == 6"), ("check([]) == 0", "check([]) == 1"))
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-vv", "test_x.py"]
SINCE_LINE = ("[headroom: since the previous run of this command (call 1): 1 failure fixed "
              "(test_x.py::test_sum_small), 1 new (test_x.py::test_fine), 3 unchanged; summary "
              "unchanged (\"4 failed, 1 passed\")]")

UNITTESTS = '''\
import unittest


class Numbers(unittest.TestCase):
    def test_one(self):
        self.assertEqual(1 + 1, 3)

    def test_two(self):
        self.assertTrue(False)

    def test_three(self):
        self.assertEqual(3, 3)
'''


def runner_env() -> dict:
    """pytest without third-party plugins (their header lines differ between machines)."""
    env = dict(os.environ)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env.pop("PYTEST_ADDOPTS", None)
    return env


def write_tests(folder: Path) -> None:
    (folder / "test_x.py").write_text(TESTS)


def edit_tests(folder: Path) -> None:
    path = folder / "test_x.py"
    text = path.read_text()
    for old, new in EDITS:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text)


def pytest_output(folder: Path) -> bytes:
    done = subprocess.run(PYTEST, cwd=folder, capture_output=True, env=runner_env(), timeout=300)
    assert done.returncode == 1, done.stderr
    return done.stdout


def unittest_output(folder: Path) -> bytes:
    (folder / "test_numbers.py").write_text(UNITTESTS)
    done = subprocess.run([sys.executable, "-m", "unittest", "test_numbers"], cwd=folder,
                          capture_output=True, env=runner_env(), timeout=300)
    assert done.returncode == 1
    return done.stderr
