"""Demo MCP server for mcp-elicit: the official Python SDK (`mcp==2.3.0`) over Streamable HTTP.

One endpoint, `/mcp`, serves both protocol eras: the SDK tells a 2026-07-28 request
(self-contained, `_meta` envelope) from a 2025-11-25 session request on its own.

Tools and the exact text each returns (e2e tests compare against these strings):

Seed tools (the SDK's own elicitation examples, recorded in `core/tests/fixtures/transcripts/`):
- `book_table(date, party_size=2)`: legacy era only (`ctx.elicit`; in the modern era the
  SDK answers HTTP 400 because it has no back-channel). A date of `2025-12-25` is fully
  booked, so it asks `AlternativeDate`. Returns `Booked a table for {n} on {date}.`,
  `No table booked.` (accepted without alternative), `declined: no table booked`,
  `cancelled: no table booked`.
- `pay_deposit(booking_id)`: URL mode. Legacy: `ctx.elicit_url` with elicitation id
  `deposit-{booking_id}`; modern: a hand-rolled `InputRequiredResult` carrying a URL-mode
  `elicitation/create` under the key `deposit`. Returns
  `Complete the payment in your browser.`, `declined: no deposit paid`,
  `cancelled: no deposit paid`.
- `confirm_deposit(booking_id)`: legacy: sends `notifications/elicitation/complete` for
  `deposit-{booking_id}` on the session's GET stream. Returns
  `Deposit deposit-{id} confirmed.` (modern: the era has no such notification; the text
  says so).
- `delete_folder(path)`: a Resolver with `Elicit` (both eras), the tool takes the whole
  `ElicitationResult`. Returns `deleted {path}`, `kept {path}` (accepted with ok=false),
  `declined: folder not deleted`, `cancelled: folder not deleted`.

Tools for the client's tests (all resolvers, so they work in both eras):
- `book_in_region(region)`: `region` carries `x-mcp-header: Region` (`--region-header
  NAME` changes the name, as a redeployed tool would), so a modern request must mirror
  it in `Mcp-Param-Region` (the SDK answers HTTP 400, -32020, otherwise);
  asks one confirmation. Returns `Booked in region {region}.`, `Not booked in region
  {region}.`, `declined: not booked in region {region}` / `cancelled: ...`.
- `all_fields()`: one form with every field kind and enum shape, formats, bounds and
  defaults. Returns `accepted {json}` where json is the answered content
  (`json.dumps(..., sort_keys=True)`, only the fields the client sent), or `declined`
  / `cancelled`.
- `plan_trip()`: several questions in one round (three independent resolvers; the
  modern era gets three `inputRequests` at once). Returns
  `accepted destination={json} travellers={json} extras={json}` or names who declined.
- `setup_account()`: a three-round chain (each resolver depends on the previous).
  Returns `account {username} on {plan} plan, newsletter={true|false}` or
  `declined at {step}` / `cancelled at {step}`.
- `endless_questions()`: never stops asking (modern: every round is `input_required`
  with a fresh question; legacy: asks again after every accept). Returns
  `stopped after {n} answers: {action}` when the user declines or cancels.
- `open_vault(vault)`: legacy only, raises -32042 (URL elicitation required) with a
  URL elicitation `vault-{vault}`, until `confirm_deposit`-style `unlock_vault(vault)`
  was called; then returns `Vault {vault} opened.`
- `ask_llm(question)`: a Resolver with `Sample` (both eras): one `sampling/createMessage`
  with a single user text message `{question}` and `maxTokens` 200 (legacy: a
  server-to-client request on the POST's SSE stream; modern: an `inputRequests` entry
  under the key `__main__:ask_model`). Returns `llm ({model}) said: {text}` (the model
  and the text content of the client's `CreateMessageResult`). A client that did not
  declare `sampling` gets the SDK's JSON-RPC error -32021 (missing required client
  capability, `data.requiredCapabilities` = `{"sampling": {}}`).
- `list_my_roots()`: a Resolver with `ListRoots` (both eras; key `__main__:fetch_roots`
  in the modern era). Returns `roots: {uri1} {uri2}` (the uris in the client's order)
  or `roots: none`. Without the `roots` capability: -32021 as above (`{"roots": {}}`).

Tools whose legacy stream the server closes on purpose (for `--resumable`, below):
- `resume_after_drop()`: legacy: `ctx.close_sse_stream()` (ends this POST's SSE stream
  right after its priming event on a resumable server; a no-op otherwise, or for a session
  older than 2025-11-25), then `ctx.elicit` asks `Still there after the reconnect?`
  (`StillThere`: one required boolean `ok`, title `Still there`). On a resumable server
  the question and the result therefore arrive only on a GET with `Last-Event-ID` (the
  POST stream's priming id). Modern: no stream to drop (a lost round is recovered by
  sending the request again), so the same question is an `InputRequiredResult` with the
  key `still_there` and the requestState `resume_after_drop` (replay rule as for
  `trip_brief`). Returns `resumed: ok` (accepted, ok=true), `resumed: not ok` (ok=false),
  `resumed: declined`, `resumed: cancelled`.
- `confirm_deposit_after_drop(booking_id)`: marks the deposit paid like `confirm_deposit`.
  Legacy: `ctx.close_standalone_sse_stream()` (ends the session's GET stream on a
  resumable server), then sends `notifications/elicitation/complete` for
  `deposit-{booking_id}` while no GET stream is open: only a GET with `Last-Event-ID` (the
  id of an event the GET stream carried before, see `--resumable`) gets it (replayed), a
  GET without one does not. Returns `Deposit deposit-{id} confirmed after a stream drop.`
  (without an event store nothing is closed and the completion goes out live on an open
  GET stream, same text). Modern: as `confirm_deposit`.

- `slow_report()`: modern: the first two answers carry only a `requestState` (no
  `inputRequests`), so a client retries with back-off; the third returns `report ready
  after 2 retries`. A retry that arrives less than `SLOW_REPORT_MIN_GAP_MS` after the
  answer before it (or whose call the server does not remember) is refused with the
  JSON-RPC error -32600 `slow_report: try {n} came {ms} ms after the answer before it
  ...`: a client that does not back off never gets the report. Legacy: `report ready`.
- `plan_route(stops)`: `stops` is a list of `{city, nights=1}` objects (a schema no flat
  form renders). Returns `route: {city} ({n} night|nights), ...` or `route: empty`.
- `route_by_list(regions)`: `regions` (a list of strings) carries `x-mcp-header: Regions`,
  which the 2026-07-28 spec does not allow on an array, so a modern client must drop the
  tool from its list (the SDK's client does). Returns `routed to {a, b}`.
- `flaky_note()`: a Resolver with `Elicit` asking `Write a note to keep.` (`FlakyNote`:
  one required string `note`, title `Note`). The first delivery of each answer is
  answered HTTP 503 `text/plain` before it reaches the SDK (`FlakyReplayMiddleware`), so
  a client must keep the answer and send it again. Modern: the first replay of each round
  (each `requestState`); legacy: the first answer POST to each of its questions. Returns
  `noted: {note}`, `declined: no note`, `cancelled: no note`.
- `cut_note()`: as `flaky_note`, asking `Write a note to send twice.`. Modern: the first
  replay of each round reaches the SDK, but its response is cut mid-body (half of it is
  sent, then the connection drops); sending the same replay again works. Legacy: no
  failure. Returns `noted after a cut: {note}`, `declined: no note`, `cancelled: no note`.

Prompt (`prompts/get`), its user message text:
- `trip_brief(city)`: asks the form question `How many days in {city}?` (`TripDays`: one
  integer `days`, title `Days`, 1..30, default 3). Legacy: `ctx.elicit` on the POST's
  SSE stream; modern: a hand-rolled `InputRequiredResult` with the key `days` and the
  requestState `trip_brief:{city}` (an answer replayed without that requestState is
  ignored and the question asked again). One user message: `Plan a {days}-day trip to
  {city}.`, `No trip brief for {city}: declined`, `No trip brief for {city}: cancelled`.
  An accepted answer that does not fit `TripDays` (e.g. `"5"`, 0, 31) is the JSON-RPC
  error -32602 `Received an accepted elicitation whose content does not match the
  requested schema` (legacy: on the SSE stream, HTTP 200; modern: HTTP 400).

Resource template (`resources/read`), its text content (mime type `text/plain`):
- `notes://{name}` (template name `note`): asks the form question `Reveal note {name}?`
  (`RevealNote`: one required boolean `ok`, title `Reveal`). Legacy: `ctx.elicit`;
  modern: a hand-rolled `InputRequiredResult` with the key `reveal` and the requestState
  `note:{name}` (same replay rule as `trip_brief`). Returns `Note {name}: water the
  plants.` (accepted with ok=true), `Note {name} stays hidden.` (ok=false or declined),
  `Note {name}: cancelled.` An answer that does not fit: -32602 as for `trip_brief`.

CORS: the SDK does no CORS, so the ASGI app is wrapped in Starlette's CORSMiddleware
(answering preflight, allowing the MCP headers and any `Mcp-Param-*`, exposing
`mcp-session-id`), and the page origins are added to the SDK's DNS-rebinding
`allowed_origins`. `--no-cors` leaves the stock SDK behaviour (preflight gets 405).
`--static DIR` serves a directory on the same origin (at `/`), beside `/mcp`, with the
no-framing headers `static_server.py` sends.
`--trace FILE` appends every HTTP exchange to FILE (JSON lines: request and response
headers and bodies, SSE streams as sent, when it started and ended): for debugging and for
capturing transcripts. It is written when a request ends; `--arrivals FILE` appends a line
the moment each request arrives, so a test sees a request that is still open.
`--state-key` fixes the `requestState` sealing key, so a restarted server still accepts
a replay sealed before the restart (the fault tests rely on this).

`--resumable` (`build_app(..., resumable=True)`; default off, the other tests pin the
plain wire) gives the SDK an in-memory `EventStore` (`BoundedEventStore`: one log per
session, at most 1000 events each and 100 sessions) and `retry_interval=200`. The wire is
the stock SDK's: the demo only keeps each session's events apart (`ResumableMiddleware`)
and adds nothing to any stream. For sessions of 2025-11-25 and later (the SDK's rule):
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

import argparse
import itertools
import json
import os
import re
import secrets
import sys
import time
from collections import OrderedDict, deque
from contextvars import ContextVar
from typing import Annotated, Any, Literal

import uvicorn
from mcp.server.mcpserver import (
    AcceptedElicitation,
    CancelledElicitation,
    Context,
    DeclinedElicitation,
    Elicit,
    ElicitationResult,
    ListRoots,
    MCPServer,
    RequestStateSecurity,
    Resolve,
    Sample,
    UserMessage,
)
from mcp.server.elicitation import render_elicitation_schema
from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError, UrlElicitationRequiredError
from mcp_types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestURLParams,
    ElicitResult,
    InputRequiredResult,
    JSONRPCMessage,
    ListRootsResult,
    SamplingMessage,
    TextContent,
)
from mcp_types.version import is_version_at_least
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

MODERN = "2026-07-28"
"""First protocol revision without server-to-client requests (input_required rounds)."""

# Headers a browser client sends cross-origin; all but content-type/accept need a preflight.
CORS_ALLOW_HEADERS = [
    "content-type",
    "accept",
    "mcp-protocol-version",
    "mcp-session-id",
    "mcp-method",
    "mcp-name",
    "last-event-id",
]
CORS_PARAM_PREFIX = "mcp-param-"
# Any loopback page origin, whatever its port: the default when no --cors-origin is given.
LOOPBACK_ORIGIN_RE = r"http://(127\.0\.0\.1|localhost|\[::1\])(:\d+)?"
LOOPBACK_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]

SERVER_NAME = "mcp-elicit demo"

# Out-of-band state of the URL flows (a real server would keep this per user).
_confirmed_deposits: set[str] = set()
_unlocked_vaults: set[str] = set()


def is_modern(ctx: Context) -> bool:
    """Whether this request uses the 2026-07-28 era (no back-channel, input_required)."""
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, MODERN)


class Strict(BaseModel):
    """Answers must carry exactly the JSON types of the schema (no "5" for 5), so the
    echoed content proves the client typed its answer correctly."""

    model_config = ConfigDict(strict=True)


def echo(model: BaseModel) -> str:
    """The answered content as the client sent it: only set fields, JSON, sorted keys."""
    return json.dumps(model.model_dump(mode="json", exclude_unset=True), sort_keys=True)


def outcome_word(outcome: ElicitationResult[Any]) -> str:
    """`declined` / `cancelled` for a non-accepted outcome."""
    return "declined" if isinstance(outcome, DeclinedElicitation) else "cancelled"


# --- book_table: ctx.elicit (legacy era) --------------------------------------------


class AlternativeDate(Strict):
    accept_alternative: bool = Field(description="Try another date?")
    date: str = Field(default="2025-12-26", description="Alternative date (YYYY-MM-DD)")


async def book_table(date: str, ctx: Context, party_size: int = 2) -> str:
    """Book a table; 2025-12-25 is full, so the server asks for another date."""
    if date != "2025-12-25":
        return f"Booked a table for {party_size} on {date}."
    result = await ctx.elicit(
        message=f"No tables for {party_size} on {date}. Would you like to try another date?",
        schema=AlternativeDate,
    )
    if isinstance(result, AcceptedElicitation):
        if result.data.accept_alternative:
            return f"Booked a table for {party_size} on {result.data.date}."
        return "No table booked."
    return f"{outcome_word(result)}: no table booked"


# --- pay_deposit / confirm_deposit: URL mode ------------------------------------------


def deposit_url(booking_id: str) -> str:
    return f"https://pay.example.com/deposit/{booking_id}"


DEPOSIT_MESSAGE = "A 20 EUR deposit confirms your booking."


async def pay_deposit(booking_id: str, ctx: Context) -> str | InputRequiredResult:
    """Ask the user to pay a deposit on an external page (URL-mode elicitation)."""
    if not is_modern(ctx):
        outcome = await ctx.elicit_url(
            message=DEPOSIT_MESSAGE, url=deposit_url(booking_id), elicitation_id=f"deposit-{booking_id}"
        )
        action = outcome.action
    else:
        answer = (ctx.input_responses or {}).get("deposit")
        if not isinstance(answer, ElicitResult):
            # The modern era has no elicitationId and no completion notification.
            return InputRequiredResult(
                input_requests={
                    "deposit": ElicitRequest(
                        params=ElicitRequestURLParams(message=DEPOSIT_MESSAGE, url=deposit_url(booking_id))
                    )
                },
                request_state=f"pay_deposit:{booking_id}",
            )
        action = answer.action
    if action == "accept":
        return "Complete the payment in your browser."
    return f"{'declined' if action == 'decline' else 'cancelled'}: no deposit paid"


async def confirm_deposit(booking_id: str, ctx: Context) -> str:
    """Mark the deposit paid; tells a legacy client on its GET stream that the URL step is done."""
    elicitation_id = f"deposit-{booking_id}"
    _confirmed_deposits.add(elicitation_id)
    if is_modern(ctx):
        return f"Deposit {elicitation_id} confirmed (no completion notification in {MODERN})."
    # No related request id: the notification goes on the session's standalone GET stream.
    await ctx.session.send_elicit_complete(elicitation_id)
    return f"Deposit {elicitation_id} confirmed."


# --- open_vault: -32042 URL elicitation required (legacy error) -----------------------


async def open_vault(vault: str) -> str:
    """Fails with -32042 until the vault's URL step is done (see `unlock_vault`)."""
    elicitation_id = f"vault-{vault}"
    if elicitation_id not in _unlocked_vaults:
        raise UrlElicitationRequiredError(
            [
                ElicitRequestURLParams(
                    message=f"Sign in to open vault {vault}.",
                    url=f"https://vault.example.com/unlock/{vault}",
                    elicitation_id=elicitation_id,
                )
            ]
        )
    return f"Vault {vault} opened."


