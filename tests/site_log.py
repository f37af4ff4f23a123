"""The site's log as its handler writes it: the lines a test made, from the real configuration.

`site_log()` configures logging from settings.LOGGING itself (its console handler, its
filters and its formatter), with the handler's stream pointed at a buffer for the test,
and puts the configuration back afterwards. A test reads what production would print.
"""

from __future__ import annotations

import contextlib
import copy
import io
import logging
import logging.config
from collections.abc import Iterator

from django.conf import settings


class WrittenLog:
    def __init__(self, stream: io.StringIO) -> None:
        self.stream = stream

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    def lines(self, containing: str = "") -> list[str]:
        return [line for line in self.text.splitlines() if containing in line]


@contextlib.contextmanager
def site_log() -> Iterator[WrittenLog]:
    root = logging.getLogger()
    level = root.level
    before = next((h for h in root.handlers if isinstance(h, logging.StreamHandler) and h.filters), None)
    stream = io.StringIO()
    config = copy.deepcopy(settings.LOGGING)
    config["handlers"]["console"]["stream"] = stream
    logging.config.dictConfig(config)
    try:
        yield WrittenLog(stream)
    finally:
        logging.config.dictConfig(settings.LOGGING)
        root.setLevel(level)
        if before is not None:
            for handler in root.handlers:
                if isinstance(handler, logging.StreamHandler):
                    handler.setStream(before.stream)
