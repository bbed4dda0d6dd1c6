from django.urls import path

from . import live

websocket_urlpatterns = [
    path("ws/c/<slug:slug>/day-end/<int:pk>/", live.DayEndConsumer.as_asgi()),
]
