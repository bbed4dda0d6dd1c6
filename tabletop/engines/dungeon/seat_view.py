"""What each seat may see of a dungeon table, and the outcome.

* Everybody sees the battle area (monsters with wounds and Acted tokens, mercenaries),
  each mercenary's Health, EXP, played defence cards, acquired card and pile counts,
  the area feature, the resource stacks, the face-up reserve and the discard piles.
* A player sees the hands of their own mercenaries; the GM sees every hand. Nobody sees
  a deck's order or the face-down monster and area feature decks.
* Each seat sees its own choices: the decision the table waits for, and what its
  mercenaries may do at any time (kept apart as ``anytime``); the GM sees every seat's.
* Words (issue 15, docs/rulings.md PH2): ``turn_text`` says what the table waits for, and to the
  deciding seat's own phone that it is their decision ("Your decision: ..."), never "Waiting for"
  their own name; each choice's label names the mercenary it moves (a bare "Move" or
  "Retaliate" says nothing on a table of four), and a square to tap on the board has a short
  visible text ("Move here") besides its full label.
"""

from __future__ import annotations

from ..kernel import GM, counted
from . import board, lines
from .actions import legal_actions, square_values
from .anytime import FREE
from .flow import to_act


def _card(state, card_id):
    c = board.card(state, card_id)
    shown = {"id": card_id, "name": c["name"], "kind": c["kind"]}
    if c["kind"] == "skill":
        shown.update(skill=c["stats"]["skill"], value=c["stats"]["value"], min_range=c["stats"].get("min_range"),
                     max_range=c["stats"].get("max_range"))
    return shown


def _does(card: dict) -> str:
    """What a resource card does, in words, from its catalog data (issue 25: the resource area shows it)."""
    stats = card["stats"]
    text = card.get("text") or ""
    if card["kind"] == "skill" and stats["skill"] in lines.SKILL_DOES:
        template = (lines.SKILL_DOES_AND if text else lines.SKILL_DOES)[stats["skill"]]
        values = {"value": stats["value"], "low": stats.get("min_range"), "high": stats.get("max_range")}
    elif card["kind"] == "ability" and stats.get("effect") in _EFFECTS:
        amount = stats.get("amount", 0)
        effect = (stats["effect"], amount != 1) if stats["effect"] == "draw" else stats["effect"]
        template, values = (lines.PLAY_TO_AND if text else lines.PLAY_TO)[effect], {"amount": amount}
    else:
        return counted(text)  # ruling PH9
    return counted(template % {**values, "text": text} if text else template % values)


_EFFECTS = ("heal", "exp", "draw")


def _statuses(holder) -> list[str]:
    """Status effects as words, e.g. "poisoned (1 turn left)", for a mercenary or a monster (D24)."""
    return [lines.STATUS_LEFT[name, held["turns"] != 1] % {"turns": held["turns"]}
            for name, held in sorted((holder.get("status") or {}).items())]


def _sees_hand(seat, merc) -> bool:
    return seat == GM or seat == merc["owner"]


