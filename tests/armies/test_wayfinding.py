"""Issue 25: every army page answers "where am I, what can I do, what just happened": one heading, the
way back to the campaign (the crumbs: campaign › Armies › this page), and a message after each action.
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory
from tests.forms import once

pytestmark = pytest.mark.django_db


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", balance=30)


def pages(world, vey) -> list[str]:
    slug = world.campaign.slug
    offer = RecruitOfferFactory(campaign=world.campaign)
    return [
        reverse("armies:list", args=[slug]),
        reverse("armies:commander", args=[slug, vey.pk]),
        reverse("armies:commander_edit", args=[slug, vey.pk]),
        reverse("armies:commander_new", args=[slug]),
        reverse("armies:treasury", args=[slug]),
        reverse("armies:offer_list", args=[slug]),
        reverse("armies:offer_edit", args=[slug, offer.pk]),
        reverse("armies:battle_new", args=[slug]),
        reverse("armies:day_end", args=[slug]) + "?day=1",
        reverse("armies:day_end_revert", args=[slug]),
        reverse("campaign:activity", args=[slug]),
        reverse("campaign:settings", args=[slug]),
    ]


def test_every_gm_page_has_one_heading_and_the_way_back_to_the_campaign(client, world, vey):
    client.force_login(world.gm.user)
    campaign_url = reverse("campaign:detail", args=[world.campaign.slug])
    for url in pages(world, vey):
        body = client.get(url).content.decode()
        assert len(re.findall(r"<h1[\s>]", body)) == 1, url
        assert f'href="{campaign_url}"' in body, url


def test_a_sub_page_says_where_it_sits(client, world, vey):
    client.force_login(world.gm.user)
    body = client.get(reverse("armies:treasury", args=[world.campaign.slug])).content.decode()
    crumbs = re.search(r'<nav class="link-line crumbs"[^>]*>(.*?)</nav>', body, re.DOTALL).group(1)
    assert html.unescape(re.sub(r"<[^>]+>", "", crumbs)) == f"{world.campaign.name} › Armies › Treasury"
    assert '<span aria-current="page">Treasury</span>' in crumbs


def test_a_purchase_says_what_it_cost_in_words_that_agree(client, world, vey):
    offer = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Militia"), price=1)
    client.force_login(world.ann.user)
    response = client.post(reverse("armies:buy", args=[world.campaign.slug, vey.pk, offer.pk]), once(price=1),
                           follow=True)
    assert "Militia joined Lady Vey&#x27;s army for 1 coin." in response.content.decode()
    free = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Levy"), price=0)
    response = client.post(reverse("armies:buy", args=[world.campaign.slug, vey.pk, free.pk]), once(price=0),
                           follow=True)
    assert "Levy joined Lady Vey&#x27;s army for free." in response.content.decode()


def test_training_says_what_happened(client, world, vey):
    vey.build_points = 50
    vey.save()
    unit = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Archers", strength=2))
    client.force_login(world.ann.user)
    response = client.post(reverse("armies:train", args=[world.campaign.slug, vey.pk, unit.pk]),
                           once(pay_with="build_points"), follow=True)
    assert '<li class="msg success">Archers are trained: +1 Strength for good.</li>' in response.content.decode()
