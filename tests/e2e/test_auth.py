"""Signing in, as a person does it, in headless Chromium: `McpClient.connect` with `auth`
options against the demo server's `--auth` (its own authorization server on another port,
see `tests/servers/demo_server/auth.py`), on `tests/e2e/pages/auth-host.html` served beside
`www/` (same origin as `www/pkg` and `www/oauth-callback.html`).

The flow (docs/dom-contract.md, issue 38): a 401 shows a card `[data-testid=sign-in]` in
the client's container, naming the server's host and the authorization server's host,
with a button whose accessible name starts with "Sign in". Its click opens the
authorization URL in a popup; the authorization server approves at once (or, with
`--consent`, after Allow) and redirects to `oauth-callback.html`, which hands the code back
and closes; the call goes on by itself. A blocked popup is answered by a full-page redirect
and the page resumes on its return.

Which credentials went where is read from each server's `--auth-log` (fingerprints of what
each side received, and of what its authorization server issued), never from the page.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from auth_harness import TOKEN_TTL, AuthServer, auth_server_factory, fingerprint
from harness import CHROMEDRIVER, CHROMIUM, REPO, WWW, StaticServer, chrome_options, wait_css, wait_for

from demo_server.texts import Auth

PAGES = REPO / "tests" / "e2e" / "pages"
SIGNED_IN = Auth.SIGNED_IN.format(scopes=Auth.SCOPE)


@pytest.fixture(scope="module")
def auth_www(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServer]:
    """`www/` and `tests/e2e/pages/` served as one directory (links to both), so the test
    page shares its origin with the package and the callback page."""
    for pkg in [WWW / "pkg"]:
        if not (pkg.is_dir() and any(pkg.glob("*.wasm"))):
            pytest.fail(f"{pkg} has no .wasm: build the pages first with scripts/build-www")
    root = tmp_path_factory.mktemp("auth-www")
    for entry in [*WWW.iterdir(), *PAGES.iterdir()]:
        (root / entry.name).symlink_to(entry)
    with StaticServer(root) as server:
        yield server


@pytest.fixture
def auth_server(make_demo_server: Callable[..., Any], tmp_path: Path) -> Callable[..., AuthServer]:
    return auth_server_factory(make_demo_server, tmp_path)


def page_url(www: StaticServer, servers: list[AuthServer], *, auth: bool = True, **query: str) -> str:
    pairs = [("server", s.url) for s in servers]
    if auth:
        if not (WWW / "oauth-callback.html").exists():
            pytest.fail("www/oauth-callback.html is missing: the browser sign-in (issue 38) is not built in")
        pairs.append(("auth", "1"))
    pairs += list(query.items())
    return f"{www.origin}/auth-host.html?{urlencode(pairs)}"


def sign_in_card(driver: Any, i: int = 0) -> Any:
    return wait_css(driver, f"[data-testid=container-{i}] [data-testid=sign-in]")


def sign_in_button(card: Any) -> Any:
    """The card's button whose accessible name starts with "Sign in"."""
    from selenium.webdriver.common.by import By

    def found(_: Any) -> Any:
        for b in card.find_elements(By.CSS_SELECTOR, "button"):
            name = (b.accessible_name or b.text or "").strip()
            if name.startswith("Sign in") and b.is_enabled():
                return b
        return None

    return wait_for(card.parent, found, "a button named Sign in… on the sign-in card")


def no_card(driver: Any, i: int = 0) -> bool:
    from selenium.webdriver.common.by import By

    cards = driver.find_elements(By.CSS_SELECTOR, f"[data-testid=container-{i}] [data-testid=sign-in]")
    return not any(c.is_displayed() for c in cards)


def result(driver: Any, i: int = 0) -> str:
    """The text of server i's tool result, once there; failing, says what error the page shows."""
    from selenium.webdriver.common.by import By

    def done(d: Any) -> Any:
        error = d.find_element(By.CSS_SELECTOR, f"[data-testid=error-{i}]").text
        if error:
            return ("error", error)
        el = d.find_element(By.CSS_SELECTOR, f"[data-testid=result-{i}]")
        return ("result", el.text) if el.get_attribute("data-done") == "true" else None

    kind, text = wait_for(driver, done, f"a tool result for server {i}")
    assert kind == "result", f"server {i}: the page shows the error {text!r}"
    return str(text)


