"""Turns and skirmishes: Offense, Defense, reveal, the two reaction windows, dice, result.

* Turn: the active commander plays a unit face down on Offense, or Passes (loses 1
  Morale, the turn ends), or is Unable (no playable unit: no cost, the other
  commander takes the turn). When neither can play on Offense the Phase ends.
* Defense: the other commander plays a unit face down, or Passes (the attacker is
  Unopposed; no Morale cost beyond the Unopposed damage), or is Unable -- ruling
  AR3: then nobody Passed, so the attacker is not Unopposed: no Skirmish, no dice, no
  Morale damage; the unit is revealed and Exhausted (it spent its turn).
* Reveal: both cards turn face up; Roles chosen with the play take effect.
* Two reaction windows (ruling AR1): after the reveal (before the dice) and after
  the dice (before the result). Attacker first, then alternating, until both decline
  in succession; a commander with nothing to use declines automatically. Ties
  (equal totals and equal base Strength) re-roll every die and open the post-dice
  window again. A window ends by the rulebooks' own rule for a loop (ruling AR32, issue 36,
  tabletop/engines/repetition.py): the same position (``position_parts``: hands and piles, the
  units in the skirmish and their modifiers, the dice, the declines and the commander to react)
  coming round a third time closes it as if both declined. Two cards that return each other to
  hand (a Reliquary and a Herbalist) may do so, as the rules allow, but not for ever. The count is
  the window's ``seen``, gone when the window closes.
* Result: the higher total wins and goes to Exhausted; the loser is Disabled, or
  Killed when the winner's total exceeds it by 3 or more. Equal totals go to the
  higher printed Strength (a win by 0: Disabled); equal again: re-roll; if no die can
  break it (two Equipment), a stand-off: both Exhausted, nobody wins (odds AO1).
  0-Strength Equipment is Killed without a roll and the other unit wins (two of them:
  both Killed, nobody wins -- AO3). With a ``no_damage`` unit the loser is Exhausted
  (AO4). Then: kill saving, Healers (attacker, then defender), and the defender
  takes the next turn.
* Unopposed: the unit rolls and Adds modifiers as in a skirmish (both windows still
  open: discards may help it); every 4 whole points deal 1 Morale damage to the
  defender; the unit then goes to Exhausted (ruling AR4: it spent itself attacking).
"""

from __future__ import annotations

from .. import repetition
from . import lines
from .choices import reaction_options
from .common import SIDES, event, lose_morale, move, name, other, playable, push, take
from .dice import roll
from .powers import POWERS, power_of, protected_fate, uses
from .steps import ask, handler
from .strength import auto_killed, breakdown, dice_count, dice_mode, no_damage, total, unit


def role_title(role: str) -> str:
    return role.replace("_", " ").title()


@handler("turn")
def _turn(state, task, rng):
    seat = state["active"]
    if playable(state, seat):
        ask(state, "offense", seat, {"do": "turn"})
    elif playable(state, other(seat)):
        event(state, lines.UNABLE_OFFENSE % {"name": name(state, seat), "other": name(state, other(seat))})
        state["active"] = other(seat)
        ask(state, "offense", other(seat), {"do": "turn"})
    else:
        push(state, {"do": "phase_end"})


@handler("next_turn")
def _next_turn(state, task, rng):
    state["active"] = task["seat"]
    push(state, {"do": "turn"})


def entry(state: dict, seat: int, card_id: str, role: str | None) -> dict:
    printed = state["cards"][card_id]["role"]
    source = power_of(state, seat).key if role and role != printed else None
    return {"card": card_id, "role": role or printed, "role_source": source, "revealed": False}


def play_offense(state: dict, seat: int, card_id: str, role: str | None) -> None:
    take(state, card_id)
    state["number"] += 1
    state["skirmish"] = {
        "n": state["number"], "attacker": seat, "defender": other(seat),
        "offense": entry(state, seat, card_id, role), "defense": None, "unopposed": False,
        "mods": [{"side": mod["side"], "amount": mod["amount"], "source": lines.GM, "kind": "gm"}
                 for mod in state["gm_next"]],
        "dice": None, "window": None, "once": [], "rerolls": 0,
    }
    state["gm_next"] = []
    state["pass_run"] = []
    event(state, lines.PLAYS_OFFENSE % {"n": state["number"], "name": name(state, seat)})
    push(state, {"do": "defense"})


