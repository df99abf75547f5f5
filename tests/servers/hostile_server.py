"""A hostile MCP server: hand-written Streamable HTTP (standard library only, no SDK), so it
can break every rule a real server keeps. Both eras on one endpoint, `/mcp`:

- legacy (2025-11-25): `initialize` answers with an `Mcp-Session-Id`; `tools/call` answers
  with an SSE stream that carries the server's requests (`elicitation/create`, `ping`)
  and then the result; the client POSTs its answers (202); `GET /mcp` opens the session's
  stream (and resumes one with `Last-Event-ID`); `DELETE /mcp` ends the session.
- modern (2026-07-28): a request whose `params._meta` carries the protocol version;
  `server/discover`; `tools/call` answers `InputRequiredResult` rounds (`inputRequests` +
  `requestState`) and the client replays with `inputResponses`.

CORS for any loopback page origin (as `demo_server.py` does): preflight is answered with
whatever headers the page asks for, `mcp-session-id` is exposed.

The server's name (`serverInfo.name`, `--name`) is markup by default, so every card that
says who is asking shows it: it must appear as text. `--flood-discover` answers
`server/discover` (Auto's probe) with the SSE id amplification of `sse_id_flood`.

Tools: one per misbehaviour (see each `tool_*` function's docstring for exactly what it
sends and what it returns). Two well-behaved tools show that the page still works after a
hostile one: `echo(text)` returns `echo: {text}`; `ask_name()` asks one form question
(`What is your name?`, a required string `name`) and returns `hello {name}` (or
`ask_name: {action}`).

Trace (`--trace FILE`): one JSON line per message received, written when it arrives (a
POST that is never answered is in it too): `{"t": seconds, "kind": "request" |
"notification" | "answer" | "get" | "delete", "era", "method", "id", "tool", "session",
"last_event_id", "size"}` (a `notifications/cancelled` also logs `"kind": "cancelled"`
with its `request_id` and `reason`); answers add `"action"` (or `"error"`) and `"expected"` (whether
the server was waiting for that id). Answers to pings are only counted (there may be a
million). `GET /stats` (no CORS needed: tests read it directly) returns the counters:
`ping_answers`, `answers` (by id), `unexpected_answers`, `reconnects` (times of each GET
that resumed a `retry_zero` stream), `hung` (POSTs held open), `hung_closed` (of those,
the ones the client closed).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import secrets
import select
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODERN = "2026-07-28"
LEGACY = "2025-11-25"
ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

MARKUP = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
"""Put in every text field a server chooses: rendered as HTML it would set `window.__pwned`."""
DEFAULT_NAME = f"Hostile {MARKUP}"

LOOPBACK_ORIGIN = re.compile(r"^http://(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$")

ANSWER_WAIT_S = 300.0
"""How long a legacy call waits for the client's answer before giving up on it."""
HANG_S = 600.0
"""How long a POST that "never answers" is held open (then the connection is closed)."""
ENDLESS_S = 600.0
"""How long the endless stream goes on if the client never goes away."""
RETRY_ZERO_CLOSES = 5
"""How many times `retry_zero` closes the resumed stream at once before it delivers."""

FORM_MEMBER_NAMES = [
    "action", "elements", "length", "submit", "reset", "method", "target", "name", "id",
    "insertBefore", "contains", "appendChild", "removeChild", "replaceChild", "children",
    "childNodes", "firstChild", "lastChild", "parentNode", "nodeName", "nodeType",
    "ownerDocument", "attributes", "style", "innerHTML", "outerHTML", "textContent",
    "encoding", "enctype", "acceptCharset", "autocomplete", "noValidate", "checkValidity",
    "reportValidity", "requestSubmit", "item", "namedItem", "querySelector",
    "addEventListener", "dispatchEvent", "getAttribute", "setAttribute", "focus", "click",
    "hidden", "title", "className", "classList", "dataset", "constructor", "toString",
    "valueOf", "hasOwnProperty", "__proto__",
]
"""Property names that are members of HTMLFormElement (and of every object): a form that
looks up a control as `form[name]` gets the member instead."""


class ClientGone(Exception):
    """The client closed the connection while the server was writing."""


class Done(Exception):
    """The response to the current request has been sent."""


# --- trace and counters ------------------------------------------------------------------


class Trace:
    def __init__(self, path: str | None):
        self.path = path
        self.lock = threading.Lock()
        self.ping_answers = 0
        self.answers: Counter[str] = Counter()
        self.unexpected_answers = 0
        self.reconnects: list[float] = []
        self.hung = 0
        self.hung_closed = 0

    def log(self, **record: Any) -> None:
        if self.path is None:
            return
        record["t"] = round(time.time(), 4)
        line = json.dumps(record, default=str)
        with self.lock, open(self.path, "a", encoding="utf-8") as out:
            out.write(line + "\n")

    def stats(self) -> dict[str, Any]:
        with self.lock:
            return {
                "ping_answers": self.ping_answers,
                "answers": dict(self.answers),
                "unexpected_answers": self.unexpected_answers,
                "reconnects": list(self.reconnects),
                "hung": self.hung,
                "hung_closed": self.hung_closed,
            }


TRACE = Trace(None)


# --- legacy sessions -----------------------------------------------------------------------


class Session:
    """One legacy session: the server's request ids, and who waits for which answer."""

    def __init__(self) -> None:
        self.id = secrets.token_hex(16)
        self.lock = threading.Lock()
        self.next_id = 0
        self.waiting: dict[str, queue.Queue[dict[str, Any]]] = {}
        # Answer POSTs to fault on purpose: id -> "hang" | "503" (once each).
        self.answer_faults: dict[str, str] = {}
        # retry_zero calls: key -> (the client's request id, closes so far).
        self.resumable: dict[str, list[Any]] = {}
        self.broadcast: queue.Queue[bytes] = queue.Queue()
        # Answers to `many_requests`'s questions, whatever their id.
        self.many: queue.Queue[dict[str, Any]] = queue.Queue()
        # The request ids the client's `notifications/cancelled` named (as JSON).
        self.cancelled: set[str] = set()
        # The task ids the client's `tasks/cancel` named.
        self.cancelled_tasks: set[str] = set()

    def new_id(self) -> int:
        with self.lock:
            rid = self.next_id
            self.next_id += 1
            return rid

    def expect(self, rid: Any) -> queue.Queue[dict[str, Any]]:
        with self.lock:
            return self.waiting.setdefault(json.dumps(rid), queue.Queue())

    def deliver(self, message: dict[str, Any]) -> bool:
        key = json.dumps(message.get("id"))
        rid = message.get("id")
        if isinstance(rid, str) and rid.startswith("many-"):
            self.many.put(message)
            return True
        with self.lock:
            waiter = self.waiting.get(key)
        if waiter is None:
            return False
        waiter.put(message)
        return True


SESSIONS: dict[str, Session] = {}
SESSIONS_LOCK = threading.Lock()


# --- wire helpers ------------------------------------------------------------------------


