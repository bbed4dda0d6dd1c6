"""The table pages' live region in Jinja2 (templates/jinja2/tabletop/live.jinja, issue 40), which includes the
Army Rules fragment and renders the other games' Django fragments with its context (tabletop/jinja.py).

Before the Django region (table.html's ``live`` partial and its includes) was deleted, its renders and the
Jinja2 one's were compared over random states of every game, for each seat, the GM and the public view, on
what-ifs, abandoned, finished and staked tables, with an error, undo notes, the undo question and computer
seats added: alike but for whitespace. Now this module asks of those same regions what the Django one gave:
the HTML parses, names no card hidden from its viewer, holds the GM's tools for the GM alone, every post form
carries the CSRF token, every id is the page's only one, and text is escaped as Django escapes it.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from django.template import engines

from tabletop import presenters, push
from tabletop.engines import get_engine
from tabletop.engines.kernel import GM, PUBLIC
from tabletop.services.abandon import table_abandon
from tabletop.services.forks import table_fork

from tests.cards import names_a_secret
from tests.tables import play_random
from tests.tabletop._coach import open_game
from tests.tabletop._html import parses
from tests.tabletop._stakes import open_staked, purse

pytestmark = pytest.mark.django_db
GAMES = ("army", "gridaris", "gotm", "mercenarium", "dungeon")
ERROR = "No <b>'quotes'</b> & \"more\""
# What the presenters add at some moments, added here to every viewer's context (the GM's alone renders some).
EXTRAS = (
    {},
    {"error": ERROR, "undo_notes": ["Ann's move", "Ben <i>"], "coach_offer": True},
    {"undo_confirm": {"seq": 3, "who": "Ann", "what": "Play <x>"}, "undo_refusal": "Nothing 'to' undo"},
    {
        "computers": [
            {"name": "Bot", "strength": "quick", "seat": 1},
            {"name": "Kim", "strength": "strong", "seat": 0},
        ],
        "thinking": [{"name": "Bot", "strength": "quick", "seat": 1}],
        "locked_seats": frozenset({1}),
        "locked_reason": "The computer plays it.",
    },
)
POST_FORM = re.compile(r"<form[^>]*method=\"post\".*?</form>", re.S)


def viewers_contexts(world, table):
    table.campaign = world.campaign
    made = {seat.index: presenters.seat_context(seat, table) for seat in table.seats.all()}
    made[GM] = presenters.gm_view_context(table, world.gm.pk)
    made[PUBLIC] = presenters.public_view_context(table, world.ben.pk)
    return made


def problems(world, table) -> list:
    """What is wrong with any viewer's region of ``table`` as it is, with each of EXTRAS."""
    found, engine = [], get_engine(table.game)
    for who, context in viewers_contexts(world, table).items():
        for n, extra in enumerate(EXTRAS):
            where = (table.game, table.status, table.version, who, n)
            region = push.shared_render(push.TABLE_REGION, {**context, **extra})
            found += [(where, error) for error in parses(region)]
            if who != GM and names_a_secret(engine, table.state, who, region) is not None:
                found.append((where, "names a hidden card"))
            if ("gm-tools" in region) != (who == GM):
                found.append((where, "the GM's tools"))
            if any(push.CSRF_PLACEHOLDER not in form for form in POST_FORM.findall(region)):
                found.append((where, "a post form without the CSRF token"))
            twice = [id for id, count in Counter(re.findall(r' id="([^"]+)"', region)).items() if count > 1]
            if twice:
                found.append((where, f"ids twice: {twice}"))
            if "error" in extra and "No &lt;b&gt;&#x27;quotes&#x27;&lt;/b&gt; &amp; &quot;more&quot;" not in region:
                found.append((where, "the error not escaped as Django escapes it"))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_viewers_region_of_every_game_parses_keeps_secrets_and_gives_the_gm_alone_its_tools(world, game):
    chooser, table, found = random.Random(3), open_game(world, game), []
    for _ in range(8):
        found += problems(world, table)
        table = play_random(table, 4, chooser)
    found += problems(world, table_fork(table_id=table.pk, version=table.version, user=world.gm.user, players=True))
    if table.status == "active":
        table = table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Rain <b>")
    found += problems(world, table)
    assert found == []


def test_a_staked_tables_region_as_it_opens_ends_and_is_abandoned(world):
    accounts = [purse(world.ann, 50), purse(world.ben, 50)]
    table = open_staked(world, [world.ann, world.ben], accounts)
    other = open_staked(world, [world.ann, world.ben], accounts, title="Other")
    found = problems(world, table)
    found += problems(world, play_random(table, 200, random.Random(1)))
    found += problems(world, table_abandon(table_id=other.pk, version=other.version, gm=world.gm.user, reason="Rain"))
    assert found == []


def test_a_django_fragment_in_the_jinja2_region_goes_on_numbering_the_rules_help(world):
    table = open_game(world, "gridaris")
    table.campaign = world.campaign
    context = presenters.gm_view_context(table, world.gm.pk)
    page = engines["jinja2"].from_string('{{ rules_help_terms("army") }}{{ django_fragment(game_template) }}')
    numbers = [int(n) for n in re.findall(r' id="rh-[\w-]+?-(\d+)"', page.render(context))]
    assert len(numbers) > 2 and numbers == sorted(set(numbers))
