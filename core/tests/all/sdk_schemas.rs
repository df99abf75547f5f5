//! The schemas the real Python SDK (mcp==2.3.0) emits for `ctx.elicit`, rendered by
//! `tests/sdk_schemas/render.py` with the SDK's own `render_elicitation_schema`: every one
//! the SDK accepts compiles here, its valid answers round-trip unchanged, the answers its
//! pydantic model rejects are rejected here too, and what the SDK refuses we refuse.

use mcp_elicit::schema::compile;
use mcp_elicit::validate::validate_content;
use serde_json::Value;

const FIXTURE: &str = include_str!("../fixtures/sdk_schemas.json");

fn cases() -> Vec<Value> {
    let doc: Value = serde_json::from_str(FIXTURE).unwrap_or_else(|e| panic!("fixture: {e}"));
    let cases = doc["cases"].as_array().cloned().unwrap_or_default();
    assert!(cases.len() >= 9, "fixture lost cases: {}", cases.len());
    cases
}

#[test]
fn every_sdk_schema_compiles_and_round_trips_valid_answers() {
    let mut answers = 0;
    for case in cases().iter().filter(|c| c["sdkRefused"] == false) {
        let name = &case["name"];
        let spec = compile(&case["schema"]).unwrap_or_else(|e| panic!("{name}: refused: {e}"));
        let props = case["schema"]["properties"]
            .as_object()
            .map_or(0, |p| p.len());
        assert_eq!(spec.fields.len(), props, "{name}");
        for answer in case["valid"].as_array().into_iter().flatten() {
            match validate_content(&spec, answer) {
                Ok(out) => assert_eq!(&Value::Object(out), answer, "{name}"),
                Err(e) => panic!("{name}: {answer} rejected: {e:?}"),
            }
            answers += 1;
        }
        for answer in case["invalid"].as_array().into_iter().flatten() {
            let errs = validate_content(&spec, answer).err();
            assert!(
                errs.is_some_and(|e| !e.is_empty()),
                "{name}: the SDK's model rejects {answer} but we accepted it"
            );
        }
    }
    assert!(answers >= 10, "only {answers} answers checked");
}

#[test]
fn what_the_sdk_refuses_we_refuse() {
    let expected = [
        ("WithAddress", "/properties/address/$ref"),
        ("BareList", "/properties/tags/items"),
        ("Union", "/properties/value"),
    ];
    let refused: Vec<Value> = cases()
        .into_iter()
        .filter(|c| c["sdkRefused"] == true)
        .collect();
    assert_eq!(refused.len(), expected.len());
    for (name, path) in expected {
        let case = refused
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no {name} case"));
        assert!(case["sdkError"]
            .as_str()
            .is_some_and(|e| e.contains("not a valid")));
        match compile(&case["schema"]) {
            Ok(spec) => panic!("{name}: we accepted what the SDK refuses: {spec:?}"),
            Err(e) => assert_eq!(e.path, path, "{name}: {}", e.message()),
        }
    }
}
