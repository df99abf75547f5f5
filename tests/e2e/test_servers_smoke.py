"""The demo server's flows over plain HTTP (no browser), in both protocol eras.

These pin down what the browser tests rely on: the seed tools answer with the exact
texts, the modern rounds carry what protocol.md says, the answers are echoed typed,
and CORS is answered (or, with --no-cors, refused as the stock SDK does).
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from harness import LEGACY, DemoServer, LegacySession, ModernClient, http_request, tool_text

ACCEPT_ALTERNATIVE = {"action": "accept", "content": {"accept_alternative": True, "date": "2025-12-27"}}


def only_request(result: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The single (key, request) of an input_required result."""
    assert result.get("resultType") == "input_required", result
    requests = result["inputRequests"]
    assert len(requests) == 1, requests
    return next(iter(requests.items()))


def complete_text(response: dict[str, Any]) -> str:
    assert "result" in response, response
    result = response["result"]
    assert result.get("resultType", "complete") == "complete", result
    return tool_text(result)


# --- legacy era -----------------------------------------------------------------------


@pytest.fixture
def legacy(demo_server: DemoServer) -> Any:
    session = LegacySession(demo_server.url)
    init = session.initialize()
    assert init["result"]["protocolVersion"] == LEGACY
    yield session
    session.close()


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (ACCEPT_ALTERNATIVE, "Booked a table for 2 on 2025-12-27."),
        ({"action": "accept", "content": {"accept_alternative": False}}, "No table booked."),
        ({"action": "decline"}, "declined: no table booked"),
        ({"action": "cancel"}, "cancelled: no table booked"),
    ],
)
def test_legacy_book_table(legacy: LegacySession, answer: dict[str, Any], expected: str) -> None:
    stream = legacy.start_call("book_table", {"date": "2025-12-25", "party_size": 2})
    ask = next(stream)
    assert ask["method"] == "elicitation/create"
    params = ask["params"]
    assert params["message"] == "No tables for 2 on 2025-12-25. Would you like to try another date?"
    schema = params["requestedSchema"]
    assert list(schema["properties"]) == ["accept_alternative", "date"]
    assert schema["properties"]["date"]["default"] == "2025-12-26"
    assert schema["required"] == ["accept_alternative"]
    assert legacy.respond(ask["id"], answer) == 202
    final = next(stream)
    assert complete_text(final) == expected


def test_legacy_url_mode_and_completion_on_get_stream(legacy: LegacySession) -> None:
    notifications: list[Any] = []
    get_stream = legacy.open_get_stream()

    def read_one() -> None:
        for message in get_stream:
            notifications.append(message)
            return

    reader = threading.Thread(target=read_one, daemon=True)
    reader.start()

    stream = legacy.start_call("pay_deposit", {"booking_id": "b1"})
    ask = next(stream)
    assert ask["params"] == {
        "mode": "url",
        "message": "A 20 EUR deposit confirms your booking.",
        "url": "https://pay.example.com/deposit/b1",
        "elicitationId": "deposit-b1",
    }
    assert legacy.respond(ask["id"], {"action": "accept"}) == 202
    assert complete_text(next(stream)) == "Complete the payment in your browser."

    confirm = legacy.start_call("confirm_deposit", {"booking_id": "b1"})
    assert complete_text(next(confirm)) == "Deposit deposit-b1 confirmed."
    reader.join(timeout=20)
    assert notifications == [
        {"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "deposit-b1"}}
    ]


def test_legacy_resolver_delete_folder(legacy: LegacySession) -> None:
    stream = legacy.start_call("delete_folder", {"path": "/tmp/project"})
    ask = next(stream)
    assert ask["params"]["message"] == "/tmp/project has 2 file(s). Delete anyway?"
    legacy.respond(ask["id"], {"action": "decline"})
    assert complete_text(next(stream)) == "declined: folder not deleted"


def test_legacy_url_elicitation_required_error(legacy: LegacySession) -> None:
    first = next(legacy.start_call("open_vault", {"vault": "v-legacy"}))
    error = first["error"]
    assert error["code"] == -32042
    assert error["data"]["elicitations"] == [
        {
            "mode": "url",
            "message": "Sign in to open vault v-legacy.",
            "url": "https://vault.example.com/unlock/v-legacy",
            "elicitationId": "vault-v-legacy",
        }
    ]
    assert complete_text(next(legacy.start_call("unlock_vault", {"vault": "v-legacy"}))) == "Vault v-legacy unlocked."
    assert complete_text(next(legacy.start_call("open_vault", {"vault": "v-legacy"}))) == "Vault v-legacy opened."


def test_legacy_endless_questions_until_decline(legacy: LegacySession) -> None:
    stream = legacy.start_call("endless_questions")
    for n in range(1, 4):
        ask = next(stream)
        assert ask["params"]["message"] == f"Question {n}: shall I ask again?"
        legacy.respond(ask["id"], {"action": "accept", "content": {"answer": "yes"}})
    ask = next(stream)
    legacy.respond(ask["id"], {"action": "decline"})
    assert complete_text(next(stream)) == "stopped after 3 answers: decline"


# --- modern era -----------------------------------------------------------------------


@pytest.fixture
def modern(demo_server: DemoServer) -> ModernClient:
    return ModernClient(demo_server.url)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"action": "accept", "content": {"ok": True}}, "deleted /tmp/project"),
        ({"action": "accept", "content": {"ok": False}}, "kept /tmp/project"),
        ({"action": "decline"}, "declined: folder not deleted"),
        ({"action": "cancel"}, "cancelled: folder not deleted"),
    ],
)
def test_modern_delete_folder(modern: ModernClient, answer: dict[str, Any], expected: str) -> None:
    first = modern.call_tool("delete_folder", {"path": "/tmp/project"})
    key, request = only_request(first["result"])
    assert key == "__main__:confirm_delete"
    assert request["method"] == "elicitation/create"
    assert request["params"]["message"] == "/tmp/project has 2 file(s). Delete anyway?"
    assert request["params"]["requestedSchema"]["properties"] == {"ok": {"title": "Ok", "type": "boolean"}}
    state = first["result"]["requestState"]
    second = modern.call_tool(
        "delete_folder", {"path": "/tmp/project"}, input_responses={key: answer}, request_state=state
    )
    assert complete_text(second) == expected


