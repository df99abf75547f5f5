//! `\p{…}` as ECMA-262 defines it (22.2.2.9, tables of binary and non-binary properties):
//! `General_Category` values (also bare, as `\p{Lu}`), `Script` and `Script_Extensions`
//! values, the binary properties ECMA-262 lists, and `Any`, `ASCII`, `Assigned`. Names are
//! matched strictly (case and underscores count), as `RegExp` does.
//!
//! The names and sets are ICU4X's (`icu_properties`), written once into `unicode.bin` by the
//! test `tables_are_icu4x` below, which also fails when that file and the `icu_properties`
//! of `Cargo.lock` differ (regenerate: `MCP_ELICIT_WRITE_UNICODE=1 cargo test -p mcp-elicit
//! --lib tables_are_icu4x`). The file is a third of ICU4X's tries in size, and reading it
//! takes none of ICU4X's code; why it matters is in `docs/patterns.md` (Size).
//!
//! The file's layout, every number an unsigned LEB128 varint:
//! - three name sections, in order General_Category, Script, binary properties; each is a
//!   count, then per name: its length, its bytes, a count of set indices and the indices.
//!   A General_Category name lists the sets of the values it groups (`L` lists `Lu`, `Ll`,
//!   `Lt`, `Lm`, `Lo`); a Script name lists its `Script` set, then its `Script_Extensions` set;
//!   a binary property name lists its one set.
//! - the sets, each its byte length, then its ranges in ascending order, each as the gap
//!   from the end of the previous range (exclusive; 0 at first) and its length.

use super::parse::{complement, normalize, Ranges};

/// The property names and code point sets (see the module's documentation).
static DATA: &[u8] = include_bytes!("unicode.bin");

/// The code points of the property `name` (what is between the braces), or `None` when
/// ECMA-262 has no such property.
pub(super) fn property(name: &str) -> Option<Ranges> {
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

/// `DATA` split into its name sections and its sets.
struct Tables<'a> {
    sections: [&'a [u8]; 3],
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
        Some(Tables {
            sections,
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

    /// The `nth` set `name` lists.
    fn nth(&self, section: Section, name: &str, nth: usize) -> Option<Ranges> {
        let i = *self.indices(section, name)?.get(nth)?;
        self.set(i)
    }

    fn set(&self, index: u32) -> Option<Ranges> {
        let mut r = Reader(self.sets);
        for _ in 0..index {
            r.bytes()?;
        }
        let mut body = Reader(r.bytes()?);
        let mut ranges = Vec::new();
        let mut at: u32 = 0;
        while !body.0.is_empty() {
            let start = at.checked_add(body.varint()?)?;
            at = start.checked_add(body.varint()?)?;
            ranges.push((start, at.checked_sub(1)?));
        }
        Some(ranges)
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
    use super::{normalize, property, Ranges, DATA};
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

    fn write_set(out: &mut Vec<u8>, set: &Ranges) {
        let mut body = Vec::new();
        let mut at = 0;
        for &(start, end) in set {
            varint(&mut body, start - at);
            varint(&mut body, end + 1 - start);
            at = end + 1;
        }
        varint(out, body.len() as u32);
        out.extend(body);
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
            sc_names.push((name, vec![first, first + 1]));
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
        for set in &sets {
            write_set(&mut out, set);
        }
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
