"""structlog set-up, once per process: JSON lines for machines, colours for a terminal."""

from __future__ import annotations

import logging
import sys
from typing import Any

import msgspec
import structlog
from structlog.typing import Processor

_json = msgspec.json.Encoder()


def _dumps(obj: Any, default: Any = None) -> str:
    return _json.encode(obj).decode()


def configure_logging(*, fmt: str = "", level: str = "info") -> None:
    as_json = (not sys.stderr.isatty()) if not fmt else fmt == "json"
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    tail: list[Processor] = (
        [structlog.processors.dict_tracebacks, structlog.processors.JSONRenderer(serializer=_dumps)]
        if as_json
        else [structlog.dev.ConsoleRenderer()]
    )
    structlog.configure(
        processors=shared + tail,
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
        ),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
