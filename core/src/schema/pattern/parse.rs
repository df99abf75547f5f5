//! ECMA-262 `u`-mode pattern syntax to a tree ([`Node`]).
//!
//! The grammar is ECMA-262's `Pattern[+UnicodeMode, +NamedCaptureGroups]` (22.2.1), without
//! Annex B: with the `u` flag a lone `{`, `}` or `]`, an identity escape of a letter, a
//! quantified lookahead and a reference to a group that does not exist are syntax errors, as
//! `new RegExp(p, "u")` says. Four Python constructs, each a syntax error in ECMA-262 and so
//! never a change of meaning of a valid pattern, are read as what they mean in Python:
//! `(?P<name>…)` as `(?<name>…)`, `(?P=name)` as `\k<name>`, `\A` as `^` and `\Z` as `$`
//! (without the `m` flag both are the ends of the whole text, exactly as in Python).

use super::unicode::Property;
use super::{MAX_PATTERN_DEPTH, MAX_PATTERN_GROUPS, MAX_PATTERN_RANGES, MAX_PROPERTY_ESCAPES};
use std::sync::Arc;

/// Code point ranges, inclusive, sorted and disjoint.
pub(super) type Ranges = Vec<(u32, u32)>;

/// The code points one class reads: its ranges, and the `\p{…}` properties it holds whole,
/// kept as [`Property`] instead of as ranges (in wasm a property is the JS engine's own, and
/// has no ranges here).
#[derive(Debug, Clone, Default)]
pub(super) struct Class {
    ranges: Ranges,
    /// Each property with whether it is negated (`\P{…}`).
    properties: Vec<(Property, bool)>,
    /// Whether the class is every code point not described above (`[^…]` with a property;
    /// a class of ranges alone is complemented instead).
    negated: bool,
}

impl Class {
    fn of(ranges: Ranges) -> Class {
        Class {
            ranges,
            ..Class::default()
        }
    }

    /// How many properties a test of the class may ask.
    pub(super) fn properties(&self) -> usize {
        self.properties.len()
    }

    /// Whether code point `c` is in the class.
    pub(super) fn has(&self, c: u32) -> bool {
        let inside = contains(&self.ranges, c)
            || self
                .properties
                .iter()
                .any(|(p, negated)| p.has(c) != *negated);
        inside != self.negated
    }
}

/// One part of a parsed pattern.
#[derive(Debug, Clone)]
pub(super) enum Node {
    Empty,
    Char(u32),
    /// Shared, since a repeated class is copied into the program once per repetition.
    Class(Arc<Class>),
    /// `^` (start of the text: no `m` flag).
    Start,
    /// `$` (end of the text).
    End,
    /// `\b` (`false`) or `\B` (`true`).
    WordBoundary(bool),
    /// A capturing group with its number (1-based).
    Group(Box<Node>, u32),
    Look {
        node: Box<Node>,
        behind: bool,
        negate: bool,
    },
    /// A reference to the group of that number (1-based).
    BackRef(u32),
    Cat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        /// Greedy tries one more iteration first. Which of two paths is taken first decides
        /// what a lookaround captures, and so what a later back-reference matches.
        greedy: bool,
        /// The numbers `lo..hi` of the capturing groups inside `node` (groups are numbered
        /// in order, so those inside one node are consecutive), noted as it is read: each
        /// iteration forgets their captures, and finding them again at every copy of a
        /// counted repetition would walk the subtree once per copy.
        groups: (u32, u32),
    },
}

/// A parsed pattern.
#[derive(Debug)]
pub(super) struct Parsed {
    pub node: Node,
    /// Capturing groups in the whole pattern.
    pub groups: u32,
    pub has_backrefs: bool,
    /// Whether a Python construct was read (see the module doc).
    pub python: bool,
}

/// Why a pattern could not be read, in words for the person filling the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ParseError {
    /// Not ECMA-262 syntax (and not one of the Python constructs read as such).
    Syntax(String),
    /// Deeper than [`MAX_PATTERN_DEPTH`] or more groups than [`MAX_PATTERN_GROUPS`].
    TooComplex(String),
}

const SYNTAX_CHARS: &[u8] = b"^$\\.*+?()[]{}|";

