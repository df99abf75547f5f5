//! Every enum shape: untitled `enum`, legacy `enum` + `enumNames`, titled `oneOf`, and the
//! multi-select `array` of `enum` or `anyOf` items.

use super::members::{err, opt_count, opt_string, show, Pointer};
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
            let list = names.as_array().ok_or_else(|| {
                err(
                    npath,
                    format!("\"enumNames\" of \"{name}\" must be a list of strings."),
                )
            })?;
            if list.len() != values.len() {
                return Err(err(
                    npath,
                    format!(
                        "\"{name}\" has {} enumNames for {} enum values; they must match one to one.",
                        list.len(),
                        values.len()
                    ),
                ));
            }
            let mut titles = Vec::with_capacity(list.len());
            for (i, t) in list.iter().enumerate() {
                let t = t.as_str().ok_or_else(|| {
                    err(
                        format!("{npath}/{i}"),
                        format!("Each of the enumNames of \"{name}\" must be a string."),
                    )
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
    let list = v.and_then(Json::as_array).ok_or_else(|| {
        err(
            path,
            format!("The enum of \"{name}\" must be a list of strings."),
        )
    })?;
    if list.is_empty() {
        return Err(err(
            path,
            format!("The enum of \"{name}\" is empty, so there is nothing to choose."),
        ));
    }
    check_choice_count(name, list.len(), path)?;
    // The strings up to the first item that is not one; a repeat among them comes first.
    let strings: Vec<&str> = list.iter().map_while(Json::as_str).collect();
    no_repeats(name, &strings, path)?;
    if let Some(item) = list.get(strings.len()) {
        return Err(err(
            path.index(strings.len()),
            format!(
                "Each choice of \"{name}\" must be a string, not {}.",
                show(item)
            ),
        ));
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
        err(
            path,
            format!("The choices of \"{name}\" must be a list of {{const, title}} objects."),
        )
    })?;
    if list.is_empty() {
        return Err(err(
            path,
            format!("The choices of \"{name}\" are empty, so there is nothing to choose."),
        ));
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
        Some((i, value)) => Err(err(
            path.index(i),
            format!("The choice \"{value}\" of \"{name}\" appears more than once."),
        )),
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
        err(
            ipath,
            format!("Each choice of \"{name}\" must be a {{const, title}} object."),
        )
    })?;
    let value = match o.get("const") {
        Some(Json::String(s)) => s.as_ref(),
        Some(other) => {
            return Err(err(
                format!("{ipath}/const"),
                format!(
                    "Each choice of \"{name}\" must have a string const, not {}.",
                    show(other)
                ),
            ))
        }
        None => {
            return Err(err(
                ipath,
                format!("A choice of \"{name}\" has no \"const\" value."),
            ))
        }
    };
    let title = opt_string(o, "title", &ipath)?.unwrap_or_else(|| value.to_owned());
    Ok((value, title))
}

/// Refuses a list of more than [`MAX_ENUM_OPTIONS`] choices, before any is looked at.
fn check_choice_count(name: &str, len: usize, path: &Pointer<'_>) -> Result<(), SchemaError> {
    if len > MAX_ENUM_OPTIONS {
        return Err(err(
            path,
            format!(
                "\"{name}\" offers {len} choices; a field can offer at most {MAX_ENUM_OPTIONS}."
            ),
        ));
    }
    Ok(())
}

pub(super) fn multi_select_kind(
    name: &str,
    obj: &Object<'_>,
    path: &Pointer<'_>,
) -> Result<FieldKind, SchemaError> {
    let ipath = path.key("items");
    let no_choices = || {
        err(
            ipath,
            format!("\"{name}\" is an array without a fixed list of string choices; only multi-select arrays (items with enum or anyOf) are supported."),
        )
    };
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
                return Err(err(
                    format!("{ipath}/type"),
                    format!("The choices of \"{name}\" must be strings."),
                ))
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
            return Err(err(
                format!("{path}/maxItems"),
                format!("\"{name}\" has maxItems {hi} below its minItems {lo}, so no answer fits."),
            ));
        }
    }
    Ok(FieldKind::MultiSelect {
        options,
        min_items,
        max_items,
    })
}
