//! The JS embedding API: `elicit(element, params)` returns a Promise of the `ElicitResult`.
