//! `\p{…}` as ECMA-262 defines it (22.2.2.9, tables of binary and non-binary properties):
//! `General_Category` values (also bare, as `\p{Lu}`), `Script` and `Script_Extensions`
//! values, the binary properties ECMA-262 lists, and `Any`, `ASCII`, `Assigned`. Names are
//! matched strictly (case and underscores count), as `RegExp` does. The sets come from
//! ICU4X's compiled Unicode data (`icu_properties`, already a dependency of `idna`; what its
//! data costs in wasm is in `docs/patterns.md`).

use super::parse::{complement, normalize, Ranges};
use icu_properties::props::{GeneralCategory, GeneralCategoryGroup, Script};
use icu_properties::script::ScriptWithExtensions;
use icu_properties::{CodePointMapData, CodePointSetData, PropertyParser};

/// The code points of the property `name` (what is between the braces), or `None` when
/// ECMA-262 has no such property.
pub(super) fn property(name: &str) -> Option<Ranges> {
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
