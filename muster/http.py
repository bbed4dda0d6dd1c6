"""Response helpers shared by the apps."""

from collections.abc import Iterable

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
