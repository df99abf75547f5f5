"""Rules the demo server enforces so the browser tests can rely on them: checked here with
a plain HTTP client, so a browser test that passes proves the client kept the rule."""

from __future__ import annotations

import time
from typing import Any

from demo_server.texts import Notes, SlowReport, matches
from demo_server.tools.faults import SLOW_REPORT_MIN_GAP_MS
from harness import LegacySession, ModernClient, tool_text

SLOW_REPORT_MIN_GAP_S = SLOW_REPORT_MIN_GAP_MS / 1000
"""`SLOW_REPORT_MIN_GAP_MS` of the demo server, in seconds."""


HASTY_GAP_MS = 600_000
"""A minimum gap no retry in a test comes close to: with it, any retry is too soon, however
long a loaded machine takes to deliver it (at the default 40 ms, "at once" may arrive late)."""


def test_slow_report_refuses_a_retry_that_does_not_back_off(make_demo_server: Any) -> None:
    server = make_demo_server(["--slow-report-min-gap-ms", str(HASTY_GAP_MS)])
    client = ModernClient(server.url)
    first = client.call_tool("slow_report")
    state = first["result"]["requestState"]
    # Sooner than the server's minimum gap: refused, in words that say why.
    hasty = client.call_tool("slow_report", request_state=state)
    assert hasty["error"]["code"] == -32600, hasty
    assert matches(SlowReport.TOO_SOON, hasty["error"]["message"]), hasty


def test_slow_report_answers_a_client_that_backs_off(demo_server: Any) -> None:
    client = ModernClient(demo_server.url)
    reply = client.call_tool("slow_report")
    for _ in range(2):
        assert reply["result"]["resultType"] == "input_required", reply
        assert "inputRequests" not in reply["result"], reply
        time.sleep(SLOW_REPORT_MIN_GAP_S * 2)  # the back-off this client owes the server
        reply = client.call_tool("slow_report", request_state=reply["result"]["requestState"])
    assert tool_text(reply["result"]) == SlowReport.READY.format(tries=2)


def test_slow_report_refuses_a_state_it_never_issued(make_demo_server: Any) -> None:
    """A state from another server run names no call this one remembers (sealed with the
    same key, so the SDK lets it through): refused, never answered as if spaced."""
    server = make_demo_server()
    client = ModernClient(server.url)
    first = client.call_tool("slow_report")
    state = first["result"]["requestState"]
    server.restart()
    time.sleep(SLOW_REPORT_MIN_GAP_S * 2)
    late = client.call_tool("slow_report", request_state=state)
    assert late["error"]["code"] == -32600, late
    assert late["error"]["message"] == SlowReport.UNKNOWN.format(n=2), late


def test_cut_note_cuts_the_first_replay_of_a_round_mid_body(demo_server: Any) -> None:
    import http.client

    client = ModernClient(demo_server.url)
    first = client.call_tool("cut_note")["result"]
    [(key, asked)] = first["inputRequests"].items()
    assert asked["params"]["message"] == Notes.CUT_QUESTION
    answer = {key: {"action": "accept", "content": {"note": "buy milk"}}}
    replay = {"input_responses": answer, "request_state": first.get("requestState")}
    cut = client.post("tools/call", {"name": "cut_note", "arguments": {}, **_wire(replay)}, name="cut_note")
    assert cut.status == 200
    try:
        text = cut.text()
    except http.client.IncompleteRead as e:
        text = e.partial.decode()
    else:
        raise AssertionError(f"the first replay's response was not cut: {text!r}")
    assert text and not text.rstrip().endswith("}"), text
    again = client.call_tool("cut_note", **replay)
    assert tool_text(again["result"]) == Notes.NOTED_AFTER_CUT.format(note="buy milk")


def _wire(replay: dict[str, Any]) -> dict[str, Any]:
    out = {"inputResponses": replay["input_responses"]}
    if replay["request_state"] is not None:
        out["requestState"] = replay["request_state"]
    return out


def test_legacy_flaky_note_fails_the_first_answer_to_each_question(demo_server: Any) -> None:
    session = LegacySession(demo_server.url)
    session.initialize()
    try:
        stream = session.start_call("flaky_note")
        ask = next(stream)
        assert ask["method"] == "elicitation/create" and ask["params"]["message"] == Notes.FLAKY_QUESTION
        answer = {"action": "accept", "content": {"note": "buy milk"}}
        assert session.respond(ask["id"], answer) == 503
        assert session.respond(ask["id"], answer) == 202
        done = next(stream)
        assert tool_text(done["result"]) == Notes.NOTED.format(note="buy milk")
    finally:
        session.close()
