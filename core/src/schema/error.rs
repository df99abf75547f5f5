//! Why a schema was refused, and where: a stable code ([`Refusal`]), the data its words
//! quote ([`Arg`]) and the JSON pointer of the offending part.
//!
//! The English words live here, once, as templates with `{placeholders}`: the core's
//! `Display` (and the JS API's message) fills them, and the web crate's catalogs word the
//! same code and data in the person's language, with these templates as their English
//! (the keys are `schema.<code>`, `schema.found.<kind>` and `schema.holds.<kind>`).

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

/// Every refusal the compiler makes, as a stable code: the JS API's `SchemaError.code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    NotJson,
    NotObject,
    RootType,
    PropertiesNotObject,
    TooManyProperties,
    TooManyFormChoices,
    RequiredNotList,
    RequiredEntry,
    RequiredUnknown,
    FieldNotObject,
    Ref,
    NoType,
    SeveralTypes,
    TypeNotString,
    Nested,
    UnknownType,
    EnumNamesNotList,
    EnumNamesCount,
    EnumNameNotString,
    EnumNotList,
    EnumEmpty,
    ChoiceNotString,
    ChoicesNotList,
    ChoicesEmpty,
    ChoiceRepeated,
    ChoiceNotObject,
    ChoiceConstNotString,
    ChoiceNoConst,
    TooManyChoices,
    ArrayWithoutChoices,
    ChoicesNotStrings,
    ItemsBounds,
    DefaultType,
    DefaultNotChoice,
    NotCount,
    NotText,
    NotFinite,
    NotNumber,
    EnumAndOneOf,
    LengthBounds,
    FormatNotString,
    PatternNotString,
}

/// The JSON type of a value, as a refusal names what it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    Null,
    Boolean,
    Number,
    String,
    List,
    Object,
}

/// What a field holds, as a refusal of its default names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    Text,
    Number,
    WholeNumber,
    Boolean,
    Choice,
    Choices,
}

impl Refusal {
    /// Every code, for tests and for the catalogs' checks.
    pub const ALL: [Refusal; 42] = {
        use Refusal::*;
        [
            NotJson,
            NotObject,
            RootType,
            PropertiesNotObject,
            TooManyProperties,
            TooManyFormChoices,
            RequiredNotList,
            RequiredEntry,
            RequiredUnknown,
            FieldNotObject,
            Ref,
            NoType,
            SeveralTypes,
            TypeNotString,
            Nested,
            UnknownType,
            EnumNamesNotList,
            EnumNamesCount,
            EnumNameNotString,
            EnumNotList,
            EnumEmpty,
            ChoiceNotString,
            ChoicesNotList,
            ChoicesEmpty,
            ChoiceRepeated,
            ChoiceNotObject,
            ChoiceConstNotString,
            ChoiceNoConst,
            TooManyChoices,
            ArrayWithoutChoices,
            ChoicesNotStrings,
            ItemsBounds,
            DefaultType,
            DefaultNotChoice,
            NotCount,
            NotText,
            NotFinite,
            NotNumber,
            EnumAndOneOf,
            LengthBounds,
            FormatNotString,
            PatternNotString,
        ]
    };

