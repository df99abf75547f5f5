//! The thin wasm-bindgen JS API over the core. (Owned by the schema work; placeholder.)
