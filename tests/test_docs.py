"""The man page, the shell completions and docs/cli.md's usage block never drift from the CLI.

They are generated from the typer app (headroom_cli/docs_gen.py, with docs_tree.py and docs_man.py) and checked in; these tests fail
when a checked-in file differs from what the generator produces now, and drive the completion
scripts in real shells (bash always; zsh and fish when installed). Regenerate with:

    .venv/bin/python -m headroom_cli.docs_gen
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from headroom_cli import __version__, docs_gen, docs_man, docs_tree
from headroom_cli.store import Retention, Store, content_id

ROOT = docs_tree.ROOT
BIN = Path(sys.executable).parent
HEADROOM = BIN / "headroom"


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return docs_gen.generate()


@pytest.fixture(scope="module")
def man() -> str:
    return (ROOT / docs_man.MAN_PAGE).read_text(encoding="utf-8")


def shell_env(tmp_path: Path, **extra) -> dict:
    """A clean environment with the installed `headroom` first on PATH."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("HEADROOM_", "_HEADROOM_", "_TYPER_", "COMP_"))}
    env.update(PATH=f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin", HOME=str(tmp_path / "home"),
               **extra)
    (tmp_path / "home").mkdir(exist_ok=True)
    return env


def needs_entry_point():
    if not HEADROOM.exists():
        pytest.skip(f"no installed headroom console script in {BIN}")


# --------------------------------------------------------------------------- no drift

def test_checked_in_files_are_what_the_generator_produces_now(generated):
    stale = docs_gen.stale(files=generated)
    assert not stale, (f"generated files out of date: {', '.join(stale)}; regenerate with "
                       f"`{docs_tree.REGENERATE}` and check them in")


def test_check_mode_reports_a_stale_file(tmp_path, generated):
    for path, content in generated.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(content, encoding="utf-8")
    assert docs_gen.stale(tmp_path, generated) == []
    (tmp_path / docs_man.MAN_PAGE).write_text("old\n", encoding="utf-8")
    assert docs_gen.stale(tmp_path, generated) == [docs_man.MAN_PAGE]


def test_generation_is_deterministic(generated):
    assert docs_man.man_page() == generated[docs_man.MAN_PAGE]
    assert docs_gen.usage_section() in generated[docs_gen.USAGE_DOC]


@pytest.mark.parametrize("shell", sorted(docs_gen.SHELLS))
def test_completion_scripts_are_what_the_installed_command_prints(tmp_path, shell):
    needs_entry_point()
    # stdin holds output that fits: the request must reach the app, not the pass-through.
    done = subprocess.run([str(HEADROOM)],
                          env=shell_env(tmp_path, _HEADROOM_COMPLETE=f"source_{shell}"),
                          input=b"short output\n", capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    checked_in = (ROOT / docs_gen.SHELLS[shell]).read_bytes()
    assert done.stdout.strip(b"\n") + b"\n" == checked_in


def test_wheel_installs_them_where_man_and_the_shells_look():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shared = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["shared-data"]
    assert shared == {
        docs_man.MAN_PAGE: "share/man/man1/headroom.1",
        docs_gen.SHELLS["bash"]: "share/bash-completion/completions/headroom",
        docs_gen.SHELLS["zsh"]: "share/zsh/site-functions/_headroom",
        docs_gen.SHELLS["fish"]: "share/fish/vendor_completions.d/headroom.fish",
    }
    for source in shared:
        assert (ROOT / source).stat().st_size > 0, source


# --------------------------------------------------------------------------- the man page

def test_man_page_has_every_section_and_a_fixed_date(man):
    sections = re.findall(r"^\.SH (.+)$", man, re.M)
    assert sections == ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "THE MARKER",
                        "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"]
    assert f".TH HEADROOM 1 {docs_man.RELEASE_DATES[__version__]} " in man
    assert str(ROOT) not in man and str(Path.home()) not in man


def test_man_page_documents_every_option_subcommand_and_variable(man):
    for ctx in docs_tree.walk():
        if ctx.parent is not None:
            assert f'.SS "{docs_man.roff_escape(ctx.command_path)}' in man, ctx.command_path
        for param in ctx.command.get_params(ctx):
            if param.param_type_name == "argument":
                assert f"\\fI{param.metavar or param.name.upper()}\\fR" in man
                continue
            for name in param.opts:
                assert f"\\fB{docs_man.roff_escape(name)}\\fR" in man, name
            for envvar in docs_tree.envvars(param):
                assert f".TP\n\\fB{docs_man.roff_escape(envvar)}\\fR" in man, envvar


def test_every_environment_variable_the_code_names_is_documented(man):
    environment = man.split("\n.SH ENVIRONMENT\n", 1)[1].split("\n.SH ", 1)[0]
    documented = set(re.findall(r"^\\fB(\S+)\\fR$", environment, re.M))
    missing = docs_man.variables_in_code() - {name.replace("\\-", "-") for name in documented}
    assert not missing, (f"add {sorted(missing)} to ENVIRONMENT in headroom_cli/docs_man.py "
                         f"(or give an option envvar=), then `{docs_tree.REGENERATE}`")


