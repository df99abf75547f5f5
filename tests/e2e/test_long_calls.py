"""Long calls on the host page (`www/host.html`), each era, against the demo server's
`slow_count`: every call carries a progress token, the server's `notifications/progress`
show as `[data-testid=call-progress]` (a progressbar with the server's message) and reach
`onProgress`, and **Stop** ends the call in words (legacy: the server receives
`notifications/cancelled` with the call's request id). A host's `timeoutMs` stops a call
that runs too long, but never counts the time a card waits for the person.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from demo_server.texts import DeleteFolder
from harness import HostileServer, button, wait_css, wait_for, wait_text
from test_demo_flows import LEGACY, MODERN, card, set_checkbox
from test_host_client import host_error, open_host, result, run

BOTH = [LEGACY, MODERN]


def bodies(server: Any) -> list[dict[str, Any]]:
    """The JSON-RPC bodies the server received (of exchanges that ended)."""
    out = []
    for record in server.trace():
        try:
            body = json.loads(record.get("request_body") or "null")
        except ValueError:
            continue
        if isinstance(body, dict):
            out.append(body)
    return out


def no_progress(driver: Any) -> bool:
    return not driver.find_elements("css selector", "[data-testid=call-progress]")


@pytest.mark.parametrize("protocol", BOTH)
def test_progress_is_shown_and_goes_when_the_call_ends(
    driver: Any, www: Any, demo_server: Any, protocol: str
) -> None:
    open_host(driver, www, demo_server, protocol)
    run(driver, "tool", "slow_count", {"n": 3, "step_ms": 300})
    bar = wait_css(driver, "[data-testid=call-progress][role=progressbar][aria-valuemax='3']")
    wait_for(driver, lambda d: "of 3" in bar.text, "the server's progress message")
    assert result(driver)["content"][0]["text"] == "counted to 3"
    wait_for(driver, no_progress, "the progress gone once the call ended")
    calls = [b for b in bodies(demo_server) if b.get("method") == "tools/call"]
    token = calls[-1]["params"]["_meta"]["progressToken"]
    assert isinstance(token, str) and token


@pytest.mark.parametrize("protocol", BOTH)
def test_stop_ends_the_call_in_words(driver: Any, www: Any, demo_server: Any, protocol: str) -> None:
    open_host(driver, www, demo_server, protocol)
    run(driver, "tool", "slow_count", {"n": 1000, "step_ms": 200})
    wait_css(driver, "[data-testid=call-progress][aria-valuenow]")
    button(driver, "Stop").click()
    assert "the call was stopped" in host_error(driver, "the call was stopped")
    wait_for(driver, no_progress, "the progress gone once the call was stopped")
    assert not driver.find_elements("css selector", "[data-testid=host-result][data-done=true]")
    if protocol == LEGACY:

        def cancelled_call(_: Any) -> Any:
            seen = bodies(demo_server)
            calls = [b["id"] for b in seen if b.get("method") == "tools/call"]
            notes = [b for b in seen if b.get("method") == "notifications/cancelled"]
            return calls and notes and (calls, notes[-1])

        calls, note = wait_for(driver, cancelled_call, "the server receiving notifications/cancelled")
        assert note["params"]["requestId"] in calls
        assert note["params"]["reason"] == "The call was stopped."


def start_call(driver: Any, script: str) -> None:
    """Starts `window.mcpClient.<script>`; its outcome lands in `window.outcome`."""
    driver.execute_script(
        "window.outcome = undefined; window.mcpClient." + script + """
          .then((r) => { window.outcome = "resolved " + JSON.stringify(r); },
                (e) => { window.outcome = "rejected " + e.message; });"""
    )


def outcome(driver: Any) -> str:
    return str(wait_for(driver, lambda d: d.execute_script("return window.outcome"), "the call's outcome"))


@pytest.mark.parametrize("protocol", BOTH)
def test_on_progress_gets_the_latest_update(driver: Any, www: Any, demo_server: Any, protocol: str) -> None:
    open_host(driver, www, demo_server, protocol)
    driver.execute_script("window.updates = [];")
    start_call(driver, 'callTool("slow_count", {n: 3, step_ms: 100}, {onProgress: (u) => window.updates.push(u)})')
    said = outcome(driver)
    assert said.startswith("resolved") and "counted to 3" in said, said
    updates = wait_for(driver, lambda d: d.execute_script("return window.updates"), "an onProgress call")
    assert all(u["total"] == 3 and u["message"] == f"Counted {u['progress']} of 3" for u in updates), updates
    progress = [u["progress"] for u in updates]
    assert progress == sorted(progress) and len(progress) <= 3, progress


@pytest.mark.parametrize("protocol", BOTH)
def test_a_call_running_past_its_timeout_is_stopped(driver: Any, www: Any, demo_server: Any, protocol: str) -> None:
    open_host(driver, www, demo_server, protocol)
    start_call(driver, 'callTool("slow_count", {n: 1000, step_ms: 200}, {timeoutMs: 500})')
    said = outcome(driver)
    assert said.startswith("rejected The call to slow_count failed: the call was stopped"), said
    assert "longer than 500 ms" in said


@pytest.mark.parametrize("protocol", BOTH)
def test_the_timeout_does_not_run_while_a_card_waits(driver: Any, www: Any, demo_server: Any, protocol: str) -> None:
    open_host(driver, www, demo_server, protocol)
    start_call(driver, 'callTool("delete_folder", {path: "/tmp/t"}, {timeoutMs: 300})')
    form = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/t"))
    # The person takes far longer than the timeout: the card must still be there after.
    time.sleep(1.5)
    assert driver.execute_script("return window.outcome") is None
    set_checkbox(form, "Ok", True)
    button(form, "Submit").click()
    said = outcome(driver)
    assert DeleteFolder.DELETED.format(path="/tmp/t") in said, said


# --- against the hostile server (tests/servers/hostile_server.py) ----------------------------


@pytest.fixture(scope="module")
def hostile(artifacts: Path) -> Iterator[HostileServer]:
    with HostileServer(log_dir=artifacts / "logs", options=["--tasks"]) as server:
        yield server


def cancelled_ids(server: Any) -> list[Any]:
    """The request ids the server's `notifications/cancelled` named."""
    return [r.get("request_id") for r in server.trace() if r.get("kind") == "cancelled"]


