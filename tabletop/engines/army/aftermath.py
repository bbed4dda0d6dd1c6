"""After a skirmish and around it: kill saving, Healers, rout, Phases, the end and the winner.

* Kill saving: "A Commander may spend a Favor or 1/2 Influence (PCs) or 3 Morale
  (NPCs) to have a unit that would be Killed instead become Disabled", limited only
  by what they have. Each unit that would be Killed opens a decision for its
  commander: each affordable payment, or accept. The Alchemy Lab
  (``kill_immune_to_disabled``) and the Oathbound's unit go to Disabled without a
  payment. Morale paid that reaches 0 routs.
* Healers: after any skirmish (and after an Unopposed attack -- ruling AR5), first the
  attacker then the defender may, as often as they can, spend 1 Morale and discard a
  Healer from hand to return one card from their Disabled or Exhausted pile to hand,
  never one with more than twice the Healer's printed Strength.
* Rout: at 0 Morale a commander is Routed and loses at once (only the first: once one
  is Routed the battle is decided, and the other cannot be Routed too). Units still
  in the skirmish go to their Exhausted piles (ruling AR14). A unit that would be
  Killed before the rout keeps its commander's chance to save it (either side);
  then the opponent rolls a d6 for each routed unit (not Rituals) in the Disabled or
  Exhausted pile: 5+ Killed (the kill may still be saved or softened, and the
  Rogue rolls for it).
* Phases: when neither commander can play on Offense the first Phase ends: Exhausted
  cards return to hand, per-Phase powers reset, Morale does not refresh (ruling
  AR11), and the last commander to play on Defense begins the second (if nobody ever
  defended: the commander who did not take the first turn -- ruling AR18). The battle
  ends when both are Unable again, or when both Pass in succession.
* The end: before the battle is over, a commander whose power can still act on the
  Killed pile (the Cleric) is offered it once more (ruling AR24); then the result.
* Winner: the other commander if one was Routed; else more kills (enemy cards in
  the enemy's Killed pile); then higher Morale (Base Morale left included); else both
  lose (ruling AR17).
"""

from __future__ import annotations

from . import abilities, lines
from .common import (
    PILES,
    SIDES,
    event,
    is_unit,
    location,
    lose_morale,
    move,
    name,
    other,
    push,
    put,
    take,
    total_morale,
)
from .dice import roll
from .effects import discard, heal_targets
from .powers import POWERS, power_of, protected_fate, uses
from .steps import ask, handler

# ---------------------------------------------------------------- kills

@handler("kill")
def _kill(state, task, rng):
    card_id = task["card"]
    if location(state, card_id) != "killed" or card_id in state["killed_log"]:
        return  # a GM override already decided this card's fate
    card, seat = state["cards"][card_id], state["cards"][card_id]["owner"]
    if abilities.has(card, "kill_immune_to_disabled"):
        move(state, card_id, "disabled")
        event(state, lines.IMMUNE % {"card": card["name"]})
        return
    if protected_fate(state, card_id, "killed", task["cause"]) == "disabled":
        move(state, card_id, "disabled")
        event(state, lines.OATHBOUND_DISABLED % {"card": card["name"]})
        return
    if save_options(state, seat):
        ask(state, "save", seat, task, card=card_id)
        return
    finalize_kill(state, task)


def save_options(state: dict, seat: int) -> list[str]:
    commander = state["commanders"][seat]
    if commander["kind"] == "pc":
        return [pay for pay, have in (("favor", commander["favors"]), ("influence", commander["influence_halves"]))
                if have >= 1]
    return ["morale"] if total_morale(state, seat) >= 3 else []


PAYMENTS = lines.PAYMENT_WORDS


def finalize_kill(state: dict, task: dict) -> None:
    card_id = task["card"]
    state["killed_log"].append(card_id)
    event(state, lines.KILLED % {"name": name(state, state["cards"][card_id]["owner"]),
                                 "card": state["cards"][card_id]["name"]})
    # The Rogue's "When you Kill an enemy unit" covers a rout roll's kill too (ruling AR14).
    power_of(state, task["by"]).on_kill(state, task["by"], card_id)


def save(state: dict, seat: int, pay: str) -> None:
    step = state["step"]
    state["step"] = None
    commander = state["commanders"][seat]
    move(state, step["card"], "disabled")
    event(state, lines.PAYS % {"name": name(state, seat), "pay_words": PAYMENTS[pay],
                               "card": state["cards"][step["card"]]["name"]})
    if pay == "favor":
        commander["favors"] -= 1
        commander["spent"]["favors"] += 1
    elif pay == "influence":
        commander["influence_halves"] -= 1
        commander["spent"]["influence_halves"] += 1
    else:
        commander["spent"]["morale"] += 3
        lose_morale(state, seat, 3, lines.TO_SAVE)


