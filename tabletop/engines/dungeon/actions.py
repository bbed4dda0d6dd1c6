"""Legal actions and apply: the decision the table waits for, the acting mercenary's turn, and "any time".

Every action is matched against ``legal_actions`` (labels aside), so a refused move is
always one the rules do not allow right now, said in a sentence.
"""

from __future__ import annotations

from ..kernel import IllegalAction
from ..shapes import TEXT, WHOLE, checked, list_of
from ..words import Words, gettext_noop
from . import lines
from .anytime import FREE, do_free, free_actions, one_per_code
from .areas import place_monster
from .board import MERC_ROW, adjacent, can_move, destinations, event, monster, named, skill_cards, stats, thaw_state
from .combat import defence_cards, end_combat, merc_strikes, monster_attacks, start_retreat
from .flow import advance, to_act
from .monsters import monster_acts, move_monster

KNOWN = {"place", "enter", "lead", "defend", "take", "retaliate", "decline", "lash_out", "let_go", "add", "strike",
         "withdraw", "to", "next", "monster_to", "target", "hold", "move", "attack", "end_turn", "done", *FREE}


def ranged_targets(state, merc, cards_played) -> list:
    """Monsters within the lowest minimum and the highest maximum range of the cards, counted in rows."""
    if not cards_played:
        return []
    lo = min(stats(state, c)["min_range"] for c in cards_played)
    hi = max(stats(state, c)["max_range"] for c in cards_played)
    return sorted(m["id"] for m in state["board"] if lo <= abs(m["pos"][0] - merc["pos"][0]) <= hi)


def square_values(sq) -> dict:
    """A square's place in a label's words: its column and row, counted from 1."""
    return {"column": sq[1] + 1, "row": sq[0] + 1}


def _pending_actions(state, p) -> list[dict]:
    t = p["type"]
    mercs = state["mercs"]
    if t == "place_monster":
        name = named(state, p["monster"])
        return [{"type": "place", "square": sq, "label": lines.PLACE % {"monster": name, **square_values(sq)}}
                for sq in p["options"]]
    if t == "enter":
        name = mercs[p["merc"]]["name"]
        return [{"type": "enter", "merc": p["merc"], "column": c,
                 "label": lines.ENTERS_COLUMN % {"merc": name, "column": c + 1}} for c in p["options"]]
    if t == "lead":
        return [{"type": "lead", "merc": i, "label": lines.LEADS % {"merc": mercs[i]["name"]}} for i in p["options"]]
    if t == "defend":
        merc, cb = mercs[p["merc"]], state["combat"]
        acts = [{"type": "defend", "card": c, "label": lines.DEFEND_WITH % {"card": named(state, c)}}
                for c in one_per_code(state, defence_cards(state, merc, cb["lash"]))]
        return acts + [{"type": "take", "label": lines.TAKE_THE_HIT if cb["who"] != "trap" else lines.SUFFER_THE_TRAP}]
    if t == "retaliate":
        return [{"type": "retaliate", "label": lines.RETALIATE}, {"type": "decline", "label": lines.DO_NOT_RETALIATE}]
    if t == "lash_out":
        name = named(state, p["monster"])
        return [{"type": "lash_out", "label": lines.LASH_OUT % {"monster": name}},
                {"type": "let_go", "label": lines.LET_GO % {"monster": name}}]
    if t == "attack":
        return _attack_actions(state, p)
    if t == "move":
        return [{"type": "to", "square": sq, "label": lines.MOVE_TO % square_values(sq)} for sq in p["options"]]
    if t == "next_monster":
        return [{"type": "next", "monster": mid, "label": lines.ACTS_NEXT % {"monster": named(state, mid)}}
                for mid in p["options"]]
    if t == "monster_move":
        name = named(state, p["monster"])
        return [{"type": "monster_to", "square": sq, "label": lines.MONSTER_TO % {"monster": name, **square_values(sq)}}
                for sq in p["options"]]
    name = named(state, p["monster"])
    acts = [{"type": "target", "merc": i, "label": lines.TARGETS % {"monster": name, "merc": mercs[i]["name"]}}
            for i in p["options"]]
    if p["hold"]:
        acts.append({"type": "hold", "label": lines.HOLDS % {"monster": name}})
    return acts


