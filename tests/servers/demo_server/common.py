"""What every handler shares: the era check, strict answer models, the answer echo, the
refusal word, and `ask_form` for the handlers that cannot use resolvers."""

from __future__ import annotations

import json
from typing import Any

from mcp.server.elicitation import render_elicitation_schema
from mcp.server.mcpserver import (
    AcceptedElicitation,
    CancelledElicitation,
    Context,
    DeclinedElicitation,
    ElicitationResult,
)
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult
from mcp_types.version import is_version_at_least
from pydantic import BaseModel, ConfigDict, ValidationError

from .texts import CANCELLED, DECLINED, MODERN, FormErrors


def is_modern(ctx: Context) -> bool:
    """Whether this request uses the 2026-07-28 era (no back-channel, input_required)."""
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, MODERN)


class Strict(BaseModel):
    """Answers must carry exactly the JSON types of the schema (no "5" for 5), so the
    echoed content proves the client typed its answer correctly."""

    model_config = ConfigDict(strict=True)


def echo(model: BaseModel) -> str:
    """The answered content as the client sent it: only set fields, JSON, sorted keys."""
    return json.dumps(model.model_dump(mode="json", exclude_unset=True), sort_keys=True)


def outcome_word(outcome: ElicitationResult[Any]) -> str:
    """`declined` / `cancelled` for a non-accepted outcome."""
    return DECLINED if isinstance(outcome, DeclinedElicitation) else CANCELLED


def action_word(action: str) -> str:
    """`declined` / `cancelled` for the action of a non-accepted `ElicitResult`."""
    return DECLINED if action == "decline" else CANCELLED


async def ask_form(
    ctx: Context, key: str, state: str, message: str, schema: type[Strict]
) -> ElicitationResult[Any] | InputRequiredResult:
    """One form question from a handler that is not a tool (no resolvers there).

    Legacy: `ctx.elicit` (rides the POST's SSE stream: the context carries the request id).
    Modern: an `InputRequiredResult` with `key` and requestState `state`; on the replay the
    answer counts only when the requestState came back, else the question is asked again.
    An accepted answer without content, or whose content does not match the schema, is a
    JSON-RPC error -32602 in both eras (left alone, the SDK would answer code 0 in the
    legacy era and -32603 in the modern one, as prompts and resources have no `isError`).
    """
    if not is_modern(ctx):
        try:
            return await ctx.elicit(message, schema)
        except ValidationError as e:  # a malformed ElicitResult: its text is not echoed
            raise MCPError(code=INVALID_PARAMS, message=FormErrors.INVALID) from e
        except ValueError as e:  # no content, or content not matching the schema
            raise MCPError(code=INVALID_PARAMS, message=str(e)) from e
    answer = (ctx.input_responses or {}).get(key)
    if ctx.request_state != state or not isinstance(answer, ElicitResult):
        request = ElicitRequest(
            params=ElicitRequestFormParams(message=message, requested_schema=render_elicitation_schema(schema))
        )
        return InputRequiredResult(input_requests={key: request}, request_state=state)
    if answer.action == "decline":
        return DeclinedElicitation()
    if answer.action == "cancel":
        return CancelledElicitation()
    if answer.content is None:
        raise MCPError(code=INVALID_PARAMS, message=FormErrors.NO_CONTENT)
    try:
        return AcceptedElicitation(data=schema.model_validate(answer.content))
    except ValidationError as e:
        raise MCPError(code=INVALID_PARAMS, message=FormErrors.MISMATCH) from e


RESOLVER_MODULE = "__main__"
"""The module the SDK names in a resolver's modern-era key (`module:qualname`, e.g.
`__main__:ask_model`). The server was one script run as `__main__` when its transcripts
(`core/tests/fixtures/transcripts/`) were recorded, and the tests know the keys by those
names, so every resolver keeps that module name wherever its code lives."""


def resolver(fn: Any) -> Any:
    """Marks a resolver function: its wire key becomes `__main__:<name>` (`RESOLVER_MODULE`)."""
    fn.__module__ = RESOLVER_MODULE
    return fn
