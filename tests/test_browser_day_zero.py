"""Day zero in the browser, from an empty database to a battle's result, through the pages only.

Nobody exists yet: the first GM makes the instance's first account on a tablet (ruling AC1), starts a
campaign and follows its "First steps": two player invites (each QR code checked against its link),
two players who sign up on 360 px phones through them, their commanders, the starter units (ruling
AC2: the catalog of a fresh instance is empty), an offer, an NPC for the computer to play, a recruit
from a phone, and a battle of a player's commander against the NPC, played to its end by the player on
the phone and by the computer. No page ever asks for /admin/; the ORM only reads, to assert and to
know which button the player should press next.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
import segno
from django.contrib.auth import get_user_model

from armies.models import ArmyUnit, Battle, Commander
from campaign import first_steps
from campaign.models import Campaign, Membership
from tabletop.computer import pool
from tabletop.engines import army
from tabletop.engines.kernel import GM
from tabletop.models import Table, TableAction

from tests.browser import (
    PHONE_360,
    TABLET,
    choose_battle_sides,
    chromium,
    fill_account,
    starter_units_and_an_offer,
    wait_for_version,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "lantern-quarry-91"
PLAYERS = (("cora", "Cora the Brave"), ("dan", "Dan of the Fens"))
MAX_DECISIONS = 60  # a one-unit battle takes a handful; this only stops a loop that would never end


def sign_up(page, username: str, display_name: str, button: str) -> None:
    fill_account(page, username, display_name, PASSWORD, button)


def watched(context, requests: list[str]):
    """A page of ``context`` whose every request URL is recorded."""
    context.on("request", lambda request: requests.append(request.url))
    return context.new_page()


def create_commander(gm, url: str, *, name: str, runner: str, kind: str, role: str, path: str, balance: int) -> None:
    gm.goto(url)
    gm.fill("input[name=name]", name)
    gm.select_option("select[name=membership]", label=runner)
    gm.select_option("select[name=kind]", kind)
    gm.select_option("select[name=role]", role)
    gm.select_option("select[name=path]", path)
    gm.fill("input[name=opening_balance]", str(balance))
    gm.click("button:has-text('Create the commander')")
    gm.wait_for_selector(f"h1:has-text('{name}')")


def recruit(page, commander: str, unit: str) -> None:
    """Press the Recruit button of ``unit`` on ``commander``'s page (already open)."""
    page.locator("li", has_text=unit).get_by_role("button", name="Recruit for").click()
    page.wait_for_selector(f"text={unit} joined {commander}'s army")


def play_the_battle(table: Table, phone, gm) -> None:
    """Until the battle ends: the player's decisions on the phone, the GM's (if any) on the tablet; the
    computer's seat moves by itself meanwhile (its decisions are waited for, never made here)."""
    for _ in range(MAX_DECISIONS):
        table.refresh_from_db()
        if table.status != Table.Status.ACTIVE:
            return
        choices = army.view(table.state, GM)["choices"]
        mine = [c for c in choices if c["seat"] == 0]
        gms = [c for c in choices if c["seat"] == GM]
        device, pick = (phone, mine) if mine else (gm, gms)
        if not pick:  # the computer's turn: wait for its move to reach the phone
            wait_for_version_above(phone, table.version)
            continue
        choice = next((c for c in pick if c["type"] == "choose_first" and c["first"] == 0), pick[0])
        wait_for_version(device, table.version)
        if choice["type"] == "play":  # a card of the hand is the button, its label the title
            button = device.get_by_title(choice["label"], exact=True)
        else:
            button = device.get_by_role("button", name=choice["label"], exact=True)
        button.first.click()
        wait_for_version_above(device, table.version)
    raise AssertionError(f"the battle did not end within {MAX_DECISIONS} decisions")


def wait_for_version_above(page, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('#live').dataset.version) > v", arg=version, timeout=60_000
    )


