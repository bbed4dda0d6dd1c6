"""What each seat may see of a GOT'M table, and the final outcome.

* A player sees their own hand and squad; of the opponent, the hand size only, and
  their squad face down until both squads are revealed.
* Everybody sees the shop's shown cards, the infirmaries (face up), the strings of
  ears, the graveyard and the spent resources (all seen face up in play, ruling),
  the revealed squads with wounds, artifacts, values and AP, and the pile sizes.
* Nobody but the GM sees the camp, the merchant or the bank (their order included).
* The GM sees everything and the choices of whoever decides; the public projector
  sees no hand and no choices.
* ``pick``: while a seat shops, that seat (and the GM) gets the cards it may tap in
  its hand and the shop cards to tap after them, each with the move it posts
  (``hire`` or ``buy_artifact`` with ``lost`` 0; recruit.py reads the picked cards).
* ``place``: while squads are formed, the cards each deciding seat may place next,
  as card faces with the ``deploy`` choice each one posts (one tap places one card,
  ruling M7), grouped by seat; a seat sees only its own, the GM every seat's.
* ``assault_pick``: while a Coordinated Assault is legal, the attacking seat (and the GM)
  gets its elites that can take part and the enemy's living cards, to tap and post as
  ``assault`` with ``picks`` (assault.py reads them, ruling M24).
* ``equip``: after the reveal, each artifact a deciding seat may equip with the squad
  cards it may go on (as card faces with the ``equip`` choice each one posts).

Event lines name cards (e.g. "Gnoll Brute (J♣)"), never ids, and never name a card
while it is face down.
"""

from __future__ import annotations

from ..kernel import GM, counted
from ..words import phrase
from . import battle, cards
from .game import legal_actions, to_act
from .labels import label

VISIBLE_EVENTS = 14

# The status line and the shop's tap labels (issue 41): English templates the page says in the reader's language.
GAME_OVER = phrase("Game over: %(result_words)s")
SHOPS = phrase("Round %(round)d · recruitment: %(name)s shops")
SQUADS_FACE_DOWN = phrase("Round %(round)d · combat: the players place their squads face down")
EQUIPPING = phrase("Round %(round)d · combat: squads revealed, artifacts may be equipped")
MAY_SHIELD = phrase("Round %(round)d · combat: %(name)s may shield the attacked card")
MAY_PICK_UP = phrase("Round %(round)d · combat: %(name)s may pick up a fallen artifact")
ATTACKS = phrase("Round %(round)d · combat: %(name)s attacks")
HIRE_MOVE = phrase("Hire the %(card)s, worth %(worth)d")
HIRE_PICKED = phrase("Hire the %(card)s, worth %(worth)d, with the cards picked (or swap the mercenary picked for it)")
BUY_MOVE = phrase("Buy the %(card)s, worth %(worth)d")
BUY_PICKED = phrase("Buy the %(card)s, worth %(worth)d, with the cards picked (or trade the artifact picked for it)")


def card_view(card):
    if card is None:
        return None
    return {"id": card, "name": cards.name(card), "short": cards.short(card), "race": cards.RACES[cards.suit(card)],
            "kind": cards.kind(card), "value": cards.value(card), "red": cards.suit(card) in "HD"}


def _sees_squad(state: dict, viewer, seat: int) -> bool:
    return viewer == GM or viewer == seat or state["phase"] not in ("squad",)


def _squad(state: dict, viewer, seat: int) -> dict:
    slots = []
    shown = _sees_squad(state, viewer, seat)
    for pos, s in enumerate(state["squads"][seat]):
        if not shown:
            slots.append({"pos": pos, "face_down": True})
            continue
        fighting = state["phase"] in ("equip", "combat")
        slots.append({
            "pos": pos, "face_down": False, "card": card_view(s["card"]), "wounded": s["wounded"],
            "dead": s["dead"], "pulled": s["pulled"], "artifact": card_view(s["artifact"]),
            "from_infirmary": s["infirmary"], "skin_used": s["skin"],
            "value": battle.value(state, seat, pos) if fighting and not s["dead"] else None,
            "ap": battle.ap(state, seat, pos) if fighting and not s["dead"] else None,
        })
    return {"seat": seat, "name": state["players"][seat], "slots": slots,
            "size": state["squad_size"][seat] if state["phase"] == "squad" else len(slots),
            "bonus": {cards.RACE_PLURALS[race]: n for race, n in state["bonus"][seat].items()}
            if state["revealed"] else {}}