def _attack_actions(state, p) -> list[dict]:
    merc = state["mercs"][p["merc"]]
    skills = skill_cards(state, merc, p["kind"])
    acts = [{"type": "add", "card": c, "label": lines.PLAY % {"card": named(state, c)}}
            for c in one_per_code(state, skills)]
    if p["kind"] == "melee":
        if not p["cards"]:  # an attack is made with Skill Melee cards: at least one goes in first (D21)
            return acts
        strike = lines.STRIKE % {"monster": named(state, p["target"])}
        return acts + [{"type": "strike", "target": p["target"], "label": strike}]
    targets = ranged_targets(state, merc, p["cards"])
    acts += [{"type": "strike", "target": t, "label": lines.SHOOT % {"monster": named(state, t)}} for t in targets]
    if not targets:
        acts.append({"type": "withdraw", "label": lines.TAKE_BACK})
    return acts


def _turn_actions(state) -> list[dict]:
    index = state["current"]
    merc = state["mercs"][index]
    acts = []
    if not merc["moved"] and can_move(state, merc["pos"], index):
        acts.append({"type": "move", "merc": index, "label": lines.MOVE})
    if merc["health"] > 0 and not merc["acted"] and not merc["attacked"]:
        for m in state["board"] if skill_cards(state, merc, "melee") else ():
            if adjacent(m["pos"], merc["pos"]):
                acts.append({"type": "attack", "merc": index, "kind": "melee", "target": m["id"],
                             "label": lines.MELEE_ATTACK % {"monster": named(state, m["id"])}})
        if ranged_targets(state, merc, skill_cards(state, merc, "ranged")):
            acts.append({"type": "attack", "merc": index, "kind": "ranged", "label": lines.RANGED_ATTACK})
    acts.append({"type": "end_turn", "merc": index, "label": lines.END_TURN})
    return acts


def legal_actions(state) -> list[dict]:
    """The decision the table waits for (first), then what any mercenary may do at any time."""
    return _decision_actions(state) + free_actions(state)


def _decision_actions(state) -> list[dict]:
    seats = to_act(state)
    if state["pending"]:
        return [{**a, "seat": seats[0]} for a in _pending_actions(state, state["pending"])]
    if state["phase"] == "mercs" and seats:
        return [{**a, "seat": seats[0]} for a in _turn_actions(state)]
    if state["phase"] == "end_turn":
        return [{"type": "done", "seat": s, "label": lines.DONE} for s in seats]
    return []


def _same(legal, given: dict) -> bool:
    """Whether a legal action has ``given``'s fields (labels aside), each value compared as text, as a sorted
    tuple of ``(field, str(value))`` pairs would be: the search's playouts match every step, so no sorting."""
    count = 0
    for k, v in legal.items():
        if k == "label":
            continue
        want = given.get(k)
        if want is None or str(v) != want:
            return False
        count += 1
    return count == len(given)


_SQUARE = {"square": list_of(WHOLE, max_items=2)}
ACTION_SHAPES = {
    "place": _SQUARE, "to": _SQUARE, "monster_to": _SQUARE,
    "enter": {"merc": WHOLE, "column": WHOLE},
    "lead": {"merc": WHOLE}, "move": {"merc": WHOLE}, "target": {"merc": WHOLE}, "end_turn": {"merc": WHOLE},
    "ability": {"merc": WHOLE, "card": TEXT}, "blue": {"merc": WHOLE, "card": TEXT},
    "acquire": {"merc": WHOLE, "code": TEXT},
    "attack": {"merc": WHOLE, "kind": TEXT, "target": TEXT},
    "add": {"card": TEXT}, "defend": {"card": TEXT},
    "strike": {"target": TEXT}, "next": {"monster": TEXT},
    **{kind: {} for kind in ("decline", "done", "hold", "lash_out", "let_go", "retaliate", "take", "withdraw")},
}


