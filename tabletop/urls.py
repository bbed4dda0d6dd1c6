from django.urls import path

from . import abandon_views, fork_views, views

app_name = "tabletop"

urlpatterns = [
    path("c/<slug:slug>/tables/new/<str:game>/", views.table_new, name="table_new"),
    path("c/<slug:slug>/tables/<int:pk>/", views.gm_table, name="gm_table"),
    path("c/<slug:slug>/tables/<int:pk>/poll/", views.gm_poll, name="gm_poll"),
    path("c/<slug:slug>/tables/<int:pk>/act/", views.gm_act, name="gm_act"),
    path("c/<slug:slug>/tables/<int:pk>/undo/", views.gm_undo, name="gm_undo"),
    path("c/<slug:slug>/tables/<int:pk>/log.json", views.gm_log, name="gm_log"),
    path("c/<slug:slug>/tables/<int:pk>/seats/computer/", views.gm_seat_bot, name="gm_seat_bot"),
    path("c/<slug:slug>/tables/<int:pk>/abandon/", abandon_views.table_abandon, name="table_abandon"),
    path("c/<slug:slug>/tables/<int:pk>/what-if/", fork_views.table_whatif, name="table_whatif"),
    path("c/<slug:slug>/tables/<int:pk>/what-if/fork/", fork_views.table_fork, name="table_fork"),
    path("c/<slug:slug>/tables/<int:pk>/public/", views.public_table, name="public_table"),
    path("c/<slug:slug>/tables/<int:pk>/public/poll/", views.public_poll, name="public_poll"),
    path("play/<str:token>/", views.seat_table, name="seat_table"),
    path("play/<str:token>/poll/", views.seat_poll, name="seat_poll"),
    path("play/<str:token>/act/", views.seat_act, name="seat_act"),
    path("play/<str:token>/log.json", views.seat_log, name="seat_log"),
]
