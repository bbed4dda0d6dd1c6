"""The catalog admin (tabletop/admin/catalog.py, cards.py): import page, export actions and links, permissions."""

import csv
import io
import json

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tabletop.catalog.starter import catalog_load_starter
from tabletop.models import CatalogEntry, GridarisCard, GridarisScenario

from tests.factories import UserFactory

CARDS_CHANGELIST = reverse("admin:tabletop_gridariscard_changelist")
CARDS_IMPORT = reverse("admin:tabletop_gridariscard_import")
SCENARIOS_IMPORT = reverse("admin:tabletop_gridarisscenario_import")
HEADER = "code,name,card_class,tier,stars,top,right,bottom,left,active"
GOOD_CSV = f"{HEADER}\ns01,Renamed Sentry,Cheese People,silver,1,5,A,1,3,true\nn01,Newcomer,Mops,gold,3,9,8,7,6,true\n"


def upload(name: str, text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="application/octet-stream")


def staff_with(*codenames: str):
    user = UserFactory(is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="tabletop", codename__in=codenames))
    return user


@pytest.fixture
def starter(db):
    catalog_load_starter()


# --- import page and permissions -----------------------------------------------------------


@pytest.mark.django_db
def test_staff_with_permission_imports_and_sees_the_counts(client, starter):
    client.force_login(staff_with("view_gridariscard", "add_gridariscard", "change_gridariscard"))
    form_page = client.get(CARDS_IMPORT)
    assert form_page.status_code == 200
    assert ("top", "1–9 or A") in form_page.context["columns"]

    response = client.post(CARDS_IMPORT, {"file": upload("cards.csv", GOOD_CSV)}, follow=True)

    assert response.redirect_chain == [(CARDS_CHANGELIST, 302)]
    shown = [str(message) for message in response.context["messages"]]
    assert shown == ["Imported 2 Gridaris cards (1 new, 1 updated)"]
    assert GridarisCard.objects.count() == 50
    renamed = GridarisCard.objects.get(code="s01")
    assert (renamed.name, renamed.source) == ("Renamed Sentry", CatalogEntry.Source.IMPORTED)


@pytest.mark.django_db
def test_a_bad_file_re_renders_the_form_listing_every_bad_row_and_changes_nothing(admin_client, starter):
    bad = "\n".join([
        HEADER,
        "s01,Renamed,Cheese People,silver,1,5,A,1,3,true",  # valid, but must not be applied
        "s02,X,Mops,silver,1,11,2,3,4,true",
        "s03,Y,Elves,silver,1,1,2,3,4,true",
    ])
    before = list(GridarisCard.objects.order_by("code").values())

    response = admin_client.post(CARDS_IMPORT, {"file": upload("cards.csv", bad)})

    assert response.status_code == 400
    assert response.context["errors"] == [
        "line 3: top must be 1–9 or A, got '11'",
        "line 4: card_class must be Cheese People, Mops, Wizards, Monsters, Voidlings or Business Drones, got 'Elves'",
    ]
    page = response.content.decode()
    assert "Nothing was imported: the file has 2 problems." in page
    assert "line 3: top must be 1–9 or A, got &#x27;11&#x27;" in page
    assert list(GridarisCard.objects.order_by("code").values()) == before


@pytest.mark.django_db
def test_a_malformed_upload_gets_one_clear_error(admin_client):
    response = admin_client.post(CARDS_IMPORT, {"file": SimpleUploadedFile("cards.csv", b"\xff\xfe\x00junk")})
    assert response.status_code == 400
    assert len(response.context["errors"]) == 1
    assert "not UTF-8 text" in response.context["errors"][0]


@pytest.mark.django_db
def test_posting_without_a_file_shows_a_form_error(admin_client):
    response = admin_client.post(CARDS_IMPORT, {})
    assert response.status_code == 400
    assert response.context["form"].errors["file"] == ["This field is required."]


@pytest.mark.django_db
def test_a_non_staff_user_is_sent_to_the_admin_login(client):
    client.force_login(UserFactory(is_staff=False))
    response = client.get(CARDS_IMPORT)
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


@pytest.mark.django_db
@pytest.mark.parametrize("codenames", [("view_gridariscard",), ("view_gridariscard", "add_gridariscard")])
def test_staff_without_change_permission_gets_403_and_no_import_button(client, codenames):
    client.force_login(staff_with(*codenames))

    assert client.get(CARDS_IMPORT).status_code == 403
    assert client.post(CARDS_IMPORT, {"file": upload("cards.csv", GOOD_CSV)}).status_code == 403
    assert not GridarisCard.objects.exists()
    changelist = client.get(CARDS_CHANGELIST)
    assert changelist.status_code == 200
    assert CARDS_IMPORT not in changelist.content.decode()


