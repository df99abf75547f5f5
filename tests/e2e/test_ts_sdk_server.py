"""McpClient (`www/host.html`, protocol `auto`) against a server made with the official
TypeScript SDK (`@modelcontextprotocol/sdk` 1.x, pinned in tests/conformance/package.json;
2025-11-25, no `server/discover`): `tests/conformance/ts_sdk_server.mjs`.

Auto must fall back to the handshake by itself; the form with every field kind must show
each as the DOM contract says and send what the SDK accepts (it validates the content
against the schema); a URL-mode request must open its page and end its wait when the
server says the flow completed.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import REPO, button, control_by_label, free_port, open_host_auto, serving, wait_css, wait_for, wait_text
from test_demo_flows import card, set_checkbox, set_text
from test_host_client import result, run

CONFORMANCE = REPO / "tests" / "conformance"
SERVER = CONFORMANCE / "ts_sdk_server.mjs"
LEGACY = "2025-11-25"


class TsSdkServer:
    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}/mcp"


@pytest.fixture(scope="module")
def ts_server(artifacts: Path) -> Iterator[TsSdkServer]:
    """The TS SDK server on a free port, for this module; its log in artifacts/logs/."""
    if shutil.which("node") is None:
        pytest.fail("node is missing (scripts/setup installs it)")
    if not (CONFORMANCE / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        pytest.fail(f"{CONFORMANCE}/node_modules is missing: run `npm ci` there (scripts/conformance does)")
    port = free_port()
    (artifacts / "logs").mkdir(exist_ok=True)
    log_path = artifacts / "logs" / f"ts_sdk_server-{port}.log"
    with serving(["node", str(SERVER), str(port)], CONFORMANCE, port, log_path):
        yield TsSdkServer(port)


def open_auto(driver: Any, www: Any, server: TsSdkServer) -> None:
    open_host_auto(driver, www, server.url)


def test_auto_falls_back_to_the_handshake(driver: Any, www: Any, ts_server: TsSdkServer) -> None:
    open_auto(driver, www, ts_server)
    assert driver.execute_script("return window.mcpClient.protocolVersion") == LEGACY
    names = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.mcpClient.listTools().then((t) => done(t.map((x) => x.name)), (e) => done(String(e)));"
    )
    assert sorted(names) == ["every_field", "sign_in", "task_question"]


def test_every_field_kind_is_shown_and_sent(driver: Any, www: Any, ts_server: TsSdkServer) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_auto(driver, www, ts_server)
    run(driver, "tool", "every_field")
    form = card(driver, "form", "Every field kind, please.")
    kinds = {
        "Name": "text",
        "Email": "email",
        "Website": "url",
        "Birthday": "date",
        "Meeting": "datetime-local",
        "Height": "number",
        "Guests": "number",
        "Subscribe": "checkbox",
    }
    for label, kind in kinds.items():
        assert control_by_label(form, label).get_attribute("type") == kind, label
    for label in ("Size", "Colour"):
        assert control_by_label(form, label).tag_name == "select", label
    legends = [legend.text.strip().rstrip("*").strip() for legend in form.find_elements(By.CSS_SELECTOR, "fieldset legend")]
    assert "Toppings" in legends and "Days" in legends
    # Defaults are pre-filled.
    assert control_by_label(form, "Birthday").get_attribute("value") == "1815-12-10"
    assert control_by_label(form, "Monday").is_selected()

    set_text(form, "Name", "Grace")
    set_text(form, "Guests", "4")
    set_checkbox(form, "Subscribe", True)
    Select(control_by_label(form, "Size")).select_by_value("large")
    Select(control_by_label(form, "Colour")).select_by_visible_text("Blue")
    set_checkbox(form, "olives", True)
    set_checkbox(form, "Monday", False)
    set_checkbox(form, "Wednesday", True)
    button(form, "Submit").click()

    answer = json.loads(result(driver)["content"][0]["text"])
    assert answer["action"] == "accept"
    content = answer["content"]
    meeting = content.pop("meeting")
    assert content == {
        "name": "Grace",
        "email": "ada@example.com",
        "website": "https://example.com",
        "birthday": "1815-12-10",
        "height": 1.7,
        "guests": 4,
        "subscribe": True,
        "size": "large",
        "colour": "b",
        "toppings": ["cheese", "olives"],
        "days": ["wed"],
    }
    # The default instant, however the control shows it; the SDK checked it is a date-time.
    assert meeting.startswith("2025-06-01T09:30"), meeting


def test_url_mode_opens_the_page_and_completes(driver: Any, www: Any, ts_server: TsSdkServer) -> None:
    open_auto(driver, www, ts_server)
    run(driver, "tool", "sign_in")
    url_card = card(driver, "url", "Sign in to continue.")
    assert "127.0.0.1" in url_card.text
    before = set(driver.window_handles)
    button(url_card, "Open in new tab").click()
    wait_for(driver, lambda d: len(set(d.window_handles) - before) == 1, "a new tab")
    assert result(driver)["content"][0]["text"] == "sign_in: accept"
    # Loading the page finished the flow: the server's notifications/elicitation/complete
    # ends the card's wait.
    wait_css(driver, "[data-elicitation][data-mode=url][data-state=complete]")


# --- an elicitation as a task (2025-11-25 tasks): the server's cancel and the task's ttl ------


def test_a_task_the_server_cancels_retires_its_card_in_words(driver: Any, www: Any, ts_server: TsSdkServer) -> None:
    open_auto(driver, www, ts_server)
    run(driver, "tool", "task_question", {"cancel": True})
    # tasks/cancel was answered with the task, now cancelled.
    assert result(driver)["content"][0]["text"] == "task_question: cancelled -> cancelled"
    retired = wait_text(driver, "[data-elicitation]", "cancelled this question's task")
    assert "A question asked as a task." in retired.text
    assert not [b for b in retired.find_elements("xpath", ".//button") if b.text.strip() == "Submit"]


def test_a_task_whose_ttl_runs_out_retires_its_card_in_words(driver: Any, www: Any, ts_server: TsSdkServer) -> None:
    open_auto(driver, www, ts_server)
    run(driver, "tool", "task_question", {"ttl": 1500})
    card(driver, "form", "A question asked as a task.")
    # Nobody answers: the task's own ttl ends it, the card says so, and the server's next
    # tasks/get hears in words that the task is gone.
    wait_text(driver, "[data-elicitation]", "the time the server gave this question ran out")
    said = result(driver)["content"][0]["text"]
    assert said.startswith("task_question: gone:") and "expired" in said, said
