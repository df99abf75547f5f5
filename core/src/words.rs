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
