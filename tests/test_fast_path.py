"""Output that fits passes through before anything heavy is imported (start-up is a feature).

Timing is not asserted (machines are noisy; bench/bench.py measures it); which modules load is.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from headroom_cli.cli import app
from headroom_cli.cli.options import FILTER_OPTIONS, HOOK_OPTIONS, parse_plain

HEAVY = ("typer", "rich", "tiktoken", "pydantic", "regex", "sqlite3", "headroom_cli.api",
         "headroom_cli.planners", "subprocess",
         # settings.py and what it loads cost the pass-through twice its own start-up
         "headroom_cli.settings", "headroom_cli.tokens", "dataclasses", "typing")

PROBE = """
import sys
from headroom_cli.cli import main
sys.argv = ["headroom", *sys.argv[1:]]
try:
    main()
finally:
    sys.stderr.write("\\n".join(sorted(sys.modules)))
"""


def run_probe(args, data: bytes, **env: str):
    done = subprocess.run([sys.executable, "-c", PROBE, *args], input=data,
                          capture_output=True, env={"PATH": "/usr/bin:/bin", **env}, timeout=60)
    return done.returncode, done.stdout, set(done.stderr.decode().split())


@pytest.mark.parametrize("args", [[], ["--budget", "4000"], ["-b", "100", "--tool", "Grep"],
                                  ["--budget=50", "--encoding", "estimate", "--no-store"]])
def test_output_that_fits_loads_no_heavy_module(args):
    status, out, loaded = run_probe(args, b"hi\n")
    assert status == 0 and out == b"hi\n"
    assert not [name for name in HEAVY if name in loaded]


def test_output_that_does_not_fit_is_clipped_without_typer_when_the_options_are_plain():
    status, out, loaded = run_probe(["--budget", "100", "--no-store"], b"word " * 2000)
    assert status == 0 and b"headroom" in out
    assert "typer" not in loaded and "rich" not in loaded



SCRIPT = Path(__file__).resolve().parents[1] / "bin" / "headroom"
SCRIPT_PROBE = """
import sys
sys.argv = [sys.argv[1], *sys.argv[2:]]
with open(sys.argv[0]) as script:
    code = compile(script.read(), sys.argv[0], "exec")
try:
    exec(code, {"__name__": "__main__"})
finally:
    sys.stderr.write("\\n".join(sorted(sys.modules)))
