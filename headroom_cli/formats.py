"""Output formats for CI summaries and harnesses: the same result, wrapped.

    text      the clipped output itself (the default)
    markdown  a one-line header (kind, tokens in → out, exit status) and the output fenced,
              fit for $GITHUB_STEP_SUMMARY or a merge-request note
    json      {kind, tool, input_tokens, output_tokens, omitted, store_id, exit_status, text}

The budget applies to the output text; the wrapper adds a few tokens of its own.
"""

from __future__ import annotations


def wrap(fmt: str, result, text: str, *, tool: str | None, store_id: str | None,
         exit_status: int | None) -> str:
    """`text` is what the text format prints (the clipped output, or the input unchanged)."""
    if fmt == "markdown":
        return _markdown(result, text, exit_status)
    if fmt == "json":
        return _json(result, text, tool, store_id, exit_status)
    return text


def _markdown(result, text: str, exit_status: int | None) -> str:
    kind = "fits the budget" if not result.clipped else result.kind
    status = "" if exit_status is None else f" · exit status {exit_status}"
    header = (f"**headroom** · {kind} · {result.input_tokens:,} → {result.output_tokens:,} "
              f"tokens{status}")
    fence = "```"
    while fence in text:  # a fence longer than any run of backticks inside
        fence += "`"
    body = text if text.endswith("\n") or not text else text + "\n"
    return f"{header}\n\n{fence}text\n{_printable(body)}{fence}\n"


def _json(result, text: str, tool: str | None, store_id: str | None,
          exit_status: int | None) -> str:
    import json  # only for this format: the pass-through reads FORMATS and nothing else

    record = {
        "kind": result.kind,
        "tool": tool,
        "input_tokens": result.input_tokens,
        "output_tokens": result.output_tokens,
        "omitted": [list(span) for span in result.omitted],
        "store_id": store_id,
        "exit_status": exit_status,
        "text": _printable(text),
    }
    return json.dumps(record, ensure_ascii=False) + "\n"


def _printable(text: str) -> str:
    # Undecodable bytes travel as lone surrogates; JSON and Markdown readers get U+FFFD.
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
