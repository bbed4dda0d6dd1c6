"""``apply``: check an action against the open decision, then perform it on a private copy.

Every check reads the input state only, so a refused action costs no copy and never
changes anything; the effect runs on ``kernel.thaw(state, shared=("cards",))`` and
the task queue is then advanced (app dice are rolled inside the same ``apply``).
An action is accepted when it equals one of ``legal_actions`` (ignoring a ``label``
field); a refused action gets a sentence that says why. GM overrides (``gm_*``)
are handled by gm.py and accepted at any step. Physical dice: ``roll`` accepts any
values 1-6 of the right count, not only the listed combinations.
"""

from __future__ import annotations

from .. import kernel
from ..kernel import GM, IllegalAction
from ..shapes import FLAG, TEXT, WHOLE, checked, list_of, one_of, optional
from ..words import Words, gettext_noop, phrase
from . import gm
from .abilities import has
from .aftermath import accept_kill, choose_first, heal, save
from .choices import options
from .common import name, playable, push, strength_of, total_morale
from .dice import check_values, enter
from .effects import play_ritual, ritual_refusal, use_discard
from .powers import POWERS, power_of
from .skirmish import pass_defense, pass_offense, play_defense, play_offense, react_done
from .steps import advance

ACTION_TYPES = ("choose_first", "play", "pass", "ritual", "discard", "power", "decline", "heal", "save", "accept",
                "roll")


def describe_step(state: dict) -> str:
    """Who decides what now, in English (the seat view's line)."""
    return str(step_words(state))


def _who(state: dict, seat) -> Words | str:
    return Words(gettext_noop("the GM")) if seat == GM else name(state, seat)


def step_words(state: dict) -> Words:
    """Who decides what now, a phrase said in the reader's language ("Ann plays a unit on Offense or passes")."""
    step = state["step"]
    if state["phase"] == "over":
        return Words(gettext_noop("the battle is over"))
    if step is None:
        return Words(gettext_noop("nobody has a decision to make"))
    who, kind = _who(state, step["seat"]), step["kind"]
    if kind == "dice":
        return Words(gettext_noop("the GM enters the dice (%(rolls)s)"),
                     rolls="; ".join(step["labels"][len(step["given"]):]))
    if kind == "power":
        if step["stage"] == "assign" and state["skirmish"] and state["skirmish"].get("illusion"):
            return Words(phrase("%(who)s chooses which unit Adds the Illusionist's d6 (%(value)s)"), who=who,
                         value=state["skirmish"]["illusion"]["value"])
        if step["stage"] == "end":
            return Words(phrase("%(who)s may use the %(power)s power before the battle ends"), who=who,
                         power=POWERS[step["power"]].title)
        return Words(phrase("%(who)s decides on the %(power)s power"), who=who, power=POWERS[step["power"]].title)
    if kind == "save":
        return Words(phrase("%(who)s may pay to save %(card)s from being Killed"), who=who,
                     card=state["cards"][step["card"]]["name"])
    return Words(STEPS[kind], who=who)


# phrase, not only gettext_noop: the view's turn_text is this line as English text, read back at the page
STEPS = {
    "choose_first": phrase("%(who)s decides who takes the first turn"),
    "offense": phrase("%(who)s plays a unit on Offense or passes"),
    "defense": phrase("%(who)s plays a unit on Defense or passes"),
    "react": phrase("%(who)s may use a discard power, Ritual or commander power, or decline"),
    "heal": phrase("%(who)s may use a Healer"),
}


def parse_seat(action: dict):
    raw = action.get("seat")
    if raw == GM:
        return GM
    if isinstance(raw, bool) or not isinstance(raw, (int, str)) or not str(raw).strip().isdigit():
        raise IllegalAction(gettext_noop("%(raw)r is not a seat: seats are 0 and 1, or 'gm'."), raw=raw)
    seat = int(str(raw).strip())
    if seat not in (0, 1):
        raise IllegalAction(gettext_noop("There is no seat %(seat)s in an Army battle; the commanders are seats 0 "
                                         "and 1."), seat=seat)
    return seat


