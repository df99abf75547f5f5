"""Judge tool input schemas' `x-mcp-header` annotations exactly as mcp==2.3.0 does.

On a 2026-07-28 connection the SDK's `ClientSession._absorb_tool_listing` drops every tool for
which `mcp.shared.inbound.find_invalid_x_mcp_header(tool.input_schema)` returns a reason, and
keeps `x_mcp_header_map(tool.input_schema)` for the others, from which `tools/call` mirrors
`mcp_param_headers(map, arguments)` (a dropped tool gets none). This script runs those same
functions over a table of hand-written schemas and a seeded batch of random ones, and records
for each: the SDK's reason (or null), its header map (valid schemas only: for an invalid one the
SDK calls the map undefined) and the headers it sends for some argument sets. The core's
`core/tests/all/driver_headers_sdk.rs` checks that `mcp_elicit::driver::headers` says the same.

Every schema and argument set is passed through `json.dumps`/`json.loads` first, so the SDK
judges exactly the JSON the Rust test reads. Deterministic: same SDK, same bytes.

Writes core/tests/fixtures/x_mcp_header.json.

Run:   .venv/bin/python tests/sdk_schemas/x_mcp_header.py
Check: .venv/bin/python tests/sdk_schemas/x_mcp_header.py --check   (exit 1 if the committed
       fixture is not what the SDK says now)
"""

from __future__ import annotations

import json
import pathlib
import random
import sys
from importlib.metadata import version
from typing import Any

from mcp.shared.inbound import find_invalid_x_mcp_header, mcp_param_headers, x_mcp_header_map

OUT = pathlib.Path(__file__).resolve().parents[2] / "core" / "tests" / "fixtures" / "x_mcp_header.json"
K = "x-mcp-header"


def prop(t: Any = "string", header: Any = None, **more: Any) -> dict[str, Any]:
    s: dict[str, Any] = {} if t is None else {"type": t}
    if header is not None:
        s[K] = header
    s.update(more)
    return s


def obj(props: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, **more}


