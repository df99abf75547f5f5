"""The example extension signs in (issue 38, item 6): its side panel connects to the demo
server with `--auth`, the sign-in card shows in the panel, **Sign in** opens the
authorization page in a popup, the authorization server sends the popup back to the
extension's own `oauth-callback.html` (listed in the manifest's
`web_accessible_resources`), which hands the code to the panel and closes, and the panel's
call goes on. Its token reaches only the server it was issued for.

Why the popup and not `chrome.identity.launchWebAuthFlow`: see `www/extension/sidepanel.js`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from auth_harness import AuthServer, auth_server_factory
from harness import button, wait_css, wait_for, wait_text
from test_auth import assert_tokens_stayed_home, events, sign_in_button
from test_extension import EXTENSION_ORIGIN, browser_with, build_extension, open_panel  # noqa: F401

from demo_server.texts import Auth

SIGNED_IN = Auth.SIGNED_IN.format(scopes=Auth.SCOPE)


@pytest.fixture
def auth_server(make_demo_server: Callable[..., Any], tmp_path: Path) -> Callable[..., AuthServer]:
    return auth_server_factory(make_demo_server, tmp_path)


def test_the_manifest_lets_the_authorization_server_send_the_popup_back(build_extension: Any) -> None:
    manifest = json.loads((build_extension() / "manifest.json").read_text(encoding="utf-8"))
    [entry] = manifest["web_accessible_resources"]
    assert "oauth-callback.html" in entry["resources"]
    assert "identity" not in manifest["permissions"]
    assert manifest["host_permissions"] == ["http://127.0.0.1/*", "http://localhost/*"], "no wider than before"


@pytest.mark.parametrize("protocol", ["2026-07-28", "2025-11-25"])
def test_the_side_panel_signs_in(
    build_extension: Any, browser_with: Any, auth_server: Callable[..., AuthServer], protocol: str
) -> None:
    from selenium.webdriver.support.ui import Select

    server = auth_server(["--auth", "--cors-origin", EXTENSION_ORIGIN])
    driver = browser_with(build_extension())
    open_panel(driver)
    field = wait_css(driver, "#server")
    field.clear()
    field.send_keys(server.url)
    Select(wait_css(driver, "#protocol")).select_by_value(protocol)
    button(driver, "Connect").click()
    def card_or_failure(d: Any) -> Any:
        from selenium.webdriver.common.by import By

        cards = d.find_elements(By.CSS_SELECTOR, "#requests [data-testid=sign-in]")
        if cards:
            return cards[0]
        status = d.find_element(By.CSS_SELECTOR, "[data-testid=connection-status]").text
        return status if status.startswith("not connected") else None

    card = wait_for(driver, card_or_failure, "the sign-in card")
    assert not isinstance(card, str), f"the panel did not connect: {card}"
    assert urlsplit(server.url).netloc in card.text and urlsplit(server.issuer).netloc in card.text, card.text
    assert not events(server, "authorize"), "nothing is opened before the click"
    panel = driver.current_window_handle
    sign_in_button(card).click()
    # The authorization server approves at once, so the popup may come and go between two
    # looks: what it did is read from the server's log instead.
    def connected(d: Any) -> Any:
        from selenium.webdriver.common.by import By

        status = d.find_element(By.CSS_SELECTOR, "[data-testid=connection-status]").text
        return status if status.startswith(("connected", "not connected")) else None

    status = wait_for(driver, connected, "the panel connected after the sign-in")
    assert status.startswith(f"connected · {protocol}"), (status, driver.current_url)
    wait_for(driver, lambda d: d.window_handles == [panel], "the popup closing itself")
    redirects = [e["redirect_uri"] for e in events(server, "authorize")]
    assert redirects == [f"{EXTENSION_ORIGIN}/oauth-callback.html"], redirects
    # A call after the sign-in uses the token, with no second sign-in.
    wait_css(driver, f"#tool option[value={Auth.WHOAMI}]")
    Select(wait_css(driver, "#tool")).select_by_value(Auth.WHOAMI)
    button(driver, "Call tool").click()
    element = wait_css(driver, "[data-testid=host-result][data-done=true]")
    assert json.loads(element.text)["content"][0]["text"] == SIGNED_IN
    assert len(events(server, "authorize")) == 1
    assert_tokens_stayed_home(server, [])
