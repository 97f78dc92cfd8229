"""Errors of the bus, one root so that services can catch all of them at once."""


class BusError(Exception):
    """Something went wrong talking to NATS."""


class ConcurrencyConflict(BusError):
    """The table moved on since it was loaded (JetStream error 10071): reload and decide again."""


class TableBusy(ConcurrencyConflict):
    """The stream refused the append while another one on the table is still being stored
    (JetStream error 10164): nothing was written; look again, a moment later."""


class Unavailable(BusError):
    """NATS did not answer in time (a restart, a partition), or refused to write (nothing was
    written): the caller may retry."""


class StorageFull(Unavailable):
    """JetStream refused a write because its storage limit is reached (nothing was written):
    writes resume by themselves once the store is under its limit again."""


class OutcomeUnknown(BusError):
    """An append was sent and no answer says whether it was stored (a timeout, a lost
    connection, a leader change): only the log can tell."""


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
