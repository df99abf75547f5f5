//! `\p{…}` natively (in wasm the JS engine answers instead: `unicode_host.rs`), as ECMA-262
//! defines it (22.2.2.9, tables of binary and non-binary properties):
//! `General_Category` values (also bare, as `\p{Lu}`), `Script` and `Script_Extensions`
//! values, the binary properties ECMA-262 lists, and `Any`, `ASCII`, `Assigned`. Names are
//! matched strictly (case and underscores count), as `RegExp` does.
//!
//! The names and sets are ICU4X's (`icu_properties`), written once into `unicode.bin` by the
//! test `tables_are_icu4x` below, which also fails when that file and the `icu_properties`
//! of `Cargo.lock` differ (regenerate: `MCP_ELICIT_WRITE_UNICODE=1 cargo test -p mcp-elicit
//! --lib tables_are_icu4x`). The file (28 KB) is a sixth of ICU4X's tries in size, and reading it
//! takes none of ICU4X's code; why it matters is in `docs/patterns.md` (Size).
//!
//! The file's layout, every number an unsigned LEB128 varint:
//! - three name sections, in order General_Category, Script, binary properties; each is a
//!   count, then per name: its length, its bytes, a count of set indices and the indices.
//!   A General_Category name lists the sets of the values it groups (`L` lists `Lu`, `Ll`,
//!   `Lt`, `Lm`, `Lo`); a Script name lists its `Script` set (its `Script_Extensions` set is
//!   the next one); a binary property name lists its one set.
//! - the General_Category values: their count, then the byte length of their map, then the
//!   map: every code point from 0 in runs, each its length and its value, which is the set
//!   index of that value's set (the sets 0 to count - 1).
//! - the other sets, in index order from there: each its byte length, then its base (0 for
//!   none, else one more than the index of an earlier set), then the code points where it
//!   differs from its base in membership (the starts and ends, exclusive, of its ranges when
//!   it has no base), in ascending order, each as the gap from the previous one (from 0 at
//!   first). A set written against a like one (`Script_Extensions` against `Script`,
//!   `XID_Start` against `ID_Start`) takes a few differences instead of all its ranges.

use super::parse::{complement, contains, normalize, Ranges};

/// The property names and code point sets (see the module's documentation).
static DATA: &[u8] = include_bytes!("unicode.bin");

/// What a `\p{…}` reads: the code points of its property, from `unicode.bin`.
#[derive(Debug, Clone)]
pub(super) struct Property(Ranges);

impl Property {
    /// The property `name` (what is between the braces), or `None` when ECMA-262 has no
    /// such property.
    pub(super) fn named(name: &str) -> Option<Property> {
        property(name).map(Property)
    }

    pub(super) fn has(&self, c: u32) -> bool {
        contains(&self.0, c)
    }
}

/// The code points of the property `name`, or `None` when ECMA-262 has no such property.
fn property(name: &str) -> Option<Ranges> {
    let tables = Tables::read(DATA)?;
    if let Some((key, value)) = name.split_once('=') {
        return match key {
            "General_Category" | "gc" => tables.union(Section::GeneralCategory, value),
            "Script" | "sc" => tables.nth(Section::Script, value, 0),
            "Script_Extensions" | "scx" => tables.nth(Section::Script, value, 1),
            _ => None,
        };
    }
    match name {
        "Any" => return Some(vec![(0, 0x10FFFF)]),
        "ASCII" => return Some(vec![(0, 0x7F)]),
        "Assigned" => {
            return Some(complement(
                &tables.union(Section::GeneralCategory, "Unassigned")?,
            ))
        }
        _ => {}
    }
    if let Some(r) = tables.union(Section::GeneralCategory, name) {
        return Some(r);
    }
    tables.nth(Section::Binary, name, 0)
}

#[derive(Clone, Copy)]
enum Section {
    GeneralCategory = 0,
    Script = 1,
    Binary = 2,
}

