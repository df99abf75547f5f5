"""Tools whose legacy stream the server closes on purpose (for `--resumable`, see
`demo_server.events`):

- `resume_after_drop()`: legacy: `ctx.close_sse_stream()` (ends this POST's SSE stream
  right after its priming event on a resumable server; a no-op otherwise, or for a session
  older than 2025-11-25), then `ctx.elicit` asks `Still there after the reconnect?`
  (`StillThere`: one required boolean `ok`, title `Still there`). On a resumable server
  the question and the result therefore arrive only on a GET with `Last-Event-ID` (the
  POST stream's priming id). Modern: no stream to drop (a lost round is recovered by
  sending the request again), so the same question is an `InputRequiredResult` with the
  key `still_there` and the requestState `resume_after_drop` (replay rule as for
  `trip_brief`). Returns `resumed: ok` (accepted, ok=true), `resumed: not ok` (ok=false),
  `resumed: declined`, `resumed: cancelled`.
- `confirm_deposit_after_drop(booking_id)`: marks the deposit paid like `confirm_deposit`.
  Legacy: `ctx.close_standalone_sse_stream()` (ends the session's GET stream on a
  resumable server), then sends `notifications/elicitation/complete` for
  `deposit-{booking_id}` while no GET stream is open: only a GET with `Last-Event-ID` (the
  id of an event the GET stream carried before) gets it (replayed), a GET without one
  does not. Returns `Deposit deposit-{id} confirmed after a stream drop.` (without an
  event store nothing is closed and the completion goes out live on an open GET stream,
  same text). Modern: as `confirm_deposit`.

The exact texts are in `demo_server.texts`.
"""

from __future__ import annotations

from mcp.server.mcpserver import AcceptedElicitation, Context
from mcp_types import InputRequiredResult
from pydantic import Field

from ..common import Strict, ask_form, is_modern, outcome_word
from ..texts import Deposit, Resume
from .booking import confirmed_deposits


class StillThere(Strict):
    ok: bool = Field(title=Resume.OK)


async def resume_after_drop(ctx: Context) -> str | InputRequiredResult:
    """Close this call's SSE stream (resumable server, legacy era), then ask a question."""
    if is_modern(ctx):
        # No stream to drop: a lost round is recovered by sending the request again.
        outcome = await ask_form(ctx, Resume.MODERN_KEY, "resume_after_drop", Resume.QUESTION, StillThere)
        if isinstance(outcome, InputRequiredResult):
            return outcome
    else:
        # A no-op unless the server has an event store (--resumable) and the session 2025-11-25+.
        await ctx.close_sse_stream()
        outcome = await ctx.elicit(Resume.QUESTION, StillThere)
    if isinstance(outcome, AcceptedElicitation):
        return Resume.OK_RESULT if outcome.data.ok else Resume.NOT_OK
    return Resume.REFUSED.format(outcome=outcome_word(outcome))


async def confirm_deposit_after_drop(booking_id: str, ctx: Context) -> str:
    """Like confirm_deposit, but closes the session's GET stream first (resumable server)."""
    elicitation_id = Deposit.ELICITATION_ID.format(booking_id=booking_id)
    confirmed_deposits.add(elicitation_id)
    if is_modern(ctx):
        return Deposit.CONFIRMED_MODERN.format(elicitation_id=elicitation_id)
    # The completion is stored while the GET stream is down: only a GET with Last-Event-ID gets it.
    await ctx.close_standalone_sse_stream()
    await ctx.session.send_elicit_complete(elicitation_id)
    return Deposit.CONFIRMED_AFTER_DROP.format(elicitation_id=elicitation_id)
