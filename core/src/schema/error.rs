//! Why a schema was refused, and where: a stable code ([`Refusal`]), the data its words
//! quote ([`Arg`]) and the JSON pointer of the offending part.
//!
//! The English words live here, once, as templates with `{placeholders}`: the core's
//! `Display` (and the JS API's message) fills them, and the web crate's catalogs word the
//! same code and data in the person's language, with these templates as their English
//! (the keys are `schema.<code>`, `schema.found.<kind>` and `schema.holds.<kind>`).

use crate::words::worded;
use std::fmt;

/// A refusal: the JSON pointer (RFC 6901) of the offending part, what is wrong, and the data
/// its words quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// e.g. `/properties/address`; empty string for the root.
    pub path: String,
    pub refusal: Refusal,
    /// The data [`Refusal::english`]'s placeholders name, by name.
    pub args: Vec<(&'static str, Arg)>,
}

/// What a refusal's words quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Server text as it came: a field's name, a keyword, a choice, a type's name.
    Text(String),
    /// A count, a length or a limit.
    Count(u64),
    /// The JSON type of the value found where another was wanted.
    Found(Found),
    /// What a field holds, when its default is of another kind.
    Holds(Holds),
}

worded! {
    /// Every refusal the compiler makes, as a stable code: the JS API's `SchemaError.code`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum Refusal, key "schema." {
        NotJson => ("not_json", "The requested schema is not JSON: {detail}."),
        NotObject => ("not_object", "The requested schema must be a JSON object."),
        RootType => ("root_type", "The requested schema must have type \"object\", not {found}."),
        PropertiesNotObject => (
            "properties_not_object",
            "\"properties\" must be an object mapping field names to their schemas.",
        ),
        TooManyProperties => (
            "too_many_properties",
            "The schema has {count} properties; a form can have at most {max}.",
        ),
        TooManyFormChoices => (
            "too_many_form_choices",
            "The fields up to \"{name}\" offer {count} choices together; a form can offer at \
             most {max}.",
        ),
        RequiredNotList => ("required_not_list", "\"required\" must be a list of property names."),
        RequiredEntry => ("required_entry", "Each entry of \"required\" must be a property name."),
        RequiredUnknown => (
            "required_unknown",
            "\"{name}\" is listed as required but there is no such property.",
        ),
        FieldNotObject => ("field_not_object", "The schema of \"{name}\" must be an object."),
        Ref => ("ref", "\"{name}\" uses a $ref; only inline, flat field schemas are supported."),
        NoType => (
            "no_type",
            "\"{name}\" has no \"type\"; each field must be a string, number, integer, boolean \
             or array of choices.",
        ),
        SeveralTypes => (
            "several_types",
            "\"{name}\" allows several types; a field must have exactly one type.",
        ),
        TypeNotString => (
            "type_not_string",
            "The type of \"{name}\" must be a string, not {found}.",
        ),
        Nested => ("nested", "\"{name}\" is a nested object; only flat fields are supported."),
        UnknownType => (
            "unknown_type",
            "\"{name}\" has type \"{type}\"; supported types are string, number, integer, \
             boolean and array.",
        ),
        EnumNamesNotList => (
            "enum_names_not_list",
            "\"enumNames\" of \"{name}\" must be a list of strings.",
        ),
        EnumNamesCount => (
            "enum_names_count",
            "\"{name}\" has {names} enumNames for {values} enum values; they must match one to \
             one.",
        ),
        EnumNameNotString => (
            "enum_name_not_string",
            "Each of the enumNames of \"{name}\" must be a string.",
        ),
        EnumNotList => ("enum_not_list", "The enum of \"{name}\" must be a list of strings."),
        EnumEmpty => (
            "enum_empty",
            "The enum of \"{name}\" is empty, so there is nothing to choose.",
        ),
        ChoiceNotString => (
            "choice_not_string",
            "Each choice of \"{name}\" must be a string, not {found}.",
        ),
        ChoicesNotList => (
            "choices_not_list",
            "The choices of \"{name}\" must be a list of {shape} objects.",
        ),
        ChoicesEmpty => (
            "choices_empty",
            "The choices of \"{name}\" are empty, so there is nothing to choose.",
        ),
        ChoiceRepeated => (
            "choice_repeated",
            "The choice \"{value}\" of \"{name}\" appears more than once.",
        ),
        ChoiceNotObject => (
            "choice_not_object",
            "Each choice of \"{name}\" must be a {shape} object.",
        ),
        ChoiceConstNotString => (
            "choice_const_not_string",
            "Each choice of \"{name}\" must have a string const, not {found}.",
        ),
        ChoiceNoConst => ("choice_no_const", "A choice of \"{name}\" has no \"const\" value."),
        TooManyChoices => (
            "too_many_choices",
            "\"{name}\" offers {count} choices; a field can offer at most {max}.",
        ),
        ArrayWithoutChoices => (
            "array_without_choices",
            "\"{name}\" is an array without a fixed list of string choices; only multi-select \
             arrays (items with enum or anyOf) are supported.",
        ),
        ChoicesNotStrings => ("choices_not_strings", "The choices of \"{name}\" must be strings."),
        ItemsBounds => (
            "items_bounds",
            "\"{name}\" has maxItems {max} below its minItems {min}, so no answer fits.",
        ),
        DefaultType => (
            "default_type",
            "The default of \"{name}\" is {found}, but the field holds {holds}.",
        ),
        DefaultNotChoice => (
            "default_not_choice",
            "The default of \"{name}\" includes \"{value}\", which is not one of its choices.",
        ),
        NotCount => ("not_count", "\"{key}\" must be a whole number of zero or more, not {found}."),
        NotText => ("not_text", "\"{key}\" must be text, not {found}."),
        NotFinite => ("not_finite", "\"{key}\" must be a finite number."),
        NotNumber => ("not_number", "\"{key}\" must be a number, not {found}."),
        EnumAndOneOf => (
            "enum_and_one_of",
            "\"{name}\" has both \"enum\" and \"oneOf\"; use one of them.",
        ),
        LengthBounds => (
            "length_bounds",
            "\"{name}\" has maxLength {max} below its minLength {min}, so no answer fits.",
        ),
        FormatNotString => (
            "format_not_string",
            "The format of \"{name}\" must be a string, not {found}.",
        ),
        PatternNotString => (
            "pattern_not_string",
            "The pattern of \"{name}\" must be a string, not {found}.",
        ),
    }
}

