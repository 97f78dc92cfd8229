"""The JWTs of the NATS auth callout, as msgspec structs: the server's authorization request,
our user claims and our authorization response, signed with an account nkey (ed25519)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import time
from typing import Any

import msgspec
import nacl.exceptions
import nacl.signing

REQUEST_AUDIENCE = "nats-authorization-request"
_HEADER = {"typ": "JWT", "alg": "ed25519-nkey"}
_encode = msgspec.json.Encoder().encode


class BadToken(Exception):
    """A JWT that is malformed or not signed by the key it names."""


# --- the request (from the server) --------------------------------------------------------------


class ServerId(msgspec.Struct, kw_only=True):
    id: str
    name: str = ""


class ConnectOptions(msgspec.Struct, kw_only=True):
    user: str = ""
    # the wire name is `pass`, a Python keyword
    password: str = msgspec.field(default="", name="pass")
    auth_token: str = ""


class ClientInfo(msgspec.Struct, kw_only=True):
    host: str = ""
    kind: str = ""
    type: str = ""


class AuthorizationRequest(msgspec.Struct, kw_only=True):
    server_id: ServerId
    user_nkey: str
    connect_opts: ConnectOptions = msgspec.field(default_factory=ConnectOptions)
    client_info: ClientInfo = msgspec.field(default_factory=ClientInfo)
    type: str = ""


class RequestClaims(msgspec.Struct, kw_only=True):
    iss: str
    aud: str = ""
    sub: str = ""
    iat: int = 0  # when the server asked, and when it stops waiting (whole seconds)
    exp: int = 0
    nats: AuthorizationRequest


# --- what we sign -------------------------------------------------------------------------------


class Rule(msgspec.Struct, kw_only=True, omit_defaults=True):
    allow: list[str] = []
    deny: list[str] = []


class UserPermissions(msgspec.Struct, kw_only=True):
    pub: Rule
    sub: Rule
    # -1: no limit; 0 would forbid (the JWT's meaning of a missing limit)
    subs: int = -1
    data: int = -1
    payload: int = -1
    # plain clients and browsers only: no leaf node or MQTT connection as a player
    allowed_connection_types: tuple[str, ...] = ("STANDARD", "WEBSOCKET")
    type: str = "user"
    version: int = 2


class UserClaims(msgspec.Struct, kw_only=True):
    jti: str
    iat: int
    iss: str
    sub: str
    name: str
    aud: str  # the account the user is placed in (config mode)
    nats: UserPermissions


class AuthorizationResponse(msgspec.Struct, kw_only=True):
    jwt: str = ""
    error: str = ""
    type: str = "authorization_response"
    version: int = 2


class ResponseClaims(msgspec.Struct, kw_only=True):
    jti: str
    iat: int
    iss: str
    sub: str
    aud: str
    nats: AuthorizationResponse


# --- encoding -----------------------------------------------------------------------------------


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _claim_id(payload: bytes) -> str:
    return base64.b32encode(hashlib.sha256(payload).digest()).decode().rstrip("=")


def sign(claims: UserClaims | ResponseClaims, signer: Any) -> str:
    """The JWT of `claims`, signed by `signer` (an nkeys KeyPair)."""
    header = _b64(_encode(_HEADER))
    payload = _b64(_encode(claims))
    signature = signer.sign(f"{header}.{payload}".encode())
    return f"{header}.{payload}.{_b64(signature)}"


def _verify_key(public_key: str) -> nacl.signing.VerifyKey:
    raw = base64.b32decode(public_key + "=" * (-len(public_key) % 8))
    return nacl.signing.VerifyKey(raw[1:-2])  # prefix byte, 32 key bytes, crc16


def read_request(token: bytes) -> RequestClaims:
    """The server's request, once its signature by the issuer it names is checked."""
    try:
        header, payload, signature = token.decode().split(".")
        claims = msgspec.json.decode(_unb64(payload), type=RequestClaims)
        _verify_key(claims.iss).verify(f"{header}.{payload}".encode(), _unb64(signature))
    except (
        ValueError,
        UnicodeDecodeError,
        binascii.Error,
        msgspec.ValidationError,
        nacl.exceptions.BadSignatureError,
        nacl.exceptions.ValueError,
    ) as err:
        raise BadToken(str(err) or type(err).__name__) from err
    if claims.aud != REQUEST_AUDIENCE or not claims.iss.startswith("N"):
        raise BadToken("not an authorization request from a server")
    return claims


def user_jwt(
    *, name: str, user_nkey: str, account: str, pub: Rule, sub: Rule, signer: Any, max_subscriptions: int = -1
) -> str:
    now = int(time.time())
    issuer = signer.public_key.decode()
    body = f"{issuer}{user_nkey}{name}{now}".encode()
    claims = UserClaims(
        jti=_claim_id(body),
        iat=now,
        iss=issuer,
        sub=user_nkey,
        name=name,
        aud=account,
        nats=UserPermissions(pub=pub, sub=sub, subs=max_subscriptions),
    )
    return sign(claims, signer)


def response_jwt(request: AuthorizationRequest, signer: Any, *, user: str = "", error: str = "") -> str:
    """Our answer to `request`: a user JWT, or an error (the connection is refused)."""
    now = int(time.time())
    issuer = signer.public_key.decode()
    claims = ResponseClaims(
        jti=_claim_id(f"{issuer}{request.user_nkey}{now}{user}{error}".encode()),
        iat=now,
        iss=issuer,
        sub=request.user_nkey,
        aud=request.server_id.id,
        nats=AuthorizationResponse(jwt=user, error=error),
    )
    return sign(claims, signer)
