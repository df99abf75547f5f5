//! The compiler itself: walks a raw `requestedSchema` once, in property order, and either
//! builds a [`FormSpec`] or stops at the first part it cannot honour.
//!
//! Refusing is deliberate: a form that silently drops a nested object or a union would collect
//! an answer the server cannot use, so the user would fill it in for nothing.
//!
//! This file reads the root and dispatches each property by its `type`; one file per job
//! below it: [`strings`] (text fields and the form's pattern budget), [`choices`] (every enum
//! shape, single and multi), [`numbers`] (bounds), [`defaults`] (a default's kind), and
//! [`members`] (reading optional members, and the refusal in words).

mod choices;
mod defaults;
mod members;
mod numbers;
mod strings;

use super::error::Refusal;
use super::form::{Field, FieldKind, FormSpec};
use super::SchemaError;
use crate::schema::json::{Json, Object};
use crate::schema::names::Names;
use choices::multi_select_kind;
pub use choices::MAX_ENUM_OPTIONS;
use defaults::check_default;
use members::{err, opt_string_kept, Pointer};
use numbers::bounds;
use serde_json::Value;
use strings::{string_kind, PatternBudget};

/// The most properties one schema may have: 1,000. A person fills a form field by field; far
/// fewer make an unusable form already, and each property becomes controls on the page, so a
/// server sending 10^5 of them would freeze it. More are refused at `/properties`.
pub const MAX_PROPERTIES: usize = 1000;

/// The most choices the fields of one form offer together: 100,000. Each choice is a
/// control on the page (an option, a checkbox row), and [`MAX_ENUM_OPTIONS`] bounds one
/// list only: 45 multi-selects of 50,000 short values fit in one 16 MiB message, 2.25
/// million rows built in one pass. 100,000 is two lists at [`MAX_ENUM_OPTIONS`] (a source
/// and a destination picked from one long list), a card of about 4 s in headless Chromium
/// at the rate [`MAX_ENUM_OPTIONS`] gives. More are refused at `/properties`, once the field
/// that goes over has been read.
pub const MAX_FORM_CHOICES: usize = 100_000;

/// The work one compile did, as [`compile_counting`] counts it: for tests that bound the
/// cost of hostile schemas by what was done rather than by a clock.
#[doc(hidden)]
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CompileWork {
    /// Steps reading and compiling the form's patterns
    /// ([`MAX_COMPILE_STEPS`](crate::schema::MAX_COMPILE_STEPS)).
    pub pattern_steps: usize,
    /// Choices of the fields compiled.
    pub choices: usize,
}

/// [`compile`], also saying the work it did ([`CompileWork`]).
#[doc(hidden)]
pub fn compile_counting(schema: &Value) -> (Result<FormSpec, SchemaError>, CompileWork) {
    let mut work = CompileWork::default();
    let spec = compile_json_counting(&Json::from_value(schema), Purpose::Form, &mut work);
    (spec, work)
}

/// Compiles a raw `requestedSchema` into a [`FormSpec`], or refuses it with a precise error.
///
/// See the [module docs](super) for what is accepted, ignored and refused.
pub fn compile(schema: &Value) -> Result<FormSpec, SchemaError> {
    compile_json(&Json::from_value(schema), Purpose::Form)
}

/// What a compiled [`FormSpec`] is for, and so what it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// Showing a form: everything the schema says.
    Form,
    /// Only checking content (`validateContent`, `compileValidator`): the form's and each
    /// field's `title` and `description`, and each `default`, are checked exactly as for
    /// [`Purpose::Form`] (the same refusals, in the same order) but not kept: each `label`
    /// is empty, and `description`, `default` and the form's `title` and `description` are
    /// `None`. No check reads them (the choices' titles, which messages quote, are kept).
    /// Not copying them saves up to three allocations a field.
    // Natively only the tests ask for it: the JS API (wasm32) is what does.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    #[cfg_attr(not(feature = "js-api"), allow(dead_code))]
    Check,
}

/// [`compile`] over a schema read by [`Json::parse`] (the JS API's way in), keeping what
/// `purpose` needs.
pub(crate) fn compile_json(schema: &Json<'_>, purpose: Purpose) -> Result<FormSpec, SchemaError> {
    compile_json_counting(schema, purpose, &mut CompileWork::default())
}

