from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/play/<str:token>/", consumers.SeatConsumer.as_asgi()),
    path("ws/c/<slug:slug>/tables/<int:pk>/", consumers.TableConsumer.as_asgi()),
    path("ws/projector/<str:token>/", consumers.ProjectorConsumer.as_asgi()),
]
