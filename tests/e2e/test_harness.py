"""The harness's own rules, checked without a browser or a server."""

from __future__ import annotations

import json
from pathlib import Path

from harness import DemoServer, HostileServer


def test_a_trace_line_still_being_written_is_not_read(tmp_path: Path) -> None:
    """A server appends one JSON line per exchange, and a long line reaches the file in
    several writes: a reader that comes in between sees a partial last line. It is left
    for the next read, never parsed (nor does it fail the read)."""
    done = {"method": "POST", "path": "/mcp", "request_body": "{}"}
    partial = json.dumps({"method": "POST", "path": "/mcp", "request_body": "x" * 100})[:50]
    server = DemoServer(log_dir=tmp_path)
    server.trace_path = tmp_path / "demo.trace.jsonl"
    server.arrivals_path = tmp_path / "demo.arrivals.jsonl"
    for path in (server.trace_path, server.arrivals_path):
        path.write_text(json.dumps(done) + "\n" + partial, encoding="utf-8")
    assert server.trace() == [done]
    assert server.arrivals() == [done]
    hostile = HostileServer(log_dir=tmp_path)
    hostile.trace_path.write_text(json.dumps(done) + "\n" + partial, encoding="utf-8")
    assert hostile.trace() == [done]
