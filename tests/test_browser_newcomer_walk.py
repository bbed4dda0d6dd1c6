"""A newcomer GM's whole walk (issue 35), in Chromium against two fresh ``make run DEMO=0`` instances.

On the first: the owner's link from the terminal makes the GM's account; a campaign, an invite, a player who
signs up through it on a 360 px phone, a commander for the player and an NPC, the starter units and an offer;
a GOT'M table of the player and a computer where the GM switches the coach off and on and hands the player's
seat to the computer and back; a battle of the player's commander against the NPC (the computer's), abandoned
with its result kept; the day's end; and the archive downloaded. On the second: its own owner's link makes an
account, which imports the archive; the player claims their place through the claim invite on a phone and
sees their table and their commander. Pages only (click, fill); the server's database is read only to wait
for the computer and to assert.
"""

from __future__ import annotations

import re

import pytest

from tests.browser import PHONE_360, TABLET, choose_battle_sides, chromium, fill_account, starter_units_and_an_offer
from tests.venue_server import GM_HOST, VENUE_HOST, VenueServer

pytestmark = [pytest.mark.venue, pytest.mark.browser]

PASSWORD = "lantern-quarry-91"
CAMPAIGN = "The Ashen March"
PLAYER = ("cora", "Cora the Brave")
PC, NPC = "Lady Vey", "The Grey Warden"
SIDE_TABLE = "Booty Bay duel"
STALE_TRIES = 10  # a stale form (the computer moved meanwhile) is refused with the fresh table: send it again
TIMEOUT = 60_000


def sign_up(page, username: str, display_name: str, button: str) -> None:
    fill_account(page, username, display_name, PASSWORD, button)


def owner_account(browser, server: VenueServer, username: str, name: str):
    """The person at the laptop opens the owner's link from the terminal and makes their account."""
    local = f"http://{GM_HOST}:{server.port}"
    gm = browser.new_context(**TABLET).new_page()
    gm.set_default_timeout(TIMEOUT)
    gm.goto(server.owner_link(GM_HOST))
    assert gm.locator("h1").inner_text() == "Your own account"
    sign_up(gm, username, name, "Make my account")
    gm.wait_for_url(f"{local}/")
    return gm


def phone_page(browser):
    page = browser.new_context(**PHONE_360).new_page()
    page.set_default_timeout(TIMEOUT)
    return page


def create_commander(gm, url: str, *, name: str, runner: str, kind: str) -> None:
    gm.goto(url)
    gm.fill("input[name=name]", name)
    gm.select_option("select[name=membership]", label=runner)
    gm.select_option("select[name=kind]", kind)
    gm.select_option("select[name=role]", "aggressor" if kind == "pc" else "guardian")
    gm.select_option("select[name=path]", "steel")
    gm.fill("input[name=opening_balance]", "30")
    gm.click("button:has-text('Create the commander')")
    gm.wait_for_selector(f"h1:has-text('{name}')")


def recruit(gm, armies: str, commander: str, unit: str) -> None:
    gm.goto(armies)
    gm.click(f"a:has-text('{commander}')")
    gm.wait_for_selector(f"h1:has-text('{commander}')")
    gm.locator("li", has_text=unit).get_by_role("button", name="Recruit for").click()
    gm.wait_for_selector(f"text={unit} joined {commander}'s army")


def set_seat(gm, seat: int, bot: str) -> None:
    """The GM hands ``seat`` to the computer (``bot``) or to a person (""), and sees it done."""
    for _ in range(STALE_TRIES):
        gm.select_option(f"#seat-bot-{seat}", bot)
        with gm.expect_response(lambda response: response.url.endswith("/seats/computer/")):
            gm.click(f"form:has(#seat-bot-{seat}) button:has-text('Set')")
        gm.wait_for_function("() => !document.querySelector('.htmx-request')")  # the answer is swapped in
        if gm.locator(f"#seat-bot-{seat}").input_value() == bot:
            return
    raise AssertionError(f"seat {seat} did not go to {bot or 'a person'} in {STALE_TRIES} tries")