def pass_offense(state: dict, seat: int) -> None:
    if seat not in state["pass_run"]:
        state["pass_run"].append(seat)
    event(state, lines.PASSES_OFFENSE % {"name": name(state, seat)})
    if len(state["pass_run"]) == 2:
        push(state, {"do": "finish", "reason": "passed"})
    elif not playable(state, other(seat)):
        # Ruling AR6: the other commander is Unable, so nobody will play on Offense: the Phase ends.
        event(state, lines.NOBODY_OFFENSE % {"name": name(state, other(seat))})
        push(state, {"do": "phase_end"})
    else:
        push(state, {"do": "next_turn", "seat": other(seat)})
    lose_morale(state, seat, 1, lines.PASSED_OFFENSE)


@handler("defense")
def _defense(state, task, rng):
    seat = state["skirmish"]["defender"]
    if playable(state, seat):
        ask(state, "defense", seat, {"do": "defense"})
        return
    resolve_unable(state)


def resolve_unable(state: dict) -> None:
    """Ruling AR3: the defender cannot play, so nobody Passed and the unit is not Unopposed.

    "If a commander could play a card on Defense but does not, the attacker's unit is
    considered Unopposed"; the glossary: Unopposed "(the defender Passed)". No Skirmish is
    fought and no Morale is lost; the unit is revealed and goes to the Exhausted pile (it
    spent its turn, as an Unopposed unit does: AR4). Healers follow, as after any attack.
    """
    skirmish = state["skirmish"]
    skirmish["offense"]["revealed"] = True
    if skirmish["offense"]["role_source"] == "shapeshifter":
        uses(state, skirmish["attacker"])["shapeshifter"] = 1
    defender = name(state, skirmish["defender"])
    attacker, played_as = describe_unit(state, "offense")
    event(state, lines.REVEALED_ALONE[played_as] % attacker)
    card_name = state["cards"][skirmish["offense"]["card"]]["name"]
    record(state, None, None, lines.UNABLE_DEFENSE % {"name": defender, "card": card_name}, unable=True)
    move(state, skirmish["offense"]["card"], "exhausted")
    finish_skirmish(state, [])


def play_defense(state: dict, seat: int, card_id: str, role: str | None) -> None:
    take(state, card_id)
    state["skirmish"]["defense"] = entry(state, seat, card_id, role)
    state["last_defender"] = seat
    event(state, lines.PLAYS_DEFENSE % {"name": name(state, seat)})
    push(state, {"do": "reveal"})


def pass_defense(state: dict, seat: int) -> None:
    state["skirmish"]["unopposed"] = True
    event(state, lines.PASSES_DEFENSE % {"name": name(state, seat)})
    push(state, {"do": "reveal"})


def describe_unit(state: dict, side: str) -> tuple[dict, bool]:
    """The values that name a revealed unit in a line, and whether a power changed its Role."""
    me, raw = unit(state, side), state["skirmish"][side]
    values = {"name": name(state, me["seat"]), "card": me["card"]["name"], "role": role_title(me["role"])}
    if raw["role_source"]:
        values["power"] = POWERS[raw["role_source"]].title
    return values, bool(raw["role_source"])


@handler("reveal")
def _reveal(state, task, rng):
    skirmish = state["skirmish"]
    for side in SIDES:
        if skirmish[side]:
            skirmish[side]["revealed"] = True
            if skirmish[side]["role_source"] == "shapeshifter":
                uses(state, state["cards"][skirmish[side]["card"]]["owner"])["shapeshifter"] = 1
    attacker, played_as = describe_unit(state, "offense")
    if skirmish["unopposed"]:
        event(state, lines.REVEALED_UNOPPOSED[played_as] % attacker)
    else:
        defender, defender_played_as = describe_unit(state, "defense")
        event(state, lines.REVEALED[played_as, defender_played_as] % {
            **attacker, **{f"enemy_{key}" if key != "name" else "enemy": value for key, value in defender.items()}})
    push(state, {"do": "window", "stage": "pre"})


