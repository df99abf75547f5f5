"""The host API (`McpClient` in `www/host.html`) against the real SDK demo server, each era.

What a host gets beyond the demo app: prompts and resources that ask for input, its own
roots offered to the server, and a sampling handler (or none: then sampling is not
declared and the server refuses the call, which the host sees in words). Elicitation
cards render into the host's element with the DOM contract's markup; the result is the
page's JSON of what the Promise resolved with.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pytest
from demo_server.texts import (
    CANCELLED,
    DECLINED,
    BookInRegion,
    ClientRequests,
    DeleteFolder,
    Endless,
    NoteResource,
    Notes,
    Route,
    TripBrief,
)
from harness import button, control_by_label, wait_css, wait_for, wait_text
from test_demo_flows import LEGACY, MODERN, card, set_checkbox, set_text

BOTH = [LEGACY, MODERN]


def open_host(
    driver: Any,
    www: Any,
    server: Any,
    protocol: str,
    sampling: str | None = None,
    roots: tuple[str, ...] = (),
    max_rounds: int | None = None,
    connected: bool = True,
    policy: str | None = None,
    tasks: str | None = None,
    locale: str | None = None,
) -> None:
    """Opens `host.html` on `server` and waits for the connection (or its failure)."""
    query = [("server", server.url), ("protocol", protocol), *[("root", r) for r in roots]]
    if sampling is not None:
        query.append(("sampling", sampling))
    if max_rounds is not None:
        query.append(("maxRounds", str(max_rounds)))
    if policy is not None:
        query.append(("policy", policy))
    if tasks is not None:
        query.append(("tasks", tasks))
    if locale is not None:
        query.append(("locale", locale))
    driver.get(f"{www.origin}/host.html?{urlencode(query)}")
    wait_text(driver, "[data-testid=connection-status]", f"connected · {protocol}" if connected else "not connected")


def run(driver: Any, kind: str, target: str, args: dict[str, Any] | None = None) -> None:
    """Fills the host page's Run form (`kind`: tool, prompt or resource) and presses Run."""
    from selenium.webdriver.support.ui import Select

    Select(wait_css(driver, "#kind")).select_by_value(kind)
    for selector, text in (("#target", target), ("#args", json.dumps(args or {}))):
        field = wait_css(driver, selector)
        field.clear()
        field.send_keys(text)
    button(driver, "Run").click()


def result(driver: Any) -> Any:
    """What the request's Promise resolved with, once it did."""
    return json.loads(wait_css(driver, "[data-testid=host-result][data-done=true]").text)


def host_error(driver: Any, text: str) -> str:
    """The page's `role=alert` once it contains `text`."""
    return wait_text(driver, "[data-testid=host-error][role=alert]", text).text


def tool_text(driver: Any) -> str:
    return result(driver)["content"][0]["text"]


# --- sampling ----------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", BOTH)
def test_sampling_handler_answers(driver: Any, www: Any, demo_server: Any, protocol: str) -> None:
    open_host(driver, www, demo_server, protocol, sampling="echo")
    run(driver, "tool", "ask_llm", {"question": "What is 6x7?"})
    assert tool_text(driver) == ClientRequests.SAID.format(model="host-page-echo", text="echo: What is 6x7?")


@pytest.mark.parametrize("protocol", BOTH)
def test_without_a_sampling_handler_the_server_refuses_in_words(
    driver: Any, www: Any, demo_server: Any, protocol: str
) -> None:
    open_host(driver, www, demo_server, protocol)
    run(driver, "tool", "ask_llm", {"question": "What is 6x7?"})
    text = host_error(driver, "The call to ask_llm failed")
    assert "sampling" in text, text


def test_modern_sampling_handler_failure_fails_the_call_in_words(driver: Any, www: Any, demo_server: Any) -> None:
    open_host(driver, www, demo_server, MODERN, sampling="fail")
    run(driver, "tool", "ask_llm", {"question": "What is 6x7?"})
    text = host_error(driver, "The user refused to share the model.")
    assert "sampling" in text, text


