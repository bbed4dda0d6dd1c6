"""Setup, who acts, legal actions and apply for Mercenaries (GOT'M).

Setup (the dealer is ``config["dealer"]``, else the series game number modulo 2, so
dealership alternates between games of a series): the mercenaries, resources and
artifacts are sorted into three piles and each is shuffled (or taken in the order of
``config["decks"]``, for tests and physical decks). The dealer deals one mercenary
face down to each player, starting with the opponent; the rest is the camp. The
artifacts are the Goblin merchant. Ten resources are dealt one by one to each player,
starting with the opponent; the rest is the Goblin bank. Then round one begins with
recruitment (recruit.py), combat (combat.py, battle.py) and recovery (recovery.py).

``apply`` accepts exactly the actions ``legal_actions`` lists (payments compare as
sets); anything else is refused with a sentence. A payment may also come as cards
picked on a phone, with the loss the player agreed to (``lost``): recruit.py reads
them, says why a payment cannot be made, and asks before a loss (rulings M1, M22,
M23). A Coordinated Assault may come as the cards tapped (``picks``): assault.py
reads them (ruling M24). Rulings: docs/rulings.md.
"""

from __future__ import annotations

from .. import kernel
from ..kernel import GM, IllegalAction
from ..shapes import TEXT, WHOLE, checked, list_of, optional
from ..words import gettext_noop, phrase
from . import assault, cards, combat, recovery, recruit
from .common import event, has_mercenary, other, player

VERSION = 1
PHASES = ("recruit", "squad", "equip", "combat", "over")
HAND_RESOURCES = 10
ACTION_TYPES = ("hire", "sell_hire", "swap", "buy_artifact", "swap_artifact", "skip", "done", "deploy",
                "equip", "ready", "attack", "lightning", "assault", "shield", "no_shield", "pick_up", "leave")

DEALS = phrase("%(name)s deals.")


def validate(config: dict) -> dict:
    if not isinstance(config, dict):
        raise IllegalAction(gettext_noop("The game options must be a set of fields."))
    players = config.get("players") or ["Player 1", "Player 2"]
    if len(players) != 2:
        raise IllegalAction(gettext_noop("Mercenaries is a game for exactly two players."))
    series_game = config.get("series_game", 0)
    if not isinstance(series_game, int) or series_game < 0:
        raise IllegalAction(gettext_noop("The series game number must be 0 or more."))
    dealer = config.get("dealer", series_game % 2)
    if dealer not in (0, 1):
        raise IllegalAction(gettext_noop("The dealer must be seat 0 or seat 1."))
    decks = config.get("decks")
    if decks is not None:
        expected = {"mercenaries": cards.MERCENARIES, "resources": cards.RESOURCES, "artifacts": cards.ARTIFACTS}
        for key, pile in expected.items():
            if sorted(decks.get(key, [])) != sorted(pile):
                raise IllegalAction(SCRIPTED_PILES[key])
    return {"players": [str(name) for name in players], "series_game": series_game, "dealer": dealer,
            "decks": decks}


def setup(config: dict, rng) -> dict:
    clean = validate(config)
    decks = clean["decks"]
    if decks:
        mercenaries, resources, artifacts = (list(decks[key]) for key in ("mercenaries", "resources", "artifacts"))
    else:
        mercenaries = rng.shuffled(cards.MERCENARIES)
        resources = rng.shuffled(cards.RESOURCES)
        artifacts = rng.shuffled(cards.ARTIFACTS)
    dealer = clean["dealer"]
    order = (other(dealer), dealer)
    hands: list[list[str]] = [[], []]
    for seat in order:
        hands[seat].append(mercenaries.pop(0))
    for _ in range(HAND_RESOURCES):
        for seat in order:
            hands[seat].append(resources.pop(0))
    state = {
        "v": VERSION, "game": "gotm", "players": clean["players"], "series_game": clean["series_game"],
        "dealer": dealer, "round": 1, "first": other(dealer), "turn": None,
        "camp": mercenaries, "merchant": artifacts, "bank": resources, "spent": [], "graveyard": [],
        "hands": [cards.sorted_cards(hand) for hand in hands], "infirmary": [[], []], "ears": [[], []],
        "shop": {"mercenaries": [None] * recruit.SHOP_SIZE, "artifact": None},
        "phase": "recruit", "done": [False, False], "squads": [[], []], "squad_size": [0, 0],
        "ready": [False, False], "revealed": False, "bonus": [{}, {}], "fallen": [{}, {}],
        "pending": None, "events": [], "result": None,
    }
    event(state, DEALS % {"name": player(state, dealer)})
    recruit.start(state)
    return state


