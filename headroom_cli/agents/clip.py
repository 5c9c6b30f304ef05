"""The one clipping step every agent integration shares: bytes in, bytes out, never an error.

An agent's hook must never lose or break a tool's output. So clip() keeps the output as it is
when it fits, and otherwise clips it through the same run as the command line (run.py: stored,
so the marker's `headroom show ID` works; recorded in the ledger; with a digest when one is
configured). On any error — a broken config file included — it returns the input untouched,
with one line on stderr.
"""

from __future__ import annotations

import os
import sys

from ..defaults import DEFAULT_HOOK_BUDGET
from ..sink import warn

__all__ = ["DEFAULT_HOOK_BUDGET", "clip", "clip_file", "clip_text", "each_note_once",
           "in_session", "note"]

_said: set[str] | None = None  # inside `with each_note_once()`: the messages said so far


def note(message: str) -> None:
    """warn(); inside `with each_note_once()`, each message once."""
    if _said is not None:
        if message in _said:
            return
        _said.add(message)
    warn(message)


class each_note_once:
    """`with each_note_once():` a hook that clips the same output again (Qwen Code's tool, under
    its line limit) says a fault once: a hook says at most one line."""

    def __enter__(self) -> None:
        global _said
        _said = set()

    def __exit__(self, *_exc) -> None:
        global _said
        _said = None


def clip(data: bytes, *, tool: str | None = "Bash", budget: int = DEFAULT_HOOK_BUDGET,
         exit_status: int | None = None, max_bytes: int | None = None,
         encoding: str | None = None, store: bool = True, program: str | None = None,
         session: str | None = None, command: str | None = None,
         cwd: str | None = None, context: tuple[int, int | None] | None = None) -> bytes:
    """`data` clipped to `budget` tokens (and to `max_bytes` bytes when given); fails open.
    `encoding` None: the configured one. `program`: how the marker's hint names headroom
    (None: as this process was started, see hook_program). `session`: the agent's session
    (session.py), in which `command` ran in `cwd` (when known); a session sees every output,
    even one that fits. `context`: (tokens, window or None) of the agent's context, when it
    says: `budget` is a default, which follows how full the context is (context.py)."""
    if budget <= 0 and not max_bytes:
        return data
    if not (session and session.strip()) and (budget <= 0 or len(data) <= budget
                                              and context is None) and \
            (not max_bytes or len(data) <= max_bytes):
        return data  # fits by size alone: no tokenizer needed (every token covers a byte)
    try:
        if session:  # session.py loads only for a session
            from ..session import normal_key

            session = normal_key(session)
        return _clip(data, tool, budget, exit_status or None, max_bytes, encoding, store,
                     program or hook_program(), session, command, cwd, context)
    except Exception as err:  # noqa: BLE001 - a hook must never lose the output
        note(f"could not clip ({type(err).__name__}: {err}); passing the output through")
        return data


def clip_text(text: str, **options) -> str:
    """clip() for text that may carry undecodable bytes as lone surrogates."""
    data = text.encode("utf-8", "surrogateescape")
    out = clip(data, **options)
    return text if out is data else out.decode("utf-8", "surrogateescape")


def _clip(data: bytes, tool, budget, exit_status, max_bytes, encoding, store, program,
          session=None, command=None, cwd=None, context=None) -> bytes:
    from ..run import clip_bytes

    settings, options = _settings(tool, budget, exit_status, max_bytes, encoding, store,
                                  program, session, command, cwd, context)
    out = clip_bytes(data, settings, options, note).output()
    return _cut_bytes(out, max_bytes) if max_bytes and len(out) > max_bytes else out


def _settings(tool, budget, exit_status, max_bytes, encoding, store, program, session=None,
              command=None, cwd=None, context=None):
    """(Settings, ClipOptions) of one hook's clip."""
    from ..run import ClipOptions
    from ..settings import Settings

    # A broken config file raises here: none of its settings can be trusted (it may turn the
    # store off), so the output passes through whole.
    settings = Settings.load(os.environ, encoding=encoding, no_store=not store)
    for message in settings.warnings:
        note(message)
    if command and settings.config.commands:  # [commands.FAMILY] budget: over the hook's
        from ..family import family_of

        budget = settings.config.commands.get(family_of(command), budget)
    followed = settings.follow_context(budget, *context) if context and budget > 0 else None
    return settings, ClipOptions(tool=settings.tool(tool),
                                 budget=followed.budget if followed else budget,
                                 exit_status=exit_status, max_bytes=max_bytes, tool_name=tool,
                                 program=program, session=session, command=command, cwd=cwd,
                                 followed=followed)


