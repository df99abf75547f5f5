//! The thin wasm-bindgen JS API over the core: `compileSchema` and `validateContent`, as the
//! DOM contract names them, usable from a page and from Node.js.
//!
//! Everything a caller passes is untrusted: values that are not JSON (functions, symbols,
//! `BigInt`s, cycles, throwing getters) become errors in words, never panics or traps,
//! since either kills the page. [`json_from_js`] is that crossing, shared with the web
//! crate's host APIs.
//!
//! A host's value crosses in one walk in the engine ([`Crossing`]): written by that walk
//! into a compact encoding (`encodeJson` in `js_strict_json.js`), straight into wasm
//! memory when it fits the buffer kept for it, and read into a light tree ([`Json`]). A
//! value that walk is not sure of (anything but plain JSON data) goes as JSON text
//! instead: checked strictly, written by the engine's `JSON.stringify` and read by
//! [`Json::parse`]. Results go back as serde_json text and one `JSON.parse`, so callers get
//! plain objects and arrays (not `Map`s) and can `JSON.stringify` them. Accepted content is
//! not written again at all: it is the copy the walk made of the host's value (or the
//! host's own text, parsed once more).
//!
//! `compileValidator` keeps a compiled schema in wasm memory for repeated validation, so
//! each `validate` crosses only the content.
//!
//! The exports are behind the `js-api` feature (on by default): a wasm that links the core
//! for its crossing alone (sign-in's) leaves them out, and with them the code only they use.
#![cfg_attr(not(feature = "js-api"), allow(dead_code))]

use crate::js_text;
use crate::schema::json::{Json, WORDS};
use crate::schema::{compile_json, FormSpec, Purpose, Refusal, SchemaError};
use crate::validate::{check_content, ErrorCode, FieldError};
use serde_json::Value;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One choice of a select or multi-select: the value sent and the title shown. */
export interface EnumOption { value: string; title: string }

interface FieldBase {
  /** The property name: the key in the content and the control's `name`. */
  name: string;
  /** The property's `title`, else its name. */
  label: string;
  description?: string;
  required: boolean;
  /** The schema default, already checked to be of the field's kind. */
  default?: JsonValue;
}

export type StringField = FieldBase & {
  kind: "string";
  minLength?: number;
  maxLength?: number;
  format?: "email" | "uri" | "date" | "date-time";
  pattern?: string;
};
export type NumberField = FieldBase & {
  kind: "number" | "integer";
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};
export type BooleanField = FieldBase & { kind: "boolean" };
export type SelectField = FieldBase & { kind: "select"; options: EnumOption[] };
export type MultiSelectField = FieldBase & {
  kind: "multiSelect";
  options: EnumOption[];
  minItems?: number;
  maxItems?: number;
};
export type Field = StringField | NumberField | BooleanField | SelectField | MultiSelectField;

/** A compiled `requestedSchema`: its fields in the schema's property order. */
export interface FormSpec { title?: string; description?: string; fields: Field[] }

/** The stable validation codes of the DOM contract. */
export type ErrorCode =
  | "required" | "type" | "minLength" | "maxLength" | "pattern" | "format"
  | "minimum" | "maximum" | "enum" | "minItems" | "maxItems" | "unknownField";

/** One failing field (`field` is "" when the content itself is not an object). */
export interface FieldError { field: string; code: ErrorCode; message: string }

export type ValidationResult =
  | { ok: true; content: { [key: string]: JsonValue } }
  | { ok: false; errors: FieldError[] };

/** What `compileSchema` and `validateContent` throw for a schema they refuse. */
export interface SchemaError extends Error {
  /** JSON pointer of the offending part of the schema, "" for the root. */
  path: string;
  /** What is wrong, as a stable word (e.g. `too_many_choices`, `nested`, `ref`). */
  code: string;
  /** With `{ locale }` (the library's entry): what the message quotes, by name: `name` (the
   * field), `count`, `max`, `found` (the JSON type found: `null`, `boolean`, `number`,
   * `string`, `list`, `object`), … */
  data?: { [name: string]: string | number };
}
"#;

