"""One run of the filter, orchestrated: intake → clip → store → digest → ledger.

The command line (cli/) and every agent hook (agents/clip.py) clip through here, with typed
options (ClipOptions: the tool already resolved to its row of tools.TOOLS at the edge) and the
run's Settings (settings.py). This module reads no argv or environment and writes nothing to
stdout: input arrives through a `feed` callback, output leaves as an Outcome for the caller's
sink, and every warning goes through the `warn` callback (one line each). The pure pipeline is
api.py; the store is store.py; the ledger is ledger.py.

With a session (ClipOptions.session: the agent's session id, `--session` or $HEADROOM_SESSION)
a held output is first looked at against the session's state (session.py): an output the
session was already given becomes one line naming the earlier call, and a re-run's log opens
with what changed since the previous run of its command, the clip keeping the new failures
first. Without one, output is a pure function of input and options.

Whatever the store, the ledger, the digest, the tokenizer or the session state do, a run never
fails for them: a store that cannot be written costs the marker its `headroom show` hint, a
ledger that cannot be written costs its row, a digest that fails costs the digest, a tokenizer
that cannot be loaded is replaced by the estimate, and session state that cannot be read or
written costs the session's memory — each with one warning.
"""

from __future__ import annotations

import sys
from typing import Callable

from .clean import binary
from .settings import Settings
from .tools import Tool
from .values import replace, value

Warn = Callable[[str], None]


@value
class ClipOptions:
    tool: Tool  # resolved once at the edge: Settings.tool(name)
    budget: int
    kind: str = "auto"  # or one of sniff.KINDS
    exit_status: int | None = None  # the wrapped command's, for the marker
    max_bytes: int | None = None  # also keep the output under this many bytes (agent hooks)
    tool_name: str | None = None  # as given, for --format json
    # How the marker's retrieval hint names headroom: the path an agent's hook was installed
    # with, so the hint runs where the agent runs.
    program: str = "headroom"
    session: str | None = None  # the session's key (session.normal_key); None: no session
    command: str | None = None  # the command's text, when known: its family, its re-runs
    cwd: str | None = None  # the directory it ran in
    # context.Followed: `budget` is what the default budget became as the agent's context
    # filled (the marker says so when it shrank, the ledger records the fill); None: unknown.
    followed: object | None = None


@value
class Turn:
    """A call of a session: its key, what its output is, and what the state decided."""
    key: str
    seen: object  # session.Observed
    decision: object  # session.Decision


@value
class Outcome:
    result: object  # api.Result
    store_id: str | None  # the stored copy the marker names (None: nothing stored)
    data: bytes | None = None  # the input itself, when it is printed unchanged
    opening: str = ""  # a line the output opens with: what changed since the previous run
    turn: Turn | None = None  # the session's call (None: no session)
    kept: str | None = None  # the stored copy a session keeps for an identical output

    def output(self) -> bytes:
        """What the text format prints: the clipped text, or the input's own bytes (after the
        opening line, when there is one)."""
        if self.result.clipped or self.data is None:
            body = self.result.text.encode("utf-8", "surrogateescape")
        else:
            body = self.data
        return self.opening.encode("utf-8", "surrogateescape") + body if self.opening else body

    def text(self) -> str:
        return decode(self.output())


