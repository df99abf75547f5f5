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