def test_modern_ctx_elicit_has_no_back_channel(modern: ModernClient) -> None:
    reply = modern.post(
        "tools/call", {"name": "book_table", "arguments": {"date": "2025-12-25"}}, name="book_table"
    )
    body = reply.json()
    assert reply.status == 400, body
    assert body["error"]["code"] == -32600


def test_modern_url_mode(modern: ModernClient) -> None:
    first = modern.call_tool("pay_deposit", {"booking_id": "b2"})
    key, request = only_request(first["result"])
    assert request["params"] == {
        "mode": "url",
        "message": "A 20 EUR deposit confirms your booking.",
        "url": "https://pay.example.com/deposit/b2",
    }
    second = modern.call_tool(
        "pay_deposit",
        {"booking_id": "b2"},
        input_responses={key: {"action": "accept"}},
        request_state=first["result"]["requestState"],
    )
    assert complete_text(second) == "Complete the payment in your browser."


def test_modern_several_questions_in_one_round(modern: ModernClient) -> None:
    first = modern.call_tool("plan_trip")["result"]
    assert first["resultType"] == "input_required"
    requests = first["inputRequests"]
    messages = sorted(r["params"]["message"] for r in requests.values())
    assert messages == ["Any extras?", "Where to?", "Who is travelling?"]
    by_message = {r["params"]["message"]: k for k, r in requests.items()}
    responses = {
        by_message["Where to?"]: {"action": "accept", "content": {"city": "Lisbon"}},
        by_message["Who is travelling?"]: {"action": "accept", "content": {"adults": 2, "children": 1}},
        by_message["Any extras?"]: {"action": "accept", "content": {"insurance": True}},
    }
    second = modern.call_tool("plan_trip", input_responses=responses, request_state=first["requestState"])
    assert complete_text(second) == (
        'accepted destination={"city": "Lisbon"} travellers={"adults": 2, "children": 1} extras={"insurance": true}'
    )


def test_modern_three_round_chain(modern: ModernClient) -> None:
    answers = [{"username": "ada"}, {"plan": "pro"}, {"newsletter": True}]
    expected_messages = [
        "Step 1 of 3: choose a username.",
        "Step 2 of 3: which plan for ada?",
        "Step 3 of 3: newsletter for the pro plan?",
    ]
    responses: dict[str, Any] | None = None
    state: str | None = None
    for answer, message in zip(answers, expected_messages, strict=True):
        result = modern.call_tool("setup_account", input_responses=responses, request_state=state)["result"]
        key, request = only_request(result)
        assert request["params"]["message"] == message
        responses = {key: {"action": "accept", "content": answer}}
        state = result["requestState"]
    final = modern.call_tool("setup_account", input_responses=responses, request_state=state)
    assert complete_text(final) == "account ada on pro plan, newsletter=true"


