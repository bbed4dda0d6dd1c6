"""Recovery in GOT'M: the winner cleans the battlefield, then the bank pays for losses.

* The winner's dead go to the common graveyard; the loser's dead (their whole squad)
  go to the winner's string of ears.
* The winner loots every artifact the loser dropped or wore; the winner's own dropped
  artifacts go back to the winner's hand (ruling).
* Surviving cards: healthy ones (and their artifacts) go back to the hand; wounded
  ones go to the winner's infirmary (face up, their artifacts to the hand).
* Cards in the infirmary from the previous round are healed and go back to the hand
  (a card that fought from the infirmary and survives wounded stays there, ruling).
* One by one, starting with the loser, each player is dealt one bank card for each
  card they lost (artifacts excepted); an empty bank is rebuilt from the shuffled
  spent resources.
* The loser shops and attacks first in the next round.
"""

from __future__ import annotations

from ..words import phrase
from . import cards
from .common import draw_from_bank, event, other, player

WINS_ROUND = phrase("%(name)s wins round %(round)d.")
LOOTS = phrase("%(name)s loots the %(card)s.")
HEALED = phrase("%(name)s's wounded from the last round are healed.")
NOTHING_TO_DEAL = phrase("The bank and the spent pile are empty: no more cards to deal.")
RECEIVES = phrase("%(name)s receives %(n)d card(s) from the bank.")
# The same line as a view shows it, its "card(s)" made to agree (kernel.counted, ruling PH9).
RECEIVES_ONE = phrase("%(name)s receives 1 card from the bank.")
RECEIVES_MANY = phrase("%(name)s receives %(n)d cards from the bank.")


def end_round(state: dict, rng) -> None:
    winner = state.pop("round_winner")
    loser = other(winner)
    hands = state["hands"]
    event(state, WINS_ROUND % {"name": player(state, winner), "round": state["round"]})
    lost = [0, 0]
    new_wounded = []
    for s in state["squads"][winner]:
        if s["artifact"]:
            hands[winner].append(s["artifact"])
        if s["dead"]:
            state["graveyard"].append(s["card"])
            lost[winner] += 1
        elif s["wounded"]:
            new_wounded.append(s["card"])
        else:
            hands[winner].append(s["card"])
    for s in state["squads"][loser]:
        state["ears"][winner].append(s["card"])
        lost[loser] += 1
        if s["artifact"]:
            hands[winner].append(s["artifact"])
            event(state, LOOTS % {"name": player(state, winner), "card": cards.name(s["artifact"])})
    for seat in (0, 1):
        if state["infirmary"][seat]:
            hands[seat].extend(state["infirmary"][seat])
            event(state, HEALED % {"name": player(state, seat)})
    state["infirmary"] = [[], []]
    state["infirmary"][winner] = cards.sorted_cards(new_wounded)
    state["squads"] = [[], []]
    state["bonus"] = [{}, {}]
    state["fallen"] = [{}, {}]
    state["revealed"] = False
    owed = list(lost)
    received = [0, 0]
    seat = loser
    while owed[0] + owed[1] > 0:
        if owed[seat]:
            card = draw_from_bank(state, rng)
            if card is None:
                event(state, NOTHING_TO_DEAL)
                break
            hands[seat].append(card)
            owed[seat] -= 1
            received[seat] += 1
        seat = other(seat)
    for who in (loser, winner):
        if received[who]:
            event(state, RECEIVES % {"name": player(state, who), "n": received[who]})
    for who in (0, 1):
        hands[who] = cards.sorted_cards(hands[who])
    state["first"] = loser
    state["round"] += 1
