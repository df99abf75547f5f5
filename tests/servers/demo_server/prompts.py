"""The prompt and the resource template: one form question each, from handlers that
cannot use resolvers (`common.ask_form`).

Prompt (`prompts/get`), its user message text:
- `trip_brief(city)`: asks the form question `How many days in {city}?` (`TripDays`: one
  integer `days`, title `Days`, 1..30, default 3). Legacy: `ctx.elicit` on the POST's
  SSE stream; modern: a hand-rolled `InputRequiredResult` with the key `days` and the
  requestState `trip_brief:{city}` (an answer replayed without that requestState is
  ignored and the question asked again). One user message: `Plan a {days}-day trip to
  {city}.`, `No trip brief for {city}: declined`, `No trip brief for {city}: cancelled`.
  An accepted answer that does not fit `TripDays` (e.g. `"5"`, 0, 31) is the JSON-RPC
  error -32602 `Received an accepted elicitation whose content does not match the
  requested schema` (legacy: on the SSE stream, HTTP 200; modern: HTTP 400).

Resource template (`resources/read`), its text content (mime type `text/plain`):
- `notes://{name}` (template name `note`): asks the form question `Reveal note {name}?`
  (`RevealNote`: one required boolean `ok`, title `Reveal`). Legacy: `ctx.elicit`;
  modern: a hand-rolled `InputRequiredResult` with the key `reveal` and the requestState
  `note:{name}` (same replay rule as `trip_brief`). Returns `Note {name}: water the
  plants.` (accepted with ok=true), `Note {name} stays hidden.` (ok=false or declined),
  `Note {name}: cancelled.` An answer that does not fit: -32602 as for `trip_brief`.

The exact texts are in `demo_server.texts`.
"""

from __future__ import annotations

from mcp.server.mcpserver import AcceptedElicitation, Context, DeclinedElicitation, UserMessage
from mcp_types import InputRequiredResult
from pydantic import Field

from .common import Strict, ask_form, outcome_word
from .texts import NoteResource, TripBrief


class TripDays(Strict):
    days: int = Field(default=3, title=TripBrief.DAYS, ge=1, le=30)


async def trip_brief(city: str, ctx: Context) -> list[UserMessage] | InputRequiredResult:
    """A trip-planning prompt; asks how many days first."""
    outcome = await ask_form(ctx, TripBrief.KEY, f"trip_brief:{city}", TripBrief.QUESTION.format(city=city), TripDays)
    if isinstance(outcome, InputRequiredResult):
        return outcome
    if isinstance(outcome, AcceptedElicitation):
        return [UserMessage(TripBrief.PLAN.format(days=outcome.data.days, city=city))]
    return [UserMessage(TripBrief.REFUSED.format(city=city, outcome=outcome_word(outcome)))]


class RevealNote(Strict):
    ok: bool = Field(title=NoteResource.OK)


async def note(name: str, ctx: Context) -> str | InputRequiredResult:
    """A note that is shown only after the user agrees."""
    outcome = await ask_form(ctx, NoteResource.KEY, f"note:{name}", NoteResource.QUESTION.format(name=name), RevealNote)
    if isinstance(outcome, InputRequiredResult):
        return outcome
    if isinstance(outcome, AcceptedElicitation):
        return (NoteResource.SHOWN if outcome.data.ok else NoteResource.HIDDEN).format(name=name)
    if isinstance(outcome, DeclinedElicitation):
        return NoteResource.HIDDEN.format(name=name)
    return NoteResource.CANCELLED.format(name=name)
