"""Which shell commands Claude Code runs without asking, in its default permission mode.

Read from the installed @anthropic-ai/claude-code 2.1.330 (the JavaScript bundled in its
binary: the command allowlist with each command's safe flags, the list of commands that take
any arguments, the regular expressions for echo/ls/cd/find/uniq, and the sed checks). This is
a subset of Claude Code's own rules, never a superset: whatever is not modelled here word for
word counts as "would ask", and the command then runs exactly as written (unclipped). Dropped
from the tables on purpose: flags whose values Claude Code checks with code of its own
(`--format`, `--pretty`, `--sort`, `--group`, `--submodule`, `--ignore-submodules`, `-O`,
`--relative`), and output redirections other than a trailing `2>&1`.

A parsed command (shellsyntax.Command) and the working directories in, True/False out; the
only file system access is resolving a path operand's links (os.path.realpath), as Claude Code
does before it decides.
"""

from __future__ import annotations

import os
import re

from ..patterns import lazy
from .shellsyntax import Command

SAFE_FLAGS = {
    "grep": {"-e": "string", "--regexp": "string", "-f": "string", "--file": "string", "-F": "none", "--fixed-strings": "none", "-G": "none", "--basic-regexp": "none", "-E": "none", "--extended-regexp": "none", "-P": "none", "--perl-regexp": "none", "-i": "none", "--ignore-case": "none", "--no-ignore-case": "none", "-v": "none", "--invert-match": "none", "-w": "none", "--word-regexp": "none", "-x": "none", "--line-regexp": "none", "-c": "none", "--count": "none", "--colour": "string", "-L": "none", "--files-without-match": "none", "-l": "none", "--files-with-matches": "none", "-m": "number", "--max-count": "number", "-o": "none", "--only-matching": "none", "-q": "none", "--quiet": "none", "--silent": "none", "-s": "none", "--no-messages": "none", "-b": "none", "--byte-offset": "none", "-H": "none", "--with-filename": "none", "-h": "none", "--no-filename": "none", "--label": "string", "-n": "none", "--line-number": "none", "-T": "none", "--initial-tab": "none", "-u": "none", "--unix-byte-offsets": "none", "-Z": "none", "--null": "none", "-z": "none", "--null-data": "none", "-A": "number", "--after-context": "number", "-B": "number", "--before-context": "number", "-C": "number", "--context": "number", "--group-separator": "string", "--no-group-separator": "none", "-a": "none", "--text": "none", "--binary-files": "string", "-I": "none", "-D": "string", "--devices": "string", "-d": "string", "--directories": "string", "--exclude": "string", "--exclude-from": "string", "--exclude-dir": "string", "--include": "string", "-r": "none", "--recursive": "none", "-R": "none", "--dereference-recursive": "none", "--line-buffered": "none", "-U": "none", "--binary": "none", "--help": "none", "-V": "none", "--version": "none"},
    "rg": {"-e": "string", "--regexp": "string", "-f": "string", "-i": "none", "--ignore-case": "none", "-S": "none", "--smart-case": "none", "-F": "none", "--fixed-strings": "none", "-w": "none", "--word-regexp": "none", "-v": "none", "--invert-match": "none", "-c": "none", "--count": "none", "-l": "none", "--files-with-matches": "none", "--files-without-match": "none", "-n": "none", "--line-number": "none", "-o": "none", "--only-matching": "none", "-A": "number", "--after-context": "number", "-B": "number", "--before-context": "number", "-C": "number", "--context": "number", "-H": "none", "-h": "none", "--heading": "none", "--no-heading": "none", "-q": "none", "--quiet": "none", "--column": "none", "-g": "string", "--glob": "string", "-t": "string", "--type": "string", "-T": "string", "--type-not": "string", "--type-list": "none", "--hidden": "none", "--no-ignore": "none", "-u": "none", "-m": "number", "--max-count": "number", "-d": "number", "--max-depth": "number", "-a": "none", "--text": "none", "-L": "none", "--follow": "none", "--json": "none", "--stats": "none", "--help": "none", "--version": "none", "--debug": "none", "--": "none"},
    "sed": {"--expression": "string", "-e": "string", "--quiet": "none", "--silent": "none", "-n": "none", "--regexp-extended": "none", "-r": "none", "--posix": "none", "-E": "none", "--line-length": "number", "-l": "number", "--zero-terminated": "none", "-z": "none", "--separate": "none", "-s": "none", "--unbuffered": "none", "-u": "none", "--debug": "none", "--help": "none", "--version": "none"},
    "sort": {"--ignore-leading-blanks": "none", "-b": "none", "--dictionary-order": "none", "-d": "none", "--ignore-case": "none", "-f": "none", "--general-numeric-sort": "none", "-g": "none", "--human-numeric-sort": "none", "-h": "none", "--ignore-nonprinting": "none", "-i": "none", "--month-sort": "none", "-M": "none", "--numeric-sort": "none", "-n": "none", "--random-sort": "none", "-R": "none", "--reverse": "none", "-r": "none", "--stable": "none", "-s": "none", "--unique": "none", "-u": "none", "--version-sort": "none", "-V": "none", "--zero-terminated": "none", "-z": "none", "--key": "string", "-k": "string", "--field-separator": "string", "-t": "string", "--check": "none", "-c": "none", "--check-char-order": "none", "-C": "none", "--merge": "none", "-m": "none", "--buffer-size": "string", "-S": "string", "--parallel": "number", "--batch-size": "number", "--help": "none", "--version": "none"},
    "file": {"--brief": "none", "-b": "none", "--mime": "none", "-i": "none", "--mime-type": "none", "--mime-encoding": "none", "--apple": "none", "--check-encoding": "none", "-c": "none", "--exclude": "string", "--exclude-quiet": "string", "--print0": "none", "-0": "none", "-F": "string", "--separator": "string", "--help": "none", "--version": "none", "-v": "none", "--no-dereference": "none", "-h": "none", "--dereference": "none", "-L": "none", "--keep-going": "none", "-k": "none", "--list": "none", "-l": "none", "--no-buffer": "none", "-n": "none", "--preserve-date": "none", "-p": "none", "--raw": "none", "-r": "none", "-s": "none", "--special-files": "none"},
    "tree": {"-a": "none", "-d": "none", "-l": "none", "-f": "none", "-x": "none", "-L": "number", "-P": "string", "-I": "string", "--gitignore": "none", "--gitfile": "string", "--ignore-case": "none", "--matchdirs": "none", "--metafirst": "none", "--prune": "none", "--info": "none", "--infofile": "string", "--noreport": "none", "--charset": "string", "--filelimit": "number", "-q": "none", "-N": "none", "-Q": "none", "-p": "none", "-u": "none", "-g": "none", "-s": "none", "-h": "none", "--si": "none", "--du": "none", "-D": "none", "--timefmt": "string", "-F": "none", "--inodes": "none", "--device": "none", "-v": "none", "-t": "none", "-c": "none", "-U": "none", "-r": "none", "--dirsfirst": "none", "--filesfirst": "none", "-i": "none", "-A": "none", "-S": "none", "-n": "none", "-C": "none", "-X": "none", "-J": "none", "-H": "string", "--nolinks": "none", "--hintro": "string", "--houtro": "string", "-T": "string", "--hyperlink": "none", "--scheme": "string", "--authority": "string", "--fromfile": "none", "--fromtabfile": "none", "--fflinks": "none", "--help": "none", "--version": "none"},
    "sha256sum": {"-b": "none", "--binary": "none", "-t": "none", "--text": "none", "-c": "none", "--check": "none", "--ignore-missing": "none", "--quiet": "none", "--status": "none", "--strict": "none", "-w": "none", "--warn": "none", "--tag": "none", "-z": "none", "--zero": "none", "--help": "none", "--version": "none"},
    "sha1sum": {"-b": "none", "--binary": "none", "-t": "none", "--text": "none", "-c": "none", "--check": "none", "--ignore-missing": "none", "--quiet": "none", "--status": "none", "--strict": "none", "-w": "none", "--warn": "none", "--tag": "none", "-z": "none", "--zero": "none", "--help": "none", "--version": "none"},
    "md5sum": {"-b": "none", "--binary": "none", "-t": "none", "--text": "none", "-c": "none", "--check": "none", "--ignore-missing": "none", "--quiet": "none", "--status": "none", "--strict": "none", "-w": "none", "--warn": "none", "--tag": "none", "-z": "none", "--zero": "none", "--help": "none", "--version": "none"},
    "git diff": {"--stat": "none", "--numstat": "none", "--shortstat": "none", "--name-only": "none", "--name-status": "none", "--no-color": "none", "--dirstat": "none", "--summary": "none", "--patch-with-stat": "none", "--word-diff": "none", "--no-renames": "none", "--no-ext-diff": "none", "--check": "none", "--ws-error-highlight": "string", "--full-index": "none", "--binary": "none", "--abbrev": "number", "--break-rewrites": "none", "--find-renames": "none", "--find-copies": "none", "--find-copies-harder": "none", "--irreversible-delete": "none", "--diff-algorithm": "string", "--histogram": "none", "--patience": "none", "--minimal": "none", "--ignore-space-at-eol": "none", "--ignore-space-change": "none", "--ignore-all-space": "none", "--ignore-blank-lines": "none", "--inter-hunk-context": "number", "--function-context": "none", "--exit-code": "none", "--quiet": "none", "--cached": "none", "--staged": "none", "--pickaxe-regex": "none", "--pickaxe-all": "none", "--no-index": "none", "--diff-filter": "string", "-p": "none", "-u": "none", "-s": "none", "-M": "none", "-C": "none", "-B": "none", "-D": "none", "-l": "none", "-S": "string", "-G": "string", "-R": "none"},
    "git log": {"--oneline": "none", "--graph": "none", "--decorate": "none", "--no-decorate": "none", "--date": "string", "--relative-date": "none", "--all": "none", "--branches": "none", "--tags": "none", "--remotes": "none", "--since": "string", "--after": "string", "--until": "string", "--before": "string", "--max-count": "number", "-n": "number", "--stat": "none", "--numstat": "none", "--shortstat": "none", "--name-only": "none", "--name-status": "none", "--no-color": "none", "--patch": "none", "-p": "none", "--no-patch": "none", "--no-ext-diff": "none", "-s": "none", "--author": "string", "--committer": "string", "--grep": "string", "--abbrev-commit": "none", "--full-history": "none", "--dense": "none", "--sparse": "none", "--simplify-merges": "none", "--ancestry-path": "none", "--source": "none", "--first-parent": "none", "--merges": "none", "--no-merges": "none", "--reverse": "none", "--walk-reflogs": "none", "--skip": "number", "--max-age": "number", "--min-age": "number", "--no-min-parents": "none", "--no-max-parents": "none", "--follow": "none", "--no-walk": "none", "--left-right": "none", "--cherry-mark": "none", "--cherry-pick": "none", "--boundary": "none", "--topo-order": "none", "--date-order": "none", "--author-date-order": "none", "--diff-filter": "string", "-S": "string", "-G": "string", "--pickaxe-regex": "none", "--pickaxe-all": "none"},
    "git show": {"--oneline": "none", "--graph": "none", "--decorate": "none", "--no-decorate": "none", "--date": "string", "--relative-date": "none", "--stat": "none", "--numstat": "none", "--shortstat": "none", "--name-only": "none", "--name-status": "none", "--no-color": "none", "--patch": "none", "-p": "none", "--no-patch": "none", "--no-ext-diff": "none", "-s": "none", "--abbrev-commit": "none", "--word-diff": "none", "--first-parent": "none", "--raw": "none", "--diff-filter": "string", "-m": "none", "--quiet": "none"},
    "git status": {"--short": "none", "-s": "none", "--branch": "none", "-b": "none", "--porcelain": "none", "--long": "none", "--verbose": "none", "-v": "none", "--untracked-files": "string", "-u": "string", "--ignored": "none", "--column": "none", "--no-column": "none", "--ahead-behind": "none", "--no-ahead-behind": "none", "--renames": "none", "--no-renames": "none", "--find-renames": "string", "-M": "string"},
    "git blame": {"--no-color": "none", "-L": "string", "--porcelain": "none", "-p": "none", "--line-porcelain": "none", "--incremental": "none", "--root": "none", "--show-stats": "none", "--show-name": "none", "--show-number": "none", "-n": "none", "--show-email": "none", "-e": "none", "-f": "none", "--date": "string", "-w": "none", "--ignore-rev": "string", "--ignore-revs-file": "string", "-M": "none", "-C": "none", "--score-debug": "none", "--abbrev": "number", "-s": "none", "-l": "none", "-t": "none"},
    "git ls-files": {"--cached": "none", "-c": "none", "--deleted": "none", "-d": "none", "--modified": "none", "-m": "none", "--others": "none", "-o": "none", "--ignored": "none", "-i": "none", "--stage": "none", "-s": "none", "--killed": "none", "-k": "none", "--unmerged": "none", "-u": "none", "--directory": "none", "--no-empty-directory": "none", "--eol": "none", "--full-name": "none", "--abbrev": "number", "--debug": "none", "-z": "none", "-t": "none", "-v": "none", "-f": "none", "--exclude": "string", "-x": "string", "--exclude-from": "string", "-X": "string", "--exclude-per-directory": "string", "--exclude-standard": "none", "--error-unmatch": "none", "--recurse-submodules": "none"},
    "git grep": {"-e": "string", "-E": "none", "--extended-regexp": "none", "-G": "none", "--basic-regexp": "none", "-F": "none", "--fixed-strings": "none", "-P": "none", "--perl-regexp": "none", "-i": "none", "--ignore-case": "none", "-v": "none", "--invert-match": "none", "-w": "none", "--word-regexp": "none", "-n": "none", "--line-number": "none", "-c": "none", "--count": "none", "-l": "none", "--files-with-matches": "none", "-L": "none", "--files-without-match": "none", "-h": "none", "-H": "none", "--heading": "none", "--break": "none", "--full-name": "none", "--no-color": "none", "-o": "none", "--only-matching": "none", "-A": "number", "--after-context": "number", "-B": "number", "--before-context": "number", "-C": "number", "--context": "number", "--and": "none", "--or": "none", "--not": "none", "--max-depth": "number", "--untracked": "none", "--no-index": "none", "--recurse-submodules": "none", "--cached": "none", "--threads": "number", "-q": "none", "--quiet": "none"},
    "git shortlog": {"--all": "none", "--branches": "none", "--tags": "none", "--remotes": "none", "--since": "string", "--after": "string", "--until": "string", "--before": "string", "-s": "none", "--summary": "none", "-n": "none", "--numbered": "none", "-e": "none", "--email": "none", "-c": "none", "--committer": "none", "--no-merges": "none", "--author": "string"},
    "git rev-parse": {"--verify": "none", "--short": "string", "--abbrev-ref": "none", "--symbolic": "none", "--symbolic-full-name": "none", "--show-toplevel": "none", "--show-cdup": "none", "--show-prefix": "none", "--git-dir": "none", "--git-common-dir": "none", "--absolute-git-dir": "none", "--is-inside-work-tree": "none", "--is-inside-git-dir": "none", "--is-bare-repository": "none", "--is-shallow-repository": "none", "--is-shallow-update": "none", "--path-prefix": "none"},
    "git describe": {"--tags": "none", "--match": "string", "--exclude": "string", "--long": "none", "--abbrev": "number", "--always": "none", "--contains": "none", "--first-match": "none", "--exact-match": "none", "--candidates": "number", "--dirty": "none", "--broken": "none"},
    "git merge-base": {"--is-ancestor": "none", "--fork-point": "none", "--octopus": "none", "--independent": "none", "--all": "none"},
}

