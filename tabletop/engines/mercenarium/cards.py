"""STARTER DATA for Mercenarium, designed by the Muster project -- NOT official.

The Anthromancer deck's aura dots and most hymn texts are not public. This module
holds an invented catalog of the right shape so the game plays out of the box; the
admin may edit and import both (MercenariumCard, MercenariumHymn).

Cards: 56 = four suits (Claws "C", Souls "S", Gears "G", Blades "B") x values 2-14
(J=11, Q=12, K=13, A=14) plus one Lord (value 15) per suit. Aura dots are listed
top, right, bottom, left, relative to the owner, 0-5 each. "Higher face value means a
greater number of aura dots": a value-v card (2-14) has v+2 dots in all (2 -> 4 ...
Ace -> 16), so the total rises with every step and no edge ever loses a dot as the value
rises. The suit's strong edge holds the most, strictly (Blades right/east, Claws
bottom/south, Souls left/west, Gears top/north); the rest is spread as evenly as it goes
over the other three edges, the opposite edge never above the two flanks. Lords have none
(ruling MC1, the amended "Aura dots").

Hymns: 15, each an ``effect`` built from the primitives in ``PRIMITIVES``. Only three
texts come from the rulebook: I. Fireyes' and VII. Primary's Singularity effects and
XIII. Zodiac's roll. Every other effect, Fireyes' and Primary's normal effects included,
is STARTER DATA and says so in its text (ruling MC2).
"""

from __future__ import annotations

SUITS = {"C": "Claws", "S": "Souls", "G": "Gears", "B": "Blades"}
STRONG_EDGE = {"G": 0, "B": 1, "C": 2, "S": 3}  # index into top, right, bottom, left
VALUE_LABELS = {11: "J", 12: "Q", 13: "K", 14: "A", 15: "L"}
VALUE_NAMES = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace", 15: "Lord"}
MERCENARY_VALUES = range(11, 15)

# Effect primitives a hymn's ``effect`` may use (the admin describes hymns with these).
PRIMITIVES = {
    "draw": ("Draw `count` cards from the deck (and `hymns` hymns from the hymnal); "
             "extras over the hand limit are shuffled back."),
    "look_hymns": "Look at the top `count` hymns, keep one to use now or hold, shuffle the rest back.",
    "search": "Search the deck for any one card, take it into your hand and shuffle the deck.",
    "roll_as": "Roll the 12-sided die and act as the hymn with that number; this hymn stays in hand face up.",
    "return_to_hand": ("Return one `whose` (own/enemy) card in play, value at most `max_value` "
                       "(15 lets Lords go too), to its owner's hand."),
    "take_control": ("Take control of one enemy card in play valued `min_value`-`max_value` "
                     "(not under contract); it turns to face you."),
    "leap": ("Move one of your cards exactly `distance` squares in a straight line onto an empty square, "
             "jumping over anything."),
    "protect": "One of your cards cannot be captured, annihilated or bought until your next turn.",
    "swap_places": "Two of your cards in play swap squares.",
    "refresh_capture": "Turn one of your spent captures face down again (it can be spent once more).",
    "summon_near_house": ("Summon a card from your hand onto your empty House or an empty square next to it, "
                          "ignoring suit and value."),
    "banish": ("Discard one enemy card in play valued at most `max_value` that touches one of your cards; "
               "nobody scores."),
    "salvage": "Take any non-hymn card from the discard pile into your hand.",
}


def _aura(suit: str, value: int) -> list[int]:
    """STARTER DATA: value + 2 dots; the strong edge is the smallest count that can stay strictly above the rest."""
    if value == 15:
        return [0, 0, 0, 0]
    total = value + 2
    strong_dots = min(5, -(-(total + 3) // 4))  # ceil((total + 3) / 4): the others fit below it
    rest = total - strong_dots
    base, extra = divmod(rest, 3)
    strong = STRONG_EDGE[suit]
    dots = [0, 0, 0, 0]
    dots[strong] = strong_dots
    dots[(strong + 1) % 4] = base + (extra >= 1)
    dots[(strong + 3) % 4] = base + (extra >= 2)
    dots[(strong + 2) % 4] = base
    return dots


def card_name(suit: str, value: int) -> str:
    return f"{VALUE_NAMES.get(value, str(value))} of {SUITS[suit]}"


def _card(suit: str, value: int) -> dict:
    return {"id": f"{suit}{value:02d}", "suit": suit, "value": value, "name": card_name(suit, value),
            "aura": _aura(suit, value)}


STARTER_CARDS: list[dict] = [_card(suit, value) for suit in SUITS for value in range(2, 16)]

_H = [
    (1, "Fireyes", {"primitive": "draw", "count": 2, "singularity": {"primitive": "draw", "count": 5}},
     "Draw two cards (STARTER DATA). In Singularity: draw five cards."),
    (2, "Undertow", {"primitive": "return_to_hand", "whose": "enemy", "max_value": 14},
     "Return an enemy non-Lord card in play to its owner's hand."),
    (3, "Turncoat", {"primitive": "take_control", "min_value": 2, "max_value": 10},
     "Take control of an enemy Materia (2-10) in play."),
    (4, "Leap", {"primitive": "leap", "distance": 2},
     "Move one of your cards two squares in a straight line, jumping over anything."),
    (5, "Bulwark", {"primitive": "protect"},
     "One of your cards cannot be captured, annihilated or bought until your next turn."),
    (6, "Exchange", {"primitive": "swap_places"}, "Two of your cards in play swap squares."),
    (7, "Primary", {"primitive": "look_hymns", "count": 3, "singularity": {"primitive": "search"}},
     "Look at the top three hymns; keep one to use now or hold, shuffle the other two back (STARTER DATA). "
     "In Singularity: search the deck for any one card, take it and shuffle the deck."),
    (8, "Recall", {"primitive": "return_to_hand", "whose": "own", "max_value": 15},
     "Return one of your cards in play to your hand."),
    (9, "Tithe", {"primitive": "refresh_capture"}, "Turn one of your spent captures face down again."),
    (10, "Beacon", {"primitive": "summon_near_house"},
     "Summon a card onto your empty House or an empty square next to it, ignoring suit and value."),
    (11, "Banish", {"primitive": "banish", "max_value": 10},
     "Discard an enemy Materia (2-10) touching one of your cards; nobody scores."),
    (12, "Encore", {"primitive": "draw", "count": 1, "hymns": 1}, "Draw one card and one hymn."),
    (13, "Zodiac", {"primitive": "roll_as", "die": 12},
     "Roll the 12-sided die and act as that hymn; Zodiac stays in your hand face up."),
    (14, "Mutiny", {"primitive": "take_control", "min_value": 11, "max_value": 14},
     "Take control of an enemy Mercenary (J-A) not under contract, without spending a capture."),
    (15, "Salvage", {"primitive": "salvage"}, "Take any non-hymn card from the discard pile into your hand."),
]
ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV"]
OFFICIAL_HYMNS = {1, 7, 13}  # the rulebook gives these a text: Singularity (I, VII) or the roll (XIII)

STARTER_HYMNS: list[dict] = [
    {"id": f"H{number:02d}", "number": number, "name": f"{ROMAN[number]}. {name}", "effect": effect, "text": text}
    for number, name, effect, text in _H
]
