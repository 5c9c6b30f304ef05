"""Cleaning terminal noise before planning: ANSI escapes (every CSI and OSC form) and carriage-
return progress redraws. Cleaning never adds or removes a line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom_cli.api import compress
from headroom_cli.clean import clean, collapse_redraws, strip_ansi

ESC = "\x1b"
BEL = "\x07"
ST = "\x1b\\"


# --------------------------------------------------------------------------- ANSI forms


@pytest.mark.parametrize("sequence", [
    "\x1b[m",            # SGR reset with no parameters
    "\x1b[0m",
    "\x1b[1;31m",
    "\x1b[38;5;208m",    # 256-colour
    "\x1b[38;2;10;20;30m",  # truecolour
    "\x1b[?25l",         # hide cursor: private parameter byte
    "\x1b[?25h",
    "\x1b[K",            # erase line, no digits
    "\x1b[2K",
    "\x1b[1A",           # cursor up
    "\x1b[H",
    "\x1b[ q",           # an intermediate byte (DECSCUSR)
    "\x1b(B",            # two-byte escape: designate charset
    "\x1b7",             # save cursor
    "\x1b8",
])
def test_csi_and_short_escapes_are_removed_whole(sequence):
    assert strip_ansi(f"before{sequence}after\n") == "beforeafter\n"


@pytest.mark.parametrize("terminator", [BEL, ST], ids=["BEL", "ST"])
def test_osc8_hyperlink_keeps_only_its_visible_text(terminator):
    link = (f"{ESC}]8;;https://example.com/a?b=c{terminator}click here"
            f"{ESC}]8;;{terminator} done\n")
    assert strip_ansi(link) == "click here done\n"


@pytest.mark.parametrize("terminator", [BEL, ST], ids=["BEL", "ST"])
def test_osc_window_title_is_removed(terminator):
    assert strip_ansi(f"{ESC}]0;my title{terminator}prompt$ \n") == "prompt$ \n"


def test_text_without_escapes_is_returned_unchanged():
    text = "plain [31m text with brackets ] and \\ backslashes\n"
    assert strip_ansi(text) == text
    assert clean(text) == text


def test_crlf_line_endings_are_preserved():
    assert clean("a\r\nb\r\n") == "a\r\nb\r\n"
    assert clean("x\x1b[1;31mred\x1b[0m\r\nnext\r\n") == "xred\r\nnext\r\n"


# --------------------------------------------------------------------------- CR redraws


def test_carriage_return_redraws_keep_only_the_final_state():
    assert collapse_redraws("a\rb\rc\n") == "c\n"
    assert clean("a\rb\rc\n") == "c\n"


def test_progress_bar_redraws_collapse_line_by_line():
    text = "start\n 10%\r 50%\r100%\nnext\r\n"
    assert clean(text) == "start\n100%\nnext\r\n"


def test_redraw_that_ends_in_crlf_keeps_its_last_state_and_line_ending():
    assert clean("50%\r100%\r\n") == "100%\r\n"


def test_coloured_progress_redraw_is_stripped_and_collapsed():
    text = "\x1b[32m 10%\x1b[0m\r\x1b[32m100%\x1b[0m\ndone\n"
    assert clean(text) == "100%\ndone\n"


def test_trailing_carriage_return_without_newline_is_kept():
    assert clean("abc\r") == "abc\r"


# --------------------------------------------------------------------------- properties

# Text with a heavy share of the characters cleaning cares about.
noisy_text = st.lists(
    st.one_of(
        st.sampled_from(["\n", "\r", "\r\n", ESC, "\x1b[", "\x1b]", "[", "]", "\x07", "\\",
                         ";", "m", "?", "0", "8", "K", " ", "a", "é", "\x9b", "\x9d"]),
        st.characters(codec="utf-8"),
    ),
    max_size=300,
).map("".join)


@settings(deadline=None, max_examples=300)
@given(noisy_text)
def test_cleaning_never_changes_the_number_of_lines(text):
    assert clean(text).count("\n") == text.count("\n")


@settings(deadline=None, max_examples=300)
@given(noisy_text)
def test_cleaning_works_line_by_line_so_line_numbers_still_point_into_the_input(text):
    # Each cleaned line comes from the same input line alone.
    assert clean(text).split("\n") == [clean(line) for line in text.split("\n")]


_csi = st.builds(
    lambda params, inter, final: f"\x1b[{params}{inter}{final}",
    st.text(alphabet=[chr(c) for c in range(0x30, 0x40)], max_size=8),
    st.text(alphabet=[chr(c) for c in range(0x20, 0x30)], max_size=2),
    st.sampled_from([chr(c) for c in range(0x40, 0x7F)]),
)
_osc = st.builds(
    lambda body, end: f"\x1b]{body}{end}",
    st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x07\x1b\n"), max_size=30),
    st.sampled_from([BEL, ST]),
)
_escape = st.one_of(_csi, _osc, st.sampled_from(["\x1b7", "\x1b8", "\x1b(B", "\x1b)0", "\x1b="]))
_plain = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x1b\x9b\x9d\r"),
                 max_size=20)


@settings(deadline=None, max_examples=300)
@given(st.lists(st.tuples(_plain, _escape), max_size=12), _plain)
def test_every_well_formed_escape_is_removed_and_all_plain_text_kept(pairs, last):
    text = "".join(plain + esc for plain, esc in pairs) + last
    expected = "".join(plain for plain, _ in pairs) + last
    assert strip_ansi(text) == expected


# --------------------------------------------------------------------------- through compress


def test_clipped_output_is_cleaned_but_output_that_fits_is_untouched(counter):
    coloured = "".join(f"\x1b[1;31mERROR\x1b[0m item {i}\x1b[K\r\n" for i in range(2000))
    clipped = compress(coloured, budget=300, counter=counter)
    assert clipped.clipped
    assert "\x1b" not in clipped.text
    assert clipped.text.startswith("ERROR item 0\r\nERROR item 1\r\n")

    small = "\x1b[32mok\x1b[0m\r\n"
    fits = compress(small, budget=300, counter=counter)
    assert not fits.clipped and fits.text == small
