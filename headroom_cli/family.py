"""A command's family, its label and its identity: how `headroom stats` groups runs, how a
session names an earlier call, and how it knows a command was run before. Pure.

    family_of("cd app && python -m pytest -x tests/")   -> "pytest"
    family_of("git -C repo diff --stat")                -> "git diff"
    family_of("FOO=1 npm run build 2>&1 | tail -20")    -> "npm run"

The family is the program the command is about: the first simple command that is not a
directory change or a setting (cd, export, source, set…), seen through runners that start
another program (python -m X, npx X, uv run X, env, time, nohup, bash -c '…'); for programs
whose first word is a subcommand (git, cargo, npm, go, docker, kubectl…), that word too.
"""

from __future__ import annotations

import hashlib
import os
import re

# Programs that only prepare the shell: the family is the command after them.
_PREPARES = {"cd", "pushd", "popd", "export", "source", ".", "set", "unset", "alias", "true",
             "shopt", "ulimit", "umask", "trap", "local", "declare", "typeset", "echo", ":"}
# Runners whose argument is the program that runs (after their own options).
_RUNNERS = {"env", "time", "nohup", "nice", "timeout", "command", "builtin", "exec", "xargs",
            "sudo", "stdbuf", "npx", "bunx", "pnpx", "dotenv"}
# Runners with a subcommand first (`uv run X`, `poetry run X`, `pnpm exec X`, `yarn dlx X`).
_SUB_RUNNERS = {("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run"),
                ("hatch", "run"), ("pnpm", "exec"), ("pnpm", "dlx"), ("yarn", "dlx"),
                ("bundle", "exec"), ("rye", "run"), ("npm", "exec"), ("conda", "run")}
# Programs whose first word is a subcommand that says what the run is.
_SUBCOMMANDS = {"git", "cargo", "go", "npm", "pnpm", "yarn", "bun", "deno", "docker", "podman",
                "kubectl", "helm", "terraform", "dotnet", "gh", "pip", "pip3", "uv", "poetry", "headroom",
                "mvn", "gradle", "gradlew", "bazel", "nix", "brew", "apt",
                "apt-get", "systemctl", "journalctl", "swift", "mix", "rustup", "conda"}
# Options of those programs that take a value before the subcommand (`git -C dir diff`).
_OPTION_VALUES = {"-C", "-c", "--git-dir", "--work-tree", "--prefix", "-f", "--file",
                  "--context", "-n", "--namespace", "--manifest-path", "-p", "--project"}
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh"}
_MODULES = {"headroom_cli": "headroom"}  # `python -m MODULE` that is a program of another name
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)?)?$")
LABEL_CHARS = 80
MAX_FAMILY_CHARS = 40


def family_of(command: str | None) -> str | None:
    """The family of a shell command line (None: none is known, or none can be read)."""
    if not command or not command.strip():
        return None
    words = _first_command(command)
    return _family_of_words(words) if words else None


def family_of_argv(argv: list[str]) -> str | None:
    """The family of a command given as its words (`headroom -- CMD ARGS…`)."""
    return _family_of_words(list(argv)) if argv else None


def label_of(command: str | None) -> str | None:
    """The command as a session names it: its first line, at most LABEL_CHARS characters."""
    if not command or not command.strip():
        return None
    lines = command.strip().splitlines()
    label = " ".join(lines[0].split())
    if len(label) > LABEL_CHARS or len(lines) > 1:
        label = label[:LABEL_CHARS - 1].rstrip() + "…"
    return label


def command_key(command: str, cwd: str | None) -> str:
    """The identity of a command run in a directory: the same text in the same directory is
    the same command (a re-run)."""
    digest = hashlib.sha256(f"{cwd or ''}\0{command}".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:16]


def toml_key(family: str) -> str:
    """`family` as a key in the config file's [commands] table (quoted unless it is bare)."""
    if re.fullmatch(r"[A-Za-z0-9_-]+", family):
        return family
    return '"' + family.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _first_command(command: str) -> list[str] | None:
    """The words of the first simple command that does more than prepare the shell (else of
    the first command)."""
    from .agents.shellsyntax import parse

    script = parse(command)
    if script is None:
        return None
    commands = [list(cmd.words) for cmd in script.commands if cmd.words]
    return next((words for words in commands if words[0] not in _PREPARES),
                commands[0] if commands else None)


def _family_of_words(words: list[str], depth: int = 0) -> str | None:
    while words:
        program = os.path.basename(words[0].rstrip("/")) or words[0]
        rest = words[1:]
        if program in _RUNNERS:
            words = _after_options(rest)
            continue
        if (program, rest[0] if rest else None) in _SUB_RUNNERS:
            words = _after_options(rest[1:])
            continue
        if program in _SHELLS and len(rest) >= 2 and rest[0] == "-c" and depth < 3:
            inner = _first_command(rest[1])
            return _family_of_words(inner, depth + 1) if inner else program
        if _PYTHON.match(program) and len(rest) >= 2 and rest[0] == "-m":
            words = [_MODULES.get(rest[1], rest[1]), *rest[2:]]  # python -m X: X's family
            continue
        if program in _SUBCOMMANDS:
            sub = _subcommand(rest)
            return _clean(f"{program} {sub}" if sub else program)
        return _clean(program)
    return None


def _after_options(words: list[str]) -> list[str]:
    """What follows a runner's own options (`env -i FOO=1 cmd`, `timeout 60 cmd`)."""
    position = 0
    while position < len(words) and (words[position].startswith("-") or "=" in words[position]
                                     or words[position].replace(".", "").isdigit()):
        position += 1
    return words[position:]


def _subcommand(words: list[str]) -> str | None:
    position = 0
    while position < len(words):
        word = words[position]
        if word in _OPTION_VALUES:
            position += 2
        elif word.startswith("-"):
            position += 1
        else:
            return word
    return None


def _clean(family: str) -> str:
    """A family as a name: printable, one line, bounded."""
    family = " ".join(family.split())[:MAX_FAMILY_CHARS]
    return family or "?"
