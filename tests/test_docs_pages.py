"""The README and docs/ hold together: every relative link resolves (the file, and the heading
an #anchor names), and every headroom command in a fenced `console` or `sh` block is one the CLI
accepts — parsed against the typer app, never run.

A block that shows a synopsis rather than a command (`headroom show ID [--lines A:B …]`) says
so in its info string: ```sh illustrative. Blocks in any other language (text, toml, python,
yaml) are not commands.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest
import typer

from headroom_cli.cli import SUBCOMMANDS
from headroom_cli.cli.commands import app

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
COMMAND_LANGUAGES = {"console", "sh", "shell", "bash"}

# Pages other helpers of this session write (issue #27 and the new agents); linked already.
# The lead deletes each name here once its branch is merged (the test below insists).
PENDING: set[str] = set()

FENCE = re.compile(r"^ *(```+|~~~+)(.*)$")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
INLINE_CODE = re.compile(r"`+[^`]*`+")


# --------------------------------------------------------------------------- reading pages

def blocks(text: str) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The prose lines (code removed) and every fenced block as (info string, lines)."""
    prose, fenced = [], []
    fence = info = None
    body: list[str] = []
    for line in text.split("\n"):
        opened = FENCE.match(line)
        if fence is None and opened:
            fence, info, body = opened.group(1), opened.group(2).strip(), []
        elif fence is not None and line.strip().startswith(fence) and not line.strip(fence[0]).strip():
            fenced.append((info, body))
            fence = None
        elif fence is not None:
            body.append(line)
        else:
            prose.append(line)
    return prose, fenced


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    prose, _ = blocks(path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set()
    for line in prose:
        heading = re.match(r"^#{1,6} (.+?)#*\s*$", line)
        if heading:
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            out.add(base if count == 0 else f"{base}-{count}")
    return out


def links(path: Path) -> list[str]:
    prose, _ = blocks(path.read_text(encoding="utf-8"))
    return [target for line in prose for target in LINK.findall(INLINE_CODE.sub("", line))]


def broken_links(path: Path) -> list[str]:
    out = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not ours to check
            continue
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        name = resolved.relative_to(ROOT).as_posix() if resolved.is_relative_to(ROOT) else None
        if name in PENDING:
            continue
        if not resolved.exists():
            out.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            out.append(f"{target}: no heading with that anchor")
    return out


# --------------------------------------------------------------------------- commands in blocks

def command_lines(info: str, lines: list[str]) -> list[str]:
    """The shell commands a block shows: `$ ` lines in console, every line in sh."""
    words = info.split()
    if not words or words[0] not in COMMAND_LANGUAGES or "illustrative" in words[1:]:
        return []
    out, pending = [], None
    for line in lines:
        if pending is not None:
            pending += " " + line.strip()
        elif words[0] == "console":
            if not line.startswith("$ "):
                continue
            pending = line[2:]
        else:
            pending = line
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        out.append(pending)
        pending = None
    return out


def headroom_invocations(command: str) -> list[list[str]]:
    """The argument lists headroom is given in one shell command line (pipes, `&&` and
    redirections split it; `python -m headroom_cli` counts as headroom)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    tokens = list(lexer)
    found = []
    for at, token in enumerate(tokens):
        if token == "headroom" or token.endswith("/headroom"):
            start = at + 1
        elif token == "headroom_cli" and tokens[at - 1:at] == ["-m"]:
            start = at + 1
        else:
            continue
        args = []
        for word in tokens[start:]:
            if set(word) <= set("();<>|&"):
                break
            args.append(word)
        if args and args[-1].isdigit() and len(tokens) > start + len(args):
            args.pop()  # the 2 of `2>&1`
        found.append(args)
    return found


def cli_error(args: list[str]) -> str | None:
    """Why headroom would refuse these arguments (None: it parses them). Parsed as
    headroom_cli.cli.main splits them: the filter's `--` starts the wrapped command."""
    from typer import _click as click

    if "--" in args and not (args and args[0] in SUBCOMMANDS):
        args = args[:args.index("--")]
    command, name, parent = typer.main.get_command(app), "headroom", None
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            while True:
                ctx = command.make_context(name, list(args), parent=parent)
                rest = [*ctx._protected_args, *ctx.args]  # what the group leaves its subcommand
                if not hasattr(command, "list_commands") or not rest:
                    return None
                name, command, args = command.resolve_command(ctx, rest)
                parent = ctx
    except typer.Exit as done:
        return None if done.exit_code == 0 else f"exit {done.exit_code}"
    except click.exceptions.ClickException as error:
        return error.format_message()


def documented_commands() -> list[tuple[str, str, list[str]]]:
    out = []
    for path in PAGES:
        _, fenced = blocks(path.read_text(encoding="utf-8"))
        for info, lines in fenced:
            for line in command_lines(info, lines):
                out += [(path.relative_to(ROOT).as_posix(), line, args)
                        for args in headroom_invocations(line)]
    return out


# --------------------------------------------------------------------------- the tests

@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path):
    assert broken_links(path) == []


