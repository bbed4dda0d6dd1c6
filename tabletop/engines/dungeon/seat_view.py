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
from . import board
from .actions import legal_actions
from .anytime import FREE
from .cards import EFFECT_TEXT
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
    if card["kind"] == "skill":
        reach = f", range {stats['min_range']}–{stats['max_range']}" if stats["skill"] == "ranged" else ""
        does = f"{stats['skill'].capitalize()} +{stats['value']}{reach}."
    elif card["kind"] == "ability" and stats.get("effect") in EFFECT_TEXT:
        does = "Play to " + EFFECT_TEXT[stats["effect"]].format(stats.get("amount", 0)) + "."
    else:
        does = ""
    return counted(" ".join(part for part in (does, card.get("text") or "") if part))  # ruling PH9


def _statuses(holder) -> list[str]:
    """Status effects as words, e.g. "poisoned (1 turn left)", for a mercenary or a monster (D24)."""
    words = {"poison": "poisoned", "burn": "burning", "webbed": "webbed"}
    return [f"{words[name]} ({held['turns']} turn{'s' if held['turns'] != 1 else ''} left)"
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
            grid[square[0]][square[1]]["tap_text"] = _TAP_TEXT.get(a["type"], "Choose this square")
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


_TAP_TEXT = {"place": "Place here", "enter": "Enter here", "to": "Move here", "monster_to": "Move it here"}


def _merc_name(state, index) -> str:
    mercs = state["mercs"]
    return mercs[index]["name"] if isinstance(index, int) and 0 <= index < len(mercs) else "the mercenary"


def _what(state) -> str:
    """What the table waits for, as the end of a sentence (the pending decision, else the phase)."""
    p = state["pending"]
    if p is None:
        if state["phase"] == "mercs" and state["current"] is not None:
            return f"{_merc_name(state, state['current'])}'s turn: move, attack or end the turn"
        if state["phase"] == "end_turn":
            return "the end of the turn: acquire cards with EXP, or say you are done"
        return "the next step"
    merc = _merc_name(state, p.get("merc"))
    monster = board.named(state, p["monster"]) if p.get("monster") else "the monster"
    combat = state.get("combat") or {}
    if p["type"] == "defend":
        attacker = ("the trap" if combat.get("who") == "trap"
                    else board.named(state, combat["monster"]) if combat.get("monster") else "the attack")
        return f"{merc} defends against {attacker} with a card, or takes the hit"
    if p["type"] == "attack":
        kind = p.get("kind", "melee")
        return f"{merc}'s {kind} attack: play Skill cards, then strike"
    return {
        "place_monster": f"where {monster} is placed",
        "enter": f"where {merc} enters the area",
        "lead": "which mercenary goes first this turn",
        "retaliate": f"whether {merc} strikes back at {monster}",
        "lash_out": f"whether {merc} lashes out at {monster} as it moves away",
        "move": f"where {merc} moves",
        "next_monster": "which monster acts next",
        "monster_move": f"where {monster} moves",
        "target": f"whom {monster} attacks",
    }.get(p["type"], "the next decision")


def _decision(state, seat, acting) -> dict:
    """Whose decision it is, said to this seat: "Your decision" on the deciding phone."""
    if state["result"] is not None:
        return {"mine": False, "who": "", "what": "", "text": f"Game over: {state['result']['reason']}"}
    what = _what(state)
    where = f"area {state['area']}, turn {state['turn']}"
    who = " and ".join(state["players"][s] for s in acting)
    if not acting:
        return {"mine": False, "who": "", "what": what, "text": f"{what[0].upper()}{what[1:]} ({where})"}
    if seat in acting:
        text = f"Your decision: {what} ({where})"
    elif seat == GM:
        text = f"{who} to decide: {what} ({where})"
    else:
        text = f"Waiting for {who}: {what} ({where})"
    return {"mine": seat in acting, "who": who, "what": what, "text": text}


def _spoken(state, action) -> str:
    """A choice's label that says what the button does and to whom (the engine's label otherwise)."""
    t, label = action["type"], action.get("label", "")
    p = state["pending"] or {}
    merc = _merc_name(state, action.get("merc", p.get("merc", state["current"])))
    monster = board.named(state, p["monster"]) if p.get("monster") else "the monster"
    if t == "move":
        return f"Move {merc}"
    if t == "to":
        return f"{merc}: {label[0].lower()}{label[1:]}" if label else f"Move {merc} here"
    if t == "attack":
        if action.get("kind") == "ranged":
            return f"{merc}: ranged attack (choose Skill cards, then a target)"
        target = board.named(state, action["target"]) if action.get("target") else "a monster"
        return f"{merc}: melee attack on {target}"
    if t == "end_turn":
        return f"End turn: {merc} is done"
    if t == "retaliate":
        return f"{merc} strikes back at {monster}"
    if t == "decline":
        return f"{merc} does not strike back"
    if t == "take":
        return f"{merc}: {label[0].lower()}{label[1:]}" if label else f"{merc} takes the hit"
    if t == "defend":
        return f"{merc}: {label[0].lower()}{label[1:]}" if label else f"{merc} defends"
    if t in ("add", "strike", "withdraw"):
        return f"{merc}: {label[0].lower()}{label[1:]}" if label else f"{merc} attacks"
    return label


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
