"""The demo app (`www/index.html`) against the real SDK demo server, in each era.

Driven from outside the page through the DOM contract only: labels, roles, `data-*`
attributes. Every flow checks the exact text the server's tool returns.

Era notes (what each era can run):
- `book_table` and `pay_deposit` use `ctx.elicit` / `ctx.elicit_url`, server-to-client
  requests: the 2025-11-25 era only. In 2026-07-28 there is no back-channel; the test
  checks the error is shown in words. URL mode in 2026-07-28 is tested with the modern
  `pay_deposit` branch (an `inputRequests` URL entry, no completion notification).
- `delete_folder`, `plan_trip`, `setup_account`, `endless_questions` use resolvers or
  `InputRequiredResult`; they run in both eras (the legacy SDK resolves them with
  `elicitation/create` requests one at a time).
- The round bound is the modern client's (default 10); a legacy server asks on one
  open request, so the legacy test answers a few times and cancels.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from demo_server.texts import (
    CANCELLED,
    DECLINED,
    SERVER_NAME,
    BookInRegion,
    BookTable,
    DeleteFolder,
    Deposit,
    Endless,
    NoteResource,
    PlanTrip,
    Route,
    SetupAccount,
    SlowReport,
    TripBrief,
    Vault,
)
from harness import button, control_by_label, wait_css, wait_for, wait_text

LEGACY = "2025-11-25"
MODERN = "2026-07-28"


# --- page helpers ------------------------------------------------------------------------


def open_app(driver: Any, app_url: Any, server: Any, protocol: str, tool: str | None = None, args: Any = None) -> None:
    """Open the demo on `server` in `protocol` and wait for the connection. With `tool`, the
    link names that tool and `args` (the form starts filled in with them), and the person
    presses its Call tool: a link alone never runs a tool."""
    driver.get(app_url(server=server.url, protocol=protocol, tool=tool, args=args))
    wait_text(driver, "[data-testid=connection-status]", f"connected · {protocol}")
    if tool is not None:
        press_call_tool(driver, tool)


def press_call_tool(driver: Any, tool: str) -> None:
    """Presses Call tool in the card of `tool` once the page shows it (again on a fresh
    lookup if the card re-rendered between lookup and click)."""
    from selenium.common.exceptions import StaleElementReferenceException

    def pressed(d: Any) -> bool:
        try:
            button(wait_css(d, f"[data-tool={tool}]"), "Call tool").click()
            return True
        except StaleElementReferenceException:
            return False

    wait_for(driver, pressed, f"a Call tool button for {tool!r}")


def card(driver: Any, mode: str | None = None, text: str | None = None) -> Any:
    """The first pending elicitation (of `mode`, whose text contains `text`)."""
    from selenium.webdriver.common.by import By

    selector = "[data-elicitation]" if mode is None else f"[data-elicitation][data-mode={mode}]"

    def found(d: Any) -> Any:
        for element in d.find_elements(By.CSS_SELECTOR, selector):
            if text is None or text in element.text:
                return element
        return None

    return wait_for(driver, found, f"an elicitation {selector} containing {text!r}")


def press(driver: Any, text: str, name: str, mode: str = "form") -> None:
    """Presses button `name` in the card containing `text`, finding the card afresh if the
    page re-rendered it between lookup and click."""
    from selenium.common.exceptions import StaleElementReferenceException

    def pressed(d: Any) -> bool:
        try:
            button(card(d, mode, text), name).click()
            return True
        except StaleElementReferenceException:
            return False

    wait_for(driver, pressed, f"a {name!r} button in the card {text!r}")


def in_card(driver: Any, text: str, act: Any, mode: str = "form") -> None:
    """Runs `act(card)` on the card containing `text`, again on a fresh lookup if the page
    re-rendered the card in between (a stale element)."""
    from selenium.common.exceptions import StaleElementReferenceException

    def done(d: Any) -> bool:
        try:
            act(card(d, mode, text))
            return True
        except StaleElementReferenceException:
            return False

    wait_for(driver, done, f"the card {text!r} to take the input")


def result_text(driver: Any, expected: str) -> Any:
    """Waits until the tool result shows `expected`; returns the result element."""
    element = wait_text(driver, "[data-testid=tool-result]", expected)
    assert element.text.strip() == expected, f"result was {element.text!r}, expected {expected!r}"
    return element


def app_error(driver: Any, text: str) -> Any:
    """The app's `role=alert` once it contains `text`."""
    return wait_text(driver, "[data-testid=app-error][role=alert]", text)


