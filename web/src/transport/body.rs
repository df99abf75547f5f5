//! A response body read chunk by chunk from the `fetch` `ReadableStream`, so an SSE stream
//! can be handed on message by message while the server keeps it open (the legacy server
//! sends `elicitation/create` mid-stream and only ends the stream after we have answered).

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStream, ReadableStreamDefaultReader};

use super::error::TransportError;

/// The reader of one response body. Dropping it cancels the body, which closes the
/// connection: a stream we no longer listen to must not stay open on the server.
pub struct ByteStream {
    reader: ReadableStreamDefaultReader,
    url: String,
    finished: bool,
}

impl ByteStream {
    /// Locks `stream` for reading. Fails only if the browser refuses (the body was already used).
    pub fn new(stream: &ReadableStream, url: &str) -> Result<Self, TransportError> {
        let reader = stream
            .get_reader()
            .dyn_into::<ReadableStreamDefaultReader>()
            .map_err(|_| TransportError::Malformed {
                detail: "the response body cannot be read as a byte stream".into(),
            })?;
        Ok(ByteStream {
            reader,
            url: url.to_owned(),
            finished: false,
        })
    }

    /// The endpoint this body comes from, for error messages.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The next chunk of bytes, `None` at the end of the body.
    pub async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, TransportError> {
        if self.finished {
            return Ok(None);
        }
        let step = JsFuture::from(self.reader.read()).await.map_err(|err| {
            self.finished = true;
            if is_abort(&err) {
                TransportError::Aborted
            } else {
                TransportError::Dropped {
                    url: self.url.clone(),
                    detail: js_message(&err),
                }
            }
        })?;
        let done = Reflect::get(&step, &JsValue::from_str("done"))
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true);
        if done {
            self.finished = true;
            return Ok(None);
        }
        let value = Reflect::get(&step, &JsValue::from_str("value")).unwrap_or(JsValue::UNDEFINED);
        match value.dyn_into::<Uint8Array>() {
            Ok(bytes) => Ok(Some(bytes.to_vec())),
            Err(_) => Err(TransportError::Malformed {
                detail: "the response body yielded something other than bytes".into(),
            }),
        }
    }

    /// Reads the rest of the body into one buffer (for `application/json` answers).
    pub async fn read_to_end(&mut self, limit: usize) -> Result<Vec<u8>, TransportError> {
        let mut all = Vec::new();
        while let Some(chunk) = self.next_chunk().await? {
            all.extend_from_slice(&chunk);
            if all.len() > limit {
                return Err(TransportError::Malformed {
                    detail: format!("the response is larger than {limit} bytes"),
                });
            }
        }
        Ok(all)
    }
}

impl Drop for ByteStream {
    fn drop(&mut self) {
        if !self.finished {
            // The promise rejects if the stream already errored; nobody needs that outcome.
            let cancelled = self.reader.cancel();
            wasm_bindgen_futures::spawn_local(async move {
                let _ = JsFuture::from(cancelled).await;
            });
        }
    }
}

/// True for the `AbortError` a fetch or read rejects with after `AbortController::abort`.
pub(crate) fn is_abort(err: &JsValue) -> bool {
    Reflect::get(err, &JsValue::from_str("name"))
        .ok()
        .and_then(|n| n.as_string())
        .is_some_and(|n| n == "AbortError")
}

/// The `message` of a JS error, or its string form.
pub(crate) fn js_message(err: &JsValue) -> String {
    Reflect::get(err, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| err.as_string())
        .unwrap_or_else(|| "unknown error".into())
}