/// A back-reference as written, resolved after the whole pattern is read.
enum Pending {
    Number(u32),
    Name(String),
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    groups: u32,
    names: Vec<(String, u32)>,
    /// Back-references in the order they appear, resolved once every group is known (a
    /// reference may come before its group, as in `\k<a>(?<a>x)`).
    refs: Vec<Pending>,
    python: bool,
    /// `\p{…}` escapes read so far ([`MAX_PROPERTY_ESCAPES`]).
    properties: usize,
    /// Code point ranges held by the classes so far ([`MAX_PATTERN_RANGES`]); a `\p{…}`
    /// counts as one.
    ranges: usize,
    /// `ID_Start` and `ID_Continue` for group names past ASCII, each looked up once a
    /// pattern (natively a lookup reads the Unicode tables).
    id_start: Option<Option<Property>>,
    id_continue: Option<Option<Property>>,
}

/// What one `\p{…}` costs to read, in the steps [`parse`] counts: natively a walk over the
/// Unicode tables and a copy of the property's ranges, in wasm a call into the JS engine.
pub(super) const PROPERTY_STEPS: usize = 1_000;

/// Parses `source` as an ECMA-262 `u`-mode pattern, adding the work it took to `work`: a
/// step per character, per code point range a class holds, and [`PROPERTY_STEPS`] per
/// `\p{…}`, whether the pattern is read or refused.
pub(super) fn parse(source: &str, work: &mut usize) -> Result<Parsed, ParseError> {
    let mut p = Parser {
        chars: source.chars().collect(),
        pos: 0,
        depth: 0,
        groups: 0,
        names: Vec::new(),
        refs: Vec::new(),
        python: false,
        properties: 0,
        ranges: 0,
        id_start: None,
        id_continue: None,
    };
    let read = p.disjunction();
    *work = work
        .saturating_add(p.chars.len())
        .saturating_add(p.ranges)
        .saturating_add(p.properties.saturating_mul(PROPERTY_STEPS));
    let mut node = read?;
    if p.pos < p.chars.len() {
        return Err(p.syntax("a ) closes a group that was not opened"));
    }
    let has_backrefs = !p.refs.is_empty();
    let mut resolved = Vec::with_capacity(p.refs.len());
    for r in &p.refs {
        resolved.push(match r {
            Pending::Number(n) if *n >= 1 && *n <= p.groups => *n,
            Pending::Number(n) => {
                return Err(ParseError::Syntax(format!(
                    "\\{n} refers to a group that does not exist"
                )))
            }
            Pending::Name(name) => match p.names.iter().find(|(n, _)| n == name) {
                Some((_, k)) => *k,
                None => {
                    return Err(ParseError::Syntax(format!(
                        "\\k<{name}> refers to a group name that does not exist"
                    )))
                }
            },
        });
    }
    let mut it = resolved.into_iter();
    resolve_refs(&mut node, &mut it);
    Ok(Parsed {
        node,
        groups: p.groups,
        has_backrefs,
        python: p.python,
    })
}

/// Replaces the placeholder numbers of back-references (their order of appearance) with
/// the group numbers they resolve to. The tree is no deeper than [`MAX_PATTERN_DEPTH`].
fn resolve_refs(node: &mut Node, it: &mut impl Iterator<Item = u32>) {
    match node {
        Node::BackRef(n) => {
            if let Some(k) = it.next() {
                *n = k;
            }
        }
        Node::Group(inner, _)
        | Node::Look { node: inner, .. }
        | Node::Repeat { node: inner, .. } => resolve_refs(inner, it),
        Node::Cat(list) | Node::Alt(list) => {
            for n in list {
                resolve_refs(n, it);
            }
        }
        Node::Empty
        | Node::Char(_)
        | Node::Class(_)
        | Node::Start
        | Node::End
        | Node::WordBoundary(_) => {}
    }
}

impl Parser {
    fn syntax(&self, why: &str) -> ParseError {
        ParseError::Syntax(format!("{why} (at character {})", self.pos + 1))
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn looking_at(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(k, c)| self.peek_at(k) == Some(c))
    }

    fn new_group(&mut self) -> Result<u32, ParseError> {
        if self.groups >= MAX_PATTERN_GROUPS {
            return Err(ParseError::TooComplex(format!(
                "it has more than {MAX_PATTERN_GROUPS} groups"
            )));
        }
        self.groups += 1;
        Ok(self.groups)
    }