def test_legacy_sampling_handler_failure_reaches_the_server(driver: Any, www: Any, make_demo_server: Any) -> None:
    """Legacy: the refusal goes back as the JSON-RPC error of the server's request (seen in
    the server's trace); the tool then fails with that error, and the host says in words
    both what its handler refused and why the call failed."""
    server = make_demo_server()
    open_host(driver, www, server, LEGACY, sampling="fail")
    run(driver, "tool", "ask_llm", {"question": "What is 6x7?"})
    wait_text(driver, ".mce-client .notice[role=status]", "The user refused to share the model.")
    text = host_error(driver, "The call to ask_llm failed")
    assert "The user refused to share the model." in text and "-32603" in text, text

    # What the server sent and got: its sampling request, our error answer to it, and the
    # tool call's own JSON-RPC error.
    def traced() -> list[tuple[Any, dict[str, Any]]]:
        return [(json.loads(r["request_body"] or "null"), r) for r in server.trace() if r["method"] == "POST"]

    def call_ended(_: Any) -> bool:
        # A request is traced once it ends, which may be just after the page saw its end.
        return any(isinstance(body, dict) and body.get("method") == "tools/call" for body, _ in traced())

    wait_for(driver, call_ended, "the tools/call in the server's trace")
    posts = traced()
    calls = [(body, r) for body, r in posts if isinstance(body, dict) and body.get("method") == "tools/call"]
    assert len(calls) == 1, [body for body, _ in posts]
    call, record = calls[0]
    sent = sse_messages(record["response_body"])
    asks = [m for m in sent if m.get("method") == "sampling/createMessage"]
    assert len(asks) == 1, sent
    refused = {"code": -32603, "message": "The user refused to share the model."}
    answers = [body for body, _ in posts if isinstance(body, dict) and body.get("id") == asks[0]["id"] and "method" not in body]
    assert answers == [{"jsonrpc": "2.0", "id": asks[0]["id"], "error": refused}], answers
    assert sent[-1] == {"jsonrpc": "2.0", "id": call["id"], "error": refused}, sent


def sse_messages(stream: str) -> list[dict[str, Any]]:
    """The JSON-RPC messages of an SSE stream as the server sent it (its `data:` lines)."""
    out = []
    for line in stream.splitlines():
        if line.startswith("data:") and line[5:].strip():
            out.append(json.loads(line[5:]))
    return out


# --- roots -------------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", BOTH)
def test_roots_are_the_hosts(driver: Any, www: Any, demo_server: Any, protocol: str) -> None:
    roots = ("file:///home/me/project", "file:///srv/data")
    open_host(driver, www, demo_server, protocol, roots=roots)
    run(driver, "tool", "list_my_roots")
    assert tool_text(driver) == ClientRequests.ROOTS.format(uris=" ".join(roots))


@pytest.mark.parametrize("protocol", BOTH)
def test_no_roots_by_default(driver: Any, www: Any, demo_server: Any, protocol: str) -> None:
    open_host(driver, www, demo_server, protocol)
    run(driver, "tool", "list_my_roots")
    assert tool_text(driver) == ClientRequests.NO_ROOTS


# --- prompts and resources that ask for input ----------------------------------------------


@pytest.mark.parametrize("protocol", BOTH)
@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("Submit", TripBrief.PLAN.format(days=5, city="Oslo")),
        ("Decline", TripBrief.REFUSED.format(city="Oslo", outcome=DECLINED)),
        ("Cancel", TripBrief.REFUSED.format(city="Oslo", outcome=CANCELLED)),
    ],
)
def test_prompt_asks_for_input(
    driver: Any, www: Any, demo_server: Any, protocol: str, action: str, expected: str
) -> None:
    open_host(driver, www, demo_server, protocol)
    run(driver, "prompt", "trip_brief", {"city": "Oslo"})
    form = card(driver, "form", TripBrief.QUESTION.format(city="Oslo"))
    assert control_by_label(form, TripBrief.DAYS).get_attribute("value") == "3", "the default is pre-filled"
    if action == "Submit":
        set_text(form, TripBrief.DAYS, "5")
    button(form, action).click()
    messages = result(driver)["messages"]
    assert [m["content"]["text"] for m in messages] == [expected]


