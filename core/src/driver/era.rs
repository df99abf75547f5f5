//! Placeholder while Auto mode's decision lands.
