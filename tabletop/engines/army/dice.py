"""Dice: one uniform step for every roll of a battle.

Every roll (skirmish dice, re-rolls on ties, an Unopposed roll, rout rolls, the
Battlemage's 5+, the Rogue's 4+, the Illusionist's d6) is a task
``{"do": "roll", "labels": ["Spearmen (Offense) d6 #1", ...], "then": {...}}``.
The values come, in this order, from:

1. dice the GM has set with ``gm_set_dice`` ("setting a die"), first in first out;
2. at an ``"app"`` table, ``rng.randint(1, 6)``, inside the same ``apply`` (players
   never click "roll");
3. at a ``"physical"`` table, the GM: the battle pauses in a ``dice`` step whose
   decider is ``"gm"``; ``view(...)["dice_needed"]`` lists the labels still needed and
   ``{"type": "roll", "seat": "gm", "values": [4, 2, 5]}`` supplies exactly that many
   values, each 1-6.

Then ``then`` runs with ``"values"`` added. The random first commander and the
Mender's random reveal use ``rng`` directly, at any table.
"""

from __future__ import annotations

from ..kernel import GM, IllegalAction
from ..words import gettext_noop
from .common import push
from .steps import ask, handler


def roll(state: dict, labels: list[str], then: dict) -> None:
    """Queue a roll at the front of the tasks."""
    push(state, {"do": "roll", "labels": list(labels), "then": then})


@handler("roll")
def _roll(state: dict, task: dict, rng) -> None:
    labels, values = task["labels"], list(task.get("given", []))
    forced = state["forced_dice"]
    while forced and len(values) < len(labels):
        values.append(forced.pop(0))
    if state["dice"] == "app":
        while len(values) < len(labels):
            values.append(rng.randint(1, 6))
    if len(values) == len(labels):
        push(state, {**task["then"], "values": values})
        return
    ask(state, "dice", GM, {**task, "given": values}, labels=labels, given=values)


def needed(step: dict) -> list[str]:
    return step["labels"][len(step["given"]):]


def check_values(step: dict, values) -> list[int]:
    """The GM's typed dice, refused with a sentence when they cannot be these dice.

    A form may send them as typed: "3 5" or "3,5", or a list of such digits ("3", "5").
    """
    labels = needed(step)
    if isinstance(values, str):
        typed = values.replace(",", " ").split()
        run_on = next((text for text in typed if len(text) > 1 and text.isdecimal()), None)
        if run_on:
            raise IllegalAction(gettext_noop("Enter the dice as a list of numbers separated by spaces or commas, "
                                             "e.g. \"4 2\"; %(typed)s is not one die."), typed=run_on)
        values = typed
    if not isinstance(values, list):
        raise IllegalAction(gettext_noop("Enter the dice as a list of numbers, e.g. [4, 2]."))
    values = [int(value) if isinstance(value, str) and value.strip().isdecimal() else value for value in values]
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalAction(gettext_noop("Dice show 1 to 6; %(value)r is not a die roll."), value=value)
        if not 1 <= value <= 6:
            raise IllegalAction(gettext_noop("Dice show 1 to 6; %(value)s is not a die roll."), value=value)
    if len(values) != len(labels):
        if len(labels) == 1:
            message = gettext_noop("This roll needs %(dice)s die (%(rolls)s); you entered %(entered)s.")
        else:
            message = gettext_noop("This roll needs %(dice)s dice (%(rolls)s); you entered %(entered)s.")
        raise IllegalAction(message, dice=len(labels), rolls="; ".join(labels), entered=len(values))
    return values


def enter(state: dict, values: list[int]) -> None:
    """The GM's dice complete the open dice step."""
    step = state["step"]
    state["step"] = None
    push(state, {**step["task"]["then"], "values": step["given"] + values})


def roll_choices(step: dict) -> list[dict]:
    """A handful of value combinations for a physical dice step (random play and buttons)."""
    count = len(needed(step))
    combos = [[face] * count for face in range(1, 7)]
    combos += [[(n % 6) + 1 for n in range(count)], [6 - (n % 6) for n in range(count)]]
    unique = []
    for combo in combos:
        if combo not in unique:
            unique.append(combo)
    return [{"type": "roll", "seat": GM, "values": combo} for combo in unique]


def refresh(state: dict) -> None:
    """Dice set by the GM while a physical dice step waits are used at once."""
    step = state["step"]
    if step and step["kind"] == "dice" and state["forced_dice"]:
        state["step"] = None
        push(state, step["task"])
