"""McpClient (`www/host.html`, protocol `auto`) against the MCP reference server
`@modelcontextprotocol/server-everything` 2026.8.31 (TypeScript SDK 1.32.2, 2025-11-25),
pinned in tests/everything/package.json and started here over Streamable HTTP on a free
loopback port.

- `trigger-elicitation-request-async`: the server asks its question *as a task*
  (2025-11-25 tasks, SEP-1686). The client answers at once with a task, shows the card,
  and the server polls `tasks/get` until the person answered, then fetches the answer with
  `tasks/result`. The tool exists only for a client that declares
  `tasks.requests.elicitation.create`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from harness import REPO, button, free_port, wait_for_port, wait_text
from test_demo_flows import card, set_text
from test_host_client import result, run

EVERYTHING = REPO / "tests" / "everything"
ENTRY = EVERYTHING / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"
LEGACY = "2025-11-25"
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
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            ["node", str(ENTRY), "streamableHttp"], cwd=EVERYTHING, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            wait_for_port(port, proc)
            yield Everything(port, log_path)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def open_auto(driver: Any, www: Any, server: Everything) -> None:
    driver.get(f"{www.origin}/host.html?{urlencode({'server': server.url, 'protocol': 'auto'})}")
    wait_text(driver, "[data-testid=connection-status]", f"connected · {LEGACY}")


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