/// Compiles a `requestedSchema` into the form description, or throws an `Error` with a `path`.
#[cfg(feature = "js-api")]
#[wasm_bindgen(js_name = compileSchema, unchecked_return_type = "FormSpec")]
pub fn compile_schema(
    #[wasm_bindgen(unchecked_param_type = "JsonValue")] requested_schema: JsValue,
) -> Result<JsValue, JsValue> {
    let spec = compile_js(&requested_schema, Purpose::Form)?;
    to_js(&js_text::form_spec(&spec))
}

/// Validates content as it would be sent against a `requestedSchema`. Returns
/// `{ok: true, content}` or `{ok: false, errors}`; throws only for a refused schema.
#[cfg(feature = "js-api")]
#[wasm_bindgen(js_name = validateContent, unchecked_return_type = "ValidationResult")]
pub fn validate_content_js(
    #[wasm_bindgen(unchecked_param_type = "JsonValue")] requested_schema: JsValue,
    #[wasm_bindgen(unchecked_param_type = "JsonValue")] content: JsValue,
) -> Result<JsValue, JsValue> {
    let spec = compile_js(&requested_schema, Purpose::Check)?;
    validate_js(&spec, &content)
}

/// A compiled `requestedSchema` kept for repeated validation (what `compileValidator`
/// returns): `validate(content)` answers exactly what `validateContent(schema, content)`
/// would. It holds wasm memory: call `free()` when done with it (a `FinalizationRegistry`
/// frees a forgotten one once it is garbage-collected, at a time of the engine's choosing).
#[cfg(feature = "js-api")]
#[wasm_bindgen(js_name = ContentValidator)]
pub struct ContentValidator {
    spec: FormSpec,
}

/// Compiles a `requestedSchema` once for many `validate(content)` calls, or throws as
/// `compileSchema` does. The handle holds wasm memory: `free()` it when done.
#[cfg(feature = "js-api")]
#[wasm_bindgen(js_name = compileValidator)]
pub fn compile_validator(
    #[wasm_bindgen(unchecked_param_type = "JsonValue")] requested_schema: JsValue,
) -> Result<ContentValidator, JsValue> {
    Ok(ContentValidator {
        spec: compile_js(&requested_schema, Purpose::Check)?,
    })
}

#[cfg(feature = "js-api")]
#[wasm_bindgen(js_class = ContentValidator)]
impl ContentValidator {
    /// What `validateContent(schema, content)` answers for the schema this was compiled from.
    #[wasm_bindgen(unchecked_return_type = "ValidationResult")]
    pub fn validate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "JsonValue")] content: JsValue,
    ) -> Result<JsValue, JsValue> {
        validate_js(&self.spec, &content)
    }
}

/// `validateContent`'s answer for a compiled schema: `{ok: true, content}` with the content
/// as the crossing's walk copied it (or read anew from the host's own text), or
/// `{ok: false, errors}`.
fn validate_js(spec: &FormSpec, content: &JsValue) -> Result<JsValue, JsValue> {
    let refused = |why: String| {
        to_js(&js_text::refused(&[FieldError::new(
            "",
            ErrorCode::Type,
            format!("The answer is not JSON: {why}."),
        )]))
    };
    let mut crossing = Crossing::default();
    let json = match crossing.read(
        content,
        UndefinedMembers::Refuse,
        Keep::ForAccepted,
        ShownText::Cross,
    ) {
        Ok(json) => json,
        Err(why) => return refused(why),
    };
    match check_content(spec, &json) {
        // The engine reads back what it wrote; should it ever throw, that is thrown here.
        Ok(()) => accepted(),
        Err(errors) => to_js(&js_text::refused(&errors)),
    }
}

