"""Claude Code after the fact: a PostToolUse hook that clips MCP tool outputs, Bash outputs
the PreToolUse wrapper did not reach, and (opt-in) Read.

Checked against @anthropic-ai/claude-code 2.1.330 (its bundled code and real runs against a
scripted model, see tests/e2e/test_e2e_claude_code.py):

- MCP tools (matcher `mcp__.*`). The hook gets
      {"hook_event_name": "PostToolUse", "tool_name": "mcp__SERVER__TOOL",
       "mcp_server": {"name": SERVER, …}, "tool_input": {…},
       "tool_response": [{"type": "text", "text": …}, …]}      (the MCP result's content)
  and may answer
      {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                              "updatedMCPToolOutput": [{"type": "text", "text": CLIPPED}]}}
  which the model then gets instead.
- MCP results past Claude Code's own MCP limit (MAX_MCP_OUTPUT_TOKENS, 25,000 tokens: its
  bundle's `hor` counts the result's tokens, asking the API when the estimate is between half
  and 4x the limit). Those are saved to a file *before* the hook runs, and `tool_response` is
  then a string, the notice the bundle's `bGa` writes (2.1.330, quoted):
      `Error: result (${R}) exceeds maximum allowed tokens. Output has been saved to ${e}.
      Format: ${r}` … `You MUST read the content from the file at … in sequential chunks
      until 100% of the content has been read.`
  (R: "2,075,768 characters across 20,001 lines"; e: SESSION_DIR/tool-results/mcp-….txt).
  The hook reads that file (bounded: clip.clip_file), clips it, and answers
  `updatedMCPToolOutput` with the clip instead of the notice. The file stays where it is.
- Bash (matcher `Bash`), only when the command exited 0 (a failure gets PostToolUseFailure,
  which cannot replace the output) and the PreToolUse hook did not wrap it (the event's
  `tool_input.command` is the command as it ran: a wrapper shows). Under 30,000 characters
  `tool_response.stdout` is the whole output; over that Claude Code saved it whole (recorded
  with 2.1.330):
      "tool_response": {"stdout": FIRST_30000_CHARACTERS, "stderr": "", "interrupted": false,
                        "isImage": false, "noOutputExpected": false,
                        "persistedOutputPath": SESSION_DIR/tool-results/ID.txt,
                        "persistedOutputSize": BYTES}
  and the model would get a 2 KB preview of the file. An output over the budget is clipped
  (the saved file when there is one) and answered as `updatedToolOutput` in that shape (a
  plain string is ignored), without the two persisted keys (with them Claude Code shows its
  preview again: mapToolResultToToolResultBlockParam).
- Read (only when `[hooks] read_over` is set: a file just read is usually wanted whole). The
  hook gets `"tool_response": {"type": "text", "file": {"filePath", "content", "numLines",
  "startLine", "totalLines"}}`; `updatedToolOutput` must keep that shape (a plain string is
  ignored), and Claude Code numbers the `content` lines from `startLine` itself. So the hook
  keeps the file's first lines as they are (their numbers stay true) and puts the outline of
  the rest, with the offset/limit to read any part, in `additionalContext`.

Anything else — another shape, an image block, a server the config skips, an output that fits —
gets no answer: the output reaches the model exactly as the tool gave it.
"""

from __future__ import annotations

import os

from ..patterns import lazy
from . import HookOptions
from ..context import claude_fill
from .clip import clip_file, clip_text, in_session
from .shell import VAR_STATUS

EVENT = "PostToolUse"
MCP_MATCHER = "mcp__.*"
READ_MATCHER = "Read"
BASH_MATCHER = "Bash"
# What Claude Code adds to a Bash result it saved whole; the model then gets a 2 KB preview.
_PERSISTED = ("persistedOutputPath", "persistedOutputSize")
# Claude Code persists a tool result over its own limit and shows the model a 2 KB preview;
# a clip stays under the same 28,000 bytes as a Bash clip.
MAX_BYTES = 28_000
# The notice of a result saved past the MCP limit (bGa in 2.1.330's bundle; an optional line
# about Artifact content may come first).
_SAVED = lazy(r"Error: result \([\d,]+ characters(?: across [\d,]+ lines?)?\) exceeds "
              r"maximum allowed tokens\. Output has been saved to (.+?)\.\nFormat: ")
# …and its note when the file holds only the first part (the persist byte limit).
_PARTIAL = "the saved file contains only the first"


class PostSettings:
    """What the config says of PostToolUse. A plain class: importing dataclasses costs ~5 ms
    of the PreToolUse decision, which imports this module too."""
    __slots__ = ("mcp_skip", "read_over")

    def __init__(self, mcp_skip: frozenset[str] = frozenset(), read_over: int = 0) -> None:
        self.mcp_skip = mcp_skip  # MCP servers left whole
        self.read_over = read_over  # tokens; Read results over this are outlined (0: never)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PostSettings) and \
            (self.mcp_skip, self.read_over) == (other.mcp_skip, other.read_over)

    def __repr__(self) -> str:
        return f"PostSettings(mcp_skip={set(self.mcp_skip)!r}, read_over={self.read_over})"


