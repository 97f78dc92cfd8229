"""The auth service under a crowd, over a real nats-server configured as `tabletop up`
configures it, with auth services of the test's own (`tabletop auth` processes, so that one can
be killed, each with the limits the test sets): the hash pool and its queue, sign-ins the server
gave up on, the limits per address and per site, replicas, and accounts registered before names
were folded."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest
from argon2 import PasswordHasher

from services import compose
from services.auth.accounts import ACCOUNTS_BUCKET, Account
from services.auth.names import name_key
from shared.bus.connection import Bus
from shared.bus.credentials import ServerSecrets
from shared.bus.server import EmbeddedServer
from shared.settings import load_settings
from tests import crowd
from tests.crowd import Outcome
from tests.processes import ServiceProcess, Services, auth_env

pytestmark = pytest.mark.slow  # a nats-server and auth processes of their own

PASSWORD = "a long enough password"
# A hash of about a third of a second here: a crowd of them outlasts the server's 2 s wait.
SLOW_HASH = {"TABLETOP_PASSWORD_HASH_MEMORY_KIB": "8192", "TABLETOP_PASSWORD_HASH_PASSES": "48"}
NO_LIMITS = {
    "TABLETOP_PASSWORD_CHECKS_PER_ADDRESS": "0",
    "TABLETOP_PASSWORD_CHECKS_PER_MINUTE": "0",
    "TABLETOP_REGISTRATIONS_PER_ADDRESS": "0",
    "TABLETOP_REGISTRATIONS_PER_MINUTE": "0",
}


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


@dataclass
class Site:
    """A nats-server of its own, as `tabletop up` runs it, and its auth service processes."""

    server: EmbeddedServer
    secrets: ServerSecrets
    services: Services

    @property
    def url(self) -> str:
        return self.server.url

    def start_auth(self, **env: str) -> ServiceProcess:
        """One more `tabletop auth` process, with `env` besides the session's settings."""
        self.services.env.update(env)
        return self.services.start("auth")

    def log_of(self, auth: ServiceProcess) -> list[dict]:
        lines = (self.services.log_dir / f"{auth.label}.log").read_text().splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]

    async def until_logged(self, auth: ServiceProcess, event: str, timeout: float = 30.0) -> dict:
        """The first line of `event` in the log of `auth`, once it is there."""
        deadline = time.monotonic() + timeout
        while True:
            found = [line for line in self.log_of(auth) if line.get("event") == event]
            if found:
                return found[0]
            assert auth.process.poll() is None, f"{auth.label} exited"
            assert time.monotonic() < deadline, f"{auth.label} did not log {event}"
            await asyncio.sleep(0.05)

    async def ready(self, auth: ServiceProcess) -> ServiceProcess:
        await self.until_logged(auth, "auth_ready")
        return auth

    async def sign_in(self, name: str, password: str = PASSWORD) -> Outcome:
        return await crowd.sign_in(self.url, name, password)

    async def crowd(self, names: list[str], password: str = PASSWORD) -> list[Outcome]:
        return await crowd.crowd(self.url, names, password)

    async def accounts(self) -> dict[str, bytes]:
        auth = await Bus.connect(
            self.url,
            load_settings(),
            name="test-accounts",
            wait=10,
            credentials=self.secrets.credentials("auth"),
        )
        try:
            return await (
                await auth.bucket(ACCOUNTS_BUCKET, description="tabletop: players' accounts")
            ).entries()
        finally:
            await auth.close()

    async def registered(self, names: list[str]) -> int:
        keys = await self.accounts()
        return sum(name_key(n) in keys for n in names)

    async def settled(self) -> None:
        """Until a fresh name signs in (tried again on a busy machine): every hash queued
        before it is done or dropped (the pool takes them in order)."""
        deadline = time.monotonic() + 90
        while not (await self.sign_in(unique("probe"))).signed_in:
            assert time.monotonic() < deadline, "the auth service stayed busy"

    def refusals(self, auth: ServiceProcess) -> dict[str, int]:
        """The refused sign-ins `auth` has logged, by reason."""
        total: dict[str, int] = {}
        for line in self.log_of(auth):
            if line.get("event") == "sign_ins_refused":
                for reason, count in line["reasons"].items():
                    total[reason] = total.get(reason, 0) + count
        return total

    async def until_refusals(self, auth: ServiceProcess, reason: str, at_least: int) -> dict[str, int]:
        deadline = time.monotonic() + 30
        while self.refusals(auth).get(reason, 0) < at_least:
            assert time.monotonic() < deadline, f"{reason}: {self.refusals(auth)}"
            await asyncio.sleep(0.1)
        return self.refusals(auth)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    settings = load_settings(data_dir=str(tmp_path / "data"), credentials_dir=str(tmp_path / "credentials"))
    server = compose.embedded_server(settings)
    with server:
        secrets = server.secrets
        services = Services(
            auth_env(server.url, secrets, TABLETOP_AUTH_LOG_INTERVAL="0.2", **NO_LIMITS),
            tmp_path / "logs",
        )
        try:
            yield Site(server, secrets, services)
        finally:
            services.stop_all()


