"""One line per refused request in the log.

Django logs every 4xx answer through ``django.request`` (or ``django.security.*``), and a
PermissionDenied, a BadRequest or a SuspiciousOperation with its whole traceback: a refusal is
the site working as meant, and a run of them buried the log (135 tracebacks in one test run).
``OneLineRefusals`` turns each such record into ``403 GET /path user=ann: reason`` without the
traceback; a 5xx keeps its traceback (its path without secrets, too). It sits on the ``django.request``
logger (so every handler, the test suite's capture too, sees the short form) and on the console handler (which also gets
the ``django.security.*`` loggers' records: a logger's filter does not reach its children).

A path that carries a secret (a seat's link, an invite, a projector link, the owner's link, a password reset
link) is logged without it: ``/play/***/``. Whoever reads the log learns that such a link was refused, not the link.
The live push's paths carry the same secrets (``/ws/play/<token>/``, ``/ws/projector/<token>/``) and are masked the
same way. ``deploy/nginx/muster.conf`` masks the proxy's access log by the same patterns (tests/test_deploy_nginx.py
checks that the two agree).

A CSRF refusal says why (issue 37): Django's ``django.security.csrf`` record carries its reason ("Origin checking
failed - https://muster.example:8443 does not match any trusted origins.", the sign of a proxy that drops the port),
and the bare "Forbidden" hid it. An address in that reason (a Referer is a whole address) keeps its scheme and host,
its path goes through ``without_secrets`` and a query string is written ``?***``.
"""

from __future__ import annotations

import logging
import re
from http import HTTPStatus

# The secret parts of paths: a seat's token, an invite's token, a projector link's token (issue 25), make
# run's owner's link's token (issue 35), a reset link's user and token.
SECRET_PATHS = [
    (re.compile(r"^(/ws)?/(play|join|projector|owner)/[^/]+"), r"\1/\2/***"),
    (re.compile(r"^/(accounts?)/reset/[^/]+/[^/]+"), r"/\1/reset/***/***"),
]

# Django's CSRF refusals: their reason is the record's first argument.
CSRF_LOGGER = "django.security.csrf"
# An address in a reason: its origin (scheme, host, port), then the rest up to the next space.
ADDRESS = re.compile(r"(?P<origin>https?://[^/?#\s]*)(?P<rest>[^\s#]*)(#\S*)?", re.IGNORECASE)


class OneLineRefusals(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        request = getattr(record, "request", None)
        if isinstance(status, int) and status >= 500 and request is not None and isinstance(record.args, tuple):
            # a 5xx keeps its traceback, but its line ("Internal Server Error: /play/<token>/") not the secret
            record.args = tuple(without_secrets(arg) if arg == request.path else arg for arg in record.args)
            return True
        if not isinstance(status, int) or not 400 <= status < 500 or request is None:
            return True
        if getattr(record, "one_line_refusal", False):
            return True
        exception = record.exc_info[1] if record.exc_info else None
        if exception is not None and str(exception):
            reason = str(exception)
        elif record.name == CSRF_LOGGER and isinstance(record.args, tuple) and record.args:
            reason = _addresses_without_secrets(str(record.args[0]))  # "Forbidden (%s): %s" % (reason, path)
        else:
            reason = _reason_phrase(status, record)
        record.msg = "%s %s %s user=%s: %s"
        record.args = (
            status,
            _escaped(request.method or "-"),
            _escaped(without_secrets(request.path)),
            _username(request),
            _escaped(reason),
        )
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        record.one_line_refusal = True
        return True


def without_secrets(path: str) -> str:
    """``path`` with a secret link's secret parts as ``***`` (the login throttle stores paths too)."""
    for pattern, replacement in SECRET_PATHS:
        path = pattern.sub(replacement, path)
    return path


def _addresses_without_secrets(text: str) -> str:
    """``text`` with every http(s) address in it masked: its path by ``without_secrets``, its query as ``?***``."""

    def masked(match: re.Match) -> str:
        path, question, _query = match["rest"].partition("?")
        return f"{match['origin']}{without_secrets(path)}{'?***' if question else ''}"

    return ADDRESS.sub(masked, text)


def _reason_phrase(status: int, record: logging.LogRecord) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return record.getMessage()


def _username(request) -> str:
    """Who asked: the user name, ``anonymous``, or ``-`` when the request never got that far (a
    bad host, say); reading it must never fail the log line."""
    try:
        user = getattr(request, "user", None)
        if user is None:
            return "-"
        return _escaped(user.get_username()) if user.is_authenticated else "anonymous"
    except Exception:
        return "-"


def _escaped(text: str) -> str:
    """Control characters (a newline in a path could forge a line) as escapes, as Django does."""
    return text.encode("unicode_escape").decode("ascii")
