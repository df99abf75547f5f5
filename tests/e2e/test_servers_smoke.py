"""The demo server's flows over plain HTTP (no browser), in both protocol eras.

These pin down what the browser tests rely on: the seed tools answer with the exact
texts, the modern rounds carry what docs/protocol.md says, the answers are echoed typed,
sampling and roots requests take the shape each era gives them (and -32021 without the
capability), a prompt and a resource template ask like tools do, and CORS is answered
(or, with --no-cors, refused as the stock SDK does), and a `--resumable` server's streams
it closes on purpose are resumed with GET + `Last-Event-ID` (priming events, replay), as
the stock SDK does it: a fresh GET stream is not primed, so it is resumed from the id of
a live event it carried.
"""

from __future__ import annotations

import http.client
import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest
from demo_server.texts import (
    CANCELLED,
    DECLINED,
    AllFields,
    BookInRegion,
    BookTable,
    ClientRequests,
    DeleteFolder,
    Deposit,
    Endless,
    FormErrors,
    NoteResource,
    PlanTrip,
    Resume,
    SetupAccount,
    TripBrief,
    Vault,
)
from harness import (
    CAPABILITIES,
    CLIENT_INFO,
    LEGACY,
    DemoServer,
    HttpReply,
    LegacySession,
    ModernClient,
    http_request,
    read_json_lines,
    tool_text,
)

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
        (ACCEPT_ALTERNATIVE, BookTable.BOOKED.format(party_size=2, date="2025-12-27")),
        ({"action": "accept", "content": {"accept_alternative": False}}, BookTable.NOT_BOOKED),
        ({"action": "decline"}, BookTable.REFUSED.format(outcome=DECLINED)),
        ({"action": "cancel"}, BookTable.REFUSED.format(outcome=CANCELLED)),
    ],
)
def test_legacy_book_table(legacy: LegacySession, answer: dict[str, Any], expected: str) -> None:
    stream = legacy.start_call("book_table", {"date": BookTable.FULL_DATE, "party_size": 2})
    ask = next(stream)
    assert ask["method"] == "elicitation/create"
    params = ask["params"]
    assert params["message"] == BookTable.QUESTION.format(party_size=2, date=BookTable.FULL_DATE)
    schema = params["requestedSchema"]
    assert list(schema["properties"]) == ["accept_alternative", "date"]
    assert schema["properties"]["date"]["default"] == BookTable.DEFAULT_DATE
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
        "message": Deposit.MESSAGE,
        "url": Deposit.URL.format(booking_id="b1"),
        "elicitationId": Deposit.ELICITATION_ID.format(booking_id="b1"),
    }
    assert legacy.respond(ask["id"], {"action": "accept"}) == 202
    assert complete_text(next(stream)) == Deposit.PAY

    confirm = legacy.start_call("confirm_deposit", {"booking_id": "b1"})
    assert complete_text(next(confirm)) == Deposit.CONFIRMED.format(elicitation_id="deposit-b1")
    reader.join(timeout=20)
    assert notifications == [
        {"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "deposit-b1"}}
    ]


def test_legacy_resolver_delete_folder(legacy: LegacySession) -> None:
    stream = legacy.start_call("delete_folder", {"path": "/tmp/project"})
    ask = next(stream)
    assert ask["params"]["message"] == DeleteFolder.QUESTION.format(path="/tmp/project")
    legacy.respond(ask["id"], {"action": "decline"})
    assert complete_text(next(stream)) == DeleteFolder.REFUSED.format(outcome=DECLINED)


def test_legacy_url_elicitation_required_error(legacy: LegacySession) -> None:
    first = next(legacy.start_call("open_vault", {"vault": "v-legacy"}))
    error = first["error"]
    assert error["code"] == -32042
    assert error["data"]["elicitations"] == [
        {
            "mode": "url",
            "message": Vault.MESSAGE.format(vault="v-legacy"),
            "url": Vault.URL.format(vault="v-legacy"),
            "elicitationId": Vault.ELICITATION_ID.format(vault="v-legacy"),
        }
    ]
    assert complete_text(next(legacy.start_call("unlock_vault", {"vault": "v-legacy"}))) == Vault.UNLOCKED.format(vault="v-legacy")
    assert complete_text(next(legacy.start_call("open_vault", {"vault": "v-legacy"}))) == Vault.OPENED.format(vault="v-legacy")


def test_legacy_endless_questions_until_decline(legacy: LegacySession) -> None:
    stream = legacy.start_call("endless_questions")
    for n in range(1, 4):
        ask = next(stream)
        assert ask["params"]["message"] == Endless.QUESTION.format(n=n)
        legacy.respond(ask["id"], {"action": "accept", "content": {"answer": "yes"}})
    ask = next(stream)
    legacy.respond(ask["id"], {"action": "decline"})
    assert complete_text(next(stream)) == Endless.STOPPED.format(answers=3, action="decline")


# --- modern era -----------------------------------------------------------------------


@pytest.fixture
def modern(demo_server: DemoServer) -> ModernClient:
    return ModernClient(demo_server.url)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"action": "accept", "content": {"ok": True}}, DeleteFolder.DELETED.format(path="/tmp/project")),
        ({"action": "accept", "content": {"ok": False}}, DeleteFolder.KEPT.format(path="/tmp/project")),
        ({"action": "decline"}, DeleteFolder.REFUSED.format(outcome=DECLINED)),
        ({"action": "cancel"}, DeleteFolder.REFUSED.format(outcome=CANCELLED)),
    ],
)
def test_modern_delete_folder(modern: ModernClient, answer: dict[str, Any], expected: str) -> None:
    first = modern.call_tool("delete_folder", {"path": "/tmp/project"})
    key, request = only_request(first["result"])
    assert key == "__main__:confirm_delete"
    assert request["method"] == "elicitation/create"
    assert request["params"]["message"] == DeleteFolder.QUESTION.format(path="/tmp/project")
    assert request["params"]["requestedSchema"]["properties"] == {"ok": {"title": "Ok", "type": "boolean"}}
    state = first["result"]["requestState"]
    second = modern.call_tool(
        "delete_folder", {"path": "/tmp/project"}, input_responses={key: answer}, request_state=state
    )
    assert complete_text(second) == expected


