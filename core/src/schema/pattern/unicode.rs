//! `\p{…}` as ECMA-262 defines it (22.2.2.9, tables of binary and non-binary properties):
//! `General_Category` values (also bare, as `\p{Lu}`), `Script` and `Script_Extensions`
//! values, the binary properties ECMA-262 lists, and `Any`, `ASCII`, `Assigned`. Names are
//! matched strictly (case and underscores count), as `RegExp` does.
//!
//! Natively the sets come from ICU4X's compiled Unicode data (`icu_properties`). In wasm
//! they are asked of the JS engine's own `RegExp` (`js_unicode.js`), whose Unicode data the
//! browser already has: carrying ICU4X's tables would add about 120 KB to every download
//! for a feature few schemas use. Asking about each of the 1.1 million code points would
//! take the engine a fraction of a second per property, so the package carries instead
//! `unicode_segments.bin`: the code points where any property ECMA-262 names changes value
//! (ICU4X's data, checked by `segments_table_is_icu4x_s`), and the engine is asked about one
//! code point per segment. Within a segment every property has one value, so the set is the
//! segments whose first code point the engine's `\p{name}` matches.

use super::parse::Ranges;
#[cfg(not(target_arch = "wasm32"))]
pub(super) use native::property;
#[cfg(target_arch = "wasm32")]
pub(super) use wasm::property;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::super::parse::{complement, normalize};
    use super::Ranges;
    use icu_properties::props::{GeneralCategory, GeneralCategoryGroup, Script};
    use icu_properties::script::ScriptWithExtensions;
    use icu_properties::{CodePointMapData, CodePointSetData, PropertyParser};

    /// The code points of the property `name` (what is between the braces), or `None` when
    /// ECMA-262 has no such property.
    pub(in super::super) fn property(name: &str) -> Option<Ranges> {
        let collect = |it: &mut dyn Iterator<Item = std::ops::RangeInclusive<u32>>| {
            normalize(it.map(|r| (*r.start(), *r.end())).collect())
        };
        if let Some((key, value)) = name.split_once('=') {
            return match key {
                "General_Category" | "gc" => general_category(value),
                "Script" | "sc" => {
                    let sc = PropertyParser::<Script>::new().get_strict(value)?;
                    Some(collect(
                        &mut CodePointMapData::<Script>::new().iter_ranges_for_value(sc),
                    ))
                }
                "Script_Extensions" | "scx" => {
                    let sc = PropertyParser::<Script>::new().get_strict(value)?;
                    Some(collect(
                        &mut ScriptWithExtensions::new().get_script_extensions_ranges(sc),
                    ))
                }
                _ => None,
            };
        }
        match name {
            "Any" => return Some(vec![(0, 0x10FFFF)]),
            "ASCII" => return Some(vec![(0, 0x7F)]),
            "Assigned" => {
                let unassigned = collect(
                    &mut CodePointMapData::<GeneralCategory>::new()
                        .iter_ranges_for_value(GeneralCategory::Unassigned),
                );
                return Some(complement(&unassigned));
            }
            _ => {}
        }
        if let Some(r) = general_category(name) {
            return Some(r);
        }
        let set = CodePointSetData::new_for_ecma262(name.as_bytes())?;
        Some(collect(&mut set.iter_ranges()))
    }

    fn general_category(value: &str) -> Option<Ranges> {
        let group = PropertyParser::<GeneralCategoryGroup>::new().get_strict(value)?;
        let ranges = CodePointMapData::<GeneralCategory>::new()
            .iter_ranges_for_group(group)
            .map(|r| (*r.start(), *r.end()))
            .collect();
        Some(normalize(ranges))
    }
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::super::parse::normalize;
    use super::{segment_starts, Ranges};
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(module = "/src/schema/pattern/js_unicode.js")]
    extern "C" {
        /// One byte per code point of `points`: 1 where `\p{name}` matches it; `undefined`
        /// when `RegExp` has no such property.
        #[wasm_bindgen(js_name = propertyMembers)]
        fn property_members(name: &str, points: &[u32]) -> JsValue;
    }

    /// The most property sets kept once asked: 64 (at most a few hundred KiB: `\p{L}` is
    /// about 700 ranges). Asking the engine tests one code point per segment (about a
    /// millisecond); real schemas use a handful of properties, each asked again by every
    /// field and form that uses it. Past the limit a set is asked again each time.
    const MAX_CACHED_PROPERTIES: usize = 64;

    thread_local! {
        static CACHE: RefCell<Vec<(String, Ranges)>> = const { RefCell::new(Vec::new()) };
        static STARTS: Vec<u32> = segment_starts();
    }

    /// The code points of the property `name` (what is between the braces), or `None` when
    /// ECMA-262 has no such property.
    pub(in super::super) fn property(name: &str) -> Option<Ranges> {
        match name {
            "Any" => return Some(vec![(0, 0x10FFFF)]),
            "ASCII" => return Some(vec![(0, 0x7F)]),
            _ => {}
        }
        if let Some(hit) = CACHE.with(|c| {
            c.borrow()
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, r)| r.clone())
        }) {
            return Some(hit);
        }
        let ranges = STARTS.with(|starts| {
            let members = property_members(name, starts)
                .dyn_into::<js_sys::Uint8Array>()
                .ok()?
                .to_vec();
            let ends = starts.iter().skip(1).map(|s| s - 1).chain([0x10FFFF]);
            Some(normalize(
                starts
                    .iter()
                    .zip(ends)
                    .zip(members)
                    .filter(|(_, m)| *m == 1)
                    .map(|((&lo, hi), _)| (lo, hi))
                    .collect(),
            ))
        })?;
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() < MAX_CACHED_PROPERTIES {
                c.push((name.to_owned(), ranges.clone()));
            }
        });
        Some(ranges)
    }
}

