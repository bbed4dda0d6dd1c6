"""The day ended and taken back (armies/services/day_end_revert.py): Day 1 of the siege, as the take-back's
tests, its pages' tests and its browser test all set it up (CONVENTIONS 16b: never from a test module)."""

from __future__ import annotations

from armies import selectors
from armies.models import ArmyUnit, Battle, Settlement, UnitUse
from armies.services.day_end_revert import day_end_revert
from armies.services.settlement import day_settle
from campaign.ledger import balance_of
from campaign.models import Campaign, Day

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory


class Day1:
    """Day 1 of the siege: Lady Vey pays, Lord Marr cannot (his Golem deserts), Cara used nobody.

    Vey (100 coins) used Spearmen (3) and Archers (2): owes 5, pays. Marr (5 coins) used a Golem (8)
    and trained Militia (1): owes 9; the Golem deserts (most expensive first) and he pays 1.
    Marr was routed by Vey in battle on day 1. An offer of Pikemen ends on day 1.
    """

    def __init__(self, world, **campaign_fields):
        self.world = world
        self.campaign = world.campaign
        for name, value in campaign_fields.items():
            setattr(self.campaign, name, value)
        self.campaign.save()
        self.vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=100)
        self.marr = CommanderFactory(membership=world.ben, name="Lord Marr", balance=5)
        self.cara = CommanderFactory(membership=world.ann, name="Cara", balance=7)
        card = {name: UnitCardFactory(name=name, upkeep=upkeep) for name, upkeep in self.CARDS}
        self.spearmen = ArmyUnitFactory(commander=self.vey, card=card["Spearmen"])
        self.archers = ArmyUnitFactory(commander=self.vey, card=card["Archers"])
        self.golem = ArmyUnitFactory(commander=self.marr, card=card["Golem"])
        self.militia = ArmyUnitFactory(commander=self.marr, card=card["Militia"], trained_on=1)
        ArmyUnitFactory(commander=self.cara, card=card["Spearmen"])
        battle = Battle.objects.create(
            campaign=self.campaign, attacker=self.vey, defender=self.marr, day=1, winner=self.vey, routed=self.marr
        )
        Battle.objects.filter(pk=battle.pk).update(ended_at=battle.started_at)
        for unit in (self.spearmen, self.archers, self.golem, self.militia):
            UnitUse.objects.create(unit=unit, commander=unit.commander, day=1, first_battle=battle)
        self.pikemen = RecruitOfferFactory(campaign=self.campaign, card=card["Pikemen"], price=10, until_day=1)

    CARDS = (("Spearmen", 3), ("Archers", 2), ("Golem", 8), ("Militia", 1), ("Pikemen", 1))

    def end(self):
        return day_settle(campaign=self.campaign, day=Campaign.objects.get(pk=self.campaign.pk).current_day)

    def revert(self, day=1, **kwargs):
        return day_end_revert(campaign=self.campaign, day=day, gm=self.world.gm.user, **kwargs)

    def snapshot(self) -> dict:
        campaign = Campaign.objects.get(pk=self.campaign.pk)
        commanders = (self.vey, self.marr, self.cara)
        return {
            "balances": {c.name: balance_of(c.account) for c in commanders},
            "units": list(ArmyUnit.objects.order_by("pk").values_list("pk", "status", "left_day", "trained")),
            "day": campaign.current_day,
            "days": list(Day.objects.filter(campaign=campaign).values_list("number", "closed_at")),
            "offers": list(selectors.offers_open(campaign.pk, campaign.current_day).values_list("pk", flat=True)),
            "settlements": settled(self.campaign),
        }


def settled(campaign) -> list[tuple]:
    live = Settlement.objects.filter(commander__campaign=campaign, reverted_at=None).order_by("commander__name")
    return list(live.values_list("commander__name", "day", "owed", "paid", "deserted"))
