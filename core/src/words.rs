//! Filling the core's English templates (`{name}` placeholders), for the errors whose words
//! the web crate's catalogs also give in other languages.

/// `template` with each `{name}` that `arg(name)` gives a text for replaced by it; other
/// braces are kept as they are (a placeholder of no argument, or text such as
/// `{const, title}`). An argument's own braces are not read again.
pub fn fill(template: &str, arg: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some((before, from)) = rest.split_once('{') {
        out.push_str(before);
        let filled = from
            .split_once('}')
            .and_then(|(name, after)| Some((arg(name)?, after)));
        match filled {
            Some((text, after)) => {
                out.push_str(&text);
                rest = after;
            }
            None => {
                out.push('{');
                rest = from;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Declares an enum of codes from one list of `Variant => ("code", "English")`: the enum,
/// its `ALL` (in the list's order), its table of words (data, not a match, in the wasm) and
/// their readers, so that the three cannot drift apart. `key` is the catalog key's prefix.
macro_rules! worded {
    (
        $(#[$meta:meta])*
        pub enum $name:ident, key $prefix:literal {
            $($variant:ident => ($code:literal, $english:literal $(,)?),)*
        }
    ) => {
        $(#[$meta])*
        pub enum $name {
            $($variant,)*
        }

        impl $name {
            /// Every variant, in order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// Each variant's code and English, in the variants' order.
            const WORDS: &'static [(&'static str, &'static str)] = &[$(($code, $english),)*];

            #[inline(never)]
            fn words(self) -> (&'static str, &'static str) {
                Self::WORDS.get(self as usize).copied().unwrap_or(("", ""))
            }

            /// The catalog key of its words.
            pub fn key(self) -> String {
                format!(concat!($prefix, "{}"), self.code())
            }

            /// The stable code, e.g. `too_many_choices`.
            #[inline]
            pub fn code(self) -> &'static str {
                self.words().0
            }

            /// The English words, with their `{placeholders}`.
            #[inline]
            pub fn english(self) -> &'static str {
                self.words().1
            }
        }
    };
}
pub(crate) use worded;

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn named_args_are_filled_and_other_braces_kept() {
        let arg = |name: &str| (name == "a").then(|| "{a}".to_owned());
        assert_eq!(fill("x{a}y{b}z{", &arg), "x{a}y{b}z{");
        assert_eq!(fill("{a {a}", &arg), "{a {a}");
        assert_eq!(fill("no braces", &arg), "no braces");
    }
}