async def unlock_vault(vault: str, ctx: Context) -> str:
    """Finish the vault's URL step out of band; legacy clients get the completion notification."""
    elicitation_id = f"vault-{vault}"
    _unlocked_vaults.add(elicitation_id)
    if not is_modern(ctx):
        await ctx.session.send_elicit_complete(elicitation_id)
    return f"Vault {vault} unlocked."


# --- delete_folder: Resolver with Elicit, full ElicitationResult injected -------------


class ConfirmDelete(Strict):
    ok: bool


def confirm_delete(path: str) -> Elicit[ConfirmDelete]:
    return Elicit(f"{path} has 2 file(s). Delete anyway?", ConfirmDelete)


async def delete_folder(
    path: str, confirm: Annotated[ElicitationResult[ConfirmDelete], Resolve(confirm_delete)]
) -> str:
    """Delete a folder after the user confirms (pretend: nothing is deleted)."""
    if isinstance(confirm, AcceptedElicitation):
        return f"deleted {path}" if confirm.data.ok else f"kept {path}"
    return f"{outcome_word(confirm)}: folder not deleted"


# --- route_by_list: an invalid x-mcp-header annotation -------------------------------


async def route_by_list(regions: Annotated[list[str], Field(description="Regions")]) -> str:
    """`x-mcp-header` on an array: invalid, so a 2026-07-28 client drops this tool."""
    return f"routed to {', '.join(regions) or 'nowhere'}"


