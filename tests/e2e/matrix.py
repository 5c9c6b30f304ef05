"""The commands every agent's end-to-end run asks for, and what each must give the model.

One scripted conversation per agent (and per permission mode): a 50,000-line success, the
model following the marker's own hint, a failing run with a traceback in the middle and exit
status 3, an output that fits (it must reach the model byte for byte), and a command with
quotes, pipes, a heredoc, `&&`, `cd` and `exit`.
"""

from __future__ import annotations

import re

from fake_model import FOLLOW_HINT

FIFTY_THOUSAND = "seq 1 50000 | sed 's/^/row /'"
# No command substitution: Gemini CLI refuses commands with $(…).
FAILING = ("seq 1 2000 | sed 's/^/collecting test /'; "
           'python3 -c "import json; json.loads(\'{broken\')"; '
           "seq 1 2000 | sed 's/^/cleanup step /'; "
           'echo "FAILED: 1 error during collection"; exit 3')
FITS = "printf 'alpha\\tbeta\\n  \"quoted\" and '\"'single'\"'\\n\\nno newline at the end'"
FITS_OUTPUT = "alpha\tbeta\n  \"quoted\" and 'single'\n\nno newline at the end"
COMPLEX = ("cd /usr && cat <<'EOF' | grep -v skip | tr a-z A-Z\n"
           "keep \"double\" and 'single' | pipes\n"
           "skip this line\n"
           "EOF\n"
           "echo \"now in ${PWD##*/}\" && exit 4")
COMPLEX_OUTPUT = "KEEP \"DOUBLE\" AND 'SINGLE' | PIPES\nnow in usr\n"
COMMANDS = [FIFTY_THOUSAND, FOLLOW_HINT, FAILING, FITS, COMPLEX]

MARKER = re.compile(r"\[…headroom: [^\]]*omitted[^\]]*\]")


def check_fifty_thousand(text: str) -> None:
    assert MARKER.search(text), text[:2000]
    assert last_line(text) == "row 50000"
    assert text.lstrip().startswith("row 1\n") or "\nrow 1\n" in text


def check_hint_followed(hint_result: str, clipped: str) -> None:
    """The retrieval command the marker named worked: it printed omitted rows."""
    omitted = re.search(r"lines (\d[\d,]*)–(\d[\d,]*) of", clipped)
    first = int(omitted.group(1).replace(",", ""))
    assert f"row {first}\n" in hint_result, hint_result[:1000]
    assert "command not found" not in hint_result and "No such file" not in hint_result


def check_failing(text: str) -> None:
    assert "Traceback (most recent call last):" in text
    assert "json.decoder.JSONDecodeError" in text
    assert "The command exited with status 3." in text
    assert last_line(text) == "FAILED: 1 error during collection"
    assert len(MARKER.findall(text)) >= 1


def last_line(text: str) -> str:
    """The output's last line (after it, headroom may close with a marker of its own)."""
    lines = [line for line in text.rstrip("\n").splitlines()
             if not line.startswith("[…headroom:")]
    return lines[-1]


# The second of two identical runs in one session (the agent's own session id reached
# headroom): one line, the way back.
IDENTICAL = re.compile(r"\[headroom: identical to the output of call 1 of this session \(`[^`]+`\)"
                       r": nothing changed\. The command exited with status 0\. To see it again: "
                       r".+ show [0-9a-f]{12}\]\n?")


def trailer_parser(pattern: re.Pattern, agent: str):
    """`output_of(result)` for an agent whose shell result is the output and a trailer naming
    the exit status: `pattern` matches the whole text, group 1 the output, group 2 the status."""
    def output_of(result: dict) -> tuple[str, int]:
        found = pattern.match(result["text"])
        assert found, f"{agent}: " + result["text"][:1000]
        return found.group(1), int(found.group(2))

    return output_of


def check_matrix(outputs: list[tuple[str, int]], own_cut: str) -> None:
    """The five results of COMMANDS, each (output, exit status) as the agent gave it, for an
    agent that replaces a long output with a notice containing `own_cut`: headroom's clip
    reached the model instead, and an output that fits reached it as it was."""
    (big, big_status), (hint, _), (failing, failing_status), (fits, fits_status), \
        (complex_, complex_status) = outputs
    assert big_status == 0 and own_cut not in big
    check_fifty_thousand(big)
    check_hint_followed(hint, big)
    assert failing_status == 3 and own_cut not in failing
    check_failing(failing)
    assert (fits, fits_status) == (FITS_OUTPUT, 0)
    assert (complex_, complex_status) == (COMPLEX_OUTPUT.rstrip("\n"), 4)


def check_repeat(outputs: list[tuple[str, int]]) -> None:
    """FIFTY_THOUSAND run twice in one session: the second time, the one-line identical reply
    (the agent's session id reached headroom)."""
    (first, _), (again, status) = outputs
    check_fifty_thousand(first)
    assert status == 0 and IDENTICAL.fullmatch(again), again
