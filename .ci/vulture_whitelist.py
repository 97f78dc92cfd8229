"""Names `vulture` cannot see used: they are read by something other than Python code."""

from aiohttp.web import StreamResponse
from nats.aio.subscription import Subscription
from testcontainers.core.config import testcontainers_config

from services.auth.claims import (
    AuthorizationResponse,
    ConnectOptions,
    ResponseClaims,
    Rule,
    UserClaims,
    UserPermissions,
)
from services.results_projector.standings import Entry
from shared.bus.nats_internals import FastClient
from shared.games.diced_tomatoes.messages import KarmaGained
from tests.conftest import pytest_collection_modifyitems, pytest_configure
from tests.highcard import CRASHY
from tests.platform.test_cluster import pytestmark
from tests.platform.test_security import embedded_only
from tests.platform.test_views_exact import services_highcard
from tests.platform.test_wire_decoders import Recorder
from tests.test_nats_container import docker_engine
from tests.web.test_boards import Handler as BoardFiles

used = [
    # Fields of the JWT claims and requests the NATS server reads or writes (msgspec encodes them).
    ConnectOptions.auth_token,
    Rule.allow,
    Rule.deny,
    UserPermissions.subs,
    UserPermissions.allowed_connection_types,
    UserClaims.jti,
    UserClaims.iat,
    ResponseClaims.jti,
    ResponseClaims.iat,
    AuthorizationResponse.jwt,
    # An event field clients read (events go on the wire as they are).
    KarmaGained.amount,
    # Fields of a player's table that clients read (msgspec encodes them).
    Entry.ended_at,
    Entry.rating_before,
    Entry.rating_after,
    # Read by pytest: a hook, module marks, and fixtures used automatically or by name.
    pytest_collection_modifyitems,
    pytest_configure,
    pytestmark,
    embedded_only,
    services_highcard,
    docker_engine,
    # Read by testcontainers when a container starts (tests/nats_container.py).
    testcontainers_config.ryuk_disabled,
    # A test game loaded by name through TABLETOP_GAMES (tests/conftest.py).
    CRASHY,
    # http.server calls these on the board tests' file server.
    BoardFiles.translate_path,
    BoardFiles.log_message,
    # aiohttp sends the Content-Type the web server's middleware sets on a response.
    StreamResponse.content_type,
    # nats-py reads a subscription's `_closed` (nats_internals.forget_subscription sets it).
    Subscription._closed,
    # nats-py's client reads its parser from `_ps` (nats_internals.FastClient sets its own).
    FastClient._ps,
    # nats-py's parser calls these on the client (the parser test's recording client).
    Recorder._process_ping,
    Recorder._process_pong,
    Recorder._process_info,
    Recorder._process_err,
]