def annotate_route_by_list(server: MCPServer) -> None:
    """Gives `route_by_list`'s array the `x-mcp-header` the SDK refuses at registration, as
    a server built otherwise might list it (the listing serves the registered schema)."""
    tool = server._tool_manager.get_tool("route_by_list")  # noqa: SLF001 - a deliberately broken listing
    if tool is not None:
        tool.parameters["properties"]["regions"]["x-mcp-header"] = "Regions"


# --- flaky_note: the first replay of each round fails with HTTP 503 ----------------


class FlakyNote(Strict):
    note: str = Field(title="Note")


def ask_note() -> Elicit[FlakyNote]:
    return Elicit(FLAKY_NOTE_MESSAGE, FlakyNote)


async def flaky_note(answer: Annotated[ElicitationResult[FlakyNote], Resolve(ask_note)]) -> str:
    """Keeps a note; the first delivery of each answer fails with HTTP 503."""
    if isinstance(answer, AcceptedElicitation):
        return f"noted: {answer.data.note}"
    return f"{outcome_word(answer)}: no note"


def ask_cut_note() -> Elicit[FlakyNote]:
    return Elicit(CUT_NOTE_MESSAGE, FlakyNote)


async def cut_note(answer: Annotated[ElicitationResult[FlakyNote], Resolve(ask_cut_note)]) -> str:
    """Keeps a note; in the modern era the response to a round's first replay is cut."""
    if isinstance(answer, AcceptedElicitation):
        return f"noted after a cut: {answer.data.note}"
    return f"{outcome_word(answer)}: no note"


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


