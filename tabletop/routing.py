from django.urls import path

from . import live

websocket_urlpatterns = [
    path("ws/play/<str:token>/", live.SeatConsumer.as_asgi()),
    path("ws/c/<slug:slug>/tables/<int:pk>/", live.TableConsumer.as_asgi()),
]