def sse(message: Any = None, *, raw: str | None = None, event_id: str | None = None, retry: int | None = None) -> bytes:
    """One SSE event: `message` as compact JSON (or `raw` text) in one `data:` line."""
    lines = []
    if retry is not None:
        lines.append(f"retry: {retry}")
    if event_id is not None:
        lines.append(f"id: {event_id}")
    data = raw if raw is not None else (json.dumps(message, separators=(",", ":")) if message is not None else "")
    lines.append(f"data: {data}")
    return ("\n".join(lines) + "\n\n").encode()


def text_result(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": False}


def form(message: str, properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    """`elicitation/create` params of a form question."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return {"mode": "form", "message": message, "requestedSchema": schema}


def url_question(message: str, url: str, elicitation_id: str) -> dict[str, Any]:
    return {"mode": "url", "message": message, "url": url, "elicitationId": elicitation_id}


def action_of(answer: dict[str, Any] | None) -> str:
    if answer is None:
        return "none"
    if "error" in answer:
        return "error"
    result = answer.get("result", answer)
    return str(result.get("action", "?")) if isinstance(result, dict) else "?"


def content_of(answer: dict[str, Any] | None) -> dict[str, Any]:
    if not answer:
        return {}
    result = answer.get("result", answer)
    content = result.get("content") if isinstance(result, dict) else None
    return content if isinstance(content, dict) else {}


class Call:
    """One `tools/call`, either era. Tools are written once for both:

    - `ask(key, params)` / `ask_all({key: params})` return the answers. Legacy: the requests
      go out on the POST's SSE stream and the call waits for the client's answer POSTs.
      Modern: the answers are in `inputResponses` of a replay; if not, an
      `InputRequiredResult` is sent (with `state`) and the call ends (`Done`).
    - `finish(result)` sends the result; `stream()` switches the response to SSE.
    """

    def __init__(self, handler: Handler, era: str, rid: Any, name: str, params: dict[str, Any], session: Session | None):
        self.h = handler
        self.era = era
        self.rid = rid
        self.name = name
        self.params = params
        self.args = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
        self.session = session
        responses = params.get("inputResponses")
        self.responses: dict[str, Any] | None = responses if isinstance(responses, dict) else None
        self.state: Any = params.get("requestState")
        self.streaming = False

    # --- output

    def result_message(self, result: dict[str, Any]) -> dict[str, Any]:
        body = dict(result)
        if self.era == MODERN:
            body.setdefault("resultType", "complete")
            body["_meta"] = {SERVER_INFO_KEY: self.h.server_info()}
        return {"jsonrpc": "2.0", "id": self.rid, "result": body}

    def stream(self) -> None:
        if not self.streaming:
            self.h.start_sse(self.session)
            self.streaming = True

    def write(self, data: bytes) -> None:
        self.stream()
        self.h.write(data)

    def send(self, message: Any) -> None:
        self.write(sse(message))

    def finish(self, result: dict[str, Any]) -> None:
        message = self.result_message(result)
        if self.streaming:
            self.send(message)
        else:
            self.h.reply_json(message)
        raise Done

    def finish_text(self, text: str) -> None:
        self.finish(text_result(text))

    # --- questions

    def ask(self, key: str, params: dict[str, Any], state: str = "hostile") -> dict[str, Any] | None:
        return self.ask_all({key: params}, state)[key]

    def ask_all(
        self, requests: dict[str, dict[str, Any]], state: str = "hostile", method: str = "elicitation/create"
    ) -> dict[str, dict[str, Any] | None]:
        if self.era == MODERN:
            if self.responses is not None and all(k in self.responses for k in requests):
                return {k: self.responses[k] for k in requests}
            body = {
                "resultType": "input_required",
                "inputRequests": {k: {"method": method, "params": p} for k, p in requests.items()},
                "requestState": state,
                "_meta": {SERVER_INFO_KEY: self.h.server_info()},
            }
            self.h.reply_json({"jsonrpc": "2.0", "id": self.rid, "result": body})
            raise Done
        assert self.session is not None
        ids = {k: self.session.new_id() for k in requests}
        waiters = {k: self.session.expect(ids[k]) for k in requests}
        for k, p in requests.items():
            self.send({"jsonrpc": "2.0", "id": ids[k], "method": method, "params": p})
        out: dict[str, dict[str, Any] | None] = {}
        for k, waiter in waiters.items():
            out[k] = self.wait(waiter)
        return out

    def wait(self, waiter: queue.Queue[dict[str, Any]]) -> dict[str, Any] | None:
        """The next answer in `waiter`; meanwhile a comment every second (a gone client ends it)."""
        deadline = time.monotonic() + ANSWER_WAIT_S
        while time.monotonic() < deadline:
            try:
                return waiter.get(timeout=1.0)
            except queue.Empty:
                self.write(b": waiting\n\n")
        return None


# --- the tools -----------------------------------------------------------------------------

EMPTY = {"type": "object", "properties": {}}
TOOLS: dict[str, tuple[dict[str, Any], Callable[[Call], None]]] = {}


def tool(
    schema: dict[str, Any] | None = None, title: str | None = None, execution: dict[str, Any] | None = None
) -> Callable[[Callable[[Call], None]], Callable[[Call], None]]:
    def register(fn: Callable[[Call], None]) -> Callable[[Call], None]:
        name = fn.__name__.removeprefix("tool_")
        doc = (fn.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
        entry: dict[str, Any] = {"name": name, "description": doc, "inputSchema": schema or EMPTY}
        if title:
            entry["title"] = title
        if execution:
            entry["execution"] = execution
        TOOLS[name] = (entry, fn)
        return fn

    return register


@tool({"type": "object", "properties": {"text": {"type": "string", "title": "Text"}}})
def tool_echo(c: Call) -> None:
    """A well-behaved tool: returns `echo: {text}`."""
    c.finish_text(f"echo: {c.args.get('text', '')}")


@tool()
def tool_ask_name(c: Call) -> None:
    """A well-behaved question: `What is your name?` (required string `name`), then
    `hello {name}` or `ask_name: {action}`."""
    answer = c.ask("name", form("What is your name?", {"name": {"type": "string", "title": "Name"}}, ["name"]))
    if action_of(answer) == "accept":
        c.finish_text(f"hello {content_of(answer).get('name', '')}")
    c.finish_text(f"ask_name: {action_of(answer)}")


@tool()
def tool_sse_id_flood(c: Call) -> None:
    """SSE id amplification: the response stream opens with a 4 MiB `id:` line, then
    20,000 `data` events (each inherits that id), then the result `the id flood is over`.
    Both eras (modern: the tools/call response is that stream)."""
    c.write(b"id: " + b"i" * (4 * 1024 * 1024) + b"\n")
    c.write(b"data\n\n" * 20_000)
    c.finish_text("the id flood is over")


@tool()
def tool_many_options(c: Call) -> None:
    """A multi-select of 20,000 options (`o0` .. `o19999`, untitled), message
    `Pick any of 20,000 options.`; returns `picked {n}: {values}`."""
    items = {"type": "string", "enum": [f"o{i}" for i in range(20_000)]}
    answer = c.ask("pick", form("Pick any of 20,000 options.", {"picks": {"type": "array", "title": "Picks", "items": items}}))
    picks = content_of(answer).get("picks", [])
    c.finish_text(f"picked {len(picks)}: {' '.join(map(str, picks))}" if action_of(answer) == "accept" else action_of(answer))


@tool()
def tool_form_members(c: Call) -> None:
    """A form whose property names are HTMLFormElement members (`FORM_MEMBER_NAMES`:
    insertBefore, contains, submit, action, elements, length, ...), each a string with the
    default `v-{name}`, message `Form member names.`; returns `all {n} fields came back`
    or `missing: {names}`."""
    props = {n: {"type": "string", "default": f"v-{n}"} for n in FORM_MEMBER_NAMES}
    answer = c.ask("members", form("Form member names.", props))
    if action_of(answer) != "accept":
        c.finish_text(action_of(answer))
    got = content_of(answer)
    missing = [n for n in FORM_MEMBER_NAMES if got.get(n) != f"v-{n}"]
    c.finish_text(f"missing: {' '.join(missing)}" if missing else f"all {len(FORM_MEMBER_NAMES)} fields came back")


@tool()
def tool_many_properties(c: Call) -> None:
    """10^5 string properties (`p0` .. `p99999`) in one form, message
    `One hundred thousand fields.`; returns `{action}: {n} values`."""
    props = {f"p{i}": {"type": "string"} for i in range(100_000)}
    answer = c.ask("many", form("One hundred thousand fields.", props))
    c.finish_text(f"{action_of(answer)}: {len(content_of(answer))} values")


DEEP_LEVELS = 100_000


@tool()
def tool_deep_nesting(c: Call) -> None:
    """A requestedSchema nested 10^5 objects deep (`{"a": {"type": "object", "properties":
    {"a": ...`), message `Deep schema.`. Legacy: the request, then the result `the deep
    schema was sent` at once (the client cannot answer what it cannot read); modern: an
    `InputRequiredResult` carrying it (a replay gets `deep: {action}`)."""
    inner = '{"type":"string"}'
    deep = '{"type":"object","properties":{"a":' * DEEP_LEVELS + inner + "}}" * DEEP_LEVELS
    params = '{"mode":"form","message":"Deep schema.","requestedSchema":' + deep + "}"
    if c.era == MODERN:
        if c.responses is not None:
            c.finish_text(f"deep: {action_of(c.responses.get('deep'))}")
        info = json.dumps(c.h.server_info())
        body = (
            '{"jsonrpc":"2.0","id":' + json.dumps(c.rid) + ',"result":{"resultType":"input_required",'
            '"inputRequests":{"deep":{"method":"elicitation/create","params":' + params + '}},'
            '"requestState":"deep","_meta":{"' + SERVER_INFO_KEY + '":' + info + "}}}"
        )
        c.h.reply_raw_json(body.encode())
        raise Done
    assert c.session is not None
    rid = c.session.new_id()
    # An error answer to it is fair (the request's id is readable): it is expected.
    c.session.expect(rid)
    c.write(sse(raw='{"jsonrpc":"2.0","id":' + str(rid) + ',"method":"elicitation/create","params":' + params + "}"))
    c.finish_text("the deep schema was sent")


@tool()
def tool_many_enum(c: Call) -> None:
    """A single-select enum of 10^5 options (`e0` .. `e99999`), message
    `Choose one of 100,000.`; returns `chose {value}` or the action."""
    props = {"choice": {"type": "string", "title": "Choice", "enum": [f"e{i}" for i in range(100_000)]}}
    answer = c.ask("enum", form("Choose one of 100,000.", props))
    c.finish_text(f"chose {content_of(answer).get('choice')}" if action_of(answer) == "accept" else action_of(answer))


@tool()
def tool_huge_pattern(c: Call) -> None:
    """A string field `code` whose `pattern` is 1 MiB (`(a|b|c)*` repeated), default
    `abc`, message `Huge patterns.`; returns `{action}: {content}`."""
    huge = "(a|b|c)*" * (1024 * 1024 // 8)
    props = {"code": {"type": "string", "title": "Code", "pattern": huge, "default": "abc"}}
    answer = c.ask("pattern", form("Huge patterns.", props))
    c.finish_text(f"{action_of(answer)}: {json.dumps(content_of(answer))[:200]}")


@tool()
def tool_backtracking_pattern(c: Call) -> None:
    """One string field `nested` whose `pattern` is the backtracking trap `^(a+)+$`, with
    the default `aaaa...a!` (40 a's), message `Backtracking pattern.`; returns
    `{action}: {content}`."""
    props = {"nested": {"type": "string", "title": "Nested", "pattern": "^(a+)+$", "default": "a" * 40 + "!"}}
    answer = c.ask("pattern", form("Backtracking pattern.", props))
    c.finish_text(f"{action_of(answer)}: {json.dumps(content_of(answer))[:200]}")


CATASTROPHIC = {
    # name: (pattern, default): 10,000-character defaults, the client's text cap.
    "nested": ("^(a+)+$", "a" * 9999 + "!"),
    "starred": ("^(a|aa)*$", "a" * 9999 + "!"),
    "alternation": ("^(?:" + "|".join(f"x{k}" for k in range(300)) + ")+$", "x1" * 4999 + "!"),
    "backref": ("^(a|aa)+\\1b$", "a" * 9999 + "!"),
    "lookahead": ("^(?=.*\\d)(?=.*[a-z]).{8,}$", "abcdefg1"),
    "python": ("^(?P<w>[a-z]+)-(?P=w)$", "ab-ab"),
    "dialect": ("(?i)abc", "ABC"),
}


@tool()
def tool_catastrophic_patterns(c: Call) -> None:
    """One string field per entry of `CATASTROPHIC` (title = name), each with its pattern
    and default: nested and overlapping quantifiers on `a…a!`, a 300-branch alternation, a
    back-reference after a nested quantifier, a lookahead, a Python-dialect pattern and an
    inline flag; message `Catastrophic patterns.`; returns `{action}: name=length ...`."""
    props = {
        name: {"type": "string", "title": name, "pattern": p, "default": d} for name, (p, d) in CATASTROPHIC.items()
    }
    answer = c.ask("pattern", form("Catastrophic patterns.", props))
    got = content_of(answer)
    lengths = " ".join(f"{k}={len(str(got.get(k, '')))}" for k in CATASTROPHIC if k in got)
    c.finish_text(f"{action_of(answer)}: {lengths}")


BAD_URLS = {
    "js": "javascript:alert(document.domain)",
    "data": "data:text/html,<script>alert(1)</script>",
    "file": "file:///etc/passwd",
}


@tool()
def tool_bad_urls(c: Call) -> None:
    """Three URL-mode questions at once (legacy: three requests on the stream; modern: one
    round of three), message `Open {scheme} URL.`, with `javascript:`, `data:` and
    `file:` URLs; returns `answers: {a1} {a2} {a3}` (js, data, file order)."""
    questions = {k: url_question(f"Open {k} URL.", u, f"bad-{k}") for k, u in BAD_URLS.items()}
    answers = c.ask_all(questions)
    c.finish_text("answers: " + " ".join(action_of(answers[k]) for k in BAD_URLS))


@tool(title=f"Markup {MARKUP}")
def tool_markup(c: Call) -> None:
    """Markup in every text field: the message, the schema's title and description, each
    property's title and description, enum titles (the tool's title and the server's name
    too); returns the answer's `choice` after `answer: ` (markup again)."""
    props = {
        "note": {"type": "string", "title": f"Note {MARKUP}", "description": f"Desc {MARKUP}", "default": MARKUP},
        "choice": {
            "type": "string",
            "title": f"Choice {MARKUP}",
            "oneOf": [{"const": "a", "title": f"A {MARKUP}"}, {"const": "b", "title": f"B {MARKUP}"}],
        },
        "many": {
            "type": "array",
            "title": f"Many {MARKUP}",
            "items": {"anyOf": [{"const": "x", "title": f"X {MARKUP}"}, {"const": "y", "title": f"Y {MARKUP}"}]},
        },
    }
    params = form(f"Message {MARKUP}", props)
    params["requestedSchema"]["title"] = f"Title {MARKUP}"
    params["requestedSchema"]["description"] = f"Description {MARKUP}"
    answer = c.ask("markup", params)
    c.finish_text(f"answer: {action_of(answer)} {content_of(answer).get('choice')} {MARKUP}")


@tool()
def tool_long_line(c: Call) -> None:
    """A `data:` line of 20 MiB with no newline on the response stream, then the
    connection closes (both eras). There is no result."""
    c.write(b"data: ")
    chunk = b"x" * (1024 * 1024)
    for _ in range(20):
        c.write(chunk)
    raise Done


@tool()
def tool_endless_stream(c: Call) -> None:
    """An endless response stream: comments and empty events (`:` and `data` lines), 40
    every 20 ms, until the client goes away (or `ENDLESS_S`). There is no result."""
    burst = b": still here\n\n" + b"data\n\n" * 39
    deadline = time.monotonic() + ENDLESS_S
    while time.monotonic() < deadline:
        c.write(burst)
        time.sleep(0.02)
    raise Done


@tool()
def tool_duplicate_ids(c: Call) -> None:
    """Duplicate ids. Legacy: two `elicitation/create` requests with the same JSON-RPC id
    (messages `First of two with one id.` and `Second of two with one id.`); modern: the
    key `dup` twice in one `inputRequests` (raw JSON). Then the result `answered: {action}`,
    and (legacy) the same response id again with `SECOND RESULT`, which must be ignored."""
    first = form("First of two with one id.", {"ok": {"type": "boolean", "title": "Ok"}})
    second = form("Second of two with one id.", {"ok": {"type": "boolean", "title": "Ok"}})
    if c.era == MODERN:
        if c.responses is not None:
            c.finish_text(f"answered: {action_of(c.responses.get('dup'))}")
        info = json.dumps(c.h.server_info())
        entry = '{"method":"elicitation/create","params":%s}'
        body = (
            '{"jsonrpc":"2.0","id":' + json.dumps(c.rid) + ',"result":{"resultType":"input_required",'
            '"inputRequests":{"dup":' + entry % json.dumps(first) + ',"dup":' + entry % json.dumps(second) + "},"
            '"requestState":"dup","_meta":{"' + SERVER_INFO_KEY + '":' + info + "}}}"
        )
        c.h.reply_raw_json(body.encode())
        raise Done
    assert c.session is not None
    rid = c.session.new_id()
    waiter = c.session.expect(rid)
    c.send({"jsonrpc": "2.0", "id": rid, "method": "elicitation/create", "params": first})
    c.send({"jsonrpc": "2.0", "id": rid, "method": "elicitation/create", "params": second})
    answer = c.wait(waiter)
    c.send(c.result_message(text_result(f"answered: {action_of(answer)}")))
    c.send(c.result_message(text_result("SECOND RESULT")))
    raise Done


STRAY_IDS: list[Any] = [987654, "never-sent", -1, ""]
"""Well-formed ids (integers and strings) the client never used."""
MALFORMED_IDS: list[Any] = [None, {"an": "object"}, [1], 1.5, True]
"""Ids JSON-RPC does not allow in a response to a request (`null` only for "could not read
your request")."""


def strays(ids: list[Any]) -> list[bytes]:
    out = []
    for sid in ids:
        out.append(sse({"jsonrpc": "2.0", "id": sid, "result": text_result("STRAY RESULT")}))
        out.append(sse({"jsonrpc": "2.0", "id": sid, "error": {"code": -32603, "message": "STRAY ERROR"}}))
    return out


@tool()
def tool_stray_responses(c: Call) -> None:
    """Responses to requests never sent: on the response stream (both eras) and on the
    session's GET stream (legacy), results and errors with well-formed ids the client
    never used (`STRAY_IDS`), then the result `strays ignored`."""
    events = strays(STRAY_IDS)
    if c.session is not None:
        for event in events:
            c.session.broadcast.put(event)
    for event in events:
        c.write(event)
    c.finish_text("strays ignored")


@tool()
def tool_malformed_ids(c: Call) -> None:
    """Results and errors whose ids are `null`, objects, arrays, fractions and booleans
    (`MALFORMED_IDS`) on the response stream, then the result `malformed ids ignored`. A
    client may ignore them or fail this call in words; none is any call's result."""
    for event in strays(MALFORMED_IDS):
        c.write(event)
    c.finish_text("malformed ids ignored")


@tool()
def tool_wrong_id(c: Call) -> None:
    """The only response carries another id (the request's id + 1000, or `"x"`), so the
    call never gets its answer: legacy on the stream, then it closes; modern as the JSON
    body. The client must say so, not show it as this call's result."""
    other = c.rid + 1000 if isinstance(c.rid, int) and not isinstance(c.rid, bool) else "x"
    message = c.result_message(text_result("ANSWER FOR ANOTHER REQUEST"))
    message["id"] = other
    if c.era == MODERN:
        c.h.reply_json(message)
    else:
        c.send(message)
    raise Done


@tool({"type": "object", "properties": {"count": {"type": "integer", "title": "Count", "default": 1_000_000}}})
def tool_ping_flood(c: Call) -> None:
    """`count` (default 10^6) `ping` requests (ids `ping-{n}`) on the response stream,
    then the result `pinged {count} times` (both eras; modern clients cannot answer)."""
    count = c.args.get("count", 1_000_000)
    count = count if isinstance(count, int) and 0 <= count <= 10_000_000 else 1_000_000
    batch = 10_000
    for start in range(0, count, batch):
        c.write(b"".join(sse({"jsonrpc": "2.0", "id": f"ping-{n}", "method": "ping"}) for n in range(start, min(count, start + batch))))
    c.finish_text(f"pinged {count} times")


@tool()
def tool_endless_rounds(c: Call) -> None:
    """Never stops asking: every accepted answer gets `Round {n}: again?` (a boolean `ok`);
    modern: every round is `input_required` (state `round-{n}`); decline or cancel returns
    `stopped at round {n}: {action}`."""
    n = 1
    if c.era == MODERN and isinstance(c.state, str) and c.state.startswith("round-"):
        n = int(c.state.removeprefix("round-")) if c.state.removeprefix("round-").isdigit() else 1
    while True:
        answer = c.ask(f"r{n}", form(f"Round {n}: again?", {"ok": {"type": "boolean", "title": "Ok"}}), state=f"round-{n}")
        if action_of(answer) != "accept":
            c.finish_text(f"stopped at round {n}: {action_of(answer)}")
        n += 1
        # The next question is a new round (modern: the answers so far are spent).
        c.responses = None


HUGE_STATE = "s" * (16 * 1024 * 1024)


@tool()
def tool_huge_state(c: Call) -> None:
    """Modern: a round with a 16 MiB `requestState` and one question (`Huge state.`, a
    boolean `ok`); the replay returns `state came back whole` or `state came back with
    {n} bytes`. Legacy (no requestState): `modern only`."""
    if c.era != MODERN:
        c.finish_text("modern only")
    answer = c.ask("huge", form("Huge state.", {"ok": {"type": "boolean", "title": "Ok"}}), state=HUGE_STATE)
    state = c.state if isinstance(c.state, str) else ""
    c.finish_text(f"{action_of(answer)}: state came back whole" if state == HUGE_STATE else f"state came back with {len(state)} bytes")


@tool()
def tool_many_requests(c: Call) -> None:
    """10^5 questions at once (`Question {n} of 100,000.`, a boolean `ok`). Modern: one
    round with 10^5 `inputRequests` (a replay returns `{k} answers`). Legacy: 10^5
    `elicitation/create` requests (ids `many-{n}`), then the result `first answer: {action}
    after {e} refusals` as soon as one answer is not an error."""
    questions = {f"q{n}": form(f"Question {n} of 100,000.", {"ok": {"type": "boolean", "title": "Ok"}}) for n in range(100_000)}
    if c.era == MODERN:
        c.ask_all(questions)
        c.finish_text(f"{len(c.responses or {})} answers")
    assert c.session is not None
    batch: list[bytes] = []
    for n, params in enumerate(questions.values()):
        batch.append(sse({"jsonrpc": "2.0", "id": f"many-{n}", "method": "elicitation/create", "params": params}))
        if len(batch) == 5_000:
            c.write(b"".join(batch))
            batch = []
    c.write(b"".join(batch))
    refusals = 0
    while True:
        try:
            answer = c.session.many.get(timeout=1.0)
        except queue.Empty:
            c.write(b": waiting\n\n")
            continue
        if "error" in answer:
            refusals += 1
            continue
        c.finish_text(f"first answer: {action_of(answer)} after {refusals} refusals")


BIG_RESULT = (
    '{"content":[{"type":"text","text":"big numbers"}],"isError":false,'
    '"structuredContent":{"id":9007199254740993,"neg":-9223372036854775808,"max":18446744073709551615,'
    '"small":12,"__proto__":{"polluted":"yes"},"nested":{"__proto__":[1,2]}}'
)


@tool()
def tool_big_numbers(c: Call) -> None:
    """A result whose `structuredContent` has integers beyond 2^53 (`id`
    9007199254740993, int64 min, uint64 max) and `__proto__` keys (`{"polluted": "yes"}`
    at the top, an array inside `nested`); its text is `big numbers`. Raw JSON: what
    `JSON.parse` makes of it is the expected value."""
    meta = ""
    if c.era == MODERN:
        meta = ',"resultType":"complete","_meta":{"' + SERVER_INFO_KEY + '":' + json.dumps(c.h.server_info()) + "}"
    body = '{"jsonrpc":"2.0","id":' + json.dumps(c.rid) + ',"result":' + BIG_RESULT + meta + "}}"
    if c.era == MODERN:
        c.h.reply_raw_json(body.encode())
    else:
        c.write(sse(raw=body))
    raise Done


@tool()
def tool_retry_zero(c: Call) -> None:
    """Legacy: the response stream is a priming event (`retry: 0`, an `id:`) and then
    closes at once; each GET that resumes it (`Last-Event-ID`) gets `retry: 0` and an
    immediate close again, `RETRY_ZERO_CLOSES` times; the next one delivers the result
    `resumed after {n} closes`. `/stats` has the time of every resume. Modern: `legacy only`."""
    if c.era != MODERN and c.session is not None:
        key = secrets.token_hex(4)
        c.session.resumable[key] = [c.rid, 0]
        c.write(sse(raw="", event_id=f"rz-{key}-0", retry=0))
        raise Done
    c.finish_text("legacy only")


@tool()
def tool_progress_on_get(c: Call) -> None:
    """Legacy: `notifications/progress` for this call sent on the session's GET stream, not
    on the call's own: first one for a token the client never sent (`NOT THIS CALL`, total
    9), then one for the call's `progressToken` (1 of 2, `Half done, said on the session
    stream`). The call then runs until the client cancels it (`notifications/cancelled`)."""
    meta = c.params.get("_meta") if isinstance(c.params.get("_meta"), dict) else {}
    token = meta.get("progressToken")
    if c.session is None or not isinstance(token, (str, int)):
        c.finish_text("legacy only, with a progress token")
        return
    def progress(of: Any, total: int, message: str) -> bytes:
        params = {"progressToken": of, "progress": 1, "total": total, "message": message}
        return sse({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
    c.session.broadcast.put(progress(f"{token}-not-yours", 9, "NOT THIS CALL"))
    c.session.broadcast.put(progress(token, 2, "Half done, said on the session stream"))
    deadline = time.monotonic() + ANSWER_WAIT_S
    while time.monotonic() < deadline and json.dumps(c.rid) not in c.session.cancelled:
        c.write(b": working\n\n")
        time.sleep(0.2)
    raise Done


TASK_POLL_MS = 30_000
"""The `pollInterval` of `task_status_on_get`'s task: its news comes by notification."""


def task_body(task_id: str, status: str, message: str | None = None) -> dict[str, Any]:
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    body: dict[str, Any] = {
        "taskId": task_id, "status": status, "createdAt": now, "lastUpdatedAt": now, "ttl": None,
        "pollInterval": TASK_POLL_MS,
    }
    if message is not None:
        body["statusMessage"] = message
    return body


@tool(execution={"taskSupport": "required"})
def tool_task_status_on_get(c: Call) -> None:
    """Legacy, with `--tasks`: called as a task, answered with a `working` task (polled
    every 30 s), whose `notifications/tasks/status` go on the session's GET stream, not on
    the call's: every 0.3 s, one for another task id (`NOT THIS TASK`), then one for this
    task (`Said on the session stream`), until the client sends `tasks/cancel`."""
    session = c.session
    if session is None or not isinstance(c.params.get("task"), dict):
        c.finish_text("a task only (legacy, --tasks)")
        return
    task_id = f"task-{secrets.token_hex(4)}"

    def status(of: str, message: str) -> bytes:
        return sse({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": task_body(of, "working", message)})

    def tell() -> None:
        deadline = time.monotonic() + ANSWER_WAIT_S
        while time.monotonic() < deadline and task_id not in session.cancelled_tasks:
            with SESSIONS_LOCK:
                if session.id not in SESSIONS:
                    return
            session.broadcast.put(status(f"{task_id}-not-yours", "NOT THIS TASK"))
            session.broadcast.put(status(task_id, "Said on the session stream"))
            time.sleep(0.3)

    threading.Thread(target=tell, daemon=True).start()
    c.finish({"task": task_body(task_id, "working")})


# --- the Tasks extension (2026-07-28) --------------------------------------------------------
#
# Written from the text of SEP-2663 ("Tasks Extension", Status: Final), file
# seps/2663-tasks-extension.md of modelcontextprotocol/modelcontextprotocol at commit 9b44c6b4
# (2026-07-22): no SDK ships its server side. With `--tasks`, `server/discover` declares
# `extensions["io.modelcontextprotocol/tasks"]`, and the `ext_task_*` tools, called by a client
# that declares the extension in the request's `_meta` client capabilities, answer with a
# `CreateTaskResult` (`resultType: "task"`, flat: `taskId`, `status`, `createdAt`,
# `lastUpdatedAt`, `ttlMs`, `pollIntervalMs`); one called without it gets -32021 naming the
# extension. `tasks/get` returns the `DetailedTask` (`resultType: "complete"`; `inputRequests`
# when `input_required`, `result` when `completed`, `error` when `failed`); `tasks/update` takes
# `inputResponses` for outstanding keys (others ignored) and acks empty; `tasks/cancel` acks
# empty and the task settles to `cancelled`. Unknown task: -32602. The trace logs
# `tasks_update` (with the params' keys and the response keys) and `tasks_cancel`.

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
EXT_POLL_MS = 500
"""The `pollIntervalMs` of every task here (the client's shortest wait)."""


class ExtTask:
    """One task of the extension; `worker` runs it in a thread."""

    def __init__(self) -> None:
        self.id = secrets.token_hex(16)
        self.lock = threading.Lock()
        self.status = "working"
        self.message: str | None = None
        self.created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        self.updated = self.created
        self.input_requests: dict[str, Any] = {}
        self.responses: dict[str, Any] = {}
        self.result: dict[str, Any] | None = None
        self.error: dict[str, Any] | None = None
        self.cancel_asked = False

    def set(self, status: str, message: str | None = None, **fields: Any) -> None:
        with self.lock:
            if self.status in ("completed", "failed", "cancelled"):
                return
            self.status = status
            self.message = message
            self.updated = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            self.input_requests = fields.get("input_requests") or {}
            self.result = fields.get("result")
            self.error = fields.get("error")

    def body(self) -> dict[str, Any]:
        with self.lock:
            out: dict[str, Any] = {
                "taskId": self.id, "status": self.status, "createdAt": self.created,
                "lastUpdatedAt": self.updated, "ttlMs": 600_000, "pollIntervalMs": EXT_POLL_MS,
            }
            if self.message is not None:
                out["statusMessage"] = self.message
            if self.status == "input_required":
                out["inputRequests"] = dict(self.input_requests)
            if self.status == "completed":
                out["result"] = self.result
            if self.status == "failed":
                out["error"] = self.error
            return out

    def wait(self, until: Callable[[], bool]) -> bool:
        """Waits (bounded by `ANSWER_WAIT_S`) until `until()` or a cancel; False on cancel."""
        deadline = time.monotonic() + ANSWER_WAIT_S
        while time.monotonic() < deadline:
            with self.lock:
                if self.cancel_asked:
                    break
                if until():
                    return True
            time.sleep(0.05)
        self.set("cancelled", "The client cancelled the task.")
        return False


EXT_TASKS: dict[str, ExtTask] = {}
EXT_TASKS_LOCK = threading.Lock()
EXT_TASK_WORK: dict[str, Callable[[ExtTask, dict[str, Any]], None]] = {}


def declares_tasks(params: dict[str, Any]) -> bool:
    meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
    caps = meta.get(CLIENT_CAPABILITIES) if isinstance(meta.get(CLIENT_CAPABILITIES), dict) else {}
    extensions = caps.get("extensions") if isinstance(caps.get("extensions"), dict) else {}
    return TASKS_EXTENSION in extensions


def ext_task_tool(fn: Callable[[ExtTask, dict[str, Any]], None]) -> Callable[[ExtTask, dict[str, Any]], None]:
    """Registers `fn` as a tool the server runs as a task of the extension (modern only)."""
    name = fn.__name__.removeprefix("work_")

    def start(c: Call) -> None:
        if c.era != MODERN or not declares_tasks(c.params):
            c.h.reply_json({"jsonrpc": "2.0", "id": c.rid, "error": {
                "code": -32021, "message": "Missing required client capability",
                "data": {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}},
            }})
            raise Done
        task = ExtTask()
        with EXT_TASKS_LOCK:
            EXT_TASKS[task.id] = task
        # Created before it is answered: a tasks/get for it resolves at once (the SEP's MUST).
        threading.Thread(target=fn, args=(task, c.args), daemon=True).start()
        c.finish({**task.body(), "resultType": "task"})

    start.__name__ = f"tool_{name}"
    start.__doc__ = fn.__doc__
    tool()(start)
    return fn


@ext_task_tool
def work_ext_task_ask(task: ExtTask, args: dict[str, Any]) -> None:
    """A task of the extension (2026-07-28, `--tasks`) that asks `What is your name?` (key
    `name`, a required string) by `input_required`, then answers `hello {name}` (or
    `ext_task_ask: {action}`)."""
    time.sleep(0.2)
    question = form("What is your name?", {"name": {"type": "string", "title": "Name"}}, ["name"])
    task.set("input_required", "Waiting for your name",
             input_requests={"name": {"method": "elicitation/create", "params": question}})
    if not task.wait(lambda: "name" in task.responses):
        return
    answer = task.responses.get("name")
    task.set("working", "Got the name")
    time.sleep(0.2)
    text = f"hello {content_of(answer).get('name', '')}" if action_of(answer) == "accept" else f"ext_task_ask: {action_of(answer)}"
    task.set("completed", result=text_result(text))


@ext_task_tool
def work_ext_task_done(task: ExtTask, args: dict[str, Any]) -> None:
    """A task of the extension that works a moment (`Working on it`) and completes: `task done`."""
    task.set("working", "Working on it")
    time.sleep(0.6)
    task.set("completed", "Done", result=text_result("task done"))


@ext_task_tool
def work_ext_task_fails(task: ExtTask, args: dict[str, Any]) -> None:
    """A task of the extension that fails with a JSON-RPC error (-32603 `The backend broke.`)."""
    time.sleep(0.3)
    task.set("failed", "Tool execution failed", error={"code": -32603, "message": "The backend broke."})


@ext_task_tool
def work_ext_task_cancelled(task: ExtTask, args: dict[str, Any]) -> None:
    """A task of the extension that the server cancels itself (`The operator said no.`)."""
    time.sleep(0.3)
    task.set("cancelled", "The operator said no.")


@ext_task_tool
def work_ext_task_slow(task: ExtTask, args: dict[str, Any]) -> None:
    """A task of the extension that works (`Still working`) until the client cancels it."""
    task.set("working", "Still working")
    task.wait(lambda: False)


@tool()
def tool_call_hangs(c: Call) -> None:
    """The tools/call POST is read and never answered (held open `HANG_S`)."""
    c.h.hang()


@tool({"type": "object", "properties": {"fault": {"type": "string", "title": "Fault", "enum": ["hang", "503"], "default": "hang"}}})
def tool_answer_fault(c: Call) -> None:
    """One question (`Type something.`, a required string `text`); the first POST that
    carries its answer (legacy: the answer POST; modern: the replay) hangs (`fault`
    `hang`, held `HANG_S`) or gets HTTP 503 (`503`); the next one is taken: the result is
    `got {text}`."""
    fault = c.args.get("fault") if c.args.get("fault") in ("hang", "503") else "hang"
    question = form("Type something.", {"text": {"type": "string", "title": "Text"}}, ["text"])
    if c.era == MODERN:
        nonce = c.state if isinstance(c.state, str) and c.state.startswith("fault-") else f"fault-{secrets.token_hex(4)}"
        if c.responses is not None and "text" in c.responses:
            if nonce not in FAULTED:
                FAULTED.add(nonce)
                if fault == "hang":
                    c.h.hang()
                c.h.reply_status(503)
                raise Done
            c.finish_text(f"got {content_of(c.responses['text']).get('text')}")
        c.ask("text", question, state=nonce)
    assert c.session is not None
    rid = c.session.new_id()
    c.session.answer_faults[json.dumps(rid)] = fault
    waiter = c.session.expect(rid)
    c.send({"jsonrpc": "2.0", "id": rid, "method": "elicitation/create", "params": question})
    answer = c.wait(waiter)
    c.finish_text(f"got {content_of(answer).get('text')}" if action_of(answer) == "accept" else action_of(answer))


FAULTED: set[str] = set()


# --- HTTP --------------------------------------------------------------------------------


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    server_version = "hostile/1"
    name = DEFAULT_NAME
    flood_discover = False
    tasks = False

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def server_info(self) -> dict[str, Any]:
        return {"name": self.name, "version": "6.6.6"}

    # --- responses

    def cors(self) -> None:
        origin = self.headers.get("Origin")
        if origin and LOOPBACK_ORIGIN.match(origin):
            self.send_header("Access-Control-Allow-Origin", origin)
            self.send_header("Vary", "Origin")
            self.send_header("Access-Control-Expose-Headers", "mcp-session-id")

    def write(self, data: bytes) -> None:
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError) as err:
            raise ClientGone from err

    def reply_raw_json(self, body: bytes, status: int = 200, session: Session | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if session is not None:
            self.send_header("Mcp-Session-Id", session.id)
        self.cors()
        self.end_headers()
        self.write(body)

    def reply_json(self, message: Any, status: int = 200, session: Session | None = None) -> None:
        self.reply_raw_json(json.dumps(message, separators=(",", ":")).encode(), status, session)

    def reply_status(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.cors()
        self.end_headers()

    def start_sse(self, session: Session | None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        if session is not None:
            self.send_header("Mcp-Session-Id", session.id)
        self.cors()
        self.end_headers()

    def hang(self) -> None:
        """Holds the POST open `HANG_S`, or until the client closes the connection (counted
        in `hung_closed`: a client that aborts its fetch)."""
        with TRACE.lock:
            TRACE.hung += 1
        deadline = time.monotonic() + HANG_S
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.connection], [], [], 0.5)
            try:
                closed = bool(readable) and not self.connection.recv(1, socket.MSG_PEEK)
            except OSError:
                closed = True
            if closed:
                with TRACE.lock:
                    TRACE.hung_closed += 1
                break
        raise Done

    def error(self, rid: Any, code: int, message: str, status: int = 200) -> None:
        self.reply_json({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}, status)

    # --- methods

    def do_OPTIONS(self) -> None:  # noqa: N802 - http.server's name
        self.send_response(204)
        self.cors()
        self.send_header("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
        requested = self.headers.get("Access-Control-Request-Headers")
        if requested:
            self.send_header("Access-Control-Allow-Headers", requested)
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def session(self) -> Session | None:
        sid = self.headers.get("Mcp-Session-Id")
        with SESSIONS_LOCK:
            return SESSIONS.get(sid) if sid else None

    def do_DELETE(self) -> None:  # noqa: N802
        sid = self.headers.get("Mcp-Session-Id")
        TRACE.log(kind="delete", session=sid)
        with SESSIONS_LOCK:
            SESSIONS.pop(sid or "", None)
        self.reply_status(200)

    def do_GET(self) -> None:  # noqa: N802
        try:
            self.get()
        except (ClientGone, Done):
            pass

    def get(self) -> None:
        if self.path == "/stats":
            self.reply_json(TRACE.stats())
            return
        session = self.session()
        last = self.headers.get("Last-Event-ID")
        TRACE.log(kind="get", session=session.id if session else None, last_event_id=last)
        if session is None:
            self.reply_status(404 if self.headers.get("Mcp-Session-Id") else 400)
            return
        if last and last.startswith("rz-"):
            self.resume_retry_zero(session, last)
            return
        self.start_sse(session)
        deadline = time.monotonic() + ENDLESS_S
        while time.monotonic() < deadline:
            with SESSIONS_LOCK:
                alive = session.id in SESSIONS
            if not alive:
                return
            try:
                self.write(session.broadcast.get(timeout=1.0))
            except queue.Empty:
                self.write(b": keep-alive\n\n")

    def resume_retry_zero(self, session: Session, last: str) -> None:
        _, key, _ = (last.split("-") + ["", "", ""])[:3]
        entry = session.resumable.get(key)
        with TRACE.lock:
            TRACE.reconnects.append(time.time())
        self.start_sse(session)
        if entry is None:
            return
        rid, closes = entry
        if closes < RETRY_ZERO_CLOSES:
            entry[1] = closes + 1
            self.write(sse(raw="", event_id=f"rz-{key}-{closes + 1}", retry=0))
            return
        message = {"jsonrpc": "2.0", "id": rid, "result": text_result(f"resumed after {closes} closes")}
        self.write(sse(message, event_id=f"rz-{key}-done"))

    def do_POST(self) -> None:  # noqa: N802
        try:
            self.post()
        except (ClientGone, Done):
            pass

    def post(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length > 0 else b""
        try:
            message = json.loads(raw)
        except ValueError:
            self.reply_status(400)
            return
        if not isinstance(message, dict):
            self.reply_status(400)
            return
        method = message.get("method")
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        if not isinstance(method, str):
            self.answer(message, len(raw))
            return
        era = MODERN if ENVELOPE_VERSION in meta else LEGACY
        session = self.session() if era == LEGACY else None
        is_request = "id" in message
        TRACE.log(
            kind="request" if is_request else "notification",
            era=era,
            method=method,
            id=message.get("id"),
            tool=params.get("name") if method == "tools/call" else None,
            session=session.id if session else self.headers.get("Mcp-Session-Id"),
            size=len(raw),
        )
        if not is_request:
            if method == "notifications/cancelled" and session is not None:
                session.cancelled.add(json.dumps(params.get("requestId")))
                TRACE.log(kind="cancelled", request_id=params.get("requestId"), reason=params.get("reason"))
            self.reply_status(202)
            return
        rid = message.get("id")
        if era == LEGACY and method == "initialize":
            fresh = Session()
            with SESSIONS_LOCK:
                SESSIONS[fresh.id] = fresh
            version = params.get("protocolVersion") if isinstance(params.get("protocolVersion"), str) else LEGACY
            capabilities: dict[str, Any] = {"tools": {}}
            if self.tasks:
                capabilities["tasks"] = {"cancel": {}, "requests": {"tools": {"call": {}}}}
            result = {"protocolVersion": version, "capabilities": capabilities, "serverInfo": self.server_info()}
            self.reply_json({"jsonrpc": "2.0", "id": rid, "result": result}, session=fresh)
            return
        if era == LEGACY and session is None:
            self.reply_status(404 if self.headers.get("Mcp-Session-Id") else 400)
            return
        self.dispatch(era, rid, method, params, session)

    def dispatch(self, era: str, rid: Any, method: str, params: dict[str, Any], session: Session | None) -> None:
        def result(body: dict[str, Any]) -> None:
            if era == MODERN:
                body = {**body, "resultType": "complete", "_meta": {SERVER_INFO_KEY: self.server_info()}}
            self.reply_json({"jsonrpc": "2.0", "id": rid, "result": body})

        if method == "server/discover":
            body = {"supportedVersions": [MODERN], "capabilities": {"tools": {}}}
            if self.tasks:
                body["capabilities"]["extensions"] = {TASKS_EXTENSION: {}}
            if self.flood_discover:
                # The id amplification of `sse_id_flood`, during Auto's probe.
                self.start_sse(None)
                self.write(b"id: " + b"i" * (4 * 1024 * 1024) + b"\n")
                self.write(b"data\n\n" * 20_000)
                body = {**body, "resultType": "complete", "_meta": {SERVER_INFO_KEY: self.server_info()}}
                self.write(sse({"jsonrpc": "2.0", "id": rid, "result": body}))
                return
            result(body)
        elif method == "ping":
            result({})
        elif method == "tools/list":
            result({"tools": [entry for entry, _ in TOOLS.values()]})
        elif method == "prompts/list":
            result({"prompts": []})
        elif method == "resources/list":
            result({"resources": []})
        elif method == "resources/templates/list":
            result({"resourceTemplates": []})
        elif era == MODERN and method in ("tasks/get", "tasks/update", "tasks/cancel"):
            self.ext_task_method(rid, method, params)
        elif method in ("tasks/get", "tasks/cancel") and isinstance(params.get("taskId"), str):
            task_id = params["taskId"]
            if method == "tasks/cancel" and session is not None:
                session.cancelled_tasks.add(task_id)
                TRACE.log(kind="tasks_cancel", task_id=task_id)
            result(task_body(task_id, "cancelled" if method == "tasks/cancel" else "working"))
        elif method == "tools/call":
            name = params.get("name")
            found = TOOLS.get(name) if isinstance(name, str) else None
            if found is None:
                self.error(rid, -32602, f"Unknown tool: {name}")
                return
            call = Call(self, era, rid, str(name), params, session)
            try:
                found[1](call)
            except Done:
                return
            raise Done
        else:
            self.error(rid, -32601, f"Method not found: {method}")

    def ext_task_method(self, rid: Any, method: str, params: dict[str, Any]) -> None:
        """`tasks/get`, `tasks/update`, `tasks/cancel` of the Tasks extension (SEP-2663)."""
        ack = {"resultType": "complete", "_meta": {SERVER_INFO_KEY: self.server_info()}}
        if not declares_tasks(params):
            self.reply_json({"jsonrpc": "2.0", "id": rid, "error": {
                "code": -32021, "message": "Missing required client capability",
                "data": {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}},
            }})
            return
        task_id = params.get("taskId")
        with EXT_TASKS_LOCK:
            task = EXT_TASKS.get(task_id) if isinstance(task_id, str) else None
        if task is None:
            self.error(rid, -32602, "Failed to retrieve task: Task not found")
            return
        if method == "tasks/get":
            self.reply_json({"jsonrpc": "2.0", "id": rid, "result": {**task.body(), **ack}})
            return
        if method == "tasks/update":
            responses = params.get("inputResponses") if isinstance(params.get("inputResponses"), dict) else {}
            taken = []
            with task.lock:
                for key, value in responses.items():
                    # Only outstanding keys: others are ignored (the SEP's SHOULD).
                    if key in task.input_requests and key not in task.responses:
                        task.responses[key] = value
                        taken.append(key)
            TRACE.log(kind="tasks_update", task_id=task.id, params=sorted(params), keys=sorted(responses),
                      taken=taken, action=[action_of(v) for v in responses.values()])
        else:
            with task.lock:
                task.cancel_asked = True
            TRACE.log(kind="tasks_cancel", task_id=task.id, era=MODERN)
        self.reply_json({"jsonrpc": "2.0", "id": rid, "result": ack})

    def answer(self, message: dict[str, Any], size: int) -> None:
        """A JSON-RPC response from the client (legacy): route it to the call that waits."""
        rid = message.get("id")
        if isinstance(rid, str) and rid.startswith("ping-"):
            with TRACE.lock:
                TRACE.ping_answers += 1
            self.reply_status(202)
            return
        session = self.session()
        key = json.dumps(rid)
        fault = session.answer_faults.pop(key, None) if session is not None else None
        expected = session is not None and (key in session.waiting or (isinstance(rid, str) and rid.startswith("many-")))
        error = message.get("error")
        TRACE.log(
            kind="answer",
            id=rid,
            session=session.id if session else self.headers.get("Mcp-Session-Id"),
            action=action_of(message) if error is None else None,
            error=error.get("message") if isinstance(error, dict) else None,
            expected=expected,
            fault=fault,
            size=size,
        )
        with TRACE.lock:
            TRACE.answers[key] += 1
            if not expected:
                TRACE.unexpected_answers += 1
        if fault == "hang":
            self.hang()
        if fault == "503":
            self.reply_status(503)
            return
        if session is None:
            self.reply_status(404 if self.headers.get("Mcp-Session-Id") else 400)
            return
        session.deliver(message)
        self.reply_status(202)


def make_server(
    port: int, host: str = "127.0.0.1", name: str = DEFAULT_NAME, flood_discover: bool = False, tasks: bool = False
) -> ThreadingHTTPServer:
    handler = type("NamedHandler", (Handler,), {"name": name, "flood_discover": flood_discover, "tasks": tasks})
    httpd = ThreadingHTTPServer((host, port), handler)
    httpd.daemon_threads = True
    return httpd


def main(argv: list[str] | None = None) -> int:
    global TRACE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8002, help="0: any free port (see --port-file)")
    parser.add_argument("--port-file", metavar="FILE", help="write the port listened on to FILE once bound")
    parser.add_argument("--name", default=DEFAULT_NAME, help="serverInfo.name (default: markup)")
    parser.add_argument("--trace", metavar="FILE", help="append every message received to FILE as JSON lines")
    parser.add_argument(
        "--flood-discover",
        action="store_true",
        help="answer server/discover as sse_id_flood answers a call (4 MiB id, 20,000 events, then the result)",
    )
    parser.add_argument(
        "--tasks",
        action="store_true",
        help="declare tasks for tools/call (legacy: task_status_on_get is then called as a task) and "
        "the Tasks extension (2026-07-28: server/discover declares it)",
    )
    args = parser.parse_args(argv)
    TRACE = Trace(args.trace)
    httpd = make_server(args.port, args.host, args.name, args.flood_discover, args.tasks)
    if args.port_file:
        # Written all at once: a reader never sees a partial number.
        partial = f"{args.port_file}.partial"
        with open(partial, "w", encoding="utf-8") as out:
            out.write(f"{httpd.server_address[1]}\n")
        os.replace(partial, args.port_file)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
