//! Placeholder while the legacy session machine lands.