    /// The catalog key and the English template.
    fn words(self) -> (&'static str, &'static str) {
        use Refusal::*;
        match self {
            NotJson => (
                "schema.not_json",
                "The requested schema is not JSON: {detail}.",
            ),
            NotObject => (
                "schema.not_object",
                "The requested schema must be a JSON object.",
            ),
            RootType => (
                "schema.root_type",
                "The requested schema must have type \"object\", not {found}.",
            ),
            PropertiesNotObject => (
                "schema.properties_not_object",
                "\"properties\" must be an object mapping field names to their schemas.",
            ),
            TooManyProperties => (
                "schema.too_many_properties",
                "The schema has {count} properties; a form can have at most {max}.",
            ),
            TooManyFormChoices => (
                "schema.too_many_form_choices",
                "The fields up to \"{name}\" offer {count} choices together; a form can offer \
                 at most {max}.",
            ),
            RequiredNotList => (
                "schema.required_not_list",
                "\"required\" must be a list of property names.",
            ),
            RequiredEntry => (
                "schema.required_entry",
                "Each entry of \"required\" must be a property name.",
            ),
            RequiredUnknown => (
                "schema.required_unknown",
                "\"{name}\" is listed as required but there is no such property.",
            ),
            FieldNotObject => (
                "schema.field_not_object",
                "The schema of \"{name}\" must be an object.",
            ),
            Ref => (
                "schema.ref",
                "\"{name}\" uses a $ref; only inline, flat field schemas are supported.",
            ),
            NoType => (
                "schema.no_type",
                "\"{name}\" has no \"type\"; each field must be a string, number, integer, \
                 boolean or array of choices.",
            ),
            SeveralTypes => (
                "schema.several_types",
                "\"{name}\" allows several types; a field must have exactly one type.",
            ),
            TypeNotString => (
                "schema.type_not_string",
                "The type of \"{name}\" must be a string, not {found}.",
            ),
            Nested => (
                "schema.nested",
                "\"{name}\" is a nested object; only flat fields are supported.",
            ),
            UnknownType => (
                "schema.unknown_type",
                "\"{name}\" has type \"{type}\"; supported types are string, number, integer, \
                 boolean and array.",
            ),
            EnumNamesNotList => (
                "schema.enum_names_not_list",
                "\"enumNames\" of \"{name}\" must be a list of strings.",
            ),
            EnumNamesCount => (
                "schema.enum_names_count",
                "\"{name}\" has {names} enumNames for {values} enum values; they must match \
                 one to one.",
            ),
            EnumNameNotString => (
                "schema.enum_name_not_string",
                "Each of the enumNames of \"{name}\" must be a string.",
            ),
            EnumNotList => (
                "schema.enum_not_list",
                "The enum of \"{name}\" must be a list of strings.",
            ),
            EnumEmpty => (
                "schema.enum_empty",
                "The enum of \"{name}\" is empty, so there is nothing to choose.",
            ),
            ChoiceNotString => (
                "schema.choice_not_string",
                "Each choice of \"{name}\" must be a string, not {found}.",
            ),
            ChoicesNotList => (
                "schema.choices_not_list",
                "The choices of \"{name}\" must be a list of {shape} objects.",
            ),
            ChoicesEmpty => (
                "schema.choices_empty",
                "The choices of \"{name}\" are empty, so there is nothing to choose.",
            ),
            ChoiceRepeated => (
                "schema.choice_repeated",
                "The choice \"{value}\" of \"{name}\" appears more than once.",
            ),
            ChoiceNotObject => (
                "schema.choice_not_object",
                "Each choice of \"{name}\" must be a {shape} object.",
            ),
            ChoiceConstNotString => (
                "schema.choice_const_not_string",
                "Each choice of \"{name}\" must have a string const, not {found}.",
            ),
            ChoiceNoConst => (
                "schema.choice_no_const",
                "A choice of \"{name}\" has no \"const\" value.",
            ),
            TooManyChoices => (
                "schema.too_many_choices",
                "\"{name}\" offers {count} choices; a field can offer at most {max}.",
            ),
            ArrayWithoutChoices => (
                "schema.array_without_choices",
                "\"{name}\" is an array without a fixed list of string choices; only \
                 multi-select arrays (items with enum or anyOf) are supported.",
            ),
            ChoicesNotStrings => (
                "schema.choices_not_strings",
                "The choices of \"{name}\" must be strings.",
            ),
            ItemsBounds => (
                "schema.items_bounds",
                "\"{name}\" has maxItems {max} below its minItems {min}, so no answer fits.",
            ),
            DefaultType => (
                "schema.default_type",
                "The default of \"{name}\" is {found}, but the field holds {holds}.",
            ),
            DefaultNotChoice => (
                "schema.default_not_choice",
                "The default of \"{name}\" includes \"{value}\", which is not one of its \
                 choices.",
            ),
            NotCount => (
                "schema.not_count",
                "\"{key}\" must be a whole number of zero or more, not {found}.",
            ),
            NotText => ("schema.not_text", "\"{key}\" must be text, not {found}."),
            NotFinite => ("schema.not_finite", "\"{key}\" must be a finite number."),
            NotNumber => (
                "schema.not_number",
                "\"{key}\" must be a number, not {found}.",
            ),
            EnumAndOneOf => (
                "schema.enum_and_one_of",
                "\"{name}\" has both \"enum\" and \"oneOf\"; use one of them.",
            ),
            LengthBounds => (
                "schema.length_bounds",
                "\"{name}\" has maxLength {max} below its minLength {min}, so no answer fits.",
            ),
            FormatNotString => (
                "schema.format_not_string",
                "The format of \"{name}\" must be a string, not {found}.",
            ),
            PatternNotString => (
                "schema.pattern_not_string",
                "The pattern of \"{name}\" must be a string, not {found}.",
            ),
        }
    }

    /// The catalog key of its words: `schema.<code>`.
    pub fn key(self) -> &'static str {
        self.words().0
    }

    /// The stable code, e.g. `too_many_choices`.
    pub fn code(self) -> &'static str {
        let key = self.key();
        key.strip_prefix("schema.").unwrap_or(key)
    }

    /// The English template, with the placeholders [`SchemaError::args`] fills.
    pub fn english(self) -> &'static str {
        self.words().1
    }
}

impl Found {
    pub const ALL: [Found; 6] = [
        Found::Null,
        Found::Boolean,
        Found::Number,
        Found::String,
        Found::List,
        Found::Object,
    ];

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