@pytest.mark.parametrize("protocol", BOTH)
@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("Submit", NoteResource.SHOWN.format(name="groceries")),
        ("Decline", NoteResource.HIDDEN.format(name="groceries")),
        ("Cancel", NoteResource.CANCELLED.format(name="groceries")),
    ],
)
def test_resource_asks_for_input(
    driver: Any, www: Any, demo_server: Any, protocol: str, action: str, expected: str
) -> None:
    open_host(driver, www, demo_server, protocol)
    run(driver, "resource", "notes://groceries")
    form = card(driver, "form", NoteResource.QUESTION.format(name="groceries"))
    if action == "Submit":
        set_checkbox(form, NoteResource.OK, True)
    button(form, action).click()
    contents = result(driver)["contents"]
    assert [c["text"] for c in contents] == [expected]


# --- options -------------------------------------------------------------------------------


def test_configured_round_bound(driver: Any, www: Any, demo_server: Any) -> None:
    open_host(driver, www, demo_server, MODERN, max_rounds=3)
    run(driver, "tool", "endless_questions")
    for n in range(1, 4):
        button(card(driver, "form", Endless.QUESTION.format(n=n)), "Submit").click()
    host_error(driver, "stopped after 3 rounds")


def test_a_wrong_option_is_refused_at_connect(driver: Any, www: Any, demo_server: Any) -> None:
    open_host(driver, www, demo_server, MODERN, max_rounds=0, connected=False)
    host_error(driver, "options.maxRounds must be a whole number from 1 to 1000")


def test_modern_non_ascii_resource_uri_is_mirrored_in_mcp_name(driver: Any, www: Any, demo_server: Any) -> None:
    """`Mcp-Name` carries the URI; one outside Latin-1 (which `fetch` cannot send raw) goes
    base64-wrapped as the SDK expects (a mismatch would be HTTP 400, -32020)."""
    open_host(driver, www, demo_server, MODERN)
    run(driver, "resource", "notes://日記")
    form = card(driver, "form", NoteResource.QUESTION.format(name="日記"))
    set_checkbox(form, NoteResource.OK, True)
    button(form, "Submit").click()
    assert [c["text"] for c in result(driver)["contents"]] == [NoteResource.SHOWN.format(name="日記")]