worded! {
    /// The JSON type of a value, as a refusal names what it found.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Found, key "schema.found." {
        Null => ("null", "null"),
        Boolean => ("boolean", "a boolean"),
        Number => ("number", "a number"),
        String => ("string", "a string"),
        List => ("list", "a list"),
        Object => ("object", "an object"),
    }
}

impl Found {
    /// The JSON type of `v`.
    pub(crate) fn of(v: &super::json::Json<'_>) -> Found {
        use super::json::Json;
        match v {
            Json::Null => Found::Null,
            Json::Bool(_) => Found::Boolean,
            Json::Number(_) => Found::Number,
            Json::String(_) => Found::String,
            Json::Array(_) => Found::List,
            Json::Object(_) => Found::Object,
        }
    }
}

worded! {
    /// What a field holds, as a refusal of its default names it.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Holds, key "schema.holds." {
        Text => ("text", "text"),
        Number => ("number", "a number"),
        WholeNumber => ("whole_number", "a whole number"),
        Boolean => ("boolean", "true or false"),
        Choice => ("choice", "one of its choices"),
        Choices => ("choices", "a list of its choices"),
    }
}

/// The English template of a catalog key of this module (`schema.…`), for a catalog whose
/// English these are.
pub fn english_words(key: &str) -> Option<&'static str> {
    let code = key.strip_prefix("schema.")?;
    let (code, table): (&str, &[(&'static str, &'static str)]) =
        if let Some(kind) = code.strip_prefix("found.") {
            (kind, Found::WORDS)
        } else if let Some(kind) = code.strip_prefix("holds.") {
            (kind, Holds::WORDS)
        } else {
            (code, Refusal::WORDS)
        };
    table.iter().find(|(c, _)| *c == code).map(|(_, t)| *t)
}

impl Arg {
    /// Its English words.
    fn english(&self) -> String {
        match self {
            Arg::Text(s) => s.clone(),
            Arg::Count(n) => n.to_string(),
            Arg::Found(k) => k.english().to_owned(),
            Arg::Holds(h) => h.english().to_owned(),
        }
    }
}