fn compile_js(schema: &JsValue, purpose: Purpose) -> Result<FormSpec, JsValue> {
    let not_json = |why: String| {
        schema_error(&SchemaError::new(String::new(), Refusal::NotJson).text("detail", &why))
    };
    // What Check reads none of need not cross (see [`ShownText`]).
    let shown = match purpose {
        Purpose::Form => ShownText::Cross,
        Purpose::Check => ShownText::LeaveOut,
    };
    let mut crossing = Crossing::default();
    let json = crossing
        .read(schema, UndefinedMembers::Refuse, Keep::No, shown)
        .map_err(not_json)?;
    compile_json(&json, purpose).map_err(|e| schema_error(&e))
}

/// Whether a schema's shown text crosses the fast way: the `title` and `description` of
/// the schema itself and of each property's schema, when they are text. A
/// [`Purpose::Check`] compile reads none of it (it only checks that each is text; the
/// tests' `purposes_agree` in `core/src/schema/compile/mod.rs` hold it to that), so the
/// snippet may write each as `""` instead of copying it. A text that is not well-formed UTF-16 still
/// sends the value the text way, which refuses it, as for a form.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ShownText {
    Cross,
    LeaveOut,
}

/// What [`json_from_js`] does with an object member whose value is `undefined`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndefinedMembers {
    /// Refuse it, naming the member: `validateContent` must check what the host holds,
    /// and `{name: undefined}` is not an answer of `name`.
    Refuse,
    /// Leave it out, as `JSON.stringify` (and so every JS MCP client) does: call
    /// arguments, params and results a host builds as `{a, b: maybeUndefined}` mean "no
    /// `b`". An `undefined` array element is still refused (it would become `null`).
    Omit,
}

/// A JS host's value as JSON, or why not in words (for a message such as
/// `"callTool's arguments: {why}"`). The one way a value from JS enters Rust, here and in
/// the web crate ([`Crossing`]): a walk in the engine writes it in a compact encoding read
/// by [`Json::from_bytes`], or, for what that walk leaves, a strict check and
/// `JSON.stringify` write it as text read by [`Json::parse`] (serde_json's answers and
/// words); `js_strict_json.js` has both. Not serde_json's
/// `Value` reader straight from the text: with the `raw_value` feature it also reads an
/// object whose key is serde's private raw-value token as raw JSON, and that branch links
/// serde's type-error words, and with them `f64`'s `Display`, into every wasm.
///
/// Why not serde-wasm-bindgen's `from_value`: it walks the object from wasm with no cycle
/// check or depth limit (a cyclic object overflows the wasm stack and leaves the module
/// trapping on every later call), and a throwing getter or Proxy trap throws through the
/// Rust frames walking it. Here the walk happens inside the engine, every exception is
/// caught there, and cycles, more than 100 levels, and what JSON cannot hold (functions,
/// symbols, `BigInt`s, `undefined` but as `undefined` says; `JSON.stringify` would drop
/// or throw on them) are refused naming the member. It is also faster: two calls into the
/// engine (the walk, then the copy) where walking the object from wasm costs a boundary
/// crossing per key and value (measured with `scripts/bench`: several times slower on a
/// typical schema).
pub fn json_from_js(value: &JsValue, undefined: UndefinedMembers) -> Result<Value, String> {
    let mut crossing = Crossing::default();
    crossing
        .read(value, undefined, Keep::No, ShownText::Cross)
        .map(|json| json.to_value())
}

/// Where a host's value lands in wasm: the snippet's compact encoding of it (`encodeJson`,
/// read by [`Json::from_bytes`]), or, for a value the snippet is not sure of, its JSON text
/// (`strictJson`, read by [`Json::parse`]). The tree read from it borrows its strings.
///
/// The encoding is the fast way: no JSON text is written in JS or read in wasm, and
/// nothing is walked twice. The text way decides everything else, so what is refused, and
/// in which words, is the same either way.
///
/// The encoding is written straight into `bytes`, a buffer this module keeps between
/// crossings (`SPARE_BYTES`), when it fits.
#[derive(Default)]
struct Crossing {
    bytes: Vec<u8>,
    text: String,
}

