"""The luck report of a finished Army battle: every roll, how lucky it was, and who the dice favoured.

Pure: the standard library and the army engine. Rulings LK1-LK8 are in docs/rulings.md
("Army: the luck report"); LK6 (what is stored, the pages) is armies/selectors/luck.py's.

How the rolls are found (LK1). The battle is replayed from its log (config, setup draws,
live actions with their draws) as a *physical-dice* table, so every roll stops at a
``dice`` step where the state shows exactly what the table knew at that moment (the
units, their Roles, every modifier given before the dice). The dice the battle really
used are then entered there, in the engine's own order: dice the GM set with
``gm_set_dice`` first, then the action's app draws (an app table) or the dice the GM
typed (a physical table). The replay is checked against the battle's final state; a
log that does not replay to it gets no report rather than a wrong one.

What each roll gets:

* ``chance``: the chance the roller had of doing at least as well (LK2). A skirmish die
  (d6, or 2d6 keep the best): P(total >= the total rolled), from the odds module's
  ``total_distribution``. An Unopposed roll: P(Morale damage >= the damage rolled). A
  roll that succeeds on N+ (rout 5+, Rogue 4+, Battlemage 5+): P(N+) after a success, 1
  after a miss (every roll does at least as well as a miss). The Illusionist's d6:
  P(d6 >= the value), and no swing: which unit Adds it is chosen after the roll (LK7).
  A roll of any other kind is listed with "no odds" (None) rather than guessed (LK8).
* ``before`` / ``after`` / ``swing`` for skirmish dice (LK3): the roller's chance to win
  the skirmish (exact ``skirmish_odds``) just before and just after this side's dice,
  offense first, then defense; after both, 1, 0 or the tie-break, and a tie with equal
  base Strength is the re-roll's own chance (the re-roll is a fresh pair of rolls).
  Modifiers given after the dice are choices, not luck: they are not counted (LK4).
* per commander (LK5): ``score`` = the skirmishes won at the dice above (or below) the
  odds: the sum, over every skirmish roll of the battle (theirs and the enemy's), of
  the swing it made in this commander's chance to win that skirmish. The two scores
  are opposite. ``own_swing`` is the part made by their own dice; ``mean_chance`` the
  mean ``chance`` of their own rolls that have odds (lower is luckier; the pages show 1 - chance,
  higher is luckier: LK2).
* ``kept``, ``strength``, ``modifiers``: a skirmish or Unopposed total's parts, each modifier known when
  the dice were rolled by its name (LK4), so the pages show how the total adds up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..kernel import GM, IllegalAction, ScriptedRng, digest
from ..replay import live_entries
from . import actions, game, lines
from .common import other
from .dice import check_values
from .odds import SideDice, skirmish_odds, total_distribution, unopposed_odds
from .skirmish import sides_in_play
from .strength import dice_count, dice_mode, kept, modifiers, side_dice, unit

ZERO, ONE = Fraction(0), Fraction(1)
D6 = SideDice(base_strength=0)
# Rolls that succeed on N+ (the handler that reads them -> N, the roller's seat from the task).
THRESHOLDS = {"rout_rolled": 5, "rogue_rolled": 4, "battlemage_rolled": 5}
KINDS = {"rout_rolled": "rout", "rogue_rolled": "rogue", "battlemage_rolled": "battlemage",
         "illusion_rolled": "illusionist"}


class LuckError(Exception):
    """The log does not replay to the battle it claims to be (no report rather than a wrong one)."""


@dataclass(frozen=True)
class Roll:
    seat: int  # who rolled
    kind: str  # "skirmish" | "unopposed" | "rout" | "rogue" | "battlemage" | "illusionist" | "other"
    label: str  # what was rolled, as the table named it
    dice: tuple[int, ...]
    value: int  # the die that counts (the kept one), or the total for a skirmish or Unopposed side
    skirmish: int | None = None  # the skirmish number
    reroll: int = 0  # 0: the first roll of the skirmish; n: the n-th re-roll after a tie
    chance: Fraction | None = None  # at least as well; None: no odds
    before: Fraction | None = None  # the roller's chance to win the skirmish, skirmish dice only
    after: Fraction | None = None
    # A skirmish or Unopposed total's parts: the die that counts, the printed Strength and each named
    # modifier known when the dice were rolled (ruling LK4), so that kept + strength + modifiers = value.
    kept: int | None = None
    strength: int | None = None
    modifiers: tuple[tuple[str, int], ...] = ()

    @property
    def swing(self) -> Fraction | None:
        return None if self.before is None else self.after - self.before


@dataclass(frozen=True)
class CommanderLuck:
    seat: int
    name: str
    score: Fraction  # skirmishes won at the dice above the odds (negative: below)
    own_swing: Fraction
    rolls: int
    odds_rolls: int  # rolls with odds, those ``mean_chance`` is the mean of
    mean_chance: Fraction | None


@dataclass(frozen=True)
class BattleLuck:
    rolls: tuple[Roll, ...]
    commanders: tuple[CommanderLuck, ...] = field(default=())

    def as_json(self) -> dict:
        """Plain JSON for a cache and the pages: each probability ``{"exact": "p/q", "p": float}``."""
        return {
            "rolls": [{"seat": r.seat, "kind": r.kind, "label": r.label, "dice": list(r.dice), "value": r.value,
                       "skirmish": r.skirmish, "reroll": r.reroll, "chance": _json(r.chance),
                       "before": _json(r.before), "after": _json(r.after), "swing": _json(r.swing),
                       "kept": r.kept, "strength": r.strength, "modifiers": [list(m) for m in r.modifiers]}
                      for r in self.rolls],
            "commanders": [{"seat": c.seat, "name": c.name, "score": _json(c.score), "own_swing": _json(c.own_swing),
                            "rolls": c.rolls, "odds_rolls": c.odds_rolls,
                            "mean_chance": _json(c.mean_chance)} for c in self.commanders],
        }


def _json(value: Fraction | None) -> dict | None:
    if value is None:
        return None
    return {"exact": f"{value.numerator}/{value.denominator}", "p": float(value)}


# ---------------------------------------------------------------- the odds of one roll

def at_least(side: SideDice, total: int) -> Fraction:
    """P(the side's total >= ``total``)."""
    return sum((p for value, p in total_distribution(side).items() if value >= total), ZERO)


def threshold_chance(value: int, needed: int) -> Fraction:
    """A roll that succeeds on ``needed``+: after a success P(success), after a miss 1 (ruling LK2)."""
    return at_least(D6, needed) if value >= needed else ONE


def offense_wins(offense: dict[int, Fraction], defense: dict[int, Fraction], tie_winner: int,
                 restart: Fraction) -> Fraction:
    """The offense's chance to win given the totals still possible on each side.

    A tie goes to the higher base Strength (``tie_winner`` > 0: the offense); with equal
    bases it is re-rolled, which is worth ``restart`` (the skirmish's chance before any die).
    """
    tie = ONE if tie_winner > 0 else ZERO if tie_winner < 0 else restart
    chance = ZERO
    for a, pa in offense.items():
        for b, pb in defense.items():
            chance += pa * pb * (ONE if a > b else ZERO if a < b else tie)
    return chance


def skirmish_rolls(sides: dict[str, SideDice], dice: dict[str, list[int]], seats: dict[str, int], names: dict,
                   number: int, reroll: int, named: dict | None = None) -> list[Roll]:
    """The rolls of one pair of skirmish dice, offense first, then defense (ruling LK3)."""
    offense, defense = sides["offense"], sides["defense"]
    restart = skirmish_odds(offense, defense).offense_wins
    tie_winner = (offense.base_strength > defense.base_strength) - (offense.base_strength < defense.base_strength)
    known = {side: total_distribution(sides[side]) for side in sides}
    chance_now = restart
    rolls = []
    for side in ("offense", "defense"):
        if not dice[side]:
            continue
        die = kept(sides[side].dice, dice[side])
        total = sides[side].base_strength + sides[side].modifier + die
        known[side] = {total: ONE}
        after = offense_wins(known["offense"], known["defense"], tie_winner, restart)
        mine = (lambda p: p) if side == "offense" else (lambda p: ONE - p)
        rolls.append(Roll(seat=seats[side], kind="skirmish", label=lines.SIDE_LABEL[side] % {"card": names[side]},
                          dice=tuple(dice[side]), value=total, skirmish=number, reroll=reroll,
                          chance=at_least(sides[side], total), before=mine(chance_now), after=mine(after),
                          kept=die, strength=sides[side].base_strength, modifiers=(named or {}).get(side, ())))
        chance_now = after
    return rolls


def observe(state: dict, values: list[int]) -> list[Roll]:
    """The rolls made when ``values`` are entered at the open dice step of ``state``."""
    step = state["step"]
    then = step["task"]["then"]
    does = then["do"]
    if does == "skirmish_rolled":
        skirmish, sides, dice, named, rest = state["skirmish"], {}, {}, {}, list(values)
        for side in sides_in_play(state):
            count = dice_count(dice_mode(state, side))
            dice[side], rest = rest[:count], rest[count:]
            sides[side] = side_dice(state, side)
            named[side] = tuple((mod["source"], mod["amount"]) for mod in modifiers(state, side))
        seats = {side: unit(state, side)["seat"] for side in sides}
        names = {side: state["cards"][skirmish[side]["card"]]["name"] for side in sides}
        if skirmish["unopposed"]:
            me = sides["offense"]
            die = kept(me.dice, dice["offense"])
            points = me.base_strength + me.modifier + die
            damage = 0 if me.no_damage else max(0, points // 4)
            chance = sum((p for dealt, p in unopposed_odds(me).items() if dealt >= damage), ZERO)
            return [Roll(seat=seats["offense"], kind="unopposed",
                         label=lines.UNOPPOSED_LABEL % {"card": names["offense"]}, dice=tuple(dice["offense"]),
                         value=points, skirmish=skirmish["n"],
                         reroll=skirmish["rerolls"], chance=chance, kept=die, strength=me.base_strength,
                         modifiers=named["offense"])]
        return skirmish_rolls(sides, dice, seats, names, skirmish["n"], skirmish["rerolls"], named)
    number = state["skirmish"]["n"] if state["skirmish"] else None
    if does == "rout_rolled":
        roller = other(then["seat"])
        return [Roll(seat=roller, kind="rout", label=label, dice=(value,), value=value, skirmish=number,
                     chance=threshold_chance(value, THRESHOLDS[does]))
                for label, value in zip(step["labels"], values, strict=True)]
    if does in THRESHOLDS:
        return [Roll(seat=then["seat"], kind=KINDS[does], label=step["labels"][0], dice=(values[0],),
                     value=values[0], skirmish=number, chance=threshold_chance(values[0], THRESHOLDS[does]))]
    if does == "illusion_rolled":
        return [Roll(seat=then["seat"], kind="illusionist", label=step["labels"][0], dice=(values[0],),
                     value=values[0], skirmish=number, chance=at_least(D6, values[0]))]
    seat = then.get("seat") if isinstance(then.get("seat"), int) else None
    return [Roll(seat=seat, kind="other", label=label, dice=(value,), value=value, skirmish=number)
            for label, value in zip(step["labels"], values, strict=True)]


# ---------------------------------------------------------------- the replay

class _Replay:
    """Re-plays a battle as a physical-dice table and enters each roll's dice itself."""

    def __init__(self, app: bool) -> None:
        self.app = app
        self.set_dice: list[int] = []  # dice the GM set and no roll has used yet
        self.given: list[int] | None = None  # dice already given to the open dice step
        self.labels: list[str] | None = None
        self.rolls: list[Roll] = []

    def drain(self, state: dict, rng: ScriptedRng, typed: list | str | None = None) -> dict:
        """Enter the dice of every roll that can be completed now; return the state after them."""
        while state["step"] and state["step"]["kind"] == "dice" and state["phase"] != "over":
            labels = state["step"]["labels"]
            if self.given is None or self.labels != labels:
                self.given, self.labels = [], list(labels)
            while self.set_dice and len(self.given) < len(labels):
                self.given.append(self.set_dice.pop(0))
            if typed is not None:
                if len(self.given) >= len(labels):
                    raise LuckError("The GM typed dice for a roll that had them all.")
                try:
                    self.given += check_values({"labels": labels, "given": self.given}, typed)
                except IllegalAction as error:
                    raise LuckError(f"The dice typed do not fit the roll: {error}") from error
                typed = None
            if self.app:
                while len(self.given) < len(labels):
                    self.given.append(rng.randint(1, 6))
            if len(self.given) < len(labels):
                break  # a physical table waits for the GM's dice
            values, self.given, self.labels = self.given, None, None
            self.rolls += observe(state, values)
            state = actions.apply(state, {"type": "roll", "seat": GM, "values": values}, rng)
        if typed is not None:
            raise LuckError("The log has dice typed where no roll was waiting.")
        if not (state["step"] and state["step"]["kind"] == "dice"):
            self.given = self.labels = None
        return state

    def play(self, state: dict, entry: dict) -> dict:
        action, rng = entry["action"], ScriptedRng(entry.get("draws", []))
        kind = action.get("type")
        if kind == "gm_set_dice":
            self.set_dice = list(action["values"])
            state = self.drain(state, rng)
        elif kind == "roll":
            state = self.drain(state, rng, typed=action.get("values"))
        else:
            state = self.drain(actions.apply(state, action, rng), rng)
        if rng.remaining:
            raise LuckError(f"Entry {entry.get('seq')} did not use every recorded draw.")
        return state


def battle_luck(config: dict, setup_draws: list[int], entries: list[dict],
                final_state: dict | None = None) -> BattleLuck:
    """Every roll of the battle in order, with its odds, and each commander's luck.

    ``entries`` are the log's entries (undone actions are skipped). With ``final_state``
    (the battle's stored state) the replay must end on that state, or ``LuckError``.
    """
    replay = _Replay(app=config.get("dice", "app") == "app")
    rng = ScriptedRng(setup_draws)
    try:
        state = replay.drain(game.setup({**config, "dice": "physical"}, rng), rng)
        if rng.remaining:
            raise LuckError("The setup did not use every recorded draw.")
        for entry in live_entries(entries):
            state = replay.play(state, entry)
    except (IllegalAction, KeyError, IndexError, TypeError, ValueError, RuntimeError) as error:
        # IllegalAction covers RngExhausted (a draw missing); the others: a log altered by hand.
        raise LuckError(f"The log does not replay: {error}") from error
    if final_state is not None:
        rebuilt = {**state, "dice": final_state.get("dice"), "forced_dice": replay.set_dice}
        if _comparable(rebuilt) != _comparable(final_state):
            raise LuckError("The replay does not end where the battle did.")
    return summarise(state, replay.rolls)


def _comparable(state: dict) -> str:
    """The state but its event lines (the GM's "sets the next dice" lines are not replayed)."""
    return digest({key: value for key, value in state.items() if key != "events"})


def summarise(state: dict, rolls: list[Roll]) -> BattleLuck:
    commanders = []
    for seat in (0, 1):
        score = own = ZERO
        chances = []
        for roll in rolls:
            if roll.seat == seat and roll.chance is not None:
                chances.append(roll.chance)
            if roll.swing is None:
                continue
            if roll.seat == seat:
                score, own = score + roll.swing, own + roll.swing
            else:
                score -= roll.swing
        commanders.append(CommanderLuck(
            seat=seat, name=state["commanders"][seat]["name"], score=score, own_swing=own,
            rolls=sum(1 for roll in rolls if roll.seat == seat), odds_rolls=len(chances),
            mean_chance=sum(chances, ZERO) / len(chances) if chances else None))
    return BattleLuck(rolls=tuple(rolls), commanders=tuple(commanders))
