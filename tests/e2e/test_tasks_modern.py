"""Tools called as tasks in the 2026-07-28 era: the Tasks extension (SEP-2663), against the
hostile server's `ext_task_*` tools (`tests/servers/hostile_server.py --tasks`), written from
the text of SEP-2663, `seps/2663-tasks-extension.md` of modelcontextprotocol/modelcontextprotocol
at commit 9b44c6b4 (2026-07-22): no SDK ships the extension's server side.

On the host page (`www/host.html`, McpClient) at protocol 2026-07-28: every request declares
the extension; a task's question (`inputRequests` in `tasks/get`) reaches its own card, and
its answer goes by `tasks/update` (`taskId` and `inputResponses`, nothing else); the task's
result is the call's; `failed` and `cancelled` are said in words; Stop sends `tasks/cancel`; with
`tasks=never` the extension is not declared and the server's -32021 is said in words.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import HostileServer, button, wait_for, wait_text
from test_demo_flows import MODERN, card, set_text
from test_host_client import host_error, open_host, result, run


@pytest.fixture(scope="module")
def tasks_server(artifacts: Path) -> Iterator[HostileServer]:
    with HostileServer(log_dir=artifacts / "logs", options=["--tasks"]) as server:
        yield server


def records(server: Any, kind: str) -> list[dict[str, Any]]:
    return [r for r in server.trace() if r.get("kind") == kind]


def methods(server: Any) -> list[str]:
    return [r.get("method") for r in server.trace() if r.get("kind") == "request"]


def test_a_tasks_question_is_answered_by_tasks_update_and_its_result_shown(
    driver: Any, www: Any, tasks_server: Any
) -> None:
    open_host(driver, www, tasks_server, MODERN)
    before = len(records(tasks_server, "tasks_update"))
    run(driver, "tool", "ext_task_ask")
    form = card(driver, "form", "What is your name?")
    set_text(form, "Name", "Ada")
    button(form, "Submit").click()
    assert result(driver)["content"][0]["text"] == "hello Ada"
    updates = records(tasks_server, "tasks_update")[before:]
    assert len(updates) == 1, updates
    # Only what the extension's tasks/update has: no requestState (a task has none).
    assert updates[0]["params"] == ["_meta", "inputResponses", "taskId"], updates
    assert updates[0]["taken"] == ["name"] and updates[0]["action"] == ["accept"], updates
    assert "tasks/get" in methods(tasks_server)


def test_a_completed_task_is_the_calls_result(
    driver: Any, www: Any, tasks_server: Any
) -> None:
    open_host(driver, www, tasks_server, MODERN)
    run(driver, "tool", "ext_task_done")
    assert result(driver)["content"][0]["text"] == "task done"


def test_a_failed_task_is_said_in_words(driver: Any, www: Any, tasks_server: Any) -> None:
    open_host(driver, www, tasks_server, MODERN)
    run(driver, "tool", "ext_task_fails")
    assert "The backend broke." in host_error(driver, "The backend broke.")


def test_a_task_the_server_cancelled_is_said_in_words(driver: Any, www: Any, tasks_server: Any) -> None:
    open_host(driver, www, tasks_server, MODERN)
    run(driver, "tool", "ext_task_cancelled")
    said = host_error(driver, "The operator said no.")
    assert "The server cancelled the call's task: The operator said no." in said, said


def test_stop_cancels_the_task(driver: Any, www: Any, tasks_server: Any) -> None:
    open_host(driver, www, tasks_server, MODERN)
    before = len(records(tasks_server, "tasks_cancel"))
    run(driver, "tool", "ext_task_slow")
    wait_text(driver, "[data-testid=task-status]", "Still working")
    button(driver, "Stop").click()
    host_error(driver, "stopped")
    cancels = wait_for(
        driver,
        lambda _: records(tasks_server, "tasks_cancel")[before:],
        "the server receiving tasks/cancel",
    )
    assert cancels[0].get("era") == "2026-07-28", cancels
    # The extension's MUST NOT: no notifications/cancelled for a task.
    assert "notifications/cancelled" not in methods(tasks_server)


def test_a_host_that_never_wants_tasks_does_not_declare_the_extension(
    driver: Any, www: Any, tasks_server: Any
) -> None:
    open_host(driver, www, tasks_server, MODERN, tasks="never")
    run(driver, "tool", "ext_task_done")
    assert "Missing required client capability" in host_error(driver, "Missing required client capability")