@pytest.mark.django_db
def test_changelist_offers_import_and_export_and_labels_starter_data(admin_client, starter):
    page = admin_client.get(CARDS_CHANGELIST).content.decode()
    assert CARDS_IMPORT in page
    assert reverse("admin:tabletop_gridariscard_export", args=["csv"]) in page
    assert "starter data designed by the Muster project: they are not the official cards" in page
    assert "Starter · not official" in page
    assert "<code>5 A 1 3</code>" in page  # s01's edges, top right bottom left


@pytest.mark.django_db
def test_editing_a_starter_card_by_hand_relabels_it(admin_client, starter):
    card = GridarisCard.objects.get(code="s01")
    url = reverse("admin:tabletop_gridariscard_change", args=[card.pk])
    unchanged = ("code", "card_class", "tier", "stars", "top", "right", "bottom", "left")
    data = {field: getattr(card, field) for field in unchanged}
    response = admin_client.post(url, {**data, "name": "House Brie", "active": "on"})
    assert response.status_code == 302
    card.refresh_from_db()
    assert (card.name, card.source) == ("House Brie", CatalogEntry.Source.CUSTOM)


# --- export ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_export_selected_as_csv(admin_client, starter):
    chosen = GridarisCard.objects.filter(code__in=["s01", "g01"])
    response = admin_client.post(
        CARDS_CHANGELIST, {"action": "export_selected_csv", "_selected_action": [card.pk for card in chosen]}
    )
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="gridaris-cards.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(row["code"], row["name"], row["top"]) for row in rows] == [("g01", "Grand Camembert", "7"),
                                                                         ("s01", "Brie Sentry", "5")]


@pytest.mark.django_db
def test_export_selected_as_json(admin_client, starter):
    scenario = GridarisScenario.objects.get(key="cascade")
    response = admin_client.post(
        reverse("admin:tabletop_gridarisscenario_changelist"),
        {"action": "export_selected_json", "_selected_action": [scenario.pk]},
    )
    assert response["Content-Type"] == "application/json; charset=utf-8"
    document = json.loads(response.content)
    assert document["catalog"] == "gridaris-scenarios"
    assert document["rows"] == [{"key": "cascade", "name": "Cascade", "text": scenario.text, "active": True}]


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_all_then_import_round_trips_through_the_admin(admin_client, starter, fmt):
    exported = admin_client.get(reverse("admin:tabletop_gridariscard_export", args=[fmt]))
    assert exported.status_code == 200
    before = list(GridarisCard.objects.order_by("code").values_list("code", "name", "top", "stars"))
    GridarisCard.objects.all().delete()

    response = admin_client.post(CARDS_IMPORT, {"file": upload(f"all.{fmt}", exported.content.decode())})

    assert response.status_code == 302
    assert list(GridarisCard.objects.order_by("code").values_list("code", "name", "top", "stars")) == before
    assert len(before) == 49


@pytest.mark.django_db
def test_export_all_in_an_unknown_format_is_404(admin_client):
    assert admin_client.get(reverse("admin:tabletop_gridariscard_export", args=["xlsx"])).status_code == 404


@pytest.mark.django_db
def test_export_needs_view_permission(client, starter):
    client.force_login(staff_with())
    assert client.get(reverse("admin:tabletop_gridariscard_export", args=["csv"])).status_code == 403


# --- starter button --------------------------------------------------------------------------


@pytest.mark.django_db
def test_load_starter_button_loads_the_catalog_once(admin_client):
    url = reverse("admin:tabletop_gridarisscenario_load_starter")
    assert admin_client.get(url).status_code == 405
    admin_client.post(url)
    response = admin_client.post(url, follow=True)
    assert GridarisCard.objects.count() == 49 and GridarisScenario.objects.count() == 12
    assert "Gridaris cards: 0 created, 0 updated, 49 unchanged." in str(list(response.context["messages"])[-1])


@pytest.mark.django_db
def test_load_starter_needs_change_permission(client):
    client.force_login(staff_with("view_gridarisscenario"))
    assert client.post(reverse("admin:tabletop_gridarisscenario_load_starter")).status_code == 403
    assert not GridarisCard.objects.exists()


# --- tables ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_table_and_action_admin_pages_render_read_only(admin_client, table):
    page = admin_client.get(reverse("admin:tabletop_table_change", args=[table.pk]))
    assert page.status_code == 200
    assert table.title in page.content.decode()
    assert table.seats.first().token not in page.content.decode()
    assert admin_client.get(reverse("admin:tabletop_table_add")).status_code == 403
    assert admin_client.get(reverse("admin:tabletop_tableaction_changelist")).status_code == 200
