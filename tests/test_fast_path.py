"""Output that fits passes through before anything heavy is imported (start-up is a feature).

Timing is not asserted (machines are noisy; bench/bench.py measures it); which modules load is.
"""

import subprocess
import sys

import pytest

from headroom_cli.cli import _FLAGS, _VALUED, app

HEAVY = ("typer", "rich", "tiktoken", "pydantic", "regex", "sqlite3", "headroom_cli.api",
         "headroom_cli.planners", "subprocess")

PROBE = """
import sys
from headroom_cli.cli import main
sys.argv = ["headroom", *sys.argv[1:]]
try:
    main()
finally:
    sys.stderr.write("\\n".join(sorted(sys.modules)))
"""


def run_probe(args, data: bytes):
    done = subprocess.run([sys.executable, "-c", PROBE, *args], input=data,
                          capture_output=True, env={"PATH": "/usr/bin:/bin"}, timeout=60)
    return done.returncode, done.stdout, set(done.stderr.decode().split())


@pytest.mark.parametrize("args", [[], ["--budget", "4000"], ["-b", "100", "--tool", "Grep"],
                                  ["--budget=50", "--encoding", "estimate", "--no-store"]])
def test_output_that_fits_loads_no_heavy_module(args):
    status, out, loaded = run_probe(args, b"hi\n")
    assert status == 0 and out == b"hi\n"
    assert not [name for name in HEAVY if name in loaded]


def test_output_that_does_not_fit_takes_the_full_path():
    status, out, loaded = run_probe(["--budget", "100", "--no-store"], b"word " * 2000)
    assert status == 0 and b"headroom" in out
    assert "typer" in loaded


def test_the_pass_through_knows_only_options_the_full_parser_has():
    command = __import__("typer").main.get_command(app)
    declared = {opt for param in command.params for opt in param.opts}
    assert set(_VALUED) | _FLAGS <= declared
