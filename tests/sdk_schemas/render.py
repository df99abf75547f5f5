"""Render pydantic models to `requestedSchema` exactly as mcp==2.3.0 does for `ctx.elicit`.

`ctx.elicit(message, schema=Model)` calls `mcp.server.elicitation.elicit_with_validation`,
which calls `render_elicitation_schema(Model)`: pydantic's JSON schema with the SDK's own
generator (nullable flattened, `None` defaults dropped), then the SDK's check that every
property is a spec `PrimitiveSchemaDefinition`. This script calls that same function, so the
fixture is what a real server sends. Each valid answer is checked by the model itself
(`model_validate`, as the SDK does on `accept`), and each invalid one must be rejected by it.

Writes core/tests/fixtures/sdk_schemas.json. Deterministic: same SDK, same bytes.

Run: .venv/bin/python tests/sdk_schemas/render.py
Check: .venv/bin/python tests/sdk_schemas/render.py --check   (exit 1 if the committed
fixture is not byte for byte what the installed SDK renders; writes nothing)
"""

from __future__ import annotations

import datetime
import json
import pathlib
import sys
from typing import Annotated, Literal, Optional

from pydantic import AnyUrl, BaseModel, Field, ValidationError

from mcp.server.elicitation import render_elicitation_schema

OUT = pathlib.Path(__file__).resolve().parents[2] / "core" / "tests" / "fixtures" / "sdk_schemas.json"

# "EmailStr-like": pydantic's EmailStr needs the optional email-validator package, which the
# SDK does not depend on; this renders the same `format: email`.
Email = Annotated[str, Field(json_schema_extra={"format": "email"})]


class AlternativeDate(BaseModel):
    """The SDK's booking example: a bool and a date string with a default."""

    accept_alternative: bool = Field(description="Try another date?")
    date: str = Field(default="2025-12-26", description="Alternative date (YYYY-MM-DD)")


class Confirm(BaseModel):
    ok: bool


class Profile(BaseModel):
    name: str = Field(title="Full name", description="As on your passport", min_length=2, max_length=40)
    nickname: str = "friend"
    age: int = Field(ge=18, le=120)
    height_m: float = Field(gt=0, lt=3)
    newsletter: bool = False


class Choices(BaseModel):
    size: Literal["small", "medium", "large"]
    toppings: list[Literal["cheese", "ham", "olives"]] = Field(default_factory=list, max_length=2)
    crust: Literal["thin", "thick"] = "thin"


class Optionals(BaseModel):
    comment: Optional[str] = None
    rating: Optional[int] = Field(default=None, ge=1, le=5)
    subscribe: bool | None = None


class Formats(BaseModel):
    email: Email
    homepage: AnyUrl
    birthday: datetime.date
    meeting: datetime.datetime
    code: str = Field(pattern=r"^[A-Z]{3}-[0-9]{2}$", description="Like ABC-12")


class Address(BaseModel):
    street: str


class WithAddress(BaseModel):
    name: str
    address: Address


class BareList(BaseModel):
    tags: list[str]


class Union(BaseModel):
    value: int | str


# (model, valid answers, invalid answers). Answers are JSON as a client would send them.
ACCEPTED = [
    (
        AlternativeDate,
        [{"accept_alternative": True, "date": "2025-12-27"}, {"accept_alternative": False}],
        [{"date": "2025-12-27"}],
    ),
    (Confirm, [{"ok": True}, {"ok": False}], [{}, {"ok": "maybe"}]),
    (
        Profile,
        [
            {"name": "Ada Lovelace", "age": 36, "height_m": 1.65, "newsletter": True},
            {"name": "Al", "nickname": "Big Al", "age": 120, "height_m": 2},
        ],
        [
            {"name": "A", "age": 36, "height_m": 1.65},
            {"name": "Ada", "age": 17, "height_m": 1.65},
            {"name": "Ada", "age": 30, "height_m": 0},
            {"name": "Ada", "age": 30, "height_m": 3},
            {"name": "Ada", "age": 30.5, "height_m": 1.5},
        ],
    ),
    (
        Choices,
        [{"size": "small"}, {"size": "large", "toppings": ["ham", "cheese"], "crust": "thick"}, {"size": "medium", "toppings": []}],
        [{"size": "huge"}, {"size": "small", "toppings": ["ham", "pineapple"]}, {"size": "small", "toppings": ["ham", "cheese", "olives"]}],
    ),
    (Optionals, [{}, {"comment": "fine", "rating": 5, "subscribe": True}], [{"rating": 0}, {"rating": 6}]),
    (
        Formats,
        [
            {
                "email": "ada@example.com",
                "homepage": "https://example.com/ada",
                "birthday": "1815-12-10",
                "meeting": "2025-12-26T19:30:00Z",
                "code": "ABC-12",
            },
            {
                "email": "b@example.org",
                "homepage": "http://localhost:8080/x?y=1",
                "birthday": "2000-02-29",
                "meeting": "2025-12-26T19:30:00+01:00",
                "code": "XYZ-99",
            },
        ],
        [
            {"email": "ada@example.com", "homepage": "https://example.com", "birthday": "2001-02-29", "meeting": "2025-12-26T19:30:00Z", "code": "ABC-12"},
            {"email": "ada@example.com", "homepage": "https://example.com", "birthday": "2000-01-01", "meeting": "2025-12-26T19:30:00Z", "code": "abc-12"},
        ],
    ),
]

REFUSED = [WithAddress, BareList, Union]


def accepted_case(model, valid, invalid):
    schema = render_elicitation_schema(model)
    for answer in valid:
        model.model_validate(answer)  # raises if the answer is not valid for the SDK
    for answer in invalid:
        try:
            model.model_validate(answer)
        except ValidationError:
            continue
        sys.exit(f"{model.__name__}: the model accepted the 'invalid' answer {answer!r}")
    return {"name": model.__name__, "sdkRefused": False, "schema": schema, "valid": valid, "invalid": invalid}


def refused_case(model):
    try:
        render_elicitation_schema(model)
    except TypeError as e:
        # The schema the model would have rendered, as pydantic emits it.
        return {"name": model.__name__, "sdkRefused": True, "sdkError": str(e), "schema": model.model_json_schema()}
    sys.exit(f"{model.__name__}: expected the SDK to refuse it")


def render():
    """The fixture's text, as the installed SDK renders it."""
    cases = [accepted_case(*c) for c in ACCEPTED] + [refused_case(m) for m in REFUSED]
    import mcp  # noqa: F401  (version recorded so a changed SDK shows in the diff)
    from importlib.metadata import version

    doc = {"generatedBy": "tests/sdk_schemas/render.py", "mcpVersion": version("mcp"), "cases": cases}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n", len(cases), version("mcp")


def main():
    text, count, sdk = render()
    args = sys.argv[1:]
    if args == ["--check"]:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            sys.exit(f"{OUT} is not what mcp=={sdk} renders; re-run {sys.argv[0]} without --check")
        print(f"{OUT} matches mcp=={sdk} ({count} schemas)")
        return
    if args:
        sys.exit(f"usage: {sys.argv[0]} [--check]")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {count} schemas to {OUT}")


if __name__ == "__main__":
    main()
