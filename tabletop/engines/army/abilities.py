"""The card ability vocabulary of Army Rules cards: what a card's ``abilities`` may say.

A card carries ``"abilities": [{"kind": ..., ...}, ...]``. Real LARP cards say many
things; Muster models the ones below and refuses any other ``kind`` at setup with a
``ValueError`` (a GM override covers whatever a card says that this list does not).

Discard powers (a unit discarded from its commander's HAND during a reaction
window of a skirmish, "at any time before the Skirmish is resolved"; the card goes to
the Disabled pile unless an effect says otherwise, e.g. the Battlemage):

* ``discard_bonus``  ``{"amount": 1, "target": "either"|"own"|"enemy"}`` -- the chosen
  unit in the current skirmish Adds ``amount`` (may be negative for a penalty).
  ``either``: the discarding commander picks the Offense or the Defense unit (the
  rulebook's Soldier: "+1 to either side in a skirmish"); ``own``: their own unit;
  ``enemy``: the opposing unit. A positive card bonus triggers the Savant's +2.
* ``discard_heal``   ``{"max_strength": null|int}`` -- return one card from the
  discarding commander's Disabled or Exhausted pile to their hand (optionally only a
  card of at most ``max_strength``), a card with a ``discard_heal`` of its own included
  (ruling AR31). Costs no Morale (unlike a Healer's role power).

Ritual effects (only on cards of Role ``ritual``; a Ritual is played from hand by its
commander during their Offense decision or a reaction window, at most two per Battle,
one per Phase -- Animist two per Phase -- and only if the army holds at least two
non-Ritual cards of the Ritual's Path; afterwards it goes to the Disabled pile):

* ``ritual_morale``  ``{"amount": N}`` -- its commander gains N Morale (may exceed
  the starting value).
* ``ritual_bonus``   ``{"amount": N}`` -- its commander's units Add N for the rest of
  this Phase (a card bonus: it triggers the Savant's +2).
* ``ritual_disable`` ``{}`` -- one card of the opponent's Exhausted pile (chosen by
  the ritual's commander) moves to their Disabled pile, so it will not come back in
  the second Phase. A ritual whose only effect is this needs such a target.
* ``ritual_damage``  ``{"amount": N}`` -- the opponent loses N Morale (Base Morale
  first; reaching 0 routs).

Passive powers (always on):

* ``kill_immune_to_disabled`` ``{}`` -- "If it would be Killed, place it in the
  Disabled pile" (the Chirurgeon's Alchemy Lab). No kill-saving payment is asked.
* ``no_damage``      ``{}`` -- "neither deals nor receives damage in Skirmishes" (the
  Chaplain's Mediating Chaplain): the dice still decide the winner, the loser is
  Exhausted instead of Disabled or Killed, and Unopposed it deals no Morale damage.
* ``no_skirmish``    ``{}`` -- the card can never be played on Offense or Defense
  (a support card that only works by being discarded).

Rulings: docs/rulings.md.
"""

from __future__ import annotations

from . import lines

DISCARD_KINDS = ("discard_bonus", "discard_heal")
RITUAL_KINDS = ("ritual_morale", "ritual_bonus", "ritual_disable", "ritual_damage")
PASSIVE_KINDS = ("kill_immune_to_disabled", "no_damage", "no_skirmish")
KINDS = DISCARD_KINDS + RITUAL_KINDS + PASSIVE_KINDS
TARGETS = ("either", "own", "enemy")


def _fail(message: str) -> None:
    raise ValueError(message)


def _whole(value, where: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(f"{where} must be a whole number, not {value!r}.")
    if minimum is not None and value < minimum:
        _fail(f"{where} must be at least {minimum}, not {value}.")
    return value


def validate(raw, where: str, role: str) -> dict:
    """A cleaned copy of one ability; ``where`` names the card in messages."""
    if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str):
        _fail(f"{where}: each ability must be a dict with a 'kind'.")
    kind = raw["kind"]
    if kind not in KINDS:
        _fail(f"{where}: unknown ability kind {kind!r}; Muster knows {', '.join(KINDS)}.")
    if kind in RITUAL_KINDS and role != "ritual":
        _fail(f"{where}: {kind} is a Ritual effect, but the card's Role is {role}.")
    if kind in DISCARD_KINDS and role == "ritual":
        _fail(f"{where}: a Ritual is played, not discarded for {kind}.")
    if kind == "discard_bonus":
        target = raw.get("target", "either")
        if target not in TARGETS:
            _fail(f"{where}: discard_bonus target must be one of {', '.join(TARGETS)}, not {target!r}.")
        amount = _whole(raw.get("amount", 1), f"{where}: discard_bonus amount")
        if amount == 0:
            _fail(f"{where}: a discard_bonus of 0 does nothing.")
        return {"kind": kind, "amount": amount, "target": target}
    if kind == "discard_heal":
        limit = raw.get("max_strength")
        if limit is not None:
            _whole(limit, f"{where}: discard_heal max_strength", 0)
        return {"kind": kind, "max_strength": limit}
    if kind in ("ritual_morale", "ritual_bonus", "ritual_damage"):
        return {"kind": kind, "amount": _whole(raw.get("amount", 1), f"{where}: {kind} amount", 1)}
    return {"kind": kind}


def of_kind(card: dict, kind: str) -> list[dict]:
    return [ability for ability in card["abilities"] if ability["kind"] == kind]


def has(card: dict, kind: str) -> bool:
    return any(ability["kind"] == kind for ability in card["abilities"])


def describe(ability: dict) -> str:
    """A short human sentence for an ability (labels, views)."""
    kind = ability["kind"]
    if kind == "discard_bonus":
        return lines.ABILITY_BONUS[ability["target"]] % {"amount": f"{ability['amount']:+d}"}
    if kind == "discard_heal":
        limit = ability["max_strength"]
        return lines.ABILITY_HEAL_UP_TO % {"limit": limit} if limit is not None else lines.ABILITY_HEAL
    if kind == "ritual_morale":
        return lines.ABILITY_MORALE % {"amount": ability["amount"]}
    if kind == "ritual_bonus":
        return lines.ABILITY_ADD % {"amount": ability["amount"]}
    if kind == "ritual_disable":
        return lines.ABILITY_DISABLE
    if kind == "ritual_damage":
        return lines.ABILITY_DAMAGE % {"amount": ability["amount"]}
    if kind == "kill_immune_to_disabled":
        return lines.ABILITY_IMMUNE
    if kind == "no_damage":
        return lines.ABILITY_NO_DAMAGE
    return lines.ABILITY_NO_SKIRMISH
