//! MCP client sessions for both eras (driving the core state machines) and era auto-detection.