def accept_kill(state: dict) -> None:
    step = state["step"]
    state["step"] = None
    finalize_kill(state, step["task"])


# ---------------------------------------------------------------- healers

def healers(state: dict, seat: int) -> list[tuple[str, bool]]:
    """(card, as_shapeshifted) pairs that may be discarded as a Healer now."""
    cards = state["cards"]
    found = [(card_id, False) for card_id in state["piles"][seat]["hand"] if cards[card_id]["role"] == "healer"]
    if power_of(state, seat).heals_as_healer(state, seat):
        found += [(card_id, True) for card_id in state["piles"][seat]["hand"]
                  if cards[card_id]["role"] not in ("healer", "ritual")]
    return found


def heal_choices(state: dict, seat: int) -> list[tuple[str, str, bool]]:
    if total_morale(state, seat) < 1:
        return []
    cards = state["cards"]
    return [(healer, target, shifted) for healer, shifted in healers(state, seat)
            for target in heal_targets(state, seat, 2 * (cards[healer]["strength"] or 0))]


@handler("heal")
def _heal(state, task, rng):
    if state["phase"] in ("first", "second") and heal_choices(state, task["seat"]):
        ask(state, "heal", task["seat"], task)


def heal(state: dict, seat: int, healer: str, target: str, shifted: bool) -> None:
    state["step"] = None
    push(state, {"do": "heal", "seat": seat})
    if shifted:
        uses(state, seat)["shapeshifter"] = 1
    cards = state["cards"]
    move(state, target, "hand")
    discard(state, seat, healer)
    event(state, (lines.HEALS_SHIFTED if shifted else lines.HEALS) % {
        "name": name(state, seat), "healer": cards[healer]["name"], "card": cards[target]["name"]})
    lose_morale(state, seat, 1, lines.HEALER)


# ---------------------------------------------------------------- rout

@handler("rout")
def _rout(state, task, rng):
    seat = task["seat"]
    state["routing"] = None
    state["commanders"][seat]["routed"] = True
    # The rout ends the battle, not a kill already made: a unit that would be Killed keeps
    # its commander's chance to pay to save it (ruling AR14), whoever was Routed.
    step = state["step"]
    pending = [step["task"]] if step and step["kind"] == "save" else []
    pending += [each for each in state["tasks"] if each["do"] == "kill"]
    state["step"], state["tasks"] = None, []
    skirmish = state["skirmish"]
    if skirmish:
        for side in SIDES:
            if skirmish[side]:
                move(state, skirmish[side]["card"], "exhausted")
        state["skirmish"] = None
    waiting = {each["card"] for each in pending}
    for each in (0, 1):
        for card_id in state["piles"][each]["killed"]:
            if card_id not in state["killed_log"] and card_id not in waiting:
                state["killed_log"].append(card_id)
    event(state, lines.ROUTED % {"name": name(state, seat)})
    push(state, *pending, {"do": "rout_roll", "seat": seat}, {"do": "finish", "reason": "rout"})


@handler("rout_roll")
def _rout_roll(state, task, rng):
    """The opponent rolls for each unit in the routed commander's Disabled and Exhausted piles,
    as they stand once every kill made before the rout has been saved or accepted."""
    seat = task["seat"]
    routed = [card_id for pile in ("disabled", "exhausted") for card_id in state["piles"][seat][pile]
              if is_unit(state["cards"][card_id])]
    if routed:
        labels = [lines.ROUT_ROLL % {"name": name(state, other(seat)), "card": state["cards"][card_id]["name"]}
                  for card_id in routed]
        roll(state, labels, {"do": "rout_rolled", "seat": seat, "cards": routed})


@handler("rout_rolled")
def _rout_rolled(state, task, rng):
    seat, kills, rolled = task["seat"], [], []
    for card_id, value in zip(task["cards"], task["values"], strict=True):
        card_name = state["cards"][card_id]["name"]
        if value >= 5 and location(state, card_id) in ("disabled", "exhausted"):
            move(state, card_id, "killed", final_kill=False)
            kills.append({"do": "kill", "card": card_id, "by": other(seat), "cause": "rout"})
            rolled.append(f"{card_name} {value} (Killed)")
        else:
            rolled.append(f"{card_name} {value}")
    event(state, lines.ROUT_ROLLS % {"rolls": ", ".join(rolled)})
    push(state, *kills)


# ---------------------------------------------------------------- set-up decisions, phases, end

@handler("power_step")
def _power_step(state, task, rng):
    POWERS[task["power"]].begin(state, task)


@handler("choose_first")
def _choose_first(state, task, rng):
    ask(state, "choose_first", state["chooser"], task)


