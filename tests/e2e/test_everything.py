"""McpClient (`www/host.html`, protocol `auto`) against the MCP reference server
`@modelcontextprotocol/server-everything` 2026.8.31 (TypeScript SDK 1.32.2, 2025-11-25),
pinned in tests/everything/package.json and started here over Streamable HTTP on a free
loopback port.

- `trigger-elicitation-request-async`: the server asks its question *as a task*
  (2025-11-25 tasks, SEP-1686). The client answers at once with a task, shows the card,
  and the server polls `tasks/get` until the person answered, then fetches the answer with
  `tasks/result`. The tool exists only for a client that declares
  `tasks.requests.elicitation.create`.
- `trigger-sampling-request-async`: the server asks for sampling *as a task*; the client
  answers at once with a task, runs the host's sampling handler, and the server polls
  `tasks/get` and reads the handler's answer with `tasks/result`. Offered only to a client
  that declares `tasks.requests.sampling.createMessage` (this one does when the host gave a
  sampling handler).
- `simulate-research-query`: a tool whose `execution.taskSupport` is `required`, called
  as a task: the page shows `[data-testid=task-status]` while it runs, follows `tasks/get`,
  and reads the result with `tasks/result`. With `ambiguous: true` the task asks a question
  (`input_required`), which reaches its card through `tasks/result`'s stream.
- `trigger-long-running-operation`: progress shown and reaching `onProgress`; Stop halfway
  sends `notifications/cancelled` with the call's id (seen by a recording front,
  tests/e2e/front.mjs), and the server, having seen it, never sends the call's result
  (read back from its own event store).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from fronts import Front, fronting
from harness import (
    LEGACY,
    REPO,
    UI_WAIT,
    button,
    control_by_label,
    free_port,
    http_request,
    open_host_auto,
    serving,
    wait_css,
    wait_for,
    wait_text,
)
from test_demo_flows import card, set_text
from test_host_client import host_error, result, run

EVERYTHING = REPO / "tests" / "everything"
ENTRY = EVERYTHING / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
ASYNC_QUESTION = "Please provide inputs for the following fields (async task demo):"


class Everything:
    def __init__(self, port: int, log: Path) -> None:
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.log = log

    def said(self) -> str:
        """What the server has logged so far."""
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def everything(artifacts: Path) -> Iterator[Everything]:
    """server-everything over Streamable HTTP on a free port, for this module; always
    ended. Its log is in artifacts/logs/."""
    if shutil.which("node") is None:
        pytest.fail("node is missing (scripts/setup installs it)")
    if not ENTRY.is_file():
        pytest.fail(f"{EVERYTHING}/node_modules is missing: run scripts/setup (npm ci there)")
    port = free_port()
    (artifacts / "logs").mkdir(exist_ok=True)
    log_path = artifacts / "logs" / f"everything-{port}.log"
    env = {**os.environ, "PORT": str(port)}
    with serving(["node", str(ENTRY), "streamableHttp"], EVERYTHING, port, log_path, env):
        yield Everything(port, log_path)


@pytest.fixture(scope="module")
def front(everything: Everything, artifacts: Path) -> Iterator[Front]:
    """A recording front before the module's server-everything."""
    with fronting(everything.url, artifacts / "logs") as front:
        yield front


def session_headers(session: str) -> dict[str, str]:
    return {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": LEGACY,
        "Mcp-Session-Id": session,
    }


def ping(server: Everything, session: str) -> tuple[str, str]:
    """A ping in the page's session, straight to the server: (its id, the id of the event
    that stored its answer in the server's event store)."""
    probe = f"probe-{time.monotonic_ns()}"
    body = {"jsonrpc": "2.0", "id": probe, "method": "ping"}
    reply = http_request(server.url, body=body, headers=session_headers(session))
    return probe, sse(reply, probe)[-1][0]


def stored_since(server: Everything, session: str, mark: str) -> list[Any]:
    """The messages server-everything keeps in its event store (every stream of the session's
    server) after the event `mark`, up to now: the end is a ping sent first, so whatever the
    server stored before answering it is there."""
    probe, _ = ping(server, session)
    headers = {**session_headers(session), "Accept": "text/event-stream", "Last-Event-ID": mark}
    return [m for _, m in sse(http_request(server.url, method="GET", headers=headers), probe)]


