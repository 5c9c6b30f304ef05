"""Logs whose records start with no level word, and documents whose prose names errors.

tests/outputs/ (made here, each a real run, whole):
- make-readline-8.3.txt: `make -j2` of readline 8.3 (bundled in the gnureadline 8.3.3 sdist,
  PyPI) after its `./configure` (the commands make echoes, `make[1]:` lines);
- npm-install-verbose-left-pad-ms.txt: `npm install --loglevel verbose left-pad@1.3.0 ms@2.1.3`
  in an empty package (npm 11);
- python-http-server-access-log.txt: `python3 -m http.server` on 127.0.0.1 while curl fetched
  pages of an unpacked sdist folder, some of them missing;
- ninja-build-ninja-1.13.txt: `ninja -j2` of ninja 1.13's own sources (the ninja 1.13.2 sdist)
  after `cmake -G Ninja`;
- git-grep-n-W-black-24.2.0-def-is-docstring.txt: `git grep -n -W "def is_docstring"` in the
  black 24.2.0 sdist committed into a fresh repository: 2 matches in their whole functions.
Tuning corpus cases (tests/corpus, their meta.json says how each was made): configure-readline-8.3,
java-17-xlog-gc-class-load-version, ansible-playbook-v-copy-black-sources.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import GROWN_DIR, corpus_case
from headroom_cli.plan import Lines
from headroom_cli.planners.log import signals as log_signals
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

OUTPUTS = Path(__file__).parent / "outputs"
BASH, READ = lookup("Bash"), lookup("Read")

# Records by their own prefix: a log whichever tool printed or read it.
RECORDS = {
    "configure-readline-8.3": "checking for gcc... gcc / config.status: creating Makefile",
    "java-17-xlog-gc-class-load-version": "[0.005s][info][gc] …",
    "npm-install-verbose-left-pad-ms.txt": "npm verbose … / npm info …",
    "ansible-playbook-v-copy-black-sources": "ok: [localhost] / changed: [localhost]",
    "ninja-build-ninja-1.13.txt": "[3/35] Building CXX object …",
}
# A shell's own records: the commands make echoes (`gcc -c …`, `rm -f x.o`), `make[1]:`.
SHELL_ONLY = {"make-readline-8.3.txt"}


def shape(text: str, tool=BASH) -> str:
    return sniff(Lines(text), tool)


def real(name: str) -> str:
    """A real output: a file of tests/outputs, or a tuning corpus case by its id."""
    path = OUTPUTS / name
    return path.read_text() if path.is_file() else corpus_case(GROWN_DIR, name)[1]


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_records_without_a_level_word_make_a_log_for_any_tool(name):
    text = real(name)
    assert not log_signals._has_log_signal(text.splitlines())  # no error word decides it
    for tool in (BASH, READ, lookup(None)):
        assert shape(text, tool) == "log", (name, tool.name)


def test_an_access_log_is_left_to_the_template_rung():
    """The common log format is no record form: an access log's failures are its status
    codes, which the log planner does not read; the template rung keeps its rare 404 lines
    (test_templates.py)."""
    assert shape(real("python-http-server-access-log.txt")) == "other"


def test_a_shells_build_commands_make_a_log_in_its_output_only():
    text = (OUTPUTS / "make-readline-8.3.txt").read_text()
    assert shape(text, BASH) == "log"
    assert shape(text, READ) != "log"  # a file of command lines is no record of a run


@pytest.mark.parametrize("name", sorted(RECORDS.keys() | SHELL_ONLY))
def test_a_numbered_log_is_still_a_log(name):
    rows = real(name).splitlines()
    numbered = "".join(f"{i:>6}\t{row}\n" for i, row in enumerate(rows, 1))  # cat -n
    assert shape(numbered) == "log"


def test_a_progress_verb_counts_at_the_start_of_a_line_only():
    """`man bash` indents paragraphs whose lines start `Quoting …`, `Enclosing …`: prose,
    not cargo's right-aligned steps. A verb that starts its line counts whatever its case."""
    assert log_signals._is_record("checking for gcc... gcc")
    assert log_signals._is_record("config.status: creating Makefile")
    assert log_signals._is_record("Unpacking libfoo (1.2) ...")
    assert not log_signals._is_record("       Quoting is used to remove the special meaning")
    _, text = corpus_case(GROWN_DIR, "man-bash-5.2-reference")
    assert shape(text) != "log"


def test_a_yaml_document_whose_values_name_errors_is_yaml():
    """ansible-config list: 215 settings whose descriptions offer `error:` and `warning:`
    choices; the document's structure decides before its prose can make it a log."""
    _, text = corpus_case(GROWN_DIR, "ansible-config-list-core-2.19")
    assert log_signals._has_log_signal(text.splitlines()[:3000])
    assert shape(text) == "yaml"


def test_a_search_with_few_matches_in_much_context_is_a_search():
    """Context lines name the file a match named (`path-12-text`): a search's as much as its
    two matches are, though a shell's search needs more than two lines to be told."""
    text = (OUTPUTS / "git-grep-n-W-black-24.2.0-def-is-docstring.txt").read_text()
    assert shape(text) == "search"
    assert shape("".join(row + "\n" for row in text.splitlines()
                         if ":" not in row.split("-", 1)[0])) != "search"  # context alone


def test_message_templates_are_no_events():
    """`strings` of a binary holds its messages' templates: a printf placeholder or a level
    with nothing after it says no error happened."""
    for line in ("WARNING: %s major version %s, server major version %s.", "ERROR:  ",
                 "warning: undefined variable '%.*s'", "invalid output format (internal error): %d"):
        assert not list(log_signals._signals([line])), line
    for line in ("ERROR: relation \"users\" does not exist", "warning: unused variable 'x'",
                 "error: could not compile `semver` (lib) due to 1 previous error"):
        assert list(log_signals._signals([line])), line
    _, text = corpus_case(GROWN_DIR, "strings-n8-psql-15-binary")
    assert shape(text) != "log"
