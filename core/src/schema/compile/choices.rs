//! Every enum shape: untitled `enum`, legacy `enum` + `enumNames`, titled `oneOf`, and the
//! multi-select `array` of `enum` or `anyOf` items.

use super::members::{err, opt_count, opt_string, Pointer};
use crate::schema::error::Refusal;
use crate::schema::form::{EnumOption, FieldKind};
use crate::schema::json::{Json, Object};
use crate::schema::names::first_repeat;
use crate::schema::SchemaError;

/// The most choices one select or multi-select may offer: 50,000. Long lists are real (files,
/// accounts, time zones): `elicit()` puts a card of 20,000 checkboxes on screen in about
/// 0.8 s in headless Chromium, and one of 50,000 in about 2 s. Each choice is a control, so a
/// list bounded only by the 16 MiB message could freeze the page.
/// More are refused at the list (`enum`, `oneOf` or `anyOf`).
pub const MAX_ENUM_OPTIONS: usize = 50_000;

/// Untitled `enum`, or the legacy `enum` + `enumNames`.
pub(super) fn enum_options(
    name: &str,
    obj: &Object<'_>,
    path: &Pointer<'_>,
) -> Result<Vec<EnumOption>, SchemaError> {
    let values = string_list(name, obj.get("enum"), &path.key("enum"))?;
    let titles = match obj.get("enumNames") {
        None => None,
        Some(names) => {
            let npath = path.key("enumNames");
            let list = names
                .as_array()
                .ok_or_else(|| err(npath, Refusal::EnumNamesNotList).name(name))?;
            if list.len() != values.len() {
                return Err(err(npath, Refusal::EnumNamesCount)
                    .name(name)
                    .count("names", list.len() as u64)
                    .count("values", values.len() as u64));
            }
            let mut titles = Vec::with_capacity(list.len());
            for (i, t) in list.iter().enumerate() {
                let t = t.as_str().ok_or_else(|| {
                    err(format!("{npath}/{i}"), Refusal::EnumNameNotString).name(name)
                })?;
                titles.push(t.to_owned());
            }
            Some(titles)
        }
    };
    Ok(match titles {
        Some(titles) => values
            .into_iter()
            .zip(titles)
            .map(|(value, title)| EnumOption { value, title })
            .collect(),
        None => values
            .into_iter()
            .map(|value| EnumOption {
                title: value.clone(),
                value,
            })
            .collect(),
    })
}

/// A non-empty list of distinct strings (an `enum`).
fn string_list(
    name: &str,
    v: Option<&Json<'_>>,
    path: &Pointer<'_>,
) -> Result<Vec<String>, SchemaError> {
    let list = v
        .and_then(Json::as_array)
        .ok_or_else(|| err(path, Refusal::EnumNotList).name(name))?;
    if list.is_empty() {
        return Err(err(path, Refusal::EnumEmpty).name(name));
    }
    check_choice_count(name, list.len(), path)?;
    // The strings up to the first item that is not one; a repeat among them comes first.
    let strings: Vec<&str> = list.iter().map_while(Json::as_str).collect();
    no_repeats(name, &strings, path)?;
    if let Some(item) = list.get(strings.len()) {
        return Err(err(path.index(strings.len()), Refusal::ChoiceNotString)
            .name(name)
            .found(item));
    }
    Ok(strings.into_iter().map(str::to_owned).collect())
}

/// A non-empty list of `{const, title}` (a titled `oneOf` or `anyOf`). A missing title falls
/// back to the value, so a sloppy server still gets a usable form.
pub(super) fn titled_options(
    name: &str,
    v: Option<&Json<'_>>,
    path: &Pointer<'_>,
) -> Result<Vec<EnumOption>, SchemaError> {
    let list = v.and_then(Json::as_array).ok_or_else(|| {
        err(path, Refusal::ChoicesNotList)
            .name(name)
            .text("shape", "{const, title}")
    })?;
    if list.is_empty() {
        return Err(err(path, Refusal::ChoicesEmpty).name(name));
    }
    check_choice_count(name, list.len(), path)?;
    let mut out: Vec<EnumOption> = Vec::with_capacity(list.len());
    let mut values: Vec<&str> = Vec::with_capacity(list.len());
    // The choices up to the first refused one; a repeat among them comes before its refusal.
    let mut refused = None;
    for (i, item) in list.iter().enumerate() {
        match titled_option(name, item, path.index(i)) {
            Ok((value, title)) => {
                values.push(value);
                out.push(EnumOption {
                    value: value.to_owned(),
                    title,
                });
            }
            Err(e) => {
                refused = Some(e);
                break;
            }
        }
    }
    no_repeats(name, &values, path)?;
    refused.map_or(Ok(out), Err)
}