def peak_memory_mib(auth: ServiceProcess) -> float:
    """The auth process's peak resident memory so far (Linux)."""
    for line in Path(f"/proc/{auth.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


# --- 1. the hash pool -------------------------------------------------------------------------


async def test_a_crowd_beyond_the_pool_is_refused_at_once_unhashed_and_memory_stays_bounded(site):
    # one thread, two waiting: at most three hashes taken on at a time, 64 MiB each
    auth = await site.ready(
        site.start_auth(
            TABLETOP_AUTH_HASH_THREADS="1",
            TABLETOP_AUTH_HASH_QUEUE="2",
            TABLETOP_PASSWORD_HASH_MEMORY_KIB="65536",
            TABLETOP_PASSWORD_HASH_PASSES="2",
        )
    )
    await site.settled()  # one hash done: the baseline
    baseline = peak_memory_mib(auth)
    names = [unique("crowd") for _ in range(24)]
    outcomes = await site.crowd(names)
    refused = [o for o in outcomes if not o.signed_in]
    # refused at once, not left to the server's 2 s wait
    assert len([o for o in refused if o.seconds < 1.5]) >= 12, [round(o.seconds, 2) for o in outcomes]
    await site.settled()
    # hashed: those the pool took on as they came, never the whole crowd
    assert await site.registered(names) <= 8
    assert (await site.until_refusals(auth, "busy", 12))["busy"] >= 12
    # one hash in memory at a time (64 MiB), however many came
    assert peak_memory_mib(auth) < baseline + 64 + 40


async def test_a_sign_in_the_server_gave_up_on_is_not_hashed(site):
    # one thread and room to wait for all: the later ones' turn comes after the server's 2 s
    auth = await site.ready(
        site.start_auth(TABLETOP_AUTH_HASH_THREADS="1", TABLETOP_AUTH_HASH_QUEUE="100", **SLOW_HASH)
    )
    names = [unique("late") for _ in range(16)]
    outcomes = await site.crowd(names)
    signed_in = sum(o.signed_in for o in outcomes)
    await site.settled()
    registered = await site.registered(names)
    # each hash begun is registered; those past the deadline were never begun (one may have
    # begun in time and ended too late)
    assert registered <= signed_in + 2, (registered, signed_in)
    assert registered < len(names)
    refusals = await site.until_refusals(auth, "expired", len(names) - registered)
    assert refusals["expired"] >= len(names) - registered


async def test_a_returning_player_goes_before_a_crowd_of_strangers(site):
    await site.ready(
        site.start_auth(
            TABLETOP_AUTH_HASH_THREADS="2",
            TABLETOP_AUTH_HASH_QUEUE="100",
            TABLETOP_PASSWORD_HASH_MEMORY_KIB="8192",
            TABLETOP_PASSWORD_HASH_PASSES="16",
        )
    )
    honest = unique("honest")
    # registered, then signed in from this address, before any crowd (asked again while a
    # busy machine makes one slow hash miss the server's 2 s: not what is tested here)
    for _ in range(2):
        deadline = time.monotonic() + 60
        while not (await site.sign_in(honest)).signed_in:
            assert time.monotonic() < deadline, "the auth service stayed busy"
    strangers = asyncio.create_task(site.crowd([unique("stranger") for _ in range(24)]))  # noqa: RUF006 - awaited below
    try:
        # while the strangers' hashes queue (seconds of them), each sign-in of the returning
        # player waits for no stranger's
        for _ in range(3):
            outcome = await site.sign_in(honest)
            assert outcome.signed_in, outcome  # within the server's 2 s
        assert not strangers.done()
    finally:
        await strangers


# --- 2. limits per address and per site -------------------------------------------------------


@pytest.mark.parametrize(
    ("setting", "reason", "replicas"),
    [
        ("TABLETOP_REGISTRATIONS_PER_ADDRESS", "address_limit", 1),
        ("TABLETOP_REGISTRATIONS_PER_MINUTE", "site_limit", 1),
        ("TABLETOP_REGISTRATIONS_PER_ADDRESS", "address_limit", 2),  # counted together
    ],
)
async def test_at_most_the_configured_new_names_are_registered_per_minute(site, setting, reason, replicas):
    auths = [site.start_auth(**{setting: "3"}) for _ in range(replicas)]
    for auth in auths:
        await site.ready(auth)
    names = [unique("new") for _ in range(8)]
    outcomes = [await site.sign_in(name) for name in names]
    assert [o.signed_in for o in outcomes] == [True] * 3 + [False] * 5
    assert await site.registered(names) == 3
    # registered names still sign in: checks are not registrations
    assert (await site.sign_in(names[0])).signed_in
    deadline = time.monotonic() + 30
    while sum(site.refusals(auth).get(reason, 0) for auth in auths) < 5:
        assert time.monotonic() < deadline, [site.refusals(auth) for auth in auths]
        await asyncio.sleep(0.1)
    assert sum(sum(site.refusals(auth).values()) for auth in auths) == 5


async def test_password_checks_per_address_are_limited_but_its_signed_in_names_go_on(site):
    auth = await site.ready(site.start_auth(TABLETOP_PASSWORD_CHECKS_PER_ADDRESS="5"))
    honest, other = unique("honest"), unique("other")
    sprayed = [unique("sprayed") for _ in range(8)]
    for name in [honest, other, *sprayed]:
        assert (await site.sign_in(name)).signed_in  # registered: no check yet
    assert (await site.sign_in(honest)).signed_in  # check 1: this address knows honest's password
    # a spray of guesses: 4 checked, then the address has had its 5 checks this minute
    guesses = [await site.sign_in(name, "a wrong guess!") for name in sprayed]
    assert not any(o.signed_in for o in guesses)
    assert not (await site.sign_in(other)).signed_in  # even the right password, unchecked
    assert (await site.sign_in(honest)).signed_in  # a name it signed in to goes on
    refusals = await site.until_refusals(auth, "address_limit", 5)
    assert refusals == {"wrong_password": 4, "address_limit": 5}


# --- 4. replicas ------------------------------------------------------------------------------


def test_tabletop_up_runs_two_auth_replicas(tmp_path):
    settings = load_settings(data_dir=str(tmp_path), credentials_dir=str(tmp_path / "credentials"))
    ServerSecrets.load_or_create(settings.credentials_folder)
    runs = [s for s in compose.everything(settings) if s.role == "auth"]
    assert len(runs) == 2
    assert len({s.name for s in runs}) == 2  # each on a connection named its own


async def test_sign_in_goes_on_when_one_of_two_auth_replicas_is_killed(site):
    first, second = site.start_auth(), site.start_auth()
    await site.ready(first)
    await site.ready(second)
    names = [unique("shared") for _ in range(8)]
    assert all(o.signed_in for o in await site.crowd(names))
    # each sign-in decided by one replica (a queue group), not by both
    decided = [
        line["name"]
        for auth in (first, second)
        for line in site.log_of(auth)
        if line.get("event") in ("registered", "signed_in")
    ]
    assert sorted(decided) == sorted(names)
    site.services.kill(first.label)
    for name in [*names, *(unique("after") for _ in range(8))]:
        outcome = await site.sign_in(name)
        assert outcome.signed_in, outcome  # at once: no sign-in waits for the dead one


# --- 5. accounts registered before names were folded ------------------------------------------


async def test_accounts_under_their_exact_name_keep_working_and_keep_their_name(site):
    # as an earlier version stored them: under the exact name, `Ann` and `ann` both
    bob, ann = unique("Bob"), unique("ann")
    legacy = [bob, ann, ann.capitalize()]
    hasher = PasswordHasher(memory_cost=1024, time_cost=1)
    auth = await Bus.connect(
        site.url, load_settings(), name="test-legacy", wait=10, credentials=site.secrets.credentials("auth")
    )
    try:
        store = await auth.bucket(ACCOUNTS_BUCKET, description="tabletop: players' accounts")
        for created, name in enumerate(legacy):
            account = Account(name=name, password_hash=hasher.hash(f"{name}'s password"), created=created)
            assert await store.create(name, msgspec.json.encode(account))
    finally:
        await auth.close()
    await site.ready(site.start_auth())
    for name in legacy:  # each signs in as before
        assert (await site.sign_in(name, f"{name}'s password")).signed_in, name
        assert not (await site.sign_in(name, "someone else's password")).signed_in, name
    # and no new spelling of them registers
    for name in (bob.lower(), bob.upper(), ann.upper()):
        assert not (await site.sign_in(name, f"{name}'s password")).signed_in, name
    assert name_key(bob) in await site.accounts()