def test_modern_chain_stops_at_decline(modern: ModernClient) -> None:
    result = modern.call_tool("setup_account")["result"]
    key, _ = only_request(result)
    final = modern.call_tool(
        "setup_account", input_responses={key: {"action": "decline"}}, request_state=result["requestState"]
    )
    assert complete_text(final) == "declined at username"


def test_modern_endless_questions_never_complete(modern: ModernClient) -> None:
    responses: dict[str, Any] | None = None
    state: str | None = None
    for n in range(1, 13):
        result = modern.call_tool("endless_questions", input_responses=responses, request_state=state)["result"]
        key, request = only_request(result)
        assert request["params"]["message"] == f"Question {n}: shall I ask again?"
        responses = {key: {"action": "accept", "content": {"answer": "yes"}}}
        state = result["requestState"]
    final = modern.call_tool(
        "endless_questions", input_responses={key: {"action": "cancel"}}, request_state=state
    )
    assert complete_text(final) == "stopped after 11 answers: cancel"


ALL_FIELDS_ANSWER = {
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "homepage": "https://example.com/ada",
    "birthday": "1815-12-10",
    "meeting": "2025-12-27T10:00:00Z",
    "code": "LHR",
    "age": 36,
    "rating": 4.5,
    "subscribe": False,
    "colour": "blue",
    "size": "m",
    "pet": "cat",
    "toppings": ["cheese", "olives"],
    "languages": ["en", "fr"],
    "days": ["mon", "wed"],
}


def test_modern_all_fields_schema_and_typed_echo(modern: ModernClient) -> None:
    first = modern.call_tool("all_fields")["result"]
    key, request = only_request(first)
    props = request["params"]["requestedSchema"]["properties"]
    assert props["size"]["oneOf"][0] == {"const": "s", "title": "Small"}
    assert props["pet"]["enumNames"] == ["Cat", "Dog", "Fish"]
    assert props["toppings"]["items"] == {"enum": ["cheese", "ham", "olives"], "type": "string"}
    assert props["languages"]["items"]["anyOf"][1] == {"const": "fr", "title": "French"}
    assert props["days"]["default"] == ["mon"]
    assert {props[k].get("format") for k in ("email", "homepage", "birthday", "meeting")} == {
        "email",
        "uri",
        "date",
        "date-time",
    }
    second = modern.call_tool(
        "all_fields",
        input_responses={key: {"action": "accept", "content": ALL_FIELDS_ANSWER}},
        request_state=first["requestState"],
    )
    assert complete_text(second) == "accepted " + json.dumps(ALL_FIELDS_ANSWER, sort_keys=True)


def test_modern_all_fields_rejects_wrongly_typed_answer(modern: ModernClient) -> None:
    first = modern.call_tool("all_fields")["result"]
    key, _ = only_request(first)
    wrong = {**ALL_FIELDS_ANSWER, "age": "36"}
    second = modern.call_tool(
        "all_fields",
        input_responses={key: {"action": "accept", "content": wrong}},
        request_state=first["requestState"],
    )
    assert second["result"]["isError"] is True, second


def test_modern_replay_survives_restart(make_demo_server: Any) -> None:
    server = make_demo_server()
    client = ModernClient(server.url)
    first = client.call_tool("delete_folder", {"path": "/tmp/project"})["result"]
    key, _ = only_request(first)
    server.restart()
    second = client.call_tool(
        "delete_folder",
        {"path": "/tmp/project"},
        input_responses={key: {"action": "accept", "content": {"ok": True}}},
        request_state=first["requestState"],
    )
    assert complete_text(second) == "deleted /tmp/project"


# --- CORS -----------------------------------------------------------------------------

PAGE_ORIGIN = "http://127.0.0.1:8000"
REQUESTED_HEADERS = "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id, mcp-param-region"


def preflight(url: str, origin: str = PAGE_ORIGIN) -> Any:
    return http_request(
        url,
        method="OPTIONS",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": REQUESTED_HEADERS,
        },
    )