def call_from_form(driver: Any, tool: str, fields: dict[str, str]) -> None:
    """Fills the tool's generated form (`fields`: label -> text) and presses Call tool."""
    form = wait_css(driver, f"[data-tool={tool}]")
    for label, text in fields.items():
        set_text(form, label, text)
    button(form, "Call tool").click()


def set_checkbox(scope: Any, label: str, checked: bool) -> None:
    box = control_by_label(scope, label)
    if box.is_selected() != checked:
        box.click()
    assert box.is_selected() == checked


def set_text(scope: Any, label: str, text: str) -> None:
    field = control_by_label(scope, label)
    field.clear()
    field.send_keys(text)


# --- book_table: ctx.elicit (legacy only) -----------------------------------------------


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("Submit", BookTable.BOOKED.format(party_size=2, date="2025-12-27")),
        ("Decline", BookTable.REFUSED.format(outcome=DECLINED)),
        ("Cancel", BookTable.REFUSED.format(outcome=CANCELLED)),
    ],
)
def test_legacy_book_table(driver: Any, app_url: Any, demo_server: Any, action: str, expected: str) -> None:
    open_app(driver, app_url, demo_server, LEGACY, "book_table", {"date": BookTable.FULL_DATE, "party_size": 2})
    form = card(driver, "form", BookTable.QUESTION.format(party_size=2, date=BookTable.FULL_DATE))
    assert control_by_label(form, "Date").get_attribute("value") == BookTable.DEFAULT_DATE, "the default is pre-filled"
    if action == "Submit":
        set_checkbox(form, "Accept Alternative", True)
        set_text(form, "Date", "2025-12-27")
    button(form, action).click()
    result_text(driver, expected)


def test_modern_book_table_has_no_back_channel(driver: Any, app_url: Any, demo_server: Any) -> None:
    """2026-07-28 has no server-to-client requests: the SDK refuses `ctx.elicit`; we say so."""
    open_app(driver, app_url, demo_server, MODERN, "book_table", {"date": BookTable.FULL_DATE, "party_size": 2})
    alert = app_error(driver, "back-channel")
    assert "book_table" in alert.text


# --- delete_folder: a Resolver, both eras ----------------------------------------------


@pytest.mark.parametrize("protocol", [LEGACY, MODERN])
@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("Submit", DeleteFolder.DELETED.format(path="/tmp/project")),
        ("Decline", DeleteFolder.REFUSED.format(outcome=DECLINED)),
        ("Cancel", DeleteFolder.REFUSED.format(outcome=CANCELLED)),
    ],
)
def test_delete_folder(driver: Any, app_url: Any, demo_server: Any, protocol: str, action: str, expected: str) -> None:
    open_app(driver, app_url, demo_server, protocol, "delete_folder", {"path": "/tmp/project"})
    form = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/project"))
    # The spec's MUST: the card says which server asks (its serverInfo name and host).
    asker = form.find_element("css selector", "[data-testid=requesting-server]").text
    assert SERVER_NAME in asker and f"127.0.0.1:{demo_server.port}" in asker, asker
    if action == "Submit":
        set_checkbox(form, "Ok", True)
    button(form, action).click()
    result_text(driver, expected)


def test_delete_folder_keep(driver: Any, app_url: Any, demo_server: Any) -> None:
    """Accept with the box unchecked sends `{"ok": false}`."""
    open_app(driver, app_url, demo_server, MODERN, "delete_folder", {"path": "/tmp/project"})
    form = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/project"))
    set_checkbox(form, "Ok", False)
    button(form, "Submit").click()
    result_text(driver, DeleteFolder.KEPT.format(path="/tmp/project"))


# --- URL mode ----------------------------------------------------------------------------


def test_legacy_url_flow_opens_tab_and_completes(driver: Any, app_url: Any, demo_server: Any) -> None:
    open_app(driver, app_url, demo_server, LEGACY, "pay_deposit", {"booking_id": "b1"})
    url_card = card(driver, "url", Deposit.MESSAGE)
    assert Deposit.URL.format(booking_id="b1") in url_card.text
    assert "pay.example.com" in url_card.text
    before = set(driver.window_handles)
    button(url_card, "Open in new tab").click()
    wait_for(driver, lambda d: len(set(d.window_handles) - before) == 1, "a new tab")
    result_text(driver, Deposit.PAY)
    assert url_card.get_attribute("data-state") == "waiting"
    call_from_form(driver, "confirm_deposit", {"Booking Id": "b1"})
    result_text(driver, Deposit.CONFIRMED.format(elicitation_id="deposit-b1"))
    wait_css(driver, "[data-elicitation][data-mode=url][data-state=complete]")


