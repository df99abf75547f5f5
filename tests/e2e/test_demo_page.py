"""The demo page's own controls: query parameters it cannot use, a Server URL that is not
a full URL, and the Retry button beside (not inside) the alert.

What must hold: every problem is said in the `role=alert` in words, stays there while the
page connects, and the alert's text is the error alone.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

from harness import ModernClient, button, control_by_label, wait_css, wait_for, wait_text
from test_demo_flows import LEGACY, MODERN, app_error, card, open_app, result_text, set_text

ALERT = "[data-testid=app-error][role=alert]"


def alert_text(driver: Any) -> str:
    return str(driver.find_element("css selector", ALERT).text)


def test_bad_args_stay_said_after_the_connect(driver: Any, app_url: Any, demo_server: Any) -> None:
    """`args` that is not JSON: the tool is not called, and the alert says why, also after the
    connect (which clears the connect's own errors) has finished."""
    url = app_url(server=demo_server.url, protocol=LEGACY) + "&tool=book_table&args=" + quote("{not json")
    driver.get(url)
    wait_text(driver, "[data-testid=connection-status]", f"connected · {LEGACY}")
    wait_css(driver, "[data-tool=book_table]")
    alert = app_error(driver, "The args parameter is not valid JSON")
    assert alert.find_element("css selector", "[data-testid=query-error]").text.startswith("The args parameter")
    assert not driver.find_elements("css selector", "[data-elicitation]"), "the tool was not called"


def test_an_unknown_protocol_stays_said_and_auto_is_used(driver: Any, app_url: Any, demo_server: Any) -> None:
    driver.get(app_url(server=demo_server.url, protocol="2024-01-01"))
    wait_text(driver, "[data-testid=connection-status]", f"connected · {MODERN}")
    wait_css(driver, "[data-tool=book_table]")
    app_error(driver, 'The protocol parameter "2024-01-01" is not one of auto, 2026-07-28 or 2025-11-25')
    # A call's own error joins it; the query's problem is still said.
    call = button(wait_css(driver, "[data-tool=book_table]"), "Call tool")
    set_text(wait_css(driver, "[data-tool=book_table]"), "Date", "2025-12-25")
    call.click()
    app_error(driver, "The call to book_table failed")
    assert "The protocol parameter" in alert_text(driver)


def test_a_server_url_that_is_not_a_full_url_is_said_in_the_alert(driver: Any, app_url: Any) -> None:
    """The browser's own validation bubble (type=url) must not swallow the app's error."""
    driver.get(app_url())
    wait_css(driver, "form.connect")
    field = control_by_label(driver, "Server URL")
    for typed in ["127.0.0.1:8001/mcp", "my server", "localhost:8001/mcp"]:
        field.clear()
        field.send_keys(typed)
        button(driver, "Connect").click()
        # The alert names what the field holds (a url input may drop the typed space).
        shown = field.get_attribute("value")
        wait_for(driver, lambda d: f'"{shown}" is not a full URL' in alert_text(d), f"the alert about {typed!r}")
        assert "http:// or https://" in alert_text(driver)
        assert "not a full URL" in driver.find_element("css selector", "[data-testid=connection-status]").text


def test_retry_sits_beside_the_alert_and_runs_the_call_again(driver: Any, app_url: Any, demo_server: Any) -> None:
    """-32042 (URL elicitation required, legacy): the alert says so without the button's text;
    once the URL step is done (out of band here), Retry call runs the call again."""
    open_app(driver, app_url, demo_server, LEGACY, "open_vault", {"vault": "v-retry"})
    alert = app_error(driver, "open_vault")
    card(driver, "url", "Sign in to open vault v-retry.")
    retry = wait_css(driver, "button.retry")
    assert retry.text.strip() == "Retry call"
    assert "Retry call" not in alert.text, alert.text
    assert not alert.find_elements("css selector", "button"), "no button inside the alert"
    # The URL step, finished elsewhere (the site's own server would do this).
    ModernClient(demo_server.url).call_tool("unlock_vault", {"vault": "v-retry"})
    retry.click()
    result_text(driver, "Vault v-retry opened.")
    wait_for(driver, lambda d: not alert_text(d).strip(), "the alert cleared")
    time.sleep(0.2)
    assert not driver.find_elements("css selector", "button.retry"), "no Retry once the call succeeded"