FLAKY_NOTE_MESSAGE = "Write a note to keep."
"""`flaky_note`'s question: how FlakyReplayMiddleware finds it on a legacy stream."""

CUT_NOTE_MESSAGE = "Write a note to send twice."
"""`cut_note`'s question."""

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
      response whose id is that of an `elicitation/create` with FLAKY_NOTE_MESSAGE, seen
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
                        and params.get("message") == FLAKY_NOTE_MESSAGE
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
            await send({"type": "http.response.body", "body": b"flaky_note: this answer fails once on purpose"})
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


# --- book_in_region: an argument mirrored in an Mcp-Param-* header ------------------


class ConfirmRegion(Strict):
    ok: bool = Field(default=True, title="Book here?")


def confirm_region(region: str) -> Elicit[ConfirmRegion]:
    return Elicit(f"Book a table in region {region}?", ConfirmRegion)


def make_book_in_region(header: str = "Region") -> Any:
    """`book_in_region` whose `region` is mirrored in `Mcp-Param-{header}` (see `--region-header`)."""

    async def book_in_region(
        region: str,
        confirm: Annotated[ElicitationResult[ConfirmRegion], Resolve(confirm_region)],
    ) -> str:
        """A modern-era client must send `Mcp-Param-<header>` mirroring `region` (else HTTP 400, -32020)."""
        if isinstance(confirm, AcceptedElicitation):
            return f"Booked in region {region}." if confirm.data.ok else f"Not booked in region {region}."
        return f"{outcome_word(confirm)}: not booked in region {region}"

    # Annotations are strings here (`from __future__ import annotations`), evaluated in the
    # module's namespace where `header` does not exist: give this one as an object.
    book_in_region.__annotations__["region"] = Annotated[
        str, Field(description="Routing region", json_schema_extra={"x-mcp-header": header})
    ]
    return book_in_region


# --- all_fields: every field kind in one form -----------------------------------------


