"""Plan → text. Every marker headroom prints is worded here and nowhere else.

The marker contract: a marker says what is missing in the model's currency (lines and tokens)
and the concrete way back, for the tool that produced the output.

    [… lines 120–480 omitted (361 lines) …]                               (inline gap)
    […headroom: lines 301–4,870 of 5,002 (~16,500 tokens) of this Bash output omitted.
      To retrieve: re-run piped through sed -n '301,4870p' (or head, tail, grep)]  (closing)
"""

from __future__ import annotations


from .plan import Gap, Keep, Narrowing, Note, Plan
from .large_counts import count_spans
from .tokens import Counter
from .tools import Tool
from .values import value

MARKER_PREFIX = "[…headroom: "
# What a closing marker costs at most (cl100k tokens, counted on the longest wording below: a
# store id, an exit status, seven-digit figures), reserved by planners before they spend the
# budget; a test renders that marker and holds this figure to it.
CLOSING_MARKER_TOKENS = 80
# What a search plan's closing marker costs at most beside its narrowing hint (which the search
# planner counts itself: search_narrowing): the longest wording of search_summary and
# search_roll_up_summary with seven-digit figures and long lines cut, a store id, an exit
# status. A test renders that marker and holds this figure to it.
SEARCH_MARKER_TOKENS = 112
# What a JSON plan's closing marker costs at most: json_summary's longest wording (a minified
# document's, 9,999,999,000 characters), seven-digit figures, a store id, an exit status. A test
# renders that marker and holds this figure to it; json_marker_reserve prices one output's.
JSON_MARKER_TOKENS = 103
# What an inline gap marker costs, about (`[… lines 1,204–9,311 omitted (8,108 lines) …]`, 19
# tokens; a two-digit gap's 13): what planners price a gap at while choosing lines. fit.py
# counts the rendered clip exactly.
GAP_MARKER_TOKENS = 20
# Before a digest in the closing marker: a model wrote it, so it is no exact record.
DIGEST_LABEL = "Digest of the omitted part (model-written, may be inexact):"


@value
class Context:
    """What the marker needs to know beyond the plan."""

    tool: Tool
    store_id: str | None = None
    exit_status: int | None = None
    digest: str | None = None  # a model-written summary of what is omitted (digest.py)
    lost: object | None = None  # store.Lost: what a partial stored copy could not keep
    # clean.ByteMap: the text's positions in the raw output's bytes (cleaning removed some, a
    # streamed output was not all held), for markers that name bytes; None: the text's own.
    bytes: object | None = None
    # How the retrieval hint names headroom: an agent's hook gives the path it was installed
    # with, so the hint runs where the agent runs (its PATH may not have headroom on it).
    program: str = "headroom"
    # context.Followed: the budget a hook's default became as the agent's context filled.
    followed: object | None = None


def n(value: int) -> str:
    return f"{value:,}"


def counted(value: int, noun: str, plural: str = "") -> str:
    """`1 file`, `2 files`, `1 match`, `1,203 matches`."""
    return f"{value:,} {noun if value == 1 else plural or noun + 's'}"


def render(plan: Plan, text: str, counter: Counter, context: Context) -> str:
    parts: list[str] = []
    gaps = [item for item in plan.items if isinstance(item, Gap)]
    # One gap and nothing else to say: the closing marker stands in the gap itself.
    inline_closing = len(gaps) == 1 and not plan.summary
    for item in plan.items:
        if isinstance(item, Keep):
            parts.append(text[item.start:item.end])
            if item.suffix:
                _end_line(parts)
                parts[-1] = parts[-1][:-1] + item.suffix + "\n"
        elif isinstance(item, Note):
            _end_line(parts)
            parts.append(item.text + "\n")
        else:
            _end_line(parts)
            parts.append(closing_marker(plan, text, counter, context) if inline_closing
                         else inline_marker(item, text))
            parts.append("\n")
    if not inline_closing and (gaps or plan.omitted_lines or plan.summary):
        _end_line(parts)
        parts.append(closing_marker(plan, text, counter, context) + "\n")
    return "".join(parts)


def _end_line(parts: list[str]) -> None:
    if parts and not parts[-1].endswith("\n"):
        parts.append("\n")