# Commands Claude Code runs with any arguments, as long as the command's text has none of
# < > ( ) $ ` | { } & ; or a line break (its READONLY list and the expression built from it).
ANY_ARGUMENTS = {
    "cal", "uptime", "cat", "head", "tail", "wc", "stat", "strings", "hexdump", "od", "nl",
    "id", "uname", "free", "df", "du", "locale", "groups", "nproc", "basename", "dirname",
    "realpath", "cut", "paste", "tr", "column", "tac", "rev", "fold", "expand", "unexpand",
    "fmt", "comm", "cmp", "numfmt", "readlink", "diff", "true", "false", "sleep", "type",
    "expr", "seq", "tsort", "pr",
}
# Where headroom is stricter than Claude Code: a follow never ends, so its output could not be
# clipped anyway.
NEVER_ENDS = {"tail": ("-f", "-F", "--follow", "--retry")}
_PLAIN_TEXT = lazy(r"^[^<>()$`|{}&;\n\r]*$")
_EXPRESSIONS = {
    "echo": lazy(r"""^echo(?:\s+(?:'[^']*'|"[^"$<>\n\r]*"|[^|;&`$(){}><#\\!"'\s]+))*\s*$"""),
    "uniq": lazy(r"^uniq(?:\s+(?:-[a-zA-Z]+|--[a-zA-Z-]+(?:=\S+)?|-[fsw]\s+\d+))*(?:\s|$)\s*$"),
    "pwd": lazy(r"^pwd$"),
    "whoami": lazy(r"^whoami$"),
    "cd": lazy(r"""^cd(?:\s+(?:'[^']*'|"[^"]*"|[^\s;|&`$(){}><#\\]+))?$"""),
    "ls": lazy(r"^ls(?:\s+[^<>()$`|{}&;\n\r]*)?$"),
    "find": lazy(r"^find(?:[ \t]+(?:\\[()]|(?!-delete\b|-rm\b|-exec\b|-execdir\b|-ok\b"
                 r"|-okdir\b|-fprint0?\b|-fls\b|-fprintf\b|-files0-from\b)"
                 r"[^<>()$`|{}&;\n\r\s]|[ \t])+)?$"),
}
_FIND_ACTIONS = lazy(r"-delete\b|-rm\b|-exec\b|-execdir\b|-ok\b|-okdir\b|-fprint0?\b"
                     r"|-fls\b|-fprintf\b|-files0-from\b")
