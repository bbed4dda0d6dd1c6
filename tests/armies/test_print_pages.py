"""The pages to print (issue 24): a commander's roster sheet (the GM and the commander's player) and the
GM's roster book (every commander in service, one a page). Who may open them, what they show, their
private caching, and a fixed number of queries whatever the roster. The paper itself (one page, nothing
off the page): tests/armies/test_browser_print.py."""

import pytest
from django.urls import reverse

from armies.models import Commander
from campaign.models import Membership

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def sheet_url(world, commander):
    return reverse("armies:roster_print", args=[world.campaign.slug, commander.pk])


def book_url(world):
    return reverse("armies:roster_book_print", args=[world.campaign.slug])


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", balance=37)


def test_the_roster_sheet_shows_every_unit_with_its_numbers_the_balance_and_the_day(client, world, vey):
    world.campaign.current_day = 4
    world.campaign.save()
    ritual = UnitCardFactory(name="Rite of Ash", strength=None, role="ritual", path="faith", upkeep=0)
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Iron Pikes", strength=4, upkeep=2), trained_on=3)
    ArmyUnitFactory(commander=vey, card=ritual)
    gone = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Deserters"))
    gone.status = "deserted"
    gone.save()
    client.force_login(world.ann.user)
    response = client.get(sheet_url(world, vey))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    html = response.content.decode()
    assert "Lady Vey" in html and "day 4" in html and "37 coins" in html
    assert "Iron Pikes" in html and "Rite of Ash" in html and "Deserters" not in html
    assert '<td class="num">5</td>' in html  # Strength 4, +1 trained
    assert "<td>day 3</td>" in html and "Aggressor" in html and "Ritual" in html and "Faith" in html
    assert "2 coins a day" in html  # the upkeep if every unit is used
    assert reverse("armies:commander", args=[world.campaign.slug, vey.pk]) in html


def test_the_commander_page_links_to_its_sheet_and_the_gm_page_to_the_book(client, world, vey):
    commander_page = reverse("armies:commander", args=[world.campaign.slug, vey.pk])
    armies_page = reverse("armies:list", args=[world.campaign.slug])
    client.force_login(world.ann.user)
    assert sheet_url(world, vey) in client.get(commander_page).content.decode()
    assert book_url(world) not in client.get(armies_page).content.decode()
    client.force_login(world.gm.user)
    assert book_url(world) in client.get(armies_page).content.decode()


def test_the_book_holds_every_commander_in_service_each_a_sheet_of_their_own(client, world, vey):
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", balance=5)
    CommanderFactory(membership=world.gm, name="The Bandit King", kind=Commander.Kind.NPC)
    old = CommanderFactory(membership=world.gm, name="Old Tom", kind=Commander.Kind.NPC)
    old.retired_day = 1
    old.save()
    ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Vey Guard"))
    ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Marr Bowmen"))
    CommanderFactory(membership=MembershipFactory(campaign=CampaignFactory(slug="elsewhere")), name="Stranger")
    client.force_login(world.gm.user)
    response = client.get(book_url(world))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    html = response.content.decode()
    assert html.count('class="print-sheet roster-sheet"') == 3
    assert "Old Tom" not in html and "Stranger" not in html
    # by name, each with its own units
    assert html.index("Lady Vey") < html.index("Lord Marr") < html.index("The Bandit King")
    assert html.index("Vey Guard") < html.index("Lord Marr") < html.index("Marr Bowmen")


def test_who_may_open_the_pages(client, world, vey):
    """Anonymous: the login page; the other player and a stranger: 404 for the sheet (as the commander's
    page); players: 403 for the book; the GM of another campaign: 404 for both."""
    assert client.get(sheet_url(world, vey)).status_code == 302
    client.force_login(world.ben.user)
    assert client.get(sheet_url(world, vey)).status_code == 404
    assert client.get(book_url(world)).status_code == 403
    other = MembershipFactory(campaign=CampaignFactory(slug="elsewhere"), role=Membership.Role.GM)
    CommanderFactory(membership=other, name="Their Own")
    client.force_login(other.user)
    assert client.get(sheet_url(world, vey)).status_code == 404
    assert client.get(book_url(world)).status_code == 404
    # their own campaign's address with this campaign's commander: not found either
    assert client.get(reverse("armies:roster_print", args=["elsewhere", vey.pk])).status_code == 404
    assert client.get(reverse("armies:roster_book_print", args=["elsewhere"])).status_code == 200


def test_the_pages_use_a_fixed_number_of_queries(client, world, vey, django_assert_max_num_queries):
    marr = CommanderFactory(membership=world.ben, name="Lord Marr")
    for commander in (vey, marr):
        ArmyUnitFactory(commander=commander, trained_on=1)
    client.force_login(world.gm.user)
    with django_assert_max_num_queries(10) as sheet:
        response = client.get(sheet_url(world, vey))
    assert response.status_code == 200 and "Lady Vey" in response.content.decode()
    with django_assert_max_num_queries(10) as book:
        response = client.get(book_url(world))
    assert response.status_code == 200 and "Lord Marr" in response.content.decode()
    for n in range(20):
        ArmyUnitFactory(commander=vey, trained_on=1 if n % 2 else None)
    for n in range(5):
        ArmyUnitFactory(commander=CommanderFactory(membership=world.gm, kind=Commander.Kind.NPC, name=f"NPC {n}"))
    with django_assert_max_num_queries(len(sheet.captured_queries)):
        response = client.get(sheet_url(world, vey))
    assert response.status_code == 200 and response.content.decode().count("<tr><td>") == 21
    with django_assert_max_num_queries(len(book.captured_queries)):
        response = client.get(book_url(world))
    assert response.status_code == 200 and response.content.decode().count('class="print-sheet roster-sheet"') == 7