@pytest.mark.parametrize("protocol", BOTH)
def test_lists_of_what_the_server_offers(driver: Any, www: Any, demo_server: Any, protocol: str) -> None:
    open_host(driver, www, demo_server, protocol)
    listed = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        const c = window.mcpClient;
        Promise.all([c.listTools(), c.listPrompts(), c.listResources(), c.listResourceTemplates()])
          .then(([t, p, r, rt]) => done({ tools: t.map((x) => x.name), prompts: p,
                                          resources: r, templates: rt }))
          .catch((e) => done({ error: e.message }));"""
    )
    assert "error" not in listed, listed
    assert "ask_llm" in listed["tools"]
    assert [(p["name"], [(a["name"], a.get("required")) for a in p["arguments"]]) for p in listed["prompts"]] == [
        ("trip_brief", [("city", True)])
    ]
    assert listed["resources"] == []
    assert [(t["uriTemplate"], t["name"]) for t in listed["templates"]] == [("notes://{name}", "note")]


# --- faults: the server goes away while a card is pending ----------------------------------


def test_modern_server_down_keeps_the_answer_and_resends(driver: Any, www: Any, make_demo_server: Any) -> None:
    server = make_demo_server()
    open_host(driver, www, server, MODERN)
    run(driver, "resource", "notes://groceries")
    form = card(driver, "form", NoteResource.QUESTION.format(name="groceries"))
    set_checkbox(form, NoteResource.OK, True)
    server.stop()
    button(form, "Submit").click()
    wait_text(driver, "[data-elicitation] [role=alert]", "Cannot reach the server")
    assert control_by_label(form, NoteResource.OK).is_selected(), "nothing typed is lost"
    server.start()
    button(form, "Submit").click()
    assert [c["text"] for c in result(driver)["contents"]] == [NoteResource.SHOWN.format(name="groceries")]


def test_legacy_server_down_keeps_the_answer_for_the_call_made_again(
    driver: Any, www: Any, make_demo_server: Any
) -> None:
    """2025-11-25: the server's request dies with it. The card keeps the answer and says so;
    when the host makes the call again, the same question is answered with it at once."""
    server = make_demo_server()
    open_host(driver, www, server, LEGACY)
    run(driver, "prompt", "trip_brief", {"city": "Oslo"})
    form = card(driver, "form", TripBrief.QUESTION.format(city="Oslo"))
    set_text(form, TripBrief.DAYS, "6")
    server.stop()
    host_error(driver, "Getting the prompt trip_brief failed")
    server.start()
    button(form, "Submit").click()
    wait_text(driver, "[data-elicitation] [role=alert]", "your answer is kept")
    assert control_by_label(form, TripBrief.DAYS).get_attribute("value") == "6"
    button(driver, "Run").click()
    assert [m["content"]["text"] for m in result(driver)["messages"]] == [TripBrief.PLAN.format(days=6, city="Oslo")]


def listings_and_calls(server: Any) -> list[tuple[str, str]]:
    """The `tools/list` and `tools/call` requests the server received, in the order they
    started (the trace is written as each ends), each with its response body."""
    records = []
    for record in server.trace():
        try:
            body = json.loads(record.get("request_body") or "null")
        except ValueError:
            continue
        if isinstance(body, dict) and body.get("method") in ("tools/list", "tools/call"):
            records.append((record["started"], body["method"], record.get("response_body") or ""))
    return [(method, response) for _, method, response in sorted(records, key=lambda r: r[0])]


def test_modern_call_mirrors_header_arguments_from_the_listed_schema(
    driver: Any, www: Any, make_demo_server: Any
) -> None:
    """`book_in_region`'s `region` carries `x-mcp-header`: `callTool` finds it in the tool
    list (listed on demand, then kept) and sends `Mcp-Param-Region`, else the SDK answers
    -32020. Called twice: the second call uses the kept list (the server's own, so the
    listings it saw are this test's alone)."""
    server = make_demo_server()
    open_host(driver, www, server, MODERN)
    for region in ("eu-west", "us-east"):
        run(driver, "tool", "book_in_region", {"region": region})
        button(card(driver, "form", BookInRegion.QUESTION.format(region=region)), "Submit").click()
        wait_text(driver, "[data-testid=host-result][data-done=true]", BookInRegion.BOOKED.format(region=region))
    methods = [method for method, _ in listings_and_calls(server)]
    # Listed once, before the first call; each call is sent, then replayed with the answer.
    assert methods == ["tools/list"] + ["tools/call"] * 4, methods
    headers = [
        record["request_headers"].get("mcp-param-region") for record in server.trace() if record["method"] == "POST"
    ]
    assert [h for h in headers if h is not None] == ["eu-west", "eu-west", "us-east", "us-east"], headers


# --- several calls at once ---------------------------------------------------------------


@pytest.mark.parametrize("protocol", BOTH)
def test_two_calls_of_one_tool_at_once_each_get_their_own_answer(
    driver: Any, www: Any, demo_server: Any, protocol: str
) -> None:
    """Both calls wait for input at the same time. In 2026-07-28 their cards carry the same
    `inputRequests` key; each answer must still reach its own call, in any order."""
    open_host(driver, www, demo_server, protocol)
    driver.execute_script(
        """
        const c = window.mcpClient;
        window.both = null;
        Promise.all([c.callTool("delete_folder", {path: "/tmp/a"}),
                     c.callTool("delete_folder", {path: "/tmp/b"})])
          .then(r => { window.both = r.map(x => x.content[0].text); },
                e => { window.both = "failed: " + e.message; });
        """
    )
    first = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/a"))
    second = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/b"))
    if protocol == MODERN:
        assert first.get_attribute("data-elicitation") == second.get_attribute("data-elicitation")
    # The later call is answered first.
    set_checkbox(second, "Ok", True)
    button(second, "Submit").click()
    button(first, "Decline").click()
    both = wait_for(driver, lambda d: d.execute_script("return window.both"), "both calls to end")
    assert both == [DeleteFolder.REFUSED.format(outcome=DECLINED), DeleteFolder.DELETED.format(path="/tmp/b")]


def test_modern_replay_the_server_fails_keeps_the_answer_for_a_resend(driver: Any, www: Any, demo_server: Any) -> None:
    """`flaky_note`'s first replay gets HTTP 503: the card says so, keeps what was typed,
    and Submit sends the same round again."""
    open_host(driver, www, demo_server, MODERN)
    run(driver, "tool", "flaky_note")
    form = card(driver, "form", Notes.FLAKY_QUESTION)
    set_text(form, Notes.NOTE, "buy milk")
    button(form, "Submit").click()
    wait_text(driver, "[data-elicitation] [role=alert]", "503")
    assert control_by_label(form, Notes.NOTE).get_attribute("value") == "buy milk", "nothing typed is lost"
    button(form, "Submit").click()
    assert tool_text(driver) == Notes.NOTED.format(note="buy milk")


def test_modern_replay_whose_response_is_cut_keeps_the_answer_for_a_resend(
    driver: Any, www: Any, demo_server: Any
) -> None:
    """`cut_note`'s first replay reaches the server, but its response breaks off mid-body:
    the card says so, keeps what was typed, and Submit sends the same round again."""
    open_host(driver, www, demo_server, MODERN)
    run(driver, "tool", "cut_note")
    form = card(driver, "form", Notes.CUT_QUESTION)
    set_text(form, Notes.NOTE, "buy milk")
    button(form, "Submit").click()
    alert = wait_text(driver, "[data-elicitation] [role=alert]", "broke while reading the server's answer").text
    assert "Your answers are kept; press Submit to send them again." in alert, alert
    assert control_by_label(form, Notes.NOTE).get_attribute("value") == "buy milk", "nothing typed is lost"
    button(form, "Submit").click()
    assert tool_text(driver) == Notes.NOTED_AFTER_CUT.format(note="buy milk")
    assert driver.find_element("css selector", "[data-testid=host-error]").text == ""


def test_legacy_answer_the_server_fails_keeps_the_answer_for_a_resend(driver: Any, www: Any, demo_server: Any) -> None:
    """2025-11-25: the POST of our answer to `flaky_note`'s question gets HTTP 503: the
    card says so, keeps what was typed, and Submit sends the answer again."""
    open_host(driver, www, demo_server, LEGACY)
    run(driver, "tool", "flaky_note")
    form = card(driver, "form", Notes.FLAKY_QUESTION)
    set_text(form, Notes.NOTE, "buy milk")
    button(form, "Submit").click()
    wait_text(driver, "[data-elicitation] [role=alert]", "503")
    assert control_by_label(form, Notes.NOTE).get_attribute("value") == "buy milk", "nothing typed is lost"
    button(form, "Submit").click()
    assert tool_text(driver) == Notes.NOTED.format(note="buy milk")


def test_modern_stale_tool_schema_is_listed_again_after_a_header_mismatch(
    driver: Any, www: Any, make_demo_server: Any
) -> None:
    """The server is redeployed with `book_in_region` mirroring `region` in
    `Mcp-Param-Zone` instead of `Mcp-Param-Region`. The host's kept tool list is stale, so
    the call's headers get -32020; like the SDK, the client lists the tools again and
    resends once, and the call goes through."""
    server = make_demo_server()
    open_host(driver, www, server, MODERN)
    run(driver, "tool", "book_in_region", {"region": "eu-west"})
    button(card(driver, "form", BookInRegion.QUESTION.format(region="eu-west")), "Submit").click()
    assert tool_text(driver) == BookInRegion.BOOKED.format(region="eu-west")
    assert [method for method, _ in listings_and_calls(server)].count("tools/list") == 1
    server.stop()
    server.options += ["--region-header", "Zone"]
    server.start()  # a new trace: what the redeployed server saw
    button(driver, "Run").click()
    button(card(driver, "form", BookInRegion.QUESTION.format(region="eu-west")), "Submit").click()
    assert tool_text(driver) == BookInRegion.BOOKED.format(region="eu-west")
    # The kept list went out first and met -32020; then the tools were listed once more and
    # the call resent (then replayed with the answer).
    seen = listings_and_calls(server)
    assert [method for method, _ in seen] == ["tools/call", "tools/list", "tools/call", "tools/call"], seen
    assert "-32020" in seen[0][1], seen[0]


@pytest.mark.parametrize("protocol", BOTH)
def test_a_tool_with_an_invalid_header_annotation_is_dropped_in_the_modern_era(
    driver: Any, www: Any, demo_server: Any, protocol: str
) -> None:
    """`route_by_list` puts `x-mcp-header` on an array. 2026-07-28 clients MUST drop such a
    tool (the notice says which and why); 2025-11-25 has no such rule."""
    open_host(driver, www, demo_server, protocol)
    names = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.mcpClient.listTools().then(t => done(t.map(x => x.name)), e => done(String(e)));"
    )
    assert "book_in_region" in names, names
    if protocol == MODERN:
        assert "route_by_list" not in names, names
        notice = wait_text(driver, ".mce-client .notice[role=status]", "route_by_list").text
        assert "x-mcp-header" in notice and "(got 'array')" in notice, notice
    else:
        assert "route_by_list" in names, names


