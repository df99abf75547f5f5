"""The embedding API in a real headless Chromium, driven from outside the page (WebDriver):
Open in new tab opens the card's URL in a new tab that has no `window.opener` (and no
referrer), answers `accept`, and the card waits until its own completion arrives."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

from harness import StaticServer, button, wait_for


def embed_url(www: StaticServer, params: dict[str, Any]) -> str:
    return f"{www.origin}/embed.html?params={quote(json.dumps(params))}"


def card_state(driver: Any, slot: str = "#slot") -> str | None:
    """`data-state` of the card rendered into `slot`."""
    from selenium.webdriver.common.by import By

    els = driver.find_elements(By.CSS_SELECTOR, f"{slot} [data-elicitation]")
    return els[0].get_attribute("data-state") if els else None


def other_state(driver: Any) -> str | None:
    return card_state(driver, "#other-slot")


def test_open_in_new_tab_has_no_opener(driver: Any, www: StaticServer) -> None:
    from selenium.webdriver.common.by import By

    with tempfile.TemporaryDirectory(prefix="mcp-elicit-landing-") as tmp:
        Path(tmp, "landing.html").write_text(
            "<!doctype html><title>Landing</title><p>the page the server chose</p>", encoding="utf-8"
        )
        # Another origin than the page's, as a real payment page would be.
        with StaticServer(Path(tmp)) as target:
            url = f"{target.origin}/landing.html?order=42"
            params = {"mode": "url", "message": "Pay the deposit", "url": url, "elicitationId": "e2e-1"}
            driver.get(embed_url(www, params))
            card = wait_for(
                driver,
                lambda d: d.find_elements(By.CSS_SELECTOR, "[data-elicitation][data-mode=url]"),
                "the URL card to render",
            )[0]
            assert card.find_element(By.CSS_SELECTOR, "[data-testid=url-full]").text == url
            assert card.find_element(By.CSS_SELECTOR, "[data-testid=url-host]").text.startswith("127.0.0.1:")
            # Nothing opens before the click.
            assert len(driver.window_handles) == 1
            page = driver.current_window_handle

            button(card, "Open in new tab").click()
            wait_for(driver, lambda d: len(d.window_handles) == 2, "a second tab to open")
            new = next(h for h in driver.window_handles if h != page)
            driver.switch_to.window(new)
            wait_for(driver, lambda d: d.current_url == url, f"the new tab to load {url}")
            assert driver.title == "Landing"
            assert driver.execute_script("return window.opener === null") is True
            assert driver.execute_script("return document.referrer") == ""

            driver.switch_to.window(page)
            result = wait_for(
                driver,
                lambda d: d.find_element(By.CSS_SELECTOR, "[data-testid=embed-result]").text or None,
                "the Promise to resolve",
            )
            assert json.loads(result) == {"action": "accept"}
            assert card_state(driver) == "waiting"

            # A second URL card, waiting for its own id, beside the first: a completion for
            # it must turn it complete (seen first) and leave the first card waiting.
            driver.execute_async_script(
                """const done = arguments[arguments.length - 1];
                const slot = document.createElement("div");
                slot.id = "other-slot";
                document.body.append(slot);
                import("./pkg/mcp_elicit_web.js").then((m) => {
                  m.elicit(slot, arguments[0]);
                  done();
                });""",
                {**params, "elicitationId": "some-other-id", "message": "Another deposit"},
            )
            other = wait_for(
                driver,
                lambda d: d.find_elements(By.CSS_SELECTOR, "#other-slot [data-elicitation][data-mode=url]"),
                "the second URL card to render",
            )[0]
            button(other, "Open in new tab").click()
            wait_for(driver, lambda d: len(d.window_handles) == 3, "a third tab to open")
            wait_for(driver, lambda d: other_state(d) == "waiting", "the second card to wait")
            driver.execute_script("window.completeElicitation('some-other-id')")
            wait_for(driver, lambda d: other_state(d) == "complete", "the second card to turn complete")
            assert card_state(driver) == "waiting", "another id's completion ended this card's wait"
            driver.execute_script("window.completeElicitation('e2e-1')")
            wait_for(driver, lambda d: card_state(d) == "complete", "the card to turn complete")


def test_refused_url_has_no_open_button(driver: Any, www: StaticServer) -> None:
    from selenium.webdriver.common.by import By

    params = {"mode": "url", "message": "Click", "url": "javascript:alert(1)", "elicitationId": "x"}
    driver.get(embed_url(www, params))
    card = wait_for(
        driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-elicitation]"), "the URL card to render"
    )[0]
    alert = card.find_element(By.CSS_SELECTOR, "[role=alert]").text
    assert "javascript:" in alert
    names = [b.text for b in card.find_elements(By.TAG_NAME, "button")]
    assert names == ["Decline", "Cancel"]
    button(card, "Cancel").click()
    result = wait_for(
        driver,
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-testid=embed-result]").text or None,
        "the Promise to resolve",
    )
    assert json.loads(result) == {"action": "cancel"}
    assert len(driver.window_handles) == 1