"""


def test_the_installed_command_passes_output_through_without_importing_re():
    # pip's wrapper for an entry point imports re (~12 ms) before headroom's first line runs;
    # the command is a script of ours (pyproject.toml) so that output that fits never pays it.
    done = subprocess.run([sys.executable, "-c", SCRIPT_PROBE, str(SCRIPT), "--budget", "100"],
                          input=b"hi\n", capture_output=True, env={"PATH": "/usr/bin:/bin"},
                          timeout=60)
    loaded = set(done.stderr.decode().split())
    assert done.returncode == 0 and done.stdout == b"hi\n"
    assert "headroom_cli.cli" in loaded
    assert not [name for name in ("re", "enum", "contextlib", *HEAVY) if name in loaded]

# What a clip needs no part of, though each costs every clip milliseconds to import: the
# standard dataclasses (inspect, ast, dis: values.py makes the value classes) and pathlib (with
# urllib.parse and ipaddress: the store works on str paths).
CLIP_NEEDS_NONE_OF = ("dataclasses", "inspect", "ast", "pathlib", "urllib.parse", "ipaddress",
                      "typer", "rich", "subprocess")


@pytest.mark.parametrize("data", [b"".join(b"2024-05-01 INFO request %d served\n" % n
                                           for n in range(3000)),
                                  b"".join(b"src/m%d.py:%d:def f():\n" % (n % 40, n)
                                           for n in range(3000))])
def test_a_clip_stored_and_counted_loads_none_of_the_costly_modules(data, tmp_path):
    # A user's default run: the output stored, the ledger written (in a home of the test's).
    status, out, loaded = run_probe(["--budget", "500"], data, HOME=str(tmp_path))
    assert status == 0 and b"headroom show" in out
    assert list((tmp_path / ".local" / "state" / "headroom").iterdir())
    assert not [name for name in CLIP_NEEDS_NONE_OF if name in loaded]


@pytest.mark.parametrize("args", [["--kind", "other", "-b100"], ["-b100"],
                                  ["--format", "json", "--budget", "100"]])
def test_other_options_go_to_the_typer_app(args):
    status, out, loaded = run_probe([*args, "--no-store"], b"word " * 2000)
    assert status == 0 and b"headroom" in out
    assert "typer" in loaded


@pytest.mark.parametrize("kind", [[], ["--kind", "auto"], ["--kind", "other"], ["-k", "log"]])
def test_both_paths_print_the_same_bytes(kind):
    data = b"".join(b"line %d of a plain log\n" % n for n in range(3000))
    plain = run_probe(["--budget", "150", "--no-store", *kind], data)
    typed = run_probe(["-b150", "--no-store", *kind], data)  # -bN: the app parses it
    assert "typer" not in plain[2] and "typer" in typed[2]
    assert plain[:2] == typed[:2] and b"headroom" in plain[1]


def test_both_parsers_read_one_definition_of_the_options():
    """The typer app's root options are exactly the table's: same names, same kind (flag or
    value), so the pass-through can never accept what the app would parse differently."""
    command = __import__("typer").main.get_command(app)
    declared = {param.name: (tuple(param.opts), param.is_flag) for param in command.params
                if param.opts != ["--help", "-h"] and "-h" not in param.opts}
    table = {option.dest: (option.names, not option.takes_value) for option in FILTER_OPTIONS}
    assert declared == table


def test_the_hook_command_declares_exactly_the_hook_table():
    """The same for `headroom hook`, whose options main() reads without typer: same names,
    same kind, and the same lower bound for the numbers (so a value typer would refuse goes to
    typer, which says why)."""
    group = __import__("typer").main.get_command(app)
    hook = group.commands["hook"]
    declared = {param.name: (tuple(param.opts), param.is_flag, getattr(param.type, "min", None))
                for param in hook.params if param.param_type_name == "option"
                and "--help" not in param.opts}
    table = {option.dest: (option.names, not option.takes_value,
                           None if option.minimum is None or option.minimum < 0
                           else option.minimum) for option in HOOK_OPTIONS}
    assert declared == table


@pytest.mark.parametrize("args", [["--exit-status", "3", "--no-store", "--tool=Bash"],
                                  ["--exit-status", "-1", "--max-bytes", "4000", "--no-store"]])
def test_the_hook_filter_runs_without_typer_as_typer_would(args):
    status, out, loaded = run_probe(["hook", "filter", "--budget", "100", *args], b"word " * 2000)
    assert status == 0 and b"headroom" in out and b"exited with status" in out
    assert "typer" not in loaded and "rich" not in loaded
    # An attached short option (-b100) is left to typer: the same run, parsed by the app.
    typed = run_probe(["hook", "filter", "-b100", *args], b"word " * 2000)
    assert "typer" in typed[2] and typed[:2] == (status, out)


@pytest.mark.parametrize("args", [["filter", "--budget", "-1"], ["filter", "--max-bytes=0"],
                                  ["filter", "--budget", "ten"], ["filter", "--bogus"],
                                  ["--help"], []])
def test_a_hook_option_typer_would_refuse_goes_to_typer(args):
    status, _, loaded = run_probe(["hook", *args], b"")
    assert "typer" in loaded and status in (0, 2)


@pytest.mark.parametrize("args, plain", [
    (["--budget", "7", "-t", "Grep", "-e=estimate", "--no-store", "--no-digest"], True),
    (["--budget=7"], True),
    (["--kind", "log"], True),  # a named shape changes nothing that fits (main() checks it)
    (["--format", "json"], False),  # wraps even output that fits
    (["--live"], False),
    (["--no-store=1"], False),  # a flag takes no value: the app reports it
    (["--budget"], False),  # a value is missing: the app reports it
    (["--bogus"], False),
])
def test_the_pass_through_takes_only_plain_options(args, plain):
    assert (parse_plain(args) is not None) == plain


def run_with_env(args, data: bytes, extra_env: dict):
    env = {"PATH": "/usr/bin:/bin", **extra_env}
    return subprocess.run([sys.executable, "-m", "headroom_cli", *args], input=data,
                          capture_output=True, env=env, timeout=60)


def test_a_config_file_budget_applies_to_output_that_would_fit_the_default(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("budget = 20\n")
    data = b"".join(b"line %d of some output\n" % n for n in range(40))  # ~1 KB: fits 4000
    done = run_with_env(["--no-store"], data, {"HEADROOM_CONFIG": str(config)})
    assert done.returncode == 0 and done.stdout != data and b"headroom" in done.stdout


def test_a_format_from_the_environment_wraps_output_that_fits():
    done = run_with_env(["--no-store"], b"hi\n", {"HEADROOM_FORMAT": "json",
                                                  "HEADROOM_CONFIG": "/nonexistent"})
    assert done.returncode == 0 and done.stdout.lstrip().startswith(b"{")


@pytest.mark.parametrize("args", [["--budget="], ["--encoding", "nope"], ["--kind", "nope"]])
def test_a_bad_plain_value_is_an_error_even_when_the_output_fits(args):
    done = run_with_env(args, b"hi\n", {"HEADROOM_CONFIG": "/nonexistent"})
    assert done.returncode == 2 and done.stdout == b"" and done.stderr


# The integrations' SDKs (optional extras) and their modules: never on the filter's path.
SDKS = ("mcp", "agents", "claude_agent_sdk", "anyio", "pydantic", "headroom_cli.mcp_proxy",
        "headroom_cli.integrations")


@pytest.mark.parametrize("args, data", [([], b"hi\n"), (["--budget", "100", "--no-store"],
                                                        b"word " * 2000),
                                        (["--help"], b""), (["mcp", "--help"], b""),
                                        (["hook", "claude"], b"{}")])
def test_no_path_of_the_command_line_loads_an_integrations_sdk(args, data):
    status, out, loaded = run_probe(args, data)
    assert status == 0 and (out or args[0] == "hook")  # the hook's empty reply: no change
    assert not [name for name in SDKS if name in loaded]
