//! Protocol state machines. (Owned by the protocol work; placeholder.)