def reply(event: dict, options: HookOptions, settings: PostSettings) -> dict | None:
    """The hook's answer to a PostToolUse event, or None to leave the output as it is."""
    tool = event.get("tool_name")
    if not isinstance(tool, str):
        return None
    if tool.startswith("mcp__"):
        return _mcp(event, tool, options, settings)
    if tool == BASH_MATCHER:
        return _bash(event, options)
    if tool == "Read" and settings.read_over > 0:
        return _read(event, options, settings)
    return None


def _mcp(event: dict, tool: str, options: HookOptions, settings: PostSettings) -> dict | None:
    server = event.get("mcp_server")
    name = server.get("name") if isinstance(server, dict) else None
    if not isinstance(name, str):
        name = tool.split("__")[1] if tool.count("__") >= 2 else ""
    if name in settings.mcp_skip:
        return None
    blocks = event.get("tool_response")
    if isinstance(blocks, str):
        return _saved_mcp(event, tool, blocks, options)
    if not (isinstance(blocks, list) and blocks and all(
            isinstance(block, dict) and block.get("type") == "text"
            and isinstance(block.get("text"), str) for block in blocks)):
        return None  # an image, a resource, an unknown shape: left as the server gave it
    text = "\n".join(block["text"] for block in blocks)
    clipped = clip_text(text, tool=None, **_clip_options(event, tool, options))
    if clipped == text:
        return None
    return {"hookSpecificOutput": {"hookEventName": EVENT,
                                   "updatedMCPToolOutput": [{"type": "text", "text": clipped}]}}


def _clip_options(event: dict, tool: str, options: HookOptions) -> dict:
    """The options of clip()/clip_file() for a tool's output in this event's session."""
    arguments = event.get("tool_input") if isinstance(event.get("tool_input"), dict) else {}
    cwd = event.get("cwd") if isinstance(event.get("cwd"), str) else None
    return {"budget": options.budget, "max_bytes": MAX_BYTES, "store": options.store,
            "context": None if options.budget_given else claude_fill(event),
            **in_session(event.get("session_id"), tool, arguments, cwd)}


def _saved_mcp(event: dict, tool: str, notice: str, options: HookOptions) -> dict | None:
    """The clip of a result Claude Code saved past its MCP limit, in place of its notice."""
    path = saved_path(notice, event)
    if path is None:
        return None
    partial = " (Claude Code saved only its first part)" if _PARTIAL in notice else ""
    head = f"[headroom: the whole result is in {path}{partial}; clipped here to the budget]\n"
    clip_options = _clip_options(event, tool, options)
    # The line's bytes bound its tokens (a token covers at least one): the two stay in budget.
    clip_options["budget"] = max(1, options.budget - len(head.encode()))
    clipped = clip_file(path, tool=None, **clip_options)
    if clipped is None:
        return None
    text = clipped.decode("utf-8", "surrogateescape")
    return {"hookSpecificOutput": {"hookEventName": EVENT,
                                   "updatedMCPToolOutput": [{"type": "text",
                                                             "text": head + text}]}}


def saved_path(notice: str, event: dict) -> str | None:
    """The file a notice of Claude Code's says the result was saved to (see session_file)."""
    found = _SAVED.search(notice)
    return session_file(found.group(1), event) if found else None


def session_file(path: object, event: dict) -> str | None:
    """`path`, when it is a file in this session's own tool-results folder (SESSION_DIR/
    tool-results, SESSION_DIR being the transcript's path without .jsonl), where Claude Code
    saves what it keeps out of the context: a tool's own text that merely looks like its
    notice never makes the hook read another file."""
    transcript, session = event.get("transcript_path"), event.get("session_id")
    if not (isinstance(path, str) and isinstance(transcript, str) and isinstance(session, str)):
        return None
    folder = os.path.join(os.path.dirname(transcript), session, "tool-results")
    try:
        real = os.path.realpath(path)
        if os.path.dirname(real) != os.path.realpath(folder) or not os.path.isfile(real):
            return None
    except (OSError, ValueError):
        return None
    return path


