"""The seat pages' offline fallback (issue 38): a reload while the phone is offline showed the browser's
own error page, which says nothing of the tap the page keeps (static/js/outbox.js) and never comes back
by itself.

Two answers, both the same for everyone and holding nothing of a table:

- ``offline_worker`` serves static/js/offline_worker.js at ``/play/sw.js``, so the worker's default scope
  is ``/play/`` (the seat pages) without a ``Service-Worker-Allowed`` header. One line of plain data goes
  before the file: the offline page's address, the static files it needs (their hashed names after
  ``collectstatic``) and a version made of those and the two files' text, so a release that changes any
  of them installs a new worker, whose cache replaces the old one.
- ``offline_page`` is the page the worker keeps (its only cached page) and shows for a navigation that
  fails. ``no-cache``: a proxy may keep it but asks first; it is no seat's page.

A browser offers service workers only on a secure context (HTTPS, or localhost/127.x): a venue's plain
HTTP on its Wi-Fi address gets none and shows the browser's own offline page (docs/operations.md).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

WORKER = "js/offline_worker.js"
PAGE_TEMPLATE = "tabletop/offline.html"
# What the offline page loads; the worker keeps exactly these besides the page.
STYLESHEET = "css/muster.css"
SCRIPT = "js/offline_page.js"

ask_first = cache_control(no_cache=True)


def _page_context() -> dict:
    return {"stylesheet": static(STYLESHEET), "script": static(SCRIPT)}


def _worker_config(worker_source: str) -> dict:
    """The plain data the worker starts with: what it caches, under which version."""
    context = _page_context()
    page = render_to_string(PAGE_TEMPLATE, context)
    config = {"page": reverse("tabletop:offline_page"), "assets": [context["stylesheet"], context["script"]]}
    version = hashlib.sha256("\n".join([worker_source, page, json.dumps(config)]).encode()).hexdigest()[:16]
    return {**config, "version": version}


@require_GET
@ask_first
def offline_worker(request: HttpRequest) -> HttpResponse:
    source = Path(finders.find(WORKER)).read_text(encoding="utf-8")
    config = json.dumps(_worker_config(source))
    return HttpResponse(f"const OFFLINE = {config};\n{source}", content_type="application/javascript")


@require_GET
@ask_first
def offline_page(request: HttpRequest) -> HttpResponse:
    return HttpResponse(render_to_string(PAGE_TEMPLATE, _page_context()))