# The first operand of these is a pattern or a script, not a path (unless given by a flag).
_PATTERN_FIRST = {"grep": ("-e", "--regexp", "-f", "--file"), "rg": ("-e", "--regexp", "-f"),
                  "sed": ("-e", "--expression"), "git grep": ("-e",)}
# (sed with -e never runs unasked: the flag is in neither of sed's lists below.)
_SED_PRINT_FLAGS = {"-n", "--quiet", "--silent", "-E", "--regexp-extended", "-r", "-z",
                    "--zero-terminated", "--posix"}
_SED_SUBSTITUTE_FLAGS = {"-E", "--regexp-extended", "-r", "--posix"}


def read_only(cmd: Command, roots: tuple[str, ...]) -> bool:
    """Would Claude Code run this simple command without asking (default mode)? `roots`: the
    working directories (the session's folder first, then permissions.additionalDirectories)."""
    if cmd.assignments or not cmd.plain or not cmd.words:
        return False
    text = cmd.text
    if cmd.redirects:
        if [(r.fd, r.op, r.target) for r in cmd.redirects] != [("2", ">&", "1")] \
                or not text.endswith(" 2>&1"):
            return False
        text = text[:-len(" 2>&1")].rstrip()
    name = cmd.words[0]
    args = list(cmd.words[1:])
    if name == "egrep" or name == "fgrep":
        name = "grep"
    if any(flag in args for flag in NEVER_ENDS.get(name, ())):
        return False
    key = " ".join(cmd.words[:2]) if name == "git" else name
    if key in SAFE_FLAGS:
        paths = _paths_if_safe(key, args[1:] if name == "git" else args)
        return paths is not None and all(inside(arg, roots) for arg in paths)
    if name in ANY_ARGUMENTS:
        ok = _PLAIN_TEXT.match(text) is not None
    elif name in _EXPRESSIONS:
        ok = _EXPRESSIONS[name].match(text) is not None and not (
            name == "find" and _FIND_ACTIONS.search(re.sub(r"['\"\\]", "", text)))
    else:
        return False
    return ok and all(inside(arg, roots) for arg in args
                      if not arg.startswith(("-", "+")) and name != "echo")