def test_modern_ctx_elicit_has_no_back_channel(modern: ModernClient) -> None:
    reply = modern.post(
        "tools/call", {"name": "book_table", "arguments": {"date": BookTable.FULL_DATE}}, name="book_table"
    )
    body = reply.json()
    assert reply.status == 400, body
    assert body["error"]["code"] == -32600


def test_modern_url_mode(modern: ModernClient) -> None:
    first = modern.call_tool("pay_deposit", {"booking_id": "b2"})
    key, request = only_request(first["result"])
    assert request["params"] == {
        "mode": "url",
        "message": Deposit.MESSAGE,
        "url": Deposit.URL.format(booking_id="b2"),
    }
    second = modern.call_tool(
        "pay_deposit",
        {"booking_id": "b2"},
        input_responses={key: {"action": "accept"}},
        request_state=first["result"]["requestState"],
    )
    assert complete_text(second) == Deposit.PAY


def test_modern_several_questions_in_one_round(modern: ModernClient) -> None:
    first = modern.call_tool("plan_trip")["result"]
    assert first["resultType"] == "input_required"
    requests = first["inputRequests"]
    messages = sorted(r["params"]["message"] for r in requests.values())
    assert messages == sorted([PlanTrip.DESTINATION, PlanTrip.TRAVELLERS, PlanTrip.EXTRAS])
    by_message = {r["params"]["message"]: k for k, r in requests.items()}
    responses = {
        by_message[PlanTrip.DESTINATION]: {"action": "accept", "content": {"city": "Lisbon"}},
        by_message[PlanTrip.TRAVELLERS]: {"action": "accept", "content": {"adults": 2, "children": 1}},
        by_message[PlanTrip.EXTRAS]: {"action": "accept", "content": {"insurance": True}},
    }
    second = modern.call_tool("plan_trip", input_responses=responses, request_state=first["requestState"])
    assert complete_text(second) == PlanTrip.ACCEPTED.format(
        destination='{"city": "Lisbon"}', travellers='{"adults": 2, "children": 1}', extras='{"insurance": true}'
    )


