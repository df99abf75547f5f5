"""Record real exchanges with the demo server (`mcp==2.3.0`) in both protocol eras.

Starts `tests/servers/demo_server` on a free loopback port, plays every flow below
over plain HTTP (the standard library's `http.client`, so what is recorded is exactly
what went over the wire), and writes one JSON file per flow to
`core/tests/fixtures/transcripts/`. `core/tests/all/wire_transcripts.rs` parses every
recorded message into the Rust wire types and runs the core's state machines over the
recorded exchanges.

The requests are built the way the core's drivers build them (same `_meta` envelope,
same client info, same id sequence, same key order) so the Rust test can compare its
own requests with the recorded ones. Answers to elicitations are chosen per flow.
`Mcp-Param-*` headers come from the SDK's own `mcp.shared.inbound` helpers, the
reference the server checks against.

Session ids and `requestState` tokens are random per run; everything else is
deterministic. Run with the venv's python:

    .venv/bin/python tests/capture/capture.py            # or /tmp/probe-venv/bin/python
"""

from __future__ import annotations

import http.client
import json
import queue
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from mcp.shared.inbound import encode_header_value, mcp_param_headers, x_mcp_header_map

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "core" / "tests" / "fixtures" / "transcripts"
SERVER = ROOT / "tests" / "servers" / "demo_server"
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
CLIENT_INFO = {"name": "mcp-elicit", "version": "0.1.0"}
CAPABILITIES = {"elicitation": {"form": {}, "url": {}}, "roots": {}}
KEPT_RESPONSE_HEADERS = ("content-type", "mcp-session-id", "allow")
# A fixed sealing key, so a run is reproducible in everything but the random nonce.
STATE_KEY = "mcp-elicit-transcripts-state-key-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Recorder:
    """Sends requests and records each exchange in the order the requests were sent."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.exchanges: list[dict[str, Any]] = []

    def send(
        self,
        method: str,
        headers: list[tuple[str, str]],
        body: str | None,
        on_event: Callable[[str], None] | None = None,
        actor: str | None = None,
        stop: threading.Event | None = None,
    ) -> dict[str, Any]:
        """One exchange. `on_event` sees each SSE `data` as it arrives (to answer mid-stream)."""
        record: dict[str, Any] = {"request": {"method": method, "headers": headers, "body": body}}
        if actor:
            record["actor"] = actor
        self.exchanges.append(record)
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.putrequest(method, "/mcp", skip_accept_encoding=True)
        for name, value in headers:
            conn.putheader(name, value)
        data = body.encode("utf-8") if body is not None else None
        if data is not None:
            conn.putheader("Content-Length", str(len(data)))
        conn.endheaders(data)
        resp = conn.getresponse()
        raw = bytearray()
        pending = b""
        while True:
            if stop is not None and stop.is_set():
                break
            try:
                chunk = resp.read1(65536)
            except (TimeoutError, http.client.IncompleteRead, ConnectionError, OSError):
                break
            if not chunk:
                break
            raw.extend(chunk)
            if on_event is not None:
                pending += chunk
                while b"\n\n" in pending or b"\r\n\r\n" in pending:
                    sep = b"\r\n\r\n" if b"\r\n\r\n" in pending else b"\n\n"
                    event, pending = pending.split(sep, 1)
                    lines = event.decode("utf-8").splitlines()
                    text = "\n".join(ln[5:].lstrip(" ") if ln.startswith("data:") else "" for ln in lines if ln.startswith("data:"))
                    if text:
                        on_event(text)
        conn.close()
        record["response"] = {
            "status": resp.status,
            "headers": {k: v for k, v in ((k.lower(), v) for k, v in resp.getheaders()) if k in KEPT_RESPONSE_HEADERS},
            "body": raw.decode("utf-8", "replace"),
        }
        return record


def post_headers(extra: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream"), *extra]


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def messages(body: str, content_type: str) -> list[dict[str, Any]]:
    if content_type.startswith("application/json"):
        return [json.loads(body)]
    out = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        data = [ln[5:].lstrip(" ") if ln.startswith("data:") else None for ln in block.split("\n")]
        text = "\n".join(d for d in data if d is not None)
        if text.strip():
            out.append(json.loads(text))
    return out


# --- answering -------------------------------------------------------------------------


def auto_content(schema: dict[str, Any]) -> dict[str, Any]:
    """A valid answer to a flat form schema, the way a user who changes nothing answers:
    defaults kept, required fields filled with the first choice / a plain value, other
    optional fields left empty (and so left out)."""
    content: dict[str, Any] = {}
    required = set(schema.get("required") or [])
    for name, prop in (schema.get("properties") or {}).items():
        if "default" in prop:
            content[name] = prop["default"]
            continue
        if name not in required:
            continue
        kind = prop.get("type")
        if "enum" in prop:
            content[name] = prop["enum"][0]
        elif "oneOf" in prop:
            content[name] = prop["oneOf"][0]["const"]
        elif kind == "boolean":
            content[name] = True
        elif kind in ("integer", "number"):
            content[name] = prop.get("minimum", 1)
        elif kind == "array":
            items = prop.get("items") or {}
            choices = items.get("enum") or [c["const"] for c in items.get("anyOf", [])]
            content[name] = choices[: max(1, prop.get("minItems", 1))]
        else:
            fmt = prop.get("format")
            value = {"email": "ada@example.com", "date": "2025-12-27", "date-time": "2025-12-27T10:00:00Z", "uri": "https://example.com/"}.get(fmt, "ada")
            content[name] = value.ljust(prop.get("minLength", 0), "a")
    return content


def answer_all(requests: dict[str, Any], action: str = "accept") -> dict[str, Any]:
    responses: dict[str, Any] = {}
    for key, req in requests.items():
        if req["method"] == "roots/list":
            responses[key] = {"roots": []}
        elif req["method"] == "elicitation/create":
            params = req["params"]
            if action != "accept":
                responses[key] = {"action": action}
            elif params.get("mode") == "url":
                responses[key] = {"action": "accept"}
            else:
                responses[key] = {"action": "accept", "content": auto_content(params["requestedSchema"])}
    return responses


# --- modern era ------------------------------------------------------------------------


def meta(version: str = MODERN, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
        "io.modelcontextprotocol/clientCapabilities": CAPABILITIES if capabilities is None else capabilities,
    }


def modern_headers(method: str, name: str | None, version: str = MODERN, extra: dict[str, str] | None = None) -> list[tuple[str, str]]:
    headers = [("MCP-Protocol-Version", version), ("Mcp-Method", method)]
    if name is not None:
        headers.append(("Mcp-Name", encode_header_value(name)))
    headers.extend((extra or {}).items())
    return post_headers(headers)


def modern_call(
    rec: Recorder,
    name: str,
    arguments: dict[str, Any],
    answer: Callable[[int, dict[str, Any]], dict[str, Any]],
    input_schema: dict[str, Any] | None = None,
    capabilities: dict[str, Any] | None = None,
    max_rounds: int = 10,
) -> None:
    """Drives one tools/call through its input_required rounds like the core's ModernCall."""
    param_headers = mcp_param_headers(x_mcp_header_map(input_schema), arguments) if input_schema else {}
    responses: dict[str, Any] | None = None
    state: str | None = None
    for round_no in range(max_rounds + 1):
        params: dict[str, Any] = {"name": name, "arguments": arguments}
        if responses:
            params["inputResponses"] = responses
        if state is not None:
            params["requestState"] = state
        params["_meta"] = meta(capabilities=capabilities)
        body = dumps({"jsonrpc": "2.0", "id": round_no + 1, "method": "tools/call", "params": params})
        record = rec.send("POST", modern_headers("tools/call", name, extra=param_headers), body)
        response = record["response"]
        if response["status"] >= 300:
            return
        found = [m for m in messages(response["body"], response["headers"].get("content-type", "")) if "id" in m]
        result = found[-1].get("result") if found else None
        if not result or result.get("resultType") != "input_required":
            return
        state = result.get("requestState")
        requests = result.get("inputRequests") or {}
        responses = answer(round_no, requests) if requests else None


