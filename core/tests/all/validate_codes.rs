//! Every validation code, through `validate_content`, `check_field` and `coerce_form`.

use mcp_elicit::schema::{compile, Field, FormSpec};
use mcp_elicit::validate::{
    check_field, coerce_form, default_input, defaults, input_for_value, validate_content,
    ErrorCode, FieldError, RawInput,
};
use serde_json::{json, Map, Value};

fn spec(schema: Value) -> FormSpec {
    compile(&schema).unwrap_or_else(|e| panic!("{schema} should compile: {e}"))
}

fn field(prop: Value) -> Field {
    let s = spec(json!({"type":"object","properties":{"x":prop},"required":["x"]}));
    s.fields
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no field"))
}

fn optional(prop: Value) -> Field {
    let s = spec(json!({"type":"object","properties":{"x":prop}}));
    s.fields
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no field"))
}

/// The one error `validate_content` gives for `{"x": value}` under a required `x: prop`.
fn code(prop: Value, value: Value) -> FieldError {
    let s = spec(json!({"type":"object","properties":{"x":prop},"required":["x"]}));
    match validate_content(&s, &json!({ "x": value })) {
        Ok(c) => panic!("{value} should fail, got {c:?}"),
        Err(errs) => {
            assert_eq!(errs.len(), 1, "{errs:?}");
            errs.into_iter()
                .next()
                .unwrap_or_else(|| panic!("no error"))
        }
    }
}

fn passes(prop: Value, value: Value) {
    let s = spec(json!({"type":"object","properties":{"x":prop}}));
    let content = json!({ "x": value });
    match validate_content(&s, &content) {
        Ok(out) => assert_eq!(Value::Object(out), content),
        Err(e) => panic!("{content} should pass: {e:?}"),
    }
}

fn text(s: &str) -> RawInput {
    RawInput::Text(s.into())
}

#[test]
fn required() {
    let s = spec(
        json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"boolean"}},"required":["a","b"]}),
    );
    let errs = validate_content(&s, &json!({})).err().unwrap_or_default();
    assert_eq!(errs.len(), 2);
    assert!(errs.iter().all(|e| e.code == ErrorCode::Required));
    assert_eq!(errs[0].field, "a");
    assert_eq!(errs[0].message, "This field is required.");
    assert_eq!(errs[1].field, "b");
}

#[test]
fn type_errors() {
    assert_eq!(
        code(json!({"type":"string"}), json!(1)).code,
        ErrorCode::Type
    );
    assert_eq!(
        code(json!({"type":"number"}), json!("1")).code,
        ErrorCode::Type
    );
    assert_eq!(
        code(json!({"type":"integer"}), json!(1.5)).code,
        ErrorCode::Type
    );
    assert_eq!(
        code(json!({"type":"integer"}), json!(1.5)).message,
        "Must be a whole number."
    );
    assert_eq!(
        code(json!({"type":"boolean"}), json!("true")).code,
        ErrorCode::Type
    );
    assert_eq!(
        code(json!({"type":"string","enum":["a"]}), json!(["a"])).code,
        ErrorCode::Type
    );
    assert_eq!(
        code(json!({"type":"array","items":{"enum":["a"]}}), json!("a")).code,
        ErrorCode::Type
    );
    assert_eq!(
        code(json!({"type":"array","items":{"enum":["a"]}}), json!([1])).code,
        ErrorCode::Type
    );
    assert_eq!(
        code(json!({"type":"string"}), Value::Null).code,
        ErrorCode::Type
    );
    passes(json!({"type":"integer"}), json!(3.0));
    passes(json!({"type":"integer"}), json!(-7));
    passes(json!({"type":"number"}), json!(2.5));
    passes(json!({"type":"boolean"}), json!(false));
}

