"""Would Claude Code run this command without asking? Only then may the hook rewrite it.

Claude Code applies a PreToolUse hook's `updatedInput` only together with a permission
decision, and "allow" skips the prompt it would otherwise show. Checked with 2.1.330:
- in the default mode, a command that needs approval (`touch x`) ran without any prompt once a
  hook allowed it — so allowing every command would grant permissions the user never gave;
- deny rules are still applied to the rewritten command, and they see the original command's
  words only when it is embedded as code (shell.wrap does that), not as an `eval` string;
- with no decision, the rewritten command goes through the whole permission pipeline, which
  refuses the wrapper itself ("a group in braces … can't be checked before it runs").

So the hook rewrites a command only when Claude Code would have run it unasked anyway, judged
conservatively — when unsure, the command runs exactly as written (unclipped):
- never in plan mode, nor when a deny or ask rule could concern the command or the wrapper;
- in bypassPermissions mode, always;
- otherwise when every part of the command (split at ;, &&, ||, |, & and newlines) is covered
  by an allow rule (`Bash`, `Bash(npm test:*)`, `Bash(git diff)`…), or — outside dontAsk mode —
  is a plain read-only command that stays inside the working directory (`grep -n foo src`,
  `git log`, `ls`), as Claude Code runs those without asking too.

Rules are read from the settings files Claude Code reads (managed, user, project, local).
Rules given only on Claude Code's command line (--allowedTools) are not visible to a hook:
commands they allow run unclipped; deny rules given there still apply (Claude Code checks the
wrapped command, which shows the original's words).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path

# Read-only commands Claude Code runs without asking, and the options that make them write or
# run something (then the command is not read-only).
READ_ONLY = {
    "ls": (), "cat": (), "head": (), "tail": ("-f", "-F", "--follow"), "wc": (), "nl": (),
    "grep": (), "egrep": (), "fgrep": (), "rg": ("--pre",), "tree": ("-o",), "du": (),
    "file": (), "stat": (), "seq": (), "echo": (), "pwd": (), "cd": (), "cut": (), "uniq": (),
    "diff": (), "cmp": (), "sort": ("-o", "--output"), "basename": (), "dirname": (),
    "realpath": (), "which": (), "type": (), "date": ("-s", "--set"), "true": (), "false": (),
    "find": ("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0",
             "-fprintf", "-fls"),
}
GIT_READ_ONLY = {"status", "log", "diff", "show", "blame", "ls-files", "grep", "shortlog",
                 "describe", "rev-parse"}
_SEPARATORS = re.compile(r"\|\||&&|[;|&\n]")
_UNSAFE_CHARS = re.compile(r"[`$<>(){}\\~]")
_BASH_RULE = re.compile(r"^\s*Bash\s*(?:\((.*)\))?\s*$", re.S)


def claude_would_run(command: str, event: dict, settings_files: list[Path] | None = None) -> bool:
    mode = event.get("permission_mode") or "default"
    if mode == "plan":
        return False
    files = settings_files if settings_files is not None else _settings_files(event)
    rules = _rules(files)
    if _conflicts(command, rules["deny"] + rules["ask"]):
        return False
    if mode == "bypassPermissions":
        return True
    if any(_matches_all(rule) for rule in rules["allow"]):
        return True
    parts = split(command)
    if parts is None:
        return False
    cwd = event.get("cwd") or os.getcwd()
    read_only_ok = mode != "dontAsk"
    return all(any(_allows(rule, part) for rule in rules["allow"])
               or (read_only_ok and is_read_only(part, cwd)) for part in parts)


def split(command: str) -> list[str] | None:
    """The simple commands of a command line; None when it holds anything harder to judge
    (substitutions, subshells, groups, quotes spanning separators, heredocs)."""
    if re.search(r"\$\(|`|<\(|>\(|<<|\(|\)|\{|\}", command):
        return None
    parts = []
    for raw in _split_unquoted(command):
        part = raw.strip()
        if part:
            parts.append(part)
    return parts or None


def is_read_only(part: str, cwd: str) -> bool:
    try:
        words = shlex.split(part)
    except ValueError:
        return False
    if not words or _UNSAFE_CHARS.search(_unquoted(part)):
        return False
    name, args = words[0], words[1:]
    if "=" in name:
        return False  # VAR=value cmd: an environment change, judge it not
    if name == "git":
        sub = next((arg for arg in args if not arg.startswith("-")), None)
        if sub not in GIT_READ_ONLY or any(arg.startswith(("--output", "-o")) for arg in args):
            return False
        if any(arg in ("-c", "--exec-path", "--git-dir", "--work-tree") or
               arg.startswith(("--exec-path=", "--git-dir=", "--work-tree=", "-c"))
               for arg in args[:args.index(sub)]):
            return False
    elif name not in READ_ONLY:
        return False
    elif any(arg == bad or arg.startswith(bad + "=") for arg in args
             for bad in READ_ONLY[name]):
        return False
    return all(_inside(arg, cwd) for arg in args if not arg.startswith("-"))


def _inside(arg: str, cwd: str) -> bool:
    """A path argument that stays inside the working directory (no /…, ~…, ..)."""
    if arg.startswith(("/", "~")):
        return False
    return ".." not in Path(arg).parts


def _unquoted(part: str) -> str:
    """The part with its quoted spans removed (special characters inside quotes are data)."""
    out, quote = [], None
    for char in part:
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        else:
            out.append(char)
    return "".join(out)


def _split_unquoted(command: str) -> list[str]:
    parts, current, quote, index = [], [], None, 0
    while index < len(command):
        char = command[index]
        if quote:
            current.append(char)
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
            current.append(char)
        else:
            match = _SEPARATORS.match(command, index)
            if match:
                parts.append("".join(current))
                current = []
                index = match.end()
                continue
            current.append(char)
        index += 1
    parts.append("".join(current))
    return parts


# --- rules ---------------------------------------------------------------------------------

def _settings_files(event: dict) -> list[Path]:
    files = []
    if sys.platform == "darwin":
        files.append(Path("/Library/Application Support/ClaudeCode/managed-settings.json"))
    else:
        files.append(Path("/etc/claude-code/managed-settings.json"))
    user = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    files += [Path(user) / "settings.json", Path(user) / "settings.local.json"]
    project = os.environ.get("CLAUDE_PROJECT_DIR") or event.get("cwd")
    if project:
        for directory in [Path(project), *Path(project).parents]:
            files += [directory / ".claude" / "settings.json",
                      directory / ".claude" / "settings.local.json"]
    return files


def _rules(files: list[Path]) -> dict[str, list[str]]:
    rules: dict[str, list[str]] = {"allow": [], "deny": [], "ask": []}
    for path in files:
        try:
            settings = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        permissions = settings.get("permissions") if isinstance(settings, dict) else None
        if not isinstance(permissions, dict):
            continue
        for kind in rules:
            values = permissions.get(kind)
            if isinstance(values, list):
                rules[kind] += [value for value in values if isinstance(value, str)]
    return rules


def _spec(rule: str) -> str | None:
    """`npm test:*` for Bash(npm test:*), "" for Bash and Bash(*); None: not a Bash rule."""
    match = _BASH_RULE.match(rule)
    if not match:
        return None
    spec = (match.group(1) or "").strip()
    return "" if spec in ("", "*") else spec


def _matches_all(rule: str) -> bool:
    return _spec(rule) == ""


def _prefix(spec: str) -> tuple[str, bool]:
    """(text, is_prefix) for a rule's command pattern."""
    for suffix in (":*", " *", "*"):
        if spec.endswith(suffix):
            return spec[:-len(suffix)].rstrip(), True
    return spec, False


def _allows(rule: str, part: str) -> bool:
    spec = _spec(rule)
    if spec is None:
        return False
    if spec == "":
        return True
    if "*" in spec.rstrip("*").replace(":*", ""):
        return False  # a wildcard inside the pattern: not judged here
    text, is_prefix = _prefix(spec)
    part = " ".join(part.split())
    if not is_prefix:
        return part == " ".join(text.split())
    text = " ".join(text.split())
    return part == text or part.startswith(text + " ")


def _conflicts(command: str, rules: list[str]) -> bool:
    """Could any of these (deny or ask) rules concern the command or headroom's wrapper?"""
    words = set(re.findall(r"[\w./-]+", command)) | {"headroom", "exit"}
    for rule in rules:
        spec = _spec(rule)
        if spec is None:
            continue
        if spec == "":
            return True
        first = _prefix(spec)[0].split()[:1]
        if not first or os.path.basename(first[0]) in {os.path.basename(w) for w in words} \
                or first[0] in words:
            return True
    return False
