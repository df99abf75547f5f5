"""McpClient (`www/host.html`, protocol `auto`, a sampling handler) against the TypeScript
SDK's example server `simpleTaskInteractive` (`@modelcontextprotocol/sdk` 1.32.2, pinned in
tests/conformance/package.json; 2025-11-25 tasks): two tools that must be called as tasks
and, inside the task, ask the client something through `tasks/result`'s stream:
- `confirm_delete` an `elicitation/create` (a yes/no question, a card for the person);
- `write_haiku` a `sampling/createMessage` (the host's sampling handler answers).

The example sends no CORS headers: the page reaches it through tests/e2e/front.mjs,
which adds them (and records what the page sent).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from fronts import Front, fronting
from harness import LEGACY, REPO, button, free_port, serving, wait_text
from test_demo_flows import card, set_checkbox
from test_host_client import result, run

SDK = REPO / "tests" / "conformance" / "node_modules" / "@modelcontextprotocol" / "sdk"
EXAMPLE = SDK / "dist" / "esm" / "examples" / "server" / "simpleTaskInteractive.js"


@pytest.fixture(scope="module")
def example(artifacts: Path) -> Iterator[Front]:
    """The example on a free port behind a front, for this module; logs in artifacts/logs/."""
    if shutil.which("node") is None:
        pytest.fail("node is missing (scripts/setup installs it)")
    if not EXAMPLE.is_file():
        pytest.fail(f"{EXAMPLE} is missing: run `npm ci` in tests/conformance (scripts/conformance does)")
    port = free_port()
    logs = artifacts / "logs"
    logs.mkdir(exist_ok=True)
    env = {"PATH": shutil.os.environ.get("PATH", ""), "PORT": str(port)}
    with serving(["node", str(EXAMPLE)], SDK, port, logs / f"task-interactive-{port}.log", env):
        with fronting(f"http://127.0.0.1:{port}/mcp", logs) as front:
            yield front


def open_with_sampling(driver: Any, www: Any, front: Front) -> None:
    query = urlencode({"server": front.url, "protocol": "auto", "sampling": "echo"})
    driver.get(f"{www.origin}/host.html?{query}")
    wait_text(driver, "[data-testid=connection-status]", f"connected · {LEGACY}")


def texts(driver: Any) -> str:
    return "\n".join(part.get("text", "") for part in result(driver)["content"])


def sent_methods(front: Front) -> list[str]:
    return [m.get("method", "") for m in front.sent()]


@pytest.mark.parametrize(("confirm", "said"), [(True, "Deleted 'notes.txt'"), (False, "Deletion cancelled")])
def test_a_question_inside_a_task_reaches_its_card_and_the_answer_ends_the_task(
    driver: Any, www: Any, example: Front, confirm: bool, said: str
) -> None:
    open_with_sampling(driver, www, example)
    run(driver, "tool", "confirm_delete", {"filename": "notes.txt"})
    form = card(driver, "form", "Are you sure you want to delete 'notes.txt'?")
    set_checkbox(form, "confirm", confirm)
    button(form, "Submit").click()
    assert texts(driver) == said
    # Called as a task (the tool requires it), its question and result read through
    # tasks/result.
    calls = [m for m in example.sent() if m.get("method") == "tools/call"]
    assert calls and all("task" in m["params"] for m in calls), calls
    assert "tasks/result" in sent_methods(example)


def test_a_sampling_request_inside_a_task_is_answered_by_the_hosts_handler(
    driver: Any, www: Any, example: Front
) -> None:
    open_with_sampling(driver, www, example)
    run(driver, "tool", "write_haiku", {"topic": "bees"})
    assert texts(driver) == "Haiku:\necho: Write a haiku about bees"
    answers = [m for m in example.sent() if m.get("result", {}).get("model") == "host-page-echo"]
    assert len(answers) == 1, answers