    fn words(self) -> (&'static str, &'static str) {
        match self {
            Found::Null => ("schema.found.null", "null"),
            Found::Boolean => ("schema.found.boolean", "a boolean"),
            Found::Number => ("schema.found.number", "a number"),
            Found::String => ("schema.found.string", "a string"),
            Found::List => ("schema.found.list", "a list"),
            Found::Object => ("schema.found.object", "an object"),
        }
    }

    pub fn key(self) -> &'static str {
        self.words().0
    }

    /// `null`, `boolean`, `number`, `string`, `list` or `object`.
    pub fn code(self) -> &'static str {
        let key = self.key();
        key.strip_prefix("schema.found.").unwrap_or(key)
    }

    pub fn english(self) -> &'static str {
        self.words().1
    }
}

impl Holds {
    pub const ALL: [Holds; 6] = [
        Holds::Text,
        Holds::Number,
        Holds::WholeNumber,
        Holds::Boolean,
        Holds::Choice,
        Holds::Choices,
    ];

    fn words(self) -> (&'static str, &'static str) {
        match self {
            Holds::Text => ("schema.holds.text", "text"),
            Holds::Number => ("schema.holds.number", "a number"),
            Holds::WholeNumber => ("schema.holds.whole_number", "a whole number"),
            Holds::Boolean => ("schema.holds.boolean", "true or false"),
            Holds::Choice => ("schema.holds.choice", "one of its choices"),
            Holds::Choices => ("schema.holds.choices", "a list of its choices"),
        }
    }

    pub fn key(self) -> &'static str {
        self.words().0
    }

    /// `text`, `number`, `whole_number`, `boolean`, `choice` or `choices`.
    pub fn code(self) -> &'static str {
        let key = self.key();
        key.strip_prefix("schema.holds.").unwrap_or(key)
    }

    pub fn english(self) -> &'static str {
        self.words().1
    }
}

/// The English template of a catalog key of this module (`schema.…`), for a catalog whose
/// English these are.
pub fn english_words(key: &str) -> Option<&'static str> {
    let refusals = Refusal::ALL.into_iter().map(Refusal::words);
    let found = Found::ALL.into_iter().map(Found::words);
    let holds = Holds::ALL.into_iter().map(Holds::words);
    refusals
        .chain(found)
        .chain(holds)
        .find(|(k, _)| *k == key)
        .map(|(_, t)| t)
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

impl SchemaError {
    pub(crate) fn new(
        path: impl fmt::Display,
        refusal: Refusal,
        args: Vec<(&'static str, Arg)>,
    ) -> SchemaError {
        SchemaError {
            path: path.to_string(),
            refusal,
            args,
        }
    }

    /// What is wrong, in English.
    pub fn message(&self) -> String {
        self.words(self.refusal.english(), Arg::english)
    }

    /// `template` with each `{name}` this refusal has an argument for replaced by
    /// `word(arg)`; other braces are kept as they are (a placeholder of no argument, or text
    /// such as `{const, title}` a translation quotes).
    pub fn words(&self, template: &str, word: impl Fn(&Arg) -> String) -> String {
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            let (before, from) = rest.split_at(open);
            out.push_str(before);
            let arg = from.find('}').and_then(|close| {
                let name = from.get(1..close)?;
                let (_, arg) = self.args.iter().find(|(n, _)| *n == name)?;
                Some((close, arg))
            });
            match arg {
                Some((close, arg)) => {
                    out.push_str(&word(arg));
                    rest = from.get(close + 1..).unwrap_or("");
                }
                None => {
                    out.push('{');
                    rest = from.get(1..).unwrap_or("");
                }
            }
        }
        out.push_str(rest);
        out
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
        let keys: Vec<&str> = Refusal::ALL
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
            assert!(english_words(key).is_some(), "{key}");
        }
        assert_eq!(Refusal::TooManyChoices.code(), "too_many_choices");
        assert_eq!(Found::List.code(), "list");
        assert_eq!(Holds::WholeNumber.code(), "whole_number");
    }

    #[test]
    fn words_fill_named_args_and_keep_other_braces() {
        let e = SchemaError::new(
            "/properties/a",
            Refusal::ChoicesNotList,
            vec![
                ("name", Arg::Text("{shape}".into())),
                ("shape", Arg::Text("{const, title}".into())),
            ],
        );
        // An argument's own braces are not read again.
        assert_eq!(
            e.message(),
            "The choices of \"{shape}\" must be a list of {const, title} objects."
        );
        assert_eq!(e.words("{name} {other} {", |_| "x".into()), "x {other} {");
        assert_eq!(
            e.to_string(),
            "The choices of \"{shape}\" must be a list of {const, title} objects. (at \
             /properties/a)"
        );
    }
}