@pytest.mark.parametrize(
    ("action", "expected"),
    [("Decline", Deposit.REFUSED.format(outcome=DECLINED)), ("Cancel", Deposit.REFUSED.format(outcome=CANCELLED))],
)
@pytest.mark.parametrize("protocol", [LEGACY, MODERN])
def test_url_flow_refused(driver: Any, app_url: Any, demo_server: Any, protocol: str, action: str, expected: str) -> None:
    open_app(driver, app_url, demo_server, protocol, "pay_deposit", {"booking_id": "b2"})
    url_card = card(driver, "url", Deposit.MESSAGE)
    button(url_card, action).click()
    result_text(driver, expected)


def test_modern_url_flow_accept(driver: Any, app_url: Any, demo_server: Any) -> None:
    """2026-07-28: the URL request comes in `inputRequests`; Open answers accept in the replay."""
    open_app(driver, app_url, demo_server, MODERN, "pay_deposit", {"booking_id": "b3"})
    url_card = card(driver, "url", Deposit.MESSAGE)
    before = set(driver.window_handles)
    button(url_card, "Open in new tab").click()
    wait_for(driver, lambda d: len(set(d.window_handles) - before) == 1, "a new tab")
    result_text(driver, Deposit.PAY)


def test_legacy_url_elicitation_required_then_retry(driver: Any, app_url: Any, demo_server: Any) -> None:
    """-32042: the URL elicitations in the error are shown; after the URL step, retry works."""
    open_app(driver, app_url, demo_server, LEGACY, "open_vault", {"vault": "v1"})
    app_error(driver, "open_vault")
    url_card = card(driver, "url", Vault.MESSAGE.format(vault="v1"))
    assert Vault.URL.format(vault="v1") in url_card.text
    # Retrying before the URL step meets the same -32042: its card replaces the first
    # (the old element goes), rather than piling up beside it.
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions

    button(driver, "Retry call").click()
    wait_for(driver, expected_conditions.staleness_of(url_card), "the retry's card to replace the first")
    app_error(driver, "open_vault")
    assert len(driver.find_elements(By.CSS_SELECTOR, "[data-elicitation][data-mode=url]")) == 1
    url_card = card(driver, "url", Vault.MESSAGE.format(vault="v1"))
    before = set(driver.window_handles)
    button(url_card, "Open in new tab").click()
    wait_for(driver, lambda d: len(set(d.window_handles) - before) == 1, "a new tab")
    wait_css(driver, "[data-elicitation][data-mode=url][data-state=waiting]")
    call_from_form(driver, "unlock_vault", {"Vault": "v1"})
    result_text(driver, Vault.UNLOCKED.format(vault="v1"))
    wait_css(driver, "[data-elicitation][data-mode=url][data-state=complete]")
    call_from_form(driver, "open_vault", {"Vault": "v1"})
    result_text(driver, Vault.OPENED.format(vault="v1"))


# --- several questions, chains, the round bound -------------------------------------------


def test_modern_round_with_several_questions(driver: Any, app_url: Any, demo_server: Any) -> None:
    """One modern round carries three questions: all are shown at once, answered, then replayed."""
    open_app(driver, app_url, demo_server, MODERN, "plan_trip", {})
    where = card(driver, "form", PlanTrip.DESTINATION)
    who = card(driver, "form", PlanTrip.TRAVELLERS)
    extras = card(driver, "form", PlanTrip.EXTRAS)
    set_text(where, PlanTrip.CITY, "Paris")
    set_checkbox(extras, PlanTrip.INSURANCE, True)
    button(where, "Submit").click()
    button(who, "Submit").click()
    button(extras, "Submit").click()
    result_text(
        driver,
        PlanTrip.ACCEPTED.format(
            destination='{"city": "Paris"}', travellers='{"adults": 2, "children": 0}', extras='{"insurance": true}'
        ),
    )