def run_tool(driver: Any, i: int, name: str) -> None:
    """Starts `name` on server i (the page shows its result or error when it ends)."""
    driver.execute_script("window.runTool(arguments[0], arguments[1])", i, name)


def events(server: AuthServer, event: str) -> list[dict[str, Any]]:
    return [e for e in server.log() if e["event"] == event]


def bearer_seen(server: AuthServer, side: str) -> set[str]:
    """Fingerprints of the bearer credentials `side` of `server` received."""
    return {
        e["authorization"]["credential"]
        for e in server.log()
        if e["event"] == "request" and e["side"] == side and e["authorization"]
        and e["authorization"]["scheme"].lower() == "bearer"
    }


def issued(server: AuthServer) -> set[str]:
    return {e["access_token"] for e in events(server, "issued")}


def assert_tokens_stayed_home(server: AuthServer, others: list[AuthServer]) -> None:
    """Every token `server`'s MCP side received was issued by its own authorization server,
    none by another's, and no authorization server received a bearer token."""
    seen = bearer_seen(server, "resource")
    assert seen, "the server never received a token"
    assert seen <= issued(server)
    for other in others:
        assert not seen & issued(other), "a token of another authorization server reached this server"
    assert not bearer_seen(server, "authorization"), "an access token went to the authorization server"


def popup_handle(driver: Any, before: list[str]) -> str:
    return wait_for(driver, lambda d: next((h for h in d.window_handles if h not in before), None), "a popup")


@pytest.mark.parametrize("protocol", ["auto", "2026-07-28", "2025-11-25"])
def test_first_sign_in(driver: Any, auth_www: StaticServer, auth_server: Callable[..., AuthServer], protocol: str) -> None:
    server = auth_server()
    url = page_url(auth_www, [server], tool=Auth.WHOAMI, protocol=protocol)
    driver.get(url)
    card = sign_in_card(driver)
    text = card.text
    assert urlsplit(server.url).netloc in text, f"the card names the server's host: {text!r}"
    assert urlsplit(server.issuer).netloc in text, f"the card names where the person signs in: {text!r}"
    assert not events(server, "authorize"), "nothing is opened before the click"
    main = driver.current_window_handle
    sign_in_button(card).click()
    assert result(driver) == SIGNED_IN
    driver.switch_to.window(main)
    assert no_card(driver)
    wait_for(driver, lambda d: d.window_handles == [main], "the popup closing itself")
    assert driver.current_url == url, "no code or token in the page's URL"
    assert len(events(server, "register")) == 1
    assert len(events(server, "authorize")) == 1
    assert [e["resource"] for e in events(server, "authorize")] == [server.url]
    tokens = [e for e in events(server, "request") if e["path"] == "/token"]
    assert [t["form"].get("resource") for t in tokens] == [server.url], "the token request names the resource"
    assert_tokens_stayed_home(server, [])


def test_refresh_without_the_person(driver: Any, auth_www: StaticServer, auth_server: Callable[..., AuthServer]) -> None:
    server = auth_server()  # access tokens live TOKEN_TTL seconds
    driver.get(page_url(auth_www, [server], tool=Auth.WHOAMI))
    sign_in_button(sign_in_card(driver)).click()
    assert result(driver) == SIGNED_IN
    time.sleep(TOKEN_TTL + 1)  # the access token has expired (not an assertion: a precondition)
    run_tool(driver, 0, Auth.WHOAMI)
    assert result(driver) == SIGNED_IN
    assert no_card(driver)
    assert len(events(server, "authorize")) == 1, "no second sign-in"
    assert [e["grant"] for e in events(server, "issued")] == ["authorization_code", "refresh_token"]
    assert_tokens_stayed_home(server, [])