def clip_file(path: str, *, tool: str | None = None, budget: int = DEFAULT_HOOK_BUDGET,
              exit_status: int | None = None, max_bytes: int | None = None,
              store: bool = True, context: tuple[int, int | None] | None = None,
              **session) -> bytes | None:
    """The file at `path` (an output an agent saved to disk) clipped as clip() clips an
    output, with memory bounded whatever its size: a file up to intake.HOLD is read whole and
    clipped as a held output (sessions included); a larger one streams through the intake
    (head, tail and the shape's picks kept; the whole spilled to the store, so the marker's
    `headroom show ID` prints all of it). None when it cannot be read or clipped: the caller
    then leaves the agent's own text alone."""
    from .. import intake

    try:
        with open(path, "rb") as stream:
            data = stream.read(intake.HOLD + 1)
            if len(data) <= intake.HOLD:
                return clip(data, tool=tool, budget=budget, exit_status=exit_status,
                            max_bytes=max_bytes, store=store, context=context, **session)
            return _clip_stream(data, stream, tool, budget, exit_status, max_bytes, store,
                                context)
    except Exception as err:  # noqa: BLE001 - a hook never fails: the agent's text stays
        note(f"could not clip {path} ({type(err).__name__}: {err}); leaving it as it is")
        return None


def _clip_stream(first: bytes, stream, tool, budget, exit_status, max_bytes, store,
                 context) -> bytes:
    from ..intake import PART
    from ..run import Run

    if max_bytes:  # a streamed clip is planned once: a budget whose tokens fit the byte cap
        budget = min(budget, max_bytes // 5)  # (5 bytes a token: more than text averages)
    settings, options = _settings(tool, budget, exit_status, max_bytes, None, store,
                                  hook_program(), context=context)
    run = Run(settings, options, note)
    taking = run.intake()
    chunk = first
    while chunk:
        taking.feed(chunk)
        chunk = stream.read(PART)
    outcome = run.finish(taking)
    run.record(outcome)
    out = outcome.output()
    return _cut_bytes(out, max_bytes) if max_bytes and len(out) > max_bytes else out


def in_session(session: object, tool: str, args: dict, where: str | None = None) -> dict:
    """The session options of clip() for a tool's call: the agent's session, the call as a
    command line (a shell command as written; another tool as its name and arguments), and
    the directory (`where`, relative to this process's). Nothing without a session."""
    if not isinstance(session, str) or not session.strip():
        return {}
    command = args.get("command") if isinstance(args.get("command"), str) else None
    if command is None or tool not in ("bash", "Bash"):
        words = [f"{key}={value}" for key, value in sorted(args.items())
                 if isinstance(value, (str, int, float)) and not isinstance(value, bool)]
        command = " ".join([tool, *words])
    try:
        cwd = os.path.join(os.getcwd(), where) if where else os.getcwd()
    except OSError:
        cwd = where or None
    return {"session": session, "command": command, "cwd": cwd}


def hook_program(argv0: str | None = None) -> str:
    """How the marker's hint names headroom when a hook runs it: the installed script's
    absolute path the agent started (init writes it into the agent's configuration), so the
    hint runs where the agent runs, whatever its PATH; plain `headroom` otherwise (in-process
    callers, a relative start). Deterministic: the same installation gives the same text."""
    import shlex
    import sys

    script = sys.argv[0] if argv0 is None and sys.argv else (argv0 or "")
    if os.path.isabs(script) and os.path.basename(script) == "headroom":
        return shlex.quote(script)
    if script.endswith(os.path.join("headroom_cli", "__main__.py")):  # python -m headroom_cli
        return f"{shlex.quote(sys.executable)} -m headroom_cli"
    return "headroom"


def _cut_bytes(data: bytes, limit: int) -> bytes:
    """A last resort that is never reached in practice: the first `limit` bytes, whole chars."""
    cut = data[:limit]
    while cut and (cut[-1] & 0xC0) == 0x80:
        cut = cut[:-1]
    if cut and cut[-1] >= 0xC0:
        cut = cut[:-1]
    return cut


def headroom_argv() -> list[str]:
    """How an agent should start this headroom: an absolute path, so a hook finds it even
    with the sanitized PATH some agents give hooks."""
    script = sys.argv[0] if sys.argv else ""
    if script and os.path.basename(script) == "headroom" and os.path.isfile(script):
        return [os.path.abspath(script)]
    import shutil  # only when headroom was not started by its script

    found = shutil.which("headroom")
    if found:
        return [os.path.abspath(found)]
    return [os.path.abspath(sys.executable), "-m", "headroom_cli"]