// The compiler refuses at some 40 places: each builds its error by calls (not inlined) to
// these, which cost the core's wasm far less than a list of arguments built at each place.
impl SchemaError {
    #[inline(never)]
    pub(crate) fn new(path: String, refusal: Refusal) -> SchemaError {
        SchemaError {
            path,
            refusal,
            args: Vec::new(),
        }
    }

    #[inline(never)]
    fn with(mut self, name: &'static str, arg: Arg) -> SchemaError {
        self.args.push((name, arg));
        self
    }

    /// Quotes server text as `{key}`.
    #[inline(never)]
    pub(crate) fn text(self, key: &'static str, text: &str) -> SchemaError {
        self.with(key, Arg::Text(text.to_owned()))
    }

    /// Quotes the field's name as `{name}`.
    pub(crate) fn name(self, name: &str) -> SchemaError {
        self.text("name", name)
    }

    /// Quotes a schema keyword as `{key}`.
    pub(crate) fn key(self, key: &str) -> SchemaError {
        self.text("key", key)
    }

    /// Quotes a count as `{key}`.
    #[inline(never)]
    pub(crate) fn count(self, key: &'static str, n: u64) -> SchemaError {
        self.with(key, Arg::Count(n))
    }

    /// Quotes the JSON type of `v`, found where another was wanted, as `{found}`.
    #[inline(never)]
    pub(crate) fn found(self, v: &super::json::Json<'_>) -> SchemaError {
        self.with("found", Arg::Found(Found::of(v)))
    }

    /// Quotes what the field holds as `{holds}`.
    pub(crate) fn holds(self, holds: Holds) -> SchemaError {
        self.with("holds", Arg::Holds(holds))
    }

    /// What is wrong, in English.
    pub fn message(&self) -> String {
        self.words(self.refusal.english(), &Arg::english)
    }

    /// `template` with each `{name}` this refusal has an argument for replaced by
    /// `word(arg)`; other braces are kept as they are (a placeholder of no argument, or text
    /// such as `{const, title}` a translation quotes).
    pub fn words(&self, template: &str, word: &dyn Fn(&Arg) -> String) -> String {
        crate::words::fill(template, &|name| {
            let (_, arg) = self.args.iter().find(|(n, _)| *n == name)?;
            Some(word(arg))
        })
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = self.message();
        if self.path.is_empty() {
            f.write_str(&message)
        } else {
            write!(f, "{message} (at {})", self.path)
        }
    }
}

impl std::error::Error for SchemaError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_its_own_and_every_template_names_its_args() {
        let keys: Vec<String> = Refusal::ALL
            .iter()
            .map(|r| r.key())
            .chain(Found::ALL.iter().map(|k| k.key()))
            .chain(Holds::ALL.iter().map(|h| h.key()))
            .collect();
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "a key is repeated");
        for key in keys {
            assert!(english_words(&key).is_some(), "{key}");
        }
        // The tables are read by each variant's place: ALL lists them in that order.
        for (i, r) in Refusal::ALL.iter().enumerate() {
            assert_eq!(*r as usize, i, "{r:?}");
        }
        for (i, k) in Found::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i, "{k:?}");
        }
        for (i, h) in Holds::ALL.iter().enumerate() {
            assert_eq!(*h as usize, i, "{h:?}");
        }
        assert_eq!(Refusal::NotJson.code(), "not_json");
        assert_eq!(Refusal::PatternNotString.code(), "pattern_not_string");
        assert_eq!(Refusal::TooManyChoices.code(), "too_many_choices");
        assert_eq!(Found::List.code(), "list");
        assert_eq!(Holds::WholeNumber.code(), "whole_number");
    }

    #[test]
    fn words_fill_named_args_and_keep_other_braces() {
        let e = SchemaError::new("/properties/a".into(), Refusal::ChoicesNotList)
            .name("{shape}")
            .text("shape", "{const, title}");
        // An argument's own braces are not read again.
        assert_eq!(
            e.message(),
            "The choices of \"{shape}\" must be a list of {const, title} objects."
        );
        assert_eq!(e.words("{name} {other} {", &|_| "x".into()), "x {other} {");
        assert_eq!(
            e.to_string(),
            "The choices of \"{shape}\" must be a list of {const, title} objects. (at \
             /properties/a)"
        );
    }
}