fn compile_json_counting(
    schema: &Json<'_>,
    purpose: Purpose,
    work: &mut CompileWork,
) -> Result<FormSpec, SchemaError> {
    let keep = purpose == Purpose::Form;
    let root = schema
        .as_object()
        .ok_or_else(|| err("", Refusal::NotObject))?;
    match root.get("type") {
        None => {}
        Some(Json::String(t)) if t == "object" => {}
        Some(other) => return Err(err("/type", Refusal::RootType).found(other)),
    }
    let title = opt_string_kept(root, "title", &Pointer::Root, keep)?;
    let description = opt_string_kept(root, "description", &Pointer::Root, keep)?;
    let empty = Object::default();
    let properties = match root.get("properties") {
        None => &empty,
        Some(Json::Object(p)) => p,
        Some(_) => return Err(err("/properties", Refusal::PropertiesNotObject)),
    };
    if properties.len() > MAX_PROPERTIES {
        return Err(err("/properties", Refusal::TooManyProperties)
            .count("count", properties.len() as u64)
            .count("max", MAX_PROPERTIES as u64));
    }
    let required = required_names(root, properties)?;

    let mut fields = Vec::with_capacity(properties.len());
    // Field by field: each pattern compiles within what the form has left of its budget,
    // so neither the time nor the memory of a form's patterns goes beyond it.
    let mut budget = PatternBudget::default();
    let mut choices = 0usize;
    for (name, prop) in properties.iter() {
        let path = Pointer::Property(name);
        let compiled = compile_field(
            name,
            prop,
            required.contains(name),
            &path,
            keep,
            &mut budget,
        );
        work.pattern_steps = budget.steps;
        let field = compiled?;
        choices = choices.saturating_add(choice_count(&field.kind));
        work.choices = choices;
        if choices > MAX_FORM_CHOICES {
            return Err(err("/properties", Refusal::TooManyFormChoices)
                .name(name)
                .count("count", choices as u64)
                .count("max", MAX_FORM_CHOICES as u64));
        }
        fields.push(field);
    }
    Ok(FormSpec {
        title,
        description,
        fields,
    })
}

/// The choices a field offers (0 for one that is not a select).
fn choice_count(kind: &FieldKind) -> usize {
    match kind {
        FieldKind::Select { options } | FieldKind::MultiSelect { options, .. } => options.len(),
        _ => 0,
    }
}

/// Reads `required`, refusing names that are not properties: such a form could never be
/// answered, so it is better to say so than to show it. A name may be listed more than once.
fn required_names<'a>(
    root: &'a Object<'_>,
    properties: &Object<'_>,
) -> Result<Names<'a>, SchemaError> {
    let Some(req) = root.get("required") else {
        return Ok(Names::new(std::iter::empty()));
    };
    let list = req
        .as_array()
        .ok_or_else(|| err("/required", Refusal::RequiredNotList))?;
    // Ordered, as every lookup over server-sized lists here (module docs); `required` may
    // be far longer than the properties it names.
    let known = Names::new(properties.keys());
    for (i, item) in list.iter().enumerate() {
        let Some(name) = item.as_str() else {
            return Err(err(format!("/required/{i}"), Refusal::RequiredEntry));
        };
        if !known.contains(name) {
            return Err(err(format!("/required/{i}"), Refusal::RequiredUnknown).name(name));
        }
    }
    // Every entry is a name by now.
    Ok(Names::new(list.iter().filter_map(Json::as_str)))
}

fn compile_field(
    name: &str,
    prop: &Json<'_>,
    required: bool,
    path: &Pointer<'_>,
    keep: bool,
    budget: &mut PatternBudget,
) -> Result<Field, SchemaError> {
    let obj = prop
        .as_object()
        .ok_or_else(|| err(path, Refusal::FieldNotObject).name(name))?;
    if obj.contains_key("$ref") {
        return Err(err(format!("{path}/$ref"), Refusal::Ref).name(name));
    }
    let ty = match obj.get("type") {
        None => return Err(err(path, Refusal::NoType).name(name)),
        Some(Json::String(t)) => t.as_ref(),
        Some(Json::Array(_)) => {
            return Err(err(format!("{path}/type"), Refusal::SeveralTypes).name(name))
        }
        Some(other) => {
            return Err(err(format!("{path}/type"), Refusal::TypeNotString)
                .name(name)
                .found(other))
        }
    };
    let kind = match ty {
        "string" => string_kind(name, obj, path, budget)?,
        "number" => FieldKind::Number(bounds(obj, path)?),
        "integer" => FieldKind::Integer(bounds(obj, path)?),
        "boolean" => FieldKind::Boolean,
        "array" => multi_select_kind(name, obj, path)?,
        "object" => return Err(err(path, Refusal::Nested).name(name)),
        other => {
            return Err(err(format!("{path}/type"), Refusal::UnknownType)
                .name(name)
                .text("type", other))
        }
    };
    let title = opt_string_kept(obj, "title", path, keep)?;
    let label = match title {
        Some(title) => title,
        None if keep => name.to_owned(),
        None => String::new(),
    };
    let description = opt_string_kept(obj, "description", path, keep)?;
    let default = match obj.get("default") {
        None => None,
        Some(d) => {
            check_default(name, &kind, d, path)?;
            keep.then(|| d.to_value_without_objects()).flatten()
        }
    };
    Ok(Field {
        name: name.to_owned(),
        label,
        description,
        required,
        default,
        kind,
    })
}

