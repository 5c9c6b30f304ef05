"""The structure of a shell command line: its simple commands, their words and redirections.

Hooks must judge a command by what the shell will run, not by words that merely appear in it:
`rg -n exit src/` runs rg (exit is an argument), `git commit -m "exit"` runs git, `make; exit 3`
runs exit. parse() reads a Bourne-shell command line the way bash splits it — quotes, escapes,
`$(…)`, backquotes, `${…}`, `<(…)`, operators, redirections, heredocs, comments — in one linear
pass, and returns every simple command at every depth. It never runs anything.

It reads; it does not judge. A construct it does not model word for word (`for`, `case`,
`[[`, a function definition) makes the script `opaque`: callers then decide conservatively.
Text it cannot read (an unclosed quote) gives None.
"""

from __future__ import annotations

import functools
import re
from collections import namedtuple

from ..patterns import lazy

# Operators, longest first (bash's control and redirection operators).
_CONTROL = ("&&", "||", ";;&", ";;", ";&", "|&", ";", "&", "|", "(", ")", "\n")
_REDIRECT = ("&>>", "&>", "<<<", "<<-", "<<", "<&", "<>", ">>", ">|", ">&", "<", ">")
# Words that start a compound command or end one, at command position.
_FLOW = {"if", "then", "elif", "else", "fi", "do", "done", "while", "until", "!", "{", "}",
         "time"}
