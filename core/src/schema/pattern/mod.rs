//! A field's `pattern`: an ECMA-262 regular expression with the `u` flag, as JSON Schema
//! says, checked here in bounded time. `docs/patterns.md` says why the engine is this one.
//!
//! - **Syntax**: ECMA-262 `u` mode (`parse`): lookahead and lookbehind, back-references,
//!   named groups, `\p{…}`, and `.`, `\d`, `\w`, `\s`, `\b`, `^`, `$` with ECMA-262's
//!   meanings. Four Python constructs that are errors in ECMA-262 are read as Python means
//!   them: `(?P<n>…)`, `(?P=n)`, `\A`, `\Z`.
//! - **Time**: a pattern without back-references runs memoised: each (instruction,
//!   position) is explored at most once per search, so a check costs at most the program's
//!   length times the text's, whatever the pattern (`^(a+)+$` included). A pattern with
//!   back-references runs as ECMA-262 backtracks. Both count their steps and stop at
//!   [`MAX_MATCH_STEPS`]: the value is then not checked here ([`PatternCheck::NotChecked`]).
//! - **Never unanswerable**: a pattern that cannot be checked (another dialect, not a
//!   regular expression, over a limit) does not refuse the schema: the field keeps the
//!   pattern, [`Pattern::not_checked`] says why, and the server's own validation decides.

mod parse;
mod program;
// `\p{…}`: natively from the core's own tables, in wasm from the JS engine's `RegExp`
// (`docs/patterns.md`, Size).
#[cfg(not(target_arch = "wasm32"))]
mod unicode;
#[cfg(target_arch = "wasm32")]
#[path = "unicode_host.rs"]
mod unicode;