def test_legacy_without_a_session_opens_no_get_stream(driver: Any, www: Any, make_demo_server: Any) -> None:
    """A stateless server gives no `Mcp-Session-Id`: its GET stream would carry nothing and
    only hold a connection, so (like the SDK's client) none is opened. Calls still work."""
    server = make_demo_server(["--stateless"])
    open_host(driver, www, server, LEGACY)
    run(driver, "tool", "plan_route", {"stops": [{"city": "Oslo"}]})
    assert tool_text(driver) == Route.ROUTE.format(legs="Oslo (1 night)")
    # Requests are logged as they arrive (an open GET stream too). The call was made after
    # the handshake, when a GET stream would have been opened: its POST arrived, no GET did.
    arrived = [a["method"] for a in server.arrivals() if a["path"] == "/mcp"]
    assert arrived.count("POST") >= 3, arrived  # initialize, notifications/initialized, the call
    assert "GET" not in arrived, arrived


def test_legacy_requests_meeting_a_restarted_server_share_one_new_session(
    driver: Any, www: Any, make_demo_server: Any, artifacts: Any
) -> None:
    """After a restart, two calls sent at once both get 404 for the old session: one
    handshake renews it for both, and both calls go through."""
    server = make_demo_server()
    open_host(driver, www, server, LEGACY)
    server.stop()
    server.start()
    driver.execute_script(
        """
        const c = window.mcpClient;
        window.both = null;
        Promise.all([c.callTool("plan_route", {stops: [{city: "Oslo"}]}),
                     c.callTool("plan_route", {stops: [{city: "Rome"}]})])
          .then(r => { window.both = r.map(x => x.content[0].text); },
                e => { window.both = "failed: " + e.message; });
        """
    )
    both = wait_for(driver, lambda d: d.execute_script("return window.both"), "both calls to end")
    assert both == [Route.ROUTE.format(legs="Oslo (1 night)"), Route.ROUTE.format(legs="Rome (1 night)")]
    trace = server.trace_path
    server.stop()
    methods = [json.loads(line)["request_body"] for line in trace.read_text().splitlines()]
    assert sum('"method":"initialize"' in body.replace(" ", "") for body in methods) == 1, methods


