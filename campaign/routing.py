from django.urls import path

from . import live

websocket_urlpatterns = [
    path("ws/c/<slug:slug>/home/", live.HomeConsumer.as_asgi()),
]