@handler("window")
def _window(state, task, rng):
    state["skirmish"]["window"] = {"stage": task["stage"], "turn": state["skirmish"]["attacker"], "declines": 0}
    push(state, {"do": "window_next"})


@handler("window_next")
def _window_next(state, task, rng):
    skirmish = state["skirmish"]
    window = skirmish["window"]
    while window["declines"] < 2:
        seat = window["turn"]
        if reaction_options(state, seat):
            if _third_time(state, window):
                break
            ask(state, "react", seat, {"do": "window_next"})
            return
        window["declines"] += 1
        window["turn"] = other(seat)
    skirmish["window"] = None
    push(state, {"do": "skirmish_roll"} if window["stage"] == "pre" else {"do": "resolve"})


def position_parts(state: dict) -> list:
    """What makes two moments of a reaction window the same position (AR32); no counter that only grows."""
    skirmish, window = state["skirmish"], state["skirmish"]["window"]
    return [state["piles"], [skirmish[side] for side in SIDES], skirmish["mods"], state["phase_effects"],
            skirmish["dice"], window["stage"], window["declines"], window["turn"]]


def _third_time(state: dict, window: dict) -> bool:
    """Count the window's position; the third time it comes round, the window closes as if both declined."""
    if repetition.remember(window.setdefault("seen", {}), position_parts(state)) < repetition.THIRD:
        return False
    event(state, lines.THIRD_TIME)
    return True


def react_done(state: dict, seat: int, declined: bool) -> None:
    """Bookkeeping of a reaction: the other commander may answer (or the window closes)."""
    window = state["skirmish"]["window"]
    window["declines"] = window["declines"] + 1 if declined else 0
    window["turn"] = other(seat)
    push(state, {"do": "window_next"})


def sides_in_play(state: dict) -> list[str]:
    return [side for side in SIDES if state["skirmish"][side]]


@handler("skirmish_roll")
def _skirmish_roll(state, task, rng):
    skirmish = state["skirmish"]
    sides = sides_in_play(state)
    labels = []
    if not any(auto_killed(state, side) for side in sides):
        for side in sides:
            count = dice_count(dice_mode(state, side))
            card_name = state["cards"][skirmish[side]["card"]]["name"]
            labels += [(lines.ROLL_LABEL_N if count > 1 else lines.ROLL_LABEL)[side] % {"card": card_name, "n": n}
                       for n in range(1, count + 1)]
    if not labels:
        skirmish["dice"] = {side: [] for side in sides}
        push(state, {"do": "resolve"})
        return
    roll(state, labels, {"do": "skirmish_rolled"})


@handler("skirmish_rolled")
def _skirmish_rolled(state, task, rng):
    values, dice, parts = list(task["values"]), {}, []
    for side in sides_in_play(state):
        count = dice_count(dice_mode(state, side))
        dice[side], values = values[:count], values[count:]
    state["skirmish"]["dice"] = dice
    for side in sides_in_play(state):
        info = breakdown(state, side)
        rolled = ", ".join(str(v) for v in info["dice"]) or lines.NO_DIE
        keeps = len(info["dice"]) > 1
        parts.append(({"name": info["name"], "dice_words": rolled, "kept": info["kept"], "total": info["total"]},
                      keeps))
    if len(parts) == 1:
        event(state, lines.ROLLED_ONE[parts[0][1]] % parts[0][0])
    else:
        (first, first_keeps), (second, second_keeps) = parts
        event(state, lines.ROLLED_TWO[first_keeps, second_keeps] % {
            **first, **{f"other_{key}" if key != "name" else "other": value for key, value in second.items()}})
    push(state, {"do": "window", "stage": "post"})


def record(state: dict, winner: str | None, margin: int | None, result: str, **extra) -> None:
    skirmish = state["skirmish"]
    state["last"] = {"n": skirmish["n"], "attacker": skirmish["attacker"], "defender": skirmish["defender"],
                     "unopposed": skirmish["unopposed"], "offense": breakdown(state, "offense"),
                     "defense": breakdown(state, "defense"), "rerolls": skirmish["rerolls"],
                     "winner": winner, "margin": margin, "result": result, **extra}
    event(state, result)


