"""Settings from the environment, read once per process (12-factor style)."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from shared.messages.subjects import LOG_STREAM_COUNTS


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    # Where NATS is; unset: an embedded nats-server is started (or the one `tabletop up` runs).
    nats_url: str = ""
    # Where the embedded server keeps its store and `tabletop up` its state.
    data_dir: str = str(Path.home() / ".local" / "share" / "tabletop")
    # Who this process is on NATS (a service role or `admin`); unset: a service started by the
    # CLI uses its role's password file in `credentials_dir`.
    nats_user: str = ""
    nats_password: str = ""
    # A file holding the password (container secrets), read when `nats_password` is unset.
    nats_password_file: str = ""
    # The service users' passwords and the callout's signing key, one file each (mode 0600);
    # empty: `<data_dir>/credentials`, generated there by `tabletop up`.
    credentials_dir: str = ""
    # The auth callout's signing key (an account nkey seed); empty: `issuer.nk` in that folder.
    issuer_seed_file: str = ""
    # The key session tokens are signed with; empty: `session.key` in that folder.
    session_key_file: str = ""
    # How long a session token lasts (seconds) from the password sign-in that asked for it.
    session_lifetime: float = 30 * 86400.0
    # Replicas of the stream and buckets (3 on a cluster).
    replicas: int = 1
    # The streams the log's 16 partitions are spread over (1, 2, 4, 8 or 16), when the log is
    # made: more put the appends of different tables on different leaders of a cluster. A log
    # already made keeps its own, whatever this says.
    log_streams: int = 1
    # The embedded server fsyncs every write before acknowledging it unless this is false.
    sync_always: bool = True
    # The embedded server's store limit in bytes: writes are refused (`storage_full`) past it.
    # 0: what the store holds plus the filesystem's free space, less a reserve, at each start.
    max_store: int = 0
    # How long the stream remembers command ids to drop retried appends (seconds).
    duplicate_window: float = 3600.0
    # Memory a worker, and a table projector shard, keeps folded tables in (MiB, about: each
    # table weighed by its state's size and command count, shared/messages/folding.py), and the
    # most tables either keeps whatever their size.
    cache_mb: int = 256
    projector_cache_mb: int = 256
    cache_size: int = 100_000
    projector_cache_size: int = 100_000
    # A worker writes a table's snapshot every this many versions (and when it drops a table
    # from its cache that moved since): a table it does not hold is then loaded from its
    # snapshot and the log after it. 0: no snapshots (every such load folds the whole log).
    snapshot_every: int = 32
    # Times a worker re-decides a command that lost a race before answering `conflict`.
    max_retries: int = 8
    # The cost of a new password hash (argon2id; RFC 9106's low-memory profile by default):
    # memory in KiB and passes. A stored hash keeps its own, so a change applies to new ones.
    password_hash_memory_kib: int = 65536
    password_hash_passes: int = 3
    # Admission of sign-ins by the auth service: threads that hash passwords (64 MiB each at
    # the default cost) and sign-ins that may wait for one (beyond, refused at once); per
    # minute, password checks per source address and for the whole site, registrations of new
    # names per source address and for the whole site (0: no limit); and how often the counts
    # of refused sign-ins are logged (seconds).
    auth_hash_threads: int = 2
    auth_hash_queue: int = 16
    password_checks_per_address: int = 10
    password_checks_per_minute: int = 600
    registrations_per_address: int = 5
    registrations_per_minute: int = 60
    auth_log_interval: float = 10.0
    # Open tables nobody started are ended this many seconds after their creation.
    open_table_ttl: float = 6 * 3600.0
    # Running tables without clocks where nobody moved for this many seconds end abandoned
    # (0: never).
    idle_table_ttl: float = 24 * 3600.0
    # The NATS WebSocket address the web client hands to browsers (when `tabletop up` does not
    # run the NATS itself: it gives its own listener's).
    websocket_url: str = "ws://127.0.0.1:9222"
    # Where the web client is served (origins, comma separated): the embedded NATS takes
    # WebSocket connections from those pages only. Empty: the address `tabletop up` serves it on.
    web_origins: str = ""
    # "json", "console", or "" for console on a terminal and JSON otherwise.
    log_format: str = ""
    log_level: str = "info"
    # The port this process serves its Prometheus metrics on (http://<any address>:<port>/metrics,
    # shared/metrics.py); 0: none. One port per process: `tabletop up` leaves it off.
    metrics_port: int = 0
    # The time a `hard` bot thinks about a move, in milliseconds (`normal` takes half).
    bot_budget_ms: float = 200.0
    # Games beyond the built-in and installed ones: `module:attribute`, comma separated.
    games: str = ""

    def __post_init__(self) -> None:
        if self.log_streams not in LOG_STREAM_COUNTS:
            counts = ", ".join(map(str, LOG_STREAM_COUNTS))
            raise ValueError(f"TABLETOP_LOG_STREAMS is one of {counts}, not {self.log_streams}")

    def __repr__(self) -> str:  # settings may be logged; the password never is
        return f"Settings(nats_url={self.nats_url!r}, nats_user={self.nats_user!r}, ...)"

    @property
    def credentials_folder(self) -> Path:
        return Path(self.credentials_dir or Path(self.data_dir) / "credentials")


_ENV = {
    "nats_url": "NATS_URL",
    "data_dir": "TABLETOP_DATA",
    "nats_user": "NATS_USER",
    "nats_password": "NATS_PASSWORD",
    "nats_password_file": "NATS_PASSWORD_FILE",
    "credentials_dir": "TABLETOP_CREDENTIALS",
    "issuer_seed_file": "TABLETOP_ISSUER_SEED_FILE",
    "session_key_file": "TABLETOP_SESSION_KEY_FILE",
    "session_lifetime": "TABLETOP_SESSION_LIFETIME",
    "replicas": "TABLETOP_REPLICAS",
    "log_streams": "TABLETOP_LOG_STREAMS",
    "sync_always": "TABLETOP_SYNC_ALWAYS",
    "max_store": "TABLETOP_MAX_STORE",
    "duplicate_window": "TABLETOP_DUPLICATE_WINDOW",
    "cache_mb": "TABLETOP_CACHE_MB",
    "projector_cache_mb": "TABLETOP_PROJECTOR_CACHE_MB",
    "cache_size": "TABLETOP_CACHE_SIZE",
    "projector_cache_size": "TABLETOP_PROJECTOR_CACHE_SIZE",
    "snapshot_every": "TABLETOP_SNAPSHOT_EVERY",
    "max_retries": "TABLETOP_MAX_RETRIES",
    "open_table_ttl": "TABLETOP_OPEN_TABLE_TTL",
    "idle_table_ttl": "TABLETOP_IDLE_TABLE_TTL",
    "password_hash_memory_kib": "TABLETOP_PASSWORD_HASH_MEMORY_KIB",
    "password_hash_passes": "TABLETOP_PASSWORD_HASH_PASSES",
    "auth_hash_threads": "TABLETOP_AUTH_HASH_THREADS",
    "auth_hash_queue": "TABLETOP_AUTH_HASH_QUEUE",
    "password_checks_per_address": "TABLETOP_PASSWORD_CHECKS_PER_ADDRESS",
    "password_checks_per_minute": "TABLETOP_PASSWORD_CHECKS_PER_MINUTE",
    "registrations_per_address": "TABLETOP_REGISTRATIONS_PER_ADDRESS",
    "registrations_per_minute": "TABLETOP_REGISTRATIONS_PER_MINUTE",
    "auth_log_interval": "TABLETOP_AUTH_LOG_INTERVAL",
    "websocket_url": "TABLETOP_WEBSOCKET_URL",
    "web_origins": "TABLETOP_WEB_ORIGINS",
    "log_format": "TABLETOP_LOG_FORMAT",
    "log_level": "TABLETOP_LOG_LEVEL",
    "metrics_port": "TABLETOP_METRICS_PORT",
    "games": "TABLETOP_GAMES",
}


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment variables above, then `overrides`."""
    raw: dict[str, object] = {f: os.environ[env] for f, env in _ENV.items() if env in os.environ}
    raw.update({k: v for k, v in overrides.items() if v is not None})
    return msgspec.convert(raw, Settings, strict=False)