def test_cors_preflight_allows_mcp_headers(demo_server: DemoServer) -> None:
    reply = preflight(demo_server.url)
    reply.close()
    assert reply.status == 200
    assert reply.headers["access-control-allow-origin"] == PAGE_ORIGIN
    allowed = {h.strip().lower() for h in reply.headers["access-control-allow-headers"].split(",")}
    assert {h.strip() for h in REQUESTED_HEADERS.split(",")} <= allowed
    assert "last-event-id" in allowed
    assert "POST" in reply.headers["access-control-allow-methods"]


def test_cors_cross_origin_post_exposes_session_id(demo_server: DemoServer) -> None:
    session = LegacySession(demo_server.url)
    body = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
    reply = http_request(
        session.url, body=body, headers={"Accept": "application/json, text/event-stream", "Origin": PAGE_ORIGIN}
    )
    reply.close()
    assert reply.status == 200
    assert reply.headers["access-control-allow-origin"] == PAGE_ORIGIN
    assert "mcp-session-id" in reply.headers["access-control-expose-headers"].lower()


def test_cors_explicit_origin_only(make_demo_server: Any) -> None:
    server = make_demo_server(["--cors-origin", "http://127.0.0.1:9999"])
    allowed = preflight(server.url, "http://127.0.0.1:9999")
    allowed.close()
    assert allowed.status == 200
    other = preflight(server.url, PAGE_ORIGIN)
    other.close()
    assert "access-control-allow-origin" not in other.headers


def test_no_cors_preflight_refused(make_demo_server: Any) -> None:
    server = make_demo_server(["--no-cors"])
    reply = preflight(server.url)
    reply.close()
    assert reply.status == 405
    assert "access-control-allow-origin" not in reply.headers


def test_static_same_origin(make_demo_server: Any, tmp_path: Any) -> None:
    (tmp_path / "index.html").write_text("<p>same origin</p>")
    server = make_demo_server(["--static", str(tmp_path)])
    page = http_request(server.origin + "/", method="GET")
    assert page.status == 200
    assert page.text() == "<p>same origin</p>"
    result = ModernClient(server.url).call_tool("book_table", {"date": "2025-12-30"})
    assert complete_text(result) == "Booked a table for 2 on 2025-12-30."


def test_modern_mcp_param_header_required(modern: ModernClient) -> None:
    tools = modern.request("tools/list", {})["result"]["tools"]
    schema = next(t for t in tools if t["name"] == "book_in_region")["inputSchema"]
    assert schema["properties"]["region"]["x-mcp-header"] == "Region"

    missing = modern.post("tools/call", {"name": "book_in_region", "arguments": {"region": "eu"}}, name="book_in_region")
    body = missing.json()
    assert missing.status == 400, body
    assert body["error"]["code"] == -32020

    headers = {"Mcp-Param-Region": "eu"}
    first = modern.call_tool("book_in_region", {"region": "eu"}, headers=headers)["result"]
    key, request = only_request(first)
    assert request["params"]["message"] == "Book a table in region eu?"
    second = modern.call_tool(
        "book_in_region",
        {"region": "eu"},
        input_responses={key: {"action": "accept", "content": {"ok": True}}},
        request_state=first["requestState"],
        headers=headers,
    )
    assert complete_text(second) == "Booked in region eu."


def test_trace_records_exchanges(make_demo_server: Any, tmp_path: Any) -> None:
    trace = tmp_path / "trace.jsonl"
    server = make_demo_server(["--trace", str(trace)])
    client = ModernClient(server.url)
    first = client.call_tool("delete_folder", {"path": "/tmp/project"})

    def posts() -> list[dict[str, Any]]:
        # The record is written once the server's handler returns, just after the reply.
        lines = trace.read_text().splitlines() if trace.exists() else []
        records = [json.loads(line) for line in lines]
        return [r for r in records if r["method"] == "POST" and r["path"] == "/mcp"]

    deadline = time.monotonic() + 10
    while not posts() and time.monotonic() < deadline:
        time.sleep(0.05)
    calls = posts()
    assert len(calls) == 1
    assert json.loads(calls[0]["request_body"])["params"]["name"] == "delete_folder"
    assert calls[0]["request_headers"]["mcp-name"] == "delete_folder"
    assert calls[0]["status"] == 200
    assert json.loads(calls[0]["response_body"]) == first