class AllFields(Strict):
    name: str = Field(title="Full name", description="As on your passport", min_length=2, max_length=40)
    nickname: str = Field(default="Sam", title="Nickname")
    email: str = Field(title="Email", json_schema_extra={"format": "email"})
    homepage: str | None = Field(default=None, title="Homepage", json_schema_extra={"format": "uri"})
    birthday: str | None = Field(default=None, title="Birthday", json_schema_extra={"format": "date"})
    meeting: str | None = Field(default=None, title="Meeting time", json_schema_extra={"format": "date-time"})
    code: str | None = Field(default=None, title="Airport code", pattern=r"^[A-Z]{3}$")
    age: int = Field(title="Age", ge=0, le=150)
    rating: float = Field(default=2.5, title="Rating", ge=0, le=5)
    subscribe: bool = Field(default=True, title="Subscribe")
    colour: Literal["red", "green", "blue"] = Field(default="green", title="Colour")
    size: str = Field(
        title="Size",
        json_schema_extra={
            "oneOf": [
                {"const": "s", "title": "Small"},
                {"const": "m", "title": "Medium"},
                {"const": "l", "title": "Large"},
            ]
        },
    )
    pet: str | None = Field(
        default=None,
        title="Pet",
        json_schema_extra={"enum": ["cat", "dog", "fish"], "enumNames": ["Cat", "Dog", "Fish"]},
    )
    toppings: list[Literal["cheese", "ham", "olives"]] = Field(default_factory=list, title="Toppings")
    languages: list[str] = Field(
        title="Languages",
        min_length=1,
        max_length=2,
        json_schema_extra={
            "items": {
                "anyOf": [
                    {"const": "en", "title": "English"},
                    {"const": "fr", "title": "French"},
                    {"const": "de", "title": "German"},
                ]
            }
        },
    )
    days: list[Literal["mon", "tue", "wed"]] = Field(default=["mon"], title="Days", min_length=1, max_length=3)


def ask_all_fields() -> Elicit[AllFields]:
    return Elicit("Tell us about yourself (every field kind).", AllFields)


async def all_fields(answer: Annotated[ElicitationResult[AllFields], Resolve(ask_all_fields)]) -> str:
    """Ask one form holding every field kind; echo what was answered."""
    if isinstance(answer, AcceptedElicitation):
        return f"accepted {echo(answer.data)}"
    return outcome_word(answer)


# --- plan_trip: several questions in one round ----------------------------------------


class Destination(Strict):
    city: str = Field(title="City")


class Travellers(Strict):
    adults: int = Field(default=2, title="Adults", ge=1, le=9)
    children: int = Field(default=0, title="Children", ge=0, le=9)


class Extras(Strict):
    insurance: bool = Field(default=False, title="Travel insurance")


def ask_destination() -> Elicit[Destination]:
    return Elicit("Where to?", Destination)


def ask_travellers() -> Elicit[Travellers]:
    return Elicit("Who is travelling?", Travellers)


def ask_extras() -> Elicit[Extras]:
    return Elicit("Any extras?", Extras)


async def plan_trip(
    destination: Annotated[ElicitationResult[Destination], Resolve(ask_destination)],
    travellers: Annotated[ElicitationResult[Travellers], Resolve(ask_travellers)],
    extras: Annotated[ElicitationResult[Extras], Resolve(ask_extras)],
) -> str:
    """Ask three independent questions at once (one modern round with three requests)."""
    answers = {"destination": destination, "travellers": travellers, "extras": extras}
    refused = [f"{name} {outcome_word(o)}" for name, o in answers.items() if not isinstance(o, AcceptedElicitation)]
    if refused:
        return "not planned: " + ", ".join(refused)
    parts = [f"{name}={echo(o.data)}" for name, o in answers.items() if isinstance(o, AcceptedElicitation)]
    return "accepted " + " ".join(parts)


# --- setup_account: a three-round resolver chain --------------------------------------


class Username(Strict):
    username: str = Field(title="Username", min_length=3)


class Plan(Strict):
    plan: Literal["free", "pro"] = Field(default="free", title="Plan")


class Newsletter(Strict):
    newsletter: bool = Field(default=False, title="Newsletter")


def ask_username() -> Elicit[Username]:
    return Elicit("Step 1 of 3: choose a username.", Username)


def ask_plan(username: Annotated[ElicitationResult[Username], Resolve(ask_username)]) -> Elicit[Plan] | str:
    if not isinstance(username, AcceptedElicitation):
        return f"{outcome_word(username)} at username"
    return Elicit(f"Step 2 of 3: which plan for {username.data.username}?", Plan)


def ask_newsletter(plan: Annotated[ElicitationResult[Plan], Resolve(ask_plan)]) -> Elicit[Newsletter] | str:
    if not isinstance(plan, AcceptedElicitation):
        return f"{outcome_word(plan)} at plan"
    if isinstance(plan.data, str):
        return plan.data
    return Elicit(f"Step 3 of 3: newsletter for the {plan.data.plan} plan?", Newsletter)


async def setup_account(
    username: Annotated[ElicitationResult[Username], Resolve(ask_username)],
    plan: Annotated[ElicitationResult[Plan], Resolve(ask_plan)],
    newsletter: Annotated[ElicitationResult[Newsletter], Resolve(ask_newsletter)],
) -> str:
    """Three questions, each asked only after the previous one is answered (three rounds)."""
    if not isinstance(newsletter, AcceptedElicitation):
        return f"{outcome_word(newsletter)} at newsletter"
    if isinstance(newsletter.data, str):
        return newsletter.data
    if not (isinstance(username, AcceptedElicitation) and isinstance(plan, AcceptedElicitation)):
        return "incomplete"
    if not (isinstance(plan.data, Plan) and isinstance(newsletter.data, Newsletter)):
        return "incomplete"
    flag = "true" if newsletter.data.newsletter else "false"
    return f"account {username.data.username} on {plan.data.plan} plan, newsletter={flag}"


# --- endless_questions: never stops asking --------------------------------------------


class KeepGoing(Strict):
    answer: str = Field(default="yes", title="Answer")


