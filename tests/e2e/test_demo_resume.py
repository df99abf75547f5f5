"""Streams a resumable server closes on purpose (SEP-1699 polling), legacy era, in the demo.

The demo server with `--resumable` keeps every event in an event store and tells clients
`retry: 200`. When it closes a request's SSE stream before the answer, the client must
come back with GET + `Last-Event-ID` to see the rest (here: an elicitation, then the
tool's result); when it closes the session's GET stream, the client must reconnect with
`Last-Event-ID` to get what was sent meanwhile (here: the URL card's completion). The SDK
does not prime a fresh GET stream, so that stream is resumable once it carried an event
(here: another deposit's completion). A client without resumption shows neither result:
these tests fail on it (checked by disabling it).
"""

from __future__ import annotations

from typing import Any

from demo_server.texts import Deposit, Resume
from harness import button, wait_css, wait_for
from test_demo_flows import LEGACY, call_from_form, card, open_app, result_text, set_checkbox


def test_request_stream_closed_by_the_server_is_resumed(driver: Any, app_url: Any, make_demo_server: Any) -> None:
    server = make_demo_server(["--resumable"])
    open_app(driver, app_url, server, LEGACY, "resume_after_drop", {})
    form = card(driver, "form", Resume.QUESTION)
    set_checkbox(form, Resume.OK, True)
    button(form, "Submit").click()
    result_text(driver, Resume.OK_RESULT)


def test_get_stream_closed_by_the_server_replays_the_completion(
    driver: Any, app_url: Any, make_demo_server: Any
) -> None:
    server = make_demo_server(["--resumable"])
    open_app(driver, app_url, server, LEGACY, "pay_deposit", {"booking_id": "r1"})
    url_card = open_url_card(driver, Deposit.URL.format(booking_id="r1"))
    result_text(driver, Deposit.PAY)
    # A live event on the GET stream gives the client an id to resume from: the completion
    # of another deposit, whose own card turns complete (seen first) while r1's waits on.
    call_from_form(driver, "pay_deposit", {"Booking Id": "warmup"})
    warmup = open_url_card(driver, Deposit.URL.format(booking_id="warmup"))
    call_from_form(driver, "confirm_deposit", {"Booking Id": "warmup"})
    result_text(driver, Deposit.CONFIRMED.format(elicitation_id="deposit-warmup"))
    wait_for(driver, lambda _: warmup.get_attribute("data-state") == "complete", "the warmup card to complete")
    assert url_card.get_attribute("data-state") == "waiting", "another deposit's completion is not this card's"
    call_from_form(driver, "confirm_deposit_after_drop", {"Booking Id": "r1"})
    result_text(driver, Deposit.CONFIRMED_AFTER_DROP.format(elicitation_id="deposit-r1"))
    wait_css(driver, "[data-elicitation][data-mode=url][data-state=complete]")


def open_url_card(driver: Any, text: str) -> Any:
    """Presses Open in new tab on the URL card containing `text`; returns the card once it
    waits for its completion."""
    url_card = card(driver, "url", text)
    before = set(driver.window_handles)
    button(url_card, "Open in new tab").click()
    wait_for(driver, lambda d: len(set(d.window_handles) - before) == 1, "a new tab")
    wait_for(driver, lambda _: url_card.get_attribute("data-state") == "waiting", f"the card {text!r} to wait")
    return url_card
