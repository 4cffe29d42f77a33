"""Referee's settings: every variable of the environment the service reads, its default and its type,
in one place (the README's configuration table lists the same).

``Settings.read()`` reads them when asked: the server at its start, a request's key check at each
request (a changed environment is seen by the next one). Where the index and the added rulebooks
live is the indexer's to say as well (``python -m indexer`` reads them without the service):
``index`` and ``library`` default to what it says. A value of the wrong type stops the start with
the variable's name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping

DEFAULT_RATE_LIMIT = "30/second;600/minute"


class BadSetting(ValueError):
    """A variable whose value is not of its type."""


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"  # REFEREE_HOST: the address to bind
    port: int = 8000  # PORT
    workers: int = 2  # REFEREE_WORKERS: worker processes
    threads: int = 2  # REFEREE_THREADS: per worker, the threads Flask's views run on
    timeout: int = 30  # REFEREE_TIMEOUT: seconds before a silent worker is restarted
    graceful_timeout: int = 10  # REFEREE_GRACEFUL_TIMEOUT
    keepalive: int = 5  # REFEREE_KEEPALIVE
    log_level: str = "info"  # REFEREE_LOG_LEVEL
    index: str = ""  # REFEREE_INDEX (empty: indexer.build.DEFAULT_INDEX)
    index_check_seconds: float = 2.0  # REFEREE_INDEX_CHECK_SECONDS
    library: str = ""  # REFEREE_LIBRARY (empty: indexer.added.DEFAULT_LIBRARY)
    search_backend: str = ""  # REFEREE_SEARCH_BACKEND (empty: whoosh)
    cors_origins: str = "*"  # REFEREE_CORS_ORIGINS
    public_url: str = ""  # REFEREE_PUBLIC_URL, without a trailing slash
    api_keys: tuple[str, ...] = ()  # REFEREE_API_KEY, comma-separated
    max_upload_bytes: int = 32 * 1024 * 1024  # REFEREE_MAX_UPLOAD_BYTES
    rate_limit: str = DEFAULT_RATE_LIMIT  # REFEREE_RATE_LIMIT (off: none)
    max_head_bytes: int = 64 * 1024  # REFEREE_MAX_HEAD_BYTES
    head_seconds: float = 10.0  # REFEREE_HEAD_SECONDS
    body_seconds: float = 15.0  # REFEREE_BODY_SECONDS
    mcp_allowed_hosts: tuple[str, ...] = ()  # REFEREE_MCP_ALLOWED_HOSTS, comma-separated

    @classmethod
    def read(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        def text(name: str, default: str) -> str:
            return environ.get(name, default)

        def number(name: str, default, kind):
            value = environ.get(name)
            if value is None or not value.strip():
                return default
            try:
                return kind(value)
            except ValueError:
                what = "a whole number" if kind is int else "a number"
                raise BadSetting(f"{name}={value!r} is not {what}") from None

        d = cls()
        return cls(
            host=text("REFEREE_HOST", d.host),
            port=number("PORT", d.port, int),
            workers=number("REFEREE_WORKERS", d.workers, int),
            threads=number("REFEREE_THREADS", d.threads, int),
            timeout=number("REFEREE_TIMEOUT", d.timeout, int),
            graceful_timeout=number("REFEREE_GRACEFUL_TIMEOUT", d.graceful_timeout, int),
            keepalive=number("REFEREE_KEEPALIVE", d.keepalive, int),
            log_level=text("REFEREE_LOG_LEVEL", d.log_level),
            index=text("REFEREE_INDEX", d.index),
            index_check_seconds=number("REFEREE_INDEX_CHECK_SECONDS", d.index_check_seconds, float),
            library=text("REFEREE_LIBRARY", d.library),
            search_backend=text("REFEREE_SEARCH_BACKEND", d.search_backend),
            cors_origins=text("REFEREE_CORS_ORIGINS", d.cors_origins),
            public_url=text("REFEREE_PUBLIC_URL", d.public_url).rstrip("/"),
            api_keys=api_keys(environ),
            max_upload_bytes=number("REFEREE_MAX_UPLOAD_BYTES", d.max_upload_bytes, int),
            rate_limit=text("REFEREE_RATE_LIMIT", d.rate_limit),
            max_head_bytes=number("REFEREE_MAX_HEAD_BYTES", d.max_head_bytes, int),
            head_seconds=number("REFEREE_HEAD_SECONDS", d.head_seconds, float),
            body_seconds=number("REFEREE_BODY_SECONDS", d.body_seconds, float),
            mcp_allowed_hosts=_listed(environ, "REFEREE_MCP_ALLOWED_HOSTS"),
        )


def _listed(environ: Mapping[str, str], name: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in environ.get(name, "").split(",") if item.strip())


def api_keys(environ: Mapping[str, str] = os.environ) -> tuple[str, ...]:
    """REFEREE_API_KEY's keys alone: what every limited request reads (Settings.read reads them all)."""
    return _listed(environ, "REFEREE_API_KEY")


WILDCARD_HOSTS = ("0.0.0.0", "::", "")


def phone_url(settings: Settings) -> str | None:
    """Where a phone at the table opens Referee: REFEREE_PUBLIC_URL when set; this machine's address
    on its network when the server listens on every interface (REFEREE_HOST=0.0.0.0); the host
    itself when it names one address other than loopback; None when only this machine can reach it."""
    if settings.public_url:
        return settings.public_url + "/"
    if settings.host in WILDCARD_HOSTS:
        return f"http://{network_address()}:{settings.port}/"
    if settings.host not in ("127.0.0.1", "localhost", "::1"):
        return f"http://{settings.host}:{settings.port}/"
    return None


def network_address() -> str:
    """This machine's address on its network (the route out, found without sending anything)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()
