"""`McpClient` with a shadow root as its container (`www/host.html?shadow=1`), each era.

The cards and the package's stylesheet live in the host's shadow root: document queries
and the page's CSS do not reach them, and a form is answered there as anywhere else. The
`<mcp-elicitation>` element itself is driven in `tests/element/`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from demo_server.texts import DeleteFolder
from harness import wait_for, wait_text
from test_demo_flows import LEGACY, MODERN
from test_host_client import run, tool_text

HOSTILE_CSS = "input, button, label { display: none !important; color: red !important; font-size: 40px !important; }"


def shadow_card(driver: Any) -> Any:
    """The first card inside #requests's shadow root, once it is there."""
    from selenium.webdriver.common.by import By

    def found(d: Any) -> Any:
        cards = d.find_element(By.CSS_SELECTOR, "#requests").shadow_root.find_elements(
            By.CSS_SELECTOR, "[data-elicitation]"
        )
        return cards[0] if cards else None

    return wait_for(driver, found, "a card in the container's shadow root")


def shadow_button(card: Any, name: str) -> Any:
    from selenium.webdriver.common.by import By

    for b in card.find_elements(By.CSS_SELECTOR, "button"):
        if b.text.strip() == name:
            return b
    raise AssertionError(f"no button {name!r} in the card")


@pytest.mark.parametrize("protocol", [LEGACY, MODERN])
def test_cards_in_a_shadow_root_are_sealed_and_answered(
    driver: Any, www: Any, demo_server: Any, protocol: str
) -> None:
    from selenium.webdriver.common.by import By

    query = urlencode([("server", demo_server.url), ("protocol", protocol), ("shadow", "1")])
    driver.get(f"{www.origin}/host.html?{query}")
    wait_text(driver, "[data-testid=connection-status]", f"connected · {protocol}")
    run(driver, "tool", "delete_folder", {"path": "/tmp/shadow"})
    card = shadow_card(driver)
    # The page's own controls go too (the Run form was used above); the card's stay.
    driver.execute_script(
        "const s = document.createElement('style'); s.textContent = arguments[0]; document.head.append(s);",
        HOSTILE_CSS,
    )
    assert DeleteFolder.QUESTION.format(path="/tmp/shadow") in card.text
    assert driver.execute_script("return document.querySelectorAll('[data-elicitation]').length") == 0
    ok = card.find_element(By.CSS_SELECTOR, "input[name=ok]")
    style = driver.execute_script(
        "const s = getComputedStyle(arguments[0]); return [s.display, s.color, s.fontSize];", ok
    )
    assert style[0] != "none" and style[1] != "rgb(255, 0, 0)" and style[2] != "40px", style
    radius = driver.execute_script("return getComputedStyle(arguments[0]).borderTopLeftRadius", card)
    assert radius == "8px", f"the package's stylesheet is adopted by the shadow root ({radius})"
    ok.click()
    shadow_button(card, "Submit").click()
    assert tool_text(driver) == DeleteFolder.DELETED.format(path="/tmp/shadow")
