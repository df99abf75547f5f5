"""tests/e2e/front.mjs, started for a test: a front before one MCP server that records what
the page sent (as it reached the server) and adds CORS for servers that send none."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from harness import REPO, free_port, read_json_lines, serving

SCRIPT = REPO / "tests" / "e2e" / "front.mjs"


class Front:
    def __init__(self, port: int, log: Path) -> None:
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.log = log

    def sent(self) -> list[dict[str, Any]]:
        """Every JSON-RPC message the page sent so far, each with its `session`."""
        out = []
        for record in read_json_lines(self.log):
            body = record.get("body")
            for message in body if isinstance(body, list) else [body]:
                if isinstance(message, dict):
                    out.append({**message, "session": record.get("session")})
        return out


@contextlib.contextmanager
def fronting(server_url: str, log_dir: Path) -> Iterator[Front]:
    """A front for the server at `server_url` (its `/mcp` path is the front's), until the
    block ends; its record and output in `log_dir`."""
    port = free_port()
    log_dir.mkdir(exist_ok=True)
    record = log_dir / f"front-{port}.jsonl"
    with serving(["node", str(SCRIPT), str(port), server_url, str(record)], REPO, port, log_dir / f"front-{port}.log"):
        yield Front(port, record)