def _match(action: dict, seat) -> tuple:
    """What makes two actions the same: every field but ``label``, None and False, each with its type's
    name so that 1, 1.0 and True differ (as in canonical JSON, which this replaced: apply runs millions of
    times in the computer's playouts). Only flat actions (no list or dict field) come here."""
    return tuple(sorted((k, type(v).__name__, v) for k, v in {**action, "seat": seat}.items()
                        if k != "label" and v is not None and v is not False))


# Parts of a state that an apply never changes in place: the card catalog, and the last resolution
# (skirmish.record replaces it whole). The events are a list of lines (strings), copied flat.
SHARED = ("cards", "last")
_ATOMS = frozenset((str, int, float, bool, type(None)))


def _copy(value):
    """A deep copy of plain JSON data that calls itself only for lists and dicts (``kernel.thaw`` calls
    itself for every number and string too: three times slower on an Army state)."""
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _ATOMS else _copy(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _ATOMS else _copy(item) for item in value]
    return value


def fresh(state: dict) -> dict:
    """A private copy to perform an action on, sharing what is never changed in place: a profile of the
    computer's search (issue 27) spent half its time copying states."""
    return {key: value if key in SHARED else list(value) if key == "events" else _copy(value)
            for key, value in state.items()}


ACTION_SHAPES = {
    "choose_first": {"first": WHOLE},
    "play": {"card": TEXT, "role": optional(TEXT)},
    "pass": {}, "decline": {}, "accept": {},
    "ritual": {"card": TEXT, "target": optional(TEXT)},
    "discard": {"card": TEXT, "ability": WHOLE, "side": optional(TEXT), "target": optional(TEXT)},
    "power": {"power": TEXT, "choice": TEXT, "reveal": FLAG, "card": TEXT, "path": TEXT, "role": TEXT,
              "side": TEXT},
    "heal": {"healer": TEXT, "card": TEXT, "shapeshift": FLAG},
    "save": {"pay": TEXT},
    "roll": {"values": one_of(TEXT, list_of(one_of(WHOLE, TEXT)))},  # dice as typed: "3 5", [3, 5], ["3", "5"]
    "gm_modifier": {"side": TEXT, "amount": WHOLE},
    "gm_set_dice": {"values": list_of(WHOLE)},
    "gm_move_card": {"card": TEXT, "to": TEXT},
    "gm_morale": {"target": WHOLE, "amount": WHOLE},
    "gm_end_battle": {"winner": optional(WHOLE)},
}


@checked(ACTION_SHAPES, Words(gettext_noop("an Army battle")))
def apply(state: dict, action: dict, rng) -> dict:
    """The state after ``action``; the input is left untouched."""
    if not isinstance(action, dict):
        raise IllegalAction(gettext_noop("An action must be a set of fields with a type."))
    if state["phase"] == "over":
        raise IllegalAction(gettext_noop("The battle is over; undo the last action to change it."))
    kind = action.get("type")
    if isinstance(kind, str) and kind.startswith("gm_"):
        return gm.override(state, action, rng)
    if kind not in ACTION_TYPES:
        raise IllegalAction(gettext_noop("Unknown action type %(kind)r; an Army battle knows %(types)s and the GM "
                                         "overrides %(overrides)s."),
                            kind=kind, types=", ".join(ACTION_TYPES), overrides=", ".join(gm.OVERRIDES))
    seat = parse_seat(action)
    step = state["step"]
    if seat != step["seat"]:
        if seat == GM:
            raise IllegalAction(gettext_noop("It is not the GM's decision now: %(now)s."), now=step_words(state))
        raise IllegalAction(gettext_noop("It is not %(name)s's decision now: %(now)s."), name=name(state, seat),
                            now=step_words(state))
    if kind == "roll":
        if step["kind"] != "dice":
            raise IllegalAction(gettext_noop("No dice are waiting to be entered."))
        values = check_values(step, action.get("values"))
        new_state = kernel.thaw(state, shared=("cards",))
        enter(new_state, values)
        advance(new_state, rng)
        return new_state
    wanted = _match(action, seat)
    chosen = next((legal for legal, _ in options(state) if _match(legal, seat) == wanted), None)
    if chosen is None:
        why = explain(state, seat, action)
        raise IllegalAction(why.message, **why.params)
    new_state = fresh(state)
    perform(new_state, chosen, rng)
    advance(new_state, rng)
    return new_state


