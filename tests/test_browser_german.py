"""Muster in German on a 360 px phone and a tablet (issue 41): a battle, a side event and a day end, each played
in Chromium with the browser asking for German (``locale="de-DE"``: its Accept-Language). Every page met after
each step says ``<html lang="de">`` and holds no English sentence outside data (card names and texts, what people
typed, the games' titles: tests/german.py).

Buttons are clicked by what does not change with the language: the action a game's button posts (its hidden
``action`` field), a form's class or field. Each page's English is gathered along the way and asserted at the end
of the flow, so a failure lists every page and text at once.
"""

from __future__ import annotations

import json

import pytest

from armies.catalog import unit_catalog_load_starter
from armies.models import Battle, UnitCard
from tabletop.engines import army, get_engine
from tabletop.engines.kernel import GM
from tabletop.models import Table

from tests.armies.factories import ArmyUnitFactory, CommanderFactory
from tests.browser import GERMAN, LOG_IN, PHONE_360, TABLET, chromium, gridaris_move, log_in, wait_for_version
from tests.german import english_left, typed_data
from tests.venue_server import GM_HOST, VenueServer

PHONE_DE = {**PHONE_360, **GERMAN}
TABLET_DE = {**TABLET, **GERMAN}
GRIDARIS_MOVES = 4
DEMO = "distelblute"  # the demo campaign the venue server loads (armies/management/commands/load_demo.py)
ANN = "Captain Annika Vey"  # her commander there


class German:
    """Each page's ``lang`` is asserted at once; its English (outside ``data``) is kept, by step, for the end."""

    def __init__(self, data=None):
        self.data = data  # None: read the test database again at each look (new tables, new cards in play)
        self.english: dict[str, list[str]] = {}

    def look(self, page, step: str) -> None:
        page.wait_for_load_state("load")
        assert page.get_attribute("html", "lang") == "de", f"{step}: {page.url}"
        data = typed_data() if self.data is None else self.data
        found = english_left(page.content(), data)
        if found:
            self.english[f"{step} ({page.url})"] = found


def action_button(page, action: dict):
    """The button of the form that posts ``action`` (its label left out, as the page's hidden field holds it).

    Pressed with ``dispatch_event("click")``: the test server has no push, so the "reconnecting" bar comes and
    goes at the bottom of the screen and may take a mouse's click meant for the card under it."""
    posted = json.dumps({key: value for key, value in action.items() if key != "label"}, separators=(",", ":"))
    return page.locator(f"form:has(> input[name=action][value='{posted}']) button").first


def test_data_is_taken_out_of_a_page_as_whole_words_only():
    """A name people typed (the username "ben") inside a German word ("Beben") leaves no English word ("Be")
    behind."""
    page = "<p>Ben spielt Beben</p><p>Ben waits for you</p>"
    assert english_left(page, {"Ben", "ben"}) == ["Ben waits for you"]


