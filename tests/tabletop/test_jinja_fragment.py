"""The Army Rules fragment in Jinja2 (templates/jinja2/tabletop/games/army.jinja, issue 40) says what the
Django fragment it replaces says, for every viewer of many random states."""

from __future__ import annotations

import random
import re

import pytest
from django.template import engines
from django.template.loader import get_template

from tabletop import presenters, push
from tabletop.engines import get_engine
from tabletop.engines.kernel import SeededRng
from tabletop.models import Table
from tabletop.services.tables import SeatSpec, table_create

from tests.tables import play_random

pytestmark = pytest.mark.django_db
JINJA = engines["django"].from_string('{% load jinja %}{% jinja "tabletop/games/army.jinja" %}')


def normalised(html: str) -> str:
    return re.sub(r">\s+", ">", re.sub(r"\s+<", "<", re.sub(r"\s+", " ", html))).strip()


def army_table(world, seed: int) -> Table:
    config = get_engine("army").random_config(SeededRng(seed))
    specs = [SeatSpec(guest_name=f"Guest {n}") for n in range(len(config["players"]))]
    return table_create(campaign=world.campaign, game="army", title="Jinja", config=config, seats=specs, seed=seed)


def contexts(world, table: Table) -> dict[str, dict]:
    table.campaign = world.campaign
    made = {f"seat {seat.index}": presenters.seat_context(seat, table) for seat in table.seats.all()}
    made["gm"] = presenters.gm_view_context(table, world.gm.pk)
    made["public"] = presenters.public_view_context(table, world.ben.pk)
    return {who: {**context, "csrf_token": push.CSRF_PLACEHOLDER} for who, context in made.items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_jinja_fragment_says_what_the_django_fragment_said(world, seed):
    """40 states of random battles (a new battle when one ends, its last state included), each viewer's."""
    django, chooser, battles, states = get_template("tabletop/games/army.html"), random.Random(seed), 0, 0
    table = army_table(world, seed)
    while states < 40:
        for who, context in contexts(world, table).items():
            assert normalised(JINJA.render(context)) == normalised(django.render(context)), (who, table.version)
        states += 1
        if table.status == Table.Status.ACTIVE:
            table = play_random(table, 1, chooser)
        else:
            battles += 1
            table = army_table(world, seed * 100 + battles)