def _turn_text(state: dict) -> str:
    phase, players = state["phase"], state["players"]
    if phase == "over":
        return GAME_OVER % {"result_words": state["result"]["reason"]}
    if phase == "recruit":
        return SHOPS % {"round": state["round"], "name": players[state["turn"]]}
    if phase == "squad":
        return SQUADS_FACE_DOWN % {"round": state["round"]}
    if phase == "equip":
        return EQUIPPING % {"round": state["round"]}
    pending = state["pending"]
    if pending and pending["kind"] == "shield":
        return MAY_SHIELD % {"round": state["round"], "name": players[pending["seat"]]}
    if pending:
        return MAY_PICK_UP % {"round": state["round"], "name": players[pending["seat"]]}
    return ATTACKS % {"round": state["round"], "name": players[state["turn"]]}


def _target(state: dict, shopper: int, card, kind: str) -> dict | None:
    if card is None:
        return None
    # "move" names the move alone: a kept tap's bar adds the cards picked (static/js/outbox.js, issue 38)
    if kind == "hire":
        values = {"card": cards.name(card), "worth": cards.value(card)}
        move, label = HIRE_MOVE % values, HIRE_PICKED % values
    else:
        values = {"card": cards.name(card), "worth": cards.ARTIFACT_VALUE}
        move, label = BUY_MOVE % values, BUY_PICKED % values
    return {"card": card_view(card), "label": label, "move": move,
            "action": {"type": kind, "seat": shopper, "card": card, "lost": 0}}


def _pick(state: dict, seat) -> dict | None:
    """The tap-to-pick shop for the shopping seat, seen by that seat and the GM: the cards of its hand and
    the shown cards to tap after them (a sold slot is None)."""
    shopper = state["turn"] if state["phase"] == "recruit" else None
    if shopper is None or seat not in (GM, shopper):
        return None
    shop = state["shop"]
    return {"seat": shopper, "name": state["players"][shopper],
            "mercenaries": [_target(state, shopper, card, "hire") for card in shop["mercenaries"]],
            "artifact": _target(state, shopper, shop["artifact"], "buy_artifact"),
            "hand": [card_view(c) for c in state["hands"][shopper]]}


def _tap_view(state: dict, seat: int, pos: int) -> dict:
    """A squad card to tap for a Coordinated Assault; no value to add up (the summary lists the picks)."""
    return {**card_view(state["squads"][seat][pos]["card"]), "value": ""}


def _assault_pick(state: dict, choices: list[dict]) -> dict | None:
    """The Coordinated Assault to compose by tapping (ruling M24): the attacker's elites that can take part
    and the enemy's living cards, for the attacking seat (or the GM) while an assault is legal."""
    assaults = [choice for choice in choices if choice["type"] == "assault"]
    if not assaults:
        return None
    seat = assaults[0]["seat"]
    elites = sorted({pos for choice in assaults for pos in choice["attackers"]})
    foe = 1 - seat
    return {"seat": seat, "name": state["players"][seat], "action": {"type": "assault", "seat": seat},
            "mine": [_tap_view(state, seat, pos) for pos in elites],
            "theirs": [_tap_view(state, foe, pos) for pos in battle.living(state, foe)]}


def _place(state: dict, choices: list[dict]) -> list[dict]:
    groups = []
    for index in (0, 1):
        mine = [choice for choice in choices if choice["type"] == "deploy" and choice["seat"] == index]
        if mine:
            groups.append({"seat": index, "name": state["players"][index],
                           "position": len(state["squads"][index]) + 1, "size": state["squad_size"][index],
                           "cards": [{"card": card_view(choice["card"]), "choice": choice,
                                      "wounded": choice["card"] in state["infirmary"][index]} for choice in mine]})
    return groups


