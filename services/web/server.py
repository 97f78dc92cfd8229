"""The web service: serves the browser client's static files and `/config.json`.

Nothing else runs here: the pages connect to NATS over WebSocket themselves and sign in as the
player (or a guest), so the broker applies the same permissions as to any other client.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
import structlog
from aiohttp import web

from services import VERSION
from services.registry import games
from shared.games.clock import TableOptions
from shared.games.table import RESERVED_VIEW_KEYS

log = structlog.get_logger("tabletop.web")

STATIC = Path(str(resources.files("services.web") / "static"))
# The pages are plain ES modules: the browser must be told they are JavaScript.
CONTENT_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css"}


def option_schema(options: type) -> dict[str, Any]:
    """The JSON schema of a game's options struct, its definitions inlined: the browser
    builds the create form from `properties` (type and default of each option)."""
    schema: dict[str, Any] = msgspec.json.schema(options)
    ref = schema.get("$ref", "")
    if ref.startswith("#/$defs/"):
        inlined: dict[str, Any] = schema["$defs"][ref.removeprefix("#/$defs/")]
        return inlined
    return schema


def client_config(websocket_url: str) -> dict[str, Any]:
    """What the browser needs before it connects: tabletop's version, where NATS listens for
    browsers, the options every table takes, the view keys every table has (the table page
    draws them; a game's board draws the rest), and the games with their player counts and
    option schemas."""
    return {
        "version": VERSION,
        "websocket": websocket_url,
        "table_options": option_schema(TableOptions),
        "reserved_view_keys": sorted(RESERVED_VIEW_KEYS),
        "games": [
            {
                "game": name,
                "title": decider.game.title,
                "min_players": decider.game.min_players,
                "max_players": decider.game.max_players,
                "description": decider.game.description,
                "options": option_schema(decider.game.options),
            }
            for name, decider in games().items()
        ],
    }


def make_app(websocket_url: str) -> web.Application:
    config = client_config(websocket_url)

    async def config_json(request: web.Request) -> web.Response:
        return web.json_response(config, headers={"Cache-Control": "no-store"})

    async def index(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    @web.middleware
    async def headers(request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        suffix = Path(request.path).suffix
        if suffix in CONTENT_TYPES:
            response.content_type = CONTENT_TYPES[suffix]
        # the pages run only their own scripts, and connect only to this NATS
        connect = " ".join(filter(None, ("'self'", websocket_url)))
        response.headers.setdefault(
            "Content-Security-Policy",
            f"default-src 'self'; connect-src {connect}; img-src 'self' data:; "
            "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    app = web.Application(middlewares=[headers])
    app.router.add_get("/", index)
    app.router.add_get("/config.json", config_json)
    app.router.add_static("/", STATIC, show_index=False, follow_symlinks=False)
    return app


async def serve_web(
    *,
    host: str,
    port: int,
    websocket_url: str,
    stop: asyncio.Event,
    ready: Callable[[str], None] = lambda url: None,
) -> None:
    """Serve the client at http://host:port until `stop` is set."""
    runner = web.AppRunner(make_app(websocket_url), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = runner.addresses[0][1] if runner.addresses else port
        url = f"http://{host}:{bound}"
        log.info("web_started", url=url, websocket=websocket_url)
        ready(url)
        await stop.wait()
    finally:
        await runner.cleanup()
