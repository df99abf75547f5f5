//! Unique element ids, so several elicitations (or embeds) on one page never share an id
//! that `aria-describedby` or `<label for>` point at.

use std::sync::atomic::{AtomicU32, Ordering};

static NEXT: AtomicU32 = AtomicU32::new(1);

/// A fresh id prefix such as `mce-7`; server keys are never used in ids, since they
/// may hold any characters.
pub fn prefix() -> String {
    format!("mce-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}
