//! Streamable HTTP transport over gloo-net: POST JSON-RPC, read JSON or SSE, the GET stream.