def _paths_if_safe(key: str, args: list[str]) -> list[str] | None:
    """The paths a command reads, when every flag is in its safe list and every value has
    the right type (Claude Code's flag walk); else None."""
    walked = _walk_flags(SAFE_FLAGS[key], key, args)
    if walked is None:
        return None
    operands, patterns = walked
    if key in _PATTERN_FIRST and not patterns:
        patterns, operands = operands[:1], operands[1:]
    if key in ("grep", "rg") and any("\n" in arg for arg in args):
        return None
    if key == "sed" and not _sed_prints_or_substitutes(args, patterns):
        return None
    return operands


def _walk_flags(safe: dict, key: str, args: list[str]) -> tuple[list[str], list[str]] | None:
    """(operands, values of the flags that give a pattern or script), or None."""
    operands, patterns, index = [], [], 0
    while index < len(args):
        arg = args[index]
        if "$" in arg or ("{" in arg and ("," in arg or ".." in arg)):
            return None
        if arg == "--":
            operands += args[index + 1:]
            break
        index += 1
        if not (arg.startswith("-") and len(arg) > 1):
            operands.append(arg)
            continue
        flag, has_value, value = arg.partition("=")
        kind = safe.get(flag)
        if kind is None:
            if not _known_shape(safe, key, flag, has_value):
                return None
            continue
        if kind == "none":
            if has_value:
                return None
            continue
        if not has_value:
            if index >= len(args) or args[index].startswith("-"):
                return None
            value = args[index]
            index += 1
        if value.startswith("-") or not _of_kind(value, kind):
            return None
        if flag in _PATTERN_FIRST.get(key, ()):
            patterns.append(value)
    return operands, patterns