#[test]
fn lengths_count_code_points() {
    let e = code(
        json!({"type":"string","maxLength":10}),
        json!("elevenchars"),
    );
    assert_eq!(e.code, ErrorCode::MaxLength);
    assert_eq!(e.message, "Must be at most 10 characters.");
    let e = code(json!({"type":"string","minLength":3}), json!("ab"));
    assert_eq!(e.code, ErrorCode::MinLength);
    assert_eq!(e.message, "Must be at least 3 characters.");
    // Four code points, eight UTF-16 units, sixteen bytes.
    passes(json!({"type":"string","maxLength":4}), json!("😀😀😀😀"));
    assert_eq!(
        code(json!({"type":"string","maxLength":3}), json!("😀😀😀😀")).code,
        ErrorCode::MaxLength
    );
    passes(json!({"type":"string","minLength":2}), json!("é😀"));
}

#[test]
fn pattern_is_an_unanchored_search() {
    passes(json!({"type":"string","pattern":"[0-9]"}), json!("abc1"));
    let e = code(
        json!({"type":"string","pattern":"^[A-Z]{3}$"}),
        json!("ABCD"),
    );
    assert_eq!(e.code, ErrorCode::Pattern);
    assert!(e.message.contains("^[A-Z]{3}$"));
}

#[test]
fn formats() {
    for (f, good, bad) in [
        ("email", "ada@example.com", "ada@"),
        ("uri", "https://example.com/x", "example.com"),
        ("date", "2025-12-26", "26/12/2025"),
        ("date-time", "2025-12-26T19:30:00+01:00", "2025-12-26T19:30"),
    ] {
        passes(json!({"type":"string","format":f}), json!(good));
        let e = code(json!({"type":"string","format":f}), json!(bad));
        assert_eq!(e.code, ErrorCode::Format, "{f} {bad}");
        assert!(e.message.starts_with("Must be"), "{}", e.message);
    }
    assert_eq!(
        code(
            json!({"type":"string","format":"date"}),
            json!("2025-02-29")
        )
        .code,
        ErrorCode::Format
    );
    passes(
        json!({"type":"string","format":"date"}),
        json!("2024-02-29"),
    );
}

#[test]
fn minimum_and_maximum() {
    let e = code(json!({"type":"integer","minimum":1}), json!(0));
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::Minimum, "Must be at least 1.")
    );
    let e = code(json!({"type":"number","maximum":2.5}), json!(3));
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::Maximum, "Must be at most 2.5.")
    );
    let e = code(json!({"type":"number","exclusiveMinimum":0}), json!(0));
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::Minimum, "Must be greater than 0.")
    );
    let e = code(json!({"type":"number","exclusiveMaximum":10}), json!(10));
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::Maximum, "Must be less than 10.")
    );
    passes(json!({"type":"integer","minimum":1,"maximum":1}), json!(1));
}

#[test]
fn enum_membership() {
    let e = code(
        json!({"type":"string","oneOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]}),
        json!("b"),
    );
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::Enum, "Must be one of: Red, Green.")
    );
    let e = code(
        json!({"type":"array","items":{"enum":["a","b"]}}),
        json!(["a", "z"]),
    );
    assert_eq!(e.code, ErrorCode::Enum);
    let e = code(
        json!({"type":"array","items":{"enum":["a","b"]}}),
        json!(["a", "a"]),
    );
    assert_eq!(e.code, ErrorCode::Enum);
    assert!(e.message.contains("more than once"));
    passes(
        json!({"type":"string","enum":["a","b"],"enumNames":["A","B"]}),
        json!("b"),
    );
}

#[test]
fn item_counts() {
    let m = json!({"type":"array","items":{"anyOf":[{"const":"a","title":"A"},{"const":"b","title":"B"},{"const":"c","title":"C"}]},"minItems":1,"maxItems":2});
    let e = code(m.clone(), json!([]));
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::MinItems, "Choose at least 1 option.")
    );
    let e = code(m.clone(), json!(["a", "b", "c"]));
    assert_eq!(
        (e.code, e.message.as_str()),
        (ErrorCode::MaxItems, "Choose at most 2 options.")
    );
    passes(m, json!(["c", "a"]));
}

