//! Leptos components: form mode, URL mode, one elicitation, the queue.
