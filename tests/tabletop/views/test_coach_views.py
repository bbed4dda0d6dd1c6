"""The coach at the table (issue 27, rulings CO1-CO3): who is offered "What would the computer do?", who is
refused, what the answer shows (three moves with whole percents, named from the seat's view, never a card
hidden from it, for every game), the GM's switch, and the request's queries.

The search runs with a small iteration budget (``BOT_BUDGET``), so each answer is quick and seeded."""

from __future__ import annotations

import html
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from armies.services.battle_tables import battle_table_open
from campaign.ledger import ledger_post
from campaign.models import Activity, LedgerEntry
from campaign.services import account_create
from tabletop.bots import BotError
from tabletop.computer import coach as coach_module
from tabletop.computer import coach_search
from tabletop.engines import get_engine
from tabletop.engines.gridaris.starter import STARTER_CARDS
from tabletop.models import Seat, Stake, Table
from tabletop.services.abandon import table_abandon
from tabletop.services.coach import STAKES_REAL
from tabletop.services.forks import table_fork
from tabletop.services.stakes import StakeTerms, table_open_with_stakes
from tabletop.services.tables import SeatSpec

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.cards import names_a_secret
from tests.factories import gridaris_table
from tests.tables import play_next
from tests.tabletop._coach import CHANCE, HX, ask, open_game, to_a_seats_turn, token

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_coach")]
BUTTON = 'id="coach-ask"'
GAMES = ("army", "gridaris", "gotm", "mercenarium", "dungeon")


def page(client, table: Table, index: int) -> str:
    return client.get(reverse("tabletop:seat_table", args=[token(table, index)])).content.decode()


def not_to_act(table: Table) -> int:
    acting = get_engine(table.game).to_act(table.state)
    return next(index for index in range(len(table.state["players"])) if index not in acting)


# --- offered and answered -------------------------------------------------------------------------


def test_a_practice_tables_seat_to_act_is_offered_the_coach_and_gets_three_moves_with_percents(client, world):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    assert table.coach
    assert BUTTON in page(client, table, seat)
    assert BUTTON not in page(client, table, not_to_act(table))
    answer = ask(client, table, seat)
    assert answer.status_code == 200
    text = answer.content.decode()
    assert len(re.findall(r"<li>", text)) == 3
    assert len(CHANCE.findall(text)) == 3 and all(0 <= int(p) <= 100 for p in CHANCE.findall(text))
    assert "Place " in text and html.escape(coach_module.ESTIMATE) in text


def test_asking_twice_gives_the_same_answer_and_costs_one_search(client, world, monkeypatch):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    searches = []
    search = coach_search.search
    monkeypatch.setattr(coach_search, "search", lambda *a, **k: searches.append(a) or search(*a, **k))
    first, second = ask(client, table, seat), ask(client, table, seat)
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert len(searches) == 1
    cache.clear()  # the same version asked again from nothing: the seed gives the same answer
    assert ask(client, table, seat).content == first.content and len(searches) == 2


def test_the_seed_is_the_tables_seed_version_and_seat():
    assert coach_module.coach_seed(7, 3, 1) == "7:coach:3:1"
    assert len({coach_module.coach_seed(7, 3, 1), coach_module.coach_seed(7, 4, 1), coach_module.coach_seed(7, 3, 0),
                coach_module.coach_seed(8, 3, 1)}) == 4


@pytest.mark.parametrize("game", GAMES)
def test_the_coachs_answer_names_no_card_hidden_from_the_seat(client, world, game):
    """The sight test through the page: the answer's HTML names no card the asking seat cannot see."""
    table, seat = to_a_seats_turn(open_game(world, game))
    answer = ask(client, table, seat)
    assert answer.status_code == 200, answer.content
    text = answer.content.decode()
    assert 'class="coach-moves"' in text
    assert names_a_secret(get_engine(game), table.state, seat, text) is None


def test_a_what_if_played_by_the_players_offers_the_coach(client, world):
    original = open_game(world, "gridaris")
    for _ in range(3):
        original = play_next(original)
    Table.objects.filter(pk=original.pk).update(coach=False)
    fork = table_fork(table_id=original.pk, version=original.version, user=world.gm.user, players=True)
    assert fork.coach and fork.what_if
    fork, seat = to_a_seats_turn(Table.objects.get(pk=fork.pk))
    assert BUTTON in page(client, fork, seat)
    assert ask(client, fork, seat).status_code == 200