def view(state: dict, seat) -> dict:
    grid = [[{"piece": None, "tap": None} for _ in range(board.SIZE)] for _ in range(board.SIZE)]
    for m in state["board"]:
        s = board.stats(state, m["id"])
        grid[m["pos"][0]][m["pos"][1]]["piece"] = {
            "kind": "monster", "id": m["id"], "name": board.card(state, m["id"])["name"], "wounds": m["wounds"],
            "health": s["health"], "acted": m["acted"], "type": board.category(state, m["id"]),
            "status": _statuses(m),
            "melee": s["melee"], "ranged": s["ranged"], "defence": s["defence"]}
    mercs = []
    for index, merc in enumerate(state["mercs"]):
        if merc["pos"]:
            grid[merc["pos"][0]][merc["pos"][1]]["piece"] = {
                "kind": "mercenary", "merc": index, "name": merc["name"], "colour": merc["colour"],
                "acted": merc["acted"], "health": merc["health"], "seat": merc["owner"]}
        mercs.append({
            "index": index, "name": merc["name"], "colour": merc["colour"], "seat": merc["owner"],
            "player": state["players"][merc["owner"]], "health": merc["health"], "exp": merc["exp"],
            "minus": merc["health"] <= 0, "hand_count": len(merc["hand"]), "deck_count": len(merc["deck"]),
            "discard_count": len(merc["discard"]), "acted": merc["acted"], "first": index == state["first"],
            "acting": index == state["current"] and state["phase"] == "mercs",
            "defence": [_card(state, c) for c in merc["defence"]],
            "acquired": [_card(state, c) for c in merc["acquired"]],
            "hand": [_card(state, c) for c in merc["hand"]] if _sees_hand(seat, merc) else None,
            "mine": seat == merc["owner"], "status": _statuses(merc),
        })
    acting = to_act(state)
    mine = [a for a in legal_actions(state) if seat == GM or (seat is not None and a["seat"] == seat)]
    choices = [a for a in mine if a["type"] not in FREE]
    anytime = [a for a in mine if a["type"] in FREE]
    choices = [{**a, "label": _spoken(state, a)} for a in choices]
    for a in choices:  # a choice of square can also be tapped on the board
        square = a.get("square") or ([board.MERC_ROW, a["column"]] if a["type"] == "enter" else None)
        if square:
            grid[square[0]][square[1]]["tap"] = a
            grid[square[0]][square[1]]["tap_text"] = lines.TAP_TEXT.get(a["type"], lines.CHOOSE_THIS_SQUARE)
    attack = None
    p = state["pending"]
    if p and p["type"] == "attack":
        attack = [_card(state, c) for c in p["cards"]]
    decision = _decision(state, seat, acting)
    return {
        "turn_text": decision["text"], "decision": decision,
        "players": [{"seat": s, "name": name, "deck_master": s == state["dm"], "acting": s in acting}
                    for s, name in enumerate(state["players"])],
        "mode": state["mode"], "variant": state["variant"], "deck_master": state["dm"],
        "area": state["area"], "turn": state["turn"], "phase": state["phase"], "adventure": state.get("adventure"),
        "rows": grid,
        "mercs": mercs,
        "area_feature": ({"name": board.card(state, state["area_feature"])["name"],
                          "text": counted(board.card(state, state["area_feature"])["text"])}
                         if state["area_feature"] else None),
        "piles": {"monster_deck": len(state["monster_deck"]), "area_features": len(state["af_deck"]),
                  "monster_discard": len(state["monster_discard"]), "af_discard": len(state["af_discard"]),
                  "reserve": [board.card(state, c)["name"] for c in state["reserve"]]},
        "stacks": [{"code": c, "name": state["cards"][c]["name"], "left": len(ids), "kind": state["cards"][c]["kind"],
                    "cost": state["cards"][c]["stats"].get("cost", 0), "does": _does(state["cards"][c])}
                   for c, ids in sorted(state["stacks"].items())],
        "pending": p["type"] if p else None, "attack_cards": attack,
        "choices": choices, "anytime": anytime, "score": state["result"],
        "events": [counted(line) for line in state["events"][-14:]],  # ruling PH9
    }


def _merc_name(state, index) -> str:
    mercs = state["mercs"]
    return mercs[index]["name"] if isinstance(index, int) and 0 <= index < len(mercs) else "the mercenary"


def _what(state) -> str:
    """What the table waits for, as the end of a sentence (the pending decision, else the phase)."""
    p = state["pending"]
    if p is None:
        if state["phase"] == "mercs" and state["current"] is not None:
            return lines.MERC_TURN % {"merc": _merc_name(state, state["current"])}
        if state["phase"] == "end_turn":
            return lines.END_OF_TURN
        return lines.NEXT_STEP
    merc = _merc_name(state, p.get("merc"))
    monster = board.named(state, p["monster"]) if p.get("monster") else "the monster"
    combat = state.get("combat") or {}
    if p["type"] == "defend":
        if combat.get("who") == "trap":
            return lines.DEFENDS_AGAINST_TRAP % {"merc": merc}
        if not combat.get("monster"):
            return lines.DEFENDS_AGAINST_ATTACK % {"merc": merc}
        return lines.DEFENDS_AGAINST % {"merc": merc, "monster": board.named(state, combat["monster"])}
    if p["type"] == "attack":
        return lines.ATTACK_KIND[p.get("kind", "melee")] % {"merc": merc}
    template = _WAITS_FOR.get(p["type"], lines.NEXT_DECISION)
    return template % {"merc": merc, "monster": monster, "name": monster if p["type"] == "monster_move" else merc}


_WAITS_FOR = {
    "place_monster": lines.WHERE_PLACED,
    "enter": lines.WHERE_ENTERS,
    "lead": lines.WHICH_LEADS,
    "retaliate": lines.WHETHER_STRIKES_BACK,
    "lash_out": lines.WHETHER_LASHES_OUT,
    "move": lines.WHERE_MOVES,
    "next_monster": lines.WHICH_MONSTER_NEXT,
    "monster_move": lines.WHERE_MOVES,
    "target": lines.WHOM_ATTACKS,
}


