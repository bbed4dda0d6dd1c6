"""Every choice the deciding seat has right now, each with a human label for its button.

Steps and their actions (``seat`` is the deciding seat):

* ``choose_first``: ``{"type": "choose_first", "first": 0|1}``
* ``power`` (a power's own decision): ``{"type": "power", "power": key, ...}``, and
  ``{"type": "decline"}`` unless the decision is compulsory (Oathbound designation,
  Dervish target)
* ``offense``: ``{"type": "play", "card": id[, "role": r]}``, ``{"type": "pass"}``,
  ``{"type": "ritual", "card": id[, "target": id]}``, power uses (Cleric)
* ``defense``: ``play`` or ``pass``
* ``react`` (a reaction window): ``{"type": "discard", "card": id, "ability": i,
  "side": s | "target": id}``, ``ritual``, power uses (Evoker, Illusionist,
  Etherealist, Cleric), ``decline``
* ``heal``: ``{"type": "heal", "healer": id, "card": id[, "shapeshift": true]}``, ``decline``
* ``save``: ``{"type": "save", "pay": "favor"|"influence"|"morale"}``, ``{"type": "accept"}``
* ``dice`` (seat ``"gm"``, physical dice): ``{"type": "roll", "values": [...]}`` -- any
  values are accepted; ``legal_actions`` lists a handful of combinations.

GM overrides are never listed here (seat_view.py describes them for the GM).
"""

from __future__ import annotations

from . import lines
from .aftermath import PAYMENTS, heal_choices, save_options
from .common import SIDES, name, other, playable
from .dice import needed, roll_choices
from .effects import heal_targets, ritual_refusal, ritual_targets
from .powers import POWERS, power_of

MANDATORY = {("oathbound", "designate"), ("dervish", "target"), ("illusionist", "assign")}


def _title(role: str) -> str:
    return role.title()


def play_options(state: dict, seat: int, where: str) -> list[tuple[dict, str]]:
    cards, found = state["cards"], []
    power = power_of(state, seat)
    for card_id in playable(state, seat):
        card = cards[card_id]
        found.append(({"type": "play", "seat": seat, "card": card_id},
                      lines.PLAY[where] % {"card": card["name"], "strength": card["strength"],
                                           "role": _title(card["role"])}))
        for role in power.play_roles(state, seat, card_id):
            found.append(({"type": "play", "seat": seat, "card": card_id, "role": role},
                          lines.PLAY_AS[where, "an" if role[0] in "aeiou" else "a"] % {
                              "card": card["name"], "role": _title(role), "power": power.title}))
    return found


def ritual_options(state: dict, seat: int) -> list[tuple[dict, str]]:
    cards, found = state["cards"], []
    for card_id in state["piles"][seat]["hand"]:
        if cards[card_id]["role"] != "ritual" or ritual_refusal(state, seat, card_id):
            continue
        for target in ritual_targets(state, seat, card_id):
            action = {"type": "ritual", "seat": seat, "card": card_id}
            label = lines.PLAY_RITUAL % {"card": cards[card_id]["name"]}
            if target is not None:
                action["target"] = target
                label = lines.PLAY_RITUAL_DISABLING % {"card": cards[card_id]["name"], "name": name(state, other(seat)),
                                                       "target": cards[target]["name"]}
            found.append((action, label))
    return found


def discard_options(state: dict, seat: int) -> list[tuple[dict, str]]:
    cards, skirmish, found = state["cards"], state["skirmish"], []
    present = [side for side in SIDES if skirmish[side]]
    mine = [side for side in present if cards[skirmish[side]["card"]]["owner"] == seat]
    for card_id in state["piles"][seat]["hand"]:
        card = cards[card_id]
        for index, ability in enumerate(card["abilities"]):
            base = {"type": "discard", "seat": seat, "card": card_id, "ability": index}
            if ability["kind"] == "discard_bonus":
                sides = {"either": present, "own": mine, "enemy": [s for s in present if s not in mine]}[
                    ability["target"]]
                for side in sides:
                    unit = cards[skirmish[side]["card"]]["name"]
                    found.append(({**base, "side": side},
                                  lines.DISCARD_BONUS[side] % {"card": card["name"], "unit": unit,
                                                               "amount": f"{ability['amount']:+d}"}))
            elif ability["kind"] == "discard_heal":
                for target in heal_targets(state, seat, ability["max_strength"]):
                    found.append(({**base, "target": target},
                                  lines.DISCARD_HEAL % {"card": card["name"], "target": cards[target]["name"]}))
    return found


def reaction_options(state: dict, seat: int) -> list[tuple[dict, str]]:
    """The reactions ``seat`` could use in the open window (declining not included)."""
    stage = state["skirmish"]["window"]["stage"]
    return (discard_options(state, seat) + ritual_options(state, seat)
            + power_of(state, seat).options(state, seat, stage))


def options(state: dict) -> list[tuple[dict, str]]:
    """(action, label) for every legal action now."""
    step = state["step"]
    if step is None or state["phase"] == "over":
        return []
    kind, seat = step["kind"], step["seat"]
    decline = ({"type": "decline", "seat": seat}, lines.DECLINE)
    if kind == "dice":
        return [(action, lines.ENTER % {"values": ", ".join(str(v) for v in action["values"])})
                for action in roll_choices(step)]
    if kind == "choose_first":
        return [({"type": "choose_first", "seat": seat, "first": first},
                 lines.TAKES_FIRST % {"name": name(state, first)}) for first in (0, 1)]
    if kind == "power":
        power = POWERS[step["power"]]
        found = power.options(state, seat, "step", step["stage"])
        return found if (power.key, step["stage"]) in MANDATORY else found + [decline]
    if kind == "offense":
        return (play_options(state, seat, "Offense") + [({"type": "pass", "seat": seat}, lines.PASS_OFFENSE)]
                + ritual_options(state, seat) + power_of(state, seat).options(state, seat, "offense"))
    if kind == "defense":
        return play_options(state, seat, "Defense") + [
            ({"type": "pass", "seat": seat}, lines.PASS_DEFENSE)]
    if kind == "react":
        return reaction_options(state, seat) + [(decline[0], lines.DECLINE_REACT)]
    if kind == "heal":
        cards = state["cards"]
        found = []
        for healer, target, shifted in heal_choices(state, seat):
            action = {"type": "heal", "seat": seat, "healer": healer, "card": target}
            if shifted:
                action["shapeshift"] = True
            found.append((action, (lines.HEAL_SHIFTED if shifted else lines.HEAL) % {
                "healer": cards[healer]["name"], "card": cards[target]["name"]}))
        return found + [(decline[0], lines.HEAL_NO_MORE)]
    if kind == "save":
        card_name = state["cards"][step["card"]]["name"]
        return [({"type": "save", "seat": seat, "pay": pay},
                 lines.SAVE % {"pay_words": PAYMENTS[pay], "card": card_name})
                for pay in save_options(state, seat)] + [
            ({"type": "accept", "seat": seat}, lines.LET_KILLED % {"card": card_name})]
    return []  # pragma: no cover - every step kind is listed above


def real_options(state: dict) -> list[dict]:
    """The options that are more than declining or passing (for GM-override refreshes)."""
    step = state["step"]
    if step["kind"] in ("offense", "defense"):
        return [a for a, _ in options(state) if a["type"] == "play"]
    return [a for a, _ in options(state) if a["type"] not in ("decline", "pass", "accept")]


def dice_needed(state: dict) -> list[dict]:
    step = state["step"]
    if not step or step["kind"] != "dice":
        return []
    return [{"label": label} for label in needed(step)]
