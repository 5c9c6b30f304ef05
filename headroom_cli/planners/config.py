"""config: a configuration file (redis.conf, postgresql.conf, sshd_config, login.defs) is
mostly comments around the few lines that set something. It becomes the head, an outline of the
omitted part, then the tail (outline.py): every line that sets a value first (`port = 5432`,
`bind 127.0.0.1 -::1`, `[section]`), then the settings left commented out (`#port = 5432`,
`# requirepass foobared`: the option's name, its syntax and its default), each with its line
number, spread over the file. A reader of a config file asks what it sets, then where an
option goes; the prose between explains them.

A file is read so when at least a third of its lines are comments (`#` or `;`) and nearly all
the others set something: a key (a word, `a.b`, `a-b`, `a_b`) then a value after `=` or
blanks, or an INI section. Code is not: a line holding a bracket, `$(`, `&&`, `||` or a `;`
ending a statement before its own comment is no setting, and a script's keys repeat (`echo`,
`if`), a config's do not.
"""

from __future__ import annotations

import re

from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline
from .costs import JUDGED_CHARS

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_COMMENT = lazy(r"[ \t]*[#;]")
# A key, then its value after `=` or blanks (`port = 5432`, `bind 127.0.0.1`, `MAIL_DIR /var`).
_SETTING = lazy(r"[ \t]*(?P<key>[A-Za-z_][\w.\-]*)(?:[ \t]*=[ \t]*|[ \t]+)(?P<value>\S.*)")
_SECTION = lazy(r"[ \t]*\[[\w .:\-\"/]+\][ \t]*$")
# A value's own comment (`port = 5432  # (change requires restart)`) is no part of it.
_TRAILING = lazy(r"[ \t]+[#;].*")
_CODE = lazy(r"[(){}`]|\$\(|&&|\|\||;[ \t]+\S")  # `; then`, `; do`: a statement ends
_QUOTED = lazy(r"\"[^\"]*\"|'[^']*'")  # a value's own text (`"{title} {listen-addr}"`)
# A comment that is a setting left out: `#port = 5432`, `# save 3600 1 300`, `# requirepass x`;
# not prose (`# Note that …`, `# units are case insensitive.`): after blanks a value of at
# most _WORDS words (any number of numbers), not ending a sentence.
_COMMENTED = lazy(r"[#;][ \t]?(?=[A-Za-z_])")  # at the margin: an indented one goes on a value's
_WORDS = 3
_ENDS_SENTENCE = (".", ":", ",", "?", "!")

_COMMENT_SHARE = 1 / 3  # of the non-blank lines, the comments a config file has at least
_SETTING_SHARE = 0.8  # of the other non-blank lines, those that set something
_DISTINCT_KEYS = 0.7  # of the settings, their distinct keys
_MIN_SETTINGS = 3
_MIN_ENTRIES = 5  # settings, set or left commented out
_EDGE_SHARE = 0.05  # for the head and the tail: the file's title, its last lines


def looks_like(sample: list[str], tool: Tool) -> bool:
    comments, others = [], []
    for row in outline.bodies(sample):
        if row.strip():
            row = row[:JUDGED_CHARS]  # a line is judged on its start (costs.JUDGED_CHARS)
            (comments if _COMMENT.match(row) else others).append(row)
    if len(comments) < _COMMENT_SHARE * (len(comments) + len(others)) or not others:
        return False
    keys = [key for key in map(_key, others) if key is not None]
    if len(keys) < max(_MIN_SETTINGS, _SETTING_SHARE * len(others)) \
            or len(set(keys)) < _DISTINCT_KEYS * len(keys):
        return False
    return len(keys) + sum(1 for row in comments if _commented_setting(row)) >= _MIN_ENTRIES


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = outline.bodies(list(lines))
    return outline.plan("other", "settings", text, lines, budget, counter, entries(rows),
                        head_share=_EDGE_SHARE, tail_share=_EDGE_SHARE,
                        deeper_after_a_miss=True)


def entries(rows: list[str]) -> list[tuple[int, int]]:
    """(line, level): the lines that set something (0), the settings commented out (1)."""
    found = []
    for index, row in enumerate(rows):
        row = row[:JUDGED_CHARS]  # a line is judged on its start (costs.JUDGED_CHARS)
        if not row.strip():
            continue
        if _COMMENT.match(row):
            if _commented_setting(row):
                found.append((index, 1))
        elif _key(row) is not None:
            found.append((index, 0))
    return found


def _key(row: str) -> str | None:
    """The key a line sets ('[]' for an INI section), or None when it sets nothing."""
    if _SECTION.match(row):
        return "[]" + row.strip()
    setting = _setting(row)
    return None if setting is None else setting["key"]


def _commented_setting(row: str) -> bool:
    commented = _COMMENTED.match(row)
    setting = None if commented is None else _setting(row[commented.end():])
    if setting is None or setting.string.endswith(_ENDS_SENTENCE):
        return False
    if "=" in setting.string[:setting.start("value")]:
        return True
    words = [word for word in setting["value"].split() if not word.replace(".", "").isdigit()]
    return len(words) <= _WORDS


def _setting(text: str) -> re.Match | None:
    """`text` read as `key = value` or `key value`, its own comment aside; None when it is
    neither, or when its value outside quotes holds code."""
    setting = _SETTING.match(_TRAILING.sub("", text).rstrip())
    if setting is None or _CODE.search(_QUOTED.sub('""', setting["value"])):
        return None
    return setting
