"""Screenshots of a form and a URL card, light and dark, saved to artifacts/screenshots/
(git-ignored) for a person to look at; and a check that dark mode really changes the colours
and that both cards fit a phone-width viewport without sideways scrolling."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from harness import StaticServer, wait_for

FORM = {
    "message": "Book a table: how many people, and when?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "description": "Who the table is for", "minLength": 2},
            "guests": {"type": "integer", "title": "Guests", "minimum": 1, "maximum": 12, "default": 2},
            "date": {"type": "string", "format": "date", "title": "Date", "default": "2025-12-27"},
            "outdoor": {"type": "boolean", "title": "Outdoor seating", "description": "Weather permitting"},
            "area": {
                "type": "string",
                "title": "Area",
                "oneOf": [{"const": "window", "title": "By the window"}, {"const": "bar", "title": "At the bar"}],
            },
            "diet": {
                "type": "array",
                "title": "Dietary needs",
                "items": {"anyOf": [{"const": "veg", "title": "Vegetarian"}, {"const": "gf", "title": "Gluten-free"}]},
            },
        },
        "required": ["name", "guests", "date"],
    },
}

URL = {
    "mode": "url",
    "message": "Pay the 20 € deposit to confirm the booking.",
    "url": "https://b\u00fccher.example/pay/deposit?order=1234567890&session=abcdefghijklmnopqrstuvwxyz",
    "elicitationId": "shot-1",
}


def set_scheme(driver: Any, scheme: str) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )


def body_background(driver: Any) -> str:
    return driver.execute_script("return getComputedStyle(document.body).backgroundColor")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots(driver: Any, www: StaticServer, artifacts: Path, scheme: str) -> None:
    from selenium.webdriver.common.by import By

    shots = artifacts / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    driver.set_window_size(900, 1100)
    set_scheme(driver, scheme)
    backgrounds = {}
    for name, params in [("form", FORM), ("url", URL)]:
        driver.get(f"{www.origin}/embed.html?params={quote(json.dumps(params))}")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-elicitation]"), f"the {name} to render")
        if name == "form":
            # Show an error message too, as a user who submits too early sees it.
            driver.find_element(By.XPATH, "//button[normalize-space()='Submit']").click()
            wait_for(
                driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[aria-invalid=true]"), "the name error to show"
            )
        backgrounds[name] = body_background(driver)
        path = shots / f"{name}-{scheme}.png"
        assert driver.save_screenshot(str(path)), f"could not save {path}"
        assert path.stat().st_size > 0
    dark = scheme == "dark"
    # Dark mode darkens the page: the red channel of the background says which scheme applied.
    red = int(backgrounds["form"].split("(")[1].split(",")[0])
    assert (red < 64) == dark, f"{scheme}: body background {backgrounds['form']}"


@pytest.mark.parametrize("name,params", [("form", FORM), ("url", URL)])
def test_cards_fit_a_phone_width(driver: Any, www: StaticServer, artifacts: Path, name: str, params: Any) -> None:
    from selenium.webdriver.common.by import By

    driver.set_window_size(360, 800)
    driver.get(f"{www.origin}/embed.html?params={quote(json.dumps(params))}")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-elicitation]"), f"the {name} to render")
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    shots = artifacts / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(shots / f"{name}-phone.png"))
    assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at 360px wide"