def test_every_option_the_docs_mention_exists(man, generated):
    declared = docs_tree.declared_options()
    page = generated[docs_gen.USAGE_DOC]
    usage = page[page.index(docs_gen.USAGE_START):page.index(docs_gen.USAGE_END)]
    mentioned = set(re.findall(r"(?<![\w\\-])(--[a-z][a-z0-9-]*)", usage))
    mentioned |= {name.replace("\\-", "-")
                  for name in re.findall(r"(?<![\w])((?:\\-){2}[a-z][a-z0-9]*(?:\\-[a-z0-9]+)*)",
                                         man)}
    assert mentioned - declared == set()


def test_man_page_shows_the_real_marker_wording(man):
    from headroom_cli.render import MARKER_PREFIX

    escaped = docs_man.roff_escape(MARKER_PREFIX.strip())
    assert man.count(escaped) >= 3


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
@pytest.mark.parametrize("device", ["utf8", "ascii", "ps"])
def test_groff_renders_the_man_page_without_a_warning(device):
    done = subprocess.run(["groff", "-man", "-ww", "-z", f"-T{device}",
                           str(ROOT / docs_man.MAN_PAGE)], capture_output=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_man_l_renders_it_without_a_warning(tmp_path, locale):
    env = shell_env(tmp_path, LC_ALL=locale, MANWIDTH="80", MAN_KEEP_FORMATTING="")
    done = subprocess.run(["man", "--warnings", "-l", str(ROOT / docs_man.MAN_PAGE)], env=env,
                          capture_output=True, timeout=60)
    assert done.returncode == 0 and done.stderr == b""
    assert b"THE MARKER" in done.stdout and b"--budget" in done.stdout


# --------------------------------------------------------------------------- help

HELP_PROBE = """
import atexit, sys
from headroom_cli.cli import main
sys.argv = ["headroom", *sys.argv[1:]]
atexit.register(lambda: sys.stderr.write("\\n".join(sorted(sys.modules))))
main()
"""


@pytest.mark.parametrize("path", [ctx.command_path.split()[1:] for ctx in docs_tree.walk()],
                         ids=lambda path: " ".join(["headroom", *path]))
def test_help_is_plain_fast_and_what_the_docs_show(tmp_path, path):
    ctx = next(c for c in docs_tree.walk() if c.command_path.split()[1:] == path)
    done = subprocess.run([sys.executable, "-c", HELP_PROBE, *path, "--help"],
                          env=shell_env(tmp_path, COLUMNS="80"), stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=60)
    loaded = set(done.stderr.decode().split())
    assert done.returncode == 0
    assert not {"rich", "tiktoken", "headroom_cli.planners", "headroom_cli.sniff"} & loaded
    assert done.stdout.decode() == docs_tree.help_text(ctx) + "\n"


@pytest.mark.parametrize("ctx", list(docs_tree.walk()), ids=lambda ctx: ctx.command_path)
def test_every_commands_help_shows_an_example_and_its_exit_statuses(ctx):
    text = docs_tree.help_text(ctx)
    hint = ("a `\\b` paragraph `Example:` (or `Examples:`) and one `Exit status:` in its help= "
            "in headroom_cli/cli/commands.py, laid out as the other commands' are")
    assert re.search(r"^  Examples?:\n    \S", text, re.M), hint
    assert re.search(r"^  Exit status:\n    0 ", text, re.M), hint


def test_help_names_every_shape_and_tool():
    from headroom_cli.sniff import KINDS
    from headroom_cli.tools import TOOLS

    root = docs_tree.root_context()
    params = {param.name: param for param in root.command.params}
    assert all(kind in params["kind"].help for kind in KINDS)
    assert all(tool in params["tool"].help for tool in TOOLS)


# --------------------------------------------------------------------------- completion

@pytest.fixture(scope="module")
def store_dir(tmp_path_factory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("store")
    store = Store(root)
    ids = []
    for text in (b"first stored output\n" * 50, b"second stored output\n" * 50,
                 b"another one\n" * 50):
        ids.append(content_id(text))
        store.put(ids[-1], text, Retention(), time.time())
    return root, ids


def bash_complete(tmp_path: Path, store: Path, words: list[str]) -> list[str]:
    """COMPREPLY from the checked-in bash script, for the words typed so far (the last one is
    the word being completed), as bash's programmable completion calls it."""
    script = (
        'source "$1"; shift\n'
        'COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n'
        'COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}\n'
        '_headroom_completion headroom "${COMP_WORDS[COMP_CWORD]}" '
        '"${COMP_WORDS[COMP_CWORD-1]}"\n'
        'printf "%s\\n" "${COMPREPLY[@]}"\n')
    # stdin is a pipe holding text: the completion request must not be taken for output to clip.
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", script, "bash",
                           str(ROOT / docs_gen.SHELLS["bash"]), *words],
                          env=shell_env(tmp_path, HEADROOM_STORE=str(store)),
                          input=b"stdin that must not be echoed\n", capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.decode().split("\n") if line]


def fixed_values(option: str) -> list[str]:
    root = docs_tree.root_context()
    param = next(p for p in root.command.params if option in p.opts)
    return docs_tree.fixed_values(root, param)[0]