use program::{Allowance, Compiled, Outcome, TooLarge};
use serde::{Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// The longest `pattern` checked, in bytes: 2 KiB. Real patterns are short (pydantic's
/// `pattern=` rarely passes 100 bytes; a full IPv6 address pattern is 661); reading one costs
/// memory in proportion to its length. A longer one is not checked here.
pub const MAX_PATTERN_LEN: usize = 2048;

/// The most instructions a pattern compiles to: 20,000. Counted repetitions are copied
/// (`a{3}` is three instructions), so a short pattern can ask for a huge program
/// (`(?:[a-z]{1000}){1000}`); the IPv6 pattern above needs about 1,500. A pattern that needs
/// more is not checked here.
pub const MAX_PROGRAM_LEN: usize = 20_000;

/// The most steps reading and compiling one pattern may take: 60,000. A step is a character
/// read, a code point range a class holds, a part of the pattern visited while compiling or
/// an instruction written; a `\p{…}` counts as 1,000 (natively a walk over the Unicode
/// tables, in wasm a call into the JS engine). Counted repetitions copy their subtree, and a
/// subtree may write almost nothing (`(?:(?:(a)bbb…b){0}){20000}` wrote 20,000 instructions
/// after some 40 million visits), so [`MAX_PROGRAM_LEN`] alone does not bound the time.
/// `(?:[a-z]{999}){20}`, at [`MAX_PROGRAM_LEN`], takes about 40,000. A pattern that needs
/// more is not checked here.
pub const MAX_COMPILE_STEPS: usize = 60_000;

/// The deepest nesting of groups read: 50. Reading and compiling recurse once per level, and
/// the wasm stack is small; a deeper pattern is not checked here.
pub const MAX_PATTERN_DEPTH: usize = 50;

/// The most capturing groups read: 200. A back-reference check copies the captures at each
/// lookaround; a pattern with more groups is not checked here.
pub const MAX_PATTERN_GROUPS: u32 = 200;

/// The most `\p{…}` escapes read in one pattern: 32. Natively each is a walk over Unicode
/// data and a copy of the property's ranges (`\p{L}` is about 650, 5 KiB); in wasm it asks
/// the JS engine's `RegExp`. A form may hold many patterned fields; a pattern with more is
/// not checked here.
pub const MAX_PROPERTY_ESCAPES: usize = 32;

/// The most code point ranges the classes of one pattern hold: 8,192 (64 KiB), a `\p{…}`
/// counting as one (its own data is bounded by [`MAX_PROPERTY_ESCAPES`]). `\S` is 11 ranges;
/// a pattern whose classes need more is not checked here, which keeps a form of many
/// patterned fields within tens of MiB.
pub const MAX_PATTERN_RANGES: usize = 8192;

/// The most steps one check may take: 1,000,000 (an instruction run, a character compared
/// by a back-reference, a capture copied, a property a class test asks: in wasm a call into
/// the JS engine), tens of milliseconds in a browser. A memoised run
/// takes at most about twice the program's length times the text's, so a pattern of up to
/// 50 instructions without lookarounds always gets an answer on a text of
/// [`MAX_PATTERN_TEXT_LEN`] (a lookaround that succeeds is run again at each position, so
/// with one the cost may be the text's length squared: `docs/patterns.md`), and a
/// longer one on shorter texts. Beyond it the value is not checked here and the server
/// decides. The steps also bound a check's memory (at most one saved alternative a step).
pub const MAX_MATCH_STEPS: usize = 1_000_000;

/// The largest memo of a check, in bits (one per instruction and text position): 16 Mi
/// (2 MiB). Past it (a long program and a long text), the check backtracks without a memo,
/// still within [`MAX_MATCH_STEPS`].
pub const MAX_MEMO_BITS: usize = 16 * 1024 * 1024;

/// The most patterns one form checks: 16. Each check may take up to [`MAX_MATCH_STEPS`], and
/// a form checks every patterned field when it renders and when it is submitted, so a
/// server sending a thousand patterned fields with long defaults could otherwise freeze the
/// page for a minute. Real forms have a handful; the patterns of later fields are not
/// checked here (the field says so) and the server decides.
pub const MAX_CHECKED_PATTERNS_PER_FORM: usize = 16;

/// The most instructions the patterns of one form compile to together: 100,000 (a few MiB).
/// [`MAX_PROGRAM_LEN`] bounds one pattern; this bounds a form of many. The patterns of later
/// fields are not checked here.
pub const MAX_FORM_PROGRAM_LEN: usize = 100_000;

/// The most steps ([`MAX_COMPILE_STEPS`]) reading and compiling the patterns of one form
/// take together: 1,000,000, a few milliseconds in a browser. Patterns that cannot be
/// checked spend it too, so a form of a thousand costly patterns none of which compiles
/// stops costing once it is spent. Sixteen real patterns take a few tens of thousands.
/// Once it is spent, the patterns of later fields are not read at all: they are kept
/// unchecked, in words, and the server decides.
pub const MAX_FORM_COMPILE_STEPS: usize = 1_000_000;

/// The longest text checked against a `pattern`, in characters (code points): 10,000. A
/// patterned field holds codes and identifiers, not essays; a longer text gets a `pattern`
/// error saying so instead of a check whose cost the server chose.
pub const MAX_PATTERN_TEXT_LEN: usize = 10_000;

/// A field's `pattern`, compiled once when the schema is compiled and kept with the field, so
/// every check of every copy of the field reuses it (copies share the compiled program).
/// Compared, shown and serialised as its source text.
#[derive(Clone)]
pub struct Pattern {
    source: String,
    engine: Engine,
}

#[derive(Clone)]
enum Engine {
    Ready {
        program: Arc<Compiled>,
        python: bool,
    },
    NotChecked(PatternError),
}

/// Why a `pattern` is not checked by this client.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternError {
    /// Longer than [`MAX_PATTERN_LEN`] bytes.
    TooLong { len: usize },
    /// Not an ECMA-262 `u`-mode regular expression (the text says where and why).
    Invalid(String),
    /// Needs more than [`MAX_PROGRAM_LEN`] instructions.
    TooLarge,
    /// Nested deeper than [`MAX_PATTERN_DEPTH`], more groups than [`MAX_PATTERN_GROUPS`],
    /// more than [`MAX_PROPERTY_ESCAPES`] or classes over [`MAX_PATTERN_RANGES`].
    TooComplex(String),
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::TooLong { len } => write!(
                f,
                "it is {len} bytes long, and patterns of at most {MAX_PATTERN_LEN} bytes are checked here"
            ),
            PatternError::Invalid(why) => write!(
                f,
                "it is not an ECMA-262 regular expression that this client reads: {why}"
            ),
            PatternError::TooLarge => write!(
                f,
                "its repetitions need more than {MAX_PROGRAM_LEN} steps of program"
            ),
            PatternError::TooComplex(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for PatternError {}

/// Why building a program failed.
enum Failure {
    Refused(PatternError),
    TooLarge(TooLarge),
}

/// What [`Pattern::compile_within`] did.
pub(crate) struct Attempt {
    pub(crate) pattern: Pattern,
    /// Steps taken reading and compiling ([`MAX_COMPILE_STEPS`]).
    pub(crate) steps: usize,
    /// Whether the form's allowance ran out, rather than the pattern's own bound.
    pub(crate) form_spent: bool,
}

/// What checking one text against a pattern found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum PatternCheck {
    Matches,
    DoesNotMatch,
    /// The pattern is not checked here ([`Pattern::not_checked`]), or this text needed more
    /// than [`MAX_MATCH_STEPS`]: the server decides.
    NotChecked,
}

impl Pattern {
    /// Reads and compiles `source`. A pattern that cannot be checked is still a `Pattern`:
    /// [`Pattern::not_checked`] says why, and every check answers
    /// [`PatternCheck::NotChecked`].
    pub fn compile(source: &str) -> Pattern {
        Self::compile_within(source, MAX_PROGRAM_LEN, MAX_COMPILE_STEPS).pattern
    }

    /// [`Pattern::compile`] within what a form has left: at most `program` instructions
    /// and `steps` steps (each at most the one-pattern bound). Also says the steps taken
    /// and whether the form's allowance, rather than the pattern's own bound, ran out.
    pub(crate) fn compile_within(source: &str, program: usize, steps: usize) -> Attempt {
        let allowance = Allowance {
            program: program.min(MAX_PROGRAM_LEN),
            steps: steps.min(MAX_COMPILE_STEPS),
        };
        let mut taken = 0;
        let built = Self::build(source, allowance, &mut taken);
        let form_spent = match &built {
            Err(Failure::TooLarge(TooLarge::Program)) => allowance.program < MAX_PROGRAM_LEN,
            Err(Failure::TooLarge(TooLarge::Steps)) => allowance.steps < MAX_COMPILE_STEPS,
            _ => false,
        };
        let engine = match built {
            Ok((program, python)) => Engine::Ready {
                program: Arc::new(program),
                python,
            },
            Err(Failure::Refused(e)) => Engine::NotChecked(e),
            Err(Failure::TooLarge(TooLarge::Program)) => Engine::NotChecked(PatternError::TooLarge),
            Err(Failure::TooLarge(TooLarge::Steps)) => {
                Engine::NotChecked(PatternError::TooComplex(format!(
                    "compiling it would take more than {MAX_COMPILE_STEPS} steps"
                )))
            }
        };
        Attempt {
            pattern: Pattern {
                source: source.to_owned(),
                engine,
            },
            steps: taken,
            form_spent,
        }
    }

    /// `source`, not read at all: the form's budget was spent before its field
    /// ([`MAX_CHECKED_PATTERNS_PER_FORM`], [`MAX_FORM_PROGRAM_LEN`],
    /// [`MAX_FORM_COMPILE_STEPS`]); `why` says which.
    pub(crate) fn not_read(source: &str, why: String) -> Pattern {
        Pattern {
            source: source.to_owned(),
            engine: Engine::NotChecked(PatternError::TooComplex(why)),
        }
    }

    /// Like [`Pattern::compile`], but refuses a pattern this client cannot check.
    pub fn new(source: &str) -> Result<Pattern, PatternError> {
        let p = Self::compile(source);
        match p.not_checked() {
            Some(e) => Err(e.clone()),
            None => Ok(p),
        }
    }

    fn build(
        source: &str,
        allowance: Allowance,
        steps: &mut usize,
    ) -> Result<(Compiled, bool), Failure> {
        if source.len() > MAX_PATTERN_LEN {
            return Err(Failure::Refused(PatternError::TooLong {
                len: source.len(),
            }));
        }
        let parsed = parse::parse(source, steps).map_err(|e| {
            Failure::Refused(match e {
                parse::ParseError::Syntax(why) => PatternError::Invalid(why),
                parse::ParseError::TooComplex(why) => PatternError::TooComplex(why),
            })
        })?;
        // Reading is bounded by the pattern's own limits; compiling gets what is left.
        let allowance = Allowance {
            steps: allowance.steps.saturating_sub(*steps),
            ..allowance
        };
        let program = Compiled::new(
            &parsed.node,
            parsed.groups,
            parsed.has_backrefs,
            allowance,
            steps,
        )
        .map_err(Failure::TooLarge)?;
        Ok((program, parsed.python))
    }

    /// Instructions of the compiled program (0 for a pattern not checked here).
    pub fn program_len(&self) -> usize {
        match &self.engine {
            Engine::Ready { program, .. } => program.len(),
            Engine::NotChecked(_) => 0,
        }
    }

    /// The pattern as the schema wrote it.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Why this client does not check the pattern, if it does not.
    pub fn not_checked(&self) -> Option<&PatternError> {
        match &self.engine {
            Engine::NotChecked(e) => Some(e),
            Engine::Ready { .. } => None,
        }
    }

    /// Whether the pattern was read with Python's meaning of `(?P<n>…)`, `(?P=n)`, `\A` or
    /// `\Z` (errors in ECMA-262).
    pub fn is_python(&self) -> bool {
        matches!(self.engine, Engine::Ready { python: true, .. })
    }

    /// Checks whether `text` contains a match (JSON Schema patterns are not anchored), in at
    /// most [`MAX_MATCH_STEPS`] steps. Callers bound `text` ([`MAX_PATTERN_TEXT_LEN`]); the
    /// validator does.
    pub fn check(&self, text: &str) -> PatternCheck {
        let Engine::Ready { program, .. } = &self.engine else {
            return PatternCheck::NotChecked;
        };
        let chars: Vec<char> = text.chars().collect();
        match program.search(&chars) {
            Outcome::Match => PatternCheck::Matches,
            Outcome::NoMatch => PatternCheck::DoesNotMatch,
            Outcome::OutOfSteps => PatternCheck::NotChecked,
        }
    }

    /// Whether `text` is known to contain a match ([`Pattern::check`] answered `Matches`).
    pub fn is_match(&self, text: &str) -> bool {
        self.check(text) == PatternCheck::Matches
    }

    /// What a form says beside a field whose pattern is not checked for `text`, in words, or
    /// `None` when it is checked.
    pub fn note(&self, text: &str) -> Option<String> {
        if let Some(why) = self.not_checked() {
            return Some(format!(
                "This form does not check the pattern {self} ({why}); the server checks it."
            ));
        }
        if text.chars().count() <= MAX_PATTERN_TEXT_LEN
            && self.check(text) == PatternCheck::NotChecked
        {
            return Some(format!(
                "This text was not checked against the pattern {self}: checking it would take \
                 too long here; the server checks it."
            ));
        }
        None
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.source, f)
    }
}

/// The most characters of a pattern quoted in a message: 200. A pattern too long to check
/// may be megabytes of server text, and notes are rebuilt as the person types; a longer one
/// is cut, ending in "…" (it is still serialised whole).
pub const MAX_SHOWN_PATTERN_CHARS: usize = 200;

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.source.char_indices().nth(MAX_SHOWN_PATTERN_CHARS) {
            None => f.write_str(&self.source),
            Some((cut, _)) => {
                f.write_str(self.source.get(..cut).unwrap_or_default())?;
                f.write_str("…")
            }
        }
    }
}

impl Serialize for Pattern {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.source)
    }
}