class Run:
    """One run: its settings, options and warn callback, and the store and counter they imply
    (made once, when first needed)."""

    def __init__(self, settings: Settings, options: ClipOptions, warn: Warn) -> None:
        self.settings = settings
        self.options = options
        self.warn = warn
        self._counter = None
        self._store = None
        self._store_made = False
        # The session's state lives in the store: when it could not be kept, a failure of the
        # store later in the run is most likely the same fault, and a hook says at most one
        # line on stderr.
        self._store_fault_said = False

    # --- what a run needs, made once --------------------------------------------------------

    @property
    def counter(self):
        if self._counter is None:
            from .tokens import LazyCounter

            encoding = self.settings.encoding
            self._counter = LazyCounter(encoding, lambda: self._load_counter(encoding))
        return self._counter

    def _load_counter(self, encoding: str):
        from .tokens import EstimateCounter, load_counter

        cache_dir, tiktoken_cache_dir = self.settings.tokenizer_caches()
        try:
            return load_counter(encoding, cache_dir=cache_dir,
                                tiktoken_cache_dir=tiktoken_cache_dir)
        except Exception as err:  # noqa: BLE001 - a damaged tokenizer cache too: never fail
            self.warn(f"cannot load the {encoding} tokenizer ({err}); counting tokens as "
                      "characters/4 instead (--encoding estimate)")
            return EstimateCounter()

    @property
    def store(self):
        """The store (store.Store), or None when it is off."""
        if not self._store_made:
            self._store_made = True
            if self.settings.store_dir is not None:
                from .store import Store

                self._store = Store(self.settings.store_dir)
        return self._store

    # --- taking the input in --------------------------------------------------------------

    def intake(self, live: Callable[[bytes], None] | None = None, store: bool = True):
        """An intake.Intake for this run: holds up to intake.HOLD, then spills to the store
        and keeps the head, the tail and the shape's scanner picks. `live` gets the first
        lines as they arrive (--live)."""
        from . import intake as stage  # HOLD read at call time: tests shrink it
        from .sniff import scanner

        options, keep = self.options, self.store if store else None

        def make_spill():
            try:
                return keep.spill(self.settings.retention())
            except OSError as err:
                self._store_failed(err)
                return None

        # No clipping in a wrapped format (json, markdown) needs the whole text: held, whatever
        # its size (--budget 0 in text format streams straight through before this).
        hold = stage.HOLD if options.budget else sys.maxsize
        return stage.Intake(keep=stage.keep_for(options.budget), hold=hold,
                            start=lambda sample: scanner(sample, options.tool, options.kind,
                                                         stage.pick_limit_for(options.budget)),
                            make_spill=make_spill if keep is not None else None,
                            live=live, live_limit=int(options.budget * options.tool.head_share))

    def finish(self, intake) -> Outcome:
        """The outcome of what `intake` took in: held whole, or streamed (or after --live)."""
        from .intake import Held

        taken = intake.finish()
        if isinstance(taken, Held) and not taken.live_bytes:
            return self.clip_held(taken.data)
        return self._clip_streamed(taken, intake)

    # --- clipping -------------------------------------------------------------------------

    def clip_held(self, data: bytes) -> Outcome:
        """`data` clipped to the budget (and to max_bytes), stored when the marker names it,
        with a digest when one is configured; with a session, as the session's state says."""
        turn = self._turn(data)
        if turn is not None and turn.decision.identical is not None:
            return self._identical(data, turn)
        outcome = self._clip_to_caps(data, turn)
        return self._kept_for_session(outcome, data) if turn is not None else outcome

    def _clip_to_caps(self, data: bytes, turn: Turn | None) -> Outcome:
        options = self.options
        if options.max_bytes is None:
            return self._clip_and_store(data, options.budget, turn)
        # The byte cap on top of the token budget: with no token budget, start from one that is
        # sure to reach the cap (a token covers at least one byte), then shrink.
        budget = options.budget if options.budget > 0 else options.max_bytes
        for _ in range(8):
            outcome = self._clip_and_store(data, budget, turn)
            out = outcome.output()
            if len(out) <= options.max_bytes:
                return outcome
            # Shrink in proportion, with a margin: tokens of this text run longer than usual.
            budget = max(1, min(budget - 1, int(budget * options.max_bytes / len(out) * 0.9)))
        return outcome  # the caller cuts to the cap as a last resort (never reached in practice)

    # --- the session ----------------------------------------------------------------------

    def _turn(self, data: bytes) -> Turn | None:
        """This call of the session (None: no session, or its state cannot be used)."""
        options, settings = self.options, self.settings
        if options.session is None or (settings.dedup_over is None and not settings.since):
            return None  # no session, or its memory turned off ([session] in the config)
        if settings.store_dir is None:
            self.warn("a session keeps its state with the store, which is off; running "
                      "without session memory")
            return None
        from . import session

        seen = session.observe(data, decode(data), tool=options.tool, kind=options.kind,
                               command=options.command, cwd=options.cwd,
                               dedup_over=settings.dedup_over, since=settings.since,
                               counter=self.counter)
        has = self.store.has
        try:
            decision, warning = session.Sessions(settings.store_dir).update(
                options.session, lambda state: session.decide(state, seen, settings.since, has))
        except session.SessionError as err:
            self.warn(f"{err}; running without session memory")
            self._store_fault_said = True
            return None
        if warning:
            self.warn(warning)
        return Turn(options.session, seen, decision)

    def _identical(self, data: bytes, turn: Turn) -> Outcome:
        """The one line that replaces an output the session was already given."""
        from .api import Result
        from .session import identical_line

        options, earlier = self.options, turn.decision.identical
        status = options.exit_status if options.exit_status is not None else (
            0 if options.command and options.tool.name == "Bash" else None)  # it succeeded
        line = identical_line(earlier, earlier.store_id == turn.seen.content_id, status,
                              options.program) + "\n"
        text = decode(data)
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        result = Result(line, "identical", True, ((1, lines),) if lines else (),
                        self.counter.name, text, self.counter)
        return Outcome(result, earlier.store_id, data, turn=turn)

    def _opening(self, turn: Turn | None, budget: int) -> tuple[str, frozenset[int]]:
        """The line a re-run's log opens with, and the error lines of its new failures (the
        clip keeps them first); ("", ∅) when there is none or the budget has no room."""
        previous = turn.decision.previous if turn is not None else None
        if previous is None:
            return "", frozenset()
        from .planners.log.failures import focus
        from .session import new_failures, since_line

        reading = turn.seen.reading
        line = since_line(previous, reading)
        if line is None or 2 * self.counter.count(line + "\n") > budget:
            return "", frozenset()
        return line + "\n", focus(reading, new_failures(previous, reading))

    def _kept_for_session(self, outcome: Outcome, data: bytes) -> Outcome:
        """An output the session may see again is kept in the store (once), so that the
        identical reply's `headroom show ID` prints it."""
        seen = outcome.turn.seen
        if seen.identity is None or outcome.store_id == seen.content_id or self.store is None:
            return outcome
        import time

        try:
            self.store.put(seen.content_id, data, self.settings.retention(), time.time())
        except OSError as err:
            self.warn(f"cannot keep this output in {self.store.root} for the session "
                      f"({err.strerror or err}); an identical one will be printed whole")
            return outcome
        return replace(outcome, kept=seen.content_id)

    def _compress(self, text: str, budget: int, **extra):
        from .api import compress

        options = self.options
        extra.setdefault("kind", options.kind)
        return compress(text, tool=options.tool, budget=budget, counter=self.counter,
                        exit_status=options.exit_status, program=options.program,
                        followed=options.followed, **extra)

    def _clip_and_store(self, data: bytes, budget: int, turn: Turn | None = None) -> Outcome:
        text = decode(data)
        opening, focus = self._opening(turn, budget)
        body = budget - (self.counter.count(opening) if opening else 0)
        extra = {"focus": focus, "kind": "log"} if opening else {}
        for _ in range(4):
            def clip(store_id, lost=None):
                return self._compress(text, body, store_id=store_id, lost=lost, **extra)

            def with_digest(result, store_id, lost):
                return self._with_digest(text, result, body, store_id, lost)

            result, store_id = self._keep_if_named(data, clip, with_digest)
            outcome = Outcome(result, store_id, data, opening, turn)
            # The opening and the body are counted apart: a token may merge across the seam.
            over = self.counter.count(outcome.text()) - budget if opening else 0
            if over <= 0:
                return outcome
            body -= over + 1
        return outcome

    def _keep_if_named(self, data: bytes, clip, refine=lambda result, store_id, lost: result):
        """clip(store_id), keeping `data` in the store when the marker names it; returns the
        result and the stored id (None when nothing was stored).

        The id is a hash of the bytes, so it is known before rendering; the bytes are written
        only when the marker names them (a clip that only dropped colour codes, or whose marker
        was too big for the budget, names no id). A store that cannot be written costs the
        marker its `headroom show` hint, never the output or the exit status. `refine(result,
        store_id, lost)` adds what needs the final id (a digest, cached beside the stored copy).
        """
        store = self.store
        if store is None:
            return refine(clip(None), None, None), None
        import time

        from .store import Layout, content_id

        item_id, retention = content_id(data), self.settings.retention()
        lost = Layout.of(data, retention.entry_limit).lost  # larger than the store lets it be
        result = clip(item_id, lost)
        if not (result.clipped and item_id in result.text):
            return result, None
        result = refine(result, item_id, lost)
        try:
            store.put(item_id, data, retention, time.time())
        except OSError as err:
            self._store_failed(err)
            return refine(clip(None), None, None), None
        return result, item_id

    def _with_digest(self, text: str, result, budget: int, item_id: str | None, lost):
        """The result again, with a model's digest of what it left out in the closing marker.

        Only for a large omission (digest.MIN_DROPPED_CHARS) of text output, and only when a
        summarizer is configured. The clip is planned once with a stand-in of the digest's
        largest size in the marker, and the model is given exactly what that plan omits; its
        digest then takes the stand-in's place, so the digest is of the lines the marker
        names. The stored digest for the same output and omission is used before the model is
        asked, so a re-run prints the same marker. Any failure, or a digest longer than its
        room, leaves the plain marker.
        """
        digest = self.settings.digest
        if digest is None or not result.clipped or binary(text):
            return result
        from . import digest as summarizer

        if result.dropped_chars < summarizer.MIN_DROPPED_CHARS:
            return result
        # The digest is worth some kept output, never most of it.
        room = min(budget // 4, summarizer.MAX_TOKENS)
        stand_in = _stand_in(self.counter, room)
        planned = self._compress(text, budget, digest=stand_in, store_id=item_id, lost=lost)
        # No room for it (or it would cost the marker its stored id): the plain marker.
        if stand_in not in planned.text or (item_id and item_id not in planned.text):
            return result
        written = self._digest_of(omitted_text_of(planned, summarizer.MAX_INPUT_CHARS),
                                  item_id, digest)
        if not written or self.counter.count(written) > room:
            return result
        out = planned.text.replace(stand_in, written, 1)
        if self.counter.count(out) > budget:  # a token merged across the seam: not worth it
            return result
        return replace(planned, text=out)

    def _digest_of(self, omitted: str, item_id: str | None, digest) -> str | None:
        """The digest of `omitted`: the stored one for this output and omission, else the
        model's (then stored beside the output)."""
        import hashlib

        from . import digest as summarizer

        key = hashlib.sha256(omitted.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        store = self.store if item_id else None
        written = store.get_digest(item_id, key) if store is not None else None
        if written is None:
            written = summarizer.summarize(omitted, command=digest.command, url=digest.url,
                                           model=digest.model, timeout=digest.timeout)
            if written and store is not None:
                try:
                    store.put_digest(item_id, written, key)
                except OSError:
                    pass  # printed all the same; a re-run asks the model again
        return written

    def _clip_streamed(self, taken, intake) -> Outcome:
        """An output planned from its excerpt: one too large to hold, or what follows the lines
        --live printed."""
        from .api import compress_streamed
        from .intake import Held

        options, counter, budget = self.options, self.counter, self.options.budget
        if isinstance(taken, Held):
            excerpt, kind, planner, spill = taken.rest(), options.kind, None, None
            data = taken.data[taken.live_bytes:]
        else:
            excerpt, kind, planner, spill = taken.excerpt, taken.kind, taken.planner, intake.spill
            data = None
        if intake.printed:
            # What --live printed counts against the budget; a token may merge across the seam.
            budget = max(0, budget - counter.count("".join(intake.printed)) - 2)
        if data is not None and counter.count(excerpt.text) <= budget:  # the rest fits
            return Outcome(self._unclipped(excerpt.text), None, data)

        def clip(store_id, lost=None):
            return compress_streamed(excerpt, kind=kind, planner=planner, tool=options.tool,
                                     budget=budget, counter=counter, store_id=store_id,
                                     exit_status=options.exit_status, lost=lost,
                                     program=options.program)

        if isinstance(taken, Held):
            return Outcome(*self._keep_if_named(taken.data, clip))
        store_id = spill.id if spill is not None else None
        if spill is not None and spill.failed:  # a full disk while streaming: say so, as held
            self._store_failed(spill.error)
        result = clip(store_id, spill.lost if store_id else None)
        if store_id is None or store_id not in result.text:
            if spill is not None:
                spill.discard()
            return Outcome(result, None)
        import time

        try:
            return Outcome(result, spill.commit(self.settings.retention(), time.time()))
        except OSError as err:
            spill.discard()
            self._store_failed(err)
            return Outcome(clip(None), None)

    def _unclipped(self, text: str):
        from .api import Result

        return Result(text, "passthrough", False, (), self.counter.name, text, self.counter)

    def _store_failed(self, err: OSError) -> None:
        if self._store_fault_said:
            return
        self.warn(f"cannot keep the full output in {self.store.root} ({err.strerror or err}); "
                  "the marker says how to re-run instead (--no-store silences this)")

    # --- the ledger -----------------------------------------------------------------------

    def record(self, outcome: Outcome) -> None:
        """The clip's row in the savings ledger, and its call's (a session's call, or a clip of
        a known command). Output that fits is not recorded outside a session (it saved
        nothing), whether it passed through before or after reading it whole."""
        result, options, turn = outcome.result, self.options, outcome.turn
        # With the ledger off nothing is written: counting the input's tokens (up to 200,000
        # characters) and importing sqlite3 would cost a clip a fifth of its time for nothing.
        if self.settings.ledger is None or not (result.clipped or options.session):
            return
        from .family import family_of
        from .ledger import Call

        family = family_of(options.command)
        followed = options.followed
        output_tokens = result.output_tokens + (self.counter.count(outcome.opening)
                                                if outcome.opening else 0)
        identical = result.kind == "identical"
        call = None
        if options.session or family is not None:
            from .family import command_key

            call = Call(session=options.session,
                        call=turn.decision.call if turn is not None else None,
                        family=family,
                        command=command_key(options.command, options.cwd)
                        if options.command else None,
                        tool=options.tool.name, kind=result.kind, budget=options.budget,
                        input_tokens=result.input_tokens, output_tokens=output_tokens,
                        clipped=result.clipped and not identical, identical=identical,
                        since=bool(outcome.opening), store_id=outcome.store_id or outcome.kept,
                        base_budget=followed.base if followed is not None else None,
                        context_fill=followed.percent if followed is not None else None)
        record_event(self.settings, self.warn, "clip" if result.clipped else None, call=call,
                     tool=options.tool.name, kind=result.kind,
                     input_tokens=result.input_tokens, output_tokens=output_tokens,
                     clipped=True, store_id=outcome.store_id)


def record_event(settings: Settings, warn: Warn, event: str | None, call=None,
                 **figures) -> None:
    """A row in the savings ledger (`event` None: none in `runs`) and the call's row in
    `calls` (ledger.Call, or None); recording never slows or breaks the main job."""
    path = settings.ledger
    if path is None:
        return
    from .ledger import Recorded, Run as Row, queue_path, record

    outcome = record(path, Row(event, **figures) if event else None, call=call)
    # A queued row is not lost (the next run records it): nothing to say.
    if outcome is Recorded.BUSY:
        warn(f"the ledger {path} has been locked by another process for many runs; this one "
             f"was not recorded (see {queue_path(path)})")
    elif outcome is Recorded.FAILED:
        warn(f"cannot record this run in the ledger {path} (HEADROOM_LEDGER=off turns it off)")


def configured_store(settings: Settings | None = None):
    """The store as configured (None when it is off) and its retention caps, for modules that
    keep outputs themselves (history); raises SettingsError for a broken config file."""
    import os

    settings = settings or Settings.load(os.environ)
    if settings.store_dir is None:
        return None, settings.retention()
    from .store import Store

    return Store(settings.store_dir), settings.retention()


def clip_bytes(data: bytes, settings: Settings, options: ClipOptions, warn: Warn) -> Outcome:
    """A whole output, clipped, stored and recorded: the agent hooks' path."""
    run = Run(settings, options, warn)
    outcome = run.clip_held(data)
    run.record(outcome)
    return outcome


def _stand_in(counter, tokens: int) -> str:
    """Text of about `tokens` tokens (never more) that no output contains: the digest's place
    while the clip is planned."""
    words = max(1, tokens)
    while True:
        text = "⟦digest⟧ " + " ".join(["omitted"] * words)
        used = counter.count(text)
        if used <= tokens or words == 1:
            return text
        words = max(1, min(words - 1, words * tokens // used))


def omitted_text_of(result, limit: int) -> str:
    from .api import omitted_text

    return omitted_text(result, limit)


def decode(data: bytes) -> str:
    # Invalid UTF-8 travels as lone surrogates, so every byte that is kept is written back as is.
    return data.decode("utf-8", "surrogateescape")
