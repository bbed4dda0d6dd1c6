from datetime import UTC, datetime

from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.forms import AuthenticationForm
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext
from django.views.decorators.http import last_modified, require_GET
from django.views.i18n import JavaScriptCatalog

from . import languages

_javascript_catalog = JavaScriptCatalog.as_view()


def catalog_changed(request: HttpRequest, **kwargs) -> datetime | None:
    """When the catalogs last changed (the newest compiled one, as muster/languages.py last read the disk): the
    browser keeps its copy until then (``last_modified``); one saved in the browser counts within a second."""
    changed = languages.catalogs_changed_at()
    return datetime.fromtimestamp(changed, tz=UTC) if changed is not None else None


@require_GET
@last_modified(catalog_changed)
def javascript_catalog(request: HttpRequest) -> HttpResponse:
    """The strings of static/js/ in the language of the page that asks (``?l=``: the page's own, so the
    browser's copy is kept per language)."""
    if "l" in request.GET:
        languages.use(request, languages.pick(request.GET["l"]))
    return _javascript_catalog(request)


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """Load balancers' probe: the process answers and the database does too (one trivial query)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return JsonResponse({"status": "ok"})


def login_locked_out(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """django-axes' lock-out answer (settings.AXES_LOCKOUT_CALLABLE): the login page again, with a
    sentence instead of "didn't match", and 429 Too Many Requests."""
    minutes = round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    context = {
        "form": AuthenticationForm(request, initial={"username": username}),
        "next": request.POST.get(REDIRECT_FIELD_NAME, ""),
        "locked_out": ngettext(
            "Too many failed logins for this user name or from this address; try again in %(minutes)d minute.",
            "Too many failed logins for this user name or from this address; try again in %(minutes)d minutes.",
            minutes,
        )
        % {"minutes": minutes},
    }
    return render(request, "registration/login.html", context, status=429)
