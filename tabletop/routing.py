from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/play/<str:token>/", consumers.SeatConsumer.as_asgi()),
    path("ws/c/<slug:slug>/tables/<int:pk>/", consumers.PublicConsumer.as_asgi()),
    path("ws/c/<slug:slug>/tables/<int:pk>/gm/", consumers.GMConsumer.as_asgi()),
    path("ws/projector/<str:token>/", consumers.ProjectorConsumer.as_asgi()),
]
