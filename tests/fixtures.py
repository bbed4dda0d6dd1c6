"""Shared fixtures: one campaign with a GM, two players, an outsider and a staff user."""

import os
from dataclasses import dataclass

import pytest
from channels.layers import channel_layers

from campaign.models import Membership
from muster import languages, presence
from tabletop.catalog.starter import catalog_load_starter

from .factories import CampaignFactory, MembershipFactory, UserFactory, gridaris_table


@dataclass
class World:
    campaign: object
    gm: Membership
    ann: Membership
    ben: Membership
    outsider: object
    staff: object


@pytest.fixture
def world(db) -> World:
    catalog_load_starter()
    campaign = CampaignFactory(slug="siege")
    return World(
        campaign=campaign,
        gm=MembershipFactory(campaign=campaign, role=Membership.Role.GM, user__username="gm"),
        ann=MembershipFactory(campaign=campaign, user__username="ann", character_name="Ann the Bold"),
        ben=MembershipFactory(campaign=campaign, user__username="ben", character_name="Ben the Sly"),
        outsider=UserFactory(username="outsider"),
        staff=UserFactory(username="staff", is_staff=True, is_superuser=True),
    )


@pytest.fixture
def table(world):
    """A two-seat Gridaris table: Ann (seat 0) and Ben (seat 1)."""
    return gridaris_table(world.campaign, [world.ann, world.ben])


@pytest.fixture(scope="module")
def application():
    """muster.asgi.application (for tests/sockets.py), imported without leaving MUSTER_ASGI set for the
    rest of the run."""
    was = os.environ.get("MUSTER_ASGI")
    from muster.asgi import application

    if was is None:
        os.environ.pop("MUSTER_ASGI", None)
    return application


@pytest.fixture
def fresh_layer():
    """A new in-process layer per test: its queues belong to the event loop that first used them."""
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


@pytest.fixture(autouse=True)
def nobody_watching():
    """The push's counts of open sockets (muster/presence.py) start empty: a socket another test left
    open would make this test's actions render and push for it."""
    presence.forget_all()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def locale_dir(tmp_path, settings, monkeypatch):
    """A locale folder of the test's own (tests/catalogs.py writes in it), read afresh: only the catalogs the
    test writes are offered, and no translation read before is kept."""
    folder = tmp_path / "locale"
    folder.mkdir()
    settings.LOCALE_PATHS = [folder]
    monkeypatch.setattr(languages, "_catalogs", languages._Catalogs())
    languages._forget_translations()
    yield folder
    languages._forget_translations()
