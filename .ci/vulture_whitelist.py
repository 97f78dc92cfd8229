"""Names `vulture` cannot see used: they are read by something other than Python code."""

from services.auth.claims import (
    AuthorizationResponse, ConnectOptions, ResponseClaims, Rule, UserClaims, UserPermissions,
)
from tests.highcard import CRASHY
from tests.platform.test_cluster import pytestmark
from tests.platform.test_security import embedded_only
from tests.platform.test_views_exact import services_highcard

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
    # Read by pytest: module marks, and fixtures used automatically or requested by name.
    pytestmark,
    embedded_only,
    services_highcard,
    # A test game loaded by name through TABLETOP_GAMES (tests/conftest.py).
    CRASHY,
]