def test_a_what_if_only_the_gm_plays_opens_no_seat_to_ask_from(client, world):
    original, seat = to_a_seats_turn(open_game(world, "gridaris"))
    fork = table_fork(table_id=original.pk, version=original.version, user=world.gm.user)
    assert fork.gm_only and fork.coach
    assert ask(client, fork, seat).status_code == 403


# --- never offered, refused -----------------------------------------------------------------------


def test_a_table_where_the_gm_has_not_allowed_it_offers_nothing_and_refuses(client, world):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    Table.objects.filter(pk=table.pk).update(coach=False)
    assert BUTTON not in page(client, table, seat)
    answer = ask(client, table, seat)
    assert answer.status_code == 403
    assert coach_module.NOT_ALLOWED in answer.content.decode()


def staked_table(world) -> Table:
    accounts = []
    for member in (world.ann, world.ben):
        account = account_create(campaign=world.campaign, name=f"{member.display_name}'s purse", owner=member)
        ledger_post(account=account, amount=50, kind=LedgerEntry.Kind.OPENING, reason="Opening", day=1)
        accounts.append(account)
    return table_open_with_stakes(
        campaign=world.campaign, game="gridaris", title="At the Inn",
        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
        config={"mode": "standard", "cards": STARTER_CARDS},
        stakes=StakeTerms(entry_fee=10, payout=Stake.Payout.WINNER_TAKES_ALL,
                          accounts={account.owner_id: account for account in accounts}),
        created_by=world.gm.user, seed=7,
    )


def test_a_staked_table_opens_without_the_coach(client, world):
    table, seat = to_a_seats_turn(staked_table(world))
    assert not table.coach
    member = world.ann if seat == 0 else world.ben
    client.force_login(member.user)
    assert BUTTON not in page(client, table, seat)
    assert ask(client, table, seat).status_code == 403


def test_a_battle_opens_without_the_coach(client, world):
    """A battle's result reaches the armies: its seats are not offered the coach unless the GM allows it."""
    sides = []
    for member, name in ((world.ann, "Lady Vey"), (world.ben, "Lord Marr")):
        commander = CommanderFactory(membership=member, name=name, role="aggressor", path="steel")
        sides.append((commander, [ArmyUnitFactory(commander=commander, card=UnitCardFactory(strength=s))
                                  for s in (3, 2)]))
    (vey, vey_units), (marr, marr_units) = sides
    battle = battle_table_open(attacker=vey, defender=marr, attacker_units=vey_units, defender_units=marr_units,
                               opened_by=world.gm.user, seed=11)
    table, seat = to_a_seats_turn(battle.table)
    assert not table.coach
    client.force_login((world.ann if seat == 0 else world.ben).user)
    assert BUTTON not in page(client, table, seat)
    assert ask(client, table, seat).status_code == 403


def test_a_seat_not_to_act_is_refused(client, world):
    table, _seat = to_a_seats_turn(open_game(world, "gridaris"))
    answer = ask(client, table, not_to_act(table))
    assert answer.status_code == 400
    assert coach_module.NOT_YOUR_TURN in answer.content.decode()


def test_a_page_that_moved_on_is_refused_as_stale(client, world):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    answer = ask(client, table, seat, version=table.version - 1)
    assert answer.status_code == 409
    assert coach_module.MOVED_ON in answer.content.decode()


def test_a_computers_seat_has_no_link_to_ask_from(client, world):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    Seat.objects.filter(table=table, index=seat).update(bot="normal")
    assert ask(client, table, seat).status_code == 404


def test_a_person_whose_turn_the_computer_plays_is_not_offered_it(client, world):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    Seat.objects.filter(table=table, index=seat).update(bot="normal")
    assert BUTTON not in page(client, table, not_to_act(table))


def test_another_members_seat_link_is_refused(client, world):
    table, seat = to_a_seats_turn(gridaris_table(world.campaign, [world.ann, world.ben]))
    other = world.ben if seat == 0 else world.ann
    client.force_login(other.user)
    answer = ask(client, table, seat)
    assert answer.status_code in (403, 404)
    assert b"coach-moves" not in answer.content


@pytest.mark.parametrize("how", ["finished", "abandoned"])
def test_a_table_not_in_play_offers_nothing_and_refuses(client, world, how):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    if how == "abandoned":
        table_abandon(table_id=table.pk, version=table.version, reason="Closing time", gm=world.gm.user)
    else:
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert BUTTON not in page(client, table, seat)
    answer = ask(client, table, seat)
    assert answer.status_code == 400
    assert coach_module.OVER in answer.content.decode()


