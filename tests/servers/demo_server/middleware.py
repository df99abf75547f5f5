"""The ASGI middlewares around the SDK's app. None changes what the SDK sends unless its
option asks for it:

- `McpCorsMiddleware`: Starlette's CORSMiddleware that also allows any `Mcp-Param-*`.
- `RefuseFraming`: the no-framing headers of `static_server.py` on every static file.
- `FlakyReplayMiddleware`: the first delivery of a `flaky_note` answer fails (HTTP 503),
  the first replay of a `cut_note` round gets a cut response (see `tools.faults`).
- `StallDiscoverMiddleware` (`--stall-discover`): `server/discover` is never answered.
- `TraceMiddleware` (`--trace FILE`, `--arrivals FILE`): every HTTP exchange as JSON lines.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response

from .texts import Notes

# Headers a browser client sends cross-origin; all but content-type/accept need a preflight.
CORS_ALLOW_HEADERS = [
    "content-type",
    "accept",
    "mcp-protocol-version",
    "mcp-session-id",
    "mcp-method",
    "mcp-name",
    "last-event-id",
    # Credentials (`--auth`, `--api-key`, or a host's own headers).
    "authorization",
    "x-api-key",
]
CORS_PARAM_PREFIX = "mcp-param-"


class McpCorsMiddleware(CORSMiddleware):
    """CORSMiddleware that also allows any `Mcp-Param-*` header (Starlette has no wildcard)."""

    def preflight_response(self, request_headers: Headers) -> Response:
        requested = request_headers.get("access-control-request-headers")
        if requested is None:
            return super().preflight_response(request_headers)
        names = [h.strip().lower() for h in requested.split(",") if h.strip()]
        params = [h for h in names if h.startswith(CORS_PARAM_PREFIX)]
        others = [h for h in names if not h.startswith(CORS_PARAM_PREFIX)]
        raw = [(k, v) for k, v in request_headers.raw if k.lower() != b"access-control-request-headers"]
        if others:
            raw.append((b"access-control-request-headers", ", ".join(others).encode("latin-1")))
        response = super().preflight_response(Headers(raw=raw))
        if params and response.status_code == 200:
            headers = MutableHeaders(raw=response.raw_headers)
            allowed = headers.get("access-control-allow-headers", "")
            headers["access-control-allow-headers"] = ", ".join([allowed, *params]) if allowed else ", ".join(params)
        return response



class RefuseFraming:
    """Sends the no-framing headers of `static_server.py` with every static file: no page of
    any origin may frame the demo and steer the person's clicks onto its buttons."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def refusing_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = "frame-ancestors 'none'"
                headers["X-Frame-Options"] = "DENY"
            await send(message)

        await self.app(scope, receive, refusing_send)


