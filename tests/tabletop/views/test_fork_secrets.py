"""What-ifs keep the original's secrets (issue 22; rulings WI3, WI10, WI11).

A fork's seats belong to the same people as the original's; a GM-only fork (the real deal) opens on no
seat link; a players' fork deals anew what none of its people could see, draws and rolls from a fresh
seed, and gives its log to its seats only once it and its original are over. The attacks of the issue
(replay a fork's log with Muster's engine; predict the real table's dice from a fork) are tried here.
"""

import random
import re

import pytest
from django.urls import reverse

from tabletop.engines import ENGINES, get_engine
from tabletop.engines.kernel import GM, IllegalAction, SeededRng
from tabletop.engines.replay import LOG_VERSION, replay_log
from tabletop.engines.sight import hidden_ids_shown, sight
from tabletop.engines.simulate import check_state
from tabletop.models import Seat, Table, TableAction
from tabletop.selectors import table_log
from tabletop.services.abandon import table_abandon
from tabletop.services.forks import dealt_anew, log_entries, table_fork
from tabletop.services.seats import seat_set_bot
from tabletop.services.tables import SeatSpec, table_create, table_play, table_release_log, table_undo

from tests.cards import names_card
from tests.factories import army_table
from tests.forms import once
from tests.tables import play_next, play_random
from tests.tabletop._computer import open_table as bot_table

pytestmark = pytest.mark.django_db


def seat_url(seat: Seat, name: str = "tabletop:seat_table") -> str:
    return reverse(name, args=[seat.token])


# --- 1. a fork's seats belong to the same people ------------------------------------------------------


def test_fork_seats_belong_to_the_same_people_members_guests_and_the_computer(world):
    table = bot_table(world, [world.ann, ("Computer", "strong")])
    for players in (False, True):
        fork = table_fork(table_id=table.pk, version=0, user=world.gm.user, players=players)
        seats = list(fork.seats.order_by("index"))
        originals = list(table.seats.order_by("index"))
        assert [seat.membership_id for seat in seats] == [seat.membership_id for seat in originals]
        assert [seat.name for seat in seats] == [seat.name for seat in originals]
        assert [seat.bot for seat in seats] == ["", "strong"]
        assert all(seat.stake_account_id is None for seat in seats)
        assert {seat.token for seat in seats}.isdisjoint({seat.token for seat in originals})


def test_a_members_fork_seat_opens_with_that_members_login_only_and_the_gm_page_shows_no_code_for_it(
    client, world, table
):
    table = play_next(play_next(table))
    fork = table_fork(table_id=table.pk, version=table.version, user=world.gm.user, players=True)
    ann_seat = fork.seats.get(index=0)
    page = client.get(seat_url(ann_seat))
    assert page.status_code == 302 and "login" in page["Location"]  # no hand for whoever scans a link
    client.force_login(world.ben.user)
    assert client.get(seat_url(ann_seat)).status_code in (403, 404)
    client.force_login(world.ann.user)
    assert client.get(seat_url(ann_seat)).status_code == 200
    client.force_login(world.gm.user)
    gm_page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, fork.pk])).content.decode()
    assert 'class="qr"' not in gm_page  # members open their seat from the campaign page


def test_a_members_seat_list_marks_a_players_what_if_and_leaves_out_a_gm_only_one(client, world, table):
    players = table_fork(table_id=table.pk, version=0, user=world.gm.user, players=True)
    gm_only = table_fork(table_id=table.pk, version=0, user=world.gm.user)
    client.force_login(world.ann.user)
    home = client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    assert seat_url(players.seats.get(index=0)) in home
    assert seat_url(gm_only.seats.get(index=0)) not in home
    assert re.search(r'badge what-if">What-if</span> <a href="' + re.escape(seat_url(players.seats.get(index=0))), home)
    assert list(Table.objects.counted()) == [table]


# --- 2. the original's secrets --------------------------------------------------------------------------