def _equip(state: dict, choices: list[dict]) -> list[dict]:
    groups: dict[tuple, dict] = {}
    for choice in choices:
        if choice["type"] != "equip":
            continue
        index = choice["seat"]
        group = groups.setdefault((index, choice["card"]), {
            "seat": index, "name": state["players"][index], "artifact": card_view(choice["card"]), "wearers": []})
        group["wearers"].append({"card": card_view(state["squads"][index][choice["slot"]]["card"]), "choice": choice})
    return list(groups.values())


def view(state: dict, seat) -> dict:
    deciding = to_act(state)
    players = []
    for index, name in enumerate(state["players"]):
        hand = state["hands"][index]
        players.append({
            "seat": index, "name": name, "hand_count": len(hand), "is_dealer": index == state["dealer"],
            "hand": [card_view(c) for c in hand] if seat in (GM, index) else None,
            "infirmary": [card_view(c) for c in state["infirmary"][index]],
            "ears": [card_view(c) for c in state["ears"][index]],
            "ear_points": sum(cards.ear_points(c) for c in state["ears"][index]),
            "done": state["done"][index] if state["phase"] == "recruit" else False,
            "acting": index in deciding,
        })
    if seat == GM:
        choices = legal_actions(state)
    elif isinstance(seat, int) and seat in deciding:
        choices = [action for action in legal_actions(state) if action["seat"] == seat]
    else:
        choices = []
    result = state["result"]
    shop = state["shop"]
    labelled = [{**action, "label": label(state, action)} for action in choices]
    return {
        "game": "gotm", "viewer": seat, "phase": state["phase"], "round": state["round"],
        "dealer": state["dealer"], "to_act": deciding, "to_act_names": [state["players"][s] for s in deciding],
        "turn_text": _turn_text(state), "players": players,
        "hand": players[seat]["hand"] if isinstance(seat, int) and seat in (0, 1) else [],
        "shop": {"open": state["phase"] == "recruit",
                 "mercenaries": [card_view(c) for c in shop["mercenaries"]],
                 "artifact": card_view(shop["artifact"])},
        "piles": {"camp": len(state["camp"]), "merchant": len(state["merchant"]), "bank": len(state["bank"]),
                  "spent": [card_view(c) for c in state["spent"]],
                  "graveyard": [card_view(c) for c in state["graveyard"]]},
        "squads": [_squad(state, seat, index) for index in (0, 1)],
        "pending": state["pending"]["kind"] if state["pending"] else None,
        "choices": labelled,
        "pick": _pick(state, seat),
        "place": _place(state, labelled),
        "assault_pick": _assault_pick(state, labelled),
        "equip": _equip(state, labelled),
        "events": [counted(line) for line in state["events"][-VISIBLE_EVENTS:]],  # ruling PH9
        "score": None if result is None else {"rows": result["rows"], "winners": result["winners"],
                                              "reason": result["reason"]},
    }


def card_names(state: dict) -> dict[str, str]:
    """Every card of the game by id, with the name its lines use (the simulate checks look for names)."""
    return {card_id: cards.name(card_id) for card_id in cards.ALL_CARDS}


def hidden_from(state: dict, seat) -> list[str]:
    """Ids ``seat`` must not see: the piles, the other hand, an unrevealed enemy squad."""
    if seat == GM:
        return []
    hidden = list(state["camp"]) + list(state["merchant"]) + list(state["bank"])
    for index in (0, 1):
        if index == seat:
            continue
        hidden.extend(state["hands"][index])
        if not _sees_squad(state, seat, index):
            hidden.extend(s["card"] for s in state["squads"][index])
    return hidden


def outcome(state: dict):
    result = state["result"]
    if result is None:
        return None
    return {"winners": list(result["winners"]),
            "scores": {str(row["seat"]): row["total"] for row in result["rows"]},
            "reason": result["reason"], "rows": result["rows"]}
