"""Every websocket route (the live push, muster/live.py)."""

from channels.routing import URLRouter
from django.urls import re_path

from armies.routing import websocket_urlpatterns as armies_routes
from campaign.routing import websocket_urlpatterns as campaign_routes
from muster.live import UnknownRoute
from tabletop.routing import websocket_urlpatterns as tabletop_routes

websocket_urlpatterns = [*tabletop_routes, *armies_routes, *campaign_routes]

# The routes, and last a refusal for any other path (Channels' router raises on a path none matches).
websocket_router = URLRouter([*websocket_urlpatterns, re_path(r"", UnknownRoute.as_asgi())])