_OPAQUE = {"for", "case", "select", "function", "[[", "coproc"}
_ASSIGNMENT = lazy(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
_NAME = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")


# Named tuples from collections, not typing.NamedTuple (nor dataclasses): importing typing
# costs ~5 ms before every Bash command Claude Code runs.
class Redirect(namedtuple("Redirect", "fd op target")):
    """fd: "" when not given (the operator's default), else the digits or {var}; op: one of
    _REDIRECT; target: the target word as written (a heredoc: its delimiter)."""
    __slots__ = ()


class Command(namedtuple("Command", "words raw redirects assignments plain text")):
    """One simple command: its words as the shell sees them after quote removal (`words`, a
    tuple of str), as written (`raw`), its redirections (Redirect) and assignments, and its
    text as written (`text`, operators around it excluded). `plain` is False when a word holds
    an unquoted expansion ($, `…`, $(…)) — its value is then only known when it runs."""
    __slots__ = ()


class Script(namedtuple("Script", "commands separators nested opaque")):
    """commands: every simple command (Command), at every depth, in order; separators: the top
    level's control operators, in order; nested: a subshell, group, compound command,
    substitution or heredoc somewhere; opaque: a construct parse() does not model word by word
    (for, case, [[, f() …)."""
    __slots__ = ()

    @property
    def flat(self) -> bool:
        """Only simple commands joined by ;, &&, || and |, at the top level, no background."""
        return not self.nested and not self.opaque and not any(
            op in ("&", "|&", ";;", ";&", ";;&", "(", ")") for op in self.separators)


class _Unreadable(Exception):
    pass


@functools.lru_cache(maxsize=16)  # one hook asks about the same command several times
def parse(command: str) -> Script | None:
    """The structure of `command`, or None when it cannot be read (unclosed quote…)."""
    try:
        return _Parser(command).script()
    except (_Unreadable, RecursionError):
        return None


def command_names(script: Script) -> list[str]:
    """The name each simple command runs, at every depth (`builtin`/`command` see through to
    the one they run)."""
    names = []
    for cmd in script.commands:
        words = list(cmd.words)
        while words and words[0] in ("builtin", "command", "nohup", "time") and len(words) > 1:
            names.append(words[0])
            words = words[1:]
            while words and words[0].startswith("-"):
                words = words[1:]
        if words:
            names.append(words[0])
    return names


class _Parser:
    def __init__(self, text: str, depth: int = 0):
        if depth > 50:
            raise _Unreadable("nested too deep")
        self.text = text
        self.depth = depth
        self.pos = 0
        self.commands: list[Command] = []
        self.separators: list[str] = []
        self.nested = False
        self.opaque = False
        self.heredocs: list[tuple[str, bool]] = []  # pending (delimiter, strip tabs)

    # --- the command list --------------------------------------------------------------
    def script(self) -> Script:
        words: list[tuple[str, str, bool]] = []  # (text, raw, plain)
        redirects: list[Redirect] = []
        start = self.pos
        self.last_end = self.pos
        paren_depth = 0
        while True:
            self._skip_blanks()
            if self.pos >= len(self.text):
                break
            char = self.text[self.pos]
            if char == "#" and (self.pos == 0 or self.text[self.pos - 1] in " \t\n;&|()"):
                end = self.text.find("\n", self.pos)
                self.pos = len(self.text) if end < 0 else end
                continue
            op = self._operator(_CONTROL)
            if op is not None:
                if op == "(" and words and not redirects and len(words) == 1 \
                        and self.text.startswith(")", self._after_blanks()):
                    self.opaque = True  # name() { …; }: a function definition
                self._end_command(words, redirects, start)
                words, redirects = [], []
                if op == "(":
                    paren_depth += 1
                    self.nested = True
                elif op == ")":
                    paren_depth -= 1
                if op == "\n":
                    self._read_heredocs()
                if paren_depth == 0 or op not in ("(", ")"):
                    self.separators.append(op)
                start = self.pos
                continue
            redirect = self._redirect(words)
            if redirect is not None:
                redirects.append(redirect)
                self.last_end = self.pos
                continue
            text, raw, plain = self._word()
            self.last_end = self.pos
            if not words and not redirects:
                if text in _OPAQUE or raw.startswith("(("):
                    self.opaque = True
                if text in _FLOW and raw == text:
                    if text not in ("!", "time"):
                        self.nested = True
                    start = self.pos
                    continue
            words.append((text, raw, plain))
        if self.heredocs:
            raise _Unreadable("heredoc without its body")
        self._end_command(words, redirects, start)
        return Script(tuple(self.commands), tuple(self.separators), self.nested, self.opaque)

    def _end_command(self, words, redirects, start) -> None:
        assignments = []
        while words and _ASSIGNMENT.match(words[0][1]):
            assignments.append(words.pop(0)[1])
        if not words and not redirects and not assignments:
            return
        text = self.text[start:max(start, self.last_end)].strip()
        self.commands.append(Command(
            tuple(w[0] for w in words), tuple(w[1] for w in words), tuple(redirects),
            tuple(assignments), all(w[2] for w in words), text))

    # --- tokens ------------------------------------------------------------------------
    def _skip_blanks(self) -> None:
        while self.pos < len(self.text):
            if self.text[self.pos] in " \t":
                self.pos += 1
            elif self.text.startswith("\\\n", self.pos):
                self.pos += 2
            else:
                break

    def _after_blanks(self) -> int:
        pos = self.pos
        while pos < len(self.text) and self.text[pos] in " \t":
            pos += 1
        return pos

    def _operator(self, operators) -> str | None:
        for op in operators:
            if self.text.startswith(op, self.pos):
                self.pos += len(op)
                return op
        return None

    def _redirect(self, words) -> Redirect | None:
        pos = self.pos
        match = re.compile(r"\d+|\{[A-Za-z_][A-Za-z0-9_]*\}").match(self.text, pos)
        fd = ""
        if match and self.text.startswith(_REDIRECT, match.end()):
            fd = match.group(0)
            pos = match.end()
        if not self.text.startswith(_REDIRECT, pos):
            return None
        if self.text.startswith(("<(", ">("), pos):
            return None  # a process substitution: a word
        self.pos = pos
        op = self._operator(_REDIRECT)
        self._skip_blanks()
        if self.pos >= len(self.text) or self.text[self.pos] in "\n;&|()<>":
            raise _Unreadable("redirection without a target")
        text, raw, _ = self._word()
        if op in ("<<", "<<-"):
            self.heredocs.append((text, op == "<<-"))
            self.nested = True
        return Redirect(fd, op, raw)

    def _read_heredocs(self) -> None:
        for delimiter, strip in self.heredocs:
            while True:
                if self.pos >= len(self.text):
                    self.heredocs = []
                    return  # bash accepts a heredoc ended by the end of the text
                end = self.text.find("\n", self.pos)
                line = self.text[self.pos:] if end < 0 else self.text[self.pos:end]
                self.pos = len(self.text) if end < 0 else end + 1
                if (line.lstrip("\t") if strip else line) == delimiter:
                    break
        self.heredocs = []

    def _word(self) -> tuple[str, str, bool]:
        """One word: (text after quote removal, raw text, no unquoted expansion)."""
        start = self.pos
        out: list[str] = []
        plain = True
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in " \t\n;&|()<>":
                if char in "<>" and text.startswith("(", self.pos + 1):
                    begin = self.pos
                    self._balanced(self.pos + 1, "(", ")", commands=True)
                    out.append(text[begin:self.pos])
                    plain = False
                    continue
                break
            if char == "\\":
                if text.startswith("\n", self.pos + 1):
                    self.pos += 2
                    continue
                out.append(text[self.pos + 1:self.pos + 2])
                self.pos += 2
            elif char == "'":
                end = text.find("'", self.pos + 1)
                if end < 0:
                    raise _Unreadable("unclosed '")
                out.append(text[self.pos + 1:end])
                self.pos = end + 1
            elif char == '"':
                quoted, expands = self._double_quoted()
                out.append(quoted)
                plain = plain and not expands
            elif char == "$" and text.startswith("'", self.pos + 1):
                end = self.pos + 2
                while end < len(text) and text[end] != "'":
                    end += 2 if text[end] == "\\" else 1
                if end >= len(text):
                    raise _Unreadable("unclosed $'")
                out.append(text[self.pos:end + 1])
                self.pos = end + 1
                plain = False
            elif char == "$" or char == "`":
                out.append(self._expansion())
                plain = False
            else:
                out.append(char)
                self.pos += 1
        return "".join(out), text[start:self.pos], plain

    def _double_quoted(self) -> tuple[str, bool]:
        """The text inside "…" at pos, and whether it holds an expansion."""
        text = self.text
        self.pos += 1
        out = []
        expands = False
        while self.pos < len(text):
            char = text[self.pos]
            if char == '"':
                self.pos += 1
                return "".join(out), expands
            if char == "\\" and text[self.pos + 1:self.pos + 2] in ("$", "`", '"', "\\", "\n"):
                out.append(text[self.pos + 1] if text[self.pos + 1] != "\n" else "")
                self.pos += 2
            elif char in "$`":
                out.append(self._expansion())
                expands = True
            else:
                out.append(char)
                self.pos += 1
        raise _Unreadable('unclosed "')

    def _expansion(self) -> str:
        """$name, ${…}, $(…), $((…)) or `…` at pos: returned as written (its value is only
        known when the command runs); a command inside is parsed too."""
        text = self.text
        start = self.pos
        if text.startswith("$((", start):
            self._balanced(start + 1, "(", ")", commands=False)
        elif text.startswith("$(", start):
            self._balanced(start + 1, "(", ")", commands=True)
        elif text.startswith("${", start):
            self._balanced(start + 1, "{", "}", commands=False)
        elif text[start] == "`":
            end = start + 1
            while end < len(text) and text[end] != "`":
                end += 2 if text[end] == "\\" else 1
            if end >= len(text):
                raise _Unreadable("unclosed `")
            self._nested(text[start + 1:end].replace("\\`", "`"))
            self.pos = end + 1
        else:
            match = re.compile(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?").match(text, start)
            self.pos = match.end()
        return text[start:self.pos]

    def _balanced(self, open_at: int, opening: str, closing: str, commands: bool) -> None:
        """Skip from the opening bracket at `open_at` to its match (quotes respected)."""
        text = self.text
        depth = 0
        pos = open_at
        while pos < len(text):
            char = text[pos]
            if char == "\\":
                pos += 2
                continue
            if char == "'" and commands:
                end = text.find("'", pos + 1)
                if end < 0:
                    raise _Unreadable("unclosed '")
                pos = end + 1
                continue
            if char == '"':
                inner = _Parser(text, self.depth + 1)
                inner.pos = pos
                inner._double_quoted()
                self.commands += inner.commands
                pos = inner.pos
                continue
            if char == opening:
                depth += 1
            elif char == closing:
                depth -= 1
                if depth == 0:
                    if commands:
                        self._nested(text[open_at + 1:pos])
                    self.pos = pos + 1
                    return
            pos += 1
        raise _Unreadable(f"unclosed {opening}")

    def _nested(self, inner_text: str) -> None:
        inner = _Parser(inner_text, self.depth + 1)
        script = inner.script()
        self.commands += script.commands
        self.nested = True
        self.opaque = self.opaque or script.opaque
