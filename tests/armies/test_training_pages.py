"""The roster's Training buttons, posted as a browser posts them (issue 35): each button sends only its own
payment, whatever else the commander holds; paying both at once is still refused by the service."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from armies.models import ArmyUnit

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.forms import once

pytestmark = pytest.mark.django_db

ITEMS_BUTTON = "Train with 4 weapons, 6 shields, 0 alchemy"
BUILD_POINTS_BUTTON = "Train with 50 build points"

HOLDINGS = {
    "items only": {"weapons": 4, "shields": 6, "build_points": 0},
    "build points only": {"weapons": 0, "shields": 0, "build_points": 50},
    "both held": {"weapons": 4, "shields": 6, "build_points": 50},
}


def tap(html: str, button: str) -> tuple[str, dict]:
    """The form holding ``button`` on ``html`` and what a tap on it sends: that form's hidden fields and the
    button's own name and value (a browser sends nothing from the page's other forms)."""
    for attributes, body in re.findall(r"<form([^>]*)>(.*?)</form>", html, re.DOTALL):
        found = re.search(r"<button([^>]*)>\s*" + re.escape(button) + r"\s*</button>", body)
        if not found:
            continue
        fields = {}
        for tag in re.findall(r"<input[^>]*>", body):
            name, value = re.search(r'name="([^"]*)"', tag), re.search(r'value="([^"]*)"', tag)
            if name and 'type="hidden"' in tag and name.group(1) != "csrfmiddlewaretoken":
                fields[name.group(1)] = unescape(value.group(1)) if value else ""
        name, value = re.search(r'name="([^"]*)"', found.group(1)), re.search(r'value="([^"]*)"', found.group(1))
        if name:
            fields[name.group(1)] = value.group(1) if value else ""
        return unescape(re.search(r'action="([^"]*)"', attributes).group(1)), fields
    raise AssertionError(f"no button {button!r} on the page")


@pytest.fixture
def page(client, world):
    def open_roster(holding: str):
        vey = CommanderFactory(membership=world.ann, name="Lady Vey", alchemy=0, **HOLDINGS[holding])
        unit = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Spearmen", strength=3))
        client.force_login(world.ann.user)
        url = reverse("armies:commander", args=[world.campaign.slug, vey.pk])
        response = client.get(url)
        assert response.status_code == 200
        return vey, unit, response.content.decode()

    return open_roster


def _left_after_items(held: dict) -> tuple[int, int, int]:
    return 0, 0, held["build_points"]


def _left_after_build_points(held: dict) -> tuple[int, int, int]:
    return held["weapons"], held["shields"], 0


@pytest.mark.parametrize(("button", "holding", "left"), [
    (ITEMS_BUTTON, "items only", _left_after_items),
    (ITEMS_BUTTON, "both held", _left_after_items),
    (BUILD_POINTS_BUTTON, "build points only", _left_after_build_points),
    (BUILD_POINTS_BUTTON, "both held", _left_after_build_points),
])
def test_each_button_trains_with_its_own_payment_only(client, page, button, holding, left):
    vey, unit, html = page(holding)
    action, fields = tap(html, button)

    response = client.post(action, fields, follow=True)

    assert response.status_code == 200
    assert "Spearmen are trained: +1 Strength for good." in unescape(response.content.decode())
    vey.refresh_from_db()
    unit.refresh_from_db()
    assert unit.trained
    assert (vey.weapons, vey.shields, vey.build_points) == left(HOLDINGS[holding])


@pytest.mark.parametrize(("holding", "absent"), [("items only", BUILD_POINTS_BUTTON),
                                                 ("build points only", ITEMS_BUTTON)])
def test_a_payment_the_commander_cannot_make_has_no_button(page, holding, absent):
    _, _, html = page(holding)
    with pytest.raises(AssertionError, match="no button"):
        tap(html, absent)


def test_asking_to_pay_with_both_is_refused_and_nothing_is_spent(client, page):
    vey, unit, _ = page("both held")
    url = reverse("armies:train", args=[vey.campaign.slug, vey.pk, unit.pk])

    response = client.post(url, once(pay_with="build_points", weapons=4, shields=6, alchemy=0), follow=True)

    assert "Pay with item cards or with build points, not both." in unescape(response.content.decode())
    vey.refresh_from_db()
    assert (vey.weapons, vey.shields, vey.build_points) == (4, 6, 50)
    assert not ArmyUnit.objects.get(pk=unit.pk).trained
