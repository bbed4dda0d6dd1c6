"""Response helpers shared by the apps."""

from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest
from django.urls import URLPattern
from django.views.decorators.cache import cache_control

# A page that shows a member's money, roster or hand: no proxy or shared cache may keep it (it
# would hand one member's page to the next person who asks), nor the browser on disk.
private_page = cache_control(private=True, no_store=True)


def private_pages(urlpatterns: Iterable[URLPattern]) -> list[URLPattern]:
    """``urlpatterns`` with every view wrapped in ``private_page``: an app whose every page belongs
    to a member says so once, in its urls.py, and a view added later is covered too."""
    return [
        URLPattern(pattern.pattern, private_page(pattern.callback), pattern.default_args, pattern.name)
        for pattern in urlpatterns
    ]


def venue_url(request: HttpRequest, path: str) -> str:
    """``path`` as a full address phones at the venue can open: on settings.PUBLIC_BASE_URL (which
    ``make run`` sets to the venue address) even when the GM browses via localhost; else on the host
    the request came to. Seat links, invite links and their QR codes all use it."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path
    return request.build_absolute_uri(path)
