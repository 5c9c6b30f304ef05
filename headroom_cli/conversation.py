"""Conversations as they sit on disk: read one, and write it back with new messages. Pure.

Formats (told apart by their content, not their name):
  json     a JSON array of messages, or an object with a "messages" array (a request body)
  jsonl    one message per line
  claude   a Claude Code session (~/.claude/projects/*/*.jsonl): one record per line, the message
           under "message"; the conversation is the chain of "parentUuid" links that ends at the
           last record
  pi       a pi session (~/.pi/agent/sessions/*/*.jsonl): a {"type": "session"} header, then
           records; {"type": "message"} ones hold the message; the conversation is the chain of
           "parentId" links that ends at the last record

Writing back changes only the records whose message changed; every other line of a JSON Lines
file is kept byte for byte.
"""

from __future__ import annotations

import json

from .values import value


class BadConversation(ValueError):
    """Not a conversation in any format read here; the message says where and why."""


@value
class Conversation:
    form: str  # "json", "jsonl", "claude" or "pi"
    messages: tuple  # the conversation's messages, in order
    # JSON Lines: the raw lines, their records, and which line holds each message.
    lines: tuple = ()
    records: tuple = ()
    where: tuple[int, ...] = ()
    document: object = None  # json: the parsed document


def read(data: bytes) -> Conversation:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BadConversation(f"not UTF-8 text (byte {err.start + 1})") from None
    if not text.strip():
        raise BadConversation("empty input")
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        return _read_lines(text)
    if isinstance(document, list):
        return Conversation("json", tuple(_messages(document, "the array")), document=document)
    if isinstance(document, dict) and isinstance(document.get("messages"), list):
        return Conversation("json", tuple(_messages(document["messages"], "messages")),
                            document=document)
    if isinstance(document, dict):  # a JSON Lines file of one record
        return _read_lines(text)
    raise BadConversation("expected a JSON array of messages or an object with \"messages\"")


def write(conversation: Conversation, messages) -> bytes:
    """The conversation with `messages` in place of its own (same number, same order)."""
    if conversation.form == "json":
        document = conversation.document
        if isinstance(document, dict):
            document = {**document, "messages": list(messages)}
        else:
            document = list(messages)
        return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    lines = list(conversation.lines)
    for index, old, new in zip(conversation.where, conversation.messages, messages):
        if new is old or new == old:
            continue
        record = conversation.records[index]
        record = new if conversation.form == "jsonl" else {**record, "message": new}
        ending = lines[index][len(lines[index].rstrip("\r\n")):]
        lines[index] = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + ending
    return "".join(lines).encode("utf-8")


def _messages(items: list, what: str) -> list:
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict) or "role" not in item:
            raise BadConversation(f"{what}: item {number} is not a message (no \"role\")")
    return items


def _read_lines(text: str) -> Conversation:
    lines = text.splitlines(keepends=True)
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            records.append(None)
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise BadConversation(f"line {number}: not JSON ({err.msg})") from None
        if not isinstance(record, dict):
            raise BadConversation(f"line {number}: not a JSON object")
        records.append(record)
    present = [record for record in records if record is not None]
    if present and present[0].get("type") == "session":
        where = _chain(records, "id", "parentId", lambda r: r.get("type") == "message")
        form = "pi"
    elif any("uuid" in record and isinstance(record.get("message"), dict) for record in present):
        where = _chain(records, "uuid", "parentUuid",
                       lambda r: r.get("type") in ("user", "assistant"))
        form = "claude"
    else:
        where = [index for index, record in enumerate(records) if record is not None]
        _messages([records[index] for index in where], "the lines")
        return Conversation("jsonl", tuple(records[i] for i in where), tuple(lines),
                            tuple(records), tuple(where))
    messages = []
    for index in where:
        message = records[index].get("message")
        if not isinstance(message, dict) or "role" not in message:
            raise BadConversation(f"line {index + 1}: its \"message\" is not a message")
        messages.append(message)
    return Conversation(form, tuple(messages), tuple(lines), tuple(records), tuple(where))


def _chain(records: list, key: str, parent: str, holds_message) -> list[int]:
    """Lines of the records on the chain of parent links that ends at the last linked record,
    oldest first, keeping those that hold a message."""
    index_of = {record[key]: index for index, record in enumerate(records)
                if record is not None and key in record}
    last = max(index_of.values(), default=None)
    chain, seen = [], set()
    while last is not None and last not in seen:
        seen.add(last)
        chain.append(last)
        last = index_of.get(records[last].get(parent))
    return [index for index in reversed(chain) if holds_message(records[index])]
