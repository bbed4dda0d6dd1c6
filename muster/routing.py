"""Every websocket route (the live push, muster/live.py)."""

from armies.routing import websocket_urlpatterns as armies_routes
from tabletop.routing import websocket_urlpatterns as tabletop_routes

websocket_urlpatterns = [*tabletop_routes, *armies_routes]
