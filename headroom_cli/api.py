"""compress(): the whole filter as one pure function, for the CLI and for Python harnesses.

    clean (ANSI, CR redraws) → sniff (which shape) → plan (per shape) → fit (exact token check)
    → render (text + marker)

Reading the input and writing the output, the store and the ledger belong to the caller.
"""

from __future__ import annotations

from functools import cached_property, lru_cache, partial

from . import tools
from .clean import binary as is_binary
from .clean import clean, fields
from .config import DEFAULTS
from .large_counts import count_large, count_spans
from .tokens import DEFAULT_ENCODING, Counter, LazyCounter, load_counter
from .values import field, value

DEFAULT_BUDGET = DEFAULTS["budget"]  # the one default (config.py)


@value
class Result:
    text: str
    kind: str  # the shape planned (one of sniff.KINDS); "passthrough" when nothing was cut
    clipped: bool
    omitted: tuple[tuple[int, int], ...]  # 1-based inclusive line ranges left out
    encoding: str
    source: str = field(repr=False, default="")
    counter: Counter | None = field(repr=False, compare=False, default=None)
    # Character spans of `source` that the output leaves out (what no kept part covers).
    dropped: tuple[tuple[int, int], ...] = field(repr=False, default=())
    # A streamed output's source is its excerpt: its size is estimated from the whole.
    whole_tokens: int | None = field(repr=False, default=None)

    @property
    def dropped_chars(self) -> int:
        return sum(end - start for start, end in self.dropped)

    # Counted on demand: output that fits passes through without loading a tokenizer.
    @cached_property
    def input_tokens(self) -> int:
        """Exact up to 200,000 characters of input, estimated beyond (large_counts)."""
        if self.whole_tokens is not None:
            return self.whole_tokens
        return count_large(self.counter, [self.source])

    @cached_property
    def output_tokens(self) -> int:
        return count_large(self.counter, [self.text]) if self.clipped else self.input_tokens


def compress(text: str, *, tool: str | tools.Tool | None = "Bash", budget: int = DEFAULT_BUDGET,
             kind: str = "auto", encoding: str = DEFAULT_ENCODING,
             counter: Counter | None = None, store_id: str | None = None,
             exit_status: int | None = None, digest: str | None = None,
             lost=None, program: str = "headroom", focus: frozenset[int] = frozenset(),
             followed=None) -> Result:
    """Clip `text` to at most `budget` tokens, keeping what a person debugging would look for.

    Text that fits comes back unchanged. Undecodable bytes may travel in `text` as lone
    surrogates (decode with errors="surrogateescape"); whatever is kept is kept exactly.
    A budget of 0 means no clipping. `digest`, a model-written summary of the omitted part
    (see digest.py), goes into the closing marker, labelled as such, when it fits. `lost`
    (store.Lost) says what the stored copy `store_id` could not keep. `focus`: a log's error
    lines (0-based) to keep before any other (the new failures of a re-run, session.py).
    `followed` (context.Followed): `budget` is what a default budget became as the agent's
    context filled; a closing marker says so when it shrank.
    """
    counter = counter or counter_for(encoding)
    if budget <= 0 or _fits_by_size(text, budget):
        return Result(text, "passthrough", False, (), counter.name, text, counter)
    if counter.prefix_chars(text, budget) >= len(text):
        return Result(text, "passthrough", False, (), counter.name, text, counter)
    row = tool if isinstance(tool, tools.Tool) else tools.lookup(tool)
    return clip(text, row, budget, kind, counter, store_id, exit_status, digest, lost, program,
                focus, followed)


def _planned_on(planner, read: str, _printed: str, lines, budget, counter, tool):
    """The plan of `read` (clean.fields: the same length and lines as the printed text)."""
    return planner(read, lines, budget, counter, tool)


def _fits_by_size(text: str, budget: int) -> bool:
    # Every cl100k/o200k token covers at least one byte (and `estimate` is chars/4), so
    # output of at most `budget` bytes fits without loading a tokenizer at all.
    return len(text) <= budget and len(text.encode("utf-8", "surrogateescape")) <= budget


