"""Guardian commanders: Tactician, Battlemage, Oathbound, Shapeshifter, Adept."""

from __future__ import annotations

from .. import lines
from ..common import UNIT_ROLES, event, move, name, push
from ..dice import roll
from ..steps import handler
from .base import POWERS, Power, register, uses


@register
class Tactician(Power):
    """Tactician (Guardian, Steel).

    Rulebook: "At the start of each Battle, you may choose any single Guardian or Path
    of Steel Commander benefit."

    Ruling: the choice is a pre-battle decision among Battlemage, Oathbound,
    Shapeshifter, Adept (Guardian row), Chirurgeon, Master of Arms and Rogue (Steel
    column) -- not Tactician itself -- or none. From then on the chosen benefit is the
    commander's power for this battle, including its own pre-battle steps (the
    Oathbound designation) and granted cards (the Chirurgeon's Alchemy Lab).
    """

    key, title, role, path = "tactician", "Tactician", "guardian", "steel"
    prebattle_order = 0
    CHOICES = ("battlemage", "oathbound", "shapeshifter", "adept", "chirurgeon", "master_of_arms", "rogue")

    def prebattle(self, state, seat):
        return [self.step_task(seat, "choose")]

    def options(self, state, seat, context, stage=None):
        if context != "step":
            return []
        return [(self.action(seat, choice=key), lines.TACTICIAN % {"power": POWERS[key].title})
                for key in self.CHOICES]

    def use(self, state, seat, action, context, rng):
        chosen = POWERS[action["choice"]]
        state["commanders"][seat]["benefit"] = chosen.key
        event(state, lines.TACTICIAN_TAKES % {"name": name(state, seat), "power": chosen.title})
        chosen.on_setup(state, seat)
        push(state, *chosen.prebattle(state, seat))


@register
class Battlemage(Power):
    """Battlemage (Guardian, Magic).

    Rulebook: "Any card you discard to the Disabled pile is instead placed in the
    Exhausted pile on a 5+ on a d6. This power may only succeed once per Phase."

    Rulings: it is rolled automatically for every card the commander discards (a
    discard power, a Healer discarded, a Ritual after it is played) until it succeeds
    once in the Phase; cards Disabled by losing a skirmish are not discarded.
    """

    key, title, role, path = "battlemage", "Battlemage", "guardian", "magic"

    def on_discard(self, state, seat, card_id):
        push(state, {"do": "battlemage_try", "seat": seat, "card": card_id})


@handler("battlemage_try")
def _battlemage_try(state, task, rng):
    if uses(state, task["seat"])["battlemage_phase"] or task["card"] not in state["piles"][task["seat"]]["disabled"]:
        return
    card_name = state["cards"][task["card"]]["name"]
    roll(state, [lines.BATTLEMAGE_ROLL % {"card": card_name}], {**task, "do": "battlemage_rolled"})


@handler("battlemage_rolled")
def _battlemage_rolled(state, task, rng):
    seat, card_id, value = task["seat"], task["card"], task["values"][0]
    card_name = state["cards"][card_id]["name"]
    if value >= 5 and card_id in state["piles"][seat]["disabled"]:
        move(state, card_id, "exhausted")
        uses(state, seat)["battlemage_phase"] = True
        event(state, lines.BATTLEMAGE_EXHAUSTED % {"value": value, "name": name(state, seat), "card": card_name})
    else:
        event(state, lines.BATTLEMAGE_STAYS % {"value": value, "card": card_name})


@register
class Oathbound(Power):
    """Oathbound (Guardian, Faith).

    Rulebook: "Each Battle, designate one unit. If that unit is Killed, it is only
    Disabled. If it is Disabled (not including your power), it is only Exhausted."

    Rulings: the designation is a pre-battle decision (any non-Ritual card in hand),
    known to the commander and the GM only. The protection covers every way the unit
    would be Disabled: skirmish results, rout rolls, enemy effects (the Mender,
    Rituals) and the commander's own discards (a discard places the card "in your
    Disabled pile", so "If it is Disabled ... it is only Exhausted" applies). The one
    exception is the text's own: a Killed unit made Disabled by the oath is not then
    made Exhausted ("not including your power"). Ruling AR21.
    """

    key, title, role, path = "oathbound", "Oathbound", "guardian", "faith"

    def prebattle(self, state, seat):
        return [self.step_task(seat, "designate")]

    def options(self, state, seat, context, stage=None):
        if context != "step":
            return []
        cards = state["cards"]
        return [(self.action(seat, card=card_id), lines.DESIGNATE % {"card": cards[card_id]["name"]})
                for card_id in state["piles"][seat]["hand"] if cards[card_id]["role"] != "ritual"]

    def use(self, state, seat, action, context, rng):
        state["commanders"][seat]["oath"] = action["card"]
        event(state, lines.DESIGNATES % {"name": name(state, seat)})

    def protect(self, state, seat, card_id, fate, cause):
        if card_id != state["commanders"][seat]["oath"]:
            return fate
        return {"killed": "disabled", "disabled": "exhausted"}.get(fate, fate)


@register
class Shapeshifter(Power):
    """Shapeshifter (Guardian, Nature).

    Rulebook: "Once per Battle, you may change the Role of any one card as you reveal
    it in a Skirmish or discard it."

    Rulings: the new Role is chosen with the face-down play (``"role"`` in the play
    action: Aggressor, Guardian, Healer or Savant) and takes effect at the reveal,
    which uses the power. "Or discard it": after a skirmish the commander may
    discard any unit from hand as a Healer (``"shapeshift": true`` in the heal
    action), which uses the power.
    """

    key, title, role, path = "shapeshifter", "Shapeshifter", "guardian", "nature"

    def play_roles(self, state, seat, card_id):
        if uses(state, seat)["shapeshifter"]:
            return []
        printed = state["cards"][card_id]["role"]
        return [role for role in UNIT_ROLES if role != printed]

    def heals_as_healer(self, state, seat):
        return not uses(state, seat)["shapeshifter"]


@register
class Adept(Power):
    """Adept (Guardian, Mind).

    Rulebook: "You may change the Role of any card you play to Guardian. Guardian
    units you play Add 1."

    Ruling: the change is chosen with the play (``"role": "guardian"``), on Offense or
    Defense; the +1 is a commander bonus (no Savant trigger).
    """

    key, title, role, path = "adept", "Adept", "guardian", "mind"

    def play_roles(self, state, seat, card_id):
        return [] if state["cards"][card_id]["role"] == "guardian" else ["guardian"]

    def bonuses(self, state, seat, me, enemy):
        return [(1, lines.ADEPT)] if me["role"] == "guardian" else []
