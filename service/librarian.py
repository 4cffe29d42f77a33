"""Keeps a running service on the newest index generation, without a restart.

Each request takes the current Library once (service.api.library), so one answer comes from one
generation. At most every ``check_seconds`` a request looks where the index link points (one
readlink); when it points to a new generation, that request opens it and makes it current, while
other requests go on with the old one. Every worker process does the same, so all of them serve
the new generation within ``check_seconds`` of a request reaching them. The old Library is closed
(and its lease on the generation given up) ``retire_seconds`` later, once the requests that
took it have long finished.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Callable

from service.library import Library

log = logging.getLogger(__name__)


class Librarian:
    def __init__(
        self,
        index_dir: Path | str,
        open_library: Callable[[Path], Library],
        check_seconds: float = 2.0,
        retire_seconds: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.index_dir = Path(index_dir)
        self._open = open_library
        self.check_seconds = check_seconds
        self.retire_seconds = retire_seconds
        self._clock = clock
        self._library = open_library(self.index_dir)
        self._checked = clock()
        self._switching = threading.Lock()
        self._retired: list[tuple[float, Library]] = []

    def current(self) -> Library:
        """The Library to answer a request with: the newest generation, checked at most every few seconds."""
        now = self._clock()
        if now - self._checked >= self.check_seconds and self._switching.acquire(blocking=False):
            try:
                self._checked = now
                self._close_retired(now)
                if self._link_target() not in (None, self._library.generation):
                    self._switch(now)
            finally:
                self._switching.release()
        return self._library

    def _link_target(self) -> str | None:
        try:
            return os.path.basename(os.readlink(self.index_dir))
        except OSError:  # not a link (a plain index folder), or gone for a moment: keep serving
            return None

    def _switch(self, now: float) -> None:
        try:
            new = self._open(self.index_dir)
        except Exception:  # a broken build must not take the service down: keep the old index
            log.exception("could not open the new index at %s; still serving %s", self.index_dir, self._library.generation)
            return
        old, self._library = self._library, new
        self._retired.append((now, old))
        log.info("now serving index %s (was %s)", new.generation, old.generation)

    def _close_retired(self, now: float) -> None:
        while self._retired and now - self._retired[0][0] >= self.retire_seconds:
            self._retired.pop(0)[1].close()