/// Refuses the first of `values` (a list's choices, at `path`) that repeats an earlier one.
fn no_repeats(name: &str, values: &[&str], path: &Pointer<'_>) -> Result<(), SchemaError> {
    match first_repeat(values).and_then(|i| Some((i, values.get(i)?))) {
        Some((i, value)) => Err(err(path.index(i), Refusal::ChoiceRepeated)
            .name(name)
            .text("value", value)),
        None => Ok(()),
    }
}

/// One `{const, title}` of [`titled_options`]: its value and title.
fn titled_option<'j>(
    name: &str,
    item: &'j Json<'_>,
    ipath: Pointer<'_>,
) -> Result<(&'j str, String), SchemaError> {
    let o = item.as_object().ok_or_else(|| {
        err(ipath, Refusal::ChoiceNotObject)
            .name(name)
            .text("shape", "{const, title}")
    })?;
    let value = match o.get("const") {
        Some(Json::String(s)) => s.as_ref(),
        Some(other) => {
            return Err(err(format!("{ipath}/const"), Refusal::ChoiceConstNotString)
                .name(name)
                .found(other))
        }
        None => return Err(err(ipath, Refusal::ChoiceNoConst).name(name)),
    };
    let title = opt_string(o, "title", &ipath)?.unwrap_or_else(|| value.to_owned());
    Ok((value, title))
}

/// Refuses a list of more than [`MAX_ENUM_OPTIONS`] choices, before any is looked at.
fn check_choice_count(name: &str, len: usize, path: &Pointer<'_>) -> Result<(), SchemaError> {
    if len > MAX_ENUM_OPTIONS {
        return Err(err(path, Refusal::TooManyChoices)
            .name(name)
            .count("count", len as u64)
            .count("max", MAX_ENUM_OPTIONS as u64));
    }
    Ok(())
}

pub(super) fn multi_select_kind(
    name: &str,
    obj: &Object<'_>,
    path: &Pointer<'_>,
) -> Result<FieldKind, SchemaError> {
    let ipath = path.key("items");
    let no_choices = || err(ipath, Refusal::ArrayWithoutChoices).name(name);
    let items = obj
        .get("items")
        .and_then(Json::as_object)
        .ok_or_else(no_choices)?;
    let options = if items.contains_key("anyOf") {
        titled_options(name, items.get("anyOf"), &ipath.key("anyOf"))?
    } else if items.contains_key("enum") {
        match items.get("type") {
            Some(Json::String(t)) if t == "string" => {}
            None => {}
            Some(_) => {
                return Err(err(format!("{ipath}/type"), Refusal::ChoicesNotStrings).name(name))
            }
        }
        string_list(name, items.get("enum"), &ipath.key("enum"))?
            .into_iter()
            .map(|value| EnumOption {
                title: value.clone(),
                value,
            })
            .collect()
    } else {
        return Err(no_choices());
    };
    let min_items = opt_count(obj, "minItems", path)?;
    let max_items = opt_count(obj, "maxItems", path)?;
    if let (Some(lo), Some(hi)) = (min_items, max_items) {
        if lo > hi {
            return Err(err(format!("{path}/maxItems"), Refusal::ItemsBounds)
                .name(name)
                .count("max", hi)
                .count("min", lo));
        }
    }
    Ok(FieldKind::MultiSelect {
        options,
        min_items,
        max_items,
    })
}