@checked(ACTION_SHAPES, Words(gettext_noop("the dungeon game")))
def apply(state, action, rng) -> dict:
    if not isinstance(action, dict) or "type" not in action:
        raise IllegalAction(gettext_noop("An action needs a type."))
    # an action is matched against the legal ones of its own type: the decision's, or those open at any time
    # (an action open at any time names its mercenary: only that mercenary's are listed, since no other's match)
    kind = action["type"]
    given = {k: str(list(v) if isinstance(v, tuple) else v) for k, v in action.items() if k != "label"}
    match = None
    for legal in free_actions(state, action.get("merc")) if kind in FREE else _decision_actions(state):
        if legal["type"] == kind and _same(legal, given):
            match = legal  # the last one, as a dict of them by key would keep
    if match is None:
        if action.get("type") not in KNOWN:
            raise IllegalAction(gettext_noop("There is no such move as %(kind)r in this game."),
                                kind=action.get("type"))
        raise IllegalAction(gettext_noop("That is not a move the rules allow right now."))
    state = thaw_state(state)
    if match["type"] in FREE:
        do_free(state, match, rng)
    else:
        _do(state, match, rng)
    advance(state, rng)
    return state


def _do(state, a, rng) -> None:
    t = a["type"]
    p = state["pending"]
    state["pending"] = None
    if t == "place":
        place_monster(state, p["monster"], a["square"])
    elif t == "enter":
        merc = state["mercs"][a["merc"]]
        merc["pos"] = [MERC_ROW, a["column"]]
        event(state, lines.ENTERS % {"merc": merc["name"], "column": a["column"] + 1})
    elif t == "lead":
        state["leads"].append(a["merc"])
    elif t == "defend":
        merc = state["mercs"][p["merc"]]
        merc["hand"].remove(a["card"])
        if stats(state, a["card"])["skill"] == "defence":
            merc["defence"].append(a["card"])
        else:
            state["combat"]["cards"].append(a["card"])
        state["combat"]["stage"] = "defend"
    elif t == "retaliate":
        state["pending"] = merc_strikes(state, p["merc"], p["monster"], retaliation=True)
    elif t == "decline":
        end_combat(state)
    elif t == "lash_out":
        state["pending"] = merc_strikes(state, p["merc"], p["monster"], lash=True)
    elif t in ("attack", "move"):
        _start_own(state, a)
    elif t in ("add", "withdraw", "strike"):
        _attack_step(state, a, p)
    elif t == "to":
        state["mercs"][p["merc"]]["moved"] = True
        start_retreat(state, p["merc"], a["square"])
    elif t == "next":
        monster_acts(state, a["monster"], rng)
    elif t == "monster_to":
        move_monster(state, monster(state, p["monster"]), a["square"])
    elif t == "target":
        monster_attacks(state, p["monster"], a["merc"], p["kind"])
    elif t == "end_turn":
        state["current"] = None
    elif t == "done":
        state["done"].append(a["seat"])
    # "take", "let_go" and "hold" only clear the decision: the game runs on


def _start_own(state, a) -> None:
    if a["type"] == "attack":
        state["mercs"][a["merc"]]["attacked"] = True
        state["pending"] = {"type": "attack", "seat": a["seat"], "merc": a["merc"], "kind": a["kind"],
                            "target": a.get("target"), "cards": []}
        return
    merc = state["mercs"][a["merc"]]
    options = sorted(destinations(state, tuple(merc["pos"]), a["merc"]))
    state["pending"] = {"type": "move", "seat": a["seat"], "merc": a["merc"], "options": [list(o) for o in options]}


def _attack_step(state, a, p) -> None:
    """Cards go into an attack one by one; a strike resolves it; a ranged attack out of range is taken back."""
    merc = state["mercs"][p["merc"]]
    if a["type"] == "add":
        merc["hand"].remove(a["card"])
        p["cards"].append(a["card"])
        state["pending"] = p
        if state["combat"]:
            state["combat"]["cards"].append(a["card"])
    elif a["type"] == "withdraw":
        merc["hand"] += p["cards"]
        merc["attacked"] = False
    elif state["combat"] is None:
        state["combat"] = {"who": "merc", "monster": a["target"], "merc": p["merc"], "kind": p["kind"], "lash": False,
                           "retaliation": False, "cards": list(p["cards"]), "stage": "resolve"}
    else:
        state["combat"]["monster"] = a["target"]
        state["combat"]["stage"] = "resolve"