def _known_shape(safe: dict, key: str, flag: str, has_value: str) -> bool:
    """A flag not in the list as written that Claude Code still accepts: git's -N (a count),
    grep's and rg's -A3 (a number glued on), bundled short flags that take no value (-rn)."""
    if key.startswith("git ") and re.fullmatch(r"-\d+", flag):
        return True
    if flag.startswith("--") or len(flag) <= 2:
        return False
    if key in ("grep", "rg") and safe.get(flag[:2]) in ("number", "string") \
            and flag[2:].isdigit():
        return True
    return not has_value and all(safe.get("-" + char) == "none" for char in flag[1:])


def _of_kind(value: str, kind: str) -> bool:
    return {"number": value.isdigit(), "string": True, "char": len(value) == 1,
            "{}": value == "{}", "EOF": value == "EOF"}.get(kind, False)


def _sed_prints_or_substitutes(args: list[str], scripts: list[str]) -> bool:
    """sed runs unasked only to print lines (`-n '1,20p'`) or to substitute (`s/a/b/g`) to
    stdout, its script as the first operand — never with -e, -i, w or e."""
    flags = {arg for arg in args if arg.startswith("-") and len(arg) > 1 and arg != "--"}
    if len(scripts) != 1:
        return False
    script = scripts[0].strip()
    printing = _bundled_within(flags, _SED_PRINT_FLAGS) and any(
        flag in ("-n", "--quiet", "--silent") or (not flag.startswith("--") and "n" in flag)
        for flag in flags) and all(
        re.fullmatch(r"(?:\d+|\d+,\d+)?p", part.strip()) for part in script.split(";"))
    substituting = _bundled_within(flags, _SED_SUBSTITUTE_FLAGS) and _plain_substitution(script)
    return printing or substituting


