//! The compiler on every field kind, every enum shape, and every refusal with its exact path.

use mcp_elicit::schema::{
    compile, EnumOption, FieldKind, FormSpec, NumberBounds, Pattern, StringFormat,
};
use serde_json::{json, Value};

fn ok(schema: Value) -> FormSpec {
    match compile(&schema) {
        Ok(spec) => spec,
        Err(e) => panic!("expected {schema} to compile, got {e}"),
    }
}

/// Compiles a one-property schema and returns the single field's kind.
fn kind_of(prop: Value) -> FieldKind {
    let spec = ok(json!({"type": "object", "properties": {"x": prop}}));
    assert_eq!(spec.fields.len(), 1);
    spec.fields[0].kind.clone()
}

/// Asserts refusal at `path`, with a message that mentions `words`.
fn refused(schema: Value, path: &str, words: &str) {
    match compile(&schema) {
        Ok(spec) => panic!("expected {schema} to be refused at {path}, got {spec:?}"),
        Err(e) => {
            assert_eq!(e.path, path, "wrong path for {schema}: {}", e.message());
            assert!(
                e.message().contains(words),
                "message {:?} should mention {words:?}",
                e.message()
            );
            assert!(
                e.message().ends_with('.') || e.message().contains(':'),
                "{:?}",
                e.message()
            );
        }
    }
}

fn one(prop: Value) -> Value {
    json!({"type": "object", "properties": {"x": prop}})
}

fn opts(pairs: &[(&str, &str)]) -> Vec<EnumOption> {
    pairs
        .iter()
        .map(|(v, t)| EnumOption {
            value: (*v).into(),
            title: (*t).into(),
        })
        .collect()
}

#[test]
fn sdk_alternative_date_schema() {
    let spec = ok(
        json!({"properties":{"accept_alternative":{"description":"Try another date?","title":"Accept Alternative","type":"boolean"},"date":{"default":"2025-12-26","description":"Alternative date (YYYY-MM-DD)","title":"Date","type":"string"}},"required":["accept_alternative"],"title":"AlternativeDate","type":"object"}),
    );
    assert_eq!(spec.title.as_deref(), Some("AlternativeDate"));
    let names: Vec<_> = spec.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["accept_alternative", "date"]);
    let a = &spec.fields[0];
    assert_eq!(a.label, "Accept Alternative");
    assert_eq!(a.description.as_deref(), Some("Try another date?"));
    assert!(a.required);
    assert_eq!(a.kind, FieldKind::Boolean);
    let d = &spec.fields[1];
    assert!(!d.required);
    assert_eq!(d.default, Some(json!("2025-12-26")));
}

#[test]
fn property_order_is_the_schema_order() {
    let spec = ok(json!({"type":"object","properties":{
        "zeta":{"type":"string"},"alpha":{"type":"string"},"mid":{"type":"boolean"}}}));
    let names: Vec<_> = spec.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["zeta", "alpha", "mid"]);
}

#[test]
fn label_falls_back_to_name() {
    let spec = ok(one(json!({"type": "string"})));
    assert_eq!(spec.fields[0].label, "x");
    assert_eq!(spec.fields[0].description, None);
}

#[test]
fn string_with_every_constraint() {
    assert_eq!(
        kind_of(
            json!({"type":"string","minLength":2,"maxLength":10,"format":"email","pattern":"^a"})
        ),
        FieldKind::String {
            min_length: Some(2),
            max_length: Some(10),
            format: Some(StringFormat::Email),
            pattern: Pattern::new("^a").ok(),
        }
    );
    for (f, sf) in [
        ("email", StringFormat::Email),
        ("uri", StringFormat::Uri),
        ("date", StringFormat::Date),
        ("date-time", StringFormat::DateTime),
    ] {
        match kind_of(json!({"type":"string","format":f})) {
            FieldKind::String { format, .. } => assert_eq!(format, Some(sf)),
            k => panic!("{k:?}"),
        }
    }
}

#[test]
fn unknown_format_is_ignored() {
    match kind_of(json!({"type":"string","format":"uuid"})) {
        FieldKind::String { format, .. } => assert_eq!(format, None),
        k => panic!("{k:?}"),
    }
}