def sse(reply: Any, until: Any) -> list[tuple[str, Any]]:
    """(event id, message) of an SSE reply, up to the response to request `until` (the
    server keeps the stream open: it is closed then)."""
    events: list[tuple[str, Any]] = []
    event_id, data = "", []
    try:
        while True:
            raw = reply._resp.readline()
            if not raw:
                raise AssertionError(f"the stream ended before the answer to {until}: {events}")
            line = raw.decode("utf-8").rstrip("\r\n")
            if line.startswith("id:"):
                event_id = line[3:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip(" "))
            elif line == "" and data:
                message = json.loads("\n".join(data) or "null")
                events.append((event_id, message))
                data = []
                if isinstance(message, dict) and message.get("id") == until and "result" in message:
                    return events
    finally:
        reply.close()


def open_auto(driver: Any, www: Any, server: Everything) -> None:
    open_host_auto(driver, www, server.url)


def texts(driver: Any) -> str:
    """All the text parts of the call's result, one string."""
    return "\n".join(part.get("text", "") for part in result(driver)["content"])


# --- an elicitation as a task ---------------------------------------------------------------


def test_the_async_elicitation_tool_is_offered_to_a_client_that_declares_tasks(
    driver: Any, www: Any, everything: Everything
) -> None:
    open_auto(driver, www, everything)
    names = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.mcpClient.listTools().then((t) => done(t.map((x) => x.name)), (e) => done(String(e)));"
    )
    assert "trigger-elicitation-request-async" in names, names


def test_an_elicitation_as_a_task_is_answered_through_the_task(
    driver: Any, www: Any, everything: Everything
) -> None:
    open_auto(driver, www, everything)
    run(driver, "tool", "trigger-elicitation-request-async")
    form = card(driver, "form", ASYNC_QUESTION)
    set_text(form, "Your Name", "Ada")
    button(form, "Submit").click()
    said = texts(driver)
    # The server polled tasks/get (working while the card waited), then read the answer
    # with tasks/result.
    assert "[COMPLETED]" in said, said
    assert "- Name: Ada" in said, said
    assert "Task created: elicit-" in said, said
    assert ": completed" in said, said
    assert '"io.modelcontextprotocol/related-task"' in said, said


def test_a_declined_elicitation_task_reaches_the_server(driver: Any, www: Any, everything: Everything) -> None:
    open_auto(driver, www, everything)
    run(driver, "tool", "trigger-elicitation-request-async")
    form = card(driver, "form", ASYNC_QUESTION)
    button(form, "Decline").click()
    said = texts(driver)
    assert "[DECLINED]" in said, said


# --- sampling as a task ------------------------------------------------------------------------


def open_sampling(driver: Any, www: Any, server: Everything, sampler: str | None) -> None:
    """host.html on the server, with host.html's sampling handler `sampler` (none: None)."""
    query = {"server": server.url, "protocol": "auto", **({"sampling": sampler} if sampler else {})}
    driver.get(f"{www.origin}/host.html?{urlencode(query)}")
    wait_text(driver, "[data-testid=connection-status]", f"connected · {LEGACY}")


def tool_names(driver: Any) -> list[str]:
    return list(
        driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "window.mcpClient.listTools().then((t) => done(t.map((x) => x.name)), (e) => done([String(e)]));"
        )
    )


def test_sampling_as_a_task_is_offered_only_to_a_host_with_a_sampling_handler(
    driver: Any, www: Any, everything: Everything
) -> None:
    open_sampling(driver, www, everything, "echo")
    assert "trigger-sampling-request-async" in tool_names(driver)
    open_sampling(driver, www, everything, None)
    names = tool_names(driver)
    assert "trigger-sampling-request-async" not in names and "trigger-elicitation-request-async" in names, names


def test_a_sampling_task_runs_the_hosts_handler_and_its_answer_reaches_the_server(
    driver: Any, www: Any, everything: Everything
) -> None:
    open_sampling(driver, www, everything, "echo")
    run(driver, "tool", "trigger-sampling-request-async", {"prompt": "hello"})
    said = texts(driver)
    assert "[COMPLETED] Async sampling completed!" in said, said
    assert "Task created: sample-" in said, said
    assert "echo: Resource trigger-sampling-request-async context: hello" in said, said
    assert '"io.modelcontextprotocol/related-task"' in said, said


def test_a_failed_sampling_handler_fails_the_task_in_words(driver: Any, www: Any, everything: Everything) -> None:
    open_sampling(driver, www, everything, "fail")
    run(driver, "tool", "trigger-sampling-request-async", {"prompt": "hello"})
    said = texts(driver)
    assert "[FAILED] The host could not answer the sampling request." in said, said


# --- a tool called as a task ------------------------------------------------------------------


