from django.urls import path

from . import views

app_name = "armies"

urlpatterns = [
    path("c/<slug:slug>/armies/", views.army_list, name="list"),
    path("c/<slug:slug>/armies/new/", views.commander_new, name="commander_new"),
    path("c/<slug:slug>/armies/<int:pk>/", views.commander_detail, name="commander"),
    path("c/<slug:slug>/armies/<int:pk>/items/", views.items, name="items"),
    path("c/<slug:slug>/armies/<int:pk>/buy/<int:offer_id>/", views.buy, name="buy"),
    path("c/<slug:slug>/armies/<int:pk>/train/<int:unit_id>/", views.train, name="train"),
    path("c/<slug:slug>/armies/<int:pk>/adjust/", views.adjust, name="adjust"),
    path("c/<slug:slug>/armies/<int:pk>/grant/<int:offer_id>/", views.grant, name="grant"),
    path("c/<slug:slug>/offers/new/", views.offer_new, name="offer_new"),
    path("c/<slug:slug>/battles/new/", views.battle_new, name="battle_new"),
    path("c/<slug:slug>/battles/<int:pk>/", views.battle_result, name="battle_result"),
    path("c/<slug:slug>/day-end/", views.day_end, name="day_end"),
    path("c/<slug:slug>/day-end/<int:run_id>/progress/", views.day_end_progress, name="day_end_progress"),
]
