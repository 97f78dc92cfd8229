"""tabletop has one version, pyproject's as installed: every micro service reports it, the CLI's
`--version` prints it and the web client's /config.json carries it."""

from __future__ import annotations

import ast
import contextlib
import io
from importlib.metadata import version
from pathlib import Path

import pytest

from services import VERSION, cli
from services.web.server import client_config
from tests.platform.stack import stack

INSTALLED = version("tabletop")
SERVICES = Path(__file__).resolve().parents[2] / "services"


def test_the_version_is_pyprojects():
    assert VERSION == INSTALLED


def test_the_cli_prints_it():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        cli.parser().parse_args(["--version"])
    assert done.value.code == 0
    assert out.getvalue().strip() == f"tabletop {INSTALLED}"


def test_the_web_client_is_told_it():
    assert client_config("ws://127.0.0.1:9222")["version"] == INSTALLED


def test_every_micro_service_is_registered_with_it():
    """Each `add_service` call in the services names the one VERSION (the auth service and
    `tabletop up` included, which the test below cannot ask from the players' account)."""
    versions = [
        ast.unparse(keyword.value)
        for path in SERVICES.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_service"
        for keyword in node.keywords
        if keyword.arg == "version"
    ]
    assert len(versions) >= 6, versions
    assert set(versions) == {"VERSION"}, versions


async def test_every_service_reports_it(nats_url):
    started = ("worker:naishi", "table-projector", "history-projector", "bots")
    async with stack(nats_url, *started) as s:
        infos = await s.probe.service_instances(window=1)
    reported = {(info["name"], info["version"]) for info in infos.values()}
    assert len({name for name, _ in reported}) >= len(started), reported
    assert {v for _, v in reported} == {INSTALLED}, reported