impl Crossing {
    fn read(
        &mut self,
        value: &JsValue,
        undefined: UndefinedMembers,
        keep: Keep,
        shown: ShownText,
    ) -> Result<Json<'_>, String> {
        let Crossing { bytes, text } = self;
        if bytes.is_empty() {
            *bytes = SPARE_BYTES.take();
        }
        if let Some(len) = encoded_from_js(value, undefined, keep, shown, bytes) {
            // The snippet writes nothing the reader declines; were it to, the text way decides.
            if let Some(json) = bytes.get(..len).and_then(Json::from_bytes) {
                return Ok(json);
            }
        }
        *text = text_from_js(value, undefined, keep)?;
        json_of_text(text)
    }
}

impl Drop for Crossing {
    /// Keeps the buffer for the next crossing, unless it grew past [`SPARE_KEPT`].
    fn drop(&mut self) {
        if self.bytes.len() <= SPARE_KEPT {
            SPARE_BYTES.set(std::mem::take(&mut self.bytes));
        }
    }
}

/// The room the first crossing's buffer has: the encoding of a typical schema is some 300
/// bytes, of a 50-field one some 7 KB (which then grows the buffer once).
const FIRST_ROOM: usize = 4096;

/// The longest buffer kept between crossings: 64 KB, the same bound as the snippet's own.
/// A longer value's buffer is let go of once it is read.
const SPARE_KEPT: usize = 1 << 16;

/// The text way's tree of the text the snippet wrote.
fn json_of_text(text: &str) -> Result<Json<'_>, String> {
    Json::parse(text).map_err(|why| format!("it could not be read as JSON ({why})"))
}

/// The snippet's encoding of a host's value written into `bytes` (replaced by a longer
/// buffer when it does not fit): the length of the encoding, or `None` when the snippet
/// leaves the value to the text way.
fn encoded_from_js(
    value: &JsValue,
    undefined: UndefinedMembers,
    keep: Keep,
    shown: ShownText,
    bytes: &mut Vec<u8>,
) -> Option<usize> {
    WORDS_SENT.with(|_| ());
    if bytes.is_empty() {
        *bytes = zeroed(FIRST_ROOM).ok()?;
    }
    // The snippet writes at most `bytes.len()` bytes into the vector's own bytes, through a
    // view of wasm memory; the vector is borrowed here, so no call the walk makes into
    // wasm can take that memory.
    let len = WASM_MEMORY.with(|memory| {
        encode_json(
            value,
            undefined == UndefinedMembers::Omit,
            keep == Keep::ForAccepted,
            shown == ShownText::LeaveOut,
            memory,
            bytes.as_mut_ptr() as u32,
            bytes.len() as u32,
        )
    });
    if len < 0.0 {
        return None;
    }
    let len = len as usize;
    if len > bytes.len() {
        // Waiting in the snippet. Memory that cannot be had sends the value the text way
        // (whose text may be shorter), not to a trap.
        let Ok(longer) = zeroed(len) else {
            drop_bytes();
            return None;
        };
        *bytes = longer;
        WASM_MEMORY.with(|memory| take_bytes(memory, bytes.as_mut_ptr() as u32));
    }
    Some(len)
}

/// `len` zero bytes, or why not in words: running out of memory must not trap the module.
/// A long buffer is asked for first, fallibly; then (as a short one at once) it is taken
/// zeroed in one call, where `resize` would write its zeros one by one at `opt-level = "z"`
/// (measured: 3-4% of a one-shot `validateContent` on a small schema).
fn zeroed(len: usize) -> Result<Vec<u8>, String> {
    if len > ASK_FIRST {
        Vec::<u8>::new()
            .try_reserve_exact(len)
            .map_err(|_| too_large(len))?;
    }
    Ok(vec![0; len])
}

/// Why a value whose buffer of `bytes` could not be had is not read.
fn too_large(bytes: usize) -> String {
    format!("it is too large to read here ({bytes} bytes)")
}

/// From this many bytes, [`zeroed`] asks for the memory fallibly first.
const ASK_FIRST: usize = 1 << 16;