def first_instance(browser, server: VenueServer, tmp_path) -> str:
    """The walk on the first instance, up to the downloaded archive; its path."""
    local = f"http://{GM_HOST}:{server.port}"
    gm = owner_account(browser, server, "greta", "Greta")
    assert "New campaign" in gm.content()

    # --- a campaign, an invite, a player on a 360 px phone ---------------------------------------------------
    gm.click("a:has-text('New campaign')")
    gm.fill("input[name=name]", CAMPAIGN)
    gm.fill("input[name=time_zone]", "Europe/Berlin")
    gm.click("button:has-text('Start the campaign')")
    gm.wait_for_selector(f"h1:has-text('{CAMPAIGN}')")
    home = gm.url
    slug = home.rstrip("/").rsplit("/", 1)[-1]
    gm.click("nav.gm-links a:has-text('Invites')")
    gm.wait_for_selector("h1:has-text('Invites')")
    with gm.expect_navigation():
        gm.click("button:has-text('Make the invite')")
    gm.wait_for_selector("text=The invite is ready")
    link = gm.locator(".invite-card .invite-card-url a").first.get_attribute("href")
    assert link.startswith(f"http://{VENUE_HOST}:{server.port}/join/")  # the address phones open
    phone = phone_page(browser)
    phone.goto(link)
    assert phone.locator("h1").inner_text() == f"Join {CAMPAIGN}"
    sign_up(phone, *PLAYER, "Sign up and join")
    phone.wait_for_url(f"http://{VENUE_HOST}:{server.port}/c/{slug}/")

    # --- commanders, the starter units, an offer, a unit each ---------------------------------------------------
    gm.goto(home)
    new_commander = local + gm.locator(".first-steps a:has-text('Create commanders')").get_attribute("href")
    create_commander(gm, new_commander, name=PC, runner=f"{PLAYER[1]} (Player)", kind="pc")
    create_commander(gm, new_commander, name=NPC, runner="Greta (Game master)", kind="npc")
    gm.goto(home)
    gm.click("a:has-text('Armies and day end')")
    starter_units_and_an_offer(gm, "Wolf Pack", price=10, quantity=2)
    armies = f"{local}/c/{slug}/armies/"
    recruit(gm, armies, NPC, "Wolf Pack")
    recruit(gm, armies, PC, "Wolf Pack")

    # --- a side event: GOT'M, the player against the computer; the coach off and on; the seat handed over and back
    gm.goto(home)
    gm.click(f"a[href='/c/{slug}/tables/new/gotm/']")
    gm.fill("input[name=title]", SIDE_TABLE)
    gm.get_by_label(f"{PLAYER[1]} (Player)").check()
    gm.fill("input[name=computers]", "1")
    gm.select_option("select[name=computer_strength]", "quick")
    gm.click("button:has-text('Open the table')")
    gm.wait_for_selector("#live")
    side_table = gm.url
    for switch, then in (("#coach-off", "#coach-on"), ("#coach-on", "#coach-off")):
        gm.click(switch)
        gm.wait_for_selector(then)
    if not gm.locator("#seat-bot-0").is_visible():
        gm.click("summary:has-text('Who plays each seat')")
    set_seat(gm, 0, "quick")
    set_seat(gm, 0, "")
    phone.goto(f"http://{VENUE_HOST}:{server.port}/c/{slug}/")
    phone.get_by_role("link", name=SIDE_TABLE).click()
    phone.wait_for_selector("#live")

    # --- a battle: Lady Vey attacks the Grey Warden, whom the computer plays; abandoned, its result kept --------
    gm.goto(home)
    gm.click("a:has-text('Armies and day end')")
    gm.click("text=Open a battle")
    gm.wait_for_url(f"{local}/c/{slug}/battles/new/")
    choose_battle_sides(gm, f"{PC} (Player character)", f"{NPC} (Non-player character)", NPC)
    gm.select_option("select[name=defender_plays]", "quick")
    gm.click("button:has-text('Open the battle')")
    gm.wait_for_selector("#live")
    gm.click("#abandon")
    gm.check("input[name=outcome][value=keep]")
    gm.fill("textarea[name=reason]", "Rain stopped play.")
    for _ in range(STALE_TRIES):  # the computer moved meanwhile: the fresh form, the reason kept; confirm again
        with gm.expect_navigation():
            gm.click("#abandon-confirm")
        if not gm.locator("#abandon-confirm").count():
            break
        assert gm.locator("input[name=outcome][value=keep]").is_checked()
    gm.wait_for_selector("text=Abandoned by Greta on day 1: Rain stopped play.")
    [(status,)] = server.query("SELECT status FROM tabletop_table WHERE game = 'army'")
    assert status == "abandoned"

    # --- the day's end ------------------------------------------------------------------------------------------
    gm.goto(home)
    gm.click("a:has-text('Armies and day end')")
    gm.click("button:has-text('End day 1')")
    gm.click("button:has-text('Yes, end day 1')")
    gm.wait_for_url(f"{local}/c/{slug}/armies/")
    assert server.query("SELECT current_day FROM campaign_campaign") == [(2,)]
    gm.goto(side_table)  # the side table is still the player's, and still played
    assert gm.locator("#seat-bot-0").input_value() == ""

    # --- the archive ----------------------------------------------------------------------------------------------
    gm.goto(home)
    gm.click("nav.gm-links a:has-text('Archive')")
    with gm.expect_download() as download:
        gm.click("button:has-text('Download the archive')")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    return str(path)


