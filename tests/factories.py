"""Test data factories (factory_boy): users, campaigns, memberships, tables."""

import factory
from django.contrib.auth import get_user_model

from campaign.models import Campaign, Day, Membership
from tabletop.engines.gridaris.starter import STARTER_CARDS
from tabletop.models import CatalogEntry, GridarisCard
from tabletop.services.tables import SeatSpec, table_create

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Campaign {n}")
    slug = factory.Sequence(lambda n: f"campaign-{n}")

    @factory.post_generation
    def first_day(obj, create, extracted, **kwargs):
        if create:
            Day.objects.create(campaign=obj, number=1)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    campaign = factory.SubFactory(CampaignFactory)
    role = Membership.Role.PLAYER


def gridaris_table(campaign, seats, *, seed=7, title="Test table", **config):
    """A Gridaris table over the starter cards; ``seats`` are memberships or guest names."""
    specs = [SeatSpec(membership=s) if isinstance(s, Membership) else SeatSpec(guest_name=s) for s in seats]
    return table_create(
        campaign=campaign,
        game="gridaris",
        title=title,
        seats=specs,
        config={"mode": "standard", "cards": STARTER_CARDS, **config},
        seed=seed,
    )


ARMY_UNITS = (("heavy_cavalry", "soldier", "field_surgeon"), ("treant", "arcane_ward", "wolf_pack"))


def army_table(campaign, seats, *, config=None, seed=11, title="Siege of Vey"):
    """An Army battle table, the starter units by default (app dice); ``seats`` as for ``gridaris_table``."""
    from tabletop.engines import army

    specs = [SeatSpec(membership=s) if isinstance(s, Membership) else SeatSpec(guest_name=s) for s in seats]
    config = config or army.starter_config(players=["Ann", "Ben"], units=ARMY_UNITS, dice="app")
    return table_create(campaign=campaign, game="army", title=title, seats=specs, config=config, seed=seed)


class GridarisCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = GridarisCard

    code = factory.Sequence(lambda n: f"t{n:02d}")
    name = factory.Sequence(lambda n: f"Test Card {n}")
    card_class = GridarisCard.Class.MOPS
    tier = GridarisCard.Tier.SILVER
    stars = 1
    top, right, bottom, left = "1", "2", "3", "A"
    source = CatalogEntry.Source.CUSTOM