def endless_request(round_no: int) -> ElicitRequest:
    return ElicitRequest(
        params=ElicitRequestFormParams(
            message=f"Question {round_no}: shall I ask again?",
            requested_schema=render_elicitation_schema(KeepGoing),
        )
    )


async def endless_questions(ctx: Context) -> str | InputRequiredResult:
    """Asks again after every accepted answer, forever (tests the client's round bound)."""
    if not is_modern(ctx):
        answers = 0
        while True:
            outcome = await ctx.elicit(f"Question {answers + 1}: shall I ask again?", KeepGoing)
            if not isinstance(outcome, AcceptedElicitation):
                return f"stopped after {answers} answers: {outcome.action}"
            answers += 1
    # requestState `endless:N`: question N was asked last round (sealed by the SDK).
    match = re.fullmatch(r"endless:(\d+)", ctx.request_state or "")
    asked = int(match.group(1)) if match else 0
    answer = (ctx.input_responses or {}).get(f"q{asked}")
    if isinstance(answer, ElicitResult):
        if answer.action != "accept":
            return f"stopped after {asked - 1} answers: {answer.action}"
        asked += 1
    elif asked == 0:
        asked = 1
    # Without an answer to question N (a bare retry), question N is asked again.
    return InputRequiredResult(
        input_requests={f"q{asked}": endless_request(asked)},
        request_state=f"endless:{asked}",
    )


# --- ask_llm / list_my_roots: the other two resolver markers (Sample, ListRoots) ------


def ask_model(question: str) -> Sample:
    return Sample(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=question))],
        max_tokens=200,
    )


def sampled_text(result: CreateMessageResult) -> str:
    """The text of a sampling result (its content is one block or, since 2025-11-25, a list)."""
    blocks = result.content if isinstance(result.content, list) else [result.content]
    return "".join(b.text for b in blocks if isinstance(b, TextContent))


async def ask_llm(question: str, answer: Annotated[CreateMessageResult, Resolve(ask_model)]) -> str:
    """Ask the client's LLM (sampling/createMessage); needs the client's `sampling` capability."""
    return f"llm ({answer.model}) said: {sampled_text(answer)}"


def fetch_roots() -> ListRoots:
    return ListRoots()


async def list_my_roots(roots: Annotated[ListRootsResult, Resolve(fetch_roots)]) -> str:
    """List the client's roots (roots/list); needs the client's `roots` capability."""
    uris = [str(root.uri) for root in roots.roots]
    return "roots: " + (" ".join(uris) if uris else "none")


# --- trip_brief (prompt) and notes://{name} (resource template): one form question ----


async def ask_form(
    ctx: Context, key: str, state: str, message: str, schema: type[Strict]
) -> ElicitationResult[Any] | InputRequiredResult:
    """One form question from a handler that is not a tool (no resolvers there).

    Legacy: `ctx.elicit` (rides the POST's SSE stream: the context carries the request id).
    Modern: an `InputRequiredResult` with `key` and requestState `state`; on the replay the
    answer counts only when the requestState came back, else the question is asked again.
    An accepted answer without content, or whose content does not match the schema, is a
    JSON-RPC error -32602 in both eras (left alone, the SDK would answer code 0 in the
    legacy era and -32603 in the modern one, as prompts and resources have no `isError`).
    """
    if not is_modern(ctx):
        try:
            return await ctx.elicit(message, schema)
        except ValidationError as e:  # a malformed ElicitResult: its text is not echoed
            raise MCPError(code=INVALID_PARAMS, message="Received an invalid elicitation response") from e
        except ValueError as e:  # no content, or content not matching the schema
            raise MCPError(code=INVALID_PARAMS, message=str(e)) from e
    answer = (ctx.input_responses or {}).get(key)
    if ctx.request_state != state or not isinstance(answer, ElicitResult):
        request = ElicitRequest(
            params=ElicitRequestFormParams(message=message, requested_schema=render_elicitation_schema(schema))
        )
        return InputRequiredResult(input_requests={key: request}, request_state=state)
    if answer.action == "decline":
        return DeclinedElicitation()
    if answer.action == "cancel":
        return CancelledElicitation()
    if answer.content is None:
        raise MCPError(code=INVALID_PARAMS, message="Received an accepted elicitation with no content")
    try:
        return AcceptedElicitation(data=schema.model_validate(answer.content))
    except ValidationError as e:
        raise MCPError(
            code=INVALID_PARAMS,
            message="Received an accepted elicitation whose content does not match the requested schema",
        ) from e


class TripDays(Strict):
    days: int = Field(default=3, title="Days", ge=1, le=30)


async def trip_brief(city: str, ctx: Context) -> list[UserMessage] | InputRequiredResult:
    """A trip-planning prompt; asks how many days first."""
    outcome = await ask_form(ctx, "days", f"trip_brief:{city}", f"How many days in {city}?", TripDays)
    if isinstance(outcome, InputRequiredResult):
        return outcome
    if isinstance(outcome, AcceptedElicitation):
        return [UserMessage(f"Plan a {outcome.data.days}-day trip to {city}.")]
    return [UserMessage(f"No trip brief for {city}: {outcome_word(outcome)}")]


class RevealNote(Strict):
    ok: bool = Field(title="Reveal")