/// The table: each segment's first code point, from U+0000 up, as LEB128 deltas.
#[cfg(any(target_arch = "wasm32", test))]
const SEGMENTS: &[u8] = include_bytes!("unicode_segments.bin");

/// The first code point of every segment, decoded from [`SEGMENTS`].
#[cfg(any(target_arch = "wasm32", test))]
fn segment_starts() -> Vec<u32> {
    let mut out = Vec::with_capacity(SEGMENTS.len());
    let (mut at, mut delta, mut shift) = (0u32, 0u32, 0u32);
    for &b in SEGMENTS {
        delta |= u32::from(b & 0x7f) << shift;
        shift += 7;
        if b & 0x80 == 0 {
            at += delta;
            out.push(at);
            (delta, shift) = (0, 0);
        }
    }
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use icu_properties::props::{GeneralCategory, Script};
    use icu_properties::script::ScriptWithExtensions;
    use icu_properties::{CodePointMapData, CodePointSetData};

    /// ECMA-262's binary properties (table "Binary Unicode property aliases"), but `Any`,
    /// `ASCII` and `Assigned`, which follow from the others.
    const BINARY: &[&str] = &[
        "ASCII_Hex_Digit",
        "Alphabetic",
        "Bidi_Control",
        "Bidi_Mirrored",
        "Case_Ignorable",
        "Cased",
        "Changes_When_Casefolded",
        "Changes_When_Casemapped",
        "Changes_When_Lowercased",
        "Changes_When_NFKC_Casefolded",
        "Changes_When_Titlecased",
        "Changes_When_Uppercased",
        "Dash",
        "Default_Ignorable_Code_Point",
        "Deprecated",
        "Diacritic",
        "Emoji",
        "Emoji_Component",
        "Emoji_Modifier",
        "Emoji_Modifier_Base",
        "Emoji_Presentation",
        "Extended_Pictographic",
        "Extender",
        "Grapheme_Base",
        "Grapheme_Extend",
        "Hex_Digit",
        "IDS_Binary_Operator",
        "IDS_Trinary_Operator",
        "ID_Continue",
        "ID_Start",
        "Ideographic",
        "Join_Control",
        "Logical_Order_Exception",
        "Lowercase",
        "Math",
        "Noncharacter_Code_Point",
        "Pattern_Syntax",
        "Pattern_White_Space",
        "Quotation_Mark",
        "Radical",
        "Regional_Indicator",
        "Sentence_Terminal",
        "Soft_Dotted",
        "Terminal_Punctuation",
        "Unified_Ideograph",
        "Uppercase",
        "Variation_Selector",
        "White_Space",
        "XID_Continue",
        "XID_Start",
    ];

    /// Where any ECMA-262 property changes value, by ICU4X's data: the ends of every range
    /// of the General_Category and Script maps, of each script's Script_Extensions set and
    /// of each binary property's set.
    fn icu4x_segment_starts() -> Vec<u32> {
        let mut ranges: Vec<std::ops::RangeInclusive<u32>> = Vec::new();
        ranges.extend(
            CodePointMapData::<GeneralCategory>::new()
                .iter_ranges()
                .map(|r| r.range),
        );
        let mut scripts = Vec::new();
        for r in CodePointMapData::<Script>::new().iter_ranges() {
            scripts.push(r.value);
            ranges.push(r.range);
        }
        scripts.sort_unstable();
        scripts.dedup();
        let scx = ScriptWithExtensions::new();
        for sc in scripts {
            ranges.extend(scx.get_script_extensions_ranges(sc));
        }
        for name in BINARY {
            let set = CodePointSetData::new_for_ecma262(name.as_bytes()).expect(name);
            ranges.extend(set.iter_ranges());
        }
        let mut starts = vec![0];
        for r in ranges {
            starts.push(*r.start());
            if *r.end() < 0x10FFFF {
                starts.push(*r.end() + 1);
            }
        }
        starts.sort_unstable();
        starts.dedup();
        starts
    }

    /// The table the wasm build asks the engine by is ICU4X's: run with
    /// `MCP_ELICIT_WRITE_SEGMENTS=1` to write it anew after an `icu_properties` update.
    #[test]
    fn segments_table_is_icu4x_s() {
        let want = icu4x_segment_starts();
        if std::env::var_os("MCP_ELICIT_WRITE_SEGMENTS").is_some() {
            let mut bytes = Vec::new();
            let mut prev = 0;
            for &s in &want {
                let mut d = s - prev;
                prev = s;
                loop {
                    let b = (d & 0x7f) as u8;
                    d >>= 7;
                    if d == 0 {
                        bytes.push(b);
                        break;
                    }
                    bytes.push(b | 0x80);
                }
            }
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/schema/pattern/unicode_segments.bin"
            );
            std::fs::write(path, bytes).expect("write the table");
            return;
        }
        let have = super::segment_starts();
        assert!(
            have == want,
            "unicode_segments.bin is not ICU4X's ({} segments, ICU4X has {}): write it anew with MCP_ELICIT_WRITE_SEGMENTS=1",
            have.len(),
            want.len()
        );
    }

    /// Every set the native build reads from ICU4X is a union of whole segments, so asking
    /// about one code point per segment loses nothing.
    #[test]
    fn every_set_is_whole_segments() {
        let starts = super::segment_starts();
        for name in [
            "L",
            "Lu",
            "gc=Nd",
            "sc=Grek",
            "scx=Deva",
            "Assigned",
            "Emoji_Presentation",
            "White_Space",
            "Cn",
            "sc=Zzzz",
        ] {
            let set = super::native::property(name).expect(name);
            for (lo, hi) in set {
                assert!(starts.binary_search(&lo).is_ok(), "{name}: {lo:X}");
                assert!(
                    hi == 0x10FFFF || starts.binary_search(&(hi + 1)).is_ok(),
                    "{name}: {hi:X}"
                );
            }
        }
    }
}
