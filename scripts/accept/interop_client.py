"""Drives minirag-mcp with the Python MCP SDK, a client we did not write.

Usage: python interop_client.py BINARY ROOT MODEL_DIR HOME
Prints one JSON object: what each call answered, for
scripts/accept/interop-clients.test.ts to check. Every call is made the way a
Python user writes it (call_tool(name) with no arguments where none are
needed), so what the SDK sends on the wire is its own choice, not ours.
"""

import json
import os
import sys

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError


def outcome(result):
    """A tool result as plain data: isError, the first text, structured content."""
    text = result.content[0].text if result.content else ""
    return {"isError": bool(result.is_error), "text": text, "structured": result.structured_content}


async def protocol_error(call):
    """The JSON-RPC error a call raises, or the result if it raised none."""
    try:
        return {"result": outcome(await call)}
    except MCPError as error:
        return {"code": error.code, "message": error.message, "str": str(error)}


async def main(binary, root, model, home):
    env = {"BASE_DIR": root, "MODEL_NAME": model, "HOME": home, "PATH": os.environ.get("PATH", "")}
    report = {}
    async with stdio_client(StdioServerParameters(command=binary, args=[], env=env)) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            report["tools"] = sorted(tool.name for tool in (await session.list_tools()).tools)
            # No arguments at all: the SDK leaves `arguments` out of the request.
            report["status"] = outcome(await session.call_tool("status"))
            report["ingest_file_without_arguments"] = outcome(await session.call_tool("ingest_file"))
            report["unknown_tool"] = await protocol_error(session.call_tool("list_everything"))
            report["list_outside"] = outcome(await session.call_tool("list_files", {"scope": "/etc"}))
            report["ingest_file"] = outcome(await session.call_tool("ingest_file", {"filePath": os.path.join(root, "notes", "plan.md")}))
            report["query"] = outcome(await session.call_tool("query_documents", {"query": "when does the pump ship", "topK": 3}))
    print(json.dumps(report))


if __name__ == "__main__":
    anyio.run(main, *sys.argv[1:5])