def test_a_tool_that_requires_a_task_runs_as_one_and_its_status_is_shown(
    driver: Any, www: Any, everything: Everything
) -> None:
    open_auto(driver, www, everything)
    run(driver, "tool", "simulate-research-query", {"topic": "bees"})
    wait_text(driver, "[data-testid=task-status]", "working")
    said = texts(driver)
    assert "# Research Report: bees" in said, said
    # The status line goes with the call.
    wait_for(driver, lambda d: not d.find_elements("css selector", "[data-testid=task-status]"), "the status gone")


def test_a_task_that_asks_a_question_reaches_its_card_and_takes_the_answer(
    driver: Any, www: Any, everything: Everything
) -> None:
    from selenium.webdriver.support.ui import Select

    open_auto(driver, www, everything)
    run(driver, "tool", "simulate-research-query", {"topic": "python", "ambiguous": True})
    form = card(driver, "form", 'The research query "python" could have multiple interpretations')
    Select(control_by_label(form, "Clarification")).select_by_visible_text("Monty Python comedy group")
    button(form, "Submit").click()
    said = texts(driver)
    assert "# Research Report: python (comedy)" in said, said


def test_stop_on_a_task_ends_the_call_in_words(driver: Any, www: Any, everything: Everything) -> None:
    open_auto(driver, www, everything)
    run(driver, "tool", "simulate-research-query", {"topic": "ants"})
    wait_text(driver, "[data-testid=task-status]", "working")
    button(driver, "Stop").click()
    assert "stopped" in host_error(driver, "stopped")


# --- progress -----------------------------------------------------------------------------------


def test_a_long_operations_progress_is_shown_and_reaches_on_progress(
    driver: Any, www: Any, everything: Everything
) -> None:
    open_auto(driver, www, everything)
    run(driver, "tool", "trigger-long-running-operation", {"duration": 2, "steps": 4})
    wait_css(driver, "[data-testid=call-progress][role=progressbar][aria-valuemax='4'][aria-valuenow]")
    assert "Long running operation completed" in texts(driver)
    reports = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const seen = [];"
        "window.mcpClient.callTool('trigger-long-running-operation', { duration: 1, steps: 2 },"
        "  { onProgress: (p) => seen.push([p.progress, p.total]) })"
        ".then(() => done(seen), (e) => done(String(e)));"
    )
    assert isinstance(reports, list) and reports, reports
    assert all(total == 2 and 0 < progress <= 2 for progress, total in reports), reports


def test_stop_halfway_through_a_long_operation_reaches_the_server_which_cancels_it(
    driver: Any, www: Any, everything: Everything, front: Front
) -> None:
    steps = 6
    open_host_auto(driver, www, front.url)
    session = wait_for(driver, lambda d: next((m["session"] for m in front.sent() if m["session"]), None), "a session")
    _, mark = ping(everything, session)
    run(driver, "tool", "trigger-long-running-operation", {"duration": steps, "steps": steps})
    wait_css(driver, f"[data-testid=call-progress][role=progressbar][aria-valuemax='{steps}'][aria-valuenow='1']")
    call = next(m for m in front.sent() if m.get("method") == "tools/call")
    token = call["params"]["_meta"]["progressToken"]
    button(driver, "Stop").click()
    assert "stopped" in host_error(driver, "stopped")
    assert not driver.find_elements("css selector", "[data-testid=call-progress]")

    # The server: server-everything's tool ignores the abort and runs to its last step, but
    # the SDK, told the call was cancelled, sends no result for it. Its event store keeps
    # every message it sent on the call's stream, also after the page closed it.
    deadline = time.monotonic() + UI_WAIT + steps
    while True:
        stored = stored_since(everything, session, mark)
        progress = [
            m["params"]["progress"]
            for m in stored
            if isinstance(m, dict)
            and m.get("method") == "notifications/progress"
            and m["params"].get("progressToken") == token
        ]
        if steps in progress:
            break
        assert time.monotonic() < deadline, f"the operation never reached its last step: {progress}"
        time.sleep(0.25)
    answers = [m for m in stored if isinstance(m, dict) and m.get("id") == call["id"]]
    assert answers == [], f"the server answered the stopped call: {answers}"

    # The wire: the cancellation named the call.
    cancelled = [m for m in front.sent() if m.get("method") == "notifications/cancelled"]
    assert [m["params"]["requestId"] for m in cancelled] == [call["id"]], cancelled
    assert cancelled[0]["params"].get("reason"), cancelled
    # The page showed no progress after Stop, though the server made all of it.
    assert not driver.find_elements("css selector", "[data-testid=call-progress]")
    assert "stopped" in host_error(driver, "stopped")