// Native only: proptest does not build for wasm32 (core/Cargo.toml).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::validate::{check_content, defaults};
    use proptest::prelude::*;
    use serde_json::json;

    /// What `Purpose::Check` keeps of a `Purpose::Form` spec.
    fn check_part(mut spec: FormSpec) -> FormSpec {
        spec.title = None;
        spec.description = None;
        for f in &mut spec.fields {
            f.label.clear();
            f.description = None;
            f.default = None;
        }
        spec
    }

    /// `schema` with its shown text blanked, as the JS API's crossing writes it for a
    /// Check compile (`ShownText` in core/src/js.rs): each `title` and `description` that
    /// is text, of the schema itself and of each property's schema, made `""`.
    fn shown_text_blanked(schema: &Value) -> Value {
        fn blank(o: &mut serde_json::Map<String, Value>) {
            for key in ["title", "description"] {
                if let Some(Value::String(text)) = o.get_mut(key) {
                    text.clear();
                }
            }
        }
        let mut schema = schema.clone();
        if let Some(root) = schema.as_object_mut() {
            blank(root);
            if let Some(Value::Object(props)) = root.get_mut("properties") {
                props
                    .values_mut()
                    .filter_map(Value::as_object_mut)
                    .for_each(blank);
            }
        }
        schema
    }

    /// Both purposes refuse alike, keep alike (but for what Check drops), and check every
    /// content alike. Check also answers alike without the schema's shown text, which
    /// the JS API leaves out for it.
    fn purposes_agree(schema: &Value, contents: &[Value]) -> Result<(), TestCaseError> {
        let blanked = shown_text_blanked(schema);
        prop_assert_eq!(
            compile_json(&Json::from_value(schema), Purpose::Check),
            compile_json(&Json::from_value(&blanked), Purpose::Check),
            "Check reads no shown text"
        );
        let json = Json::from_value(schema);
        match (
            compile_json(&json, Purpose::Form),
            compile_json(&json, Purpose::Check),
        ) {
            (Ok(form), Ok(check)) => {
                let mut contents = contents.to_vec();
                contents.push(Value::Object(defaults(&form)));
                for content in &contents {
                    let content = Json::from_value(content);
                    prop_assert_eq!(
                        check_content(&form, &content),
                        check_content(&check, &content)
                    );
                }
                prop_assert_eq!(check_part(form), check);
            }
            (Err(form), Err(check)) => prop_assert_eq!(form, check),
            (form, check) => {
                return Err(TestCaseError::fail(format!(
                    "Form: {:?}, Check: {:?}",
                    form.map(|_| ()),
                    check.map(|_| ())
                )))
            }
        }
        Ok(())
    }

    #[test]
    fn check_purpose_agrees_on_the_sdk_schemas() {
        let fixture: Value =
            serde_json::from_str(include_str!("../../../tests/fixtures/sdk_schemas.json"))
                .unwrap_or_default();
        let cases = fixture["cases"].as_array().cloned().unwrap_or_default();
        assert!(cases.len() >= 9, "the SDK fixture has its cases");
        for case in &cases {
            let contents = [json!({}), json!({"x": 1}), json!(null)];
            if let Err(e) = purposes_agree(&case["schema"], &contents) {
                panic!("{}: {e}", case["name"]);
            }
        }
    }

    /// A member value that is sometimes text and sometimes anything else.
    fn member() -> impl Strategy<Value = Option<Value>> {
        proptest::option::of(prop_oneof![
            3 => "[a-z ]{0,6}".prop_map(Value::from),
            1 => Just(json!(3)),
            1 => Just(json!(null)),
            1 => Just(json!(["a"])),
            1 => Just(json!(true)),
        ])
    }

    fn property() -> impl Strategy<Value = Value> {
        (0u8..6, member(), member(), member()).prop_map(|(kind, title, description, default)| {
            let mut p = match kind {
                0 => json!({"type": "string", "minLength": 1}),
                1 => json!({"type": "string", "format": "date"}),
                2 => json!({"type": "integer", "maximum": 5}),
                3 => json!({"type": "boolean"}),
                4 => json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}, {"const": "b"}]}),
                _ => json!({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}),
            };
            if let Some(o) = p.as_object_mut() {
                for (key, value) in [("title", title), ("description", description), ("default", default)] {
                    if let Some(v) = value {
                        o.insert(key.into(), v);
                    }
                }
            }
            p
        })
    }

    proptest! {
        #[test]
        fn check_purpose_agrees_with_form(
            props in proptest::collection::vec(("[a-c]", property(), any::<bool>()), 0..5),
            title in member(),
            description in member(),
            content in proptest::collection::btree_map("[a-d]", member(), 0..4),
        ) {
            let mut schema = json!({
                "type": "object",
                "properties": props.iter().map(|(n, p, _)| (n.clone(), p.clone())).collect::<serde_json::Map<_, _>>(),
                "required": props.iter().filter(|p| p.2).map(|p| p.0.clone()).collect::<Vec<_>>(),
            });
            if let Some(o) = schema.as_object_mut() {
                if let Some(t) = title { o.insert("title".into(), t); }
                if let Some(d) = description { o.insert("description".into(), d); }
            }
            let content: serde_json::Map<String, Value> = content
                .into_iter()
                .map(|(k, v)| (k, v.unwrap_or(Value::Null)))
                .collect();
            purposes_agree(&schema, &[Value::Object(content)])?;
        }
    }
}
