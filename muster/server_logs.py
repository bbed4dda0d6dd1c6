"""The web server's own log lines without the secret links (issue 37).

uvicorn logs every websocket it accepts or refuses at INFO on ``uvicorn.error``
(``127.0.0.1:5000 - "WebSocket /ws/play/<token>/" [accepted]``), and its access log, when someone
turns it on, a line per request on ``uvicorn.access`` (``"GET /play/<token>/log.json HTTP/1.1" 200``).
A seat's link and a projector's link are their only permission, so such a line hands the seat to
whoever reads the log. Muster's own log already writes those paths as ``/play/***/``
(muster/request_log.py ``without_secrets``); ``SecretPaths`` does the same to the server's records,
in their arguments (where uvicorn puts the path; its access formatter reads them one by one) and in
the message itself.

Where it is installed: uvicorn configures its loggers before it imports the application, and Django
applies ``LOGGING`` when muster/asgi.py sets Django up, in every server process (``--workers`` starts
each one afresh). ``LOGGING_CONFIG`` in muster/settings.py names ``configure``, which applies Django's
dictionary and then puts the filter on the two loggers themselves: a logger's filters survive a later
``dictConfig`` (uvicorn's own, as ``make run`` sets Django up before it builds its server), handlers
do not. A filter on the logger sees every record logged there, whatever handler writes it.
"""

from __future__ import annotations

import logging
import logging.config
import re

from .request_log import without_secrets

SERVER_LOGGERS = ("uvicorn.error", "uvicorn.access")
# A path in a line: a "/" at the start or after a space, a quote, "(" or "=", up to the next space or quote.
_PATH = re.compile(r"(?<![^\s\"'(=])/[^\s\"']*")


def masked(text: str) -> str:
    """``text`` with every secret link's secret part as ``***``."""
    return _PATH.sub(lambda path: without_secrets(path.group()), text)


class SecretPaths(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = masked(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(masked(arg) if isinstance(arg, str) else arg for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: masked(arg) if isinstance(arg, str) else arg for key, arg in record.args.items()}
        return True


def install() -> None:
    """Put ``SecretPaths`` on the server's loggers, once each."""
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, SecretPaths) for existing in logger.filters):
            logger.addFilter(SecretPaths())


def configure(config: dict) -> None:
    """Django's ``LOGGING_CONFIG``: apply ``LOGGING``, then keep secret links out of the server's lines."""
    logging.config.dictConfig(config)
    install()
