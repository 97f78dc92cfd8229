"""The web service: serves the browser client's static files and `/config.json`.

Nothing else runs here: the pages connect to NATS over WebSocket themselves and sign in as the
player (or a guest), so the broker applies the same permissions as to any other client.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import mimetypes
import socket
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
import structlog
from aiohttp import web

from services import VERSION
from services.registry import games
from shared.games.clock import TableOptions
from shared.games.table import BOT_SEAT_PREFIX, RESERVED_VIEW_KEYS

log = structlog.get_logger("tabletop.web")

STATIC = Path(str(resources.files("services.web") / "static"))
# The pages are plain ES modules: the browser must be told they are JavaScript.
CONTENT_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css"}
COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".json", ".txt", ".svg"}


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    gzipped: bytes | None  # None where gzip would not make it smaller
    content_type: str
    etag: str


def static_files(folder: Path) -> dict[str, StaticFile]:
    """Every file of `folder` by its URL path ("/app.js"), read and gzipped once at start: the
    client has no build step, and its largest file (the NATS library) shrinks to a fifth.
    A symbolic link is never served: it could point anywhere on the machine."""
    files: dict[str, StaticFile] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()):
        body = path.read_bytes()
        gzipped = gzip.compress(body, compresslevel=9, mtime=0) if path.suffix in COMPRESSIBLE else None
        content_type = CONTENT_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0]
        files["/" + path.relative_to(folder).as_posix()] = StaticFile(
            body=body,
            gzipped=gzipped if gzipped is not None and len(gzipped) < len(body) else None,
            content_type=content_type or "application/octet-stream",
            etag='"' + hashlib.sha256(body).hexdigest()[:20] + '"',
        )
    return files


def static_response(file: StaticFile, request: web.Request) -> web.Response:
    """The file, gzipped when the browser takes it; revalidated by its ETag on every visit
    (`no-cache`: the file names carry no version), so an unchanged file costs a 304."""
    headers = {"ETag": file.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    if request.headers.get("If-None-Match") == file.etag:
        return web.Response(status=304, headers=headers)
    body = file.body
    if file.gzipped is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
        body, headers["Content-Encoding"] = file.gzipped, "gzip"
    return web.Response(body=body, content_type=file.content_type, headers=headers)


def option_schema(options: type) -> dict[str, Any]:
    """The JSON schema of a game's options struct, its definitions inlined: the browser
    builds the create form from `properties` (type and default of each option)."""
    schema: dict[str, Any] = msgspec.json.schema(options)
    ref = schema.get("$ref", "")
    if ref.startswith("#/$defs/"):
        inlined: dict[str, Any] = schema["$defs"][ref.removeprefix("#/$defs/")]
        return inlined
    return schema


def game_help(game: Any, language: str = "en") -> dict[str, Any]:
    """A game's rules in short and what each of its moves does, for people (`help.en.json` in
    its package; {} for a game without one). The French (`help.fr.json`) also gives the game's
    description and its options' sentences, which the English takes from the game itself."""
    package = game.evolve.__module__.rpartition(".")[0]
    try:
        text = resources.files(package).joinpath(f"help.{language}.json").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    loaded: dict[str, Any] = json.loads(text)
    return loaded


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
        "bot_seat_prefix": BOT_SEAT_PREFIX,  # a bot's seat is no person: it has no profile
        "games": [
            {
                "game": name,
                "title": decider.game.title,
                "min_players": decider.game.min_players,
                "max_players": decider.game.max_players,
                "description": decider.game.description,
                "options": option_schema(decider.game.options),
                "help": game_help(decider.game),
                "help_fr": game_help(decider.game, "fr"),
            }
            for name, decider in games().items()
        ],
    }


def make_app(websocket_url: str) -> web.Application:
    config = client_config(websocket_url)

    async def config_json(request: web.Request) -> web.Response:
        return web.json_response(config, headers={"Cache-Control": "no-store"})

    files = static_files(STATIC)

    async def static(request: web.Request) -> web.Response:
        path = "/index.html" if request.path == "/" else request.path
        if path not in files:
            raise web.HTTPNotFound()
        return static_response(files[path], request)

    @web.middleware
    async def headers(request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
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
    app.router.add_get("/config.json", config_json)
    app.router.add_get("/{path:.*}", static)
    return app


async def serve_web(
    *,
    host: str,
    port: int,
    websocket_url: str,
    stop: asyncio.Event,
    ready: Callable[[str], None] = lambda url: None,
    sock: socket.socket | None = None,
) -> None:
    """Serve the client at http://host:port (or on `sock`, bound already) until `stop` is set."""
    runner = web.AppRunner(make_app(websocket_url), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port) if sock is None else web.SockSite(runner, sock)
        await site.start()
        bound = runner.addresses[0][1] if runner.addresses else port
        url = f"http://{host}:{bound}"
        log.info("web_started", url=url, websocket=websocket_url)
        ready(url)
        await stop.wait()
    finally:
        await runner.cleanup()