def test_closed_popup_then_sign_in_again(
    driver: Any, auth_www: StaticServer, auth_server: Callable[..., AuthServer]
) -> None:
    from selenium.webdriver.common.by import By

    server = auth_server(["--auth", "--consent"])
    driver.get(page_url(auth_www, [server], tool=Auth.WHOAMI))
    main = driver.current_window_handle
    card = sign_in_card(driver)
    before = driver.window_handles
    sign_in_button(card).click()
    driver.switch_to.window(popup_handle(driver, before))
    wait_for(driver, lambda d: d.find_elements(By.XPATH, "//button[text()='Allow']"), "the consent page")
    driver.close()  # the person closes the popup without answering
    driver.switch_to.window(main)
    card = wait_for(
        driver,
        lambda d: next((c for c in d.find_elements(By.CSS_SELECTOR, "[data-testid=sign-in]") if "closed" in c.text.lower()), None),
        "the card saying the popup was closed",
    )
    before = driver.window_handles
    sign_in_button(card).click()
    driver.switch_to.window(popup_handle(driver, before))
    wait_for(driver, lambda d: d.find_elements(By.XPATH, "//button[text()='Allow']"), "the consent page")[0].click()
    driver.switch_to.window(main)
    assert result(driver) == SIGNED_IN
    assert no_card(driver)
    assert [e["allowed"] for e in events(server, "consent")] == [True]
    assert len(events(server, "authorize")) == 2
    assert len(events(server, "register")) == 1, "the registration is kept"


def test_refused_sign_in_then_sign_in_again(
    driver: Any, auth_www: StaticServer, auth_server: Callable[..., AuthServer]
) -> None:
    from selenium.webdriver.common.by import By

    server = auth_server(["--auth", "--consent"])
    driver.get(page_url(auth_www, [server], tool=Auth.WHOAMI))
    main = driver.current_window_handle
    for decision in ("Deny", "Allow"):
        card = sign_in_card(driver)
        before = driver.window_handles
        sign_in_button(card).click()
        driver.switch_to.window(popup_handle(driver, before))
        wait_for(driver, lambda d: d.find_elements(By.XPATH, f"//button[text()='{decision}']"), "the consent page")[
            0
        ].click()
        driver.switch_to.window(main)
        if decision == "Deny":
            wait_for(driver, lambda d: sign_in_button(sign_in_card(d)), "Sign in offered again after a refusal")
    assert result(driver) == SIGNED_IN
    assert [e["allowed"] for e in events(server, "consent")] == [False, True]