class TraceMiddleware:
    """Appends every HTTP exchange to a JSON-lines file: for debugging and transcripts.

    One line per exchange, written when the response ends: method, path, request headers
    and body, status, response headers and body (an SSE stream as the text it sent), and
    `started` / `ended` (this server's monotonic clock, seconds: only differences mean
    anything, e.g. how long a client held a request open before giving up).

    With `arrivals`, also one line per request to that file the moment it arrives (method,
    path, request headers, `started`), before its body is read: a request still open
    (a GET stream) is seen there, never in the trace until it ends.
    """

    def __init__(self, app: Any, path: str, arrivals: str | None = None):
        self.app = app
        self.path = path
        self.arrivals = arrivals

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        record: dict[str, Any] = {
            "method": scope["method"],
            "path": scope["path"],
            "request_headers": {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]},
            "request_body": "",
            "response_body": "",
            "started": time.monotonic(),
        }
        if self.arrivals is not None:
            arrival = {k: record[k] for k in ("method", "path", "request_headers", "started")}
            with open(self.arrivals, "a", encoding="utf-8") as out:
                out.write(json.dumps(arrival) + "\n")
        request_body = bytearray()
        response_body = bytearray()

        async def traced_receive() -> Any:
            message = await receive()
            if message["type"] == "http.request":
                request_body.extend(message.get("body", b""))
            return message

        async def traced_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                record["status"] = message["status"]
                record["response_headers"] = {
                    k.decode("latin-1"): v.decode("latin-1") for k, v in message.get("headers", [])
                }
            elif message["type"] == "http.response.body":
                response_body.extend(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, traced_receive, traced_send)
        finally:
            record["ended"] = time.monotonic()
            record["request_body"] = request_body.decode("utf-8", "replace")
            record["response_body"] = response_body.decode("utf-8", "replace")
            with open(self.path, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")



async def buffered_body(receive: Any) -> tuple[bytes, Any]:
    """Reads a request's whole body; returns it and a `receive` that replays it to the app."""
    received: list[Any] = []
    body = bytearray()
    while True:
        message = await receive()
        received.append(message)
        if message["type"] != "http.request":
            break
        body.extend(message.get("body", b""))
        if not message.get("more_body", False):
            break

    async def replayed_receive() -> Any:
        return received.pop(0) if received else await receive()

    return bytes(body), replayed_receive


def json_rpc_method(body: bytes) -> tuple[str | None, Any]:
    """The JSON-RPC method and params of a request body (None for anything else)."""
    try:
        message = json.loads(body)
    except ValueError:
        return None, None
    if not isinstance(message, dict):
        return None, None
    return message.get("method"), message.get("params")



FLAKY_QUESTIONS_KEPT = 100
"""How many legacy `flaky_note` questions whose first answer is still to fail the server
remembers. Beyond it the oldest is forgotten, and its first answer goes through: far more
questions than any test leaves open at once."""


def sse_data(text: str) -> list[Any]:
    """The JSON of each complete `data:` line of an SSE text (anything else is skipped)."""
    out = []
    for line in text.split("\n"):
        if line.startswith("data:"):
            try:
                out.append(json.loads(line[5:]))
            except ValueError:
                continue
    return out


class FlakyReplayMiddleware:
    """Fails the first delivery of an answer on purpose, before the SDK sees it, as an
    overloaded server or proxy would:

    - 2026-07-28 `flaky_note`: the first replay of each round (a `tools/call` of
      `flaky_note` carrying `inputResponses`, told apart by its `requestState`) gets HTTP
      503 `text/plain`.
    - 2026-07-28 `cut_note`: the first replay of each round reaches the SDK, but its
      response is cut mid-body (the first half is sent, then the connection drops).
    - 2025-11-25 `flaky_note`: the first answer POST to each of its questions (a JSON-RPC
      response whose id is that of an `elicitation/create` with `Notes.FLAKY_QUESTION`, seen
      on the session's streams) gets HTTP 503 `text/plain`.

    Everything else passes untouched."""

    def __init__(self, app: Any, path: str = "/mcp"):
        self.app = app
        self.path = path
        self.failed: set[str] = set()
        # (session id, JSON-RPC id) of legacy flaky_note questions not yet answered.
        self.questions: OrderedDict[tuple[str, str], None] = OrderedDict()

    def _first_replay(self, body: bytes, tool: str) -> bool:
        method, params = json_rpc_method(body)
        if method != "tools/call":
            return False
        if not isinstance(params, dict) or params.get("name") != tool or "inputResponses" not in params:
            return False
        state = json.dumps([tool, params.get("requestState")])
        if state in self.failed:
            return False
        self.failed.add(state)
        return True

    def _first_legacy_answer(self, session: str | None, body: bytes) -> bool:
        try:
            message = json.loads(body)
        except ValueError:
            return False
        if session is None or not isinstance(message, dict) or "method" in message or "result" not in message:
            return False
        key = (session, json.dumps(message.get("id")))
        if key not in self.questions:
            return False
        del self.questions[key]
        return True

    def _watch(self, session: str | None, send: Any) -> Any:
        """`send` that notes the legacy flaky_note questions the SDK sends on this stream."""
        pending = bytearray()

        async def watching_send(message: Any) -> None:
            if session is not None and message["type"] == "http.response.body":
                pending.extend(message.get("body", b""))
                text = pending.decode("utf-8", "replace")
                done, _, rest = text.rpartition("\n")
                pending[:] = rest.encode("utf-8")
                for sent in sse_data(done):
                    params = sent.get("params") if isinstance(sent, dict) else None
                    if (
                        isinstance(params, dict)
                        and sent.get("method") == "elicitation/create"
                        and params.get("message") == Notes.FLAKY_QUESTION
                    ):
                        self.questions[(session, json.dumps(sent.get("id")))] = None
                        while len(self.questions) > FLAKY_QUESTIONS_KEPT:
                            self.questions.popitem(last=False)
            await send(message)

        return watching_send

    async def _cut(self, scope: Any, receive: Any, send: Any) -> None:
        """Runs the SDK to the end, then sends only the first half of its response body and
        drops the connection (no end of the body)."""
        start: dict[str, Any] = {}
        body = bytearray()

        async def keep(message: Any) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                body.extend(message.get("body", b""))

        await self.app(scope, receive, keep)
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        await send({"type": "http.response.start", "status": start.get("status", 200), "headers": headers})
        await send({"type": "http.response.body", "body": bytes(body[: len(body) // 2]), "more_body": True})
        raise ConnectionAbortedError("cut_note: this response is cut mid-body on purpose")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != self.path:
            await self.app(scope, receive, send)
            return
        session = Headers(scope=scope).get("mcp-session-id")
        if scope["method"] != "POST":
            await self.app(scope, receive, self._watch(session, send))
            return
        body, replayed_receive = await buffered_body(receive)
        if self._first_replay(body, "flaky_note") or self._first_legacy_answer(session, body):
            await send({"type": "http.response.start", "status": 503, "headers": [(b"content-type", b"text/plain")]})
            await send({"type": "http.response.body", "body": Notes.FLAKY_503.encode()})
            return
        if self._first_replay(body, "cut_note"):
            await self._cut(scope, replayed_receive, send)
            return
        await self.app(scope, replayed_receive, self._watch(session, send))


class StallDiscoverMiddleware:
    """`--stall-discover`: holds every `server/discover` open without an answer (as a
    gateway that does not know the method might), so a client's probe must give up."""

    def __init__(self, app: Any, path: str = "/mcp"):
        self.app = app
        self.path = path

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != self.path:
            await self.app(scope, receive, send)
            return
        body, replayed_receive = await buffered_body(receive)
        if json_rpc_method(body)[0] == "server/discover":
            # Until the client gives up (the disconnect arrives) or the server stops.
            while (await receive())["type"] != "http.disconnect":
                pass
            return
        await self.app(scope, replayed_receive, send)