# --- close -------------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", BOTH)
def test_close_ends_the_connection(driver: Any, www: Any, make_demo_server: Any, protocol: str) -> None:
    """`close()` removes the cards, fails the call that waited on one, and refuses every
    later request in words without sending it. A legacy session is DELETEd, and its GET
    stream ends."""
    server = make_demo_server()
    open_host(driver, www, server, protocol)
    driver.execute_script(
        """window.pending = null;
        window.mcpClient.callTool("delete_folder", {path: "/tmp/a"})
          .then(r => { window.pending = "resolved " + JSON.stringify(r); },
                e => { window.pending = "rejected " + e.message; });"""
    )
    card(driver, "form", "/tmp/a has 2 file(s)")
    closed = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        window.mcpClient.close().then(() => done("closed"), (e) => done("rejected " + e.message));"""
    )
    assert closed == "closed"
    assert driver.find_elements("css selector", "[data-elicitation]") == [], "the cards are gone"
    pending = wait_for(driver, lambda d: d.execute_script("return window.pending"), "the waiting call to end")
    assert pending.startswith("rejected The call to delete_folder failed"), pending

    sent_before = len(server.arrivals())
    later = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        const c = window.mcpClient;
        const said = (p) => p.then((r) => "resolved " + JSON.stringify(r), (e) => "rejected " + e.message);
        Promise.all([said(c.callTool("plan_route", {stops: []})), said(c.listTools())]).then(done);"""
    )
    for outcome in later:
        assert outcome.startswith("rejected") and "Not connected to a server." in outcome, later
    # Both have ended (rejected), so anything they sent has arrived by now.
    assert len(server.arrivals()) == sent_before, server.arrivals()[sent_before:]

    if protocol == LEGACY:
        session = next(a["request_headers"]["mcp-session-id"] for a in server.arrivals() if a["method"] == "GET")

        def ended(method: str) -> list[dict[str, Any]]:
            return [
                r for r in server.trace() if r["method"] == method and r["request_headers"].get("mcp-session-id") == session
            ]

        wait_for(driver, lambda _: ended("DELETE") and ended("GET"), "the DELETE and the GET stream's end in the trace")
        assert [r["status"] for r in ended("DELETE")] == [200]


