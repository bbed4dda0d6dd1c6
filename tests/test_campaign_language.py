"""A campaign's language (issue 41): its guests' seat pages and sockets read it before the browser's, its
projector and printed sheets before anyone's; a member's own seat follows the member's device; a language
the site does not offer is refused on the settings, and an archive keeps it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.services import SettingsRefused, campaign_settings_update
from muster import languages
from tabletop.services.projector import projector_issue

from tests.catalogs import write_catalog
from tests.factories import gridaris_table

pytestmark = pytest.mark.django_db
PAGE = "Log out"  # a phrase of every page's top bar, for a signed-in reader; "Catalogs" for staff


@pytest.fixture
def french(locale_dir, world):
    write_catalog(locale_dir, "fr", {"Your turn": "À toi", "Seats": "Places", "Log out": "Se déconnecter"})
    campaign_settings_update(campaign=world.campaign, gm=world.gm.user, language="fr")
    world.campaign.refresh_from_db()
    return world.campaign


def test_the_gm_sets_a_language_the_site_offers_and_no_other(world, french):
    assert french.language == "fr"
    with pytest.raises(SettingsRefused, match="does not speak that language"):
        campaign_settings_update(campaign=world.campaign, gm=world.gm.user, language="es")
    campaign_settings_update(campaign=world.campaign, gm=world.gm.user, language="")
    world.campaign.refresh_from_db()
    assert world.campaign.language == ""


def test_a_guests_seat_reads_the_campaigns_language_a_members_its_own(client, world, french):
    guests = gridaris_table(world.campaign, ["Guest 1", "Guest 2"])
    members = gridaris_table(world.campaign, [world.ann, world.ben], title="Members")
    guest = client.get(reverse("tabletop:seat_table", args=[guests.seats.get(index=0).token]),
                       HTTP_ACCEPT_LANGUAGE="en")
    assert guest.status_code == 200 and guest["Content-Language"] == "fr"
    client.force_login(world.ann.user)
    member = client.get(reverse("tabletop:seat_table", args=[members.seats.get(index=0).token]),
                        HTTP_ACCEPT_LANGUAGE="en")
    assert member.status_code == 200 and member["Content-Language"] == "en-gb"


def test_the_projector_and_the_printed_sheets_take_the_campaigns_language_first(client, world, french):
    table = gridaris_table(world.campaign, [world.ann, world.ben])
    link = projector_issue(table_id=table.pk, replacing="")
    client.cookies["django_language"] = "en-gb"  # the GM's own device reads English
    client.force_login(world.gm.user)
    pages = [
        reverse("tabletop:projector", args=[link.token]),
        reverse("tabletop:gm_seat_sheet", args=[world.campaign.slug, table.pk]),
        reverse("people:invite_sheet", args=[world.campaign.slug]),
        reverse("armies:roster_book_print", args=[world.campaign.slug]),
    ]
    for page in pages:
        response = client.get(page, HTTP_ACCEPT_LANGUAGE="en")
        assert (page, response.status_code, response["Content-Language"]) == (page, 200, "fr")
    gm_page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk]))
    assert gm_page["Content-Language"] == "en-gb"  # the GM's own pages: the GM's language


def test_a_guests_socket_and_a_projectors_read_as_their_pages(world, french):
    scope = {"headers": [(b"accept-language", b"en-US"), (b"cookie", b"django_language=en-gb")]}
    assert languages.of_scope(scope, french.language) == "en-gb"  # a guest's device chose English
    assert languages.of_scope(scope, french.language, campaign_first=True) == "fr"  # the projector
    assert languages.of_scope({"headers": []}, french.language) == "fr"