# (name, schema, argument sets)
HAND: list[tuple[str, Any, list[dict[str, Any]]]] = [
    ("no annotations", obj({"a": prop()}), [{"a": "x"}]),
    ("not an object schema", [1, {K: "X"}], []),
    ("null schema", None, []),
    ("boolean schema", True, []),
    ("empty object", {}, [{}]),
    (
        "top-level string, integer, boolean",
        obj({"s": prop("string", "S"), "i": prop("integer", "I"), "b": prop("boolean", "B")}),
        [
            {"s": "plain", "i": 42, "b": True},
            {"s": " edge", "i": -7, "b": False},
            {"s": "caf\u00e9", "i": 1.5},
            {"s": "=?base64?x?="},
            {"s": "=?base64?="},
            {"s": "=?base64??="},
            {"s": "a\nb", "i": 1e20, "b": None},
            {"s": ["list"], "i": {"o": 1}},
            {"i": 0.0001},
            {"i": 1e-05},
            {"i": -0.0},
            {"i": 9007199254740991},
            {},
        ],
    ),
    (
        "nested properties",
        obj({"o": obj({"flag": prop("boolean", "Flag"), "deep": obj({"id": prop("string", "Deep-Id")})})}),
        [{"o": {"flag": False, "deep": {"id": "d1"}}}, {"o": "not an object"}, {"o": {"deep": None}}],
    ),
    ("on the root", {"type": "object", K: "Root", "properties": {}}, []),
    ("number type", obj({"x": prop("number", "X")}), [{"x": 1.5}]),
    ("object type", obj({"x": prop("object", "X")}), []),
    ("array type", obj({"x": prop("array", "X")}), []),
    ("null type", obj({"x": prop("null", "X")}), []),
    ("no type", obj({"x": prop(None, "X")}), []),
    ("type list", obj({"x": prop(["string", "null"], "X")}), []),
    ("type number literal", obj({"x": prop(7, "X")}), []),
    ("type float literal", obj({"x": prop(7.5, "X")}), []),
    ("type object literal", obj({"x": prop({"a": 1}, "X")}), []),
    ("type boolean literal", obj({"x": prop(True, "X")}), []),
    ("type null literal", obj({"x": {"type": None, K: "X"}}), []),
    ("header int", obj({"x": prop("string", 5)}), []),
    ("header float", obj({"x": prop("string", 5.5)}), []),
    ("header bool", obj({"x": prop("string", False)}), []),
    ("header null", obj({"x": {"type": "string", K: None}}), []),
    ("header list", obj({"x": prop("string", ["X"])}), []),
    ("header dict", obj({"x": prop("string", {"X": 1})}), []),
    ("header empty", obj({"x": prop("string", "")}), []),
    ("header with space", obj({"x": prop("string", "a b")}), []),
    ("header with colon", obj({"x": prop("string", "a:b")}), []),
    ("header non-ASCII", obj({"x": prop("string", "caf\u00e9")}), []),
    ("header trailing newline", obj({"x": prop("string", "X\n")}), []),
    ("header with quote", obj({"x": prop("string", "it's")}), []),
    ("header with both quotes", obj({"x": prop("string", "it's \"q\"")}), []),
    ("header every token char", obj({"x": prop("string", "!#$%&'*+-.^_`|~09azAZ")}), [{"x": "v"}]),
    (
        "duplicate, other case",
        obj({"a": prop("string", "Tenant"), "b": prop("string", "TENANT")}),
        [{"a": "1", "b": "2"}],
    ),
    (
        "duplicate across nesting",
        obj({"a": prop("string", "T"), "o": obj({"b": prop("string", "t")})}),
        [],
    ),
    (
        "duplicate after an invalid one",
        obj({"a": prop("string", "T"), "b": prop("string", "t"), "c": prop("number", "C")}),
        [],
    ),
    ("in anyOf", obj({"a": prop()}, anyOf=[obj({"x": prop("string", "X")})]), [{"x": "1"}]),
    ("in oneOf", {"oneOf": [prop("string", "X")]}, []),
    ("in allOf", {"allOf": [{"properties": {"x": prop("string", "X")}}]}, []),
    ("in prefixItems", {"prefixItems": [prop("string", "X")]}, []),
    ("in items", obj({"l": {"type": "array", "items": obj({"x": prop("string", "X")})}}), []),
    ("in items as a list (not a schema position)", {"items": [prop("string", "X")]}, []),
    ("in contains", {"contains": prop("string", "X")}, []),
    ("in unevaluatedItems", {"unevaluatedItems": prop("string", "X")}, []),
    ("in additionalProperties", {"additionalProperties": prop("string", "X")}, []),
    ("in propertyNames", {"propertyNames": prop("string", "X")}, []),
    ("in unevaluatedProperties", {"unevaluatedProperties": prop("string", "X")}, []),
    ("in not", {"not": prop("string", "X")}, []),
    ("in if", {"if": prop("string", "X")}, []),
    ("in then", {"then": prop("string", "X")}, []),
    ("in else", {"else": prop("string", "X")}, []),
    ("in contentSchema", {"contentSchema": prop("string", "X")}, []),
    ("in patternProperties", {"patternProperties": {"^x": prop("string", "X")}}, []),
    ("in dependentSchemas", {"dependentSchemas": {"x": prop("string", "X")}}, []),
    ("in $defs", obj({"a": prop()}, **{"$defs": {"D": prop("string", "X")}}), []),
    ("in definitions", {"definitions": {"D": prop("string", "X")}}, []),
    ("under properties of a $defs entry", {"$defs": {"D": obj({"x": prop("string", "X")})}}, []),
    ("in default (data)", obj({"a": prop("object", default={K: "X"})}), []),
    ("in const (data)", obj({"a": prop("object", const={K: "X"})}), []),
    ("in enum (data)", obj({"a": prop("object", enum=[{K: "X"}])}), []),
    ("in examples (data)", obj({"a": prop("object", examples=[{K: "X"}])}), []),
    ("behind $ref (not followed)", obj({"a": {"$ref": "#/$defs/D"}}, **{"$defs": {"D": {"type": "string"}}}), []),
    ("in $ref's neighbour keyword", {"$ref": {K: "X"}, "dependencies": {"x": prop("string", "X")}}, []),
    ("in additionalItems (not walked)", {"additionalItems": prop("string", "X")}, []),
    ("properties not an object", {"properties": [prop("string", "X")]}, []),
    ("property schema not an object", obj({"a": "string", "b": True, "c": prop("string", "C")}), [{"c": "1"}]),
    ("anyOf not a list", {"anyOf": {"a": prop("string", "X")}}, []),
    ("$defs not an object", {"$defs": [prop("string", "X")]}, []),
    ("valid next to an invalid nested one", obj({"a": prop("string", "A"), "b": obj({"c": prop("number", "C")})}), []),
    (
        "property named like keywords",
        obj({"properties": prop("string", "P"), "items": prop("string", "I"), K: prop("string", "K")}),
        [{"properties": "p", "items": "i", K: "k"}],
    ),
    ("property name with dots", obj({"a.b": obj({"c": prop("number", "X")})}), []),
    ("property name with quote", obj({"it's": prop("number", "X")}), []),
    ("property name with both quotes", obj({"it's \"q\"": prop("number", "X")}), []),
    ("property name with backslash and tab", obj({"a\\b\tc\r\n": prop("number", "X")}), []),
    ("property name with controls", obj({"\x00\x1f\x7f\x80\x9f\xa0": prop("number", "X")}), []),
    ("property name non-ASCII printable", obj({"caf\u00e9 \u4e2d\u6587 \U0001f600": prop("number", "X")}), []),
    (
        "property name Cf Zs Zl Zp",
        obj({"\u00ad\u200b\u202e\u2066\ufeff\u1680\u3000\u2028\u2029\U000e0001": prop("number", "X")}),
        [],
    ),
    ("property name private use and noncharacters", obj({"\ue000\uf8ff\ufdd0\uffff\U000f0000\U0010ffff": prop("number", "X")}), []),
    ("property name planes 2 and 3", obj({"\U00020000\U0002a6e0\U00030000\U0003134b\U000e0100": prop("number", "X")}), []),
    ("empty property name", obj({"": prop("string", "E")}), [{"": "e"}]),
    (
        "order decides the reported fault",
        obj({"a": prop("number", "A"), "b": prop("string", "b c")}),
        [],
    ),
    (
        "order across keywords",
        {"properties": {"a": prop("number", "A")}, "anyOf": [prop("string", "X")]},
        [],
    ),
]