def search_summary(omitted: int, total: int, cut_short: int, files: int, by_folder: bool,
                   long_lines: int = 0, line_chars: int = 0) -> str:
    """A search map's closing summary: matched lines omitted, files cut short (every file
    named above, or counted by folder past the scanner's cap)."""
    named = ("named above with their match counts, or counted by folder" if by_folder
             else "each named above with its match count")
    return _with_long_lines(f"{n(omitted)} of {n(total)} matched lines omitted ({n(cut_short)} "
                            f"of {n(files)} files cut short, {named})", long_lines, line_chars)


def search_roll_up_summary(omitted: int, total: int, files: int, groups: int, file_list: bool,
                           long_lines: int = 0, line_chars: int = 0) -> str:
    """A rolled-up search map's closing summary: its entries name every file, in groups."""
    what = "paths" if file_list else "matched lines"
    named = "group named above with its count" if groups == 1 else \
        "groups named above with their counts"
    return _with_long_lines(f"{n(omitted)} of {n(total)} {what} omitted "
                            f"({counted(files, 'file')} in {n(groups)} {named})",
                            long_lines, line_chars)


def search_lines_summary(omitted: int, total: int, long_lines: int = 0,
                         line_chars: int = 0) -> str:
    """A search listing that names every file (a file list, shown whole)."""
    if long_lines and not omitted:
        return _with_long_lines("", long_lines, line_chars)
    return _with_long_lines(f"{n(omitted)} of {n(total)} lines omitted", long_lines, line_chars)


def _with_long_lines(summary: str, long_lines: int, line_chars: int) -> str:
    if not long_lines:
        return summary
    note = f"{n(long_lines)} long lines cut after {line_chars} characters"
    return f"{summary}; {note}" if summary else note


_LONGEST = 9_999_999  # the figures SEARCH_MARKER_TOKENS and JSON_MARKER_TOKENS are counted with


def search_file_header(path: str, matches: int, shown: int = 0) -> str:
    """A search map's line for one file: its exact match count, and how many are shown below
    it when not all are (`lib/request.js (38 matches, showing 8)`)."""
    count = counted(matches, "match", "matches")
    return f"{path} ({count}, showing {n(shown)})" if shown else f"{path} ({count})"


def search_folder_label(folder: str, files: int, matches: int | None, more: bool = False) -> str:
    """A search map's line for files rolled up under a folder (`test/ (40 files, 379
    matches)`); `more`: beside files of the folder named on their own lines; `matches` None
    for a file list (`rg -l`)."""
    counts = counted(files, "more file" if more else "file", "more files" if more else "")
    if matches is not None:
        counts += f", {counted(matches, 'match', 'matches')}"
    return f"{folder or './'} ({counts})"


def path_map_folder(folder: str, files: int, own: bool = False) -> str:
    """A path map's line for a folder: every file under it (`src/ (1,204 files)`), or, `own`,
    those directly in it that are not named (`src/ (3 more files directly in it)`)."""
    if own:
        return f"{folder or './'} ({counted(files, 'more file')} directly in it)"
    return f"{folder or './'} ({counted(files, 'file')})"


def path_map_rest(folder: str, files: int, folders: int) -> str:
    """A path map's line for the folders of an open folder not shown, with their figures."""
    return f"{folder or './'} ({counted(files, 'more file')} in {counted(folders, 'more folder')})"


def search_marker_reserve(counter: Counter, total: int, files: int, long_lines: int,
                          line_chars: int) -> int:
    """SEARCH_MARKER_TOKENS less what this output's figures save on the longest wording (a
    summary's figures are at most the whole output's: `total` matched lines or paths, `files`
    files, `long_lines` lines over `line_chars`)."""
    def longest(figure: int, count: int, lines: int) -> int:
        return max(counter.count(search_summary(figure, figure, count, count, True, lines,
                                                line_chars)),
                   counter.count(search_roll_up_summary(figure, figure, count, count, False,
                                                        lines, line_chars)))

    return (SEARCH_MARKER_TOKENS - longest(_LONGEST, _LONGEST, _LONGEST)
            + longest(total, files, long_lines))


def json_summary(form: str, omitted: int, lines: int, chars: int) -> str:
    """A JSON plan's closing summary: `form` is "document", "minified" (one long line,
    re-indented here: `chars` characters on `lines` lines), "JSON Lines" or "JSON stream"."""
    literal = "elided values are marked …, not literal JSON"
    if form == "minified":
        return (f"JSON skeleton of minified JSON ({n(chars)} chars on {counted(lines, 'line')}), "
                f"re-indented here; {literal}")
    what = "JSON skeleton" if form == "document" else f"{form} skeleton"
    return f"{what}: {n(omitted)} of {n(lines)} lines omitted; {literal}"


