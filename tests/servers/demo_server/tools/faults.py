"""Tools that make a client retry (the wire faults themselves are in `demo_server.middleware`):

- `slow_report()`: modern: the first two answers carry only a `requestState` (no
  `inputRequests`), so a client retries with back-off; the third returns `report ready
  after 2 retries`. A retry that arrives less than `SLOW_REPORT_MIN_GAP_MS` after the
  answer before it (or whose call the server does not remember) is refused with the
  JSON-RPC error -32600 `slow_report: try {n} came {ms} ms after the answer before it
  ...`: a client that does not back off never gets the report. Legacy: `report ready`.
- `flaky_note()`: a Resolver with `Elicit` asking `Write a note to keep.` (`FlakyNote`:
  one required string `note`, title `Note`). The first delivery of each answer is
  answered HTTP 503 `text/plain` before it reaches the SDK (`FlakyReplayMiddleware`), so
  a client must keep the answer and send it again. Modern: the first replay of each round
  (each `requestState`); legacy: the first answer POST to each of its questions. Returns
  `noted: {note}`, `declined: no note`, `cancelled: no note`.
- `cut_note()`: as `flaky_note`, asking `Write a note to send twice.`. Modern: the first
  replay of each round reaches the SDK, but its response is cut mid-body (half of it is
  sent, then the connection drops); sending the same replay again works. Legacy: no
  failure. Returns `noted after a cut: {note}`, `declined: no note`, `cancelled: no note`.

The exact texts are in `demo_server.texts`.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from typing import Annotated

from mcp.server.mcpserver import AcceptedElicitation, Context, Elicit, ElicitationResult, Resolve
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_REQUEST, InputRequiredResult
from pydantic import Field

from ..common import Strict, is_modern, outcome_word, resolver
from ..texts import Notes, SlowReport

# --- slow_report: a state-only input_required result (retry with back-off) -------------

SLOW_REPORT_MIN_GAP_MS = 40
"""The least time a `slow_report` retry must leave after the answer before it. Below the
client's first back-off (50 ms, `BACKOFF_INITIAL_MS` in core/src/driver/modern.rs), so a
client that waits as it should is never refused, whatever the machine's load: the gap is
measured from the moment this server answered to the moment the retry reached the tool, and
the client's wait lies between the two. A client that retries at once comes back within a
few milliseconds. A retry that comes sooner is refused (-32600). `--slow-report-min-gap-ms`
sets another value (a test that must see a refusal sets one no retry can meet)."""

slow_report_min_gap_ms = SLOW_REPORT_MIN_GAP_MS
"""The minimum gap this server enforces: `SLOW_REPORT_MIN_GAP_MS` unless the CLI set another."""

SLOW_REPORT_CALLS_KEPT = 100
"""How many `slow_report` calls the server remembers (when it last answered each). Beyond
it the least recent is forgotten, and its next retry is refused as unknown: far more calls
than any test has in flight at once."""

_slow_report_answered: OrderedDict[str, float] = OrderedDict()
"""Per `slow_report` call (the nonce in its `requestState`): when its latest answer left."""


def slow_report_state(tries: int, call: str) -> InputRequiredResult:
    """A state-only answer; records when it left, to check the retry's spacing."""
    _slow_report_answered[call] = time.monotonic()
    _slow_report_answered.move_to_end(call)
    while len(_slow_report_answered) > SLOW_REPORT_CALLS_KEPT:
        _slow_report_answered.popitem(last=False)
    return InputRequiredResult(request_state=f"tries:{tries}:{call}")


async def slow_report(ctx: Context) -> str | InputRequiredResult:
    """Not ready on the first try: the modern era answers with only a `requestState` (no
    questions), which a client retries after a short back-off (refused when it did not)."""
    if not is_modern(ctx):
        return SlowReport.READY_LEGACY
    arrived = time.monotonic()
    state = ctx.request_state or ""
    if not state.startswith("tries:"):
        return slow_report_state(1, secrets.token_hex(8))
    count, _, call = state.removeprefix("tries:").partition(":")
    tries = int(count)
    answered = _slow_report_answered.get(call)
    if answered is None:
        raise MCPError(code=INVALID_REQUEST, message=SlowReport.UNKNOWN.format(n=tries + 1))
    gap_ms = (arrived - answered) * 1000
    if gap_ms < slow_report_min_gap_ms:
        raise MCPError(
            code=INVALID_REQUEST,
            message=SlowReport.TOO_SOON.format(n=tries + 1, ms=gap_ms, min_ms=slow_report_min_gap_ms),
        )
    if tries < 2:
        return slow_report_state(tries + 1, call)
    del _slow_report_answered[call]
    return SlowReport.READY.format(tries=tries)


# --- flaky_note / cut_note: answers whose first delivery fails ----------------------


class FlakyNote(Strict):
    note: str = Field(title=Notes.NOTE)


@resolver
def ask_note() -> Elicit[FlakyNote]:
    return Elicit(Notes.FLAKY_QUESTION, FlakyNote)


async def flaky_note(answer: Annotated[ElicitationResult[FlakyNote], Resolve(ask_note)]) -> str:
    """Keeps a note; the first delivery of each answer fails with HTTP 503."""
    if isinstance(answer, AcceptedElicitation):
        return Notes.NOTED.format(note=answer.data.note)
    return Notes.REFUSED.format(outcome=outcome_word(answer))


@resolver
def ask_cut_note() -> Elicit[FlakyNote]:
    return Elicit(Notes.CUT_QUESTION, FlakyNote)


async def cut_note(answer: Annotated[ElicitationResult[FlakyNote], Resolve(ask_cut_note)]) -> str:
    """Keeps a note; in the modern era the response to a round's first replay is cut."""
    if isinstance(answer, AcceptedElicitation):
        return Notes.NOTED_AFTER_CUT.format(note=answer.data.note)
    return Notes.REFUSED.format(outcome=outcome_word(answer))