def test_a_gm_only_forks_seats_open_on_no_link_and_its_gm_page_shows_none(client, world, table):
    table = play_next(table)
    fork = table_fork(table_id=table.pk, version=1, user=world.gm.user)
    assert fork.gm_only and fork.setup_draws == table.setup_draws  # the real deal, for the GM alone
    guest = Seat.objects.create(table=fork, index=5, guest_name="Scanner")  # even a guest seat
    for seat in [*fork.seats.filter(index__lt=2), guest]:
        for name in ("tabletop:seat_table", "tabletop:seat_poll", "tabletop:seat_log"):
            client.force_login(world.ann.user) if seat.membership_id else client.logout()
            response = client.get(seat_url(seat, name))
            assert response.status_code == 403, (name, seat.index)
            assert "Only the GM plays this what-if" in response.content.decode()
    client.force_login(world.gm.user)
    gm_page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, fork.pk])).content.decode()
    assert 'class="qr"' not in gm_page and "/play/" not in gm_page and "only you play this what-if" in gm_page


def test_attack_replaying_a_players_forks_log_gives_none_of_the_originals_hidden_cards(client, world):
    table = bot_table(world, [world.ann, ("Computer", "quick")])  # Ann against the computer
    table = play_random(table, 5, random.Random(5))
    real = table.state
    fork = table_fork(table_id=table.pk, version=table.version, user=world.gm.user, players=True)

    log = table_log(fork)
    assert log["version"] == LOG_VERSION == 2
    assert not {"config", "setup_draws", "setup_digest"} & set(log)
    start = replay_log(log).state
    engine = get_engine("gridaris")
    assert engine.view(start, 0) == engine.view(real, 0)  # Ann sees what she saw
    assert start["hands"][1] != real["hands"][1]  # the computer's hand: dealt anew
    assert start["decks"] != real["decks"]  # and the piles' order
    assert sorted(start["hands"][1] + start["decks"]["silver"] + start["decks"]["gold"]) == sorted(
        real["hands"][1] + real["decks"]["silver"] + real["decks"]["gold"])

    fork = play_next(fork)  # undo inside the fork goes back to its own start
    fork = table_undo(table_id=fork.pk, version=fork.version, user=world.gm.user)
    assert fork.state == start and replay_log(table_log(fork)).mismatches == []


def test_a_players_forks_log_waits_for_the_fork_and_its_original_to_be_over(client, world, table):
    table = play_next(play_next(table))
    fork = table_fork(table_id=table.pk, version=2, user=world.gm.user, players=True)
    again = table_fork(table_id=fork.pk, version=0, user=world.gm.user, players=True)
    client.force_login(world.ben.user)
    for what_if in (fork, again):
        table_abandon(table_id=what_if.pk, version=what_if.version, gm=world.gm.user, reason="Seen enough")
        response = client.get(seat_url(what_if.seats.get(index=1), "tabletop:seat_log"))
        assert response.status_code == 403 and "the table it was forked from is over" in response.content.decode()
    with pytest.raises(IllegalAction, match="forked from is over"):
        table_release_log(table_id=again.pk)
    table = Table.objects.get(pk=table.pk)
    table_abandon(table_id=table.pk, version=table.version, gm=world.gm.user, reason="Home time")
    for what_if in (fork, again):
        response = client.get(seat_url(what_if.seats.get(index=1), "tabletop:seat_log"))
        assert response.status_code == 200 and response.json()["table"]["what_if"]["dealt_anew"] is True


@pytest.mark.parametrize("players", [False, True])
def test_attack_dice_in_a_fork_do_not_predict_the_originals_next_dice(world, players):
    """Before each move of the real battle, fork it there and make the same move in the fork first: its
    dice must not be the dice the real table then rolls."""
    table = army_table(world.campaign, ["Ann", "Ben"], seed=11)
    engine, chooser, both = get_engine("army"), random.Random(7), []
    while table.status == Table.Status.ACTIVE and len(both) < 4:
        action = dict(chooser.choice(engine.legal_actions(table.state)))
        seat = action.pop("seat")
        fork = table_fork(table_id=table.pk, version=table.version, user=world.gm.user, players=players)
        assert fork.seed != table.seed
        fork = table_play(table_id=fork.pk, seat=seat, action=action, version=fork.version).table
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
        real, what_if = (TableAction.objects.get(table=t, seq=t.version).draws for t in (table, fork))
        if real:
            both.append((real, what_if))
    assert len(both) >= 3, f"too few rolls to compare: {both}"
    assert sum(real == what_if for real, what_if in both) < len(both) / 2, both