def test_the_rulebooks_titles_stay_english_in_german_text():
    page = "<p>Aggressor of Nature: „Alle Karten“</p><p>eine Path-of-Steel-Befehlshaber:in</p><p>Path of the dead</p>"
    assert english_left(page) == ["Path of the dead"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_battle_in_german_on_the_gms_tablet_and_two_phones(live_server, world):
    unit_catalog_load_starter()
    card = {code: UnitCard.objects.get(code=code) for code in ("spearmen", "soldier", "treant")}
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="nature", progression=2)
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", role="savant", path="nature", favors=1)
    for commander, codes in ((vey, ("spearmen", "spearmen", "treant")), (marr, ("soldier", "soldier"))):
        for code in codes:
            ArmyUnitFactory(commander=commander, card=card[code])
    slug = world.campaign.slug
    german = German()
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", TABLET_DE)
        german.look(gm, "the GM's first page")
        gm.goto(f"{live_server.url}/c/{slug}/armies/")
        german.look(gm, "the GM's armies")
        gm.goto(f"{live_server.url}/c/{slug}/battles/new/?attacker={vey.pk}&defender={marr.pk}&choose=1")
        german.look(gm, "the new battle's form")
        gm.check("input[name=dice][value=physical]")
        gm.click("#battle-setup button.primary")
        gm.wait_for_selector("#live")
        battle = Battle.objects.get(attacker=vey, defender=marr)
        table = battle.table
        german.look(gm, "the battle opened")

        pages = {GM: gm}
        for seat, member in ((0, world.ann), (1, world.ben)):
            phone = log_in(browser, live_server, member.user.username, PHONE_DE)
            phone.goto(f"{live_server.url}/play/{table.seats.get(index=seat).token}/")
            phone.wait_for_selector("#live")
            german.look(phone, f"seat {seat}'s phone")
            pages[seat] = phone

        def everyone(step: str) -> None:
            for who, page in pages.items():
                wait_for_version(page, table.version)
                german.look(page, f"{step}, on {who}'s screen")

        def decide(wanted) -> None:
            table.refresh_from_db()
            choices = army.view(table.state, GM)["choices"]
            choice = next((c for c in choices if wanted(c)), None)
            assert choice is not None, f"no such choice among {[c['label'] for c in choices]}"
            page, before = pages[choice["seat"]], table.version
            wait_for_version(page, before)
            action_button(page, choice).dispatch_event("click")
            wait_for_version(page, before + 1)
            table.refresh_from_db()
            everyone(choice["type"])

        def dice(*values: int) -> None:
            before = table.version
            wait_for_version(gm, before)
            inputs = gm.locator('.army-dice input[name="values:ints"]')
            assert inputs.count() == len(values)
            for index, value in enumerate(values):
                inputs.nth(index).fill(str(value))
            gm.locator(".army-dice button.primary").dispatch_event("click")
            wait_for_version(gm, before + 1)
            table.refresh_from_db()
            everyone("the dice")

        def cards(name: str):
            return lambda c: c["type"] == "play" and table.state["cards"][c["card"]]["name"] == name

        def declines() -> bool:
            table.refresh_from_db()
            return any(c["type"] == "decline" for c in army.view(table.state, GM)["choices"])

        decide(lambda c: c["type"] == "choose_first" and c["first"] == 0)
        decide(cards("Spearmen"))
        decide(lambda c: c["type"] == "play" and c["seat"] == 1)
        while declines():
            decide(lambda c: c["type"] == "decline")
        dice(6, 6, 1)
        while declines():
            decide(lambda c: c["type"] == "decline")
        decide(lambda c: c["type"] == "save" and c["pay"] == "favor")  # Ben's Favor: Disabled, not Killed

        # The GM's override routs Ben; the rout roll kills the Disabled Soldier on a 6.
        while table.state["commanders"][1]["morale"] + table.state["commanders"][1]["base"] > 0:
            before = table.version
            wait_for_version(gm, before)
            gm.locator('form.morale-row:has(input[name="target:int"][value="1"]) button[value="-1"]').dispatch_event(
                "click"
            )
            wait_for_version(gm, before + 1)
            table.refresh_from_db()
        everyone("the GM's Morale override")
        dice(6)
        assert table.status == Table.Status.FINISHED

        for seat in (0, 1):
            pages[seat].goto(f"{live_server.url}/c/{slug}/battles/{battle.pk}/")
            german.look(pages[seat], f"the battle's result on seat {seat}'s phone")
        pages[1].goto(f"{live_server.url}/c/{slug}/armies/{marr.pk}/")
        german.look(pages[1], "Lord Marr's roster")
    assert german.english == {}, json.dumps(german.english, indent=1, ensure_ascii=False)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_side_event_in_german_a_gridaris_table_from_the_gms_tablet_and_two_phones(live_server, world):
    slug, title = world.campaign.slug, "Duell im Gasthaus"
    german = German()
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", TABLET_DE)
        gm.click(f"a[href='/c/{slug}/']")
        german.look(gm, "the campaign on the GM's tablet")
        gm.click(f"a[href='/c/{slug}/tables/new/gridaris/']")
        german.look(gm, "the new table's form")
        gm.fill("input[name=title]", title)
        gm.check(f"input[name=members][value='{world.ann.pk}']")
        gm.check(f"input[name=members][value='{world.ben.pk}']")
        gm.click("form[data-table-new] button.primary")
        gm.wait_for_selector("#live")
        table = Table.objects.get(title=title)
        german.look(gm, "the table opened")
        phones = {}
        for seat, member in ((0, world.ann), (1, world.ben)):
            phone = log_in(browser, live_server, member.user.username, PHONE_DE)
            phone.click(f"a[href='/c/{slug}/']")
            german.look(phone, f"the campaign on seat {seat}'s phone")
            phone.click(f"text={title}")
            phone.wait_for_selector("#live")
            german.look(phone, f"the table on seat {seat}'s phone")
            phones[seat] = phone

        engine = get_engine("gridaris")
        for move in range(1, GRIDARIS_MOVES + 1):
            (acting,) = engine.to_act(table.state)
            page = phones[acting]
            wait_for_version(page, table.version)
            gridaris_move(page)
            wait_for_version(page, move)
            table.refresh_from_db()
            assert table.version == move
            for who, screen in (("the GM", gm), *phones.items()):
                wait_for_version(screen, move)
                german.look(screen, f"move {move}, on {who}'s screen")
    assert german.english == {}, json.dumps(german.english, indent=1, ensure_ascii=False)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    venue = VenueServer(tmp_path_factory.mktemp("venue-day-end-german")).start()
    yield venue
    venue.stop()