/// `DATA` split into its name sections, its General_Category map and its other sets.
struct Tables<'a> {
    sections: [&'a [u8]; 3],
    /// The number of General_Category values (the sets the map holds).
    gc_values: u32,
    gc_map: &'a [u8],
    sets: &'a [u8],
}

impl<'a> Tables<'a> {
    fn read(data: &'a [u8]) -> Option<Self> {
        let mut r = Reader(data);
        let mut sections = [&data[..0]; 3];
        for s in &mut sections {
            let start = r.0;
            for _ in 0..r.varint()? {
                r.bytes()?;
                for _ in 0..r.varint()? {
                    r.varint()?;
                }
            }
            *s = start.get(..start.len() - r.0.len())?;
        }
        let gc_values = r.varint()?;
        let gc_map = r.bytes()?;
        Some(Tables {
            sections,
            gc_values,
            gc_map,
            sets: r.0,
        })
    }

    /// The set indices listed for `name` in `section`.
    fn indices(&self, section: Section, name: &str) -> Option<Vec<u32>> {
        let mut r = Reader(self.sections[section as usize]);
        for _ in 0..r.varint()? {
            let found = r.bytes()? == name.as_bytes();
            let n = r.varint()?;
            let mut indices = Vec::new();
            for _ in 0..n {
                indices.push(r.varint()?);
            }
            if found {
                return Some(indices);
            }
        }
        None
    }

    /// The union of the sets `name` lists.
    fn union(&self, section: Section, name: &str) -> Option<Ranges> {
        let mut out = Vec::new();
        for i in self.indices(section, name)? {
            out.extend(self.set(i)?);
        }
        Some(normalize(out))
    }

    /// The set `nth` after the one `name` lists.
    fn nth(&self, section: Section, name: &str, nth: u32) -> Option<Ranges> {
        let i = self.indices(section, name)?.first()?.checked_add(nth)?;
        self.set(i)
    }

    fn set(&self, index: u32) -> Option<Ranges> {
        let edges = self.edges(index)?;
        let mut ranges = Vec::with_capacity(edges.len() / 2);
        let mut pairs = edges.chunks_exact(2);
        for pair in &mut pairs {
            if let [start, end] = *pair {
                ranges.push((start, end.checked_sub(1)?));
            }
        }
        pairs.remainder().is_empty().then_some(ranges)
    }

    /// The code points where set `index` starts and stops, ascending: its own differences
    /// folded into its base's, and so on down its chain of bases.
    fn edges(&self, mut index: u32) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        loop {
            if index < self.gc_values {
                return Some(flip_all(&out, &self.gc_edges(index)?));
            }
            let mut r = Reader(self.sets);
            for _ in self.gc_values..index {
                r.bytes()?;
            }
            let mut body = Reader(r.bytes()?);
            let base = body.varint()?;
            let mut own = Vec::new();
            let mut at: u32 = 0;
            while !body.0.is_empty() {
                at = at.checked_add(body.varint()?)?;
                own.push(at);
            }
            out = flip_all(&out, &own);
            if base == 0 {
                return Some(out);
            }
            // A base is an earlier set, so the chain ends.
            let next = base - 1;
            if next >= index {
                return None;
            }
            index = next;
        }
    }

    /// The edges of the General_Category value whose set is `index`, from the map.
    fn gc_edges(&self, index: u32) -> Option<Vec<u32>> {
        let mut r = Reader(self.gc_map);
        let mut out = Vec::new();
        let mut at: u32 = 0;
        while !r.0.is_empty() {
            let end = at.checked_add(r.varint()?)?;
            if r.varint()? == index {
                flip(&mut out, at);
                flip(&mut out, end);
            }
            at = end;
        }
        Some(out)
    }
}

/// Adds the edge `at` to ascending `edges`, or takes it away when it is the last one (two
/// ranges that touch are one).
fn flip(edges: &mut Vec<u32>, at: u32) {
    if edges.last() == Some(&at) {
        edges.pop();
    } else {
        edges.push(at);
    }
}