def to_act(state: dict) -> list:
    phase = state["phase"]
    if phase == "recruit":
        return [state["turn"]]
    if phase == "squad":
        return [seat for seat in (0, 1) if len(state["squads"][seat]) < state["squad_size"][seat]]
    if phase == "equip":
        return [seat for seat in (0, 1) if not state["ready"][seat]]
    if phase == "combat":
        return [state["pending"]["seat"] if state["pending"] else state["turn"]]
    return []


def legal_actions(state: dict) -> list[dict]:
    phase = state["phase"]
    if phase == "recruit":
        return recruit.legal(state)
    if phase == "squad":
        return combat.squad_legal(state)
    if phase == "equip":
        return combat.equip_legal(state)
    if phase == "combat":
        return combat.pending_legal(state) if state["pending"] else combat.attack_legal(state)
    return []


def settle(state: dict, rng) -> dict:
    """What the rules decide at the start of a turn, decided again on cards dealt anew (the contract's
    ``settle``; a what-if, ruling WI13): the player to shop who has no mercenary and can now pay for none
    ends the game (M4, ``recruit.check_forced``, as when a shopping turn comes). Nothing else of GOT'M is
    decided without a move on what a redeal changes: it keeps how many cards of each kind a hand holds."""
    new = kernel.thaw(state)
    if new["phase"] == "recruit":
        recruit.check_forced(new)
    return new


def _normal(action: dict) -> dict:
    clean = {key: value for key, value in action.items() if key not in ("label", "lost")}
    if isinstance(clean.get("pay"), list):
        clean["pay"] = sorted(clean["pay"], key=str)
    return clean


def _seat(state: dict, action: dict) -> int:
    raw = action.get("seat")
    if raw == GM:
        raise IllegalAction(
            gettext_noop("Say which player's seat this move is for; the GM enters moves on a player's behalf."))
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw)
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise IllegalAction(gettext_noop("%(raw)r is not a seat number."), raw=raw)
    if raw not in (0, 1):
        raise IllegalAction(gettext_noop("There is no seat %(seat)s at this table."), seat=raw)
    return raw


# Why a move of a kind the player may make now is refused, by kind.
REFUSALS = {
    "hire": gettext_noop("You cannot hire that way: pick a shown mercenary and pay with resources of its race "
                         "worth at least its value, with no card you could leave out."),
    "sell_hire": gettext_noop("You cannot sell and hire that way: sell one artifact from your hand and add "
                              "resources of the mercenary's race to reach its value."),
    "swap": gettext_noop("You can only swap a mercenary from your hand for a shown one of lower or equal value."),
    "buy_artifact": gettext_noop("You cannot buy the artifact that way: pay 10 with resources of its race."),
    "swap_artifact": gettext_noop("You can only trade an artifact from your hand for the shown one."),
    "deploy": gettext_noop("You cannot place that card: it must come from your hand or infirmary, and the squad "
                           "needs a mercenary."),
    "equip": gettext_noop("An artifact goes on a living card of its race that wears no artifact."),
    "attack": gettext_noop("That attack is not allowed: use a card that has not attacked yet, hit a tank while "
                           "one stands, and cleave a card next to the target."),
    "lightning": gettext_noop("Only a spellcaster ready to attack can hurl Chain Lightning."),
    "assault": gettext_noop("A Coordinated Assault needs two ready elites of one race, and a tank neither can "
                            "kill alone draws both attacks."),
    "shield": gettext_noop("A shield must be a living basic unit next to the attacked card."),
    "pick_up": gettext_noop("Only a living ally of the artifact's race next to the fallen wearer can pick it up."),
    "skip": gettext_noop("You cannot skip that way now."),
    "done": gettext_noop("You cannot done that way now."),
    "ready": gettext_noop("You cannot ready that way now."),
    "no_shield": gettext_noop("You cannot no shield that way now."),
    "leave": gettext_noop("You cannot leave that way now."),
}

# Why a move of a kind the player may not make at all now is refused, by kind.
NOT_NOW = {
    "hire": gettext_noop("You cannot hire now."),
    "sell_hire": gettext_noop("You cannot sell hire now."),
    "swap": gettext_noop("You cannot swap now."),
    "buy_artifact": gettext_noop("You cannot buy artifact now."),
    "swap_artifact": gettext_noop("You cannot swap artifact now."),
    "skip": gettext_noop("You cannot skip now."),
    "done": gettext_noop("You cannot done now."),
    "deploy": gettext_noop("You cannot deploy now."),
    "equip": gettext_noop("You cannot equip now."),
    "ready": gettext_noop("You cannot ready now."),
    "attack": gettext_noop("You cannot attack now."),
    "lightning": gettext_noop("You cannot lightning now."),
    "assault": gettext_noop("You cannot assault now."),
    "shield": gettext_noop("You cannot shield now."),
    "no_shield": gettext_noop("You cannot no shield now."),
    "pick_up": gettext_noop("You cannot pick up now."),
    "leave": gettext_noop("You cannot leave now."),
}