def test_modern_three_round_chain(modern: ModernClient) -> None:
    answers = [{"username": "ada"}, {"plan": "pro"}, {"newsletter": True}]
    expected_messages = [
        SetupAccount.USERNAME_QUESTION,
        SetupAccount.PLAN_QUESTION.format(username="ada"),
        SetupAccount.NEWSLETTER_QUESTION.format(plan="pro"),
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
    assert complete_text(final) == SetupAccount.DONE.format(username="ada", plan="pro", newsletter="true")


def test_modern_chain_stops_at_decline(modern: ModernClient) -> None:
    result = modern.call_tool("setup_account")["result"]
    key, _ = only_request(result)
    final = modern.call_tool(
        "setup_account", input_responses={key: {"action": "decline"}}, request_state=result["requestState"]
    )
    assert complete_text(final) == SetupAccount.REFUSED.format(outcome=DECLINED, step="username")


def test_modern_endless_questions_never_complete(modern: ModernClient) -> None:
    responses: dict[str, Any] | None = None
    state: str | None = None
    for n in range(1, 13):
        result = modern.call_tool("endless_questions", input_responses=responses, request_state=state)["result"]
        key, request = only_request(result)
        assert request["params"]["message"] == Endless.QUESTION.format(n=n)
        responses = {key: {"action": "accept", "content": {"answer": "yes"}}}
        state = result["requestState"]
    final = modern.call_tool(
        "endless_questions", input_responses={key: {"action": "cancel"}}, request_state=state
    )
    assert complete_text(final) == Endless.STOPPED.format(answers=11, action="cancel")


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
    assert props["size"]["oneOf"][0] == {"const": "s", "title": AllFields.SIZES["s"]}
    assert props["pet"]["enumNames"] == [AllFields.PETS[p] for p in ("cat", "dog", "fish")]
    assert props["toppings"]["items"] == {"enum": ["cheese", "ham", "olives"], "type": "string"}
    assert props["languages"]["items"]["anyOf"][1] == {"const": "fr", "title": AllFields.LANGUAGE_NAMES["fr"]}
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
    assert complete_text(second) == AllFields.ACCEPTED.format(json=json.dumps(ALL_FIELDS_ANSWER, sort_keys=True))


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
    assert complete_text(second) == DeleteFolder.DELETED.format(path="/tmp/project")


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
    # The page refuses to be framed, as scripts/demo's static server makes it.
    assert page.headers.get("content-security-policy") == "frame-ancestors 'none'", page.headers
    assert page.headers.get("x-frame-options") == "DENY", page.headers
    result = ModernClient(server.url).call_tool("book_table", {"date": "2025-12-30"})
    assert complete_text(result) == BookTable.BOOKED.format(party_size=2, date="2025-12-30")


def test_modern_mcp_param_header_required(modern: ModernClient) -> None:
    tools = modern.request("tools/list", {})["result"]["tools"]
    schema = next(t for t in tools if t["name"] == "book_in_region")["inputSchema"]
    assert schema["properties"]["region"]["x-mcp-header"] == BookInRegion.HEADER

    missing = modern.post("tools/call", {"name": "book_in_region", "arguments": {"region": "eu"}}, name="book_in_region")
    body = missing.json()
    assert missing.status == 400, body
    assert body["error"]["code"] == -32020

    headers = {f"Mcp-Param-{BookInRegion.HEADER}": "eu"}
    first = modern.call_tool("book_in_region", {"region": "eu"}, headers=headers)["result"]
    key, request = only_request(first)
    assert request["params"]["message"] == BookInRegion.QUESTION.format(region="eu")
    second = modern.call_tool(
        "book_in_region",
        {"region": "eu"},
        input_responses={key: {"action": "accept", "content": {"ok": True}}},
        request_state=first["requestState"],
        headers=headers,
    )
    assert complete_text(second) == BookInRegion.BOOKED.format(region="eu")


def test_trace_records_exchanges(make_demo_server: Any, tmp_path: Any) -> None:
    trace = tmp_path / "trace.jsonl"
    server = make_demo_server(["--trace", str(trace)])
    client = ModernClient(server.url)
    first = client.call_tool("delete_folder", {"path": "/tmp/project"})

    def posts() -> list[dict[str, Any]]:
        # The record is written once the server's handler returns, just after the reply.
        return [r for r in read_json_lines(trace) if r["method"] == "POST" and r["path"] == "/mcp"]

    deadline = time.monotonic() + 10
    while not posts() and time.monotonic() < deadline:
        time.sleep(0.05)
    calls = posts()
    assert len(calls) == 1
    assert json.loads(calls[0]["request_body"])["params"]["name"] == "delete_folder"
    assert calls[0]["request_headers"]["mcp-name"] == "delete_folder"
    assert calls[0]["status"] == 200
    assert json.loads(calls[0]["response_body"]) == first


# --- sampling and roots: the Sample / ListRoots resolvers, both eras ------------------

QUESTION = "What is six times seven?"
SAMPLING_PARAMS = {
    "messages": [{"role": "user", "content": {"type": "text", "text": QUESTION}}],
    "maxTokens": ClientRequests.MAX_TOKENS,
}
LLM_ANSWER = {"role": "assistant", "content": {"type": "text", "text": "forty-two"}, "model": "test-model"}
SAMPLING_CAPABILITIES = {**CAPABILITIES, "sampling": {}}
ROOTS_CAPABILITIES = {**CAPABILITIES, "roots": {}}
TWO_ROOTS = [{"uri": "file:///home/ada/project", "name": "project"}, {"uri": "file:///tmp/scratch"}]
_request_ids = itertools.count(1000)


def legacy_post(session: LegacySession, method: str, params: dict[str, Any]) -> HttpReply:
    """POST any request in a legacy session (LegacySession.start_call only does tools/call)."""
    body = {"jsonrpc": "2.0", "id": next(_request_ids), "method": method, "params": params}
    return http_request(session.url, body=body, headers=session.headers())


@pytest.fixture
def legacy_with(demo_server: DemoServer) -> Iterator[Callable[[dict[str, Any]], LegacySession]]:
    """Factory: an initialised legacy session declaring the given client capabilities."""
    sessions: list[LegacySession] = []

    def make(capabilities: dict[str, Any]) -> LegacySession:
        session = LegacySession(demo_server.url, capabilities)
        session.initialize()
        sessions.append(session)
        return session

    yield make
    for session in sessions:
        session.close()


def assert_missing_capability(reply: HttpReply, capability: str) -> None:
    """The SDK's -32021 for a resolver whose request needs a capability the client lacks."""
    messages = list(reply.messages())
    assert len(messages) == 1, messages
    error = messages[0]["error"]
    assert error["code"] == -32021, error
    assert error["message"].startswith(f"Client did not declare the {capability} capability required by resolver")
    assert error["data"] == {"requiredCapabilities": {capability: {}}}, error


def test_legacy_ask_llm_sampling(legacy_with: Callable[[dict[str, Any]], LegacySession]) -> None:
    session = legacy_with(SAMPLING_CAPABILITIES)
    stream = session.start_call("ask_llm", {"question": QUESTION})
    ask = next(stream)
    assert ask["method"] == "sampling/createMessage"
    assert ask["params"] == SAMPLING_PARAMS
    assert session.respond(ask["id"], LLM_ANSWER) == 202
    assert complete_text(next(stream)) == ClientRequests.SAID.format(model="test-model", text="forty-two")


MISSING_CAPABILITY_CASES = [("ask_llm", {"question": QUESTION}, "sampling"), ("list_my_roots", {}, "roots")]


@pytest.mark.parametrize(("tool", "arguments", "capability"), MISSING_CAPABILITY_CASES)
def test_legacy_resolver_without_capability(
    legacy: LegacySession, tool: str, arguments: dict[str, Any], capability: str
) -> None:
    # The error rides the POST's SSE stream (HTTP 200), like any legacy result.
    reply = legacy_post(legacy, "tools/call", {"name": tool, "arguments": arguments})
    assert reply.status == 200
    assert reply.is_sse
    assert_missing_capability(reply, capability)


@pytest.mark.parametrize(
    ("roots", "expected"),
    [(TWO_ROOTS, ClientRequests.ROOTS.format(uris=" ".join(r["uri"] for r in TWO_ROOTS))), ([], ClientRequests.NO_ROOTS)],
)
def test_legacy_list_my_roots(
    legacy_with: Callable[[dict[str, Any]], LegacySession], roots: list[dict[str, str]], expected: str
) -> None:
    session = legacy_with(ROOTS_CAPABILITIES)
    stream = session.start_call("list_my_roots")
    ask = next(stream)
    assert ask["method"] == "roots/list"
    assert session.respond(ask["id"], {"roots": roots}) == 202
    assert complete_text(next(stream)) == expected


def test_modern_ask_llm_sampling(demo_server: DemoServer) -> None:
    client = ModernClient(demo_server.url, SAMPLING_CAPABILITIES)
    first = client.call_tool("ask_llm", {"question": QUESTION})["result"]
    key, request = only_request(first)
    assert key == "__main__:ask_model"
    assert request == {"method": "sampling/createMessage", "params": SAMPLING_PARAMS}
    second = client.call_tool(
        "ask_llm", {"question": QUESTION}, input_responses={key: LLM_ANSWER}, request_state=first["requestState"]
    )
    assert complete_text(second) == ClientRequests.SAID.format(model="test-model", text="forty-two")


@pytest.mark.parametrize(("tool", "arguments", "capability"), MISSING_CAPABILITY_CASES)
def test_modern_resolver_without_capability(
    modern: ModernClient, tool: str, arguments: dict[str, Any], capability: str
) -> None:
    # The SDK maps -32021 to HTTP 400 (ERROR_CODE_HTTP_STATUS in mcp/shared/inbound.py).
    reply = modern.post("tools/call", {"name": tool, "arguments": arguments}, name=tool)
    assert reply.status == 400
    assert not reply.is_sse
    assert_missing_capability(reply, capability)


@pytest.mark.parametrize(
    ("roots", "expected"),
    [(TWO_ROOTS, ClientRequests.ROOTS.format(uris=" ".join(r["uri"] for r in TWO_ROOTS))), ([], ClientRequests.NO_ROOTS)],
)
def test_modern_list_my_roots(demo_server: DemoServer, roots: list[dict[str, str]], expected: str) -> None:
    client = ModernClient(demo_server.url, ROOTS_CAPABILITIES)
    first = client.call_tool("list_my_roots")["result"]
    key, request = only_request(first)
    assert key == "__main__:fetch_roots"
    assert request["method"] == "roots/list"
    second = client.call_tool(
        "list_my_roots", input_responses={key: {"roots": roots}}, request_state=first["requestState"]
    )
    assert complete_text(second) == expected


# --- a prompt and a resource template that ask a form question, both eras -------------

TRIP_SCHEMA = {
    "type": "object",
    "properties": {"days": {"default": 3, "maximum": 30, "minimum": 1, "title": TripBrief.DAYS, "type": "integer"}},
}
REVEAL_SCHEMA = {"type": "object", "properties": {"ok": {"title": NoteResource.OK, "type": "boolean"}}, "required": ["ok"]}
TRIP_CASES = [
    ({"action": "accept", "content": {"days": 5}}, TripBrief.PLAN.format(days=5, city="Lisbon")),
    ({"action": "decline"}, TripBrief.REFUSED.format(city="Lisbon", outcome=DECLINED)),
]
NOTE_CASES = [
    ({"action": "accept", "content": {"ok": True}}, NoteResource.SHOWN.format(name="shopping")),
    ({"action": "decline"}, NoteResource.HIDDEN.format(name="shopping")),
]


def assert_form(params: dict[str, Any], message: str, schema: dict[str, Any]) -> None:
    assert params["mode"] == "form"
    assert params["message"] == message
    rendered = params["requestedSchema"]
    assert {k: rendered.get(k) for k in schema} == schema, rendered
    assert rendered.get("required", []) == schema.get("required", [])


def prompt_texts(response: dict[str, Any]) -> list[tuple[str, str]]:
    """(role, text) of each message of a GetPromptResult."""
    assert "result" in response, response
    result = response["result"]
    assert result.get("resultType", "complete") == "complete", result
    return [(m["role"], m["content"]["text"]) for m in result["messages"]]


def resource_text(response: dict[str, Any], uri: str) -> str:
    """The single text content of a ReadResourceResult, checking its uri and mime type."""
    assert "result" in response, response
    result = response["result"]
    assert result.get("resultType", "complete") == "complete", result
    [content] = result["contents"]
    assert content["uri"] == uri
    assert content["mimeType"] == "text/plain"
    return str(content["text"])


@pytest.mark.parametrize(("answer", "expected"), TRIP_CASES)
def test_legacy_prompt_trip_brief(legacy: LegacySession, answer: dict[str, Any], expected: str) -> None:
    stream = legacy_post(legacy, "prompts/get", {"name": "trip_brief", "arguments": {"city": "Lisbon"}}).messages()
    ask = next(stream)
    assert ask["method"] == "elicitation/create"
    assert_form(ask["params"], TripBrief.QUESTION.format(city="Lisbon"), TRIP_SCHEMA)
    assert legacy.respond(ask["id"], answer) == 202
    assert prompt_texts(next(stream)) == [("user", expected)]


@pytest.mark.parametrize(("answer", "expected"), NOTE_CASES)
def test_legacy_resource_template_note(legacy: LegacySession, answer: dict[str, Any], expected: str) -> None:
    stream = legacy_post(legacy, "resources/read", {"uri": "notes://shopping"}).messages()
    ask = next(stream)
    assert ask["method"] == "elicitation/create"
    assert_form(ask["params"], NoteResource.QUESTION.format(name="shopping"), REVEAL_SCHEMA)
    assert legacy.respond(ask["id"], answer) == 202
    assert resource_text(next(stream), "notes://shopping") == expected


def modern_round(
    client: ModernClient,
    method: str,
    params: dict[str, Any],
    name: str,
    input_responses: dict[str, Any] | None = None,
    request_state: str | None = None,
) -> dict[str, Any]:
    """One modern-era round of a prompts/get or resources/read (`name`: the Mcp-Name value)."""
    extra: dict[str, Any] = {}
    if input_responses is not None:
        extra["inputResponses"] = input_responses
    if request_state is not None:
        extra["requestState"] = request_state
    return client.request(method, {**params, **extra}, name=name)


@pytest.mark.parametrize(("answer", "expected"), TRIP_CASES)
def test_modern_prompt_trip_brief(modern: ModernClient, answer: dict[str, Any], expected: str) -> None:
    params = {"name": "trip_brief", "arguments": {"city": "Lisbon"}}
    first = modern_round(modern, "prompts/get", params, "trip_brief")["result"]
    key, request = only_request(first)
    assert key == "days"
    assert request["method"] == "elicitation/create"
    assert_form(request["params"], TripBrief.QUESTION.format(city="Lisbon"), TRIP_SCHEMA)
    second = modern_round(modern, "prompts/get", params, "trip_brief", {key: answer}, first["requestState"])
    assert prompt_texts(second) == [("user", expected)]


@pytest.mark.parametrize(("answer", "expected"), NOTE_CASES)
def test_modern_resource_template_note(modern: ModernClient, answer: dict[str, Any], expected: str) -> None:
    params = {"uri": "notes://shopping"}
    first = modern_round(modern, "resources/read", params, "notes://shopping")["result"]
    key, request = only_request(first)
    assert key == "reveal"
    assert request["method"] == "elicitation/create"
    assert_form(request["params"], NoteResource.QUESTION.format(name="shopping"), REVEAL_SCHEMA)
    second = modern_round(modern, "resources/read", params, "notes://shopping", {key: answer}, first["requestState"])
    assert resource_text(second, "notes://shopping") == expected


def test_modern_answer_without_request_state_is_asked_again(modern: ModernClient) -> None:
    params = {"name": "trip_brief", "arguments": {"city": "Lisbon"}}
    first = modern_round(modern, "prompts/get", params, "trip_brief")["result"]
    key, _ = only_request(first)
    again = modern_round(modern, "prompts/get", params, "trip_brief", {key: TRIP_CASES[0][0]})["result"]
    assert only_request(again)[0] == "days"


SCHEMA_MISMATCH = FormErrors.MISMATCH


def test_legacy_prompt_answer_not_matching_schema(legacy: LegacySession) -> None:
    reply = legacy_post(legacy, "prompts/get", {"name": "trip_brief", "arguments": {"city": "Lisbon"}})
    stream = reply.messages()
    ask = next(stream)
    legacy.respond(ask["id"], {"action": "accept", "content": {"days": "5"}})
    error = next(stream)["error"]
    assert reply.status == 200
    assert error == {"code": -32602, "message": SCHEMA_MISMATCH}


def test_modern_prompt_answer_not_matching_schema(modern: ModernClient) -> None:
    params = {"name": "trip_brief", "arguments": {"city": "Lisbon"}}
    first = modern_round(modern, "prompts/get", params, "trip_brief")["result"]
    answer = {"action": "accept", "content": {"days": 31}}
    extra = {"inputResponses": {"days": answer}, "requestState": first["requestState"]}
    reply = modern.post("prompts/get", {**params, **extra}, name="trip_brief")
    body = reply.json()
    assert reply.status == 400, body
    assert body["error"] == {"code": -32602, "message": SCHEMA_MISMATCH}


# --- streams the server closes: resume_after_drop, confirm_deposit_after_drop ---------

STILL_THERE_SCHEMA = {
    "type": "object",
    "properties": {"ok": {"title": Resume.OK, "type": "boolean"}},
    "required": ["ok"],
}
RESUME_CASES = [
    ({"action": "accept", "content": {"ok": True}}, Resume.OK_RESULT),
    ({"action": "accept", "content": {"ok": False}}, Resume.NOT_OK),
    ({"action": "decline"}, Resume.REFUSED.format(outcome=DECLINED)),
    ({"action": "cancel"}, Resume.REFUSED.format(outcome=CANCELLED)),
]
RETRY_MS = 200
QUIET_WAIT = 1.0
"""How long a stream must stay silent to count as "did not get it" (a bounded negative)."""


@dataclass
class SseEvent:
    """One SSE event with every field (harness's `events()` keeps only JSON data)."""

    id: str | None
    retry: int | None
    data: str

    @property
    def message(self) -> Any:
        """The JSON-RPC message, or None for a priming event (empty data)."""
        return json.loads(self.data) if self.data else None

    @property
    def is_priming(self) -> bool:
        return self.id is not None and self.data == ""


class SseStream:
    """One HTTP request whose SSE reply is read event by event, with bounded waits."""

    def __init__(
        self, url: str, method: str, headers: dict[str, str], body: Any = None, timeout: float = 10.0
    ) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=timeout)
        payload = None if body is None else json.dumps(body).encode()
        all_headers = {**headers, **({"Content-Type": "application/json"} if payload is not None else {})}
        self.conn.request(method, parts.path or "/", body=payload, headers=all_headers)
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.headers = {k.lower(): v for k, v in self.resp.getheaders()}
        self.timeout = timeout

    def next(self) -> SseEvent | None:
        """The next event; None once the server ended the stream; TimeoutError if none in time."""
        event_id: str | None = None
        retry: int | None = None
        data: list[str] = []
        seen = False
        while True:
            raw = self.resp.readline()
            if not raw:
                return None
            line = raw.decode("utf-8").rstrip("\r\n")
            if line == "":
                if seen:
                    return SseEvent(event_id, retry, "\n".join(data))
                continue
            if line.startswith(":"):
                continue  # a comment (sse-starlette's keep-alive ping)
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            seen = True
            if name == "id":
                event_id = value
            elif name == "retry":
                retry = int(value)
            elif name == "data":
                data.append(value)

    def until_end(self) -> list[SseEvent]:
        """Every event until the server ends the stream (fails if it stays open)."""
        events: list[SseEvent] = []
        while (event := self.next()) is not None:
            events.append(event)
        self.close()
        return events

    def until_message(self) -> tuple[list[SseEvent], Any]:
        """Skip priming events up to the next JSON-RPC message: (priming events, message)."""
        primings: list[SseEvent] = []
        while True:
            event = self.next()
            assert event is not None, "the stream ended before the next message"
            if event.message is not None:
                return primings, event.message
            assert event.is_priming, event
            primings.append(event)

    def quiet(self, seconds: float = QUIET_WAIT) -> tuple[list[SseEvent], bool]:
        """The events of the next `seconds` and whether the stream ended meanwhile; closes it."""
        events: list[SseEvent] = []
        deadline = time.monotonic() + seconds
        try:
            while (left := deadline - time.monotonic()) > 0:
                assert self.conn.sock is not None
                self.conn.sock.settimeout(left)
                event = self.next()
                if event is None:
                    return events, True
                events.append(event)
        except TimeoutError:
            pass
        finally:
            self.close()
        return events, False

    def close(self) -> None:
        self.conn.close()