/// The edges of the code points in exactly one of the two sets whose edges these are.
fn flip_all(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.iter().peekable(), b.iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(&&x), Some(&&y)) if x <= y => a.next(),
            (_, Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, None) => return out,
        };
        if let Some(&at) = next {
            flip(&mut out, at);
        }
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn varint(&mut self) -> Option<u32> {
        let mut value: u32 = 0;
        for shift in (0..32).step_by(7) {
            let (&b, rest) = self.0.split_first()?;
            self.0 = rest;
            value |= u32::from(b & 0x7F).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    /// A length, then that many bytes.
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.varint()?).ok()?;
        if len > self.0.len() {
            return None;
        }
        let (bytes, rest) = self.0.split_at(len);
        self.0 = rest;
        Some(bytes)
    }
}

/// Writes `unicode.bin` from ICU4X, and checks every name against ICU4X's own answer.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{flip_all, normalize, property, Ranges, DATA};
    use icu_properties::props::{BinaryProperty, GeneralCategory, GeneralCategoryGroup, Script, *};
    use icu_properties::provider::{
        Baked, PropertyNameParseGeneralCategoryMaskV1, PropertyNameParseScriptV1,
    };
    use icu_properties::script::ScriptWithExtensions;
    use icu_properties::{CodePointMapData, CodePointSetData, PropertyParser};
    use icu_provider::prelude::*;
    use std::ops::RangeInclusive;

    fn varint(out: &mut Vec<u8>, mut v: u32) {
        loop {
            let low = (v & 0x7F) as u8;
            v >>= 7;
            if v == 0 {
                out.push(low);
                return;
            }
            out.push(low | 0x80);
        }
    }

    fn ranges(it: impl Iterator<Item = RangeInclusive<u32>>) -> Ranges {
        normalize(it.map(|r| (*r.start(), *r.end())).collect())
    }

    /// Where `set` starts and stops, ascending.
    fn edges(set: &Ranges) -> Vec<u32> {
        set.iter()
            .flat_map(|&(start, end)| [start, end + 1])
            .collect()
    }

    fn gaps(out: &mut Vec<u8>, edges: &[u32]) {
        let mut at = 0;
        for &e in edges {
            varint(out, e - at);
            at = e;
        }
    }

    /// The General_Category sets (a partition of the code points) as one map of runs.
    fn write_map(out: &mut Vec<u8>, sets: &[Ranges]) {
        let mut runs: Vec<(u32, u32, u32)> = Vec::new();
        for (value, set) in sets.iter().enumerate() {
            runs.extend(set.iter().map(|&(start, end)| (start, end, value as u32)));
        }
        runs.sort_unstable();
        let mut map = Vec::new();
        let mut at = 0;
        for (start, end, value) in runs {
            assert_eq!(start, at, "General_Category covers every code point once");
            varint(&mut map, end + 1 - start);
            varint(&mut map, value);
            at = end + 1;
        }
        assert_eq!(at, 0x11_0000);
        varint(out, sets.len() as u32);
        varint(out, map.len() as u32);
        out.extend(map);
    }

    /// The sets after the map, each against the earlier set that makes it shortest.
    fn write_sets(out: &mut Vec<u8>, sets: &[Ranges], first: usize) {
        let all: Vec<Vec<u32>> = sets.iter().map(edges).collect();
        for (i, own) in all.iter().enumerate().skip(first) {
            let mut best = vec![0];
            gaps(&mut best, own);
            for (j, base) in all.iter().enumerate().take(i) {
                let mut body = Vec::new();
                varint(&mut body, j as u32 + 1);
                gaps(&mut body, &flip_all(base, own));
                if body.len() < best.len() {
                    best = body;
                }
            }
            varint(out, best.len() as u32);
            out.extend(best);
        }
    }

    fn write_names(out: &mut Vec<u8>, names: &[(String, Vec<u32>)]) {
        varint(out, names.len() as u32);
        for (name, indices) in names {
            varint(out, name.len() as u32);
            out.extend(name.as_bytes());
            varint(out, indices.len() as u32);
            for &i in indices {
                varint(out, i);
            }
        }
    }

    /// The (NAME, SHORT_NAME) of every binary property `new_for_ecma262` accepts.
    macro_rules! names_of {
        ($($t:ty),* $(,)?) => { [$((<$t>::NAME, <$t>::SHORT_NAME)),*] };
    }
    const BINARY: [(&[u8], &[u8]); 50] = names_of![
        AsciiHexDigit,
        Alphabetic,
        BidiControl,
        BidiMirrored,
        CaseIgnorable,
        Cased,
        ChangesWhenCasefolded,
        ChangesWhenCasemapped,
        ChangesWhenLowercased,
        ChangesWhenNfkcCasefolded,
        ChangesWhenTitlecased,
        ChangesWhenUppercased,
        Dash,
        DefaultIgnorableCodePoint,
        Deprecated,
        Diacritic,
        Emoji,
        EmojiComponent,
        EmojiModifier,
        EmojiModifierBase,
        EmojiPresentation,
        ExtendedPictographic,
        Extender,
        GraphemeBase,
        GraphemeExtend,
        HexDigit,
        IdsBinaryOperator,
        IdsTrinaryOperator,
        IdContinue,
        IdStart,
        Ideographic,
        JoinControl,
        LogicalOrderException,
        Lowercase,
        Math,
        NoncharacterCodePoint,
        PatternSyntax,
        PatternWhiteSpace,
        QuotationMark,
        Radical,
        RegionalIndicator,
        SentenceTerminal,
        SoftDotted,
        TerminalPunctuation,
        UnifiedIdeograph,
        Uppercase,
        VariationSelector,
        WhiteSpace,
        XidContinue,
        XidStart,
    ];

    /// What `unicode.bin` holds, made from ICU4X's compiled data.
    fn generate() -> Vec<u8> {
        let mut sets: Vec<Ranges> = Vec::new();
        // General_Category: one set per value (0 is Unassigned), a name lists its group's.
        let gc = CodePointMapData::<GeneralCategory>::new();
        let mut values = Vec::new();
        for v in 0u8..=u8::MAX {
            if let Ok(value) = GeneralCategory::try_from(v) {
                values.push(value);
                sets.push(ranges(gc.iter_ranges_for_value(value)));
            }
        }
        let mut gc_names = Vec::new();
        let parse_group = PropertyParser::<GeneralCategoryGroup>::new();
        let trie: DataResponse<PropertyNameParseGeneralCategoryMaskV1> =
            Baked.load(Default::default()).unwrap();
        for (name, _) in trie.payload.get().map.iter() {
            let group = parse_group.get_strict(&name).unwrap();
            let members = (0..values.len() as u32)
                .filter(|&i| group.contains(values[i as usize]))
                .collect();
            gc_names.push((name, members));
        }
        // Script: a set and a Script_Extensions set per script that has a name.
        let sc = CodePointMapData::<Script>::new();
        let scx = ScriptWithExtensions::new();
        let parse_script = PropertyParser::<Script>::new();
        let trie: DataResponse<PropertyNameParseScriptV1> = Baked.load(Default::default()).unwrap();
        let mut seen: Vec<(Script, u32)> = Vec::new();
        let mut sc_names = Vec::new();
        for (name, _) in trie.payload.get().map.iter() {
            let script = parse_script.get_strict(&name).unwrap();
            let first = match seen.iter().find(|(s, _)| *s == script) {
                Some(&(_, i)) => i,
                None => {
                    let i = sets.len() as u32;
                    sets.push(ranges(sc.iter_ranges_for_value(script)));
                    sets.push(ranges(scx.get_script_extensions_ranges(script)));
                    seen.push((script, i));
                    i
                }
            };
            sc_names.push((name, vec![first]));
        }
        // The binary properties, under both their names.
        let mut binary_names = Vec::new();
        for (long, short) in BINARY {
            let set = CodePointSetData::new_for_ecma262(long).unwrap();
            let i = sets.len() as u32;
            sets.push(ranges(set.iter_ranges()));
            for name in [long, short] {
                let name = String::from_utf8(name.to_vec()).unwrap();
                if !binary_names.iter().any(|(n, _)| *n == name) {
                    binary_names.push((name, vec![i]));
                }
            }
        }
        let mut out = Vec::new();
        write_names(&mut out, &gc_names);
        write_names(&mut out, &sc_names);
        write_names(&mut out, &binary_names);
        write_map(&mut out, &sets[..values.len()]);
        write_sets(&mut out, &sets, values.len());
        out
    }

    #[test]
    fn tables_are_icu4x() {
        let fresh = generate();
        if std::env::var_os("MCP_ELICIT_WRITE_UNICODE").is_some() {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/schema/pattern/unicode.bin"
            );
            std::fs::write(path, &fresh).unwrap();
            return;
        }
        assert!(
            fresh == DATA,
            "unicode.bin is not what this icu_properties gives: regenerate it (see unicode.rs)"
        );
    }

    /// Every name, answered as ICU4X's own API answers it.
    #[test]
    fn every_name_answers_as_icu4x() {
        let gc = CodePointMapData::<GeneralCategory>::new();
        let trie: DataResponse<PropertyNameParseGeneralCategoryMaskV1> =
            Baked.load(Default::default()).unwrap();
        for (name, _) in trie.payload.get().map.iter() {
            let group = PropertyParser::<GeneralCategoryGroup>::new()
                .get_strict(&name)
                .unwrap();
            let want = ranges(gc.iter_ranges_for_group(group));
            assert_eq!(property(&name).as_ref(), Some(&want), "{name}");
            assert_eq!(property(&format!("gc={name}")).as_ref(), Some(&want));
            assert_eq!(property(&format!("General_Category={name}")), Some(want));
        }
        let trie: DataResponse<PropertyNameParseScriptV1> = Baked.load(Default::default()).unwrap();
        for (name, _) in trie.payload.get().map.iter() {
            let script = PropertyParser::<Script>::new().get_strict(&name).unwrap();
            let want = ranges(CodePointMapData::<Script>::new().iter_ranges_for_value(script));
            assert_eq!(
                property(&format!("sc={name}")).as_ref(),
                Some(&want),
                "{name}"
            );
            assert_eq!(property(&format!("Script={name}")), Some(want));
            let want = ranges(ScriptWithExtensions::new().get_script_extensions_ranges(script));
            assert_eq!(property(&format!("scx={name}")).as_ref(), Some(&want));
            assert_eq!(property(&format!("Script_Extensions={name}")), Some(want));
            // A script is not a bare name (only General_Category values are).
            if PropertyParser::<GeneralCategoryGroup>::new()
                .get_strict(&name)
                .is_none()
            {
                assert_eq!(property(&name), None, "{name}");
            }
        }
        for (long, short) in BINARY {
            for name in [long, short] {
                let name = std::str::from_utf8(name).unwrap();
                let want = CodePointSetData::new_for_ecma262(name.as_bytes()).unwrap();
                assert_eq!(property(name), Some(ranges(want.iter_ranges())), "{name}");
            }
        }
        let unassigned = ranges(gc.iter_ranges_for_value(GeneralCategory::Unassigned));
        assert_eq!(property("Assigned"), Some(super::complement(&unassigned)));
        for refused in [
            "lu",
            "L&",
            "sc=latin",
            "Latin",
            "gc=Emoji",
            "Alpha=Yes",
            "",
            "=",
            "sc=",
        ] {
            assert_eq!(property(refused), None, "{refused}");
        }
    }
}