def test_a_players_fork_deals_the_cards_nobody_saw_anew_so_its_shop_tells_nothing_of_the_next_draws(world):
    table = table_create(
        campaign=world.campaign, game="gotm", title="Shop", config=get_engine("gotm").random_config(SeededRng(1)),
        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)], seed=4,
    )
    table = play_random(table, 4, random.Random(3))
    fork = table_fork(table_id=table.pk, version=table.version, user=world.gm.user, players=True)
    engine = get_engine("gotm")
    for seat in (0, 1):
        assert engine.view(fork.state, seat) == engine.view(table.state, seat)
    assert fork.state["camp"] != table.state["camp"] or fork.state["bank"] != table.state["bank"]


# --- 3. the moves a table can be forked at ----------------------------------------------------------------


def test_a_version_without_a_log_entry_is_refused_with_a_sentence_and_the_page_offers_only_moves(
    client, world, table
):
    table = play_next(table)  # move 1
    table = seat_set_bot(table_id=table.pk, index=1, bot="quick", version=table.version, user=world.gm.user)
    assert table.version == 2 and not TableAction.objects.filter(table=table, seq=2).exists()
    table = seat_set_bot(table_id=table.pk, index=1, bot="", version=table.version, user=world.gm.user)
    table = play_next(table)  # move 4
    with pytest.raises(IllegalAction, match="logged no move 2"):
        table_fork(table_id=table.pk, version=2, user=world.gm.user)
    client.force_login(world.gm.user)
    url = reverse("tabletop:table_fork", args=[world.campaign.slug, table.pk])
    response = client.post(url, once(version=3))
    assert response.status_code == 400 and "logged no move 3" in response.content.decode()
    box = client.get(reverse("tabletop:table_whatif", args=[world.campaign.slug, table.pk])).content.decode()
    assert re.findall(r'name="version" value="(\d+)"', box) == ["4", "1", "0"]
    assert "from 0 to" not in box
    assert table_fork(table_id=table.pk, version=4, user=world.gm.user).version == 2
    assert not Table.objects.filter(forked_at__in=[2, 3]).exists()


# --- 4. the list names what was played --------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_what_if_list_names_each_move_as_the_gm_saw_it(world, game):
    engine = get_engine(game)
    table = table_create(
        campaign=world.campaign, game=game, title="Named", config=engine.random_config(SeededRng(4)),
        seats=[SeatSpec(guest_name=f"Guest {n}") for n in range(len(engine.random_config(SeededRng(4))["players"]))],
        seed=4,
    )
    chooser, labels = random.Random(4), {}
    for _ in range(8):
        if table.status != Table.Status.ACTIVE:
            break
        state = table.state
        action = dict(chooser.choice(engine.legal_actions(state)))
        seat = action.pop("seat")
        choices = engine.view(state, GM).get("choices") or engine.view(state, seat).get("choices") or []
        labels[table.version + 1] = {c.get("label") for c in choices if isinstance(c, dict)}
        table = table_play(table_id=table.pk, seat=seat, action=action, version=table.version).table
    entries, total = log_entries(table, {})
    assert total == len(entries) == len(labels)
    for entry in entries:  # the choice's label, else the lines the move added: never its bare type
        assert entry["what"] in labels[entry["seq"]] or len(entry["what"].split()) >= 3, (game, entry)


def test_a_hire_is_named_with_its_card(client, world):
    table = table_create(
        campaign=world.campaign, game="gotm", title="Shop", config=get_engine("gotm").random_config(SeededRng(1)),
        seats=[SeatSpec(guest_name="Ann"), SeatSpec(guest_name="Ben")], seed=4,
    )
    hire = next(a for a in get_engine("gotm").legal_actions(table.state) if a["type"] == "hire")
    table = table_play(table_id=table.pk, seat=hire["seat"], version=0,
                       action={k: v for k, v in hire.items() if k != "seat"}).table
    client.force_login(world.gm.user)
    box = client.get(reverse("tabletop:table_whatif", args=[world.campaign.slug, table.pk])).content.decode()
    assert re.search(r"Move 1: (Ann|Ben) · Hire [^<]+\([^<]+\) with ", box), box[box.find("Move 1"):][:200]


