"""The web client: static pages that talk to NATS over WebSocket, and the server of those files."""