def call_ids(server: Any, tool: str) -> list[Any]:
    return [r.get("id") for r in server.trace() if r.get("kind") == "request" and r.get("tool") == tool]


def test_progress_on_the_session_stream_reaches_its_call(driver: Any, www: Any, hostile: Any) -> None:
    """Legacy progress sent on the session's GET stream (which the spec allows) reaches the
    call whose token it names, and only that: a token the client never sent is ignored."""
    open_host(driver, www, hostile, LEGACY)
    run(driver, "tool", "progress_on_get")
    bar = wait_css(driver, "[data-testid=call-progress][role=progressbar][aria-valuemax='2']")
    wait_for(driver, lambda d: "said on the session stream" in bar.text, "the progress sent on the GET stream")
    # The foreign token's update came first on the same stream: had it been taken, the
    # bar would have shown it before.
    assert "NOT THIS CALL" not in bar.text
    assert not driver.find_elements("css selector", "[data-testid=call-progress][aria-valuemax='9']")
    button(driver, "Stop").click()
    host_error(driver, "the call was stopped")
    ids = wait_for(driver, lambda _: cancelled_ids(hostile), "the server receiving notifications/cancelled")
    assert set(ids) & set(call_ids(hostile, "progress_on_get")), ids


def test_task_status_on_the_session_stream_reaches_its_call(driver: Any, www: Any, hostile: Any) -> None:
    """Legacy `notifications/tasks/status` sent on the session's GET stream reach the call
    whose task they name (the task is polled only every 30 s: the status shown came by
    notification), and Stop cancels the task."""
    open_host(driver, www, hostile, LEGACY)
    run(driver, "tool", "task_status_on_get")
    line = wait_text(driver, "[data-testid=task-status]", "Said on the session stream")
    assert "NOT THIS TASK" not in line.text
    button(driver, "Stop").click()
    host_error(driver, "stopped")
    wait_for(
        driver,
        lambda _: [r for r in hostile.trace() if r.get("kind") == "tasks_cancel"],
        "the server receiving tasks/cancel",
    )


@pytest.mark.parametrize("protocol", BOTH)
def test_stop_before_the_server_answers_aborts_the_request(driver: Any, www: Any, hostile: Any, protocol: str) -> None:
    """Stop on a call whose POST the server never answers: the call rejects in words, the
    fetch is aborted (the server sees its connection closed: the modern era's cancellation
    signal) and, legacy, `notifications/cancelled` names the call's request."""
    open_host(driver, www, hostile, protocol)
    before = hostile.stats()
    driver.execute_script("window.stopper = new AbortController();")
    start_call(driver, 'callTool("call_hangs", {}, {signal: window.stopper.signal})')
    wait_for(driver, lambda _: hostile.stats()["hung"] > before["hung"], "the server holding the call")
    driver.execute_script("window.stopper.abort();")
    said = outcome(driver)
    assert said.startswith("rejected The call to call_hangs failed: the call was stopped"), said
    wait_for(driver, lambda _: hostile.stats()["hung_closed"] > before["hung_closed"], "the call's fetch aborted")
    if protocol == LEGACY:
        ids = wait_for(driver, lambda _: cancelled_ids(hostile), "the server receiving notifications/cancelled")
        assert set(ids) & set(call_ids(hostile, "call_hangs")), ids


# --- the demo page (www/index.html) -----------------------------------------------------------


@pytest.mark.parametrize("protocol", BOTH)
def test_the_demo_page_shows_progress_and_stops_a_call(
    driver: Any, app_url: Any, demo_server: Any, protocol: str
) -> None:
    from test_demo_flows import app_error, open_app, result_text

    open_app(driver, app_url, demo_server, protocol, tool="slow_count", args={"n": 3, "step_ms": 300})
    bar = wait_css(driver, "[data-testid=call-progress][role=progressbar][aria-valuemax='3']")
    wait_for(driver, lambda d: "of 3" in bar.text, "the server's progress message")
    result_text(driver, "counted to 3")
    wait_for(driver, no_progress, "the progress gone once the call ended")

    open_app(driver, app_url, demo_server, protocol, tool="slow_count", args={"n": 1000, "step_ms": 200})
    wait_css(driver, "[data-testid=call-progress][aria-valuenow]")
    button(driver, "Stop").click()
    assert "stopped" in app_error(driver, "The call was stopped").text
    wait_for(driver, no_progress, "the progress gone once the call was stopped")
    if protocol == LEGACY:
        notes = lambda _: [b for b in bodies(demo_server) if b.get("method") == "notifications/cancelled"]  # noqa: E731
        assert wait_for(driver, notes, "the server receiving notifications/cancelled")