@pytest.mark.venue
@pytest.mark.browser
def test_a_day_end_in_german_from_the_gms_tablet_seen_on_a_phone(server):
    local = f"http://{GM_HOST}:{server.port}"
    german = German(set(server.seed("words", "-")))
    (day,) = server.query("SELECT current_day FROM campaign_campaign WHERE slug = ?", (DEMO,))[0]
    with chromium() as browser:
        pages = {}
        for who, device in (("gm", TABLET_DE), ("ann", PHONE_DE)):
            page = browser.new_context(**device).new_page()
            page.goto(f"{local}/accounts/login/")
            german.look(page, f"the login on {who}'s device")
            page.fill("input[name=username]", who)
            page.fill("input[name=password]", server.password(who))
            page.click(LOG_IN)
            page.wait_for_url(f"{local}/")
            german.look(page, f"{who}'s first page")
            pages[who] = page
        gm, phone = pages["gm"], pages["ann"]
        gm.goto(f"{local}/c/{DEMO}/armies/")
        german.look(gm, "the GM's armies before the day end")
        gm.click(f"form[action='/c/{DEMO}/day-end/'][method=get] button")
        gm.wait_for_selector(f"form[action='/c/{DEMO}/day-end/'][method=post]")
        german.look(gm, "the day end's confirmation")
        gm.click(f"form[action='/c/{DEMO}/day-end/'][method=post] button.primary")
        gm.wait_for_url(f"{local}/c/{DEMO}/armies/")
        german.look(gm, "the GM's armies after the day end")
        assert server.query("SELECT current_day FROM campaign_campaign WHERE slug = ?", (DEMO,))[0] == (day + 1,)
        for path, step in ((f"/c/{DEMO}/", "the campaign"), (f"/c/{DEMO}/armies/", "Ann's armies")):
            phone.goto(f"{local}{path}")
            german.look(phone, f"{step} on Ann's phone after the day end")
        ((commander,),) = server.query("SELECT id FROM armies_commander WHERE name = ?", (ANN,))
        phone.goto(f"{local}/c/{DEMO}/armies/{commander}/")
        german.look(phone, "Ann's commander on her phone after the day end")
    assert german.english == {}, json.dumps(german.english, indent=1, ensure_ascii=False)
