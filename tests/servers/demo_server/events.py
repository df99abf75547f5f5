"""`--resumable`: a bounded in-memory `EventStore`, one log per session.

`build_app(..., resumable=True)` (default off: the other tests pin the plain wire) gives
the SDK a `BoundedEventStore` (one log per session, at most 1000 events each and 100
sessions) and `retry_interval=200`. The wire is the stock SDK's: the demo only keeps each
session's events apart (`ResumableMiddleware`) and adds nothing to any stream. For
sessions of 2025-11-25 and later (the SDK's rule):
- every legacy POST's SSE stream starts with a priming event, `id: N`, empty `data:`,
  `retry: 200`, no `event:` line (initialize's too); event ids are decimal numbers,
  increasing across the server (opaque to clients). Every later event has an `id:`.
- the SDK does not prime a fresh GET stream (one opened without `Last-Event-ID`): it
  starts with nothing, and its first event is the first message the server sends on it
  (with an `id:`, like every event). So a client can resume a GET stream only once that
  stream has carried at least one event with an id (e.g. a live
  `notifications/elicitation/complete` from `confirm_deposit`); a GET stream dropped
  before that leaves the client no id to resume from, and what was sent meanwhile is
  lost to it.
- `GET` + `Last-Event-ID: N` (session headers, `Accept: text/event-stream`) answers 200
  SSE: the events stored after N on N's stream (a POST's request stream or the GET
  stream; priming rows skipped), then a new priming event (`id:`, empty data,
  `retry: 200`), then whatever that stream gets live. It does not end after the
  request's response: the client closes it. An unknown id (or another session's) gets an
  empty stream that ends at once. A GET without `Last-Event-ID` while a GET stream is
  open (a resumed one included): 409; a resumed GET of the GET stream while another is
  open: the replay only, then the stream ends.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict, deque
from contextvars import ContextVar
from typing import Any

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp_types import JSONRPCMessage
from starlette.datastructures import Headers

RETRY_INTERVAL_MS = 200
"""The `retry:` a resumable server suggests in its priming events (milliseconds)."""
MAX_EVENTS_PER_SESSION = 1000
"""Events kept per session: far more than any test's session sends. Beyond it the oldest
are dropped, and a `Last-Event-ID` naming one of them gets an empty stream."""
MAX_SESSIONS_KEPT = 100
"""Sessions whose logs are kept: more than any test run opens at once. Beyond it the least
recently used session's log is dropped, and its streams can no longer be resumed."""


class SessionEvents:
    """One session's events, oldest first: (event id, stream id, message; None = priming)."""

    def __init__(self) -> None:
        self.log: deque[tuple[EventId, StreamId, JSONRPCMessage | None]] = deque(maxlen=MAX_EVENTS_PER_SESSION)


_session_events: ContextVar[SessionEvents | None] = ContextVar("demo_session_events", default=None)
"""The log of the session a request (or a session's own tasks) belongs to; set by ResumableMiddleware."""


class BoundedEventStore(EventStore):
    """In-memory, bounded event store (the SDK ships none).

    The SDK hands one store to every session and names streams by the client's request
    id (`"1"`) or `_GET_stream`, so two sessions would share stream names. Each session
    therefore gets its own log, found through `_session_events` (ResumableMiddleware sets
    it per HTTP request; the session's message router inherits the one of the initialize
    request). Without the middleware, one shared log. Event ids are decimal numbers,
    increasing across the server. At most MAX_EVENTS_PER_SESSION events per session
    (the oldest are dropped) and MAX_SESSIONS_KEPT sessions (least recently used first).
    """

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self._sessions: OrderedDict[str, SessionEvents] = OrderedDict()
        self._shared = SessionEvents()

    def session(self, session_id: str | None) -> SessionEvents:
        """A known session's log, or a new one (not kept until `register`)."""
        if session_id is not None and session_id in self._sessions:
            self._sessions.move_to_end(session_id)
            return self._sessions[session_id]
        return SessionEvents()

    def register(self, session_id: str, events: SessionEvents) -> None:
        self._sessions[session_id] = events
        self._sessions.move_to_end(session_id)
        while len(self._sessions) > MAX_SESSIONS_KEPT:
            self._sessions.popitem(last=False)

    def forget(self, session_id: str) -> None:
        self._sessions.pop(session_id, None)

    def _current(self) -> SessionEvents:
        return _session_events.get() or self._shared

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        event_id = str(next(self._ids))
        self._current().log.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        log = list(self._current().log)
        start = next((i for i, (event_id, _, _) in enumerate(log) if event_id == last_event_id), None)
        if start is None:
            return None  # unknown (or dropped) id: the SDK answers an empty SSE stream
        stream_id = log[start][1]
        for event_id, stream, message in log[start + 1 :]:
            if stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


class ResumableMiddleware:
    """Per-session event logs for BoundedEventStore: nothing on the wire changes.

    Sets `_session_events` to the log of the request's session (`Mcp-Session-Id`) for the
    whole request, registers the log of a session that initialize creates and forgets
    the log of a session that DELETE ends. The SDK's streams go out exactly as the SDK
    writes them: in particular, a GET stream opened without `Last-Event-ID` carries no
    priming event (the SDK primes only POST streams and resumed GETs).
    """

    def __init__(self, app: Any, store: BoundedEventStore, path: str = "/mcp"):
        self.app = app
        self.store = store
        self.path = path

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        session_id = Headers(scope=scope).get("mcp-session-id")
        events = self.store.session(session_id)

        async def session_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                response_headers = Headers(raw=message.get("headers", []))
                if session_id is None and (new_id := response_headers.get("mcp-session-id")):
                    self.store.register(new_id, events)
                if scope["method"] == "DELETE" and session_id is not None and message["status"] < 300:
                    self.store.forget(session_id)
            await send(message)

        token = _session_events.set(events)
        try:
            await self.app(scope, receive, session_send)
        finally:
            _session_events.reset(token)