@pytest.fixture
def popup_blocking_driver() -> Iterator[Any]:
    """A Chromium of its own with its popup blocker on (ChromeDriver turns it off by
    default): `window.open` without a user gesture returns null. Quit after the test."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.exists():
            pytest.fail(f"{path} is missing: run scripts/setup")
    profile = tempfile.mkdtemp(prefix="mcp-elicit-chromium-popups-")
    options = chrome_options(profile)
    options.add_experimental_option("excludeSwitches", ["disable-popup-blocking"])
    browser = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield browser
    finally:
        try:
            browser.quit()
        finally:
            shutil.rmtree(profile, ignore_errors=True)


def test_blocked_popup_is_answered_by_a_redirect(
    popup_blocking_driver: Any, auth_www: StaticServer, auth_server: Callable[..., AuthServer]
) -> None:
    driver = popup_blocking_driver
    server = auth_server()
    url = page_url(auth_www, [server], tool=Auth.WHOAMI)
    driver.get(url)
    button = sign_in_button(sign_in_card(driver))
    # A click from script carries no user gesture: Chromium blocks the popup it opens.
    driver.execute_script("arguments[0].click()", button)
    assert result(driver) == SIGNED_IN  # after the full-page redirect and the return
    assert len(driver.window_handles) == 1, "no popup was opened"
    assert driver.current_url == url, "the page came back to where it was, with no code in its URL"
    assert no_card(driver)
    assert len(events(server, "authorize")) == 1
    assert [e["grant"] for e in events(server, "issued")] == ["authorization_code"]
    assert_tokens_stayed_home(server, [])


def test_step_up(driver: Any, auth_www: StaticServer, auth_server: Callable[..., AuthServer]) -> None:
    server = auth_server()
    driver.get(page_url(auth_www, [server], tool=Auth.WHOAMI))
    sign_in_button(sign_in_card(driver)).click()
    assert result(driver) == SIGNED_IN
    run_tool(driver, 0, Auth.ADMIN_REPORT)  # 403 insufficient_scope: sign in for more
    sign_in_button(sign_in_card(driver)).click()
    assert result(driver) == Auth.REPORT.format(scopes=f"{Auth.ADMIN_SCOPE} {Auth.SCOPE}")
    scopes = [set(e["scopes"]) for e in events(server, "authorize")]
    assert scopes[0] == {Auth.SCOPE}
    assert scopes[1] >= {Auth.SCOPE, Auth.ADMIN_SCOPE}
    assert len(scopes) == 2
    assert len(events(server, "register")) == 1


def test_two_servers_two_authorization_servers(
    driver: Any, auth_www: StaticServer, auth_server: Callable[..., AuthServer]
) -> None:
    one, two = auth_server(), auth_server()
    driver.get(page_url(auth_www, [one, two], tool=Auth.WHOAMI))
    for i, server in enumerate((one, two)):
        card = sign_in_card(driver, i)
        assert urlsplit(server.issuer).netloc in card.text
        sign_in_button(card).click()
        assert result(driver, i) == SIGNED_IN
    for i, server in enumerate((one, two)):
        assert no_card(driver, i)
        assert len(events(server, "register")) == 1, "a registration is never reused at another server"
        assert len(events(server, "authorize")) == 1
    assert_tokens_stayed_home(one, [two])
    assert_tokens_stayed_home(two, [one])


def test_static_api_key_in_headers(driver: Any, auth_www: StaticServer, auth_server: Callable[..., AuthServer]) -> None:
    key = "demo-" + "k" * 20
    server = auth_server(["--api-key", key])
    options = {"headers": [{"X-API-Key": key}]}
    driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {"source": f"window.mcpElicitHostOptions = {json.dumps(options)};"},
    )
    driver.get(page_url(auth_www, [server], auth=False, tool=Auth.WHOAMI))
    assert result(driver) == Auth.API_KEY
    requests = [e for e in events(server, "request") if e["path"] == "/mcp" and e["method"] != "OPTIONS"]
    assert requests
    assert {e["x_api_key"] for e in requests} == {fingerprint(key)}, "every MCP request carried the key"
    assert key not in driver.current_url


def signin_wasm_fetched(driver: Any) -> list[str]:
    """The page's fetches of sign-in's own wasm (mcp_elicit_signin_bg.wasm)."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map(r => r.name)"
        ".filter(n => n.includes('mcp_elicit_signin_bg.wasm'))"
    )


def test_sign_in_wasm_is_fetched_only_when_a_server_asks(
    driver: Any, auth_www: StaticServer, auth_server: Callable[..., AuthServer]
) -> None:
    """McpClient's page downloads sign-in's own wasm only when a server first asks for
    sign-in, and once however many sign-ins follow (issue 38's budget: sign-in is not in
    the client's entry)."""
    key = "demo-" + "k" * 20
    keyed = auth_server(["--api-key", key])
    driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {"source": f"window.mcpElicitHostOptions = {json.dumps({'headers': [{'X-API-Key': key}]})};"},
    )
    driver.get(page_url(auth_www, [keyed], tool=Auth.WHOAMI))
    assert result(driver) == Auth.API_KEY
    assert signin_wasm_fetched(driver) == [], "a server that asks for no sign-in costs no sign-in download"

    server = auth_server()
    driver.get(page_url(auth_www, [server], tool=Auth.WHOAMI))
    sign_in_button(sign_in_card(driver)).click()
    assert result(driver) == SIGNED_IN
    run_tool(driver, 0, Auth.ADMIN_REPORT)  # a second sign-in (step-up), same module
    sign_in_button(sign_in_card(driver)).click()
    assert result(driver) == Auth.REPORT.format(scopes=f"{Auth.ADMIN_SCOPE} {Auth.SCOPE}")
    assert len(signin_wasm_fetched(driver)) == 1