    fn disjunction(&mut self) -> Result<Node, ParseError> {
        self.depth += 1;
        if self.depth > MAX_PATTERN_DEPTH {
            return Err(ParseError::TooComplex(format!(
                "its groups nest more than {MAX_PATTERN_DEPTH} deep"
            )));
        }
        let mut alts = vec![self.alternative()?];
        while self.eat('|') {
            alts.push(self.alternative()?);
        }
        self.depth -= 1;
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Node::Empty)
        } else {
            merge_single_chars(alts)
        })
    }

    fn alternative(&mut self) -> Result<Node, ParseError> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            items.push(self.term()?);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap_or(Node::Empty),
            _ => Node::Cat(items),
        })
    }

    fn term(&mut self) -> Result<Node, ParseError> {
        let groups_before = self.groups;
        let (atom, quantifiable) = self.atom()?;
        let Some((min, max)) = self.quantifier()? else {
            return Ok(atom);
        };
        if !quantifiable {
            return Err(self.syntax("an assertion cannot be repeated"));
        }
        let greedy = !self.eat('?');
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greedy,
            groups: (groups_before + 1, self.groups + 1),
        })
    }

    /// A quantifier, if one starts here.
    fn quantifier(&mut self) -> Result<Option<(u32, Option<u32>)>, ParseError> {
        let q = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.pos += 1;
                let Some(min) = self.decimal() else {
                    return Err(self.syntax("a { must start a count such as {2} or {1,3}"));
                };
                let max = if self.eat(',') {
                    if self.peek() == Some('}') {
                        None
                    } else {
                        match self.decimal() {
                            Some(m) => Some(m),
                            None => return Err(self.syntax("a count must end with }")),
                        }
                    }
                } else {
                    Some(min)
                };
                if !self.eat('}') {
                    return Err(self.syntax("a count must end with }"));
                }
                if let Some(m) = max {
                    if m < min {
                        return Err(self.syntax("a count's maximum is below its minimum"));
                    }
                }
                return Ok(Some((min, max)));
            }
            _ => return Ok(None),
        };
        self.pos += 1;
        Ok(Some(q))
    }

    /// Decimal digits, saturating (ECMA-262 allows any size; the compiler bounds the work).
    fn decimal(&mut self) -> Option<u32> {
        let start = self.pos;
        let mut n: u32 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d);
            self.pos += 1;
        }
        (self.pos > start).then_some(n)
    }

    /// One atom or assertion, and whether a quantifier may follow it.
    fn atom(&mut self) -> Result<(Node, bool), ParseError> {
        let Some(c) = self.peek() else {
            return Err(self.syntax("the pattern ends too early"));
        };
        self.pos += 1;
        Ok(match c {
            '^' => (Node::Start, false),
            '$' => (Node::End, false),
            '.' => (
                self.class_node(Class::of(complement(&line_terminators())))?,
                true,
            ),
            '[' => {
                let r = self.class()?;
                (self.class_node(r)?, true)
            }
            '(' => self.group()?,
            '\\' => self.atom_escape()?,
            '*' | '+' | '?' => return Err(self.syntax("nothing to repeat")),
            '{' | '}' | ']' => {
                return Err(self.syntax(&format!("a lone {c} must be escaped as \\{c}")))
            }
            // `|` and `)` are handled by the callers.
            c => (Node::Char(c as u32), true),
        })
    }

    fn group(&mut self) -> Result<(Node, bool), ParseError> {
        if !self.eat('?') {
            let n = self.new_group()?;
            let inner = self.disjunction()?;
            self.close()?;
            return Ok((Node::Group(Box::new(inner), n), true));
        }
        let look = |behind, negate| (behind, negate);
        let kind = if self.looking_at("=") {
            self.pos += 1;
            Some(look(false, false))
        } else if self.looking_at("!") {
            self.pos += 1;
            Some(look(false, true))
        } else if self.looking_at("<=") {
            self.pos += 2;
            Some(look(true, false))
        } else if self.looking_at("<!") {
            self.pos += 2;
            Some(look(true, true))
        } else {
            None
        };
        if let Some((behind, negate)) = kind {
            let inner = self.disjunction()?;
            self.close()?;
            return Ok((
                Node::Look {
                    node: Box::new(inner),
                    behind,
                    negate,
                },
                false,
            ));
        }
        if self.eat(':') {
            let inner = self.disjunction()?;
            self.close()?;
            return Ok((inner, true));
        }
        if self.looking_at("P=") {
            self.pos += 2;
            let name = self.group_name(')')?;
            self.python = true;
            self.refs.push(Pending::Name(name));
            return Ok((Node::BackRef(0), true));
        }
        let python = self.looking_at("P<");
        if python {
            self.pos += 1;
            self.python = true;
        }
        if self.eat('<') {
            let name = self.group_name('>')?;
            if self.names.iter().any(|(m, _)| *m == name) {
                return Err(self.syntax(&format!("the group name {name} is used twice")));
            }
            let n = self.new_group()?;
            self.names.push((name, n));
            let inner = self.disjunction()?;
            self.close()?;
            return Ok((Node::Group(Box::new(inner), n), true));
        }
        Err(self.syntax("(? must be followed by :, =, !, <=, <! or <name>"))
    }

    fn close(&mut self) -> Result<(), ParseError> {
        if self.eat(')') {
            Ok(())
        } else {
            Err(self.syntax("a group is not closed"))
        }
    }

    /// A group name up to `end` (consumed): ECMA-262's `RegExpIdentifierName` without
    /// escapes. It starts with an `ID_Start` character, `$` or `_`, and goes on with
    /// `ID_Continue` characters, `$`, ZWNJ or ZWJ. Past ASCII the properties are asked as a
    /// `\p{…}` would be (in wasm, of the JS engine), so the names are exactly `RegExp`'s.
    fn group_name(&mut self, end: char) -> Result<String, ParseError> {
        let mut name = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.syntax("a group name must be an identifier"));
            };
            if c == end {
                self.pos += 1;
                break;
            }
            let first = name.is_empty();
            let ok = if c.is_ascii() {
                c.is_ascii_alphabetic() || c == '$' || c == '_' || (!first && c.is_ascii_digit())
            } else if !first && (c == '\u{200C}' || c == '\u{200D}') {
                true
            } else {
                let (slot, property) = if first {
                    (&mut self.id_start, "ID_Start")
                } else {
                    (&mut self.id_continue, "ID_Continue")
                };
                slot.get_or_insert_with(|| Property::named(property))
                    .as_ref()
                    .is_some_and(|p| p.has(c as u32))
            };
            if !ok {
                return Err(self.syntax("a group name must be an identifier"));
            }
            self.pos += 1;
            name.push(c);
        }
        if name.is_empty() {
            return Err(self.syntax("a group name must not be empty"));
        }
        Ok(name)
    }

    /// After a `\` outside a class.
    fn atom_escape(&mut self) -> Result<(Node, bool), ParseError> {
        let Some(c) = self.peek() else {
            return Err(self.syntax("the pattern ends with a lone \\"));
        };
        match c {
            'b' => {
                self.pos += 1;
                Ok((Node::WordBoundary(false), false))
            }
            'B' => {
                self.pos += 1;
                Ok((Node::WordBoundary(true), false))
            }
            'A' => {
                self.pos += 1;
                self.python = true;
                Ok((Node::Start, false))
            }
            'Z' => {
                self.pos += 1;
                self.python = true;
                Ok((Node::End, false))
            }
            '1'..='9' => {
                let n = self.decimal().unwrap_or(0);
                self.refs.push(Pending::Number(n));
                Ok((Node::BackRef(0), true))
            }
            'k' => {
                self.pos += 1;
                if !self.eat('<') {
                    return Err(self.syntax("\\k must be followed by <name>"));
                }
                let name = self.group_name('>')?;
                self.refs.push(Pending::Name(name));
                Ok((Node::BackRef(0), true))
            }
            _ => {
                let set = self.class_or_char_escape(false)?;
                Ok((
                    match set {
                        Escaped::Char(c) => Node::Char(c),
                        Escaped::Set(r) => self.class_node(Class::of(r))?,
                        Escaped::Property(p, negated) => self.class_node(Class {
                            properties: vec![(p, negated)],
                            ..Class::default()
                        })?,
                    },
                    true,
                ))
            }
        }
    }

    /// A class escape (`\d`, `\p{..}`, …) or a character escape, after the `\`. `in_class`
    /// allows `\b` (backspace) and `\-`.
    fn class_or_char_escape(&mut self, in_class: bool) -> Result<Escaped, ParseError> {
        let Some(c) = self.peek() else {
            return Err(self.syntax("the pattern ends with a lone \\"));
        };
        self.pos += 1;
        let set = |r: Ranges| Ok(Escaped::Set(r));
        match c {
            'd' => set(digits()),
            'D' => set(complement(&digits())),
            'w' => set(word_chars()),
            'W' => set(complement(&word_chars())),
            's' => set(white_space()),
            'S' => set(complement(&white_space())),
            'p' | 'P' => {
                if !self.eat('{') {
                    return Err(self.syntax("\\p must be followed by {property}"));
                }
                let mut name = String::new();
                loop {
                    match self.peek() {
                        Some('}') => {
                            self.pos += 1;
                            break;
                        }
                        Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '=' => {
                            name.push(c);
                            self.pos += 1;
                        }
                        _ => return Err(self.syntax("a \\p{…} property name is not closed")),
                    }
                }
                self.properties += 1;
                if self.properties > MAX_PROPERTY_ESCAPES {
                    return Err(ParseError::TooComplex(format!(
                        "it has more than {MAX_PROPERTY_ESCAPES} \\p{{…}} escapes"
                    )));
                }
                let Some(p) = Property::named(&name) else {
                    return Err(ParseError::Syntax(format!(
                        "\\p{{{name}}} is not a Unicode property that ECMA-262 names"
                    )));
                };
                Ok(Escaped::Property(p, c == 'P'))
            }
            'f' => Ok(Escaped::Char(0x0C)),
            'n' => Ok(Escaped::Char(0x0A)),
            'r' => Ok(Escaped::Char(0x0D)),
            't' => Ok(Escaped::Char(0x09)),
            'v' => Ok(Escaped::Char(0x0B)),
            'b' if in_class => Ok(Escaped::Char(0x08)),
            '-' if in_class => Ok(Escaped::Char('-' as u32)),
            'c' => match self.peek() {
                Some(l) if l.is_ascii_alphabetic() => {
                    self.pos += 1;
                    Ok(Escaped::Char(l as u32 % 32))
                }
                _ => Err(self.syntax("\\c must be followed by a letter")),
            },
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => Ok(Escaped::Char(0)),
            'x' => match self.hex(2) {
                Some(v) => Ok(Escaped::Char(v)),
                None => Err(self.syntax("\\x must be followed by two hex digits")),
            },
            'u' => self.unicode_escape().map(Escaped::Char),
            '/' => Ok(Escaped::Char('/' as u32)),
            // By byte: `str::contains` of a `char` variable links a substring searcher.
            c if u8::try_from(c).is_ok_and(|b| SYNTAX_CHARS.contains(&b)) => {
                Ok(Escaped::Char(c as u32))
            }
            c => Err(ParseError::Syntax(format!(
                "\\{c} is not an escape that ECMA-262 allows with the u flag (at character {})",
                self.pos
            ))),
        }
    }

    /// A class node, counted against [`MAX_PATTERN_RANGES`].
    fn class_node(&mut self, c: Class) -> Result<Node, ParseError> {
        self.ranges += c.ranges.len() + c.properties.len();
        if self.ranges > MAX_PATTERN_RANGES {
            return Err(ParseError::TooComplex(format!(
                "its character classes hold more than {MAX_PATTERN_RANGES} ranges"
            )));
        }
        Ok(Node::Class(Arc::new(c)))
    }

    fn hex(&mut self, n: usize) -> Option<u32> {
        let mut v = 0u32;
        for k in 0..n {
            let d = self.peek_at(k)?.to_digit(16)?;
            v = v * 16 + d;
        }
        self.pos += n;
        Some(v)
    }

    /// After `\u`: `HHHH` (a surrogate pair written as two escapes is one code point) or
    /// `{H…}` up to U+10FFFF.
    fn unicode_escape(&mut self) -> Result<u32, ParseError> {
        if self.eat('{') {
            let mut v: u32 = 0;
            let mut any = false;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                v = v.saturating_mul(16).saturating_add(d);
                any = true;
                self.pos += 1;
            }
            if !any || !self.eat('}') || v > 0x10FFFF {
                return Err(self.syntax("\\u{…} must hold a code point up to 10FFFF"));
            }
            return Ok(v);
        }
        let Some(hi) = self.hex(4) else {
            return Err(self.syntax("\\u must be followed by four hex digits or {…}"));
        };
        if (0xD800..0xDC00).contains(&hi) && self.looking_at("\\u") {
            let back = self.pos;
            self.pos += 2;
            match self.hex(4) {
                Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                    return Ok(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                }
                _ => self.pos = back,
            }
        }
        Ok(hi)
    }

    /// After `[`: the class (a negated class of ranges alone is complemented here).
    fn class(&mut self) -> Result<Class, ParseError> {
        let negated = self.eat('^');
        let mut ranges: Ranges = Vec::new();
        let mut properties = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.syntax("a [ class is not closed"));
            };
            if c == ']' {
                self.pos += 1;
                break;
            }
            let lo = self.class_atom()?;
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.pos += 1;
                let hi = self.class_atom()?;
                match (lo, hi) {
                    (Escaped::Char(a), Escaped::Char(b)) if a <= b => ranges.push((a, b)),
                    (Escaped::Char(_), Escaped::Char(_)) => {
                        return Err(self.syntax("a class range is out of order"))
                    }
                    _ => {
                        return Err(
                            self.syntax("a class range cannot start or end with a class escape")
                        )
                    }
                }
            } else {
                match lo {
                    Escaped::Char(a) => ranges.push((a, a)),
                    Escaped::Set(r) => ranges.extend(r),
                    Escaped::Property(p, negated) => properties.push((p, negated)),
                }
            }
        }
        let ranges = normalize(ranges);
        Ok(if properties.is_empty() {
            Class::of(if negated { complement(&ranges) } else { ranges })
        } else {
            Class {
                ranges,
                properties,
                negated,
            }
        })
    }

    fn class_atom(&mut self) -> Result<Escaped, ParseError> {
        let Some(c) = self.peek() else {
            return Err(self.syntax("a [ class is not closed"));
        };
        self.pos += 1;
        if c == '\\' {
            self.class_or_char_escape(true)
        } else {
            Ok(Escaped::Char(c as u32))
        }
    }
}

