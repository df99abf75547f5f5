//! Incremental Server-Sent Events decoder. (Owned by the protocol work; placeholder.)