#[test]
fn numbers_and_integers() {
    assert_eq!(
        kind_of(json!({"type":"number","minimum":0.5,"maximum":9})),
        FieldKind::Number(NumberBounds {
            minimum: Some(0.5),
            maximum: Some(9.0),
            ..Default::default()
        })
    );
    assert_eq!(
        kind_of(json!({"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":100})),
        FieldKind::Integer(NumberBounds {
            exclusive_minimum: Some(0.0),
            exclusive_maximum: Some(100.0),
            ..Default::default()
        })
    );
    assert_eq!(
        kind_of(json!({"type":"boolean","default":true})),
        FieldKind::Boolean
    );
}

#[test]
fn untitled_single_select() {
    assert_eq!(
        kind_of(json!({"type":"string","enum":["red","green"]})),
        FieldKind::Select {
            options: opts(&[("red", "red"), ("green", "green")])
        }
    );
}

#[test]
fn titled_single_select() {
    assert_eq!(
        kind_of(
            json!({"type":"string","oneOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]})
        ),
        FieldKind::Select {
            options: opts(&[("r", "Red"), ("g", "Green")])
        }
    );
}

#[test]
fn legacy_enum_names() {
    assert_eq!(
        kind_of(json!({"type":"string","enum":["r","g"],"enumNames":["Red","Green"]})),
        FieldKind::Select {
            options: opts(&[("r", "Red"), ("g", "Green")])
        }
    );
}

#[test]
fn untitled_multi_select() {
    assert_eq!(
        kind_of(
            json!({"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"maxItems":2,"default":["a"]})
        ),
        FieldKind::MultiSelect {
            options: opts(&[("a", "a"), ("b", "b"), ("c", "c")]),
            min_items: Some(1),
            max_items: Some(2),
        }
    );
}

#[test]
fn titled_multi_select() {
    assert_eq!(
        kind_of(
            json!({"type":"array","items":{"anyOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]}})
        ),
        FieldKind::MultiSelect {
            options: opts(&[("a", "A"), ("b", "B")]),
            min_items: None,
            max_items: None,
        }
    );
}

#[test]
fn defaults_of_every_kind_are_kept() {
    let spec = ok(json!({"type":"object","properties":{
        "s":{"type":"string","default":"hi"},
        "n":{"type":"number","default":1.5},
        "i":{"type":"integer","default":3},
        "i2":{"type":"integer","default":3.0},
        "b":{"type":"boolean","default":false},
        "t":{"type":"boolean","default":true},
        "e":{"type":"string","enum":["a","b"],"default":"b"},
        "o":{"type":"string","oneOf":[{"const":"x","title":"X"},{"const":"y"}],"default":"y"},
        "m":{"type":"array","items":{"type":"string","enum":["a","b"]},"default":["a","b"]},
        "ma":{"type":"array","items":{"anyOf":[{"const":"p"},{"const":"q"}]},"default":["q"]},
        "none":{"type":"array","items":{"type":"string","enum":["a"]},"default":[]},
        "long":{"type":"string","maxLength":1,"default":"too long"},
        "nodefault":{"type":"string"}
    }}));
    // Every default as the schema gave it, each of its own field, in the schema's order.
    let kept: Vec<(&str, Option<&serde_json::Value>)> = spec
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.default.as_ref()))
        .collect();
    let expected = [
        ("s", json!("hi")),
        ("n", json!(1.5)),
        ("i", json!(3)),
        ("i2", json!(3.0)),
        ("b", json!(false)),
        ("t", json!(true)),
        ("e", json!("b")),
        ("o", json!("y")),
        ("m", json!(["a", "b"])),
        ("ma", json!(["q"])),
        ("none", json!([])),
        ("long", json!("too long")),
    ];
    let mut want: Vec<(&str, Option<&serde_json::Value>)> =
        expected.iter().map(|(n, v)| (*n, Some(v))).collect();
    want.push(("nodefault", None));
    assert_eq!(kept, want);
    // And `defaults` gives each of them, and only them.
    let d = mcp_elicit::validate::defaults(&spec);
    let want_map: serde_json::Map<String, serde_json::Value> = expected
        .iter()
        .map(|(n, v)| ((*n).to_owned(), v.clone()))
        .collect();
    assert_eq!(d, want_map);
}

#[test]
fn no_properties_is_an_empty_form() {
    assert!(ok(json!({"type": "object"})).fields.is_empty());
    assert!(ok(json!({"type": "object", "properties": {}}))
        .fields
        .is_empty());
}

#[test]
fn ignored_keys_do_not_matter() {
    ok(
        json!({"$schema":"x","type":"object","additionalProperties":false,"properties":{"x":{"type":"string","examples":["a"],"readOnly":false}}}),
    );
}

#[test]
fn refusals_carry_their_pointer() {
    refused(json!([1]), "", "object");
    refused(json!("s"), "", "object");
    refused(json!({"type": "array"}), "/type", "object");
    refused(
        json!({"type": "object", "properties": []}),
        "/properties",
        "properties",
    );
    refused(json!({"type":"object","title":3}), "/title", "text");
    refused(
        json!({"type": "object", "properties": {"x": 1}}),
        "/properties/x",
        "object",
    );
    refused(
        one(json!({"type":"object","properties":{"street":{"type":"string"}}})),
        "/properties/x",
        "nested object",
    );
    refused(
        one(json!({"$ref": "#/$defs/A"})),
        "/properties/x/$ref",
        "$ref",
    );
    refused(one(json!({"title": "X"})), "/properties/x", "no \"type\"");
    refused(
        one(json!({"anyOf":[{"type":"string"},{"type":"integer"}]})),
        "/properties/x",
        "no \"type\"",
    );
    refused(
        one(json!({"type": ["string", "null"]})),
        "/properties/x/type",
        "several types",
    );
    refused(
        one(json!({"type": "null"})),
        "/properties/x/type",
        "\"null\"",
    );
    refused(
        one(json!({"type": 7})),
        "/properties/x/type",
        "must be a string",
    );
    refused(
        one(json!({"type": "array", "items": {"type": "string"}})),
        "/properties/x/items",
        "array",
    );
    refused(
        one(json!({"type": "array"})),
        "/properties/x/items",
        "array",
    );
    refused(
        one(json!({"type":"array","items":{"type":"integer","enum":["1"]}})),
        "/properties/x/items/type",
        "strings",
    );
    refused(
        one(json!({"type": "string", "enum": []})),
        "/properties/x/enum",
        "empty",
    );
    refused(
        one(json!({"type": "string", "oneOf": []})),
        "/properties/x/oneOf",
        "empty",
    );
    refused(
        one(json!({"type":"array","items":{"anyOf":[]}})),
        "/properties/x/items/anyOf",
        "empty",
    );
    refused(
        one(json!({"type":"array","items":{"enum":[]}})),
        "/properties/x/items/enum",
        "empty",
    );
    refused(
        one(json!({"type": "string", "enum": ["a", 1]})),
        "/properties/x/enum/1",
        "string",
    );
    refused(
        one(json!({"type": "string", "enum": ["a", "a"]})),
        "/properties/x/enum/1",
        "more than once",
    );
    refused(
        one(json!({"type":"string","oneOf":[{"title":"A"}]})),
        "/properties/x/oneOf/0",
        "const",
    );
    refused(
        one(json!({"type":"string","oneOf":[{"const":1,"title":"A"}]})),
        "/properties/x/oneOf/0/const",
        "string const",
    );
    refused(
        one(json!({"type":"string","oneOf":["a"]})),
        "/properties/x/oneOf/0",
        "object",
    );
    refused(
        one(json!({"type":"string","oneOf":[{"const":"a","title":2}]})),
        "/properties/x/oneOf/0/title",
        "text",
    );
    refused(
        one(json!({"type":"string","enum":["a"],"oneOf":[{"const":"a"}]})),
        "/properties/x",
        "both",
    );
    refused(
        one(json!({"type":"string","enum":["a","b"],"enumNames":["A"]})),
        "/properties/x/enumNames",
        "1 enumNames for 2",
    );
    refused(
        one(json!({"type":"string","enum":["a"],"enumNames":"A"})),
        "/properties/x/enumNames",
        "list",
    );
    refused(
        one(json!({"type":"string","enum":["a"],"enumNames":[1]})),
        "/properties/x/enumNames/0",
        "string",
    );
    refused(
        one(json!({"type": "string", "default": 3})),
        "/properties/x/default",
        "default",
    );
    // No field's default is an object, nor holds one: the compiler keeps a default by a
    // conversion that has no objects (`Json::to_value_without_objects`).
    for default in [json!({}), json!({"a": 1})] {
        for ty in ["string", "number", "integer", "boolean"] {
            refused(
                one(json!({"type": ty, "default": default})),
                "/properties/x/default",
                "default",
            );
        }
    }
    refused(
        one(json!({"type":"array","items":{"enum":["a"]},"default":["a",{}]})),
        "/properties/x/default",
        "default",
    );
    refused(
        one(json!({"type": "integer", "default": 2.5})),
        "/properties/x/default",
        "whole number",
    );
    refused(
        one(json!({"type": "number", "default": "2"})),
        "/properties/x/default",
        "a number",
    );
    refused(
        one(json!({"type": "boolean", "default": "true"})),
        "/properties/x/default",
        "true or false",
    );
    refused(
        one(json!({"type":"string","enum":["a"],"default":"b"})),
        "/properties/x/default",
        "\"b\"",
    );
    refused(
        one(json!({"type":"array","items":{"enum":["a"]},"default":["a","z"]})),
        "/properties/x/default",
        "\"z\"",
    );
    refused(
        one(json!({"type":"array","items":{"enum":["a"]},"default":"a"})),
        "/properties/x/default",
        "list",
    );
    refused(
        one(json!({"type": "string", "pattern": 5})),
        "/properties/x/pattern",
        "string",
    );
    refused(
        one(json!({"type": "string", "format": 5})),
        "/properties/x/format",
        "string",
    );
    refused(
        one(json!({"type": "string", "minLength": -1})),
        "/properties/x/minLength",
        "whole number",
    );
    refused(
        one(json!({"type": "string", "maxLength": 1.5})),
        "/properties/x/maxLength",
        "whole number",
    );
    refused(
        one(json!({"type":"string","minLength":5,"maxLength":2})),
        "/properties/x/maxLength",
        "below",
    );
    refused(
        one(json!({"type":"array","items":{"enum":["a"]},"minItems":2,"maxItems":1})),
        "/properties/x/maxItems",
        "below",
    );
    refused(
        one(json!({"type": "number", "minimum": "0"})),
        "/properties/x/minimum",
        "number",
    );
    refused(
        one(json!({"type": "string", "description": ["d"]})),
        "/properties/x/description",
        "text",
    );
    refused(
        json!({"type":"object","properties":{"x":{"type":"string"}},"required":["y"]}),
        "/required/0",
        "\"y\"",
    );
    refused(
        json!({"type":"object","properties":{"x":{"type":"string"}},"required":"x"}),
        "/required",
        "list",
    );
    refused(
        json!({"type":"object","properties":{"x":{"type":"string"}},"required":[1]}),
        "/required/0",
        "property name",
    );
}

#[test]
fn pointer_tokens_are_escaped() {
    refused(
        json!({"type":"object","properties":{"a/b~c":{"type":"object"}}}),
        "/properties/a~1b~0c",
        "nested",
    );
}

#[test]
fn serialises_in_the_js_shape() {
    let spec = ok(json!({"type":"object","properties":{
        "n":{"type":"integer","minimum":1,"title":"N"},
        "m":{"type":"array","items":{"enum":["a"]},"maxItems":1}
    },"required":["n"]}));
    let v = serde_json::to_value(&spec).unwrap_or_default();
    assert_eq!(
        v,
        json!({"fields":[
            {"name":"n","label":"N","required":true,"kind":"integer","minimum":1.0},
            {"name":"m","label":"m","required":false,"kind":"multiSelect","options":[{"value":"a","title":"a"}],"maxItems":1}
        ]})
    );
}
