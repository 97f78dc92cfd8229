"""Message headers read from their raw block: what nats-py makes of them, cheaper (the table
projector reads a header of every log message). Same result as nats-py for every input
(tests/platform/test_nats_internals.py)."""

from __future__ import annotations

import re

_SPACE = re.compile(r"\s")
_ASCII_SPACE = " \t\n\r\x0b\x0c"  # what `bytes.strip()` strips
NO_STATUS = b"NATS/1.0\r\n"  # a header block without a status: header lines follow


def parse_header_lines(raw: bytes) -> dict[str, str]:
    """The header lines `raw` (`Name: value`, CRLF between) as nats-py parses them."""
    try:
        text = raw.decode("ascii")  # what every header of the log is
    except UnicodeDecodeError:
        return _parse_header_bytes(raw)
    out: dict[str, str] = {}
    for line in text.split("\r\n"):
        name, sep, value = line.partition(":")
        if sep:
            key = name.strip(_ASCII_SPACE)
            if _SPACE.search(key) is None:
                out[key] = value.strip(_ASCII_SPACE)
    return out


def _parse_header_bytes(raw: bytes) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in raw.split(b"\r\n"):
        name, sep, value = line.partition(b":")
        if not sep:
            continue
        try:
            key = name.strip().decode("ascii")
        except UnicodeDecodeError:
            continue
        if _SPACE.search(key) is None:
            out[key] = value.strip().decode("utf-8", "replace")
    return out


def header(block: bytes, name: str) -> str | None:
    """Header `name` of a message's header block without a status, parsing only the line the
    name is on when it occurs once (the projector reads one header of each log message, its
    writer)."""
    lines = block[len(NO_STATUS) :]
    wanted = name.encode()
    at = lines.find(wanted)
    if at < 0:
        return None
    if lines.find(wanted, at + 1) >= 0:  # several lines may name it: the last one counts
        return parse_header_lines(lines).get(name)
    start = lines.rfind(b"\r\n", 0, at)
    end = lines.find(b"\r\n", at)
    line = lines[start + 2 if start >= 0 else 0 : end if end >= 0 else len(lines)]
    return parse_header_lines(line).get(name)
