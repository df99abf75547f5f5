"""The demo page's own controls: query parameters it cannot use, a link that names a tool
(filled in, never run without a click), a Server URL that is not a full URL, the Retry
button beside (not inside) the alert, and the pages refusing to be framed.

What must hold: every problem is said in the `role=alert` in words, stays there while the
page connects, and the alert's text is the error alone.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from demo_server.texts import Route, Vault
from harness import WWW, ModernClient, StaticServer, button, control_by_label, http_request, wait_css, wait_for, wait_text
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
    card(driver, "url", Vault.MESSAGE.format(vault="v-retry"))
    retry = wait_css(driver, "button.retry")
    assert retry.text.strip() == "Retry call"
    assert "Retry call" not in alert.text, alert.text
    assert not alert.find_elements("css selector", "button"), "no button inside the alert"
    # The URL step, finished elsewhere (the site's own server would do this).
    ModernClient(demo_server.url).call_tool("unlock_vault", {"vault": "v-retry"})
    retry.click()
    result_text(driver, Vault.OPENED.format(vault="v-retry"))
    # The result and the cleared alert are the call's last updates: Retry is gone with them.
    wait_for(driver, lambda d: not alert_text(d).strip(), "the alert cleared")
    assert not driver.find_elements("css selector", "button.retry"), "no Retry once the call succeeded"


# --- a link never runs a tool --------------------------------------------------------------


def tool_calls(server: Any) -> int:
    """How many `tools/call` requests the server has answered so far (its trace)."""
    return server.methods().count("tools/call")


@pytest.mark.parametrize("protocol", [LEGACY, MODERN])
def test_a_link_fills_in_the_tool_and_waits_for_the_click(
    driver: Any, app_url: Any, make_demo_server: Any, protocol: str
) -> None:
    """`?tool=&args=` selects the tool and fills in its form; only Call tool runs it. Any
    site can link to the page, and a tool may act on the person's behalf."""
    server = make_demo_server()
    driver.get(app_url(server=server.url, protocol=protocol, tool="unlock_vault", args={"vault": "v-link"}))
    wait_text(driver, "[data-testid=connection-status]", f"connected · {protocol}")
    tool = wait_css(driver, "[data-tool=unlock_vault]")
    prefilled = control_by_label(tool, "Vault").get_attribute("value")
    selected = tool.get_attribute("data-selected")
    notes = [n.text for n in tool.find_elements("css selector", "[data-testid=from-link]")]
    result_before = driver.find_element("css selector", "[data-testid=tool-result]").text.strip()
    button(tool, "Call tool").click()
    result_text(driver, Vault.UNLOCKED.format(vault="v-link"))
    # The trace has every call that ended: had the link run the tool, there would be two.
    assert tool_calls(server) == 1, server.methods()
    assert not result_before, result_before
    assert prefilled == "v-link", "the link's argument is filled in"
    assert selected == "true"
    assert len(notes) == 1 and "nothing runs until you press Call tool" in notes[0], notes


def test_a_link_fills_in_the_json_editor_and_says_what_it_left_out(
    driver: Any, app_url: Any, make_demo_server: Any
) -> None:
    """A tool with nested arguments gets the link's args as JSON text; a flat form names
    the arguments it cannot show (they are not sent)."""
    server = make_demo_server()
    stops = {"stops": [{"city": "Oslo", "nights": 2}]}
    driver.get(app_url(server=server.url, protocol=MODERN, tool="plan_route", args=stops))
    tool = wait_css(driver, "[data-tool=plan_route][data-selected=true]")
    editor = control_by_label(tool, "Arguments for plan_route (JSON)")
    assert json.loads(editor.get_attribute("value")) == stops
    button(tool, "Call tool").click()
    result_text(driver, Route.ROUTE.format(legs="Oslo (2 nights)"))
    assert tool_calls(server) == 1, server.methods()

    driver.get(app_url(server=server.url, protocol=MODERN, tool="unlock_vault", args={"vault": 7, "extra": "x"}))
    tool = wait_css(driver, "[data-tool=unlock_vault][data-selected=true]")
    note = tool.find_element("css selector", "[data-testid=from-link]").text
    assert 'Left out (not a field of this form, or a value it cannot show): "vault", "extra".' in note, note
    assert control_by_label(tool, "Vault").get_attribute("value") == ""
    assert tool_calls(server) == 1, server.methods()


