"""The auth callout service: NATS asks it about every connection that is not a service's."""
