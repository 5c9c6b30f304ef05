"""An MCP server built with the `mcp` SDK (FastMCP), for the proxy's conformance test
(tests/test_mcp_proxy.py): one tool per case the proxy must get right.

    export_issues  a 320 KB JSON export (over any budget): clipped
    small          a short text: byte for byte
    structured     a result with structuredContent (the tool has an outputSchema)
    image          an image block: byte for byte
    mixed          a large text between two images: the text clipped, the images kept
    fails          raises: an isError result
    chatty         logs, reports progress, asks the client to sample, to elicit and for its
                   roots, and answers with what the client said
    announce       tells the client its tool list changed, outside any request (over
                   streamable HTTP: on the GET stream)
    roots, ask     ask the client for its roots, and to elicit an answer, and say what it
                   answered (for an agent CLI, which offers no sampling: chatty fails there)
    a resource and a prompt, and resources/read of an unknown URI (a JSON-RPC error)

    python mcp_sdk_server.py              # stdio
    python mcp_sdk_server.py http PORT    # streamable HTTP at http://127.0.0.1:PORT/mcp
"""

from __future__ import annotations

import base64
import json
import sys

from mcp.server.fastmcp import Context, FastMCP
from mcp.types import ImageContent, SamplingMessage, TextContent
from pydantic import BaseModel

server = FastMCP("headroom-conformance")
PIXEL = base64.b64encode(bytes(range(256)) * 4).decode()  # stands for a PNG: bytes only


def export() -> str:
    issues = [{"id": number, "key": f"PROJ-{number}", "status": ("Open", "Done")[number % 2],
               "summary": f"Parser fails on input {number} with a nested list",
               "assignee": f"user{number % 11}@example.com",
               "comments": [f"comment {index} on issue {number}: reproduced on main"
                            for index in range(3)]}
              for number in range(1, 1001)]
    return json.dumps({"total": len(issues), "issues": issues}, indent=1)


@server.tool()
def export_issues() -> str:
    """Every issue of the project, as JSON."""
    return export()


@server.tool()
def small() -> str:
    """A short answer."""
    return "ok: 3 issues, all closed \u2713"


class Weather(BaseModel):
    city: str
    readings: list[float]


@server.tool()
def structured(count: int = 10) -> Weather:
    """Readings with an output schema."""
    return Weather(city="Lisbon", readings=[float(index) / 4 for index in range(count)])


@server.tool()
def image() -> ImageContent:
    """A picture."""
    return ImageContent(type="image", data=PIXEL, mimeType="image/png")


@server.tool()
def mixed() -> list:
    """A picture, a large text, a picture."""
    picture = ImageContent(type="image", data=PIXEL, mimeType="image/png")
    return [picture, TextContent(type="text", text=export()), picture]


@server.tool()
def fails() -> str:
    """Always fails."""
    raise ValueError("the tracker is down")


class Answer(BaseModel):
    confirm: bool


@server.tool()
async def chatty(ctx: Context) -> str:
    """Talks to the client before it answers."""
    await ctx.info("starting")
    await ctx.report_progress(1, 2, "half way")
    sampled = await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text="hi?"))],
        max_tokens=10)
    elicited = await ctx.elicit("Proceed?", Answer)
    roots = await ctx.session.list_roots()
    await ctx.report_progress(2, 2, "done")
    return json.dumps({"sampled": sampled.content.text, "elicited": elicited.action,
                       "confirm": getattr(elicited.data, "confirm", None),
                       "roots": [str(root.uri) for root in roots.roots]})


@server.tool()
async def announce(ctx: Context) -> str:
    """Says the tool list changed."""
    await ctx.session.send_tool_list_changed()
    return "announced"


@server.tool()
async def roots(ctx: Context) -> str:
    """The client's roots."""
    found = await ctx.session.list_roots()
    return " ".join(str(root.uri) for root in found.roots)


@server.tool()
async def ask(ctx: Context) -> str:
    """Asks the user to confirm."""
    elicited = await ctx.elicit("Proceed?", Answer)
    return f"elicited: {elicited.action}"


@server.resource("res://readme")
def readme() -> str:
    """A resource."""
    return "read me"


@server.prompt()
def review(path: str) -> str:
    """A prompt."""
    return f"Review {path}"


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        server.settings.host, server.settings.port = "127.0.0.1", int(sys.argv[2])
        server.run("streamable-http")
    else:
        server.run("stdio")
