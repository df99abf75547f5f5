"""Tools for the client's form tests (all resolvers or hand-rolled rounds, so they work in
both eras):

- `all_fields()`: one form with every field kind and enum shape, formats, bounds and
  defaults. Returns `accepted {json}` where json is the answered content
  (`json.dumps(..., sort_keys=True)`, only the fields the client sent), or `declined`
  / `cancelled`.
- `plan_trip()`: several questions in one round (three independent resolvers; the
  modern era gets three `inputRequests` at once). Returns
  `accepted destination={json} travellers={json} extras={json}` or names who declined.
- `setup_account()`: a three-round chain (each resolver depends on the previous).
  Returns `account {username} on {plan} plan, newsletter={true|false}` or
  `declined at {step}` / `cancelled at {step}`.
- `endless_questions()`: never stops asking (modern: every round is `input_required`
  with a fresh question; legacy: asks again after every accept). Returns
  `stopped after {n} answers: {action}` when the user declines or cancels.
- `plan_route(stops)`: `stops` is a list of `{city, nights=1}` objects (a schema no flat
  form renders). Returns `route: {city} ({n} night|nights), ...` or `route: empty`.
- `route_by_list(regions)`: `regions` (a list of strings) carries `x-mcp-header: Regions`,
  which the 2026-07-28 spec does not allow on an array, so a modern client must drop the
  tool from its list (the SDK's client does). Returns `routed to {a, b}`.

The exact texts are in `demo_server.texts`.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from mcp.server.elicitation import render_elicitation_schema
from mcp.server.mcpserver import AcceptedElicitation, Context, Elicit, ElicitationResult, MCPServer, Resolve
from mcp_types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult
from pydantic import BaseModel, Field

from ..common import Strict, echo, is_modern, outcome_word, resolver
from ..texts import AllFields as T
from ..texts import Endless, PlanTrip, Route, SetupAccount

# --- all_fields: every field kind in one form -----------------------------------------


def options(labels: dict[str, str]) -> list[dict[str, str]]:
    """`oneOf`/`anyOf` entries (`const` + `title`) in the order of `labels`."""
    return [{"const": value, "title": title} for value, title in labels.items()]


class AllFields(Strict):
    name: str = Field(title=T.NAME, description=T.NAME_DESCRIPTION, min_length=2, max_length=40)
    nickname: str = Field(default="Sam", title=T.NICKNAME)
    email: str = Field(title=T.EMAIL, json_schema_extra={"format": "email"})
    homepage: str | None = Field(default=None, title=T.HOMEPAGE, json_schema_extra={"format": "uri"})
    birthday: str | None = Field(default=None, title=T.BIRTHDAY, json_schema_extra={"format": "date"})
    meeting: str | None = Field(default=None, title=T.MEETING, json_schema_extra={"format": "date-time"})
    code: str | None = Field(default=None, title=T.CODE, pattern=r"^[A-Z]{3}$")
    age: int = Field(title=T.AGE, ge=0, le=150)
    rating: float = Field(default=2.5, title=T.RATING, ge=0, le=5)
    subscribe: bool = Field(default=True, title=T.SUBSCRIBE)
    colour: Literal["red", "green", "blue"] = Field(default="green", title=T.COLOUR)
    size: str = Field(title=T.SIZE, json_schema_extra={"oneOf": options(T.SIZES)})
    pet: str | None = Field(
        default=None,
        title=T.PET,
        json_schema_extra={"enum": list(T.PETS), "enumNames": list(T.PETS.values())},
    )
    toppings: list[Literal["cheese", "ham", "olives"]] = Field(default_factory=list, title=T.TOPPINGS)
    languages: list[str] = Field(
        title=T.LANGUAGES,
        min_length=1,
        max_length=2,
        json_schema_extra={"items": {"anyOf": options(T.LANGUAGE_NAMES)}},
    )
    days: list[Literal["mon", "tue", "wed"]] = Field(default=["mon"], title=T.DAYS, min_length=1, max_length=3)


@resolver
def ask_all_fields() -> Elicit[AllFields]:
    return Elicit(T.QUESTION, AllFields)


async def all_fields(answer: Annotated[ElicitationResult[AllFields], Resolve(ask_all_fields)]) -> str:
    """Ask one form holding every field kind; echo what was answered."""
    if isinstance(answer, AcceptedElicitation):
        return T.ACCEPTED.format(json=echo(answer.data))
    return outcome_word(answer)


# --- plan_trip: several questions in one round ----------------------------------------


class Destination(Strict):
    city: str = Field(title=PlanTrip.CITY)


class Travellers(Strict):
    adults: int = Field(default=2, title=PlanTrip.ADULTS, ge=1, le=9)
    children: int = Field(default=0, title=PlanTrip.CHILDREN, ge=0, le=9)


class Extras(Strict):
    insurance: bool = Field(default=False, title=PlanTrip.INSURANCE)


@resolver
def ask_destination() -> Elicit[Destination]:
    return Elicit(PlanTrip.DESTINATION, Destination)


@resolver
def ask_travellers() -> Elicit[Travellers]:
    return Elicit(PlanTrip.TRAVELLERS, Travellers)


@resolver
def ask_extras() -> Elicit[Extras]:
    return Elicit(PlanTrip.EXTRAS, Extras)


async def plan_trip(
    destination: Annotated[ElicitationResult[Destination], Resolve(ask_destination)],
    travellers: Annotated[ElicitationResult[Travellers], Resolve(ask_travellers)],
    extras: Annotated[ElicitationResult[Extras], Resolve(ask_extras)],
) -> str:
    """Ask three independent questions at once (one modern round with three requests)."""
    answers = {"destination": destination, "travellers": travellers, "extras": extras}
    refused = [f"{name} {outcome_word(o)}" for name, o in answers.items() if not isinstance(o, AcceptedElicitation)]
    if refused:
        return PlanTrip.NOT_PLANNED.format(refused=", ".join(refused))
    echoed = {name: echo(o.data) for name, o in answers.items() if isinstance(o, AcceptedElicitation)}
    return PlanTrip.ACCEPTED.format(**echoed)


# --- setup_account: a three-round resolver chain --------------------------------------


class Username(Strict):
    username: str = Field(title=SetupAccount.USERNAME, min_length=3)


class Plan(Strict):
    plan: Literal["free", "pro"] = Field(default="free", title=SetupAccount.PLAN)


class Newsletter(Strict):
    newsletter: bool = Field(default=False, title=SetupAccount.NEWSLETTER)


@resolver
def ask_username() -> Elicit[Username]:
    return Elicit(SetupAccount.USERNAME_QUESTION, Username)


@resolver
def ask_plan(username: Annotated[ElicitationResult[Username], Resolve(ask_username)]) -> Elicit[Plan] | str:
    if not isinstance(username, AcceptedElicitation):
        return SetupAccount.REFUSED.format(outcome=outcome_word(username), step="username")
    return Elicit(SetupAccount.PLAN_QUESTION.format(username=username.data.username), Plan)


@resolver
def ask_newsletter(plan: Annotated[ElicitationResult[Plan], Resolve(ask_plan)]) -> Elicit[Newsletter] | str:
    if not isinstance(plan, AcceptedElicitation):
        return SetupAccount.REFUSED.format(outcome=outcome_word(plan), step="plan")
    if isinstance(plan.data, str):
        return plan.data
    return Elicit(SetupAccount.NEWSLETTER_QUESTION.format(plan=plan.data.plan), Newsletter)


async def setup_account(
    username: Annotated[ElicitationResult[Username], Resolve(ask_username)],
    plan: Annotated[ElicitationResult[Plan], Resolve(ask_plan)],
    newsletter: Annotated[ElicitationResult[Newsletter], Resolve(ask_newsletter)],
) -> str:
    """Three questions, each asked only after the previous one is answered (three rounds)."""
    if not isinstance(newsletter, AcceptedElicitation):
        return SetupAccount.REFUSED.format(outcome=outcome_word(newsletter), step="newsletter")
    if isinstance(newsletter.data, str):
        return newsletter.data
    if not (isinstance(username, AcceptedElicitation) and isinstance(plan, AcceptedElicitation)):
        return "incomplete"
    if not (isinstance(plan.data, Plan) and isinstance(newsletter.data, Newsletter)):
        return "incomplete"
    flag = "true" if newsletter.data.newsletter else "false"
    return SetupAccount.DONE.format(username=username.data.username, plan=plan.data.plan, newsletter=flag)


# --- endless_questions: never stops asking --------------------------------------------


class KeepGoing(Strict):
    answer: str = Field(default="yes", title=Endless.ANSWER)


def endless_request(round_no: int) -> ElicitRequest:
    return ElicitRequest(
        params=ElicitRequestFormParams(
            message=Endless.QUESTION.format(n=round_no),
            requested_schema=render_elicitation_schema(KeepGoing),
        )
    )


async def endless_questions(ctx: Context) -> str | InputRequiredResult:
    """Asks again after every accepted answer, forever (tests the client's round bound)."""
    if not is_modern(ctx):
        answers = 0
        while True:
            outcome = await ctx.elicit(Endless.QUESTION.format(n=answers + 1), KeepGoing)
            if not isinstance(outcome, AcceptedElicitation):
                return Endless.STOPPED.format(answers=answers, action=outcome.action)
            answers += 1
    # requestState `endless:N`: question N was asked last round (sealed by the SDK).
    match = re.fullmatch(r"endless:(\d+)", ctx.request_state or "")
    asked = int(match.group(1)) if match else 0
    answer = (ctx.input_responses or {}).get(f"q{asked}")
    if isinstance(answer, ElicitResult):
        if answer.action != "accept":
            return Endless.STOPPED.format(answers=asked - 1, action=answer.action)
        asked += 1
    elif asked == 0:
        asked = 1
    # Without an answer to question N (a bare retry), question N is asked again.
    return InputRequiredResult(
        input_requests={f"q{asked}": endless_request(asked)},
        request_state=f"endless:{asked}",
    )


# --- plan_route: arguments that are not a flat form ------------------------------------


class Stop(BaseModel):
    city: str
    nights: int = 1


async def plan_route(stops: list[Stop]) -> str:
    """Nested arguments (a list of objects): clients can't render them as a flat form."""
    if not stops:
        return Route.EMPTY
    legs = [f"{s.city} ({s.nights} night{'' if s.nights == 1 else 's'})" for s in stops]
    return Route.ROUTE.format(legs=", ".join(legs))


# --- route_by_list: an invalid x-mcp-header annotation -------------------------------


async def route_by_list(regions: Annotated[list[str], Field(description=Route.REGIONS)]) -> str:
    """`x-mcp-header` on an array: invalid, so a 2026-07-28 client drops this tool."""
    return Route.ROUTED.format(regions=", ".join(regions) or "nowhere")


def annotate_route_by_list(server: MCPServer) -> None:
    """Gives `route_by_list`'s array the `x-mcp-header` the SDK refuses at registration, as
    a server built otherwise might list it (the listing serves the registered schema)."""
    tool = server._tool_manager.get_tool("route_by_list")  # noqa: SLF001 - a deliberately broken listing
    if tool is not None:
        tool.parameters["properties"]["regions"]["x-mcp-header"] = Route.HEADER