def modern_flows(port: int, tools: dict[str, Any]) -> dict[str, Recorder]:
    flows: dict[str, Recorder] = {}

    rec = flows.setdefault("modern_discover", Recorder(port))
    for version in (MODERN, "2030-01-01"):
        body = dumps({"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {"_meta": meta(version)}})
        rec.send("POST", post_headers([("MCP-Protocol-Version", version), ("Mcp-Method", "server/discover")]), body)

    rec = flows.setdefault("modern_tools_list", Recorder(port))
    body = dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}})
    rec.send("POST", modern_headers("tools/list", None), body)

    plain = lambda action: (lambda _round, reqs: answer_all(reqs, action))  # noqa: E731
    for action in ("accept", "decline", "cancel"):
        modern_call(flows.setdefault(f"modern_delete_folder_{action}", Recorder(port)), "delete_folder", {"path": "/tmp/project"}, plain(action))
    modern_call(flows.setdefault("modern_plan_trip", Recorder(port)), "plan_trip", {}, plain("accept"))
    modern_call(flows.setdefault("modern_setup_account", Recorder(port)), "setup_account", {}, plain("accept"))
    modern_call(flows.setdefault("modern_pay_deposit", Recorder(port)), "pay_deposit", {"booking_id": "b1"}, plain("accept"))
    modern_call(
        flows.setdefault("modern_book_in_region", Recorder(port)),
        "book_in_region",
        {"region": "eu-west"},
        plain("accept"),
        input_schema=tools["book_in_region"]["inputSchema"],
    )
    # Three accepted questions, then a decline.
    modern_call(
        flows.setdefault("modern_endless_questions", Recorder(port)),
        "endless_questions",
        {},
        lambda r, reqs: answer_all(reqs, "accept" if r < 3 else "decline"),
    )
    modern_call(flows.setdefault("modern_all_fields", Recorder(port)), "all_fields", {}, plain("accept"))
    modern_call(flows.setdefault("modern_book_table_no_back_channel", Recorder(port)), "book_table", {"date": "2025-12-25", "party_size": 2}, plain("accept"))
    modern_call(
        flows.setdefault("modern_missing_capability", Recorder(port)),
        "delete_folder",
        {"path": "/tmp/project"},
        plain("accept"),
        capabilities={},
    )
    rec = flows.setdefault("modern_header_mismatch", Recorder(port))
    body = dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "delete_folder", "arguments": {"path": "/tmp/project"}, "_meta": meta()}})
    rec.send("POST", modern_headers("tools/call", "book_table"), body)
    return flows