def _bundled_within(flags: set[str], allowed: set[str]) -> bool:
    for flag in flags:
        if flag.startswith("--") or len(flag) == 2:
            if flag not in allowed:
                return False
        elif not all("-" + char in allowed for char in flag[1:]):
            return False
    return True


def _plain_substitution(script: str) -> bool:
    """s/PATTERN/REPLACEMENT/FLAGS with only g, p, i, I, m, M and one count as flags (no w,
    no e: those write files or run commands)."""
    if not script.startswith("s/") or ";" in script or "\n" in script:
        return False
    body, slashes, last, index = script[2:], 0, -1, 0
    while index < len(body):
        if body[index] == "\\":
            index += 2
            continue
        if body[index] == "/":
            slashes += 1
            last = index
        index += 1
    return slashes == 2 and re.fullmatch(r"[gpimIM]*[1-9]?[gpimIM]*", body[last + 1:]) is not None


def inside(arg: str, roots: tuple[str, ...]) -> bool:
    """A path operand that lies in one of the working directories, as Claude Code 2.1.330
    judges it: a relative path from the first (the session's folder), an absolute one as
    written, both normalised and then with their links resolved ("… resolves through a symlink
    to …, which is outside the allowed working directories" asks). Stricter than Claude Code on
    purpose: `~…` and any `..` segment count as outside (after a `cd` in the same command line,
    a `..` is not judged against the folder it really starts from)."""
    if not roots or arg.startswith("~") or ".." in arg.split("/"):
        return False
    path = os.path.normpath(os.path.join(roots[0], arg))  # an absolute arg replaces the root
    real = os.path.realpath(path)
    return any(_under(path, root) and _under(real, os.path.realpath(root)) for root in roots)


def _under(path: str, root: str) -> bool:
    root = os.path.normpath(root)
    return path == root or path.startswith(root.rstrip("/") + "/")
