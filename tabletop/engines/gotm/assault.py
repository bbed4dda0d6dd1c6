"""A Coordinated Assault composed by tapping cards (issue 15, ruling M24).

The phone posts ``assault`` with ``picks``: the ids of the cards tapped, the seat's two
elites and the enemy's card(s). ``read_picks`` turns them into the listed assault
(``attackers`` and ``targets`` as positions): one target means both elites focus on it;
two targets can pair with the elites either way, and when both pairings are legal the
move is refused with both offered as buttons; when one is legal it is taken. Picks that
make no legal assault are refused with a sentence saying why (``PickRefused``: the picks
stay picked, nothing changes). A picked card that is not on the battlefield, face up, is
never named. An assault without ``picks`` (a listed button, a logged action) is applied
as before.
"""

from __future__ import annotations

from ..words import Words, chain, gettext_noop
from . import battle, cards, combat
from .common import other
from .labels import label
from .recruit import PickRefused


class AssaultChoice(PickRefused):
    """Two pairings of the picked cards are legal: the player taps the one meant."""

    def __init__(self, message: str, picked: list[str], choices: list[dict], /, **params):
        super().__init__(message, picked, **params)
        self.offer["choices"] = choices


def _where(state: dict, card: str):
    for seat in (0, 1):
        for pos, slot in enumerate(state["squads"][seat]):
            if slot["card"] == card:
                return seat, pos
    return None


def _name(card: str) -> str:
    return cards.name(card)


def read_picks(state: dict, action: dict) -> dict:
    """The listed assault the picked cards make, or a refusal (``PickRefused``) saying why."""
    seat, picks = action["seat"], list(action["picks"])
    foe = other(seat)
    refuse = lambda message, **params: PickRefused(message, picks, **params)  # noqa: E731
    if len(set(picks)) != len(picks):
        raise refuse(gettext_noop("A card was picked twice: tap each card once."))
    mine, theirs = [], []
    for card in picks:
        found = _where(state, card)
        if found is None or not state["revealed"]:
            raise refuse(gettext_noop("A picked card is not on the battlefield: tap two of your elites, then the "
                                      "enemy's card or cards to attack."))
        (mine if found[0] == seat else theirs).append(found[1])
    squad, enemy = state["squads"][seat], state["squads"][foe]
    for pos in mine:
        slot = squad[pos]
        if slot["dead"]:
            raise refuse(gettext_noop("The %(card)s is dead and cannot attack."), card=_name(slot["card"]))
        if not cards.is_advanced(slot["card"]):
            raise refuse(gettext_noop("The %(card)s is not an elite: a Coordinated Assault takes two elites "
                                      "(6 to 9) of one race."), card=_name(slot["card"]))
        if slot["pulled"]:
            raise refuse(gettext_noop("The %(card)s is pulled back: it has made its main attack."),
                         card=_name(slot["card"]))
    if len(mine) != 2:
        raise refuse(gettext_noop("Tap two of your ready elites of one race (you picked %(picked)s), then the "
                                  "enemy's card or cards."), picked=len(mine))
    a, b = sorted(mine)
    if cards.suit(squad[a]["card"]) != cards.suit(squad[b]["card"]):
        raise refuse(gettext_noop("The %(first)s and the %(second)s are not of one race: a Coordinated Assault "
                                  "takes two elites of the same race."),
                     first=_name(squad[a]["card"]), second=_name(squad[b]["card"]))
    for pos in theirs:
        if enemy[pos]["dead"]:
            raise refuse(gettext_noop("The %(card)s is already dead: tap a living enemy card."),
                         card=_name(enemy[pos]["card"]))
    if not theirs:
        raise refuse(gettext_noop("Tap the enemy card to focus on, or two enemy cards to attack both."))
    if len(theirs) > 2:
        raise refuse(gettext_noop("You picked %(picked)s enemy cards: a Coordinated Assault hits one card or two."),
                     picked=len(theirs))
    if len(theirs) == 1:
        pairings = [[theirs[0], theirs[0]]]
    else:
        pairings = [list(theirs), list(reversed(theirs))]
    listed = [c for c in combat.attack_legal(state) if c["type"] == "assault" and c["attackers"] == [a, b]]
    legal = [c for c in listed if c["targets"] in pairings]
    if len(legal) == 1:
        return legal[0]
    if len(legal) == 2:
        choices = [{**c, "label": label(state, c)} for c in legal]
        raise AssaultChoice(gettext_noop("Both elites can take either target: tap which elite attacks which card."),
                            picks, choices)
    why = _why_not(state, seat, (a, b), theirs)
    raise refuse(why.message, **why.params)


def _why_not(state: dict, seat: int, attackers, theirs: list[int]) -> Words:
    """Why no pairing of these attackers with these targets is legal (ruling M13's tank sentence)."""
    foe = other(seat)
    enemy = state["squads"][foe]
    tanks = [pos for pos in battle.living(state, foe) if cards.is_tank(enemy[pos]["card"])]
    if tanks and not set(theirs) & set(tanks):
        names = chain([_name(enemy[pos]["card"]) for pos in tanks], gettext_noop("%(first)s or the %(rest)s"))
        return Words(gettext_noop("While the enemy has a tank, one target must be a tank: the %(names)s."),
                     names=names)
    for target in set(theirs) & set(tanks):
        alone = any(battle.can_kill(state, battle.ap(state, seat, pos), foe, target) for pos in attackers)
        if not alone:
            return Words(gettext_noop("Neither elite can kill the %(card)s alone, so both must attack it: "
                                      "tap only that card."), card=_name(enemy[target]["card"]))
    return Words(gettext_noop("These picks make no Coordinated Assault the rules allow."))