class ResumableSession(LegacySession):
    """A legacy session on a `--resumable` server, reading its SSE streams field by field.

    Every POST's stream starts with a priming event (`id:` and empty data), which
    `LegacySession` (JSON data only) cannot read, so its initialize is redone here.
    """

    def initialize(self) -> dict[str, Any]:
        body = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"protocolVersion": LEGACY, "capabilities": self.capabilities, "clientInfo": CLIENT_INFO},
        }
        reply = SseStream(self.url, "POST", {"Accept": "application/json, text/event-stream"}, body)
        self.session_id = reply.headers.get("mcp-session-id")
        events = reply.until_end()
        assert self.session_id, "initialize answered without an mcp-session-id header"
        assert events[0].is_priming and events[0].retry == RETRY_MS, events
        result = events[1].message
        note = http_request(
            self.url, body={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=self.headers()
        )
        note.close()
        assert note.status == 202, f"notifications/initialized got HTTP {note.status}"
        return dict(result)

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> SseStream:
        """POST tools/call; the reply's SSE stream, unread."""
        self._next_id += 1
        params = {"name": name, "arguments": arguments or {}}
        body = {"jsonrpc": "2.0", "id": self._next_id, "method": "tools/call", "params": params}
        reply = SseStream(self.url, "POST", self.headers(), body)
        assert reply.status == 200, reply.status
        return reply

    def get(self, last_event_id: str | None = None) -> SseStream:
        """GET the session's stream: a fresh one, or with `Last-Event-ID` a resumed one."""
        headers = {**self.headers(), "Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        return SseStream(self.url, "GET", headers)


@pytest.fixture
def resumable(make_demo_server: Any) -> Iterator[ResumableSession]:
    server = make_demo_server(["--resumable"])
    session = ResumableSession(server.url)
    assert session.initialize()["result"]["protocolVersion"] == LEGACY
    yield session
    session.close()


def test_resumable_request_stream_dropped_then_resumed_with_get(resumable: ResumableSession) -> None:
    post = resumable.call("resume_after_drop")
    # The POST's stream: a priming event only, then the server closes it (no elicitation).
    [priming] = post.until_end()
    assert priming.is_priming and priming.retry == RETRY_MS, priming

    resumed = resumable.get(priming.id)
    assert resumed.status == 200
    assert resumed.headers["content-type"].startswith("text/event-stream")
    skipped, ask = resumed.until_message()
    assert skipped == []  # replayed events come first, then a priming event of their own
    assert ask["method"] == "elicitation/create"
    assert_form(ask["params"], Resume.QUESTION, STILL_THERE_SCHEMA)
    assert resumable.respond(ask["id"], {"action": "accept", "content": {"ok": True}}) == 202

    primings, final = resumed.until_message()
    assert [p.retry for p in primings] == [RETRY_MS]
    assert final["id"] == resumable._next_id  # the tools/call's own id, though it came on a GET
    assert complete_text(final) == Resume.OK_RESULT
    # Unlike a POST's stream, the resumed GET does not end after the response.
    assert resumed.quiet() == ([], False)


def completion(elicitation_id: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": elicitation_id}}


def warm_up(session: ResumableSession, get: SseStream, booking_id: str) -> SseEvent:
    """Make the open GET stream carry one live event (the SDK does not prime a fresh GET).

    `confirm_deposit` sends the completion of `deposit-{booking_id}` on the GET stream; the
    event that carries it, with its `id:`, is what a client resumes the GET stream from.
    """
    confirm = session.call("confirm_deposit", {"booking_id": booking_id})
    assert complete_text(confirm.until_message()[1]) == Deposit.CONFIRMED.format(elicitation_id=f"deposit-{booking_id}")
    confirm.close()
    event = get.next()
    assert event is not None and event.id is not None and event.retry is None, event
    assert event.message == completion(f"deposit-{booking_id}"), event
    return event


def test_resumable_fresh_get_stream_is_not_primed(resumable: ResumableSession) -> None:
    # The stock SDK primes POST streams and resumed GETs, not a GET opened without
    # Last-Event-ID: the demo must not add a priming event there (it did once).
    fresh = resumable.get()
    assert fresh.status == 200
    assert fresh.headers["content-type"].startswith("text/event-stream")
    assert fresh.quiet() == ([], False)


def test_resumable_get_stream_dropped_completion_only_with_last_event_id(resumable: ResumableSession) -> None:
    first = resumable.get()
    assert first.status == 200
    # No priming event on a fresh GET: a live event gives the stream an id to resume from.
    warmup = warm_up(resumable, first, "warmup")
    assert warmup.id is not None

    confirm = resumable.call("confirm_deposit_after_drop", {"booking_id": "b1"})
    assert complete_text(confirm.until_message()[1]) == Deposit.CONFIRMED_AFTER_DROP.format(elicitation_id="deposit-b1")
    confirm.close()
    assert first.until_end() == []  # closed by the server, the completion not on it

    resumed = resumable.get(warmup.id)
    assert resumed.status == 200
    assert resumed.headers["content-type"].startswith("text/event-stream")
    # The replay: only what the GET stream got after the warmup event (not the warmup).
    replayed = resumed.next()
    assert replayed is not None and replayed.retry is None, replayed
    assert replayed.message == completion("deposit-b1")
    assert replayed.id is not None and int(replayed.id) > int(warmup.id), (warmup, replayed)
    # Then the SDK primes the resumed stream.
    priming = resumed.next()
    assert priming is not None and priming.is_priming and priming.retry == RETRY_MS, priming
    assert priming.id is not None and int(priming.id) > int(replayed.id), (replayed, priming)
    # After the replay the resumed GET is the session's live GET stream again.
    plain = resumable.call("confirm_deposit", {"booking_id": "b2"})
    assert complete_text(plain.until_message()[1]) == Deposit.CONFIRMED.format(elicitation_id="deposit-b2")
    plain.close()
    live = resumed.next()
    assert live is not None and live.id is not None and live.retry is None, live
    assert live.message == completion("deposit-b2")
    resumed.close()

    # A GET without Last-Event-ID starts afresh: no replay of deposit-b1, and (stock SDK)
    # no priming event either. (409 until the server notices the closed GET above: one GET
    # stream per session.)
    deadline = time.monotonic() + 10
    while (fresh := resumable.get()).status == 409 and time.monotonic() < deadline:
        fresh.close()
        time.sleep(0.05)
    assert fresh.status == 200
    assert fresh.quiet() == ([], False)


def test_resumable_unknown_last_event_id_gets_an_empty_stream(resumable: ResumableSession) -> None:
    reply = resumable.get("no-such-event")
    assert reply.status == 200
    assert reply.until_end() == []


@pytest.mark.parametrize(("answer", "expected"), RESUME_CASES)
def test_legacy_resume_after_drop_without_event_store(
    legacy: LegacySession, answer: dict[str, Any], expected: str
) -> None:
    # Without an event store, ctx.close_sse_stream() is a no-op: a plain elicitation.
    stream = legacy.start_call("resume_after_drop")
    ask = next(stream)
    assert ask["method"] == "elicitation/create"
    assert_form(ask["params"], Resume.QUESTION, STILL_THERE_SCHEMA)
    assert legacy.respond(ask["id"], answer) == 202
    assert complete_text(next(stream)) == expected


def test_legacy_confirm_deposit_after_drop_without_event_store(legacy: LegacySession) -> None:
    # Nothing is dropped: the completion arrives on the open GET stream, as for confirm_deposit.
    notifications: list[Any] = []
    get_stream = legacy.open_get_stream()
    reader = threading.Thread(target=lambda: notifications.append(next(get_stream)), daemon=True)
    reader.start()
    confirm = legacy.start_call("confirm_deposit_after_drop", {"booking_id": "b9"})
    assert complete_text(next(confirm)) == Deposit.CONFIRMED_AFTER_DROP.format(elicitation_id="deposit-b9")
    reader.join(timeout=20)
    assert notifications == [
        {"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "deposit-b9"}}
    ]


@pytest.mark.parametrize(("answer", "expected"), RESUME_CASES)
def test_modern_resume_after_drop_asks_in_a_round(modern: ModernClient, answer: dict[str, Any], expected: str) -> None:
    first = modern.call_tool("resume_after_drop")["result"]
    key, request = only_request(first)
    assert key == "still_there"
    assert_form(request["params"], Resume.QUESTION, STILL_THERE_SCHEMA)
    second = modern.call_tool(
        "resume_after_drop", input_responses={key: answer}, request_state=first["requestState"]
    )
    assert complete_text(second) == expected


def test_modern_confirm_deposit_after_drop(modern: ModernClient) -> None:
    result = modern.call_tool("confirm_deposit_after_drop", {"booking_id": "b3"})
    assert complete_text(result) == Deposit.CONFIRMED_MODERN.format(elicitation_id="deposit-b3")


def test_resumable_sessions_keep_their_own_events(resumable: ResumableSession) -> None:
    # The SDK names a session's GET stream `_GET_stream` in every session; the demo's store
    # keeps one log per session, so a replay never carries another session's events.
    other = ResumableSession(resumable.url)
    other.initialize()
    try:
        warmups: dict[str, str] = {}
        for session, booking in ((resumable, "mine"), (other, "theirs")):
            get = session.get()
            assert get.status == 200
            warmup = warm_up(session, get, f"warmup-{booking}")
            assert warmup.id is not None
            warmups[booking] = warmup.id
            confirm = session.call("confirm_deposit_after_drop", {"booking_id": booking})
            confirm.until_message()
            confirm.close()
            assert get.until_end() == []
        for session, booking in ((resumable, "mine"), (other, "theirs")):
            replay = session.get(warmups[booking])
            assert replay.until_message() == ([], completion(f"deposit-{booking}"))
            events, _ = replay.quiet()
            assert [(e.is_priming, e.retry) for e in events] == [(True, RETRY_MS)], events
        # Another session's event id is unknown here: an empty stream.
        assert other.get(warmups["mine"]).until_end() == []
    finally:
        other.close()
