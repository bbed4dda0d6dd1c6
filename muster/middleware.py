"""Middleware of the project's own."""

from __future__ import annotations

import codecs
import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, parse_cookie
from django.utils import translation
from django.utils.http import parse_header_parameters
from django.utils.log import log_response
from django.utils.translation import gettext, gettext_noop

from . import languages

request_logger = logging.getLogger("django.request")

FORM = "application/x-www-form-urlencoded"
UTF_8 = "utf-8"
# Why a charset cannot be read, as the whole refusal (``refusal_sentence``): the log's in English, the answer's
# in the language the request asks for.
FORM_NOT_UTF_8 = gettext_noop(
    "This request names the character set %(charset)s, and a form must be sent in UTF-8: send it in UTF-8."
)
NOT_TEXT = gettext_noop(
    "This request names the character set %(charset)s, and it is not a text encoding the site can read: "
    "send it in UTF-8."
)


class RefuseUnreadableCharset:
    """Answer 400, with one log line, a request whose Content-Type names a charset its form or query
    cannot be read in; first in MIDDLEWARE, before anything reads ``request.POST``.

    Django refuses a form (``application/x-www-form-urlencoded``) that is not UTF-8 with BadRequest,
    but its 400 page runs the CSRF check again, which reads the form again: the second refusal
    escapes as a 500 with three tracebacks. A codec that is not a text encoding (rot13, base64) or
    cannot replace bad bytes (idna) breaks ``request.GET`` and multipart forms the same way. A
    charset Python does not know is ignored by Django, and so here; UTF-8 under another spelling
    ("utf8") is read as UTF-8 (Django refuses any spelling but "utf-8").
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        charset = request.content_params.get("charset") if request.content_params else None
        if charset:
            codec, problem = read_as(request.content_type, charset)
            if problem:
                return refuse(request, charset, problem)
            if codec == UTF_8:
                request.encoding = UTF_8
        return self.get_response(request)


def read_as(content_type: str, charset: str) -> tuple[str | None, str | None]:
    """(the codec a body of ``content_type`` in ``charset`` is read with, None when Python does not
    know it; why it cannot be read (its refusal's message), or None)."""
    try:
        codec = codecs.lookup(charset).name
    except (LookupError, TypeError, ValueError):
        return None, None  # unknown to Python: Django ignores it and reads the body as UTF-8
    if content_type == FORM and codec != UTF_8:
        return codec, FORM_NOT_UTF_8
    try:
        b"\xff\xfe\x00=".decode(charset, "replace")  # what Django does with a query or a multipart field
    except (LookupError, UnicodeError, TypeError, ValueError):
        return codec, NOT_TEXT
    return codec, None


def refusal_sentence(charset: str, problem: str, language: str | None = None) -> str:
    """The refusal in English (the log's), or in ``language`` (the answer's)."""
    if language is None:
        return problem % {"charset": repr(charset[:40])}
    with translation.override(language):
        return gettext(problem) % {"charset": repr(charset[:40])}


def refuse(request: HttpRequest, charset: str, problem: str) -> HttpResponse:
    sentence = refusal_sentence(charset, problem)
    # before the language middleware: the language is chosen here as it would choose it
    said = refusal_sentence(charset, problem, languages.of_request(request))
    response = HttpResponseBadRequest(said, content_type="text/plain; charset=utf-8")
    # Logged as Django logs a refusal; muster.request_log makes it one line with this sentence.
    log_response("%s", sentence, response=response, request=request, exception=BadRequest(sentence))
    return response


def refuse_unreadable_charset_wsgi(application):
    """The same refusal around Django's WSGI handler (muster/asgi.py, muster/wsgi.py): Django builds
    its request before any middleware runs, and a charset that is not a text encoding (rot13) with
    a query string already breaks that (its GET is read to set the encoding)."""

    def guarded(environ, start_response):
        content_type, params = parse_header_parameters(environ.get("CONTENT_TYPE", ""))
        charset = params.get("charset")
        problem = read_as(content_type, charset)[1] if charset else None
        if not problem:
            return application(environ, start_response)
        sentence = refusal_sentence(charset, problem)
        path = environ.get("PATH_INFO", "").encode("latin-1", "replace").decode("utf-8", "replace")
        request_logger.warning(
            "400 %s %s user=-: %s",
            *(
                text.encode("unicode_escape").decode("ascii")
                for text in (environ.get("REQUEST_METHOD", "-"), path, sentence)
            ),
        )
        language = languages.choose(
            cookie=parse_cookie(environ.get("HTTP_COOKIE", "")).get(settings.LANGUAGE_COOKIE_NAME, ""),
            accept=environ.get("HTTP_ACCEPT_LANGUAGE", ""),
        )
        body = refusal_sentence(charset, problem, language).encode()
        start_response(
            "400 Bad Request", [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))]
        )
        return [body]

    return guarded