#[test]
fn unknown_fields() {
    let s = spec(json!({"type":"object","properties":{"a":{"type":"string"}}}));
    let errs = validate_content(&s, &json!({"a":"x","zz":1}))
        .err()
        .unwrap_or_default();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].code, ErrorCode::UnknownField);
    assert_eq!(errs[0].field, "zz");
    let errs = coerce_form(&s, &[("zz".into(), text("1"))])
        .err()
        .unwrap_or_default();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].code, ErrorCode::UnknownField);
}

#[test]
fn content_must_be_an_object() {
    let s = spec(json!({"type":"object","properties":{}}));
    let errs = validate_content(&s, &json!([1])).err().unwrap_or_default();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].code, ErrorCode::Type);
}

#[test]
fn one_error_per_failing_field() {
    let s = spec(json!({"type":"object","properties":{
        "a":{"type":"string","minLength":5,"pattern":"^z"},
        "b":{"type":"integer","minimum":10},
        "c":{"type":"boolean"}
    },"required":["c"]}));
    let errs = validate_content(&s, &json!({"a":"ab","b":1}))
        .err()
        .unwrap_or_default();
    let got: Vec<_> = errs.iter().map(|e| (e.field.as_str(), e.code)).collect();
    assert_eq!(
        got,
        [
            ("a", ErrorCode::MinLength),
            ("b", ErrorCode::Minimum),
            ("c", ErrorCode::Required)
        ]
    );
}

#[test]
fn check_field_coerces_text() {
    assert_eq!(
        check_field(&field(json!({"type":"integer"})), &text("42")),
        Ok(Some(json!(42)))
    );
    assert_eq!(
        check_field(&field(json!({"type":"number"})), &text(" 2.5 ")),
        Ok(Some(json!(2.5)))
    );
    assert_eq!(
        check_field(&field(json!({"type":"number"})), &text("3.0")),
        Ok(Some(json!(3)))
    );
    assert_eq!(
        check_field(&field(json!({"type":"integer"})), &text("3.5")).map_err(|e| e.code),
        Err(ErrorCode::Type)
    );
    assert_eq!(
        check_field(&field(json!({"type":"number"})), &text("abc")).map_err(|e| e.code),
        Err(ErrorCode::Type)
    );
    assert_eq!(
        check_field(&field(json!({"type":"number"})), &text("NaN")).map_err(|e| e.code),
        Err(ErrorCode::Type)
    );
    assert_eq!(
        check_field(&field(json!({"type":"number"})), &text("inf")).map_err(|e| e.code),
        Err(ErrorCode::Type)
    );
    assert_eq!(
        check_field(&field(json!({"type":"integer","maximum":5})), &text("6")).map_err(|e| e.code),
        Err(ErrorCode::Maximum)
    );
    assert_eq!(
        check_field(&field(json!({"type":"boolean"})), &RawInput::Bool(false)),
        Ok(Some(json!(false)))
    );
    assert_eq!(
        check_field(&field(json!({"type":"string","enum":["a"]})), &text("a")),
        Ok(Some(json!("a")))
    );
    assert_eq!(
        check_field(&field(json!({"type":"string","enum":["a"]})), &text("b")).map_err(|e| e.code),
        Err(ErrorCode::Enum)
    );
    assert_eq!(
        check_field(
            &field(json!({"type":"array","items":{"enum":["a","b"]}})),
            &RawInput::List(vec!["b".into()])
        ),
        Ok(Some(json!(["b"])))
    );
    assert_eq!(
        check_field(&field(json!({"type":"boolean"})), &text("x")).map_err(|e| e.code),
        Err(ErrorCode::Type)
    );
    assert_eq!(
        check_field(&field(json!({"type":"string"})), &RawInput::Bool(true)).map_err(|e| e.code),
        Err(ErrorCode::Type)
    );
}