def second_instance(browser, server: VenueServer, archive: str) -> None:
    """An empty instance: its owner imports the archive; the player claims their place on a phone."""
    gm = owner_account(browser, server, "hugo", "Hugo")
    gm.click("a:has-text('Import a campaign')")
    gm.set_input_files("input[name=archive]", archive)
    gm.click("button:has-text('Import')")
    gm.wait_for_selector("#import-job .msg.success", timeout=120_000)
    job = gm.locator("#import-job").inner_text()
    assert f"{CAMPAIGN} is imported: you are its GM." in job
    gm.click("#import-job a:has-text('Invites')")
    gm.wait_for_selector("h1:has-text('Invites')")
    claim = gm.locator(".invite-line", has_text=f"Claim: {PLAYER[1]} ({PLAYER[0]})")
    claim.locator("summary:has-text('Link and QR code')").click()
    link = claim.locator(".invite-card-url a").get_attribute("href")
    assert link.startswith(f"http://{VENUE_HOST}:{server.port}/join/")

    phone = phone_page(browser)
    phone.goto(link)
    assert phone.locator("h1").inner_text() == f"Join {CAMPAIGN}"
    assert f"You take back the place of {PLAYER[1]} ({PLAYER[0]})" in phone.locator("section.card").inner_text()
    sign_up(phone, *PLAYER, "Sign up and join")
    phone.wait_for_selector(f"text=Welcome to {CAMPAIGN}, {PLAYER[1]}.")  # on their commander's page
    assert phone.locator("h1").inner_text() == PC
    phone.get_by_role("link", name=CAMPAIGN).first.click()
    phone.wait_for_url(re.compile(rf"http://{re.escape(VENUE_HOST)}:{server.port}/c/[^/]+/$"))
    phone.wait_for_selector("h2:has-text('Your tables')")
    tables = phone.locator("section.card", has=phone.locator("h2:has-text('Your tables')")).inner_text()
    assert "You have no seat at a table yet" not in tables
    assert phone.get_by_role("link", name=SIDE_TABLE).count() == 1
    assert PC in phone.locator("main").inner_text()
    phone.get_by_role("link", name=SIDE_TABLE).click()
    phone.wait_for_selector("#live")


def test_a_newcomer_gm_walks_from_make_run_to_an_archive_another_muster_imports(tmp_path):
    first = VenueServer(tmp_path / "first", environment={"MUSTER_DEMO": "0"})
    second = VenueServer(tmp_path / "second", environment={"MUSTER_DEMO": "0"})
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    try:
        first.start()
        second.start()
        assert first.query("SELECT count(*) FROM auth_user") == [(0,)] == second.query("SELECT count(*) FROM auth_user")
        with chromium() as browser:
            archive = first_instance(browser, first, tmp_path)
            second_instance(browser, second, archive)
    finally:
        first.stop()
        second.stop()
