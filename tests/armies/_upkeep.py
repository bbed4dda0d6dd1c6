"""A campaign's armies made directly with the ORM for the day-end tests (armies/services/upkeep.py and
settlement.py), so they do not depend on the recruiting and battle services: the upkeep, day-end task,
log-line, Redis-down, Celery worker and live tests share them (CONVENTIONS 16b: never from a test module)."""

from __future__ import annotations

from django.db.models import Sum

from armies.models import ArmyUnit, Battle, Commander, Settlement, UnitCard, UnitUse
from campaign.models import Account, LedgerEntry, Membership

from tests.factories import CampaignFactory, MembershipFactory


class CampaignArmies:
    """A campaign with a GM and helpers to give it cards, commanders, units and battles."""

    def __init__(self, **campaign_fields):
        self.campaign = CampaignFactory(**campaign_fields)
        self.gm = MembershipFactory(campaign=self.campaign, role=Membership.Role.GM)
        self.cards: dict[str, UnitCard] = {}

    def card(self, name: str, upkeep: int) -> UnitCard:
        if name not in self.cards:
            code = f"{self.campaign.slug}-{name}".lower().replace(" ", "-")[:40]
            self.cards[name] = UnitCard.objects.create(
                code=code, name=name, strength=2, role="aggressor", path="steel", upkeep=upkeep
            )
        return self.cards[name]

    def commander(self, name: str, balance: int = 0) -> Commander:
        account = Account.objects.create(campaign=self.campaign, name=name)
        commander = Commander.objects.create(
            campaign=self.campaign,
            membership=self.gm,
            account=account,
            name=name,
            kind="npc",
            role="guardian",
            path="steel",
        )
        if balance:
            LedgerEntry.objects.create(
                account=account, amount=balance, day=1, kind=LedgerEntry.Kind.OPENING, reason="Opening balance"
            )
        return commander

    def units(self, commander: Commander, *cards: tuple[str, int]) -> list[ArmyUnit]:
        return [ArmyUnit.objects.create(commander=commander, card=self.card(*card), joined_day=1) for card in cards]

    def battle(self, attacker: Commander, defender: Commander, used: list[ArmyUnit], day: int = 1) -> Battle:
        """A battle that used these units, recorded the way armies.services.battles records it."""
        battle = Battle.objects.create(campaign=self.campaign, attacker=attacker, defender=defender, day=day)
        UnitUse.objects.bulk_create(
            [UnitUse(unit=unit, commander_id=unit.commander_id, day=day, first_battle=battle) for unit in used],
            ignore_conflicts=True,
        )
        return battle


def balance(commander: Commander) -> int:
    return LedgerEntry.objects.filter(account_id=commander.account_id).aggregate(s=Sum("amount"))["s"] or 0


def upkeep_entries(commander: Commander):
    return LedgerEntry.objects.filter(account_id=commander.account_id, kind=LedgerEntry.Kind.UPKEEP)


def many_commanders(count: int, *, units: int = 3, short_every: int = 3, **campaign_fields) -> CampaignArmies:
    """``count`` commanders who each used ``units`` units (upkeep 1, 2, 3, ...) on day 1;
    every ``short_every``-th cannot pay in full."""
    world = CampaignArmies(**campaign_fields)
    rival = world.commander("Rival")
    for i in range(count):
        owed = sum(range(1, units + 1))
        commander = world.commander(f"C{i:04d}", balance=owed - 2 if i % short_every == 0 else owed + 10)
        used = world.units(commander, *[(f"Card {n}", n) for n in range(1, units + 1)])
        world.battle(commander, rival, used)
    return world


def assert_charged_once(world: CampaignArmies, day: int = 1) -> None:
    """Every commander who used units on ``day`` has exactly one settlement and at most one upkeep entry."""
    users = Commander.objects.filter(campaign=world.campaign, unit_uses__day=day).distinct()
    for commander in users:
        settlements = list(Settlement.objects.filter(commander=commander, day=day))
        assert len(settlements) == 1, commander.name
        entries = list(upkeep_entries(commander).filter(day=day))
        assert len(entries) == (1 if settlements[0].paid else 0), commander.name
        assert sum(-e.amount for e in entries) == settlements[0].paid
        if entries:
            assert (entries[0].cause_type, entries[0].cause_id) == ("settlement", settlements[0].pk)
