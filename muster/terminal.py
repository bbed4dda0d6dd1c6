"""What a management command prints is in the server's language (issue 41).

A terminal has no request, so no browser or account chooses its language: the lines a GM reads there (the
demo's logins, a backup's or an import's result) follow ``settings.LANGUAGE_CODE``, as the server does. A
command's ``handle`` wrapped in ``server_language`` makes its sentences, its refusals (``CommandError``)
included, in that language, whatever was active before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils.translation import override


def server_language(handle: Callable[..., Any]) -> Callable[..., Any]:
    """``handle`` run with translation set to ``settings.LANGUAGE_CODE``."""

    @functools.wraps(handle)
    def in_server_language(*args: Any, **kwargs: Any) -> Any:
        with override(settings.LANGUAGE_CODE):
            return handle(*args, **kwargs)

    return in_server_language