def test_sign_in_wasm_that_does_not_load_is_said_and_tried_again(
    driver: Any, auth_server: Callable[..., AuthServer], tmp_path: Path
) -> None:
    """Sign-in's wasm missing (a host that did not serve it, a dropped connection): the
    call fails in words, no panic, and the next call loads it again once it is there."""
    from selenium.webdriver.common.by import By

    root = tmp_path / "www"
    root.mkdir()
    for entry in [*WWW.iterdir(), *PAGES.iterdir()]:
        if entry.name != "pkg":
            (root / entry.name).symlink_to(entry)
    pkg = root / "pkg"
    pkg.mkdir()
    for entry in (WWW / "pkg").iterdir():
        if entry.name != "mcp_elicit_signin_bg.wasm":
            (pkg / entry.name).symlink_to(entry)
    server = auth_server()
    with StaticServer(root) as www:
        driver.get(page_url(www, [server], tool=Auth.WHOAMI))
        error = wait_for(
            driver,
            lambda d: d.find_element(By.CSS_SELECTOR, "[data-testid=error-0]").text,
            "the call's error",
        )
        assert "could not be loaded" in error, error
        assert "Signing in did not work" in error, error
        assert not events(server, "authorize")
        (pkg / "mcp_elicit_signin_bg.wasm").symlink_to(WWW / "pkg" / "mcp_elicit_signin_bg.wasm")
        driver.execute_script("window.reconnect(0)")  # the same page: the load is tried again
        sign_in_button(sign_in_card(driver)).click()
        assert result(driver) == SIGNED_IN


def test_sign_in_wasm_from_sign_in_wasm_option(
    driver: Any, auth_server: Callable[..., AuthServer], tmp_path: Path
) -> None:
    """A bundle that keeps sign-in's wasm elsewhere names it with `auth.signInWasm` (here a
    URL object, as a bundler's asset import gives one)."""
    root = tmp_path / "www"
    root.mkdir()
    for entry in [*WWW.iterdir(), *PAGES.iterdir()]:
        if entry.name != "pkg":
            (root / entry.name).symlink_to(entry)
    (root / "pkg").mkdir()
    for entry in (WWW / "pkg").iterdir():
        if entry.name != "mcp_elicit_signin_bg.wasm":
            (root / "pkg" / entry.name).symlink_to(entry)
    (root / "assets").mkdir()
    (root / "assets" / "signin-1234.wasm").symlink_to(WWW / "pkg" / "mcp_elicit_signin_bg.wasm")
    driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument",
        {"source": "window.mcpElicitHostOptions = "
         "{ auth: { signInWasm: new URL('assets/signin-1234.wasm', location.href) } };"},
    )
    server = auth_server()
    with StaticServer(root) as www:
        driver.get(page_url(www, [server], tool=Auth.WHOAMI))
        sign_in_button(sign_in_card(driver)).click()
        assert result(driver) == SIGNED_IN


def test_a_call_stopped_during_its_sign_in_takes_the_card_away(
    driver: Any, auth_www: StaticServer, auth_server: Callable[..., AuthServer]
) -> None:
    """Stop on a call waiting for a step-up sign-in: the card goes with it (the sign-in in
    its own wasm is told), and a later call signs in with a card of its own, only one."""
    from selenium.webdriver.common.by import By

    server = auth_server()
    driver.get(page_url(auth_www, [server], tool=Auth.WHOAMI))
    sign_in_button(sign_in_card(driver)).click()
    assert result(driver) == SIGNED_IN
    driver.execute_script(
        """
        const stop = new AbortController();
        window.stopCall = () => stop.abort();
        window.mcpClients[0].callTool(arguments[0], {}, { signal: stop.signal })
          .then(() => { window.stopped = "answered"; }, (e) => { window.stopped = e.message; });
        """,
        Auth.ADMIN_REPORT,
    )
    sign_in_card(driver)  # 403 insufficient_scope: the step-up card
    driver.execute_script("window.stopCall()")
    wait_for(driver, lambda d: d.execute_script("return window.stopped"), "the stopped call's end")
    wait_for(driver, lambda d: no_card(d), "the sign-in card gone with its call")
    run_tool(driver, 0, Auth.ADMIN_REPORT)
    sign_in_card(driver)
    cards = driver.find_elements(By.CSS_SELECTOR, "[data-testid=container-0] [data-testid=sign-in]")
    assert len(cards) == 1, f"one sign-in card, not {len(cards)}"
    sign_in_button(cards[0]).click()
    assert result(driver) == Auth.REPORT.format(scopes=f"{Auth.ADMIN_SCOPE} {Auth.SCOPE}")