_JSON_FORMS = ("document", "minified", "JSON Lines", "JSON stream")


def json_marker_reserve(counter: Counter, lines: int, chars: int) -> int:
    """JSON_MARKER_TOKENS less what this output's figures save on the longest wording: its
    summary's figures are at most the whole output's (`lines`, `chars`), and so are the tokens
    the marker says were left out (no more than its characters)."""
    def longest(figure: int, characters: int) -> int:
        return max(counter.count(f"{json_summary(form, figure, figure, characters)} "
                                 f"(~{n(characters)} tokens)") for form in _JSON_FORMS)

    return (JSON_MARKER_TOKENS - longest(_LONGEST, 1000 * _LONGEST)
            + longest(lines, chars))


def search_narrowing(narrowing: Narrowing) -> str:
    """The narrower searches a search marker suggests, in words, with the output's figures
    (each fits the budget but fewer context lines, which may only come nearer); empty when
    there is none. Its cost is the planner's to count (beside
    SEARCH_MARKER_TOKENS)."""
    ways = []
    if narrowing.where:
        if not narrowing.where_matches:  # a file list's folder
            figures = counted(narrowing.where_files, "file")
        else:
            figures = counted(narrowing.where_matches, "match", "matches")
            if narrowing.where.endswith(("/", "\\")):
                figures += f" in {counted(narrowing.where_files, 'file')}"
        ways.append(f"only {narrowing.where} ({figures}, ~{n(narrowing.where_tokens)} tokens)")
    if narrowing.context >= 0:
        fewer = (f"-C {narrowing.context}" if narrowing.context
                 else "no context lines (-C 0)")
        ways.append(f"{fewer} ({n(narrowing.context_lines)} lines, "
                    f"~{n(narrowing.context_tokens)} tokens)")
    if narrowing.list_files:
        ways.append(f"-l, the file list ({counted(narrowing.list_files, 'file')}, "
                    f"~{n(narrowing.list_tokens)} tokens)")
    if not ways:
        return ""
    return "; narrower searches, with what they would print: " + "; ".join(ways)


def template_note(count: int, first: int, last: int) -> str:
    """After a line that stands for the lines of its form (planners/templates.py): how many
    there are and where, 1-based."""
    return f"  (×{n(count)} lines of this form, {_range(first, last)})"


def inline_marker(gap: Gap, text: str = "") -> str:
    """`text`: the text the gap is in, to name the characters of a line it cuts."""
    count = gap.last_line - gap.first_line + 1
    cuts = _cut_lines(text, gap) if text else ""
    detail = "".join(f"; {part}" for part in (gap.detail, cuts) if part)
    return (f"[… {_line_range(gap.first_line, gap.last_line)} omitted "
            f"({counted(count, 'line')}{detail}) …]")


def _cut_lines(text: str, gap: Gap) -> str:
    """Which characters of the lines a gap cuts inside it leaves out (1-based, inclusive):
    `of line 57 only characters 301–2,000`; empty when it cuts no line."""
    if gap.hidden_chars:
        return ""
    parts = []
    if gap.start > 0 and text[gap.start - 1] != "\n":
        line_start = text.rfind("\n", 0, gap.start) + 1
        line_end = text.find("\n", gap.start)
        line_end = len(text) if line_end == -1 else line_end
        parts.append(f"of line {n(gap.first_line)} only characters "
                     f"{n(gap.start - line_start + 1)}–{n(min(line_end, gap.end) - line_start)}")
    if gap.end < len(text) and text[gap.end - 1] != "\n" and (
            gap.first_line != gap.last_line or not parts):
        line_start = text.rfind("\n", 0, gap.end) + 1
        first = max(line_start, gap.start) - line_start + 1
        parts.append(f"of line {n(gap.last_line)} only characters {n(first)}–"
                     f"{n(gap.end - line_start)}")
    return "; ".join(parts)


def _range(first: int, last: int) -> str:
    return n(first) if first == last else f"{n(first)}–{n(last)}"


def _line_range(first: int, last: int) -> str:
    """`line 48`, `lines 120–480`."""
    return f"line {n(first)}" if first == last else f"lines {_range(first, last)}"