/// Each way across on its own, for tests that hold them to each other: the value read from
/// the snippet's encoding (`None` when the snippet leaves it to the text way, or the reader
/// declines it), and the value read from its JSON text (or why not).
#[doc(hidden)]
pub fn json_from_js_each_way(
    value: &JsValue,
    undefined: UndefinedMembers,
) -> (Option<Value>, Result<Value, String>) {
    let mut bytes = Vec::new();
    let encoded = encoded_from_js(value, undefined, Keep::No, ShownText::Cross, &mut bytes)
        .and_then(|len| {
            bytes
                .get(..len)
                .and_then(Json::from_bytes)
                .map(|json| json.to_value())
        });
    let text = text_from_js(value, undefined, Keep::No)
        .and_then(|text| json_of_text(&text).map(|json| json.to_value()));
    (encoded, text)
}

/// Whether the snippet keeps what [`accepted`] answers: the copy its walk made, or the text
/// it wrote.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    No,
    ForAccepted,
}

/// A JS host's value as JSON text copied into wasm, or why not in words (see
/// [`json_from_js`]).
fn text_from_js(
    value: &JsValue,
    undefined: UndefinedMembers,
    keep: Keep,
) -> Result<String, String> {
    let units = strict_json(
        value,
        undefined == UndefinedMembers::Omit,
        keep == Keep::ForAccepted,
    );
    if units < 0.0 {
        return Err(refusal());
    }
    // A whole number of UTF-16 units, as the snippet counted them.
    let units = units as usize;
    // Room for the text all ASCII, and 4 bytes more: room left over after a copy means the
    // whole text was taken (`takeText` stops only before a character that does not fit, and
    // none takes more than 4 bytes). With less left over, `textLeft` says whether anything
    // remains; if so, the buffer grows once to what is left at the most a unit takes (3 bytes).
    let mut buf = zeroed(units.saturating_add(4))?;
    let mut filled = 0;
    // Two copies always suffice; the third guards against a snippet that writes nothing.
    for _ in 0..3 {
        let room = buf.len() - filled;
        // JS writes into `buf[filled..]` through a view of wasm memory: the address and the
        // room given are those of the vector's own bytes, and nothing allocates meanwhile.
        let at = buf.as_mut_ptr() as usize + filled;
        let written = WASM_MEMORY.with(|memory| take_text(memory, at as u32, room as u32)) as usize;
        filled += written.min(room);
        if buf.len() - filled >= 4 {
            break;
        }
        let left = text_left() as usize;
        if left == 0 {
            break;
        }
        let more = filled
            .saturating_add(left.saturating_mul(3))
            .saturating_add(4);
        buf.try_reserve_exact(more.saturating_sub(buf.len()))
            .map_err(|_| too_large(more))?;
        buf.resize(more, 0);
    }
    if buf.len() - filled < 4 && text_left() > 0 {
        return Err("it could not be read as JSON (its text was not copied whole)".into());
    }
    buf.truncate(filled);
    // Grown for a non-ASCII text and kept while the schema compiles: give back what the
    // text did not take.
    if buf.capacity() - filled > filled / 4 + 64 {
        buf.shrink_to_fit();
    }
    // encodeInto writes UTF-8 (JSON.stringify escapes lone surrogates), so this only
    // checks what cannot fail.
    String::from_utf8(buf).map_err(|e| format!("it could not be read as JSON ({e})"))
}

thread_local! {
    /// This instance's memory as a JS value, fetched once: `wasm_bindgen::memory()` is a
    /// call into JS and a slot of the JS-value table taken and freed on every copy.
    static WASM_MEMORY: JsValue = wasm_bindgen::memory();

    /// The buffer crossings write their encoding into, kept between them (see [`Crossing`]).
    /// A crossing takes it, so one that starts meanwhile (a getter calling the API again)
    /// has its own.
    static SPARE_BYTES: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };

    /// The snippet's copy of the words it writes by number ([`WORDS`]), sent before this
    /// module's first encoding: the list has one home, and the snippet checks that every
    /// module sharing it sends the same one.
    static WORDS_SENT: () = set_words(&words_text());
}

