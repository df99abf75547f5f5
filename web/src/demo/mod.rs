//! The demo app: connect, list tools, call one, answer its elicitations, see the result.