def _decision(state, seat, acting) -> dict:
    """Whose decision it is, said to this seat: "Your decision" on the deciding phone."""
    if state["result"] is not None:
        text = lines.GAME_OVER % {"result_words": state["result"]["reason"]}
        return {"mine": False, "who": "", "what": "", "text": text}
    what = _what(state)
    where = {"area": state["area"], "turn": state["turn"]}
    who = " and ".join(state["players"][s] for s in acting)
    if not acting:
        return {"mine": False, "who": "", "what": what,
                "text": lines.NOBODY_DECIDES % {"what_words": f"{what[0].upper()}{what[1:]}", **where}}
    if seat in acting:
        text = lines.YOUR_DECISION % {"what_words": what, **where}
    elif seat == GM:
        text = lines.TO_DECIDE % {"who": who, "what_words": what, **where}
    else:
        text = lines.WAITING_FOR % {"who": who, "what_words": what, **where}
    return {"mine": seat in acting, "who": who, "what": what, "text": text}


def _spoken(state, action) -> str:
    """A choice's label that says what the button does and to whom (the engine's label otherwise)."""
    t, label = action["type"], action.get("label", "")
    p = state["pending"] or {}
    merc = _merc_name(state, action.get("merc", p.get("merc", state["current"])))
    monster = board.named(state, p["monster"]) if p.get("monster") else "the monster"
    if t == "move":
        return lines.MOVE_MERC % {"merc": merc}
    if t == "attack":
        if action.get("kind") == "ranged":
            return lines.MERC_RANGED % {"merc": merc}
        if not action.get("target"):
            return lines.MERC_MELEE_ANY % {"merc": merc}
        return lines.MERC_MELEE % {"merc": merc, "monster": board.named(state, action["target"])}
    if t == "end_turn":
        return lines.MERC_DONE % {"merc": merc}
    if t == "retaliate":
        return lines.STRIKES_BACK % {"merc": merc, "monster": monster}
    if t == "decline":
        return lines.DOES_NOT_STRIKE_BACK % {"merc": merc}
    if t in _FOR_MERC:
        return _for_merc(state, action, merc) if label else _FOR_MERC[t] % {"merc": merc}
    return label


# the engine's label said for the mercenary it moves ("Red Mercenary: defend with Basic Blocking"), or without a
# label what the choice does
_FOR_MERC = {"to": lines.MOVE_MERC_HERE, "take": lines.TAKES_THE_HIT, "defend": lines.DEFENDS,
             "add": lines.ATTACKS, "strike": lines.ATTACKS, "withdraw": lines.ATTACKS}


def _for_merc(state, action, merc) -> str:
    t = action["type"]
    if t == "to":
        return lines.MERC_MOVE_TO % {"merc": merc, **square_values(action["square"])}
    if t == "take":
        hit = action["label"] == lines.TAKE_THE_HIT
        return (lines.MERC_TAKES_THE_HIT if hit else lines.MERC_SUFFERS_THE_TRAP) % {"merc": merc}
    if t == "defend":
        return lines.MERC_DEFENDS_WITH % {"merc": merc, "card": board.named(state, action["card"])}
    if t == "add":
        return lines.MERC_PLAYS % {"merc": merc, "card": board.named(state, action["card"])}
    if t == "withdraw":
        return lines.MERC_TAKES_BACK % {"merc": merc}
    shoots = (state["pending"] or {}).get("kind") == "ranged"
    return (lines.MERC_SHOOTS if shoots else lines.MERC_STRIKES) % {"merc": merc,
                                                                   "monster": board.named(state, action["target"])}


def card_names(state: dict) -> dict[str, str]:
    """Every card of the game by id, with the name its lines use (the simulate checks look for names)."""
    instances = {text for text in _strings(state) if "#" in text and board.code(text) in state["cards"]}
    return {card_id: board.named(state, card_id) for card_id in instances}


def _strings(data):
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def hidden_from(state: dict, seat) -> list[str]:
    hidden = list(state["monster_deck"]) + list(state["af_deck"])
    for merc in state["mercs"]:
        hidden += merc["deck"]
        if not _sees_hand(seat, merc):
            hidden += merc["hand"]
    return hidden


def outcome(state: dict):
    result = state["result"]
    if result is None:
        return None
    scores = {}
    for row in result["rows"]:
        scores[str(row["seat"])] = scores.get(str(row["seat"]), 0) + row["total"]
    return {"winners": list(result["winners"]), "scores": scores, "reason": result["reason"],
            "rows": result["rows"]}