@handler("resolve")
def _resolve(state, task, rng):
    skirmish = state["skirmish"]
    if skirmish["unopposed"]:
        resolve_unopposed(state)
        return
    names = {side: state["cards"][skirmish[side]["card"]]["name"] for side in SIDES}
    doomed = [side for side in SIDES if auto_killed(state, side)]
    fates: dict[str, str] = {}
    tie_break = False
    if doomed:
        winner = None if len(doomed) == 2 else next(side for side in SIDES if side not in doomed)
        margin = None
        fates = {side: "killed" if side in doomed else "exhausted" for side in SIDES}
        text = (lines.EQUIPMENT_BOTH if winner is None else
                lines.EQUIPMENT_ONE % {"card": names[doomed[0]], "winner": names[winner]})
    else:
        offense, defense = total(state, "offense"), total(state, "defense")
        margin = offense - defense
        winner = "offense" if margin > 0 else "defense" if margin < 0 else None
        if winner is None:
            bases = {side: unit(state, side)["card"]["strength"] for side in SIDES}
            if bases["offense"] != bases["defense"]:
                winner, tie_break = max(SIDES, key=lambda side: bases[side]), True
            elif any(skirmish["dice"][side] for side in SIDES):
                skirmish["rerolls"] += 1
                event(state, lines.TIE_AGAIN % {"total": offense})
                push(state, {"do": "skirmish_roll"})
                return
        if winner is None:
            fates = {"offense": "exhausted", "defense": "exhausted"}
            text = lines.STAND_OFF % {"offense": names["offense"], "o": offense, "defense": names["defense"],
                                      "d": defense}
        else:
            loser = "defense" if winner == "offense" else "offense"
            fate = "killed" if abs(margin) >= 3 else "disabled"
            if no_damage(state, "offense") or no_damage(state, "defense"):
                fate = "exhausted"
            fates = {winner: "exhausted", loser: fate}
            text = lines.WINS[fate, tie_break] % {"offense": names["offense"], "o": offense,
                                                  "defense": names["defense"], "d": defense,
                                                  "winner": names[winner], "loser": names[loser]}
    record(state, winner, margin, text, tie_break=tie_break)
    seats = {side: state["cards"][skirmish[side]["card"]]["owner"] for side in SIDES}
    kills = []
    for side in SIDES:
        card_id = skirmish[side]["card"]
        if fates[side] == "killed":
            move(state, card_id, "killed", final_kill=False)
            kills.append({"do": "kill", "card": card_id, "by": other(seats[side]), "cause": "skirmish"})
        else:
            fate = protected_fate(state, card_id, "disabled", "skirmish") if fates[side] == "disabled" else "exhausted"
            if fate != fates[side]:
                event(state, lines.OATHBOUND_EXHAUSTED % {"card": names[side]})
            move(state, card_id, fate)
    if winner is not None:
        power_of(state, seats[winner]).after_skirmish(state, seats[winner], True)
        loser_seat = seats["defense" if winner == "offense" else "offense"]
        power_of(state, loser_seat).after_skirmish(state, loser_seat, False)
    finish_skirmish(state, kills)


def resolve_unopposed(state: dict) -> None:
    skirmish = state["skirmish"]
    points = total(state, "offense")
    damage = 0 if no_damage(state, "offense") else max(0, points // 4)
    card_name = state["cards"][skirmish["offense"]["card"]]["name"]
    record(state, "offense", None, lines.UNOPPOSED_DAMAGE % {"card": card_name, "points": points, "damage": damage,
                                                             "name": name(state, skirmish["defender"])},
           damage=damage)
    move(state, skirmish["offense"]["card"], "exhausted")
    finish_skirmish(state, [])
    lose_morale(state, skirmish["defender"], damage, lines.UNOPPOSED_WHY % {"card": card_name})


def finish_skirmish(state: dict, kills: list[dict]) -> None:
    skirmish = state["skirmish"]
    state["skirmish"] = None
    push(state, *kills, {"do": "heal", "seat": skirmish["attacker"]}, {"do": "heal", "seat": skirmish["defender"]},
         {"do": "next_turn", "seat": skirmish["defender"]})


__all__ = ["play_offense", "play_defense", "pass_offense", "pass_defense", "react_done"]