def test_a_state_the_computer_cannot_play_is_answered_with_its_sentence(client, world, monkeypatch):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))

    def cannot(*args, **kwargs):  # raised in the search's process, handed back to the request
        raise BotError("This game hides cards the computer cannot deal anew.")

    monkeypatch.setattr(coach_search, "search", cannot)
    answer = ask(client, table, seat)
    assert answer.status_code == 400
    assert "cannot deal anew" in answer.content.decode()


# --- the GM's switch ------------------------------------------------------------------------------


def switch(client, table: Table, on: bool, **extra):
    table.refresh_from_db()
    url = reverse("tabletop:gm_coach", args=[table.campaign.slug, table.pk])
    return client.post(url, {"coach": "on" if on else "off", "version": table.version, **extra}, **HX)


def test_the_gm_stops_and_allows_the_coach_and_every_page_moves_on(client, world):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    client.force_login(world.gm.user)
    gm_page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert 'id="coach-off"' in gm_page
    version = table.version
    assert switch(client, table, False).status_code == 200
    table.refresh_from_db()
    assert not table.coach and table.version == version + 1
    assert BUTTON not in page(client, table, seat)
    assert Activity.objects.filter(summary__contains="may no longer ask the computer").count() == 1
    assert switch(client, table, True).status_code == 200
    table.refresh_from_db()
    assert table.coach and BUTTON in page(client, table, seat)


def test_switching_the_coach_on_at_a_staked_table_needs_the_gms_word_that_the_stakes_are_real(client, world):
    table = staked_table(world)
    client.force_login(world.gm.user)
    gm_page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert 'name="stakes_real"' in gm_page and "The stakes here are real" in gm_page
    refused = switch(client, table, True)
    assert refused.status_code == 400 and STAKES_REAL in refused.content.decode()
    table.refresh_from_db()
    assert not table.coach
    assert switch(client, table, True, stakes_real="1").status_code == 200
    table.refresh_from_db()
    assert table.coach
    assert Activity.objects.filter(summary__contains="(the stakes are real)").count() == 1


def test_a_move_made_meanwhile_does_not_refuse_the_gms_switch(client, world):
    """The switch means the same whatever the game did since the GM's page was drawn: a computer's move (or a
    player's) in between is no reason to refuse it (a GOT'M table with a quick computer moved before the GM's
    first tap, and the walk in tests/test_browser_newcomer_walk.py waited in vain for the switch)."""
    table = open_game(world, "gridaris")
    seen = table.version
    table = play_next(table)  # someone moves while the GM's page still shows ``seen``
    client.force_login(world.gm.user)
    url = reverse("tabletop:gm_coach", args=[world.campaign.slug, table.pk])
    answer = client.post(url, {"coach": "off", "version": seen}, **HX)
    assert answer.status_code == 200, answer.content.decode()[:300]
    table.refresh_from_db()
    assert not table.coach and table.version == seen + 2
    assert 'id="coach-on"' in answer.content.decode()


def test_a_repeated_switch_changes_it_once_and_a_player_cannot_switch_it(client, world):
    table = open_game(world, "gridaris")
    client.force_login(world.gm.user)
    first = switch(client, table, False)
    version = Table.objects.get(pk=table.pk).version
    url = reverse("tabletop:gm_coach", args=[world.campaign.slug, table.pk])
    again = client.post(url, {"coach": "off", "version": version - 1}, **HX)
    assert first.status_code == again.status_code == 200
    assert Table.objects.get(pk=table.pk).version == version
    client.force_login(world.ann.user)
    assert switch(client, table, True).status_code in (403, 404)
    assert not Table.objects.get(pk=table.pk).coach


# --- queries --------------------------------------------------------------------------------------


def test_the_coach_request_costs_a_fixed_number_of_queries(client, world, django_assert_max_num_queries):
    table, seat = to_a_seats_turn(open_game(world, "gridaris"))
    table.refresh_from_db()
    url = reverse("tabletop:seat_coach", args=[token(table, seat)])
    with django_assert_max_num_queries(2):  # the seat by its token, the table's state
        answer = client.post(url, {"version": table.version}, **HX)
    assert answer.status_code == 200 and 'class="coach-moves"' in answer.content.decode()
    with django_assert_max_num_queries(1):  # asked again: the cached answer
        again = client.post(url, {"version": table.version}, **HX)
    assert again.status_code == 200 and again.content == answer.content