/// [`WORDS`] separated by spaces, as the snippet's `setWords` reads them. By hand: `join` is
/// a kilobyte of wasm of its own.
fn words_text() -> String {
    let mut all = String::new();
    for (i, word) in WORDS.iter().enumerate() {
        if i > 0 {
            all.push(' ');
        }
        all.push_str(word);
    }
    all
}

// A static module, not `new Function`: a strict Content-Security-Policy (browser
// extensions: `script-src 'self' 'wasm-unsafe-eval'`) forbids eval, and compileSchema
// would throw EvalError there. wasm-bindgen copies it into the package's `snippets/`.
#[wasm_bindgen(module = "/src/js_strict_json.js")]
extern "C" {
    /// Writes the value in the snippet's compact encoding into `memory` at `at`, where
    /// there is `room` bytes: its length in bytes (longer than `room`: waiting in the
    /// snippet for [`take_bytes`]), or -1 when the value is to go by [`strict_json`]; never
    /// throws. With `keep`, the snippet also keeps the value as JSON reads back for
    /// [`accepted`]; with `leave_out_shown_text`, it writes a schema's shown text as `""`
    /// ([`ShownText`]).
    #[wasm_bindgen(js_name = encodeJson)]
    fn encode_json(
        value: &JsValue,
        omit_undefined_members: bool,
        keep: bool,
        leave_out_shown_text: bool,
        memory: &JsValue,
        at: u32,
        room: u32,
    ) -> f64;

    /// Gives the snippet the words it may write by number, joined by spaces; never throws.
    #[wasm_bindgen(js_name = setWords)]
    fn set_words(words: &str);

    /// Copies the encoding the last `encodeJson` left waiting into `memory` at `ptr`.
    #[wasm_bindgen(js_name = takeBytes)]
    fn take_bytes(memory: &JsValue, ptr: u32);

    /// Forgets the encoding the last `encodeJson` left waiting (wasm had no room for it).
    #[wasm_bindgen(js_name = dropBytes)]
    fn drop_bytes();

    /// Checks the value and writes it as JSON text kept in the snippet: its length in UTF-16
    /// units, or -1 when it is not JSON ([`refusal`] says why); never throws. With `keep`,
    /// the snippet also keeps the text for [`accepted`].
    #[wasm_bindgen(js_name = strictJson)]
    fn strict_json(value: &JsValue, omit_undefined_members: bool, keep: bool) -> f64;

    /// Why the last `strictJson` answered -1.
    fn refusal() -> String;

    /// Writes what is left of the text the last `strictJson` wrote as UTF-8 into `memory` at
    /// `ptr`, at most `room` bytes and never half a character; answers the bytes written.
    #[wasm_bindgen(js_name = takeText)]
    fn take_text(memory: &JsValue, ptr: u32, room: u32) -> u32;
    /// UTF-16 units of the text not yet taken by `takeText` (0 once all is taken).
    #[wasm_bindgen(js_name = textLeft)]
    fn text_left() -> u32;

    /// `{ok: true, content}`: the content as the last `encodeJson` with `keep` read it back,
    /// or `JSON.parse` of what the last `strictJson` with `keep` wrote.
    #[wasm_bindgen(catch)]
    fn accepted() -> Result<JsValue, JsValue>;
}

/// The reverse of [`json_from_js`]: JSON text (as serde_json writes it, see [`js_text`]),
/// then one `JSON.parse` (plain objects and arrays, as on the wire).
fn to_js(text: &str) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(text)
}

/// A JS `Error` whose message says what is wrong (in English), whose `path` says where, and
/// whose `code` says what. (The library's `wordErrors` adds the refusal's `data` when it
/// words the message in another language, as it does for field errors.)
fn schema_error(e: &SchemaError) -> JsValue {
    let err = js_sys::Error::new(&e.message());
    err.set_name("SchemaError");
    set(&err, "path", &JsValue::from_str(&e.path));
    set(&err, "code", &JsValue::from_str(e.refusal.code()));
    err.into()
}

/// Sets a member of a fresh object. That cannot fail; if it somehow did, the message still
/// says what is wrong, so the error is thrown anyway.
fn set(obj: &JsValue, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(obj, &JsValue::from_str(key), value);
}
