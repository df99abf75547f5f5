"""What a person sees (issue 37): what their action produced comes into view, a new request
is announced without taking focus from someone typing elsewhere, a click right after an
invalid entry is not lost, a modern-only connection to a legacy-only server says so in
words and offers Auto, and nothing overflows a phone's width.

Driven as a person would, through the DOM contract: real mouse presses (pointer down, then
up, as two separate steps) where a click could be lost, the page's own geometry
(`getBoundingClientRect`) for what is in view.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from demo_server.texts import DECLINED, SERVER_NAME, AllFields, DeleteFolder, Vault
from harness import button, control_by_label, wait_css, wait_for, wait_text
from test_demo_flows import LEGACY, MODERN, app_error, card, open_app, press_call_tool
from test_host_client import open_host
from test_hostile import hostile  # noqa: F401 - a fixture
from test_ts_sdk_server import TsSdkServer, ts_server  # noqa: F401 - a fixture

ANNOUNCER = "[data-testid=request-announcer]"


def announced(driver: Any, text: str) -> Any:
    """The live region once it says `text` (it is read aloud, not shown: its text content)."""
    from selenium.webdriver.common.by import By

    def found(d: Any) -> Any:
        for element in d.find_elements(By.CSS_SELECTOR, ANNOUNCER):
            if text in (element.get_attribute("textContent") or ""):
                return element
        return None

    return wait_for(driver, found, f"{text!r} announced in {ANNOUNCER}")


def in_view(driver: Any, element: Any) -> bool:
    """Whether `element` is in the viewport: all of it when it fits, else its top part
    (within a pixel: layout has fractions of one)."""
    return bool(
        driver.execute_script(
            "const r = arguments[0].getBoundingClientRect(), h = window.innerHeight;"
            "return r.height <= h ? r.top >= -1 && r.bottom <= h + 1 : r.top >= -1 && r.top < h;",
            element,
        )
    )


def to_bottom(driver: Any) -> None:
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")


def mouse_click(driver: Any, element: Any) -> None:
    """A person's click: the pointer moves onto `element`, goes down, then (in a separate
    step, as a hand does) comes up where it went down."""
    from selenium.webdriver.common.action_chains import ActionChains

    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    ActionChains(driver).move_to_element(element).click_and_hold().perform()
    ActionChains(driver).release().perform()


# --- 1. what the person's action produced comes into view ----------------------------------


def test_the_card_and_then_the_result_come_into_view(driver: Any, app_url: Any, demo_server: Any) -> None:
    """Call tool low on a long page: the card comes into view (it arrived far above the
    button); after Decline at the bottom of that tall card, the result does too. A polite
    live region says who asks."""
    driver.set_window_size(1000, 600)
    open_app(driver, app_url, demo_server, MODERN)
    wait_css(driver, "[data-tool=all_fields]")
    to_bottom(driver)
    press_call_tool(driver, "all_fields")
    form = card(driver, "form", AllFields.QUESTION)
    wait_for(driver, lambda d: in_view(d, form), "the new card in view")
    announcer = announced(driver, SERVER_NAME)
    assert announcer.get_attribute("role") == "status", announcer.get_attribute("outerHTML")
    said = announcer.get_attribute("textContent")
    assert demo_server.url.split("/")[2] in said, said
    # Decline sits at the bottom of the card, which is taller than the window.
    to_bottom(driver)
    button(form, "Decline").click()
    result = wait_text(driver, "[data-testid=tool-result]", DECLINED)
    wait_for(driver, lambda d: in_view(d, result), "the result in view")


def test_a_url_card_and_its_alert_come_into_view(driver: Any, app_url: Any, demo_server: Any) -> None:
    """-32042 in the legacy era: its URL card and the alert both come into view after the
    click on Call tool far down the page."""
    driver.set_window_size(1000, 600)
    open_app(driver, app_url, demo_server, LEGACY)
    wait_css(driver, "[data-tool=open_vault]")
    to_bottom(driver)
    tool = wait_css(driver, "[data-tool=open_vault]")
    field = control_by_label(tool, "Vault")
    field.clear()
    field.send_keys("v1")
    to_bottom(driver)
    press_call_tool(driver, "open_vault")
    alert = app_error(driver, "open_vault")
    card(driver, "url", Vault.MESSAGE.format(vault="v1"))
    wait_for(driver, lambda d: in_view(d, alert), "the alert in view")


def test_a_new_request_is_announced_without_taking_focus_from_a_typist(
    driver: Any, www: Any, demo_server: Any
) -> None:
    """McpClient: a request arriving while the person types in the host's own field gets a
    card and a polite announcement naming who asks; the typing goes on where it was."""
    open_host(driver, www, demo_server, MODERN)
    composer = wait_css(driver, "#target")
    composer.click()
    composer.send_keys("half a sent")
    driver.execute_script("window.mcpClient.callTool('delete_folder', {path: '/tmp/notes'})")
    card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/notes"))
    announcer = announced(driver, SERVER_NAME)
    assert announcer.get_attribute("role") == "status"
    assert driver.execute_script("return document.activeElement.id") == "target"
    composer.send_keys("ence")
    assert composer.get_attribute("value") == "half a sentence"


# --- 2. no click is lost to a message that moves the control --------------------------------


def test_a_click_right_after_an_invalid_entry_is_not_lost(driver: Any, app_url: Any, demo_server: Any) -> None:
    """-2 in Rating (minimum 0), then a real press on the next checkbox: leaving the field
    shows its message, and the press must still tick the box; likewise a press on Submit
    right after (Submit then checks every field: the empty required name is marked)."""
    open_app(driver, app_url, demo_server, MODERN, "all_fields", {})
    form = card(driver, "form", AllFields.QUESTION)
    rating = control_by_label(form, AllFields.RATING)
    subscribe = control_by_label(form, AllFields.SUBSCRIBE)
    assert subscribe.is_selected()
    rating.clear()
    rating.send_keys("-2")
    mouse_click(driver, subscribe)
    wait_for(driver, lambda d: not subscribe.is_selected(), "the press on Subscribe untick it")
    wait_for(driver, lambda d: rating.get_attribute("aria-invalid") == "true", "Rating's message once released")
    name = control_by_label(form, AllFields.NAME)
    assert name.get_attribute("aria-invalid") != "true"
    rating.clear()
    rating.send_keys("-3")
    mouse_click(driver, button(form, "Submit"))
    wait_for(driver, lambda d: name.get_attribute("aria-invalid") == "true", "Submit check every field")


# --- 3. a modern-only connection to a legacy-only server ------------------------------------


def test_modern_only_to_a_legacy_server_says_so_and_offers_auto(
    driver: Any, app_url: Any, ts_server: TsSdkServer
) -> None:
    driver.get(app_url(server=ts_server.url, protocol=MODERN))
    alert = app_error(driver, LEGACY)
    assert "Auto" in alert.text, alert.text
    button(driver, "Connect with Auto").click()
    wait_text(driver, "[data-testid=connection-status]", f"connected · {LEGACY}")
    assert driver.find_elements("css selector", "[data-testid=app-error] p") == []


def test_mcp_client_says_a_modern_only_connection_needs_auto(
    driver: Any, www: Any, ts_server: TsSdkServer
) -> None:
    query = urlencode({"server": ts_server.url, "protocol": MODERN})
    driver.get(f"{www.origin}/host.html?{query}")
    text = wait_text(driver, "[data-testid=host-error]", LEGACY).text
    assert '"auto"' in text, text


# --- 4. phones ---------------------------------------------------------------------------------


def overflow(driver: Any, width: int) -> list[str]:
    """What sticks out to the right of a `width`-px page: the page itself, cards, buttons."""
    return driver.execute_script(
        "const w = arguments[0], out = [];"
        "if (document.documentElement.scrollWidth > w)"
        "  out.push('page ' + document.documentElement.scrollWidth);"
        "for (const el of document.querySelectorAll('[data-elicitation], button, input, select, [data-tool]')) {"
        "  const r = el.getBoundingClientRect();"
        "  if (r.right > w + 0.5) out.push(el.tagName + ' ' + (el.textContent || el.name).slice(0, 30) + ' ' + r.right);"
        "}"
        "return out;",
        width,
    )


@pytest.mark.parametrize("width", [320, 375])
def test_nothing_overflows_a_phone(driver: Any, app_url: Any, demo_server: Any, width: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 700, "deviceScaleFactor": 1, "mobile": True},
    )
    open_app(driver, app_url, demo_server, MODERN)
    wait_css(driver, "[data-tool=pay_deposit]")
    assert overflow(driver, width) == []
    press_call_tool(driver, "all_fields")
    card(driver, "form", AllFields.QUESTION)
    assert overflow(driver, width) == []
    tool = wait_css(driver, "[data-tool=pay_deposit]")
    field = control_by_label(tool, "Booking Id")
    field.clear()
    field.send_keys("booking-" + "0123456789" * 6)
    press_call_tool(driver, "pay_deposit")
    card(driver, "url")
    assert overflow(driver, width) == []


@pytest.mark.parametrize("width", [320, 375])
def test_a_server_with_long_names_does_not_widen_a_phone(driver: Any, app_url: Any, hostile: Any, width: int) -> None:
    """The hostile server's long tool names and texts (as server-everything's long resource
    URIs did at 375 px) wrap instead of widening the page."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 700, "deviceScaleFactor": 1, "mobile": True},
    )
    driver.get(app_url(server=hostile.url, protocol=MODERN))
    wait_text(driver, "[data-testid=connection-status]", f"connected · {MODERN}")
    wait_css(driver, "[data-tool]")
    assert overflow(driver, width) == []


# --- 5. the README's pictures ----------------------------------------------------------------


def test_the_readme_screenshots_script_runs(www: Any, tmp_path: Any) -> None:
    """`scripts/screenshots` still makes its four pictures from the real page (their pixels
    are not compared: fonts and versions move them)."""
    import subprocess
    import sys

    from harness import REPO

    subprocess.run(
        [sys.executable, str(REPO / "scripts" / "screenshots"), "--out", str(tmp_path)],
        check=True,
        timeout=300,
        cwd=REPO,
    )
    made = sorted(p.name for p in tmp_path.glob("*.png"))
    assert made == ["form-dark.png", "form-light.png", "url-dark.png", "url-light.png"]
    for name in made:
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
