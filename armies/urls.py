from django.urls import path

from muster.http import private_pages

from .views import battles, commanders, day_end, day_end_revert, edits, sheets, treasury

app_name = "armies"

urlpatterns = [
    path("c/<slug:slug>/armies/", commanders.army_list, name="list"),
    path("c/<slug:slug>/armies/new/", commanders.commander_new, name="commander_new"),
    path("c/<slug:slug>/armies/<int:pk>/", commanders.commander_detail, name="commander"),
    path("c/<slug:slug>/armies/<int:pk>/items/", commanders.items, name="items"),
    path("c/<slug:slug>/armies/<int:pk>/print/", sheets.roster_sheet, name="roster_print"),
    path("c/<slug:slug>/armies/print/", sheets.roster_book, name="roster_book_print"),
    path("c/<slug:slug>/armies/<int:pk>/ledger.csv", treasury.commander_ledger_csv, name="commander_ledger_csv"),
    path("c/<slug:slug>/treasury/", treasury.treasury, name="treasury"),
    path("c/<slug:slug>/treasury/ledger.csv", treasury.ledger_csv, name="ledger_csv"),
    path("c/<slug:slug>/armies/<int:pk>/buy/<int:offer_id>/", commanders.buy, name="buy"),
    path("c/<slug:slug>/armies/<int:pk>/train/<int:unit_id>/", commanders.train, name="train"),
    path("c/<slug:slug>/armies/<int:pk>/adjust/", commanders.adjust, name="adjust"),
    path("c/<slug:slug>/armies/<int:pk>/grant/<int:offer_id>/", commanders.grant, name="grant"),
    path("c/<slug:slug>/offers/new/", commanders.offer_new, name="offer_new"),
    path("c/<slug:slug>/offers/starter-units/", commanders.unit_catalog_start_view, name="unit_catalog_start"),
    path("c/<slug:slug>/armies/<int:pk>/edit/", edits.commander_edit, name="commander_edit"),
    path("c/<slug:slug>/armies/<int:pk>/retire/", edits.commander_retire_view, name="commander_retire"),
    path("c/<slug:slug>/armies/<int:pk>/return/", edits.commander_return_view, name="commander_return"),
    path("c/<slug:slug>/armies/<int:pk>/units/<int:unit_id>/remove/", edits.unit_remove, name="unit_remove"),
    path("c/<slug:slug>/armies/<int:pk>/units/<int:unit_id>/training/", edits.unit_training, name="unit_training"),
    path("c/<slug:slug>/offers/", edits.offer_list, name="offer_list"),
    path("c/<slug:slug>/offers/<int:offer_id>/edit/", edits.offer_edit, name="offer_edit"),
    path("c/<slug:slug>/offers/<int:offer_id>/withdraw/", edits.offer_withdraw, name="offer_withdraw"),
    path("c/<slug:slug>/offers/<int:offer_id>/restore/", edits.offer_restore, name="offer_restore"),
    path("c/<slug:slug>/battles/new/", battles.battle_new, name="battle_new"),
    path("c/<slug:slug>/battles/<int:pk>/", battles.battle_result, name="battle_result"),
    path("c/<slug:slug>/day-end/", day_end.day_end, name="day_end"),
    path("c/<slug:slug>/day-end/revert/", day_end_revert.day_end_revert_view, name="day_end_revert"),
    path("c/<slug:slug>/day-end/<int:run_id>/progress/", day_end.day_end_progress, name="day_end_progress"),
]

# Every page here shows a member's campaign, money or roster: Cache-Control: private, no-store.
urlpatterns = private_pages(urlpatterns)
