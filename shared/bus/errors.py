"""Errors of the bus, one root so that services can catch all of them at once."""


class BusError(Exception):
    """Something went wrong talking to NATS."""


class ConcurrencyConflict(BusError):
    """The table moved on since it was loaded (JetStream error 10071): reload and decide again."""


class Unavailable(BusError):
    """NATS did not answer in time (a restart, a partition): the caller may retry."""


class ServerFailed(BusError):
    """The embedded nats-server did not start."""


class ConnectionClosed(BusError):
    """This process closed its NATS connection: a loop using it stops."""


class StoreInUse(ServerFailed):
    """Another nats-server runs, or may run, on the same data folder."""


class ServerTooOld(BusError):
    """The NATS server is older than the release tabletop needs."""


class SignInRefused(BusError):
    """NATS refused these credentials (wrong password, reserved name, too many failures)."""


class Forbidden(BusError):
    """The broker refused this connection a publish or a subscription (its permissions)."""
