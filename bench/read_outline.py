#!/usr/bin/env python3
"""Does the Read outline (`[hooks] read_over`) give the model more of what matters per token
than Claude Code's own Read? (issue #23, item 6)

    .venv/bin/python bench/read_outline.py --root DIR [--over 4000]

DIR holds the real files below, as their packages ship them (fetch them with
`pip download --no-binary :all: --no-deps requests==2.32.3 click==8.1.7 urllib3==2.2.3
werkzeug==3.0.4 attrs==24.2.0` and unpack; the npm files come from `npm install` of the
packages named; the rustdoc pages from rustup's rust-docs, rustc 1.95.0). The needles of each
file were chosen by reading the file, before headroom was run on it, each with why a reader
would look for it.

Claude Code 2.1.330's Read, as its bundle has it: the first 2,000 lines (`Akt=2000`), each
numbered `cat -n` style; a file over 262,144 bytes (`maxSizeBytes`) or whose content is over
25,000 tokens (`maxTokens`, CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS) gets an error and no
content. This script models lines longer than 2,000 characters as cut there. The hook sees
what Read returned: with the outline, the model gets the lines the hook keeps plus the outline
in additionalContext (agents/claude_post.py), and the figures count both.

Printed per file: needles kept and tokens for Read and for the outline, then needles per 1,000
tokens; then the totals.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from headroom_cli.agents import HookOptions  # noqa: E402
from headroom_cli.agents.claude_post import PostSettings, reply  # noqa: E402
from headroom_cli.api import counter_for  # noqa: E402

READ_LINES, READ_LINE_CHARS, READ_MAX_BYTES, READ_MAX_TOKENS = 2000, 2000, 262_144, 25_000


@dataclass(frozen=True)
class File:
    path: str  # under --root
    kind: str
    needles: tuple[str, ...]  # substrings of lines a reader looks for
    why: str


FILES = (
    File("requests-2.32.3/src/requests/sessions.py", "code",
         ("def merge_setting(", "def rebuild_method(", "class Session(", "def send(self, request",
          "def get_adapter("), "the functions a change to a request's flow touches"),
    File("click-8.1.7/src/click/core.py", "code",
         ("class Context:", "class Command(", "class MultiCommand(", "class Parameter:",
          "class Argument(Parameter):"), "the classes of click's model"),
    File("urllib3-2.2.3/src/urllib3/connectionpool.py", "code",
         ("class ConnectionPool:", "class HTTPConnectionPool(", "    def urlopen(",
          "class HTTPSConnectionPool(", "def connection_from_url("), "the pools and urlopen"),
    File("attrs-24.2.0/src/attr/_make.py", "code",
         ("def _transform_attrs(", "class _ClassBuilder:", "def _make_order(", "def fields_dict(",
          "def make_class("), "where a class is built"),
    File("werkzeug-3.0.4/src/werkzeug/routing/rules.py", "code",
         ("class RulePart:", "def parse_converter_args(", "class Submount(", "class Rule(",
          "    def build("), "rules and how a URL is built"),
    File("requests-2.32.3/HISTORY.md", "docs",
         ("2.32.0 (2024-05-20)", "2.31.0 (2023-05-22)", "CVE-2023-32681", "2.20.0 (2018-10-18)",
          "1.0.0 (2012-12-17)"), "releases and a security fix"),
    File("click-8.1.7/CHANGES.rst", "docs",
         ("Version 8.1.0", "Version 8.0.0", "Version 7.0", "Version 6.0", "Version 2.0"),
         "the major releases"),
    File("werkzeug-3.0.4/CHANGES.rst", "docs",
         ("Version 3.0.0", "Version 2.3.0", "Version 2.0.0", "Content Security", "Version 1.0.0"),
         "major releases and a security fix"),
    File("urllib3-2.2.3/CHANGES.rst", "docs",
         ("2.0.0 (2023-04-26)", "1.26.0 (2020-11-10)", "1.25 (2019-04-22)", "2.2.3 (2024-09-12)",
          "0.3 (2009-12-10)"), "major releases, the newest and the oldest"),
    File("attrs-24.2.0/CHANGELOG.md", "docs",
         ("## [23.1.0]", "## [22.2.0]", "## [21.3.0]", "## [20.1.0]", "## [24.2.0]"),
         "the releases"),
    File("qwen/settings.md", "docs",
         ("## Settings files", "#### permissions", "## Environment Variables", "## Sandbox",
          "## Usage Statistics"), "the settings reference's sections"),
    File("pi/package-lock.json", "lock",
         ('"node_modules/chalk": {', '"node_modules/glob": {', '"node_modules/minimatch": {',
          '"node_modules/openai": {', '"node_modules/yaml": {'), "the resolved packages"),
    File("attrs-24.2.0/pyproject.toml", "config",
         ("[project]", "[project.optional-dependencies]", "[tool.hatch.version]",
          "[tool.pytest.ini_options]", "[tool.coverage.report]"), "the tables"),
    File("attrs-24.2.0/tests/test_mypy.yml", "config",
         ("- case: attr_s_with_type_argument", "- case: testAttrsInitAttribFalse",
          "- case: testAttrsDataClass", "- case: testAttrsOtherOverloads",
          "- case: testAttrsDefaultAndInit"), "the test cases"),
    File("jszip/jszip.min.js", "minified",
         ("JSZip v3", "generateAsync", "loadAsync", "file:function", "folder:function"),
         "the API names"),
    File("rustdoc/struct.RefCell.html", "docs",
         ('id="method.borrow"', 'id="method.borrow_mut"', 'id="method.replace"',
          'id="method.take"', "Trait Implementations"), "the methods a reader looks up"),
)


def claude_read(text: str, counter) -> str:
    """What Claude Code's Read gives the model for a whole-file Read."""
    if len(text.encode()) > READ_MAX_BYTES:
        return "File content exceeds maximum allowed size. Use offset and limit parameters."
    rows = text.split("\n")[:READ_LINES]
    content = "\n".join(f"{i:>6}\t{row[:READ_LINE_CHARS]}" for i, row in enumerate(rows, 1))
    if counter.count(content) > READ_MAX_TOKENS:
        return ("File content exceeds maximum allowed tokens (25000). Use offset and limit "
                "parameters to read specific portions of the file.")
    return content


