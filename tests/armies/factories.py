"""Factories for the Army economy: unit cards, commanders (with their treasury), units and offers."""

import factory

from armies.models import ArmyUnit, Commander, RecruitOffer, UnitCard, UnitEvent
from campaign.ledger import ledger_post
from campaign.models import Account, LedgerEntry
from tabletop.models import CatalogEntry

from tests.factories import CampaignFactory, MembershipFactory


class UnitCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = UnitCard
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"unit-{n:03d}")
    name = factory.Sequence(lambda n: f"Test Unit {n}")
    strength = 3
    role = "aggressor"
    path = "steel"
    traits = factory.LazyFunction(list)
    abilities = factory.LazyFunction(list)
    upkeep = 1
    price = 10
    source = CatalogEntry.Source.CUSTOM


class AccountFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Account

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Account {n}")


class CommanderFactory(factory.django.DjangoModelFactory):
    """A PC commander of a player; ``balance=N`` gives it an opening entry of N coins."""

    class Meta:
        model = Commander
        skip_postgeneration_save = True

    membership = factory.SubFactory(MembershipFactory)
    campaign = factory.LazyAttribute(lambda o: o.membership.campaign)
    name = factory.Sequence(lambda n: f"Commander {n}")
    account = factory.SubFactory(
        AccountFactory,
        campaign=factory.SelfAttribute("..campaign"),
        name=factory.SelfAttribute("..name"),
        owner=factory.LazyAttribute(lambda o: o.factory_parent.membership if o.factory_parent.kind == "pc" else None),
    )
    kind = Commander.Kind.PC
    role = "guardian"
    path = "steel"

    @factory.post_generation
    def balance(obj, create, extracted, **kwargs):
        if create and extracted:
            ledger_post(account=obj.account, amount=extracted, kind=LedgerEntry.Kind.OPENING, reason="Opening", day=1)


class ArmyUnitFactory(factory.django.DjangoModelFactory):
    """An active unit with its JOINED event (as ``unit_add`` makes it); ``trained_on=N`` trains it on day N."""

    class Meta:
        model = ArmyUnit
        skip_postgeneration_save = True

    commander = factory.SubFactory(CommanderFactory)
    card = factory.SubFactory(UnitCardFactory)
    joined_day = 1

    @factory.post_generation
    def history(obj, create, extracted, **kwargs):
        if create:
            UnitEvent.objects.create(unit=obj, day=obj.joined_day, kind=UnitEvent.Kind.JOINED, cause="Test")

    @factory.post_generation
    def trained_on(obj, create, extracted, **kwargs):
        if create and extracted:
            obj.trained = True
            obj.save(update_fields=["trained"])
            UnitEvent.objects.create(unit=obj, day=extracted, kind=UnitEvent.Kind.TRAINED, cause="Test")


class RecruitOfferFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RecruitOffer

    campaign = factory.SubFactory(CampaignFactory)
    card = factory.SubFactory(UnitCardFactory)
    price = 10
    quantity = 3