def test_a_link_to_a_tool_the_server_does_not_list_is_said(driver: Any, app_url: Any, demo_server: Any) -> None:
    driver.get(app_url(server=demo_server.url, protocol=MODERN, tool="no_such_tool", args={}))
    app_error(driver, 'The link names the tool "no_such_tool", which this server does not list.')
    assert not driver.find_elements("css selector", "[data-selected=true]")


# --- the pages refuse to be framed ----------------------------------------------------------

FRAMED_PAGES = ["", "index.html", "embed.html"]


def framing_page(tmp_path: Any, target: str) -> Any:
    """A page of another origin that frames `target`, served from `tmp_path`."""
    (tmp_path / "framer.html").write_text(
        f'<!doctype html><title>framer</title><iframe id="victim" src="{target}" width="800" height="600"></iframe>',
        encoding="utf-8",
    )
    return StaticServer(tmp_path, refuse_framing=False)


def test_every_page_is_served_with_the_no_framing_headers(www: Any) -> None:
    packages = ["pkg/mcp_elicit_web.js", "pkg/mcp_elicit_host.js", "demo/pkg/mcp_elicit_demo.js"]
    for page in [*FRAMED_PAGES, "host.html", "style.css", "index.js", *packages]:
        reply = http_request(f"{www.origin}/{page}", method="GET")
        reply.text()
        assert reply.status == 200, page
        assert reply.headers.get("content-security-policy") == "frame-ancestors 'none'", (page, reply.headers)
        assert reply.headers.get("x-frame-options") == "DENY", (page, reply.headers)


def test_a_page_of_another_origin_cannot_frame_the_demo(
    driver: Any, app_url: Any, make_demo_server: Any, tmp_path: Any
) -> None:
    """The browser blocks the frame (frame-ancestors 'none'): nothing of the demo loads in it,
    so it never connects to the server the link names."""
    server = make_demo_server()
    with framing_page(tmp_path, app_url(server=server.url, tool="unlock_vault", args={"vault": "v"})) as framer:
        driver.get(f"{framer.origin}/framer.html")
        frame = wait_css(driver, "#victim")
        driver.switch_to.frame(frame)
        # A blocked frame holds the browser's error page, never the demo's controls.
        wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the frame settled")
        assert not driver.find_elements("css selector", "#app, #server-url, [data-tool]")
        driver.switch_to.default_content()
    assert server.methods() == [], "the framed page never ran"


@pytest.mark.parametrize("page", ["index.html", "embed.html", "host.html"])
def test_a_page_framed_by_a_host_that_drops_the_headers_refuses_to_start(
    driver: Any, make_demo_server: Any, tmp_path: Any, page: str
) -> None:
    """A host that does not send the headers: the page itself sees it is framed, mounts
    nothing, and says why in words."""
    server = make_demo_server()
    with StaticServer(WWW, refuse_framing=False) as bare:
        target = f"{bare.origin}/{page}?" + urlencode(
            {"server": server.url, "tool": "unlock_vault", "args": json.dumps({"vault": "v"})}
        )
        with framing_page(tmp_path, target) as framer:
            driver.get(f"{framer.origin}/framer.html")
            driver.switch_to.frame(wait_css(driver, "#victim"))
            refusal = wait_css(driver, "[data-testid=framed][role=alert]")
            assert "does not run inside another page" in refusal.text
            assert not driver.find_elements("css selector", "#server-url, [data-tool], [data-elicitation], #slot *")
            driver.switch_to.default_content()
    assert server.methods() == [], "the framed page never connected"