def test_every_page_is_reachable_from_the_index():
    linked = {(ROOT / "docs" / target.partition("#")[0]).resolve()
              for target in links(ROOT / "docs" / "index.md")}
    linked |= {(ROOT / "docs" / "agents" / target.partition("#")[0]).resolve()
               for target in links(ROOT / "docs" / "agents" / "index.md")}
    orphans = [p.relative_to(ROOT).as_posix() for p in PAGES[1:]
               if p.resolve() not in linked and p.name != "index.md"
               and "incoming" not in p.parts]
    assert orphans == []


def test_pending_pages_are_not_there_yet():
    arrived = sorted(name for name in PENDING if (ROOT / name).exists())
    assert not arrived, f"{arrived} exist now: delete them from PENDING in {__file__}"


def test_every_documented_command_is_one_the_cli_accepts():
    commands = documented_commands()
    assert len(commands) >= 40, "the blocks' commands were not found: the reader is wrong"
    refused = [f"{page}: {line!r}: {cli_error(args)}" for page, line, args in commands
               if cli_error(args)]
    assert refused == []


def test_the_checks_can_fail(tmp_path):
    assert cli_error(["--no-such-option"]).startswith("No such option: --no-such-option")
    assert "No such command" in cli_error(["nosuch"])
    assert cli_error(["show"]) is not None  # ID is required
    assert cli_error(["--budget", "x"]) is not None
    assert cli_error(["--budget", "100", "--", "pytest", "--no-such-option"]) is None
    assert cli_error(["store", "prune", "--max-bytes", "0"]) is None
    assert headroom_invocations("seq 1 9 | headroom --budget 20 2>&1 | tail -1") == [
        ["--budget", "20"]]
    assert headroom_invocations("python -m headroom_cli show abc # comment") == [["show", "abc"]]
    assert command_lines("console", ["$ headroom -b 1 \\", "  -t Grep", "output"]) == [
        "headroom -b 1  -t Grep"]
    assert command_lines("sh illustrative", ["headroom show ID [--lines A:B]"]) == []
    page = tmp_path / "page.md"
    page.write_text("# A title\n[ok](#a-title) [gone](#nope) [file](missing.md) "
                    "`[code](x.md)` [web](https://example.com)\n", encoding="utf-8")
    assert broken_links(page) == ["#nope: no heading with that anchor",
                                  "missing.md: no such file"]


INSTALL = re.compile(r"\b(?:pip|pipx|uv tool) install\s+((?:-\S+\s+)*)([^\s;&|#]+)")


def test_every_install_of_headroom_installs_a_path():
    """headroom is not on PyPI yet, and the `headroom`-named packages there are other projects
    (`headroom-ai` also installs a `headroom` command): every install in a block installs this
    checkout or a wheel built from it, never a package name of headroom's."""
    targets = [match.group(2) for path in PAGES
               for _, lines in blocks(path.read_text(encoding="utf-8"))[1]
               for line in lines for match in INSTALL.finditer(line)]
    paths = [t for t in targets if t.strip("'\"").startswith((".", "/", "~", "$", "dist/"))]
    assert len(paths) >= 5, f"install commands not found: the pattern is wrong ({targets})"
    assert [t for t in targets if t.strip("'\"").lower().startswith("headroom")] == []


def test_the_readmes_example_prints_what_headroom_prints(tmp_path):
    """A `console` block of the README that shows output shows headroom's real output."""
    import os
    import subprocess
    import sys

    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "headroom").exists():
        pytest.skip(f"no installed headroom console script in {bin_dir}")
    shown = [(lines[0][2:], "\n".join(lines[1:]) + "\n")
             for info, lines in blocks((ROOT / "README.md").read_text(encoding="utf-8"))[1]
             if info == "console" and len(lines) > 1 and lines[0].startswith("$ ")]
    assert shown, "the README's example with its output was not found"
    env = {"PATH": f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin", "HOME": str(tmp_path),
           "HEADROOM_STORE": str(tmp_path / "store"), "HEADROOM_LEDGER": "off",
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path)}
    for command, output in shown:
        done = subprocess.run(["bash", "-c", command], env=env, capture_output=True, text=True,
                              timeout=60)
        assert (done.returncode, done.stdout) == (0, output), command
