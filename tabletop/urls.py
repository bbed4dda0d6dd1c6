from django.urls import path

from .views import abandon, forks, gm, new, offline, public, seat

app_name = "tabletop"

urlpatterns = [
    path("c/<slug:slug>/tables/new/<str:game>/", new.table_new, name="table_new"),
    path("c/<slug:slug>/tables/<int:pk>/", gm.gm_table, name="gm_table"),
    path("c/<slug:slug>/tables/<int:pk>/poll/", gm.gm_poll, name="gm_poll"),
    path("c/<slug:slug>/tables/<int:pk>/seats/print/", gm.gm_seat_sheet, name="gm_seat_sheet"),
    path("c/<slug:slug>/tables/<int:pk>/act/", gm.gm_act, name="gm_act"),
    path("c/<slug:slug>/tables/<int:pk>/undo/", gm.gm_undo, name="gm_undo"),
    path("c/<slug:slug>/tables/<int:pk>/undo/confirm/", gm.gm_undo_confirm, name="gm_undo_confirm"),
    path("c/<slug:slug>/tables/<int:pk>/log.json", gm.gm_log, name="gm_log"),
    path("c/<slug:slug>/tables/<int:pk>/seats/computer/", gm.gm_seat_bot, name="gm_seat_bot"),
    path("c/<slug:slug>/tables/<int:pk>/coach/", gm.gm_coach, name="gm_coach"),
    path("c/<slug:slug>/tables/<int:pk>/abandon/", abandon.table_abandon, name="table_abandon"),
    path("c/<slug:slug>/tables/<int:pk>/what-if/", forks.table_whatif, name="table_whatif"),
    path("c/<slug:slug>/tables/<int:pk>/what-if/fork/", forks.table_fork, name="table_fork"),
    path("c/<slug:slug>/tables/<int:pk>/public/", public.public_table, name="public_table"),
    path("c/<slug:slug>/tables/<int:pk>/public/poll/", public.public_poll, name="public_poll"),
    path("c/<slug:slug>/tables/<int:pk>/projector/", public.projector_issue, name="projector_issue"),
    path("c/<slug:slug>/tables/<int:pk>/projector/revoke/", public.projector_revoke, name="projector_revoke"),
    path("projector/<str:token>/", public.projector_table, name="projector"),
    path("projector/<str:token>/poll/", public.projector_poll, name="projector_poll"),
    path("play/sw.js", offline.offline_worker, name="offline_worker"),  # scope /play/: the seat pages (issue 38)
    path("play/offline/", offline.offline_page, name="offline_page"),  # before the seat's link, which it would match
    path("play/<str:token>/", seat.seat_table, name="seat_table"),
    path("play/<str:token>/poll/", seat.seat_poll, name="seat_poll"),
    path("play/<str:token>/act/", seat.seat_act, name="seat_act"),
    path("play/<str:token>/log.json", seat.seat_log, name="seat_log"),
    path("play/<str:token>/coach/", seat.seat_coach, name="seat_coach"),
]