async def note(name: str, ctx: Context) -> str | InputRequiredResult:
    """A note that is shown only after the user agrees."""
    outcome = await ask_form(ctx, "reveal", f"note:{name}", f"Reveal note {name}?", RevealNote)
    if isinstance(outcome, InputRequiredResult):
        return outcome
    if isinstance(outcome, AcceptedElicitation):
        return f"Note {name}: water the plants." if outcome.data.ok else f"Note {name} stays hidden."
    if isinstance(outcome, DeclinedElicitation):
        return f"Note {name} stays hidden."
    return f"Note {name}: cancelled."


# --- slow_report: a state-only input_required result (retry with back-off) -------------


SLOW_REPORT_MIN_GAP_MS = 40
"""The least time a `slow_report` retry must leave after the answer before it. Below the
client's first back-off (50 ms, `BACKOFF_INITIAL_MS` in core/src/driver/modern.rs), so a
client that waits as it should is never refused, whatever the machine's load: the gap is
measured from the moment this server answered to the moment the retry reached the tool, and
the client's wait lies between the two. A client that retries at once comes back within a
few milliseconds. A retry that comes sooner is refused (-32600)."""

SLOW_REPORT_CALLS_KEPT = 100
"""How many `slow_report` calls the server remembers (when it last answered each). Beyond
it the least recent is forgotten, and its next retry is refused as unknown: far more calls
than any test has in flight at once."""

_slow_report_answered: OrderedDict[str, float] = OrderedDict()
"""Per `slow_report` call (the nonce in its `requestState`): when its latest answer left."""


def slow_report_state(tries: int, call: str) -> InputRequiredResult:
    """A state-only answer; records when it left, to check the retry's spacing."""
    _slow_report_answered[call] = time.monotonic()
    _slow_report_answered.move_to_end(call)
    while len(_slow_report_answered) > SLOW_REPORT_CALLS_KEPT:
        _slow_report_answered.popitem(last=False)
    return InputRequiredResult(request_state=f"tries:{tries}:{call}")


async def slow_report(ctx: Context) -> str | InputRequiredResult:
    """Not ready on the first try: the modern era answers with only a `requestState` (no
    questions), which a client retries after a short back-off (refused when it did not)."""
    if not is_modern(ctx):
        return "report ready"
    arrived = time.monotonic()
    state = ctx.request_state or ""
    if not state.startswith("tries:"):
        return slow_report_state(1, secrets.token_hex(8))
    count, _, call = state.removeprefix("tries:").partition(":")
    tries = int(count)
    answered = _slow_report_answered.get(call)
    if answered is None:
        raise MCPError(code=INVALID_REQUEST, message=f"slow_report: try {tries + 1} belongs to no call this server remembers")
    gap_ms = (arrived - answered) * 1000
    if gap_ms < SLOW_REPORT_MIN_GAP_MS:
        raise MCPError(
            code=INVALID_REQUEST,
            message=f"slow_report: try {tries + 1} came {gap_ms:.1f} ms after the answer before it "
            f"(at least {SLOW_REPORT_MIN_GAP_MS} ms: back off before retrying)",
        )
    if tries < 2:
        return slow_report_state(tries + 1, call)
    del _slow_report_answered[call]
    return f"report ready after {tries} retries"


# --- plan_route: arguments that are not a flat form ------------------------------------


class Stop(BaseModel):
    city: str
    nights: int = 1


async def plan_route(stops: list[Stop]) -> str:
    """Nested arguments (a list of objects): clients can't render them as a flat form."""
    if not stops:
        return "route: empty"
    legs = [f"{s.city} ({s.nights} night{'' if s.nights == 1 else 's'})" for s in stops]
    return "route: " + ", ".join(legs)


# --- resume_after_drop / confirm_deposit_after_drop: streams the server closes --------


class StillThere(Strict):
    ok: bool = Field(title="Still there")


STILL_THERE = "Still there after the reconnect?"


async def resume_after_drop(ctx: Context) -> str | InputRequiredResult:
    """Close this call's SSE stream (resumable server, legacy era), then ask a question."""
    if is_modern(ctx):
        # No stream to drop: a lost round is recovered by sending the request again.
        outcome = await ask_form(ctx, "still_there", "resume_after_drop", STILL_THERE, StillThere)
        if isinstance(outcome, InputRequiredResult):
            return outcome
    else:
        # A no-op unless the server has an event store (--resumable) and the session 2025-11-25+.
        await ctx.close_sse_stream()
        outcome = await ctx.elicit(STILL_THERE, StillThere)
    if isinstance(outcome, AcceptedElicitation):
        return "resumed: ok" if outcome.data.ok else "resumed: not ok"
    return f"resumed: {outcome_word(outcome)}"


async def confirm_deposit_after_drop(booking_id: str, ctx: Context) -> str:
    """Like confirm_deposit, but closes the session's GET stream first (resumable server)."""
    elicitation_id = f"deposit-{booking_id}"
    _confirmed_deposits.add(elicitation_id)
    if is_modern(ctx):
        return f"Deposit {elicitation_id} confirmed (no completion notification in {MODERN})."
    # The completion is stored while the GET stream is down: only a GET with Last-Event-ID gets it.
    await ctx.close_standalone_sse_stream()
    await ctx.session.send_elicit_complete(elicitation_id)
    return f"Deposit {elicitation_id} confirmed after a stream drop."


# --- the HTTP app: CORS, DNS-rebinding allow-list, optional static files -------------


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


TOOLS = [
    book_table,
    pay_deposit,
    confirm_deposit,
    open_vault,
    unlock_vault,
    delete_folder,
    all_fields,
    plan_trip,
    setup_account,
    endless_questions,
    ask_llm,
    list_my_roots,
    resume_after_drop,
    confirm_deposit_after_drop,
    plan_route,
    slow_report,
    flaky_note,
    cut_note,
    route_by_list,
]