#[test]
fn empty_controls() {
    for prop in [
        json!({"type":"string"}),
        json!({"type":"number"}),
        json!({"type":"integer"}),
        json!({"type":"string","format":"date"}),
        json!({"type":"string","enum":["a"]}),
    ] {
        assert_eq!(
            check_field(&optional(prop.clone()), &text("")),
            Ok(None),
            "{prop}"
        );
        let e = check_field(&field(prop.clone()), &text("")).err();
        assert_eq!(e.map(|e| e.code), Some(ErrorCode::Required), "{prop}");
    }
    // A select whose choices include "" sends it rather than leaving the field out.
    let with_blank = json!({"type":"string","enum":["","a"]});
    assert_eq!(
        check_field(&field(with_blank), &text("")),
        Ok(Some(json!("")))
    );
    // Unticking every box of a multi-select is an answer, an empty list.
    let m = json!({"type":"array","items":{"enum":["a"]}});
    assert_eq!(
        check_field(&field(m), &RawInput::List(vec![])),
        Ok(Some(json!([])))
    );
}

#[test]
fn datetime_local_input_gets_the_offset() {
    let f = field(json!({"type":"string","format":"date-time"}));
    let raw = RawInput::LocalDateTime {
        text: "2025-12-26T19:30".into(),
        utc_offset_minutes: 60,
    };
    assert_eq!(
        check_field(&f, &raw),
        Ok(Some(json!("2025-12-26T19:30:00+01:00")))
    );
    let bad = RawInput::LocalDateTime {
        text: "2025-13-26T19:30".into(),
        utc_offset_minutes: 0,
    };
    assert_eq!(
        check_field(&f, &bad).map_err(|e| e.code),
        Err(ErrorCode::Format)
    );
    let blank = RawInput::LocalDateTime {
        text: String::new(),
        utc_offset_minutes: 0,
    };
    assert_eq!(
        check_field(&f, &blank).map_err(|e| e.code),
        Err(ErrorCode::Required)
    );
    // A text that already carries an offset is taken as is.
    assert_eq!(
        check_field(&f, &text("2025-12-26T19:30:00Z")),
        Ok(Some(json!("2025-12-26T19:30:00Z")))
    );
}

#[test]
fn coerce_form_builds_typed_content() {
    let s = spec(json!({"type":"object","properties":{
        "name":{"type":"string"},
        "age":{"type":"integer","minimum":0},
        "ok":{"type":"boolean"},
        "note":{"type":"string"},
        "tags":{"type":"array","items":{"enum":["a","b"]}}
    },"required":["name","ok"]}));
    let raw = vec![
        ("name".to_string(), text("Ada")),
        ("age".to_string(), text("36")),
        ("ok".to_string(), RawInput::Bool(true)),
        ("note".to_string(), text("")),
        ("tags".to_string(), RawInput::List(vec!["b".into()])),
    ];
    let content = coerce_form(&s, &raw).unwrap_or_default();
    assert_eq!(
        Value::Object(content.clone()),
        json!({"name":"Ada","age":36,"ok":true,"tags":["b"]})
    );
    // What coerce_form builds, validate_content accepts unchanged.
    assert_eq!(
        validate_content(&s, &Value::Object(content.clone())),
        Ok(content)
    );

    let errs = coerce_form(&s, &[("age".into(), text("-1"))])
        .err()
        .unwrap_or_default();
    let got: Vec<_> = errs.iter().map(|e| (e.field.as_str(), e.code)).collect();
    assert_eq!(
        got,
        [
            ("name", ErrorCode::Required),
            ("age", ErrorCode::Minimum),
            ("ok", ErrorCode::Required)
        ]
    );
}

