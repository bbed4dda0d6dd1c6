"""The dungeon's words on a phone (issue 15, docs/rulings.md PH2): the deciding seat is told it is their
decision, the status line says what the table waits for, and every button says what it does."""

import re

import pytest
from django.urls import reverse

from tabletop.engines import get_engine
from tabletop.engines.kernel import GM
from tabletop.services.tables import SeatSpec, table_create

from tests.tables import play_next

pytestmark = pytest.mark.django_db
BARE = {"Here", "Move", "Retaliate", "Ranged attack", "End turn", "Take the hit", "Do not retaliate", "OK"}


@pytest.fixture
def dungeon_table(world):
    return table_create(campaign=world.campaign, game="dungeon", title="Distelblute Mansion",
                        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
                        config={"mode": "competitive", "variant": "pairs"}, seed=5)


def seat_page(client, world, table, index) -> str:
    client.force_login([world.ann, world.ben][index].user)
    return client.get(reverse("tabletop:seat_table", args=[table.seats.get(index=index).token])).content.decode()


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def status_line(html: str) -> str:
    return text(re.search(r'<p class="status"[^>]*>(.*?)</p>', html, re.S).group(1))


def buttons(html: str) -> list[str]:
    return [text(b) for b in re.findall(r"<button[^>]*>(.*?)</button>", html, re.S)]


def test_the_deciding_phone_says_it_is_your_decision_and_the_other_phone_waits_for_them(client, world, dungeon_table):
    decider = get_engine("dungeon").to_act(dungeon_table.state)[0]
    name = dungeon_table.seats.get(index=decider).name
    mine = seat_page(client, world, dungeon_table, decider)
    theirs = seat_page(client, world, dungeon_table, 1 - decider)
    assert f"Waiting for <strong>{name}</strong>" not in mine and f"Waiting for {name}" not in text(mine)
    assert "Your decision:" in text(mine) and "Your decision:" not in text(theirs)
    assert f"Waiting for {name}:" in text(theirs)


def test_the_status_line_says_what_the_table_waits_for(client, world, dungeon_table):
    decider = get_engine("dungeon").to_act(dungeon_table.state)[0]
    line = status_line(seat_page(client, world, dungeon_table, decider))
    assert re.search(r"Your decision: \w.+ \(area 1, turn \d+\) · move 0$", line), line
    other = status_line(seat_page(client, world, dungeon_table, 1 - decider))
    assert "Waiting for " in other and "(area 1, turn" in other, other


def test_the_gm_is_told_whose_decision_it_is(client, world, dungeon_table):
    decider = get_engine("dungeon").to_act(dungeon_table.state)[0]
    name = dungeon_table.seats.get(index=decider).name
    assert get_engine("dungeon").view(dungeon_table.state, GM)["turn_text"].startswith(f"{name} to decide: ")
    client.force_login(world.gm.user)
    html = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, dungeon_table.pk])).content.decode()
    assert f"{name} to decide: " in status_line(html) and "Your decision" not in text(html)


def test_every_button_says_what_it_does_through_the_opening_turns(client, world, dungeon_table):
    engine = get_engine("dungeon")
    table, seen = dungeon_table, set()
    for _ in range(40):
        acting = engine.to_act(table.state)
        if not acting:
            break
        html = seat_page(client, world, table, acting[0])
        labels = buttons(html)
        assert not BARE & set(labels), [label for label in labels if label in BARE]
        assert all(labels), "a button without words"
        assert "Your decision:" in text(html)
        view = engine.view(table.state, acting[0])
        for choice in view["choices"]:
            seen.add(choice["type"])
            if choice["type"] in ("move", "attack", "end_turn", "retaliate", "decline", "take", "to"):
                pending = table.state["pending"] or {}
                merc = table.state["mercs"][choice.get("merc", pending.get("merc", table.state["current"]))]
                assert merc["name"] in choice["label"], choice["label"]
        table = play_next(table)
    assert {"place", "enter", "lead"} <= seen
    assert {"move", "end_turn"} & seen, seen  # the test reached a mercenary's own turn


@pytest.mark.parametrize("seed", [3, 8])
def test_no_choice_is_a_bare_word_in_random_games(seed):
    """Seeded random play well past the opening: every choice a seat is offered says what it does, and the
    deciding seat's status always reads "Your decision"."""
    import random

    from tabletop.engines.kernel import SeededRng

    engine, rng, pick = get_engine("dungeon"), SeededRng(seed), random.Random(seed)
    state = engine.setup({"players": ["Ann", "Ben", "Cy"], "mode": "competitive"}, rng)
    kinds = set()
    for _ in range(400):
        acting = engine.to_act(state)
        if not acting:
            break
        for seat in acting:
            view = engine.view(state, seat)
            assert view["turn_text"].startswith("Your decision: "), view["turn_text"]
            assert not BARE & {choice["label"] for choice in view["choices"]}
            kinds |= {choice["type"] for choice in view["choices"]}
        seat = acting[0]
        action = pick.choice([a for a in engine.legal_actions(state) if a["seat"] == seat])
        state = engine.apply(state, {k: v for k, v in action.items() if k != "label"}, rng)
    assert {"move", "end_turn", "attack"} <= kinds, kinds