# --- onElicitation ------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", BOTH)
@pytest.mark.parametrize(
    ("policy", "text"),
    [("accept", DeleteFolder.DELETED.format(path="/tmp/p")), ("decline", DeleteFolder.REFUSED.format(outcome=DECLINED))],
)
def test_on_elicitation_answers_without_a_card(
    driver: Any, www: Any, demo_server: Any, protocol: str, policy: str, text: str
) -> None:
    open_host(driver, www, demo_server, protocol, policy=policy)
    run(driver, "tool", "delete_folder", {"path": "/tmp/p"})
    assert tool_text(driver) == text
    assert driver.find_elements("css selector", "[data-elicitation]") == []


@pytest.mark.parametrize("protocol", BOTH)
def test_on_elicitation_content_that_does_not_fit_shows_the_card(
    driver: Any, www: Any, demo_server: Any, protocol: str
) -> None:
    open_host(driver, www, demo_server, protocol, policy="bad")
    run(driver, "tool", "delete_folder", {"path": "/tmp/p"})
    form = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/p"))
    wait_text(driver, ".mce-client .notice", "does not fit the form")
    button(form, "Decline").click()
    assert tool_text(driver) == DeleteFolder.REFUSED.format(outcome=DECLINED)


@pytest.mark.parametrize("protocol", BOTH)
def test_on_elicitation_notice_is_in_the_connection_s_language(
    driver: Any, www: Any, demo_server: Any, protocol: str
) -> None:
    """With `locale: "de"` the handler's notice is German, its field error worded as the
    card words it (the server's texts stay as they came)."""
    open_host(driver, www, demo_server, protocol, policy="bad", locale="de")
    run(driver, "tool", "delete_folder", {"path": "/tmp/p"})
    form = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/p"))
    wait_text(
        driver,
        ".mce-client .notice",
        "Die Antwort der Anwendung wurde nicht gesendet, sie passt nicht zum Formular "
        "(ok: Muss wahr oder falsch sein.)",
    )
    button(form, "Ablehnen").click()
    assert tool_text(driver) == DeleteFolder.REFUSED.format(outcome=DECLINED)
