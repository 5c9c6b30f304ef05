"""Would Claude Code run this command without asking? Only then may the hook rewrite it.

Claude Code applies a PreToolUse hook's `updatedInput` only together with a permission
decision, and "allow" skips the prompt it would otherwise show. Checked with 2.1.330:
- in the default mode, a command that needs approval (`touch x`) ran without any prompt once a
  hook allowed it — so allowing every command would grant permissions the user never gave;
- deny rules are still applied to the rewritten command, and they see the original command's
  words only when it is embedded as code (shell.wrap does that), not as an `eval` string;
- with no decision, the rewritten command goes through the whole permission pipeline, which
  refuses the wrapper itself ("a group in braces … can't be checked before it runs").

Auto mode (2.1.330's default) is left alone entirely: there "allow" would skip its check (a
server-side classifier that reviews each tool call as the model wrote it), and a rewrite with
no decision voids that review — Claude Code then refuses the call ("a hook changed this call's
input after auto mode reviewed it … issue the Bash call once more with exactly that input"),
so the check would only ever judge the wrapper. Large outputs there are clipped after the fact
instead (claude_post: PostToolUse, which decides nothing).

So the hook rewrites a command only when Claude Code would have run it unasked anyway, judged
conservatively — when unsure, the command runs exactly as written (unclipped):
- never in plan or auto mode, nor when a deny or ask rule could concern the command or the
  wrapper;
- in bypassPermissions mode, always;
- otherwise when every simple command of the command line (parsed: shellsyntax.parse; only
  plain lists joined by ;, &&, || and |) is covered by an allow rule (`Bash`,
  `Bash(npm test:*)`, `Bash(git diff)`…), or — outside dontAsk mode — is one Claude Code itself
  runs without asking: a read-only command with only its safe flags, reading inside the
  working directory (claude_readonly: `grep -n foo src`, `seq 1 9 | sed 's/^/row /'`,
  `git log --oneline`, `ls`).

Rules are read from the settings files Claude Code reads (managed, user, project, local).
Rules given only on Claude Code's command line (--allowedTools) are not visible to a hook:
commands they allow run unclipped; deny rules given there still apply (Claude Code checks the
wrapped command, which shows the original's words).
"""

from __future__ import annotations

import json
import os
import re
import sys

from ..patterns import lazy
from . import claude_readonly, shellsyntax

_BASH_RULE = lazy(r"^\s*Bash\s*(?:\((.*)\))?\s*$", re.S)


def claude_would_run(command: str, event: dict, settings_files: list | None = None) -> bool:
    mode = event.get("permission_mode") or "default"
    if mode in ("plan", "auto"):
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
    roots = (cwd, *rules["additionalDirectories"])
    read_only_ok = mode != "dontAsk" and not _cd_and_git(parts, cwd)
    return all(any(_allows(rule, part.text) for rule in rules["allow"])
               or (read_only_ok and claude_readonly.read_only(part, roots)) for part in parts)


def split(command: str) -> list[shellsyntax.Command] | None:
    """The simple commands of a command line; None when it holds anything harder to judge
    (substitutions, subshells, groups, compound commands, heredocs, background jobs)."""
    script = shellsyntax.parse(command)
    if script is None or not script.flat or not script.commands:
        return None
    return list(script.commands)


def _cd_and_git(parts: list[shellsyntax.Command], cwd: str) -> bool:
    """Claude Code asks about git when a command also changes directory ("Compound commands
    with cd and git require permission checks"), or when the directory looks like a bare
    repository (HEAD, objects/, refs/ outside .git/): git could run hooks from there."""
    names = {part.words[0] for part in parts if part.words}
    if "git" not in names:
        return False
    if "cd" in names:
        return True
    return os.path.exists(os.path.join(cwd, "HEAD")) and os.path.isdir(
        os.path.join(cwd, "objects")) and os.path.isdir(os.path.join(cwd, "refs"))


# --- rules ---------------------------------------------------------------------------------

def _settings_files(event: dict) -> list[str]:
    # Paths as strings: pathlib costs ~3 ms, and Claude Code waits on this before every command.
    files = ["/Library/Application Support/ClaudeCode/managed-settings.json"
             if sys.platform == "darwin" else "/etc/claude-code/managed-settings.json"]
    user = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    files += [os.path.join(user, "settings.json"), os.path.join(user, "settings.local.json")]
    project = os.environ.get("CLAUDE_PROJECT_DIR") or event.get("cwd")
    directory = os.path.normpath(project) if project else None
    while directory:  # the project's folder and every folder above it
        files += [os.path.join(directory, ".claude", "settings.json"),
                  os.path.join(directory, ".claude", "settings.local.json")]
        parent = os.path.dirname(directory) or "."
        directory = None if parent == directory else parent
    return files


def _rules(files: list) -> dict[str, list[str]]:
    """Each file's permissions.allow/deny/ask rules and its additionalDirectories (only those
    Claude Code takes as written: absolute and normalised; the others are left out, which
    can only make a command count as asked)."""
    rules: dict[str, list[str]] = {"allow": [], "deny": [], "ask": [], "additionalDirectories": []}
    for path in files:
        try:
            with open(path, encoding="utf-8") as stream:
                settings = json.loads(stream.read())
        except (OSError, ValueError):
            continue
        permissions = settings.get("permissions") if isinstance(settings, dict) else None
        if not isinstance(permissions, dict):
            continue
        for kind in rules:
            values = permissions.get(kind)
            if isinstance(values, list):
                rules[kind] += [value for value in values if isinstance(value, str)]
    rules["additionalDirectories"] = [path for path in rules["additionalDirectories"]
                                      if path.startswith("/") and os.path.normpath(path) == path]
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
    words = set(re.findall(r"[\w./-]+", command)) | {"headroom", "exit", "trap", "exec"}
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