@pytest.mark.parametrize("protocol", [LEGACY, MODERN])
def test_three_round_chain(driver: Any, app_url: Any, demo_server: Any, protocol: str) -> None:
    open_app(driver, app_url, demo_server, protocol, "setup_account", {})
    in_card(driver, SetupAccount.USERNAME_QUESTION, lambda c: set_text(c, SetupAccount.USERNAME, "alice"))
    press(driver, SetupAccount.USERNAME_QUESTION, "Submit")
    press(driver, SetupAccount.PLAN_QUESTION.format(username="alice"), "Submit")
    newsletter = SetupAccount.NEWSLETTER_QUESTION.format(plan="free")
    in_card(driver, newsletter, lambda c: set_checkbox(c, SetupAccount.NEWSLETTER, True))
    press(driver, newsletter, "Submit")
    result_text(driver, SetupAccount.DONE.format(username="alice", plan="free", newsletter="true"))


def test_modern_endless_questions_hit_the_round_bound(driver: Any, app_url: Any, demo_server: Any) -> None:
    open_app(driver, app_url, demo_server, MODERN, "endless_questions", {})
    for n in range(1, 11):
        press(driver, Endless.QUESTION.format(n=n), "Submit")
    alert = app_error(driver, "stopped after 10 rounds")
    assert "endless_questions" in alert.text


def test_legacy_endless_questions_until_cancel(driver: Any, app_url: Any, demo_server: Any) -> None:
    open_app(driver, app_url, demo_server, LEGACY, "endless_questions", {})
    for n in (1, 2):
        press(driver, Endless.QUESTION.format(n=n), "Submit")
    press(driver, Endless.QUESTION.format(n=3), "Cancel")
    result_text(driver, Endless.STOPPED.format(answers=2, action="cancel"))


# --- connecting ---------------------------------------------------------------------------


def test_auto_picks_modern_and_says_so(driver: Any, app_url: Any, demo_server: Any) -> None:
    driver.get(app_url(server=demo_server.url))
    wait_text(driver, "[data-testid=connection-status]", f"connected · {MODERN}")
    wait_css(driver, "[data-tool=delete_folder]")


def test_connect_by_typing_the_url(driver: Any, app_url: Any, demo_server: Any) -> None:
    driver.get(app_url())
    wait_text(driver, "label", "Server URL")  # the wasm app has mounted
    set_text(driver, "Server URL", demo_server.url)
    button(driver, "Connect").click()
    wait_text(driver, "[data-testid=connection-status]", "connected · ")
    call_from_form(driver, "book_table", {"Date": "2025-12-30", "Party Size": "4"})
    result = result_text(driver, BookTable.BOOKED.format(party_size=4, date="2025-12-30"))
    assert result.get_attribute("data-is-error") == "false"


def test_modern_mcp_param_header_mirrors_the_argument(driver: Any, app_url: Any, demo_server: Any) -> None:
    """`region` carries `x-mcp-header`: the modern call must send `Mcp-Param-Region` (else -32020)."""
    open_app(driver, app_url, demo_server, MODERN, "book_in_region", {"region": "eu-west"})
    press(driver, BookInRegion.QUESTION.format(region="eu-west"), "Submit")
    result_text(driver, BookInRegion.BOOKED.format(region="eu-west"))


# --- tools whose input schema is not a flat form: the JSON editor -------------------------


@pytest.mark.parametrize("protocol", [LEGACY, MODERN])
def test_nested_arguments_go_through_the_json_editor(driver: Any, app_url: Any, demo_server: Any, protocol: str) -> None:
    open_app(driver, app_url, demo_server, protocol)
    tool = wait_css(driver, "[data-tool=plan_route]")
    editor = control_by_label(tool, "Arguments for plan_route (JSON)")
    assert editor.tag_name == "textarea"
    editor.clear()
    editor.send_keys('{"stops": [{"city": "Oslo", "nights": 2}, {"city": "Bergen"')
    button(tool, "Call tool").click()
    app_error(driver, "The arguments are not valid JSON")
    assert editor.get_attribute("value").endswith('"Bergen"'), "the typed text is kept"
    editor.send_keys("}]}")
    button(tool, "Call tool").click()
    result_text(driver, Route.ROUTE.format(legs="Oslo (2 nights), Bergen (1 night)"))