# ----- random schemas -----------------------------------------------------------------------

# A wide pool, so duplicates (ignoring case) happen now and then rather than always.
TOKENS = ["X-Tenant", "x-tenant", "Region", "REGION", "Id", "A", "b", "Trace-Id", "q"] + [
    f"H{i}" for i in range(40)
]
BAD_HEADERS = ["", "a b", "a:b", "caf\u00e9", "X\n", "(x)", 3, None, True, ["A"], {"A": 1}, 1.5]
TYPES = ["string", "integer", "boolean", "string", "integer", "boolean", "number", "object", "array", "null",
         ["string", "null"], 5, None]
NAMES = ["a", "b", "c", "id", "region", "a.b", "it's", 'q"', "tab\t", "caf\u00e9", "\u202e", "items",
         "properties", K, ""]
SINGLE = ["items", "contains", "unevaluatedItems", "additionalProperties", "propertyNames",
          "unevaluatedProperties", "not", "if", "then", "else", "contentSchema"]
LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"]
MAPS = ["patternProperties", "dependentSchemas", "$defs", "definitions"]
DATA = ["default", "const", "enum", "examples", "$ref", "additionalItems", "dependencies"]
VALUES = ["v", "", " edge ", "caf\u00e9", "=?base64?x?=", "a\tb", 0, -12, 2**53, 1.5, 1e20, 1e-7, -0.0,
          True, False, None, [1], {"k": "v"}]


def random_schema(rng: random.Random, depth: int, on_chain: bool) -> Any:
    if depth <= 0 or rng.random() < 0.15:
        return rng.choice([{}, True, 1, "s", None, {"type": "string"}])
    s: dict[str, Any] = {}
    if rng.random() < 0.8:
        t = rng.choice(TYPES)
        if t is not None:
            s["type"] = t
    # Annotations are mostly valid and mostly on the chain, so that many schemas are valid.
    if rng.random() < (0.35 if on_chain else 0.04):
        r = rng.random()
        s[K] = rng.choice(TOKENS[:9]) if r < 0.25 else rng.choice(TOKENS) if r < 0.9 else rng.choice(BAD_HEADERS)
        if rng.random() < 0.85:
            s["type"] = rng.choice(["string", "integer", "boolean"])
    for _ in range(rng.randint(0, 2)):
        r = rng.random()
        if r < 0.55:
            props = s.setdefault("properties", {})
            if isinstance(props, dict):
                for _ in range(rng.randint(1, 2)):
                    props[rng.choice(NAMES)] = random_schema(rng, depth - 1, on_chain)
        elif r < 0.68:
            s[rng.choice(SINGLE)] = random_schema(rng, depth - 1, False)
        elif r < 0.78:
            s[rng.choice(LISTS)] = [random_schema(rng, depth - 1, False) for _ in range(rng.randint(0, 2))]
        elif r < 0.86:
            s[rng.choice(MAPS)] = {rng.choice(NAMES): random_schema(rng, depth - 1, False)}
        elif r < 0.96:
            s[rng.choice(DATA)] = {K: rng.choice(TOKENS), "properties": {"d": {"type": "number", K: "D"}}}
        else:
            s["properties"] = rng.choice([[], "p", 3])
    return s


