"""The ASGI application: Django's pages over HTTP and the live push over websockets
(muster/live.py). Served by uvicorn (scripts/serve.py for ``make run``; docs/operations.md)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
os.environ.setdefault("MUSTER_ASGI", "1")

from django.core.asgi import get_asgi_application  # noqa: E402

http_application = get_asgi_application()  # sets Django up before the routes import models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from muster.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": http_application,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