#[test]
fn defaults_pre_fill_each_control() {
    let s = spec(json!({"type":"object","properties":{
        "s":{"type":"string","default":"hi"},
        "n":{"type":"number","default":1.5},
        "b":{"type":"boolean","default":true},
        "e":{"type":"string","enum":["a","b"],"default":"b"},
        "m":{"type":"array","items":{"enum":["a","b"]},"default":["a"]},
        "t":{"type":"string","format":"date-time","default":"2025-12-26T18:30:00Z"},
        "none":{"type":"string"}
    }}));
    let inputs: Vec<_> = s.fields.iter().map(|f| default_input(f, 60)).collect();
    assert_eq!(
        inputs,
        [
            Some(text("hi")),
            Some(text("1.5")),
            Some(RawInput::Bool(true)),
            Some(text("b")),
            Some(RawInput::List(vec!["a".into()])),
            Some(text("2025-12-26T19:30")),
            None,
        ]
    );
    let mut expected = Map::new();
    for f in &s.fields {
        if let Some(d) = &f.default {
            expected.insert(f.name.clone(), d.clone());
        }
    }
    assert_eq!(defaults(&s), expected);
    // A pre-filled form, submitted untouched, sends the defaults back (the date-time in the
    // user's zone, the same moment).
    let raw: Vec<(String, RawInput)> = s
        .fields
        .iter()
        .filter_map(|f| {
            let input = default_input(f, 60)?;
            let input = match (f.name.as_str(), input) {
                ("t", RawInput::Text(t)) => RawInput::LocalDateTime {
                    text: t,
                    utc_offset_minutes: 60,
                },
                (_, i) => i,
            };
            Some((f.name.clone(), input))
        })
        .collect();
    let content = coerce_form(&s, &raw).unwrap_or_default();
    assert_eq!(content.get("t"), Some(&json!("2025-12-26T19:30:00+01:00")));
    assert_eq!(content.get("n"), Some(&json!(1.5)));
    assert_eq!(content.get("m"), Some(&json!(["a"])));
    assert_eq!(input_for_value(&s.fields[0], &json!(3), 0), None);
}

#[test]
fn many_patterns_each_keep_their_meaning() {
    // More patterns than the compiled-pattern cache holds, each checked twice.
    for round in 0..2 {
        for i in 0..40 {
            let f = field(json!({"type":"string","pattern":format!("^{i}$")}));
            let hit = check_field(&f, &text(&i.to_string()));
            assert_eq!(hit, Ok(Some(json!(i.to_string()))), "round {round}");
            let miss = check_field(&f, &text(&(i + 1).to_string())).map_err(|e| e.code);
            assert_eq!(miss, Err(ErrorCode::Pattern), "round {round}");
        }
    }
}

/// A number control's text reads as Rust's `str::parse::<f64>` reads it (after the trim),
/// kept only when finite, in both builds: wasm reads it with the engine's `parseFloat`
/// after checking Rust's decimal form, native with Rust's reader. Run in wasm too.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn number_text_reads_as_rusts_float_reader() {
    let number = field(json!({"type": "number"}));
    let texts = [
        "1.5",
        "-2.25",
        "+3.5",
        ".5",
        "5.",
        "-.5e-3",
        "1.e5",
        "1E5",
        "1e+5",
        "2.5e-3",
        "0.1",
        "0.30000000000000004",
        "123456789012345678901234567890",
        "1e308",
        "1e309",
        "-1e309",
        "4.9e-324",
        "1e-400",
        "2.2250738585072011e-308",
        "9007199254740993.5",
        "1658206780088562.25",
        // More than 20 significant digits, and a tie at the 20th.
        "9007199254740993.00000000000000000001",
        "0.000001",
        " 12.5 ",
        "-0.0",
        "1_000",
        "0x10",
        "1e",
        "e5",
        ".",
        "+",
        "-",
        "1e+",
        "1.5.5",
        "1,5",
        "inf",
        "Infinity",
        "NaN",
        "nan",
        "١٢",
        "",
    ];
    for t in texts {
        let trimmed = t.trim();
        let want = match trimmed.parse::<i64>() {
            Ok(i) => Some(json!(i)),
            Err(_) => trimmed
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(|f| {
                    if f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0 {
                        json!(f as i64)
                    } else {
                        json!(f)
                    }
                }),
        };
        let got = check_field(&number, &RawInput::Text(t.to_owned()))
            .ok()
            .flatten();
        if trimmed.is_empty() {
            // An empty text is "no answer" (required: an error), not a number.
            assert!(got.is_none(), "{t:?}: {got:?}");
            continue;
        }
        assert_eq!(got, want, "{t:?}");
        // Equal numbers may differ in bits (-0 and 0): the bits say which.
        let bits = |v: &Option<Value>| v.as_ref().and_then(Value::as_f64).map(f64::to_bits);
        assert_eq!(bits(&got), bits(&want), "{t:?}");
    }
}