def random_root(rng: random.Random) -> Any:
    """Mostly an object schema with properties, as tools have; now and then anything at all."""
    if rng.random() < 0.1:
        return random_schema(rng, 3, True)
    props = {rng.choice(NAMES): random_schema(rng, 3, True) for _ in range(rng.randint(1, 3))}
    root: dict[str, Any] = {"type": "object", "properties": props}
    if rng.random() < 0.3:
        extra = random_schema(rng, 2, False)
        if isinstance(extra, dict):
            extra.pop("properties", None)
            root.update(extra)
    return root


def random_arguments(rng: random.Random, header_map: dict[tuple[str, ...], str]) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for path in header_map:
        if rng.random() < 0.15:
            continue
        node = args
        for key in path[:-1]:
            nxt = node.get(key)
            if not isinstance(nxt, dict):
                nxt = {} if rng.random() < 0.9 else "not an object"
                node[key] = nxt
            if not isinstance(nxt, dict):
                break
            node = nxt
        else:
            node[path[-1]] = rng.choice(VALUES)
    return args


def case(name: str, schema: Any, calls: list[dict[str, Any]]) -> dict[str, Any]:
    # The SDK judges what the fixture holds, byte for byte.
    schema = json.loads(json.dumps(schema))
    calls = json.loads(json.dumps(calls))
    reason = find_invalid_x_mcp_header(schema)
    header_map = x_mcp_header_map(schema) if reason is None else None
    out: dict[str, Any] = {"name": name, "schema": schema, "sdkReason": reason}
    out["headerMap"] = None if header_map is None else [[list(p), t] for p, t in header_map.items()]
    out["calls"] = [
        {
            "arguments": args,
            # What ClientSession._resolve_param_headers sends: nothing for a dropped tool.
            "headers": [] if header_map is None else [[k, v] for k, v in mcp_param_headers(header_map, args).items()],
        }
        for args in calls
    ]
    return out


def render() -> str:
    hand = [case(name, schema, calls) for name, schema, calls in HAND]
    rng = random.Random(20260728)
    rand = []
    for i in range(300):
        schema = random_root(rng)
        # Arguments along every annotated path, valid or not: for a schema the SDK rejects they
        # show that nothing is mirrored even where a laxer client would send a header.
        header_map = x_mcp_header_map(json.loads(json.dumps(schema)))
        calls = [random_arguments(rng, header_map) for _ in range(2)] if header_map else []
        rand.append(case(f"random {i}", schema, calls))
    valid = sum(c["sdkReason"] is None and bool(c["headerMap"]) for c in rand)
    invalid = sum(c["sdkReason"] is not None for c in rand)
    # The batch is only worth its bytes if both verdicts are common.
    if valid < 60 or invalid < 60:
        sys.exit(f"random batch too one-sided: {valid} valid with headers, {invalid} invalid")
    head = {"generatedBy": "tests/sdk_schemas/x_mcp_header.py", "mcpVersion": version("mcp")}
    # One case per line for the random batch: diffable without a 30k-line file.
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ',\n  "hand": [\n']
    lines.append(",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in hand))
    lines.append('\n  ],\n  "random": [\n')
    lines.append(",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in rand))
    lines.append("\n  ]\n}\n")
    return "".join(lines)


def main() -> None:
    text = render()
    json.loads(text)  # well-formed
    if sys.argv[1:] == ["--check"]:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            sys.exit(f"{OUT} is not what mcp=={version('mcp')} says; re-run {sys.argv[0]} without --check")
        print(f"{OUT} matches mcp=={version('mcp')}")
        return
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
