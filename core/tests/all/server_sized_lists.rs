//! Lists as long as a server or host cares to make them: the compiler, the validator and the
//! catalog do linear (or n log n) work over them, and the caps refuse what no person could use
//! with a pointer and a sentence. Sizes here are ones quadratic work needed minutes for (in a
//! debug build); no test asserts a time.

use mcp_elicit::schema::{
    compile, FieldKind, FormSpec, MAX_ENUM_OPTIONS, MAX_PATTERN_LEN, MAX_PATTERN_TEXT_LEN,
    MAX_PROPERTIES,
};
use mcp_elicit::validate::{check_field, coerce_form, validate_content, ErrorCode, RawInput};
use mcp_elicit::wire::ResourceTemplate;
use serde_json::{json, Map, Value};

fn names(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

fn ok(schema: &Value) -> FormSpec {
    compile(schema).unwrap_or_else(|e| panic!("should compile: {e}"))
}

fn refused_at(schema: &Value, path: &str, words: &str) {
    match compile(schema) {
        Ok(_) => panic!("should be refused at {path}"),
        Err(e) => {
            assert_eq!(e.path, path, "{}", e.message());
            assert!(
                e.message().contains(words),
                "{:?} lacks {words:?}",
                e.message()
            );
        }
    }
}

/// Issue 9 finding 5: the duplicate-choice check, the default check and the validator each
/// compared every choice with every other.
#[test]
fn a_multi_select_with_the_most_choices_compiles_and_every_choice_validates() {
    let choices = names("c", MAX_ENUM_OPTIONS);
    let schema = json!({"type": "object", "properties": {"m": {
        "type": "array", "items": {"type": "string", "enum": choices}, "default": choices}}});
    let spec = ok(&schema);
    let all = json!({ "m": choices });
    assert_eq!(validate_content(&spec, &all).map(Value::Object), Ok(all));
    let field = &spec.fields[0];
    assert!(check_field(field, &RawInput::List(choices.clone())).is_ok());

    let mut twice = choices.clone();
    twice.push("c0".into());
    let err = check_field(field, &RawInput::List(twice)).unwrap_err();
    assert_eq!(err.code, ErrorCode::Enum);
    assert!(err.message.contains("more than once"), "{}", err.message);

    let mut stranger = choices.clone();
    stranger.push("nope".into());
    let err = check_field(field, &RawInput::List(stranger)).unwrap_err();
    assert_eq!(err.code, ErrorCode::Enum);
    // The message names the stranger and a few choices, not all of them.
    assert!(err.message.contains("\"nope\""), "{}", err.message);
    assert!(err.message.len() < 1000, "{} bytes", err.message.len());
}

#[test]
fn titled_choices_of_the_largest_size_compile_and_a_repeat_at_the_end_is_found() {
    let mut one_of: Vec<Value> = names("c", MAX_ENUM_OPTIONS)
        .into_iter()
        .map(|c| json!({"const": c, "title": c}))
        .collect();
    let schema =
        json!({"type": "object", "properties": {"s": {"type": "string", "oneOf": one_of}}});
    let spec = ok(&schema);
    let err = validate_content(&spec, &json!({"s": "nope"})).unwrap_err();
    assert!(
        err[0].message.len() < 1000,
        "{} bytes",
        err[0].message.len()
    );

    let last = MAX_ENUM_OPTIONS - 1;
    one_of[last] = json!({"const": "c0"});
    let schema =
        json!({"type": "object", "properties": {"s": {"type": "string", "oneOf": one_of}}});
    refused_at(
        &schema,
        &format!("/properties/s/oneOf/{last}"),
        "more than once",
    );

    let mut list = names("c", MAX_ENUM_OPTIONS);
    list[last] = "c0".into();
    let schema = json!({"type": "object", "properties": {"s": {"type": "string", "enum": list}}});
    refused_at(
        &schema,
        &format!("/properties/s/enum/{last}"),
        "more than once",
    );
}

/// `required` may name each property any number of times; looking each property up in it
/// used to cost the list's length.
#[test]
fn a_long_required_list_is_looked_up_once_per_property() {
    let props = names("p", MAX_PROPERTIES);
    let properties: Map<String, Value> = props
        .iter()
        .map(|p| (p.clone(), json!({"type": "string"})))
        .collect();
    // A million repeats of the first name, then every name: each later property used to be
    // searched for past all the repeats.
    let required: Vec<&String> = std::iter::repeat_n(&props[0], 1_000_000)
        .chain(&props)
        .collect();
    let schema = json!({"type": "object", "properties": properties, "required": required});
    let spec = ok(&schema);
    assert_eq!(spec.fields.len(), MAX_PROPERTIES);
    assert!(spec.fields.iter().all(|f| f.required));
}

fn widest_form() -> FormSpec {
    let properties: Map<String, Value> = names("p", MAX_PROPERTIES)
        .into_iter()
        .map(|p| (p, json!({"type": "string"})))
        .collect();
    ok(&json!({"type": "object", "properties": properties}))
}

/// A host's content (validateContent) can have any number of keys; each unknown one used to
/// be compared with every field.
#[test]
fn content_with_a_million_unknown_keys_gets_one_error_each() {
    let spec = widest_form();
    let mut content: Map<String, Value> = names("u", 1_000_000)
        .into_iter()
        .map(|k| (k, json!("x")))
        .collect();
    content.insert("p0".into(), json!("kept"));
    let errors = validate_content(&spec, &Value::Object(content)).unwrap_err();
    assert_eq!(errors.len(), 1_000_000);
    assert!(errors.iter().all(|e| e.code == ErrorCode::UnknownField));
}

/// Submit: each field used to search the raw entries, and each entry the fields.
#[test]
fn coercing_a_million_raw_entries_is_linear() {
    let spec = widest_form();
    let mut raw: Vec<(String, RawInput)> = names("u", 1_000_000)
        .into_iter()
        .map(|k| (k, RawInput::Text("x".into())))
        .collect();
    raw.extend(
        names("p", MAX_PROPERTIES)
            .into_iter()
            .map(|k| (k, RawInput::Text("v".into()))),
    );
    let errors = coerce_form(&spec, &raw).unwrap_err();
    assert_eq!(errors.len(), 1_000_000);

    // The first entry of a name counts, as before.
    let raw = vec![
        ("p1".to_string(), RawInput::Text("first".into())),
        ("p1".to_string(), RawInput::Text("second".into())),
    ];
    let content = coerce_form(&spec, &raw).unwrap();
    assert_eq!(content.get("p1"), Some(&json!("first")));
}

/// Each variable used to be compared with every one before it.
#[test]
fn a_template_with_a_hundred_thousand_variables_lists_each_once() {
    let vars = names("v", 100_000);
    let template: String = vars
        .iter()
        .chain(&vars)
        .map(|v| format!("{{{v}}}"))
        .collect();
    let t = ResourceTemplate {
        uri_template: format!("file:///{template}"),
        name: "t".into(),
        title: None,
        description: None,
        mime_type: None,
    };
    assert_eq!(t.variables(), Ok(vars));
}

#[test]
fn more_properties_than_the_cap_are_refused() {
    let properties: Map<String, Value> = names("p", MAX_PROPERTIES + 1)
        .into_iter()
        .map(|p| (p, json!({"type": "boolean"})))
        .collect();
    refused_at(
        &json!({"type": "object", "properties": properties}),
        "/properties",
        &MAX_PROPERTIES.to_string(),
    );
}

#[test]
fn more_choices_than_the_cap_are_refused_in_every_shape() {
    let too_many = names("c", MAX_ENUM_OPTIONS + 1);
    let titled: Vec<Value> = too_many.iter().map(|c| json!({"const": c})).collect();
    let cap = MAX_ENUM_OPTIONS.to_string();
    let one = |prop: Value| json!({"type": "object", "properties": {"x": prop}});
    refused_at(
        &one(json!({"type": "string", "enum": too_many})),
        "/properties/x/enum",
        &cap,
    );
    refused_at(
        &one(json!({"type": "string", "oneOf": titled})),
        "/properties/x/oneOf",
        &cap,
    );
    refused_at(
        &one(json!({"type": "array", "items": {"enum": too_many}})),
        "/properties/x/items/enum",
        &cap,
    );
    refused_at(
        &one(json!({"type": "array", "items": {"anyOf": titled}})),
        "/properties/x/items/anyOf",
        &cap,
    );
}

/// Issue 9 finding 7: pattern size and the text checked against it are bounded. Issue 16:
/// a pattern over a limit is kept unchecked (the server decides), never a refusal.
#[test]
fn a_pattern_longer_than_the_cap_is_not_checked() {
    let pattern = "a".repeat(MAX_PATTERN_LEN + 1);
    let spec =
        ok(&json!({"type": "object", "properties": {"x": {"type": "string", "pattern": pattern}}}));
    assert!(check_field(&spec.fields[0], &RawInput::Text("b".into())).is_ok());
    // Exactly at the cap: checked.
    let longest = format!("^{}", "a".repeat(MAX_PATTERN_LEN - 1));
    let spec =
        ok(&json!({"type": "object", "properties": {"x": {"type": "string", "pattern": longest}}}));
    assert!(check_field(&spec.fields[0], &RawInput::Text("b".into())).is_err());
}

#[test]
fn a_short_pattern_that_compiles_to_a_huge_program_is_not_checked() {
    let spec = ok(
        &json!({"type": "object", "properties": {"x": {"type": "string", "pattern": "(?:[a-z]{1000}){1000}"}}}),
    );
    assert!(check_field(&spec.fields[0], &RawInput::Text("A".into())).is_ok());
}

#[test]
fn a_realistic_long_pattern_still_compiles() {
    // A full IPv6 address pattern: 661 bytes, the size real schemas reach.
    let ipv6 = r"^(([0-9a-fA-F]{1,4}:){7,7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:)|fe80:(:[0-9a-fA-F]{0,4}){0,4}%[0-9a-zA-Z]{1,}|::(ffff(:0{1,4}){0,1}:){0,1}((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])|([0-9a-fA-F]{1,4}:){1,4}:((25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])\.){3,3}(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9]))$";
    let spec =
        ok(&json!({"type": "object", "properties": {"ip": {"type": "string", "pattern": ipv6}}}));
    assert!(check_field(&spec.fields[0], &RawInput::Text("fe80::1%eth0".into())).is_ok());
    let err = check_field(&spec.fields[0], &RawInput::Text("fe80:::x".into())).unwrap_err();
    assert_eq!(err.code, ErrorCode::Pattern);
}

#[test]
fn text_longer_than_the_pattern_text_cap_is_a_pattern_error_in_words() {
    let spec = ok(
        &json!({"type": "object", "properties": {"x": {"type": "string", "pattern": "^(?:[^z]|a)*$"}}}),
    );
    let field = &spec.fields[0];
    let longest = "\u{e9}".repeat(MAX_PATTERN_TEXT_LEN);
    assert!(check_field(field, &RawInput::Text(longest.clone())).is_ok());
    let err = check_field(field, &RawInput::Text(longest + "a")).unwrap_err();
    assert_eq!(err.code, ErrorCode::Pattern);
    assert!(
        err.message.contains(&MAX_PATTERN_TEXT_LEN.to_string()),
        "{}",
        err.message
    );
}

/// The compiled form carries the compiled pattern: every check of every copy of the field
/// uses it, nothing is compiled again.
#[test]
fn the_compiled_pattern_is_part_of_the_compiled_form() {
    let spec = ok(
        &json!({"type": "object", "properties": {"x": {"type": "string", "pattern": "^[A-Z]{3}$"}}}),
    );
    let copy = spec.fields[0].clone();
    match &copy.kind {
        FieldKind::String {
            pattern: Some(p), ..
        } => {
            assert_eq!(p.as_str(), "^[A-Z]{3}$");
            assert!(p.is_match("ABC"));
            assert!(!p.is_match("abc"));
        }
        other => panic!("{other:?}"),
    }
    // It serialises as the source text, as before.
    let js = serde_json::to_value(&spec).unwrap();
    assert_eq!(js["fields"][0]["pattern"], json!("^[A-Z]{3}$"));
}

/// A list with both a repeat and a choice of the wrong kind is refused at whichever comes
/// first, short lists (searched in order) and long ones (sorted) alike.
#[test]
fn a_repeat_and_a_wrong_choice_are_refused_in_list_order() {
    for n in [4, 40] {
        let tail: Vec<Value> = names("t", n).into_iter().map(Value::from).collect();
        let with =
            |head: Vec<Value>| -> Vec<Value> { head.into_iter().chain(tail.clone()).collect() };
        let one = |list: Vec<Value>| json!({"type": "object", "properties": {"s": {"type": "string", "enum": list}}});
        refused_at(
            &one(with(vec!["a".into(), "a".into(), 1.into()])),
            "/properties/s/enum/1",
            "more than once",
        );
        refused_at(
            &one(with(vec!["a".into(), 1.into(), "a".into()])),
            "/properties/s/enum/1",
            "must be a string",
        );
        // The repeat of a later name, after the first repeat of an earlier one.
        let mut list = with(vec!["a".into(), "b".into()]);
        list.extend([Value::from("t1"), Value::from("a")]);
        refused_at(
            &one(list),
            &format!("/properties/s/enum/{}", n + 2),
            "\"t1\"",
        );

        let titled = |c: &str| json!({"const": c, "title": c});
        let tail: Vec<Value> = names("t", n).iter().map(|c| titled(c)).collect();
        let with =
            |head: Vec<Value>| -> Vec<Value> { head.into_iter().chain(tail.clone()).collect() };
        let one = |list: Vec<Value>| json!({"type": "object", "properties": {"s": {"type": "string", "oneOf": list}}});
        refused_at(
            &one(with(vec![titled("a"), titled("a"), json!({})])),
            "/properties/s/oneOf/1",
            "more than once",
        );
        refused_at(
            &one(with(vec![titled("a"), json!({}), titled("a")])),
            "/properties/s/oneOf/1",
            "no \"const\"",
        );
        refused_at(
            &one(with(vec![titled("a"), json!({"const": "a", "title": 5})])),
            "/properties/s/oneOf/1/title",
            "",
        );
        let mut list = with(vec![titled("a"), titled("b")]);
        list.extend([titled("t1"), titled("a")]);
        refused_at(
            &one(list),
            &format!("/properties/s/oneOf/{}", n + 2),
            "\"t1\"",
        );
    }
}
