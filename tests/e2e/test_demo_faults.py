"""Faults: the server goes away while an elicitation is pending, and comes back.

What must hold: the user's typed answers stay on screen, the failure is said in words,
and once the server is back (same port; the harness keeps the `requestState` key),
resending works without retyping anything.
"""

from __future__ import annotations

import json
from typing import Any

from demo_server.texts import BookTable, DeleteFolder, Deposit, PlanTrip
from harness import button, control_by_label, wait_css, wait_for, wait_text
from test_demo_flows import LEGACY, MODERN, call_from_form, card, open_app, result_text, set_checkbox, set_text


def test_modern_server_down_during_pending_elicitation(driver: Any, app_url: Any, make_demo_server: Any) -> None:
    server = make_demo_server()
    open_app(driver, app_url, server, MODERN, "plan_trip", {})
    where = card(driver, "form", PlanTrip.DESTINATION)
    who = card(driver, "form", PlanTrip.TRAVELLERS)
    extras = card(driver, "form", PlanTrip.EXTRAS)
    set_text(where, PlanTrip.CITY, "Lisbon")
    set_text(who, PlanTrip.ADULTS, "3")
    set_checkbox(extras, PlanTrip.INSURANCE, True)
    server.stop()
    button(where, "Submit").click()
    button(who, "Submit").click()
    button(extras, "Submit").click()
    wait_text(driver, "[data-elicitation] [role=alert]", "Cannot reach the server")
    # Nothing typed is lost.
    assert control_by_label(where, PlanTrip.CITY).get_attribute("value") == "Lisbon"
    assert control_by_label(who, PlanTrip.ADULTS).get_attribute("value") == "3"
    assert control_by_label(extras, PlanTrip.INSURANCE).is_selected()
    server.start()
    button(extras, "Submit").click()
    result_text(
        driver,
        PlanTrip.ACCEPTED.format(
            destination='{"city": "Lisbon"}', travellers='{"adults": 3, "children": 0}', extras='{"insurance": true}'
        ),
    )


def test_legacy_server_down_during_pending_elicitation(driver: Any, app_url: Any, make_demo_server: Any) -> None:
    """2025-11-25: the server's request dies with it, so resending re-runs the call on a new
    session and delivers the same answer to the same question: nothing is retyped."""
    server = make_demo_server()
    open_app(driver, app_url, server, LEGACY, "book_table", {"date": BookTable.FULL_DATE, "party_size": 2})
    form = card(driver, "form", BookTable.QUESTION.format(party_size=2, date=BookTable.FULL_DATE))
    set_checkbox(form, "Accept Alternative", True)
    set_text(form, "Date", "2025-12-28")
    server.stop()
    wait_for(
        driver,
        lambda d: d.find_element("css selector", "[data-testid=app-error][role=alert]").text.strip(),
        "an error about the lost call",
    )
    button(form, "Submit").click()
    wait_for(driver, lambda d: form.find_elements("css selector", "[role=alert]"), "an error on the card")
    assert control_by_label(form, "Date").get_attribute("value") == "2025-12-28"
    assert control_by_label(form, "Accept Alternative").is_selected()
    server.start()
    button(form, "Submit").click()
    result_text(driver, BookTable.BOOKED.format(party_size=2, date="2025-12-28"))


def test_legacy_url_card_opened_after_a_restart_waits_then_completes(
    driver: Any, app_url: Any, make_demo_server: Any
) -> None:
    """2025-11-25, URL mode: the server restarts while the pay_deposit card is pending, then
    the user presses Open. The session keeps the accept and the call is made again (the
    same question is answered with it), so the card is sent, waits for the site, and
    completes on `confirm_deposit`: it must not stay at `sending` with its buttons dead."""
    server = make_demo_server()
    open_app(driver, app_url, server, LEGACY, "pay_deposit", {"booking_id": "r1"})
    url_card = card(driver, "url", Deposit.MESSAGE)
    server.stop()
    wait_for(
        driver,
        lambda d: d.find_element("css selector", "[data-testid=app-error][role=alert]").text.strip(),
        "an error about the lost call",
    )
    server.start()
    before = set(driver.window_handles)
    button(url_card, "Open in new tab").click()
    wait_for(driver, lambda d: len(set(d.window_handles) - before) == 1, "a new tab")
    result_text(driver, Deposit.PAY)
    wait_css(driver, "[data-elicitation][data-mode=url][data-state=waiting]")
    wait_text(driver, "[data-elicitation][data-mode=url] .mce-status", "Answer sent.")
    call_from_form(driver, "confirm_deposit", {"Booking Id": "r1"})
    result_text(driver, Deposit.CONFIRMED.format(elicitation_id="deposit-r1"))
    done = wait_css(driver, "[data-elicitation][data-mode=url][data-state=complete]")
    assert "Sending" not in done.text, done.text


def _answers_posted(server: Any) -> list[Any]:
    """The JSON-RPC responses (answers to the server's requests) the client POSTed to the
    server's current run."""
    out = []
    for record in server.trace():
        if record.get("method") != "POST":
            continue
        try:
            body = json.loads(record.get("request_body") or "null")
        except ValueError:
            continue
        if isinstance(body, dict) and "method" not in body and ("result" in body or "error" in body):
            out.append(body)
    return out


def test_legacy_card_of_a_restarted_session_is_not_answered_on_the_new_one(
    driver: Any, app_url: Any, make_demo_server: Any
) -> None:
    """2025-11-25: a restarted SDK server numbers its requests from 0 again. Two cards wait
    (ids 0 and 1 of the first session); after the restart another call renews the session
    and is asked its own question (id 0 of the new session). Answering the first card must
    not POST its old id on the new session, where it would answer the new question
    (`deleted /tmp/c`): the answer is kept, the card's own call (`/tmp/a`, not the latest
    call) is made again, and the answer goes to that call's question only."""
    server = make_demo_server()
    open_app(driver, app_url, server, LEGACY, "delete_folder", {"path": "/tmp/a"})
    first = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/a"))
    call_from_form(driver, "book_table", {"Date": BookTable.FULL_DATE})
    card(driver, "form", BookTable.QUESTION.format(party_size=2, date=BookTable.FULL_DATE))
    server.restart()
    call_from_form(driver, "delete_folder", {"Path": "/tmp/c"})
    other = card(driver, "form", DeleteFolder.QUESTION.format(path="/tmp/c"))
    set_checkbox(first, "Ok", True)
    button(first, "Submit").click()
    result_text(driver, DeleteFolder.DELETED.format(path="/tmp/a"))
    posted = _answers_posted(server)
    # One answer reached the new session: the re-run's own question, with what was typed.
    assert [a.get("result", {}).get("content") for a in posted] == [{"ok": True}], posted
    assert DeleteFolder.DELETED.format(path="/tmp/c") not in driver.find_element("css selector", "body").text
    # The card of the other call still waits, untouched.
    assert other.is_displayed() and not other.find_elements("css selector", "[role=alert]")
