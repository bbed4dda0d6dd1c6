"""The shape of a commander power, and the registry the twenty powers fill.

A power is an object with hooks the battle calls at fixed moments; a hook a power
does not need keeps the default (nothing happens). ``options`` lists the power's
choices in a context: ``"offense"`` (the commander's Offense decision), ``"pre"`` /
``"post"`` (the reaction windows before and after the dice) and ``"step"`` (a
decision the power itself opened, with its ``stage``). ``use`` applies one of them.
Power actions look like ``{"type": "power", "seat": 0, "power": "evoker", ...}``.
"""

from __future__ import annotations

from ...kernel import IllegalAction
from ...words import gettext_noop
from .. import lines
from ..common import benefit, event, move, name, owner, push
from ..steps import ask

POWERS: dict[str, Power] = {}


def register(cls):
    POWERS[cls.key] = cls()
    return cls


class Power:
    key = "none"
    title = "No power"
    role = ""
    path = ""
    offense_ranged = False  # Scout: units played on Offense gain Ranged
    rituals_per_phase = 1  # Animist: 2
    prebattle_order = 1  # 0 Tactician's choice, 1 designations, 2 the Mender

    def on_setup(self, state: dict, seat: int) -> None:
        """At setup (or when a Tactician takes this benefit)."""

    def prebattle(self, state: dict, seat: int) -> list[dict]:
        """Tasks to run before the first turn is chosen."""
        return []

    def play_roles(self, state: dict, seat: int, card_id: str) -> list[str]:
        """Roles other than the printed one that a card may be played as."""
        return []

    def bonuses(self, state: dict, seat: int, me: dict, enemy: dict | None) -> list[tuple[int, str]]:
        """Commander Strength bonuses for ``seat``'s unit ``me`` (never trigger the Savant)."""
        return []

    def options(self, state: dict, seat: int, context: str, stage: str | None = None) -> list[tuple[dict, str]]:
        return []

    def use(self, state: dict, seat: int, action: dict, context: str, rng) -> None:
        # Only powers that offer options are ever used; anything else is a forged action.
        raise IllegalAction(gettext_noop("%(power)s has no choice to make now."), power=self.title)

    def on_discard(self, state: dict, seat: int, card_id: str) -> None:
        """After ``seat`` discarded ``card_id`` to its Disabled pile."""

    def protect(self, state: dict, seat: int, card_id: str, fate: str, cause: str) -> str:
        """The fate ("killed"/"disabled") of ``seat``'s card after this power."""
        return fate

    def after_skirmish(self, state: dict, seat: int, won: bool) -> None:
        """After a skirmish with a winner, for each side's commander."""

    def on_kill(self, state: dict, seat: int, victim: str) -> None:
        """``seat`` Killed an enemy unit, in a skirmish or by a rout roll (after any kill-saving payment)."""

    def on_second_phase(self, state: dict, seat: int) -> None:
        """At the start of the second Phase."""

    def at_end(self, state: dict, seat: int) -> list[dict]:
        """Tasks to run when the battle is about to end by the rules (not by the GM)."""
        return []

    def heals_as_healer(self, state: dict, seat: int) -> bool:
        """May discard a non-Healer unit as a Healer (the Shapeshifter)."""
        return False

    # helpers for powers that open their own decision
    def step_task(self, seat: int, stage: str) -> dict:
        return {"do": "power_step", "power": self.key, "seat": seat, "stage": stage}

    def begin(self, state: dict, task: dict) -> None:
        seat, stage = task["seat"], task["stage"]
        if self.options(state, seat, "step", stage):
            ask(state, "power", seat, task, power=self.key, stage=stage)

    def action(self, seat: int, **fields) -> dict:
        return {"type": "power", "seat": seat, "power": self.key, **fields}

    def queue(self, state: dict, seat: int, stage: str) -> None:
        push(state, self.step_task(seat, stage))


NO_POWER = Power()


def uses(state: dict, seat: int) -> dict:
    return state["commanders"][seat]["uses"]


def power_of(state: dict, seat: int) -> Power:
    return POWERS.get(benefit(state, seat) or "", NO_POWER)


def protected_fate(state: dict, card_id: str, fate: str, cause: str) -> str:
    """The owner's power may soften a fate ("killed" -> "disabled" -> "exhausted")."""
    seat = owner(state, card_id)
    return power_of(state, seat).protect(state, seat, card_id, fate, cause)


def enemy_disable(state: dict, card_id: str, why: str) -> None:
    """An enemy effect Disables a card (the Oathbound's unit is only Exhausted)."""
    fate = protected_fate(state, card_id, "disabled", "enemy")
    move(state, card_id, fate)
    seat = owner(state, card_id)
    if fate == "disabled":
        event(state, lines.DISABLED_BY % {"why_words": why, "name": name(state, seat),
                                          "card": state["cards"][card_id]["name"]})
    else:
        event(state, lines.DISABLED_OATHBOUND % {"why_words": why, "name": name(state, seat),
                                                 "card": state["cards"][card_id]["name"]})