def choose_first(state: dict, seat: int, first: int) -> None:
    state["step"] = None
    state["first"] = state["active"] = first
    state["phase"] = "first"
    event(state, lines.DECIDES_FIRST % {"name": name(state, seat), "first": name(state, first)})


@handler("phase_end")
def _phase_end(state, task, rng):
    if state["phase"] != "first":
        push(state, {"do": "finish", "reason": "unable"})
        return
    state["phase"] = "second"
    for seat in (0, 1):
        for card_id in list(state["piles"][seat]["exhausted"]):
            move(state, card_id, "hand")
        used = uses(state, seat)
        used["rituals_phase"], used["battlemage_phase"] = 0, False
        state["commanders"][seat]["streak"] = 0
    state["phase_effects"] = [[], []]
    state["pass_run"] = []
    last = state["last_defender"]
    state["active"] = last if last is not None else other(state["first"])
    event(state, lines.SECOND_PHASE % {"name": name(state, state["active"])})
    push(state, {"do": "turn"})
    for seat in (1, 0):
        power_of(state, seat).on_second_phase(state, seat)





@handler("finish")
def _finish(state, task, rng):
    if task["reason"] != "gm" and not task.get("last_chance"):
        # Killed cards leave play only at the end of the battle: a power that returns one
        # (the Cleric) gets its chance after the last kill (ruling AR24). The GM's end is at once (H3).
        offers = [offer for seat in (0, 1) for offer in power_of(state, seat).at_end(state, seat)]
        if offers:
            push(state, *offers, {**task, "last_chance": True})
            return
    skirmish = state["skirmish"]
    if skirmish:  # the GM ended the battle mid-skirmish: the skirmish never happened
        for side in SIDES:
            if skirmish[side]:
                card_id = skirmish[side]["card"]
                take(state, card_id)
                put(state, card_id, "hand")
        state["skirmish"] = None
    for seat in (0, 1):  # a kill still waiting for its save stands: the battle ended first (ruling H3)
        state["killed_log"].extend(card_id for card_id in state["piles"][seat]["killed"]
                                   if card_id not in state["killed_log"])
    state["phase"], state["step"], state["tasks"] = "over", None, []
    state["result"] = result(state, task["reason"], task.get("winner", "rules"))
    event(state, state["result"]["reason"])


def result(state: dict, reason: str, forced="rules") -> dict:
    commanders = state["commanders"]
    kills = [len(state["piles"][other(seat)]["killed"]) for seat in (0, 1)]
    morale = [total_morale(state, seat) for seat in (0, 1)]
    routed = [seat for seat in (0, 1) if commanders[seat]["routed"]]
    names = [name(state, seat) for seat in (0, 1)]
    if forced != "rules":
        winner = forced
        why = lines.GM_WINNER % {"name": names[winner]} if winner is not None else lines.GM_NO_WINNER
    elif routed:
        winner = other(routed[0])
        why = lines.WAS_ROUTED % {"routed": names[routed[0]], "winner": names[winner]}
    elif kills[0] != kills[1]:
        winner = 0 if kills[0] > kills[1] else 1
        why = lines.MORE_KILLS % {"winner": names[winner], "kills": kills[winner], "other": kills[other(winner)]}
    elif morale[0] != morale[1]:
        winner = 0 if morale[0] > morale[1] else 1
        why = lines.MORE_MORALE % {"kills": kills[0], "winner": names[winner], "morale": morale[winner],
                                   "other": morale[other(winner)]}
    else:
        winner = None
        why = lines.ALL_TIED % {"kills": kills[0], "morale": morale[0]}
    sides = []
    for seat in (0, 1):
        commander, piles = commanders[seat], state["piles"][seat]
        sides.append({
            "seat": seat, "player": state["players"][seat], "commander": commander["name"],
            "kills": kills[seat], "killed": list(piles["killed"]), "disabled": list(piles["disabled"]),
            "exhausted": list(piles["exhausted"]), "hand": list(piles["hand"]),
            "used": [card_id for card_id in state["used"][seat] if not state["cards"][card_id].get("granted")],
            "morale": morale[seat], "start_morale": commander["start_morale"],
            "base_morale": commander["base_start"], "base_morale_used": commander["base_used"],
            "routed": commander["routed"], "spent_favors": commander["spent"]["favors"],
            "spent_influence_halves": commander["spent"]["influence_halves"],
            "cleric_used": bool(commander["uses"]["cleric"]), "winner": winner == seat,
        })
    losers = [seat for seat in (0, 1) if seat != winner]
    return {"winner": winner, "losers": losers, "how": reason,
            "reason": lines.REASONS[reason] % {"why_words": why} if reason in lines.REASONS else why, "kills": kills,
            "sides": sides}


__all__ = ["save", "accept_kill", "heal", "heal_choices", "save_options", "choose_first", "result", "PILES"]