def closing_marker(plan: Plan, text: str, counter: Counter, context: Context) -> str:
    gaps = [item for item in plan.items if isinstance(item, Gap)]
    tokens = dropped_tokens(text, plan, counter)
    source = f"this {context.tool.name} output" if context.tool.name != "generic" else "this output"
    if plan.summary:
        what = f"{plan.summary} (~{n(tokens)} tokens) of {source}"
    elif plan.binary:
        first, last, size = _byte_span(text, gaps[0], context)
        what = (f"binary output (NUL bytes): bytes {n(first)}–{n(last)} of {n(size)} "
                f"(~{n(tokens)} tokens) of {source} omitted")
    elif len(gaps) == 1 and _inside_one_line(text, gaps[0]):
        g = gaps[0]
        first, last, length = _char_span(text, g)
        what = (f"characters {n(first)}–{n(last)} of line {n(g.first_line)} (a {n(length)}-character "
                f"line; ~{n(tokens)} tokens) of {source} omitted")
    elif len(gaps) == 1:
        g = gaps[0]
        what = (f"{_line_range(g.first_line, g.last_line)} of {n(plan.total_lines)} "
                f"(~{n(tokens)} tokens) of {source} omitted{_partly_shown(text, g)}")
    else:
        where = f" in the {n(len(gaps))} gaps marked above" if gaps else ""
        what = (f"{n(plan.omitted_lines)} of {n(plan.total_lines)} lines (~{n(tokens)} tokens) "
                f"of {source} omitted{where}")
    status = ""
    if context.exit_status:
        status = f" The command exited with status {context.exit_status}."
    if context.followed is not None and context.followed.shrunk:
        status += f" {budget_followed(context.followed)}."
    if context.digest:
        status += f" {DIGEST_LABEL} {context.digest}"
    hint = retrieval_hint(plan, gaps, text, context)
    if context.store_id and context.lost is not None:
        hint += f"; {partial_copy(context.lost)}"
    if plan.narrowing is not None:
        hint += search_narrowing(plan.narrowing)
    return f"{MARKER_PREFIX}{what}.{status} To retrieve: {hint}]"


def budget_followed(followed) -> str:
    """Which budget applied, and why (context.Followed): said in the closing marker."""
    return (f"Budget {n(followed.budget)} of {n(followed.base)} tokens: the context is "
            f"{followed.percent}% full")


def partial_copy(lost) -> str:
    """What a partial stored copy (store.Lost) cannot give back: said in the marker and by
    `headroom show`."""
    return (f"the stored copy is partial (the store's size cap): bytes "
            f"{n(lost.first_byte)}–{n(lost.last_byte)} of {n(lost.total_bytes)} "
            f"({_line_range(lost.first_line, lost.last_line)}) were not kept")


def retrieval_hint(plan: Plan, gaps: list[Gap], text: str, context: Context) -> str:
    single = gaps[0] if len(gaps) == 1 else None
    if plan.binary and single:
        first, last, _ = _byte_span(text, single, context)
        if context.store_id:
            return f"{context.program} show {context.store_id} --bytes {first}:{last}"
        return f"re-run piped through tail -c +{first} | head -c {last - first + 1}"
    if context.store_id:
        if single and _inside_one_line(text, single):  # a giant line: its bytes, not all of it
            first, last, _ = _byte_span(text, single, context)
            return f"{context.program} show {context.store_id} --bytes {first}:{last}"
        if plan.kind == "search":
            return f"{context.program} show {context.store_id} --grep PATTERN (a path or a narrower pattern)"
        where = (f"--lines {single.first_line}:{single.last_line}" if single
                 else "--lines A:B with a gap's range")
        return f"{context.program} show {context.store_id} {where} (or --grep PATTERN)"
    hint = context.tool.hint
    if plan.kind == "search" or hint == "search":
        return "narrow the pattern, search a subdirectory, or use fewer context lines"
    if hint == "read":
        if single:
            count = single.last_line - single.first_line + 1
            return f"Read with offset={single.first_line} limit={count}"
        return "Read with offset and limit set to a gap's range"
    if hint == "fetch":
        return "fetch again asking for the section you need"
    if single and _inside_one_line(text, single):
        first, last = _line_byte_span(text, single, context)
        return f"re-run piped through sed -n '{single.first_line}p' | cut -b {first}-{last}"
    if single:
        return (f"re-run piped through sed -n '{single.first_line},{single.last_line}p' "
                "(or head, tail, grep)")
    return "re-run piped through sed -n 'A,Bp' with a gap's range (or grep)"


