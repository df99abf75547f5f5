//! Sign-in's own wasm (`mcp_elicit_signin`): one export, `signIn(input)`, which runs one
//! sign-in ([`mcp_elicit_web::auth::flow`]) and answers the new grant's record, or rejects
//! with words. McpClient's wasm calls it through host/src/signin.js, which loads this wasm
//! the first time a server asks the person to sign in.

use wasm_bindgen::prelude::*;

/// One sign-in: see [`mcp_elicit_web::auth::flow`] for what `input` carries.
#[wasm_bindgen(js_name = signIn)]
pub async fn sign_in(input: JsValue) -> Result<JsValue, JsValue> {
    mcp_elicit_web::auth::flow::sign_in(input).await
}
