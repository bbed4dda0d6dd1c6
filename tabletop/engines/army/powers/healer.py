"""Healer commanders: Chirurgeon, Necromancer, Cleric, Animist, Mender."""

from __future__ import annotations

from .. import lines
from ..common import event, lose_morale, move, name, other, total_morale
from ..starter import card_from
from .base import Power, enemy_disable, register, uses


def grant_card(state: dict, seat: int, code: str) -> None:
    """Add a power-granted unit to ``seat``'s hand (config's ``granted_card`` or the starter card)."""
    commander = state["commanders"][seat]
    card = commander["options"].get("granted_card") or card_from(code, f"granted-{seat}-{code}")
    card_id = card["id"]
    while card_id in state["cards"]:
        card_id += "+"
    # "cards" is shared read-only between states (kernel.thaw): replace it, never change it.
    state["cards"] = {**state["cards"], card_id: {**card, "id": card_id, "owner": seat, "granted": True}}
    state["piles"][seat]["hand"].append(card_id)
    event(state, lines.GAINS_CARD % {"name": name(state, seat), "card": card["name"],
                                     "power": commander["power"].replace("_", " ").title()})


@register
class Chirurgeon(Power):
    """Chirurgeon (Healer, Steel).

    Rulebook: "You gain an Alchemy Lab Equipment unit for free. If it would be Killed,
    place it in the Disabled pile."

    Ruling: the Alchemy Lab (the config's ``granted_card`` or the starter card: Strength
    1 Equipment, discard to return a card of Strength 3 or less, and
    ``kill_immune_to_disabled``) is added to the hand at setup. It is not a roster
    unit, so it is never reported as used for upkeep.
    """

    key, title, role, path = "chirurgeon", "Chirurgeon", "healer", "steel"

    def on_setup(self, state, seat):
        grant_card(state, seat, "alchemy_lab")


@register
class Necromancer(Power):
    """Necromancer (Healer, Magic).

    Rulebook: "At the start of the second Phase, you may return 1 card from your
    Disabled pile to your hand. Undead units you play Add 1."

    Ruling: the return is a decision at the start of the second Phase (any card of the
    Disabled pile, or decline); "Undead" is the ``undead`` trait.
    """

    key, title, role, path = "necromancer", "Necromancer", "healer", "magic"

    def on_second_phase(self, state, seat):
        self.queue(state, seat, "raise")

    def options(self, state, seat, context, stage=None):
        if context != "step":
            return []
        return [(self.action(seat, card=card_id), lines.NECROMANCER_RETURN % {"card": state["cards"][card_id]["name"]})
                for card_id in state["piles"][seat]["disabled"]]

    def use(self, state, seat, action, context, rng):
        move(state, action["card"], "hand")
        event(state, lines.NECROMANCER_RETURNS % {"name": name(state, seat),
                                                  "card": state["cards"][action["card"]]["name"]})

    def bonuses(self, state, seat, me, enemy):
        return [(1, lines.NECROMANCER)] if "undead" in me["traits"] else []


@register
class Cleric(Power):
    """Cleric (Healer, Faith).

    Rulebook: "Once per Day, you may return 1 Killed card to your hand by spending a
    Morale."

    Rulings: available while the config says ``cleric_available`` (the campaign tracks
    the Day) and not yet used this battle; offered during the commander's Offense
    decision, in every reaction window and -- because Killed cards leave play only at
    the end of the battle -- once more as the battle ends by the rules (both Unable,
    both Pass, a rout: after the last kill and its save), for any of their own cards
    Killed in this battle. Not when the GM ends the battle (ruling H3). Spending the
    last Morale routs (a routed commander has none left to spend). The outcome
    reports ``cleric_used``.
    """

    key, title, role, path = "cleric", "Cleric", "healer", "faith"

    def options(self, state, seat, context, stage=None):
        commander = state["commanders"][seat]
        if (context not in ("offense", "pre", "post", "step") or not commander["options"]["cleric_available"]
                or uses(state, seat)["cleric"] or total_morale(state, seat) < 1):
            return []
        routs = total_morale(state, seat) == 1 and not any(each["routed"] for each in state["commanders"])
        return [(self.action(seat, card=card_id),
                 (lines.CLERIC_LAST if routs else lines.CLERIC) % {"card": state["cards"][card_id]["name"]})
                for card_id in state["piles"][seat]["killed"] if card_id in state["killed_log"]]

    def at_end(self, state, seat):
        return [self.step_task(seat, "end")] if self.options(state, seat, "step", "end") else []

    def use(self, state, seat, action, context, rng):
        uses(state, seat)["cleric"] = 1
        move(state, action["card"], "hand")
        event(state, lines.CLERIC_RETURNS % {"name": name(state, seat), "card": state["cards"][action["card"]]["name"]})
        lose_morale(state, seat, 1, "Cleric")


@register
class Animist(Power):
    """Animist (Healer, Nature).

    Rulebook: "You may play 2 Rituals each Phase. Healers you play Add 1."

    Ruling: two Rituals in each Phase, so up to four in the Battle (the usual limit is
    two per Battle, one per Phase); the Path requirement still applies.
    """

    key, title, role, path = "animist", "Animist", "healer", "nature"
    rituals_per_phase = 2

    def bonuses(self, state, seat, me, enemy):
        return [(1, lines.ANIMIST)] if me["role"] == "healer" else []


@register
class Mender(Power):
    """Mender (Healer, Mind).

    Rulebook: "Before the Battle, you may ask your opponent to reveal 2 random cards
    from their hand. You may spend 1 Morale to Disable one of them."

    Rulings: two pre-battle decisions: ask for the reveal (the engine picks two cards
    of the opponent's hand at random, with ``rng``; fewer if the hand is smaller) or
    decline; then spend 1 Morale to Disable one revealed card, or decline. The
    revealed cards are shown to the whole table while they stay in hand. The Disable
    is an enemy effect (the Oathbound's unit is only Exhausted).
    """

    key, title, role, path = "mender", "Mender", "healer", "mind"
    prebattle_order = 2

    def prebattle(self, state, seat):
        return [self.step_task(seat, "reveal")]

    def options(self, state, seat, context, stage=None):
        if context != "step":
            return []
        enemy = other(seat)
        if stage == "reveal":
            count = min(2, len(state["piles"][enemy]["hand"]))
            if not count:
                return []
            return [(self.action(seat, reveal=True), lines.MENDER_ASK % {"name": name(state, enemy), "count": count})]
        if total_morale(state, seat) < 1:
            return []
        return [(self.action(seat, card=card_id), lines.MENDER_DISABLE % {"card": state["cards"][card_id]["name"]})
                for card_id in state["revealed"][enemy] if card_id in state["piles"][enemy]["hand"]]

    def use(self, state, seat, action, context, rng):
        enemy = other(seat)
        if "reveal" in action:
            hand = list(state["piles"][enemy]["hand"])
            picked = [hand.pop(rng.randint(0, len(hand) - 1)) for _ in range(min(2, len(hand)))]
            state["revealed"][enemy] = picked
            names = " and ".join(state["cards"][card_id]["name"] for card_id in picked)
            event(state, lines.MENDER_REVEALS % {"name": name(state, seat), "enemy": name(state, enemy),
                                                 "cards": names})
            self.queue(state, seat, "disable")
            return
        enemy_disable(state, action["card"], lines.MENDER_SPENDS % {"name": name(state, seat)})
        lose_morale(state, seat, 1, "Mender")