def clip(text: str, tool: tools.Tool, budget: int, kind: str, counter: Counter,
         store_id: str | None = None, exit_status: int | None = None,
         digest: str | None = None, lost=None, program: str = "headroom",
         focus: frozenset[int] = frozenset(), followed=None) -> Result:
    from .clean import ByteMap
    from .fit import fit
    from .plan import Lines
    from .render import Context
    from .sniff import planner, sniff

    binary = is_binary(text)
    cleaned = text if binary else clean(text)
    read = fields(cleaned)  # what the shape is told from and planned on: NULs as `:`
    lines = Lines(read)
    shape = "other" if binary else (sniff(lines, tool) if kind == "auto" else kind)
    plans = planner(shape, lines)
    if focus and shape == "log":
        plans = partial(plans, focus=focus)
    if read is not cleaned:
        plans = partial(_planned_on, plans, read)
    plan, out = fit(cleaned, lines, plans, budget, counter,
                    Context(tool, store_id, exit_status, digest, lost,
                            ByteMap.of_cleaning(text, cleaned), program, followed),
                    binary=binary)
    return Result(out, plan.kind, True, plan.omitted_ranges(lines), counter.name, cleaned,
                  counter, plan.dropped_spans(len(cleaned)))


def compress_streamed(excerpt, *, kind: str, planner=None, tool: str | tools.Tool | None = "Bash",
                      budget: int = DEFAULT_BUDGET, counter: Counter, store_id: str | None = None,
                      exit_status: int | None = None, digest: str | None = None,
                      lost=None, program: str = "headroom") -> Result:
    """compress() for an output too large to hold: plan its excerpt (head, tail and what the
    shape's scanner picked; see intake.py), then render the plan of the whole output."""
    from .excerpt import omitted_ranges, translate
    from .fit import fit
    from .plan import Lines
    from .render import Context
    from .sniff import planner as planner_of
    from .sniff import sniff

    row = tool if isinstance(tool, tools.Tool) else tools.lookup(tool)
    text = excerpt.text
    lines = Lines(text)
    if kind == "auto":
        kind = "other" if excerpt.binary else sniff(lines, row)
    sample = count_spans(counter, text, [(0, len(text))], tabulate=True)  # for the marker too
    per_char = sample / max(1, len(text))
    if planner is None and kind == "other":  # the middle was never read: no templates
        from .planners.other import head_and_tail as planner
    plan, out = fit(text, lines, planner or planner_of(kind), budget, counter,
                    Context(row, store_id, exit_status, digest, lost, excerpt.byte_map,
                            program),
                    binary=excerpt.binary,
                    translate=partial(translate, excerpt=excerpt, tokens_per_char=per_char))
    whole = sample + round(excerpt.hidden_chars * per_char)
    return Result(out, plan.kind, True, omitted_ranges(plan, excerpt), counter.name, text,
                  counter, plan.dropped_spans(len(text)), whole_tokens=whole)


def omitted_text(result: Result, limit: int = 24_000) -> str:
    """The text a clip left out, at most `limit` characters: when there is more, evenly
    sized samples of its head, middle and tail, joined by a line `[…]`. Pure; for the digest."""
    pieces = [result.source[start:end] for start, end in result.dropped]
    text = "\n[…]\n".join(piece.strip("\n") for piece in pieces if piece.strip())
    if len(text) <= limit:
        return text
    third = max(1, (limit - 12) // 3)
    middle = (len(text) - third) // 2
    return "\n[…]\n".join((text[:third], text[middle:middle + third], text[-third:]))


def counter_for(encoding: str = DEFAULT_ENCODING) -> Counter:
    """The token counter compress() uses for `encoding`: loaded on first use, then shared."""
    return LazyCounter(encoding, lambda: _load(encoding))


@lru_cache(maxsize=None)
def _load(encoding: str) -> Counter:
    return load_counter(encoding)