def create_server(state_key: str | None = None, region_header: str = "Region") -> MCPServer:
    """The MCP server with every tool. A fixed `state_key` survives restarts (else ephemeral)."""
    security = RequestStateSecurity(keys=[state_key], audience=SERVER_NAME) if state_key else None
    server = MCPServer(SERVER_NAME, request_state_security=security)
    tools = list(TOOLS)
    tools.insert(tools.index(delete_folder) + 1, make_book_in_region(region_header))
    for tool in tools:
        server.tool()(tool)
    annotate_route_by_list(server)
    server.prompt()(trip_brief)
    server.resource("notes://{name}", name="note", mime_type="text/plain")(note)
    return server


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


# --- --resumable: a bounded in-memory EventStore, one log per session ----------------

RETRY_INTERVAL_MS = 200
"""The `retry:` a resumable server suggests in its priming events (milliseconds)."""
MAX_EVENTS_PER_SESSION = 1000
MAX_SESSIONS_KEPT = 100


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


def build_app(
    host: str,
    cors_origins: list[str] | None,
    static_dir: str | None,
    state_key: str | None = None,
    trace: str | None = None,
    *,
    resumable: bool = False,
    region_header: str = "Region",
    stateless: bool = False,
    stall_discover: bool = False,
    arrivals: str | None = None,
) -> Any:
    """The Starlette app: `/mcp` (both eras), CORS unless `cors_origins` is None, static files.

    `resumable`: an event store and `retry: 200` (see `--resumable` in the module docstring).
    """
    app = _build_app(host, cors_origins, static_dir, state_key, resumable, region_header, stateless)
    if stall_discover:
        app = StallDiscoverMiddleware(app)
    if trace:
        return TraceMiddleware(app, trace, arrivals)
    if arrivals:
        return TraceMiddleware(app, os.devnull, arrivals)
    return app


def _build_app(
    host: str,
    cors_origins: list[str] | None,
    static_dir: str | None,
    state_key: str | None,
    resumable: bool,
    region_header: str,
    stateless: bool,
) -> Any:
    allow_all = cors_origins is not None and "*" in cors_origins
    explicit = [o for o in (cors_origins or []) if o != "*"]
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=not allow_all,
        allowed_hosts=[*LOOPBACK_HOSTS, f"{host}:*"],
        allowed_origins=[*LOOPBACK_ORIGINS, *explicit],
    )
    store = BoundedEventStore() if resumable else None
    app = create_server(state_key, region_header).streamable_http_app(
        transport_security=security,
        host=host,
        event_store=store,
        retry_interval=RETRY_INTERVAL_MS if resumable else None,
        stateless_http=stateless,
    )
    if static_dir:
        static = RefuseFraming(StaticFiles(directory=static_dir, html=True))
        app.router.routes.append(Mount("/", app=static, name="static"))
    if store is not None:
        app = ResumableMiddleware(app, store)
    app = FlakyReplayMiddleware(app)
    if cors_origins is None:
        return app
    return McpCorsMiddleware(
        app,
        allow_origins=["*"] if allow_all else explicit,
        allow_origin_regex=None if (allow_all or explicit) else LOOPBACK_ORIGIN_RE,
        allow_methods=["GET", "POST", "DELETE"],
        allow_headers=CORS_ALLOW_HEADERS,
        expose_headers=["mcp-session-id"],
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument(
        "--cors-origin",
        action="append",
        dest="cors_origins",
        metavar="ORIGIN",
        help="page origin allowed by CORS (repeatable; '*' for any). Default: any loopback origin.",
    )
    parser.add_argument("--no-cors", action="store_true", help="no CORS at all (stock SDK: preflight gets 405)")
    parser.add_argument("--static", metavar="DIR", help="also serve DIR at / on the same origin")
    parser.add_argument(
        "--state-key",
        metavar="SECRET",
        help="requestState sealing key (>= 32 chars) so a restarted server accepts old replays",
    )
    parser.add_argument("--trace", metavar="FILE", help="append every HTTP exchange to FILE as JSON lines")
    parser.add_argument(
        "--arrivals",
        metavar="FILE",
        help="append a JSON line to FILE the moment each HTTP request arrives (before it ends)",
    )
    parser.add_argument(
        "--resumable",
        action="store_true",
        help="keep events in an in-memory event store (SSE streams resumable with Last-Event-ID), retry: 200",
    )
    parser.add_argument(
        "--region-header",
        default="Region",
        metavar="NAME",
        help="book_in_region mirrors region in Mcp-Param-NAME (a changed schema, for -32020 recovery)",
    )
    parser.add_argument(
        "--stateless",
        action="store_true",
        help="the SDK's stateless_http: 2025-11-25 sessions get no Mcp-Session-Id (and no GET stream)",
    )
    parser.add_argument(
        "--stall-discover",
        action="store_true",
        help="never answer server/discover (a client's Auto probe must time out and fall back)",
    )
    args = parser.parse_args(argv)
    cors = None if args.no_cors else (args.cors_origins or [])
    app = build_app(
        args.host,
        cors,
        args.static,
        args.state_key,
        args.trace,
        resumable=args.resumable,
        region_header=args.region_header,
        stateless=args.stateless,
        stall_discover=args.stall_discover,
        arrivals=args.arrivals,
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