def perform(state: dict, action: dict, rng) -> None:
    step = state["step"]
    seat, kind, what = step["seat"], step["kind"], action["type"]
    if what == "choose_first":
        choose_first(state, seat, action["first"])
    elif what == "heal":
        heal(state, seat, action["healer"], action["card"], bool(action.get("shapeshift")))
    elif what == "save":
        save(state, seat, action["pay"])
    elif what == "accept":
        accept_kill(state)
    elif what == "play":
        state["step"] = None
        (play_offense if kind == "offense" else play_defense)(state, seat, action["card"], action.get("role"))
    elif what == "pass":
        state["step"] = None
        (pass_offense if kind == "offense" else pass_defense)(state, seat)
    elif what == "decline":
        state["step"] = None
        if kind == "react":
            react_done(state, seat, declined=True)
    else:  # ritual, discard, power: the decision continues after the effect
        state["step"] = None
        context = {"offense": "offense", "power": "step"}.get(kind)
        if kind == "react":
            context = state["skirmish"]["window"]["stage"]
            react_done(state, seat, declined=False)
        elif kind == "offense":
            push(state, step["task"])
        if what == "ritual":
            play_ritual(state, seat, action["card"], action.get("target"))
        elif what == "discard":
            use_discard(state, seat, action["card"], action["ability"], action.get("side"), action.get("target"))
        else:
            POWERS[action["power"]].use(state, seat, action, context, rng)