# --- 5. random players' forks of every game: no seat sees a card hidden from it at the original -------------


def fork_points(engine, seed: int, points: int = 3):
    rng, chooser = SeededRng(seed), SeededRng(f"choices-{seed}")
    state = engine.setup(engine.random_config(chooser), rng)
    found = []
    for step in range(3000):
        if engine.outcome(state) is not None:
            break
        if chooser.randint(0, 9) == 0:
            found.append((step, state))
        state = engine.apply(state, chooser.choice(engine.legal_actions(state)), rng)
    stride = max(1, len(found) // points)
    return found[::stride][:points]


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_random_players_forks_keep_each_seats_view_and_hold_nothing_else_of_the_original(game):
    engine = get_engine(game)
    pick = random.Random(game)
    compared = 0
    for seed in (1, 2, 3):
        for step, state in fork_points(engine, seed):
            players = list(range(len(state["players"])))
            people = sorted(pick.sample(players, pick.randint(0, len(players))))  # the rest: the computer
            new = dealt_anew(game, state, people, seed * 1000 + step)
            where = f"{game} seed {seed} step {step} people {people}"
            assert engine.invariants(new) == [], where
            assert check_state(engine, new, where) == []
            for seat in people:
                assert engine.view(new, seat) == engine.view(state, seat), where
                assert hidden_ids_shown(sight(engine, new, seat)) == [], where
            # The fork's start (its log's ``start_state``) is made of what its people saw and fresh cards only:
            # any other state they could not tell from the original gives the very same start.
            other = engine.redeal(state, people, SeededRng(f"another-{seed}-{step}"))
            assert dealt_anew(game, other, people, seed * 1000 + step) == new, where
            compared += 1
    assert compared >= 4


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_seat_of_a_random_players_fork_sees_no_hidden_card_and_can_download_no_log(client, world, game):
    engine = get_engine(game)
    config = engine.random_config(SeededRng(6))
    people = [SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)]
    specs = (people + [SeatSpec(guest_name=f"Guest {n}") for n in range(2, 6)])[: len(config["players"])]
    specs[-1] = SeatSpec(guest_name="Computer", bot="quick")
    table = table_create(campaign=world.campaign, game=game, title="Random", config=config, seats=specs, seed=6)
    table = play_random(table, random.Random(game).randint(2, 12), random.Random(f"{game}-moves"))
    fork = table_fork(table_id=table.pk, version=table.version, user=world.gm.user, players=True)
    Table.objects.filter(pk=fork.pk).update(status=Table.Status.FINISHED)  # over: only its original runs
    humans = [seat.index for seat in fork.seats.order_by("index") if not seat.bot]
    for seat in fork.seats.filter(bot=""):
        secret = set(engine.hidden_from(table.state, seat.index)) - set(engine.view(table.state, seat.index))
        if seat.membership_id:
            client.force_login(seat.membership.user)
        else:
            client.logout()
        page = client.get(seat_url(seat)).content.decode()
        # What each person saw is kept (dealt_anew checks it before it settles); what the rules then decide
        # again on the new cards may move the fork on (ruling WI13: the computer may now be Unable).
        assert fork.state == dealt_anew(game, table.state, humans, fork.seed)
        shown = [card for card in engine.hidden_from(table.state, seat.index)
                 if card in secret and names_card(_text(page), card)]
        assert shown == [], (game, seat.index, shown[:3])
        response = client.get(seat_url(seat, "tabletop:seat_log"))
        assert response.status_code == 403 and "the table it was forked from is over" in response.content.decode()


def _text(page: str) -> str:
    """The page without its scripts and tags' URLs: where a card id would show."""
    return re.sub(r"<script.*?</script>|<[^>]+>", " ", page, flags=re.S)
