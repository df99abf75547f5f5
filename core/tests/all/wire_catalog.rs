//! Prompts, resources and resource templates as listed by a server, and the forms and
//! URIs a client makes of them.

use mcp_elicit::schema::compile;
use mcp_elicit::wire::{
    from_raw, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

fn raw(v: Value) -> Box<RawValue> {
    RawValue::from_string(v.to_string()).unwrap()
}

#[test]
fn a_prompt_list_gives_a_flat_form_of_its_arguments() {
    let list: ListPromptsResult = from_raw(
        &raw(
            json!({"prompts":[{"name":"trip_brief","description":"A trip-planning prompt",
            "arguments":[{"name":"city","required":true},{"name":"style","description":"Tone"}]},
            {"name":"bare"}],"nextCursor":"p2"}),
        ),
        "prompts",
    )
    .unwrap();
    assert_eq!(list.next_cursor.as_deref(), Some("p2"));
    let spec = compile(&list.prompts[0].arguments_schema()).unwrap();
    let names: Vec<&str> = spec.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["city", "style"]);
    assert!(spec.fields[0].required);
    assert!(!spec.fields[1].required);
    assert!(compile(&list.prompts[1].arguments_schema())
        .unwrap()
        .fields
        .is_empty());
}

#[test]
fn resources_and_templates_parse_and_templates_expand() {
    let resources: ListResourcesResult = from_raw(
        &raw(json!({"resources":[{"uri":"notes://todo","name":"todo","mimeType":"text/plain"}]})),
        "resources",
    )
    .unwrap();
    assert_eq!(resources.resources[0].uri, "notes://todo");
    let templates: ListResourceTemplatesResult = from_raw(
        &raw(
            json!({"resourceTemplates":[{"uriTemplate":"notes://{name}","name":"note",
            "mimeType":"text/plain"},{"uriTemplate":"files://{dir}/{name}{?rev}","name":"file"}]}),
        ),
        "templates",
    )
    .unwrap();
    let note = &templates.resource_templates[0];
    assert_eq!(note.variables().unwrap(), ["name"]);
    let spec = compile(&note.variables_schema().unwrap()).unwrap();
    assert!(spec.fields[0].required);
    let mut values = Map::new();
    values.insert("name".into(), json!("groceries"));
    assert_eq!(note.expand(&values).unwrap(), "notes://groceries");
    // Non-ASCII stays readable (an IRI); reserved characters are percent-encoded.
    values.insert("name".into(), json!("日記 a/b"));
    assert_eq!(note.expand(&values).unwrap(), "notes://日記%20a%2Fb");
    let file = &templates.resource_templates[1];
    assert_eq!(file.variables().unwrap(), ["dir", "name", "rev"]);
}

#[test]
fn a_malformed_template_is_an_error_in_words() {
    let templates: ListResourceTemplatesResult = from_raw(
        &raw(json!({"resourceTemplates":[{"uriTemplate":"notes://{name","name":"broken"}]})),
        "templates",
    )
    .unwrap();
    let err = templates.resource_templates[0].variables().unwrap_err();
    assert!(err.contains("notes://{name"), "{err}");
    assert!(templates.resource_templates[0].expand(&Map::new()).is_err());
}