def test_day_zero_from_an_empty_database_to_a_battle_result(live_server, settings):
    settings.BOT_BUDGET = {"iterations": 8}
    assert settings.SIGNUP == "invite" and settings.CAMPAIGN_CREATORS == "everyone"
    User = get_user_model()
    assert not User.objects.exists()
    url = live_server.url
    requests: list[str] = []
    with chromium() as browser:
        # --- the first account, on the GM's tablet -----------------------------------------------------
        gm = watched(browser.new_context(**TABLET), requests)
        gm.goto(f"{url}/")
        gm.wait_for_url(f"{url}/accounts/login/**")
        gm.click("text=No account on this Muster yet: create the first one")
        gm.wait_for_url(f"{url}/signup/")
        sign_up(gm, "greta", "Greta", "Sign up")
        gm.wait_for_url(f"{url}/")
        assert "Start a campaign with New campaign" in gm.content()

        # --- a campaign, and its first steps --------------------------------------------------------------
        gm.click("a:has-text('New campaign')")
        gm.fill("input[name=name]", "The Ashen March")
        gm.fill("input[name=time_zone]", "Europe/Berlin")
        gm.click("button:has-text('Start the campaign')")
        gm.wait_for_selector("h1:has-text('The Ashen March')")
        campaign = Campaign.objects.get()
        assert campaign.time_zone == "Europe/Berlin"
        home = f"{url}/c/{campaign.slug}/"
        assert gm.url == home
        steps = gm.locator("#first-steps + ol li")
        assert steps.count() == len(first_steps.steps_for(campaign)) >= 4
        assert "done" not in gm.locator(".first-steps").inner_text()

        # --- two player invites, each QR code the link shown ------------------------------------------
        gm.click(".first-steps a:has-text('Invite players')")
        gm.wait_for_selector("h1:has-text('Invites')")
        for _ in PLAYERS:
            with gm.expect_navigation():
                gm.click("button:has-text('Make the invite')")
            gm.wait_for_selector("text=The invite is ready")
        cards = gm.locator(".invite-card")
        assert cards.count() == 2
        links = []
        for n in range(2):
            card = cards.nth(n)
            link = card.locator(".invite-card-url a").get_attribute("href")
            assert urlsplit(link).path.startswith("/join/") and link.startswith(url)
            # No QR decoder is installed here: the image must be exactly the encoding of the link shown.
            qr = card.locator("img.invite-qr").get_attribute("src")
            assert qr == segno.make(link, error="m").svg_data_uri(scale=4)
            links.append(link)
        assert len(set(links)) == 2

        # --- the players open their links on 360 px phones, sign up and join ------------------------------
        phones = {}
        for (username, name), link in zip(PLAYERS, links, strict=True):
            phone = watched(browser.new_context(**PHONE_360), requests)
            phone.goto(link)
            assert phone.locator("h1").inner_text() == "Join The Ashen March"
            sign_up(phone, username, name, "Sign up and join")
            phone.wait_for_url(home)
            phones[username] = phone
        assert set(Membership.objects.filter(role=Membership.Role.PLAYER).values_list("user__username", flat=True)) == {
            "cora", "dan"
        }

        # --- commanders for both players, and an NPC for the computer ----------------------------------
        gm.goto(home)
        new_commander = gm.locator(".first-steps a:has-text('Create commanders')").get_attribute("href")
        create_commander(gm, url + new_commander, name="Lady Vey", runner="Cora the Brave (Player)", kind="pc",
                         role="aggressor", path="steel", balance=30)
        create_commander(gm, url + new_commander, name="Sir Marr", runner="Dan of the Fens (Player)", kind="pc",
                         role="guardian", path="faith", balance=30)
        create_commander(gm, url + new_commander, name="The Grey Warden", runner="Greta (Game master)", kind="npc",
                         role="guardian", path="steel", balance=30)
        vey, warden = Commander.objects.get(name="Lady Vey"), Commander.objects.get(name="The Grey Warden")
        assert (vey.membership.user.username, vey.kind) == ("cora", "pc") and warden.kind == "npc"

        # --- the starter units (an empty catalog, AC2) and an offer ---------------------------------------
        gm.goto(home)
        gm.click(".first-steps a:has-text('Publish offers')")
        gm.click("a:has-text('armies page')")
        starter_units_and_an_offer(gm, "Wolf Pack", price=10, quantity=2)

        # the GM recruits for the NPC on its page; Cora recruits for Lady Vey on her phone
        gm.click("a:has-text('The Grey Warden')")
        recruit(gm, "The Grey Warden", "Wolf Pack")
        cora = phones["cora"]
        cora.reload()
        cora.click("a:has-text('Lady Vey')")
        cora.wait_for_selector("h1:has-text('Lady Vey')")
        recruit(cora, "Lady Vey", "Wolf Pack")
        assert ArmyUnit.objects.filter(commander__in=[vey, warden], card__code="wolf_pack").count() == 2

        # --- the battle: Lady Vey attacks the Grey Warden, whom the computer plays ---------------------
        gm.goto(home)
        gm.click("a:has-text('Armies and day end')")
        gm.click("text=Open a battle")
        gm.wait_for_url(f"{url}/c/{campaign.slug}/battles/new/")
        choose_battle_sides(gm, "Lady Vey (Player character)", "The Grey Warden (Non-player character)",
                            "The Grey Warden")
        assert gm.locator("input[name=attacker_units]:checked").count() == 1
        assert gm.locator("input[name=defender_units]:checked").count() == 1
        gm.select_option("select[name=defender_plays]", "quick")
        gm.click("button:has-text('Open the battle')")
        gm.wait_for_selector("#live")
        battle = Battle.objects.get()
        table = battle.table
        assert table.seats.get(index=1).bot == "quick"

        cora.reload()
        cora.click("a:has-text('Take your seat')")
        cora.wait_for_selector("#live")
        play_the_battle(table, cora, gm)

        # --- the result -----------------------------------------------------------------------------------
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED
        battle.refresh_from_db()
        assert battle.ended_at is not None
        moves = list(TableAction.objects.filter(table=table).values_list("seat", "user__username"))
        assert ("0", "cora") in moves  # Cora decided on her phone
        assert ("1", None) in moves and all(user is None for seat, user in moves if seat == "1")  # the computer
        gm.goto(home)
        gm.click("a:has-text('Armies and day end')")
        gm.locator("#battles").get_by_role("link", name="result", exact=True).click()
        gm.wait_for_url(f"{url}/c/{campaign.slug}/battles/{battle.pk}/")
        assert "Lady Vey" in gm.content() and "The Grey Warden" in gm.content()

        # --- every first step done, so the list is gone -----------------------------------------------
        gm.goto(home)
        gm.wait_for_selector("h1:has-text('The Ashen March')")
        assert gm.locator("#first-steps").count() == 0
    assert all(step.done for step in first_steps.steps_for(campaign))
    assert pool.wait_idle(60)
    assert requests and not [r for r in requests if urlsplit(r).path.startswith("/admin")]
    greta = User.objects.get(username="greta")
    assert not (greta.is_staff or greta.is_superuser)
    assert not User.objects.filter(is_staff=True).exists()