def _value_options() -> list[str]:
    """Every root option with a fixed or known set of values (--tool, --kind, --encoding,
    --format, and whatever is added later)."""
    root = docs_tree.root_context()
    return [max(p.opts, key=len) for p in root.command.params
            if p.param_type_name == "option" and docs_tree.fixed_values(root, p)[0]]


def test_the_options_the_issue_names_have_values():
    assert {"--tool", "--kind", "--encoding"} <= set(_value_options())
    if "--format" in docs_tree.declared_options():
        assert "--format" in _value_options()


needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


@needs_bash
@pytest.mark.parametrize("option", _value_options())
def test_bash_completes_an_options_values(tmp_path, store_dir, option):
    needs_entry_point()
    values = fixed_values(option)
    assert bash_complete(tmp_path, store_dir[0], ["headroom", option, ""]) == values
    prefix = values[-1][:2]
    assert bash_complete(tmp_path, store_dir[0], ["headroom", option, prefix]) == [
        value for value in values if value.startswith(prefix)]


@needs_bash
@pytest.mark.parametrize("words, expected", [
    (["headroom", "--tool", "Gr"], ["Grep"]),
    (["headroom", "-k", "lo"], ["log"]),
    (["headroom", "--encoding", "o"], ["o200k_base"]),
    (["headroom", "--budget", "100", "--kind", "se"], ["search"]),
    (["headroom", "sto"], ["store"]),
    (["headroom", "store", ""], ["path", "list", "prune"]),
    (["headroom", "show", "--li"], ["--lines"]),
    (["headroom", "--", ""], []),  # the wrapped command's: left to the shell (file names)
    (["headroom", "--tool", "Bash", "--", "make", "--"], []),
])
def test_bash_completion_candidates(tmp_path, store_dir, words, expected):
    needs_entry_point()
    assert bash_complete(tmp_path, store_dir[0], words) == expected


@needs_bash
def test_bash_completes_show_with_the_stored_ids(tmp_path, store_dir):
    needs_entry_point()
    root, ids = store_dir
    assert sorted(bash_complete(tmp_path, root, ["headroom", "show", ""])) == sorted(ids)
    first = ids[0]
    assert first in bash_complete(tmp_path, root, ["headroom", "show", first[:3]])
    assert bash_complete(tmp_path, root, ["headroom", "show", "zz"]) == []


@needs_bash
def test_bash_completion_with_the_store_off_offers_no_ids(tmp_path):
    needs_entry_point()
    assert bash_complete(tmp_path, Path("off"), ["headroom", "show", ""]) == []


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_autoloads_the_script_from_site_functions_and_completes(tmp_path, store_dir):
    needs_entry_point()
    # compsys is replaced by stubs that print what it would be asked to offer; the script is
    # found the way an installed one is (on $fpath, registered by compinit from `#compdef`).
    script = f"""
        fpath=({ROOT / "completions"} $fpath)
        autoload -Uz compinit && compinit -u -D
        print -r -- "registered: $_comps[headroom]"
        _arguments() {{ print -r -- "offered: $*" }}
        _files() {{ print -r -- "offered: files" }}
        words=(headroom --kind ""); CURRENT=3; $_comps[headroom]
        words=(headroom show ""); CURRENT=3; $_comps[headroom]
        words=(headroom -- ""); CURRENT=3; $_comps[headroom]
    """
    done = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, timeout=60,
                          env=shell_env(tmp_path, HEADROOM_STORE=str(store_dir[0])))
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "registered: _headroom", done.stderr
    kinds = " ".join(f'"{kind}"' for kind in fixed_values("--kind"))
    assert lines[1] == f"offered: *: :(({kinds}))"
    assert all(item_id in lines[2] for item_id in store_dir[1])
    assert lines[3] == "offered: files"


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_finds_the_script_in_vendor_completions_and_completes(tmp_path, store_dir):
    needs_entry_point()
    share = tmp_path / "share" / "fish" / "vendor_completions.d"
    share.mkdir(parents=True)
    shutil.copy(ROOT / docs_gen.SHELLS["fish"], share / "headroom.fish")
    env = shell_env(tmp_path, HEADROOM_STORE=str(store_dir[0]),
                    XDG_DATA_DIRS=str(tmp_path / "share"),
                    XDG_CONFIG_HOME=str(tmp_path / "config"))
    done = subprocess.run(["fish", "-c", 'complete -C "headroom --encoding "; echo; '
                                         'complete -C "headroom show "'],
                          env=env, capture_output=True, timeout=60)
    encodings, ids = done.stdout.decode().split("\n\n", 1)
    assert sorted(encodings.split()) == sorted(fixed_values("--encoding"))
    assert sorted(line.split("\t")[0] for line in ids.splitlines()) == sorted(store_dir[1])


def test_the_pass_through_knows_every_subcommand():
    # main() must not take a subcommand's `--` for a command to wrap (cli/__init__.py).
    from headroom_cli.cli import SUBCOMMANDS

    root = docs_tree.root_context()
    assert set(SUBCOMMANDS) == set(root.command.list_commands(root))
