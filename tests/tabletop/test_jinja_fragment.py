"""The Army Rules fragment in Jinja2 (templates/jinja2/tabletop/games/army.jinja, issue 40; tabletop/jinja.py).

Before the Django fragments were deleted, this module rendered both for every viewer of 40 random states with
three seeds and found them alike but for whitespace. Now it asks of every viewer's live region, over many random
states, what the Django fragment gave: the HTML parses, names no card hidden from its viewer, holds every legal
action of that viewer as a form, and the GM's shows every hand. The Jinja2 templates are found by the Jinja2
backend alone, under names the Django backend never resolves.
"""

from __future__ import annotations

import html
import json
import random

import pytest
from django.template import TemplateDoesNotExist, engines
from django.template.backends.jinja2 import Jinja2
from django.template.loader import get_template

from tabletop import presenters, push
from tabletop.engines import get_engine
from tabletop.engines.kernel import GM, PUBLIC, SeededRng
from tabletop.models import Table
from tabletop.services.tables import SeatSpec, table_create
from tabletop.templatetags.tabletop_tags import action_json

from tests.cards import names_a_secret
from tests.tables import play_random
from tests.tabletop._html import parses

pytestmark = pytest.mark.django_db
JINJA_TEMPLATES = (
    "tabletop/games/army.jinja",
    "tabletop/games/_events.jinja",
    "tabletop/live.jinja",
    "tabletop/_abandoned.jinja",
    "tabletop/_computer_thinking.jinja",
    "tabletop/_stakes.jinja",
    "tabletop/_whatif_marker.jinja",
)


def army_table(world, seed: int) -> Table:
    config = get_engine("army").random_config(SeededRng(seed))
    specs = [SeatSpec(guest_name=f"Guest {n}") for n in range(len(config["players"]))]
    return table_create(campaign=world.campaign, game="army", title="Jinja", config=config, seats=specs, seed=seed)


def regions(world, table: Table) -> dict[object, str]:
    """Each viewer's live region as the pusher renders it: {engine's viewer: html}."""
    table.campaign = world.campaign
    made = {seat.index: presenters.seat_context(seat, table) for seat in table.seats.all()}
    made[GM] = presenters.gm_view_context(table, world.gm.pk)
    made[PUBLIC] = presenters.public_view_context(table, world.ben.pk)
    return {who: push.shared_render(push.TABLE_REGION, context) for who, context in made.items()}


def posted_actions(region: str) -> set[str]:
    """The JSON every button of the region posts as ``action``."""
    found = set()
    for start in range(len(region)):
        start = region.find('name="action" value="', start)
        if start < 0:
            return found
        start += len('name="action" value="')
        found.add(html.unescape(region[start : region.index('"', start)]))
    return found


def offered_as_a_form(action: dict, posted: set[str], region: str) -> bool:
    if action["type"] == "roll":  # the GM's dice form: one field per die
        return 'name="type" value="roll"' in region
    if action["type"].startswith("gm_"):  # the GM's overrides: a form of typed fields each
        return f'name="type" value="{action["type"]}"' in region or action["type"] == "gm_end_battle"
    return action_json(action) in posted


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_every_viewers_region_parses_keeps_secrets_offers_its_actions_and_shows_the_gm_every_hand(world, seed):
    engine, chooser, battles, states = get_engine("army"), random.Random(seed), 0, 0
    table = army_table(world, seed)
    while states < 25:
        legal = engine.legal_actions(table.state) if table.status == Table.Status.ACTIVE else []
        for who, region in regions(world, table).items():
            where = (who, table.version)
            assert 'class="army army-' in region and parses(region) == [], where
            posted = posted_actions(region)
            if who == GM:
                hands = [card for seat in (0, 1) for card in table.state["piles"][seat]["hand"]]
                assert region.count('<div class="army-card role-') == len(hands), where
                assert all(html.escape(table.state["cards"][card]["name"]) in region for card in hands), where
                mine = legal
            else:
                assert names_a_secret(engine, table.state, who, region) is None, where
                mine = [action for action in legal if action["seat"] == who]
            assert all(offered_as_a_form(action, posted, region) for action in mine), (where, mine)
            if who != GM:  # and a seat's phone posts that seat's actions alone
                assert all(json.loads(action)["seat"] == who for action in posted), where
        states += 1
        if table.status == Table.Status.ACTIVE:
            table = play_random(table, 1, chooser)
        else:
            battles += 1
            table = army_table(world, seed * 100 + battles)


@pytest.mark.parametrize("name", JINJA_TEMPLATES)
def test_the_jinja_templates_are_the_jinja2_backends_alone(name):
    assert isinstance(get_template(name).backend, Jinja2)
    with pytest.raises(TemplateDoesNotExist):
        engines["django"].get_template(name)
    with pytest.raises(TemplateDoesNotExist):  # and no Django template is found by the Jinja2 backend
        engines["jinja2"].get_template(name.replace(".jinja", ".html"))


def test_quotes_are_escaped_as_django_escapes_them_and_a_missing_name_is_nothing():
    template = engines["jinja2"].from_string("{{ a }}|{{ b }}|{{ missing }}|{{ v.items }}")
    rendered = template.render({"a": 'O\'Neil "x" <b>', "b": None, "v": {"items": 3}})
    assert rendered == "O&#x27;Neil &quot;x&quot; &lt;b&gt;|None||3"