# --- legacy era ------------------------------------------------------------------------


class LegacyClient:
    """A 2025-11-25 session the way the core's LegacySession runs one."""

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec
        self.next_id = 0
        self.session: str | None = None

    def headers(self) -> list[tuple[str, str]]:
        out = []
        if self.session:
            out.append(("Mcp-Session-Id", self.session))
        out.append(("MCP-Protocol-Version", LEGACY))
        return out

    def initialize(self) -> None:
        self.session = None
        params = {"protocolVersion": LEGACY, "capabilities": CAPABILITIES, "clientInfo": CLIENT_INFO}
        record = self.rec.send("POST", post_headers([]), dumps({"jsonrpc": "2.0", "id": self.take_id(), "method": "initialize", "params": params}))
        self.session = record["response"]["headers"].get("mcp-session-id")
        self.rec.send("POST", post_headers(self.headers()), dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

    def take_id(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value

    def request(self, method: str, params: dict[str, Any] | None, answer: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": self.take_id(), "method": method}
        if params is not None:
            body["params"] = params
        answers: "queue.Queue[str]" = queue.Queue()

        def on_event(text: str) -> None:
            message = json.loads(text)
            if message.get("method") == "elicitation/create" and answer is not None:
                # Answer from another thread's connection while this stream stays open.
                reply = dumps({"jsonrpc": "2.0", "id": message["id"], "result": answer(message["params"])})
                self.rec.send("POST", post_headers(self.headers()), reply)
                answers.put(reply)

        return self.rec.send("POST", post_headers(self.headers()), dumps(body), on_event=on_event)

    def call(self, name: str, arguments: dict[str, Any], answer: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> dict[str, Any]:
        return self.request("tools/call", {"name": name, "arguments": arguments}, answer)


def accept_with(content: dict[str, Any] | None = None) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def answer(params: dict[str, Any]) -> dict[str, Any]:
        if params.get("mode") == "url":
            return {"action": "accept"}
        return {"action": "accept", "content": content if content is not None else auto_content(params["requestedSchema"])}

    return answer


def legacy_flows(port: int) -> dict[str, Recorder]:
    flows: dict[str, Recorder] = {}

    rec = flows.setdefault("legacy_session", Recorder(port))
    client = LegacyClient(rec)
    client.initialize()
    client.request("tools/list", None)
    client.call("book_table", {"date": "2025-12-25", "party_size": 2}, accept_with({"accept_alternative": True, "date": "2025-12-27"}))
    client.call("book_table", {"date": "2025-12-25", "party_size": 2}, lambda _p: {"action": "decline"})
    client.call("delete_folder", {"path": "/tmp/project"}, accept_with({"ok": True}))
    client.call("plan_trip", {}, accept_with())
    client.call("pay_deposit", {"booking_id": "b1"}, accept_with())
    # The session's GET stream carries the completion that confirm_deposit triggers.
    stop = threading.Event()
    got: "queue.Queue[str]" = queue.Queue()
    get_headers = [("Accept", "text/event-stream"), *client.headers()]

    def on_get_event(text: str) -> None:
        got.put(text)
        if "notifications/elicitation/complete" in text:
            stop.set()

    reader = threading.Thread(target=lambda: rec.send("GET", get_headers, None, on_event=on_get_event, stop=stop))
    reader.start()
    time.sleep(0.5)  # let the GET stream register before the notification is sent
    client.call("confirm_deposit", {"booking_id": "b1"})
    reader.join(timeout=10)
    stop.set()
    client.call("open_vault", {"vault": "v1"})
    client.rec.send("DELETE", client.headers(), None)

    rec = flows.setdefault("legacy_more_flows", Recorder(port))
    client = LegacyClient(rec)
    client.initialize()
    client.call("all_fields", {}, accept_with())
    client.call("setup_account", {}, accept_with())
    asked = {"n": 0}

    def three_then_cancel(params: dict[str, Any]) -> dict[str, Any]:
        asked["n"] += 1
        return accept_with()(params) if asked["n"] <= 3 else {"action": "cancel"}

    client.call("endless_questions", {}, three_then_cancel)
    client.call("delete_folder", {"path": "/tmp/project"}, lambda _p: {"action": "cancel"})
    client.rec.send("DELETE", client.headers(), None)

    rec = flows.setdefault("legacy_session_expired", Recorder(port))
    client = LegacyClient(rec)
    client.initialize()
    # Someone else ends the session (the server forgets it) ...
    rec.send("DELETE", client.headers(), None, actor="other")
    # ... so the next request gets 404, and the client initialises again.
    client.request("tools/list", None)
    client.initialize()
    client.request("tools/list", None)
    return flows


def main() -> int:
    port = free_port()
    python = sys.executable
    server = subprocess.Popen(
        [python, str(SERVER), "--port", str(port), "--no-cors", "--state-key", STATE_KEY],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    print("the demo server did not start", file=sys.stderr)
                    return 1
                time.sleep(0.2)
        # The tool list (for x-mcp-header schemas) via a modern tools/list.
        probe = Recorder(port)
        body = dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta()}})
        listed = probe.send("POST", modern_headers("tools/list", None), body)["response"]
        tools = {t["name"]: t for t in messages(listed["body"], listed["headers"].get("content-type", ""))[0]["result"]["tools"]}
        flows = {**modern_flows(port, tools), **legacy_flows(port)}
    finally:
        server.terminate()
        server.wait(timeout=10)
    OUT.mkdir(parents=True, exist_ok=True)
    for name, rec in flows.items():
        doc = {
            "flow": name,
            "era": "modern" if name.startswith("modern") else "legacy",
            "server": "tests/servers/demo_server (mcp==2.3.0)",
            "exchanges": rec.exchanges,
        }
        (OUT / f"{name}.json").write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {name}.json ({len(rec.exchanges)} exchanges)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