def explain(state: dict, seat: int, action: dict) -> Words:
    """Why an action that is not among the legal ones is refused, in one sentence."""
    what, kind, cards = action.get("type"), state["step"]["kind"], state["cards"]
    now = step_words(state)
    hand = state["piles"][seat]["hand"]
    card_id = action.get("card") if isinstance(action.get("card"), str) else None
    card = cards.get(card_id) if card_id else None
    if what in ("play", "discard", "ritual") and card_id not in hand:
        return Words(gettext_noop("That card is not in your hand."))
    if what == "play":
        if kind not in ("offense", "defense"):
            return Words(gettext_noop("There is no card to play now: %(now)s."), now=now)
        if card_id not in playable(state, seat):
            if card["role"] == "ritual":
                return Words(gettext_noop("%(card)s is a Ritual: Rituals are not units and cannot be played on Offense "
                                          "or Defense."), card=card["name"])
            if card["strength"] is None:
                return Words(gettext_noop("%(card)s has no Strength, so it cannot be played on Offense or Defense."),
                             card=card["name"])
            return Words(gettext_noop("%(card)s cannot be played on Offense or Defense."), card=card["name"])
        return Words(gettext_noop("You cannot play %(card)s as %(role)r: no power of yours allows it."),
                     card=card["name"], role=action.get("role"))
    if what == "pass":
        return Words(gettext_noop("There is nothing to pass now: %(now)s."), now=now)
    if what == "ritual":
        refusal = ritual_refusal(state, seat, card_id)
        if refusal:
            return refusal
        if kind not in ("offense", "react"):
            return Words(gettext_noop("Rituals are played on your Offense turn or in a reaction window; now %(now)s."),
                         now=now)
        return Words(gettext_noop("That Ritual needs a card from the enemy's Exhausted pile as its target."))
    if what == "discard":
        if kind != "react":
            return Words(gettext_noop("Discard powers are used in a skirmish's reaction window; now %(now)s."), now=now)
        if not any(a["kind"] in ("discard_bonus", "discard_heal") for a in card["abilities"]):
            return Words(gettext_noop("%(card)s has no discard power."), card=card["name"])
        return Words(gettext_noop("%(card)s cannot be discarded like that: check the unit and target it may help."),
                     card=card["name"])
    if what == "heal":
        return _explain_heal(state, seat, action, now)
    if what in ("save", "accept"):
        if kind != "save":
            return Words(gettext_noop("No unit of yours is about to be Killed."))
        commander = state["commanders"][seat]
        pay = action.get("pay")
        if commander["kind"] == "npc" and pay in ("favor", "influence"):
            return Words(gettext_noop("An NPC commander pays 3 Morale to save a unit, not Favors or Influence."))
        if commander["kind"] == "pc" and pay == "morale":
            return Words(gettext_noop("A PC commander pays a Favor or half an Influence to save a unit, not Morale."))
        if pay == "morale":
            return Words(gettext_noop("Saving a unit costs 3 Morale and you have %(morale)s."),
                         morale=total_morale(state, seat))
        if pay in ("favor", "influence"):
            if pay == "favor":
                return Words(gettext_noop("You have no Favor left to pay."))
            return Words(gettext_noop("You have no Influence left to pay."))
        return Words(gettext_noop("Pay with 'favor', 'influence' or 'morale', or accept the loss."))
    if what == "choose_first":
        if kind != "choose_first":
            return Words(gettext_noop("Who takes the first turn has already been decided."))
        return Words(gettext_noop("Choose seat 0 or 1 to take the first turn."))
    if what == "power":
        power = POWERS.get(action.get("power"))
        if power is None or power is not power_of(state, seat):
            return Words(gettext_noop("You do not have the %(power)s power."),
                         power=power.title if power else repr(action.get("power")))
        return Words(gettext_noop("The %(power)s power cannot do that now (%(now)s)."), power=power.title, now=now)
    return Words(gettext_noop("That is not one of your choices now: %(now)s."), now=now)


def _explain_heal(state: dict, seat: int, action: dict, now: Words) -> Words:
    if state["step"]["kind"] != "heal":
        return Words(gettext_noop("Healers are used after a skirmish; now %(now)s."), now=now)
    cards, piles = state["cards"], state["piles"][seat]
    healer, target = action.get("healer"), action.get("card")
    if healer not in piles["hand"]:
        return Words(gettext_noop("That Healer is not in your hand."))
    if cards[healer]["role"] != "healer" and not action.get("shapeshift"):
        return Words(gettext_noop("%(card)s is not a Healer."), card=cards[healer]["name"])
    if target not in piles["disabled"] + piles["exhausted"]:
        return Words(gettext_noop("A Healer returns a card from your Disabled or Exhausted pile."))
    if total_morale(state, seat) < 1:
        return Words(gettext_noop("Using a Healer costs 1 Morale and you have none."))
    limit = 2 * strength_of(cards[healer])
    if strength_of(cards[target]) > limit:
        return Words(gettext_noop("A Healer may not return a unit with more than twice its Strength: %(healer)s "
                                  "(Strength %(strength)s) returns up to Strength %(limit)s; %(card)s has "
                                  "%(card_strength)s."),
                     healer=cards[healer]["name"], strength=strength_of(cards[healer]), limit=limit,
                     card=cards[target]["name"], card_strength=strength_of(cards[target]))
    if has(cards[healer], "no_skirmish") or action.get("shapeshift"):
        return Words(gettext_noop("The Shapeshifter's change of Role has already been used this battle."))
    return Words(gettext_noop("That heal is not possible now (%(now)s)."), now=now)
