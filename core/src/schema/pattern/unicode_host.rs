//! `\p{…}` in wasm: the JS engine's own `RegExp` says which code points have a property
//! (`propertyId` and `propertyHas` in `core/src/js_strict_json.js`, the core's one snippet
//! module), so the wasm carries none of the Unicode tables that
//! the native build reads (`unicode.rs`, 15.8 KB of the core's 85 KB gzip).
//!
//! The names are what `new RegExp("\\p{name}", "u")` accepts, which ECMA-262 fixes, so a
//! pattern compiles here exactly when it compiles in the host's `RegExp`. The code points
//! are those of the host's Unicode version, the one the server's own JavaScript validators
//! (ajv, `@cfworker/json-schema`) use in the same engine; natively they are ICU4X's. Only
//! a property's data comes from the host: the pattern is still parsed and run by the
//! core's engine, in bounded time.

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(module = "/src/js_strict_json.js")]
extern "C" {
    #[wasm_bindgen(js_name = propertyId)]
    fn property_id(name: &str) -> i32;
    #[wasm_bindgen(js_name = propertyHas)]
    fn property_has(id: u32, c: u32) -> bool;
}

/// What a `\p{…}` reads: a property the host's `RegExp` knows, by its number there.
#[derive(Debug, Clone)]
pub(super) struct Property(u32);

impl Property {
    /// The property `name` (what is between the braces), or `None` when ECMA-262 has no
    /// such property.
    pub(super) fn named(name: &str) -> Option<Property> {
        u32::try_from(property_id(name)).ok().map(Property)
    }

    pub(super) fn has(&self, c: u32) -> bool {
        property_has(self.0, c)
    }
}