enum Escaped {
    Char(u32),
    Set(Ranges),
    /// `\p{…}`, or `\P{…}` (negated).
    Property(Property, bool),
}

/// An alternation whose branches are all single characters or classes is one class: the
/// same texts match, and the check costs one step instead of one per branch (and with
/// back-references, one path instead of one per branch). A class that is negated around a
/// property (`[^\p{L}]`) is no union of ranges and properties, so it keeps the alternation.
fn merge_single_chars(alts: Vec<Node>) -> Node {
    let single = alts.iter().all(|n| match n {
        Node::Char(_) => true,
        Node::Class(c) => !c.negated,
        _ => false,
    });
    if !single {
        return Node::Alt(alts);
    }
    let mut merged = Class::default();
    for n in alts {
        match n {
            Node::Char(c) => merged.ranges.push((c, c)),
            Node::Class(c) => {
                merged.ranges.extend(c.ranges.iter().copied());
                merged.properties.extend(c.properties.iter().cloned());
            }
            _ => {}
        }
    }
    merged.ranges = normalize(merged.ranges);
    Node::Class(Arc::new(merged))
}

/// Whether `c` is in `ranges` (sorted, disjoint), by halves.
pub(super) fn contains(ranges: &[(u32, u32)], c: u32) -> bool {
    let i = ranges.partition_point(|&(_, hi)| hi < c);
    ranges.get(i).is_some_and(|&(lo, _)| lo <= c)
}

/// Sorts and merges ranges.
pub(super) fn normalize(mut ranges: Ranges) -> Ranges {
    crate::sort::sort(&mut ranges);
    let mut out: Ranges = Vec::with_capacity(ranges.len());
    for (lo, hi) in ranges {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// Every code point not in `ranges` (sorted, disjoint).
pub(super) fn complement(ranges: &[(u32, u32)]) -> Ranges {
    let mut out = Vec::with_capacity(ranges.len() + 1);
    let mut next = 0u32;
    for &(lo, hi) in ranges {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi.saturating_add(1);
    }
    if next <= 0x10FFFF {
        out.push((next, 0x10FFFF));
    }
    out
}

fn digits() -> Ranges {
    vec![(0x30, 0x39)]
}

/// ECMA-262 `WordCharacters` without the `i` flag: ASCII letters, digits and `_`.
pub(super) fn word_chars() -> Ranges {
    vec![(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
}

fn line_terminators() -> Ranges {
    vec![(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]
}

/// ECMA-262 `WhiteSpace` and `LineTerminator`: what `\s` matches.
fn white_space() -> Ranges {
    normalize(vec![
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ])
}
