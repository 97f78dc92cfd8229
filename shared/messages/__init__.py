"""The wire contract: subjects and JSON bodies (docs/protocol.md)."""
