"""A live battle on three devices: the GM's tablet and both commanders' phones, from opening to result.

Physical dice make it exact: the GM types every die on the tablet. Along the way: Ann's
face-down pick is absent from Ben's phone until it is revealed, Ben saves a kill with a
Favor, the GM's Morale override routs Ben, and both rosters show the result.
"""

import pytest

from armies.catalog import unit_catalog_load_starter
from armies.models import ArmyUnit, Battle, UnitCard
from tabletop.engines import army
from tabletop.engines.kernel import GM
from tabletop.models import Table

from tests.armies.factories import ArmyUnitFactory, CommanderFactory
from tests.browser import PHONE, TABLET, chromium, log_in, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

class Battlefield:
    """The three screens and the table behind them; each decision is taken by clicking its button."""

    def __init__(self, table: Table, pages: dict):
        self.table, self.pages = table, pages

    def choices(self) -> list[dict]:
        self.table.refresh_from_db()
        return army.view(self.table.state, GM)["choices"]

    def decide(self, wanted) -> dict:
        """Click, on the deciding device, the first button whose action ``wanted`` accepts."""
        choice = next((c for c in self.choices() if wanted(c)), None)
        assert choice is not None, f"no such choice among {[c['label'] for c in self.choices()]}"
        page = self.pages[choice["seat"]]
        before = self.table.version
        wait_for_version(page, before)
        if choice["type"] == "play":
            page.locator(f'button[title="{choice["label"]}"]').first.click()
        else:
            page.get_by_role("button", name=choice["label"], exact=True).first.click()
        wait_for_version(page, before + 1)
        self.table.refresh_from_db()
        return choice

    def name(self, card_id: str) -> str:
        return self.table.state["cards"][card_id]["name"]

    def decline_while(self, seat_kinds=("decline",)) -> None:
        while any(c["type"] in seat_kinds for c in self.choices()):
            self.decide(lambda c: c["type"] in seat_kinds)

    def dice(self, *values: int) -> None:
        gm = self.pages[GM]
        before = self.table.version
        wait_for_version(gm, before)
        inputs = gm.locator('.army-dice input[name="values:ints"]')
        assert inputs.count() == len(values)
        for index, value in enumerate(values):
            inputs.nth(index).fill(str(value))
        gm.get_by_role("button", name="Enter the dice").click()
        wait_for_version(gm, before + 1)
        self.table.refresh_from_db()


@pytest.fixture
def armies(world):
    unit_catalog_load_starter()
    card = {code: UnitCard.objects.get(code=code) for code in ("spearmen", "soldier", "treant")}
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", role="aggressor", path="nature", progression=2)
    marr = CommanderFactory(
        membership=world.ben, name="Lord Marr", role="savant", path="nature", progression=0, favors=1
    )
    for code in ("spearmen", "spearmen", "treant"):
        ArmyUnitFactory(commander=vey, card=card[code])
    for code in ("soldier", "soldier"):
        ArmyUnitFactory(commander=marr, card=card[code])
    return vey, marr


def test_a_battle_from_the_gms_tablet_and_two_phones_to_the_rosters(live_server, world, armies):
    vey, marr = armies
    slug = world.campaign.slug
    with chromium() as browser:
        gm = log_in(browser, live_server, "gm", TABLET)
        gm.goto(f"{live_server.url}/c/{slug}/armies/")
        gm.click("text=Open a battle")
        gm.wait_for_selector("select[name=attacker]")
        # The "Show their units" button of the form, as a plain GET (the selects also swap by htmx).
        gm.goto(f"{live_server.url}/c/{slug}/battles/new/?attacker={vey.pk}&defender={marr.pk}&choose=1")
        assert gm.locator("input[name=attacker_units]:checked").count() == 3
        gm.check("input[name=dice][value=physical]")
        gm.get_by_role("button", name="Open the battle").click()
        gm.wait_for_selector("#live")
        battle = Battle.objects.get(attacker=vey, defender=marr)
        table = battle.table
        assert table.game == "army" and table.config["dice"] == "physical"

        phones = {}
        for seat, member in ((0, world.ann), (1, world.ben)):
            phone = log_in(browser, live_server, member.user.username, PHONE)
            phone.goto(f"{live_server.url}/play/{table.seats.get(index=seat).token}/")
            phone.wait_for_selector("#live")
            phones[seat] = phone
        field = Battlefield(table, {0: phones[0], 1: phones[1], GM: gm})

        # Whoever the app chose decides who goes first: Ann (Lady Vey) attacks.
        field.decide(lambda c: c["type"] == "choose_first" and c["first"] == 0)

        # Ann plays a Spearmen face down; Ben's phone knows nothing of it.
        played = field.decide(
            lambda c: c["type"] == "play" and field.table.state["cards"][c["card"]]["name"] == "Spearmen"
        )
        wait_for_version(phones[1], field.table.version)
        ben_html = phones[1].content()
        assert "Spearmen" not in ben_html and played["card"] not in ben_html

        field.decide(lambda c: c["type"] == "play" and c["seat"] == 1)  # Ben defends with a Soldier
        wait_for_version(phones[1], field.table.version)
        field.decline_while()  # nobody reacts before the dice
        assert "Odds before the dice" in gm.content() or field.table.state["step"]["kind"] == "dice"

        # Spearmen: Aggressor on Offense (best of 2d6) against the Soldier's d6: 6, 6 against 1.
        field.dice(6, 6, 1)
        field.decline_while()  # nobody reacts after the dice either
        assert "Spearmen" in phones[1].content()  # revealed now

        # The Soldier would be Killed: Ben pays his Favor to have it Disabled instead.
        field.decide(lambda c: c["type"] == "save" and c["pay"] == "favor")
        soldier = field.table.state["piles"][1]["disabled"]
        assert len(soldier) == 1

        # The GM's override routs Ben; the rout roll kills the Disabled Soldier on a 6.
        while field.table.state["commanders"][1]["morale"] + field.table.state["commanders"][1]["base"] > 0:
            before = field.table.version
            wait_for_version(gm, before)
            gm.get_by_role("button", name="Lord Marr loses 1 Morale").click()
            wait_for_version(gm, before + 1)
            field.table.refresh_from_db()
        rout_rolls = army.view(field.table.state, GM)["dice_needed"]
        assert len(rout_rolls) == 1  # the Disabled Soldier
        field.dice(6)

        field.table.refresh_from_db()
        assert field.table.status == Table.Status.FINISHED
        battle.refresh_from_db()
        assert battle.winner == vey and battle.routed == marr
        killed = ArmyUnit.objects.get(pk=int(soldier[0][1:]))
        assert killed.status == ArmyUnit.Status.KILLED
        marr.refresh_from_db()
        assert marr.favors == 0

        for page in (phones[1], phones[0]):
            page.goto(f"{live_server.url}/c/{slug}/battles/{battle.pk}/")
            assert "Lady Vey" in page.content()
        phones[1].goto(f"{live_server.url}/c/{slug}/armies/{marr.pk}/")
        roster = phones[1].locator("#roster").inner_text()
        assert roster.count("Soldier") == 1
