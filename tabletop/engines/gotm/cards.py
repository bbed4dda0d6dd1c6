"""The 52 cards of Mercenaries (GOT'M): ids, races, ranks, values, payments.

Card ids are rank + suit letter: "2C" ... "10C", "JC", "QC", "KC", "AC" (C, H, D, S).
Suits are races: Clubs = Gnolls, Hearts = Ogres, Diamonds = Trolls, Spades = Murlocs.

* Jacks, Queens, Kings are mercenaries (veterans 11, spellcasters 12, leaders 13).
* 2-10 are resources (value = number): 2-6 basic units (shields), 6-9 advanced units
  (elites), 10 tanks; sixes are both basic and advanced.
* Aces are artifacts (value 10).

Payments: a mercenary or an artifact is paid with resources of its own race whose
values sum to at least its price; any amount over is lost. Ruling (docs/rulings.md):
a payment may hold no card that could be left out while still paying enough, so the
list of payments stays short and no card is thrown away for nothing.
"""

from __future__ import annotations

from itertools import combinations

SUITS = ("C", "H", "D", "S")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RACES = {"C": "Gnoll", "H": "Ogre", "D": "Troll", "S": "Murloc"}
RACE_PLURALS = {"C": "Gnolls", "H": "Ogres", "D": "Trolls", "S": "Murlocs"}
SUIT_NAMES = {"C": "Clubs", "H": "Hearts", "D": "Diamonds", "S": "Spades"}
SUIT_SYMBOLS = {"C": "♣", "H": "♥", "D": "♦", "S": "♠"}
MERCENARY_VALUES = {"J": 11, "Q": 12, "K": 13}
ARTIFACT_VALUE = 10
CLASS_NAMES = {"J": "veteran", "Q": "spellcaster", "K": "leader"}
TITLES = {
    "C": {"J": "Brute", "Q": "Mystic", "K": "Alpha"},
    "H": {"J": "Warrior", "Q": "Shaman", "K": "Warlord"},
    "D": {"J": "Berserker", "Q": "Witch Doctor", "K": "Shadow Hunter"},
    "S": {"J": "Raider", "Q": "Oracle", "K": "Tidecaller"},
}
EAR_POINTS = {"J": 2, "Q": 3, "K": 4}

ALL_CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
MERCENARIES = tuple(card for card in ALL_CARDS if card[:-1] in MERCENARY_VALUES)
RESOURCES = tuple(card for card in ALL_CARDS if card[:-1].isdigit())
ARTIFACTS = tuple(card for card in ALL_CARDS if card[:-1] == "A")


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def is_mercenary(card: str) -> bool:
    return rank(card) in MERCENARY_VALUES


def is_artifact(card: str) -> bool:
    return rank(card) == "A"


def is_resource(card: str) -> bool:
    return rank(card).isdigit()


def value(card: str) -> int:
    """Base value: the hire price, the base AP and the AP needed to kill in one hit."""
    r = rank(card)
    if r in MERCENARY_VALUES:
        return MERCENARY_VALUES[r]
    if r == "A":
        return ARTIFACT_VALUE
    return int(r)


def is_basic(card: str) -> bool:
    return is_resource(card) and 2 <= value(card) <= 6


def is_advanced(card: str) -> bool:
    return is_resource(card) and 6 <= value(card) <= 9


def is_tank(card: str) -> bool:
    return is_resource(card) and value(card) == 10


def ear_points(card: str) -> int:
    return EAR_POINTS.get(rank(card), 1)


def short(card: str) -> str:
    return rank(card) + SUIT_SYMBOLS[suit(card)]


def name(card: str) -> str:
    """A human name: "Gnoll Brute (J♣)", "Ogre artifact (A♥)", "7♦ (Troll elite)"."""
    r, s = rank(card), suit(card)
    if r in MERCENARY_VALUES:
        return f"{RACES[s]} {TITLES[s][r]} ({short(card)})"
    if r == "A":
        return f"{RACES[s]} artifact ({short(card)})"
    kinds = []
    if is_basic(card):
        kinds.append("shield")
    if is_advanced(card):
        kinds.append("elite")
    if is_tank(card):
        kinds.append("tank")
    return f"{short(card)} ({RACES[s]} {'/'.join(kinds)})"


def kind(card: str) -> str:
    if is_mercenary(card):
        return CLASS_NAMES[rank(card)]
    if is_artifact(card):
        return "artifact"
    return "resource"


def sort_key(card: str) -> tuple[int, int]:
    return SUITS.index(suit(card)), RANKS.index(rank(card))


def sorted_cards(cards) -> list[str]:
    return sorted(cards, key=sort_key)


def payments(resources: list[str], race: str, price: int) -> list[list[str]]:
    """Every minimal set of ``race`` resources worth at least ``price`` (no card could be left out)."""
    pool = sorted_cards(card for card in resources if is_resource(card) and suit(card) == race)
    found = []
    for size in range(1, len(pool) + 1):
        for combo in combinations(pool, size):
            total = sum(value(card) for card in combo)
            if total >= price and all(total - value(card) < price for card in combo):
                found.append(list(combo))
    return found


def is_minimal_payment(cards: list[str], price: int) -> bool:
    total = sum(value(card) for card in cards)
    return bool(cards) and total >= price and all(total - value(card) < price for card in cards)