def test_modern_state_only_result_is_retried_after_a_back_off(driver: Any, app_url: Any, demo_server: Any) -> None:
    """An `input_required` result with only `requestState` is retried until done, each retry
    after a back-off: the server refuses a retry that comes sooner than
    `SLOW_REPORT_MIN_GAP_MS` after its answer (a lower bound on the spacing, not a timing)."""
    from selenium.webdriver.common.by import By

    open_app(driver, app_url, demo_server, MODERN, "slow_report", {})

    def ended(d: Any) -> str | None:
        alert = d.find_element(By.CSS_SELECTOR, "[data-testid=app-error]").text.strip()
        shown = d.find_element(By.CSS_SELECTOR, "[data-testid=tool-result]").text.strip()
        return f"error: {alert}" if alert else shown or None

    outcome = wait_for(driver, ended, "the slow_report call to end")
    assert outcome == SlowReport.READY.format(tries=2), outcome


# --- prompts and resources from the demo --------------------------------------------------


@pytest.mark.parametrize("protocol", [LEGACY, MODERN])
def test_prompt_asks_then_shows_its_messages(driver: Any, app_url: Any, demo_server: Any, protocol: str) -> None:
    open_app(driver, app_url, demo_server, protocol)
    prompt = wait_css(driver, "[data-prompt=trip_brief]")
    set_text(prompt, "city", "Oslo")
    button(prompt, "Get prompt").click()
    form = card(driver, "form", TripBrief.QUESTION.format(city="Oslo"))
    set_text(form, TripBrief.DAYS, "4")
    button(form, "Submit").click()
    result = result_text(driver, "user: " + TripBrief.PLAN.format(days=4, city="Oslo"))
    assert result.get_attribute("data-kind") == "prompt"


@pytest.mark.parametrize("protocol", [LEGACY, MODERN])
def test_resource_template_asks_then_shows_the_contents(
    driver: Any, app_url: Any, demo_server: Any, protocol: str
) -> None:
    open_app(driver, app_url, demo_server, protocol)
    template = wait_css(driver, "[data-resource-template='notes://{name}']")
    set_text(template, "name", "groceries")
    button(template, "Read resource").click()
    form = card(driver, "form", NoteResource.QUESTION.format(name="groceries"))
    button(form, "Decline").click()
    result = result_text(driver, NoteResource.HIDDEN.format(name="groceries"))
    assert result.get_attribute("data-kind") == "resource"


DISCOVER_HELD_AT_LEAST_S = 8.0
"""How long the server must have seen the stalled probe held open: well before Auto's 10 s
limit (`DISCOVER_TIMEOUT_MS`), so a client that gives up early fails, with room for the
time the request takes to reach the server after the client's clock started."""


def test_auto_falls_back_to_legacy_when_discover_never_answers(driver: Any, app_url: Any, make_demo_server: Any) -> None:
    """A server that holds `server/discover` open: Auto gives the probe 10 s (the SDK's
    timeout), not less, then connects with the 2025-11-25 handshake instead of hanging."""
    server = make_demo_server(["--stall-discover"])
    driver.get(app_url(server=server.url, protocol="auto", tool="delete_folder", args={"path": "/tmp/project"}))
    wait_text(driver, "[data-testid=connection-status]", "connecting")
    wait_text(driver, "[data-testid=connection-status]", f"connected · {LEGACY}", timeout=30)
    # The server's own clock: from the probe's arrival to the client giving it up (the
    # disconnect ends the stalled request), then the handshake only after that.
    def traced(method: str) -> list[dict[str, Any]]:
        records = [(json.loads(r["request_body"] or "null"), r) for r in server.trace() if r["method"] == "POST"]
        return [r for body, r in records if isinstance(body, dict) and body.get("method") == method]

    # A request is traced when it ends, which may be just after the page saw the end.
    wait_for(driver, lambda _: traced("initialize"), "the handshake in the server's trace")
    probes = traced("server/discover")
    assert len(probes) == 1, probes
    held = probes[0]["ended"] - probes[0]["started"]
    assert held >= DISCOVER_HELD_AT_LEAST_S, f"the probe was given up after {held:.1f} s"
    # The handshake waited for the probe's limit. (The server may notice the probe's abort
    # a moment after the handshake arrives, so its "ended" is no bound to compare with.)
    waited = traced("initialize")[0]["started"] - probes[0]["started"]
    assert waited >= DISCOVER_HELD_AT_LEAST_S, f"the handshake started {waited:.1f} s after the probe"
    press_call_tool(driver, "delete_folder")
    press(driver, DeleteFolder.QUESTION.format(path="/tmp/project"), "Decline")
    result_text(driver, DeleteFolder.REFUSED.format(outcome=DECLINED))