# A scripted deck (tests, physical decks) that is not the pile it stands for.
SCRIPTED_PILES = {
    "mercenaries": gettext_noop("The scripted mercenaries pile must hold each of its cards once."),
    "resources": gettext_noop("The scripted resources pile must hold each of its cards once."),
    "artifacts": gettext_noop("The scripted artifacts pile must hold each of its cards once."),
}


ACTION_SHAPES = {
    "hire": {"card": TEXT, "pay": list_of(TEXT), "lost": optional(WHOLE)},
    "sell_hire": {"artifact": TEXT, "card": TEXT, "pay": list_of(TEXT), "lost": optional(WHOLE)},
    "swap": {"give": TEXT, "card": TEXT},
    "buy_artifact": {"card": TEXT, "pay": list_of(TEXT), "lost": optional(WHOLE)},
    "swap_artifact": {"give": TEXT, "card": TEXT},
    "skip": {}, "done": {}, "ready": {}, "no_shield": {},
    "deploy": {"card": TEXT},
    "equip": {"card": TEXT, "slot": WHOLE},
    "attack": {"attacker": WHOLE, "target": WHOLE, "cleave": optional(WHOLE)},
    "lightning": {"attacker": WHOLE},
    "assault": {"attackers": optional(list_of(WHOLE)), "targets": optional(list_of(WHOLE)),
                "picks": optional(list_of(TEXT))},
    "shield": {"shield": WHOLE, "target": WHOLE},
    "pick_up": {"from": WHOLE, "to": WHOLE},
    "leave": {"from": WHOLE},
}


def _stalling(state: dict, wanted: dict) -> IllegalAction | None:
    return recruit.stall_refusal(state, wanted) if state["phase"] == "recruit" else None


@checked(ACTION_SHAPES, "Mercenaries (GOT'M)")
def apply(state: dict, action: dict, rng) -> dict:
    if not isinstance(action, dict):
        raise IllegalAction(gettext_noop("An action must be a set of fields with a type."))
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise IllegalAction(gettext_noop("Unknown action type %(kind)r; Mercenaries knows %(types)s."), kind=kind,
                            types=", ".join(ACTION_TYPES))
    if state["phase"] == "over":
        raise IllegalAction(gettext_noop("The game is over."))
    seat = _seat(state, action)
    deciding = to_act(state)
    if seat not in deciding:
        names = [player(state, s) for s in deciding]
        if len(names) == 1:
            raise IllegalAction(gettext_noop("It is %(name)s's turn, not yours."), name=names[0])
        raise IllegalAction(gettext_noop("It is %(first)s and %(second)s's turn, not yours."), first=names[0],
                            second=names[1])
    wanted = {**action, "seat": seat}
    agreed = wanted.get("lost")
    if state["phase"] == "recruit":
        wanted = recruit.read_picked(state, wanted)
        kind = wanted["type"]
    elif kind == "assault" and wanted.get("picks") is not None:
        if state["phase"] != "combat" or state["pending"]:
            raise IllegalAction(gettext_noop("You cannot launch a Coordinated Assault now."))
        wanted = assault.read_picks(state, wanted)
    wanted = _normal(wanted)
    legal = [candidate for candidate in legal_actions(state) if candidate["seat"] == seat]
    match = next((candidate for candidate in legal if _normal(candidate) == wanted), None)
    if match is None:
        if kind in recruit.PAYING and state["phase"] == "recruit":
            refusal = recruit.payment_refusal(state, wanted)
            if refusal:
                picked = wanted.get("pay", []) + ([wanted["artifact"]] if kind == "sell_hire" else [])
                raise recruit.PickRefused(refusal.message, picked, **refusal.params)
        if not any(candidate["type"] == kind for candidate in legal):
            if state["phase"] == "recruit" and not has_mercenary(state, seat):
                raise IllegalAction(gettext_noop("You have no mercenary left, so you must recruit one: hire a shown "
                                                 "mercenary (selling an artifact toward it if you like)."))
            raise _stalling(state, wanted) or IllegalAction(NOT_NOW[kind])
        raise _stalling(state, wanted) or IllegalAction(REFUSALS[kind])
    if kind in recruit.PAYING and agreed is not None:
        recruit.confirm_loss(state, match, agreed)
    new = kernel.thaw(state)
    wanted = kernel.round_trip(match)
    phase = new["phase"]
    if phase == "recruit":
        recruit.execute(new, wanted)
    elif phase == "squad":
        combat.deploy(new, wanted)
    elif phase == "equip":
        combat.equip(new, wanted)
    elif new["pending"]:
        combat.answer(new, wanted)
    else:
        combat.declare(new, wanted)
    if new["phase"] == "recovery":
        recovery.end_round(new, rng)
        recruit.start(new)
    return new