def _inside_one_line(text: str, gap: Gap) -> bool:
    return gap.first_line == gap.last_line and (
        gap.start > 0 and text[gap.start - 1] != "\n"
        or gap.end < len(text) and text[gap.end - 1] != "\n")


def _char_span(text: str, gap: Gap) -> tuple[int, int, int]:
    """1-based first and last character of a gap inside its line, and the line's length."""
    line_start = text.rfind("\n", 0, gap.start) + 1
    line_end = text.find("\n", gap.end)
    line_end = len(text) if line_end == -1 else line_end
    hidden = gap.hidden_chars
    return gap.start - line_start + 1, gap.end - line_start + hidden, line_end - line_start + hidden


def _line_byte_span(text: str, gap: Gap, context: Context) -> tuple[int, int]:
    """1-based first and last byte of a gap inside its line (`cut -b` counts bytes)."""
    line_start = text.rfind("\n", 0, gap.start) + 1
    if context.bytes is not None:
        start = context.bytes.after(line_start)
        return context.bytes.after(gap.start) - start + 1, context.bytes.at(gap.end) - start
    first = len(text[line_start:gap.start].encode("utf-8", "surrogateescape")) + 1
    size = len(text[gap.start:gap.end].encode("utf-8", "surrogateescape")) + gap.hidden_bytes
    return first, first + size - 1


def _partly_shown(text: str, gap: Gap) -> str:
    if gap.hidden_chars:  # a streamed output: how long the cut lines are is not known here
        notes = []
        if gap.start > 0 and text[gap.start - 1] != "\n":
            notes.append(f"line {n(gap.first_line)} is cut: its start is shown")
        if gap.end < len(text) and text[gap.end - 1] != "\n":
            notes.append(f"line {n(gap.last_line)} is cut: its end is shown")
        return f" ({'; '.join(notes)})" if notes else ""
    cuts = _cut_lines(text, gap)
    return f" ({cuts})" if cuts else ""


def _byte_span(text: str, gap: Gap, context: Context) -> tuple[int, int, int]:
    """1-based first and last byte of a gap, and the total byte size: of the raw output when
    the context maps the text to it (what the stored copy holds)."""
    if context.bytes is not None:
        return (context.bytes.after(gap.start) + 1, context.bytes.at(gap.end),
                context.bytes.total)

    def size(s: str) -> int:
        return len(s.encode("utf-8", "surrogateescape"))

    first = size(text[:gap.start]) + 1
    last = first + size(text[gap.start:gap.end]) + gap.hidden_bytes - 1
    return first, last, last + size(text[gap.end:])


def dropped_tokens(text: str, plan: Plan, counter: Counter) -> int:
    """Tokens of everything no Keep covers, the text a streamed output never held included."""
    spans = plan.dropped_spans(len(text))
    return count_spans(counter, text, spans) + plan.hidden_tokens


def terse_markers(lines: int, context: Context, everything: bool = True) -> list[str]:
    """Ever shorter markers for budgets too small for the full one; a failure and the stored
    copy are the last things to go. `everything`: no line was shown (--live shows a head)."""
    status = f", exit status {context.exit_status}" if context.exit_status else ""
    where = f"; {context.program} show {context.store_id}" if context.store_id else ""
    what = f"{'all' if everything else 'the other'} {n(lines)} lines omitted"
    return [f"{MARKER_PREFIX}{what}{status}{where}]\n",
            f"{MARKER_PREFIX}{what}{status}]\n",
            f"{MARKER_PREFIX}{n(lines)} lines omitted]\n"]


def summary_marker(tool_name: str, tokens: int, store_id: str | None,
                   program: str = "headroom") -> str:
    """Closes a tool result the model replaced by its own summary (history.apply_trims)."""
    where = (f"To retrieve: {program} show {store_id}" if store_id
             else "To retrieve: run the tool again")
    source = f"this {tool_name} result" if tool_name else "this tool result"
    return (f"{MARKER_PREFIX}{source} was replaced by the model's summary above "
            f"(~{n(tokens)} tokens of the original omitted). {where}]")