def outlined(read: str, path: str, over: int) -> str:
    """What the model gets when the hook outlines that Read (the Read itself when it does not)."""
    if read.startswith("File content exceeds"):
        return read
    content = "\n".join(row.split("\t", 1)[1] for row in read.split("\n"))
    event = {"tool_name": "Read", "tool_response": {"type": "text", "file": {
        "filePath": path, "content": content, "startLine": 1,
        "numLines": content.count("\n") + 1, "totalLines": content.count("\n") + 1}}}
    answer = reply(event, HookOptions(store=False), PostSettings(read_over=over))
    if answer is None:
        return read
    out = answer["hookSpecificOutput"]
    kept = out["updatedToolOutput"]["file"]["content"].split("\n")
    shown = "\n".join(f"{i:>6}\t{row}" for i, row in enumerate(kept, 1))
    return shown + "\n" + out["additionalContext"]


def kept(needles, out: str) -> int:
    return sum(1 for needle in needles if needle in out)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", type=Path, required=True)
    p.add_argument("--over", type=int, default=4000, help="read_over (default 4000)")
    args = p.parse_args()
    counter = counter_for()
    totals = [0, 0, 0, 0, 0]
    print(f"{'file':48} {'kind':8} {'Read kept/tokens':>17} {'outline kept/tokens':>20} "
          f"{'per 1k: Read':>12} {'outline':>8}")
    for f in FILES:
        text = (args.root / f.path).read_text()
        read = claude_read(text, counter)
        mine = outlined(read, f.path, args.over)
        a, b = kept(f.needles, read), kept(f.needles, mine)
        ta, tb = counter.count(read), counter.count(mine)
        totals = [x + y for x, y in zip(totals, (a, ta, b, tb, len(f.needles)))]
        print(f"{f.path[-48:]:48} {f.kind:8} {a:>3}/{len(f.needles)} {ta:>10,} "
              f"{b:>6}/{len(f.needles)} {tb:>10,} {1000 * a / ta:>12.2f} {1000 * b / tb:>8.2f}")
    a, ta, b, tb, n = totals
    print(f"{'all':57} {a:>3}/{n} {ta:>10,} {b:>6}/{n} {tb:>10,} "
          f"{1000 * a / ta:>12.2f} {1000 * b / tb:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
