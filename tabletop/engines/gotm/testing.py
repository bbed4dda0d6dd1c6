"""Test helpers: GOT'M states with chosen hands, shop, squads and piles.

``state_with`` builds a real game through ``setup`` and then lays the named cards
where the test wants them. Every card not named goes to its natural pile (mercenaries
to the camp, artifacts to the merchant, resources to the bank, in card order) unless
the test pinned that pile, in which case it goes to the graveyard; so the result
always satisfies ``invariants``. Squads are written as card ids, or dicts with
``card`` and any of ``wounded``, ``dead``, ``pulled``, ``artifact``, ``skin``.
Not used by play.
"""

from __future__ import annotations

from .. import repetition
from ..kernel import ScriptedRng, SeededRng
from . import battle, cards, game, recruit

ANN, BEN = 0, 1


def _slot(spec) -> dict:
    if isinstance(spec, str):
        spec = {"card": spec}
    made = battle.slot(spec["card"], spec.get("infirmary", False))
    made.update({key: spec[key] for key in ("wounded", "dead", "pulled", "artifact", "skin") if key in spec})
    return made


def state_with(*, hands=None, infirmary=None, ears=None, shop=(), artifact=None, squads=None, turn=ANN,
               dealer=ANN, round=1, first=None, camp=None, merchant=None, bank=None, spent=(), graveyard=(),
               done=(False, False), fallen=None, bonus=None) -> dict:
    """A game in progress: recruitment by default, combat when ``squads`` is given."""
    state = game.setup({"players": ["Ann", "Ben"], "dealer": dealer}, SeededRng(0))
    hands = {ANN: [], BEN: [], **(hands or {})}
    infirmary = {ANN: [], BEN: [], **(infirmary or {})}
    ears = {ANN: [], BEN: [], **(ears or {})}
    squads_given = squads is not None
    slots = {seat: [_slot(spec) for spec in (squads or {}).get(seat, [])] for seat in (ANN, BEN)}
    placed = [c for seat in (ANN, BEN) for c in hands[seat] + infirmary[seat] + ears[seat]]
    placed += [s[key] for seat in (ANN, BEN) for s in slots[seat] for key in ("card", "artifact") if s[key]]
    placed += [c for c in shop if c] + ([artifact] if artifact else [])
    placed += list(camp or []) + list(merchant or []) + list(bank or []) + list(spent) + list(graveyard)
    assert len(placed) == len(set(placed)), "a card is named twice"
    rest = [c for c in cards.ALL_CARDS if c not in set(placed)]
    sink = list(graveyard)
    piles = {"camp": list(camp or []), "merchant": list(merchant or []), "bank": list(bank or [])}
    for card in rest:
        pile = "camp" if cards.is_mercenary(card) else "merchant" if cards.is_artifact(card) else "bank"
        pinned = {"camp": camp, "merchant": merchant, "bank": bank}[pile] is not None
        (sink if pinned else piles[pile]).append(card)
    row = list(shop) + [None] * (3 - len(shop))
    state.update(
        round=round, first=first if first is not None else turn, turn=turn, **piles, spent=list(spent),
        graveyard=sink, hands=[cards.sorted_cards(hands[s]) for s in (ANN, BEN)],
        infirmary=[list(infirmary[s]) for s in (ANN, BEN)], ears=[list(ears[s]) for s in (ANN, BEN)],
        shop={"mercenaries": row, "artifact": artifact}, done=list(done), events=[], pending=None,
        result=None, phase="recruit", squads=[slots[ANN], slots[BEN]], seen={},
    )
    if not squads_given:  # the shop has seen its opening position once, as a game in progress would have
        repetition.remember(state["seen"], recruit.position_parts(state))
    if squads_given:
        state.update(phase="combat", revealed=True, ready=[True, True],
                     squad_size=[len(slots[ANN]), len(slots[BEN])],
                     shop={"mercenaries": [None] * 3, "artifact": None})
        state["bonus"] = bonus or [battle.compute_bonus(slots[s]) for s in (ANN, BEN)]
        state["fallen"] = fallen or [{}, {}]
    return state


def act(state: dict, kind: str, seat: int, rng=None, **fields) -> dict:
    """Apply one action (chance from ``rng``, by default none may be drawn)."""
    return game.apply(state, {"type": kind, "seat": seat, **fields}, rng or ScriptedRng([]))


def squad_cards(state: dict, seat: int) -> list[str]:
    """The squad as ids with marks: "KC*" wounded, "KC+" dead, "KC@AC" wearing AC."""
    marks = []
    for s in state["squads"][seat]:
        mark = s["card"] + ("+" if s["dead"] else "*" if s["wounded"] else "")
        marks.append(mark + (f"@{s['artifact']}" if s["artifact"] else ""))
    return marks