def _bash(event: dict, options: HookOptions) -> dict | None:
    """A successful Bash command the PreToolUse hook did not wrap (one Claude Code asks about,
    auto mode's, one whose syntax the wrapper leaves alone; PostToolUse runs only after exit
    0): its output clipped as the wrapper would have, in Bash's own shape — a plain string is
    ignored (2.1.330). Over 30,000 characters Claude Code saved it whole and would show the
    model a 2 KB preview: the clip is of the saved file. Under that, `stdout` is the whole
    output: the clip is of it. A wrapped command (its output is already clipped), an output
    no budget could clip, anything else: no answer."""
    response = event.get("tool_response")
    if not isinstance(response, dict) or not isinstance(response.get("stdout"), str) \
            or response.get("isImage") or _wrapped(event):
        return None
    path = session_file(response.get("persistedOutputPath"), event)
    if path is not None:
        clipped = clip_file(path, tool=BASH_MATCHER, exit_status=0,
                            **_clip_options(event, BASH_MATCHER, options))
        if clipped is None:
            return None
        stdout = clipped.decode("utf-8", "surrogateescape")
    elif response.get("persistedOutputPath") is None \
            and len(response["stdout"].encode()) > _least_budget(options):
        stdout = clip_text(response["stdout"], tool=BASH_MATCHER, exit_status=0,
                           **_clip_options(event, BASH_MATCHER, options))
        if stdout == response["stdout"]:
            return None
    else:
        return None
    output = {key: value for key, value in response.items() if key not in _PERSISTED}
    output["stdout"] = stdout
    return {"hookSpecificOutput": {"hookEventName": EVENT, "updatedToolOutput": output}}


def _wrapped(event: dict) -> bool:
    """Did the PreToolUse hook wrap this command? (The event carries the command as run.)"""
    arguments = event.get("tool_input")
    command = arguments.get("command") if isinstance(arguments, dict) else None
    return isinstance(command, str) and f"{VAR_STATUS}=$?" in command


def _least_budget(options: HookOptions) -> int:
    """The fewest tokens the budget can be: the default one follows the context down to the
    curve's smallest share. An output of no more bytes fits it (a token covers at least a
    byte), so the hook answers it at once — no session, no tokenizer."""
    if options.budget_given:
        return options.budget
    from ..defaults import DEFAULTS

    return int(options.budget * min(share for _, share in DEFAULTS["context.curve"]))


def _read(event: dict, options: HookOptions, settings: PostSettings) -> dict | None:
    response = event.get("tool_response")
    file = response.get("file") if isinstance(response, dict) else None
    if not (isinstance(response, dict) and response.get("type") == "text"
            and isinstance(file, dict) and isinstance(file.get("content"), str)
            and isinstance(file.get("startLine", 1), int)):
        return None
    content = file["content"]
    if len(content) <= settings.read_over:
        return None  # fits by size alone (every token covers at least a byte)
    clipped = clip_text(content, tool="Read", budget=settings.read_over, max_bytes=MAX_BYTES,
                        store=options.store)
    lines, kept = content.split("\n"), clipped.split("\n")
    keep = _head_lines(lines, kept)
    if clipped == content or keep == 0:
        return None
    start = file.get("startLine", 1)
    note = (f"headroom: this Read returned only lines {start}–{start + keep - 1} of "
            f"{file.get('filePath', 'the file')} (the rest would not fit the budget); read "
            f"any other part with offset/limit. The rest, outlined (its line numbers count "
            f"from line {start}):\n" + "\n".join(kept[keep:]))
    return {"hookSpecificOutput": {
        "hookEventName": EVENT,
        "updatedToolOutput": dict(response, file=dict(file, content="\n".join(lines[:keep]),
                                                      numLines=keep)),
        "additionalContext": note}}


def _head_lines(lines: list[str], kept: list[str]) -> int:
    """How many of the first lines the clip kept verbatim (the last of its lines is not
    counted when the clip ends there: it may be cut)."""
    count = 0
    while count < min(len(lines), len(kept) - 1) and kept[count] == lines[count]:
        count += 1
    return count


def matcher() -> str:
    """The tools the PostToolUse hook is on: MCP tools, Bash (outputs Claude Code saved whole,
    clipped after the fact), and Read when `read_over` is set."""
    tools = f"{MCP_MATCHER}|{BASH_MATCHER}"
    return tools + "|" + READ_MATCHER if settings_from_config().read_over else tools


def settings_from_config() -> PostSettings:
    """The [hooks] settings (config file, HEADROOM_MCP_SKIP / HEADROOM_READ_OVER); the
    defaults when the file cannot be read — a hook never fails for want of its config."""
    try:
        from ..config import resolve
        from ..settings import read_config

        config = read_config(os.environ)
        skip, _ = resolve("hooks.mcp_skip", config, os.environ)
        over, _ = resolve("hooks.read_over", config, os.environ)
        if isinstance(skip, str):
            skip = [name.strip() for name in skip.split(",") if name.strip()]
        return PostSettings(frozenset(skip), max(0, int(over)))
    except Exception:  # noqa: BLE001 - a broken config leaves outputs whole, never breaks
        return PostSettings()
