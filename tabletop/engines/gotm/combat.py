"""Combat (the skirmish) in GOT'M: squads, the reveal, artifacts, turns of attack.

* Squads: each player places up to three cards face down, one at a time, left to
  right (``deploy``), from the hand or the infirmary; artifacts are not squad cards
  (ruling); at least one mercenary; a player with fewer than three cards sends all
  they can (ruling). Placement is final. A player with no mercenary ends the game.
* Reveal: cards from the infirmary start wounded; the racial bonus is fixed.
* Equip (``equip``/``ready``): artifacts from the hand go on living cards of their
  race, one per card (ruling). A player with nothing to equip is ready at once.
* Turns: the dealer attacks first in round one, then the loser of the last round.
  A turn is one declaration, final once made:
  - ``attack``: an available card (not pulled back) hits one target; tanks taunt
    (while the defender has a living tank the target must be one, any of them);
    a veteran also cleaves one living card adjacent to the target (its choice);
  - ``lightning``: a spellcaster instead hits the whole enemy squad;
  - ``assault`` (Coordinated Assault): two available elites of one race hit two
    targets, or one with their APs added (ruling); while tanks live one target must
    be a tank, and a tank that neither could kill alone draws both attacks.
  The defender may then ``shield`` one attacked card with an adjacent living basic
  unit that is not itself attacked (one shield a turn, ruling): the shield is
  sacrificed (dies) and the main attack stops there; cleaves and follow-ups still
  hit their own targets. Flanking Strike: after an elite's main attack, every other
  living card of its rank in the squad hits the same target if it still lives.
  Cards that launched a main attack are pulled back until every living card has
  attacked; a side with no available card skips its turn.
* When a wearer dies and an adjacent ally of its race could wear the artifact, the
  owner decides at once (``pick_up`` or ``leave``; ruling).
* Combat ends when one side has lost its whole squad; the attacker wins the round.
"""

from __future__ import annotations

from ..words import phrase
from . import battle, cards
from .common import event, finish, has_mercenary, other, player

SQUAD_SIZE = 3

# The log's lines (issue 41): English templates the page reads back and says in the reader's language.
STUCK_ONE = phrase("%(name)s cannot send a mercenary to the battlefield.")
STUCK_BOTH = phrase("%(first)s and %(second)s cannot send a mercenary to the battlefield.")
SQUADS_FORM = phrase("Combat: each player places a squad face down.")
PLACES = phrase("%(name)s places a card face down.")
# The squad revealed, by its size; a card from the infirmary is named as WOUNDED says.
REVEALS = {
    1: phrase("%(name)s reveals %(first_words)s."),
    2: phrase("%(name)s reveals %(first_words)s, %(second_words)s."),
    3: phrase("%(name)s reveals %(first_words)s, %(second_words)s, %(third_words)s."),
}
WOUNDED = phrase("%(card)s (wounded)")
EQUIPS = phrase("%(name)s equips the %(card)s with the %(artifact)s.")
ATTACKS_FIRST = phrase("%(name)s attacks first.")
HURLS = phrase("%(player)s's %(card)s hurls Chain Lightning.")
ATTACKS = phrase("%(player)s's %(card)s attacks %(foe)s's %(target)s.")
ATTACKS_CLEAVING = phrase("%(player)s's %(card)s attacks %(foe)s's %(target)s, cleaving %(cleaved)s.")
ASSAULT = phrase("%(name)s launches a Coordinated Assault: %(first)s on %(first_target)s and %(second)s on "
                 "%(second_target)s.")
PICKS_UP = phrase("%(player)s's %(card)s picks up the %(artifact)s.")
SHIELDS = phrase("%(player)s's %(card)s shields %(target)s and is sacrificed.")
PUSHED_BACK = phrase("Every card has attacked: the squads are pushed back into the skirmish.")
NO_CARD_READY = phrase("%(name)s has no card ready to attack and skips a turn.")
# What hits a card (its outcome follows, battle.damage).
HITS = phrase("%(player)s's %(card)s hits (AP %(ap)d vs %(value)d) %(foe)s's %(target)s: %(outcome_words)s.")
FOCUS = phrase("%(player)s's %(card)s and its partner focus a Coordinated Assault (AP %(ap)d vs %(value)d) "
               "%(foe)s's %(target)s: %(outcome_words)s.")
FLANKS = phrase("%(player)s's %(card)s follows with a Flanking Strike (AP %(ap)d vs %(value)d) %(foe)s's "
                "%(target)s: %(outcome_words)s.")
LIGHTNING_STRIKES = phrase("%(player)s's %(card)s's Chain Lightning strikes %(foe)s's %(target)s: "
                           "%(outcome_words)s.")
CLEAVE_HITS = phrase("%(player)s's %(card)s's Cleaving Attack hits %(foe)s's %(target)s: %(outcome_words)s.")


# ---------------------------------------------------------------- squads and equip

def start_squads(state: dict) -> None:
    stuck = [seat for seat in (0, 1) if not has_mercenary(state, seat)]
    if stuck:
        names = [player(state, seat) for seat in stuck]
        if len(names) == 1:
            finish(state, STUCK_ONE % {"name": names[0]})
        else:
            finish(state, STUCK_BOTH % {"first": names[0], "second": names[1]})
        return
    state["phase"] = "squad"
    state["squads"] = [[], []]
    state["squad_size"] = [min(SQUAD_SIZE, len(_deployable(state, seat))) for seat in (0, 1)]
    event(state, SQUADS_FORM)


def _deployable(state: dict, seat: int) -> list[str]:
    return [c for c in state["hands"][seat] if not cards.is_artifact(c)] + list(state["infirmary"][seat])


def squad_legal(state: dict) -> list[dict]:
    actions = []
    for seat in (0, 1):
        squad = state["squads"][seat]
        if len(squad) >= state["squad_size"][seat]:
            continue
        last = len(squad) == state["squad_size"][seat] - 1
        need_mercenary = last and not any(cards.is_mercenary(s["card"]) for s in squad)
        for card in cards.sorted_cards(_deployable(state, seat)):
            if not need_mercenary or cards.is_mercenary(card):
                actions.append({"type": "deploy", "seat": seat, "card": card})
    return actions


def deploy(state: dict, action: dict) -> None:
    seat, card = action["seat"], action["card"]
    from_infirmary = card in state["infirmary"][seat]
    (state["infirmary"] if from_infirmary else state["hands"])[seat].remove(card)
    state["squads"][seat].append(battle.slot(card, from_infirmary))
    event(state, PLACES % {"name": player(state, seat)})
    if all(len(state["squads"][s]) >= state["squad_size"][s] for s in (0, 1)):
        _reveal(state)


def _reveal(state: dict) -> None:
    state["revealed"] = True
    state["fallen"] = [{}, {}]
    for seat in (0, 1):
        for s in state["squads"][seat]:
            s["wounded"] = s["infirmary"]
        state["bonus"][seat] = battle.compute_bonus(state["squads"][seat])
        shown = [WOUNDED % {"card": cards.name(s["card"])} if s["wounded"] else cards.name(s["card"])
                 for s in state["squads"][seat]]
        words = dict(zip(("first_words", "second_words", "third_words"), shown, strict=False))
        event(state, REVEALS[len(shown)] % {"name": player(state, seat), **words})
    state["phase"] = "equip"
    state["ready"] = [not _equip_options(state, seat) for seat in (0, 1)]
    _maybe_fight(state)


def _equip_options(state: dict, seat: int) -> list[dict]:
    actions = []
    for artifact in cards.sorted_cards(c for c in state["hands"][seat] if cards.is_artifact(c)):
        for pos, s in enumerate(state["squads"][seat]):
            if not s["dead"] and not s["artifact"] and cards.suit(s["card"]) == cards.suit(artifact):
                actions.append({"type": "equip", "seat": seat, "card": artifact, "slot": pos})
    return actions


def equip_legal(state: dict) -> list[dict]:
    actions = []
    for seat in (0, 1):
        if not state["ready"][seat]:
            actions += _equip_options(state, seat) + [{"type": "ready", "seat": seat}]
    return actions


def equip(state: dict, action: dict) -> None:
    seat = action["seat"]
    if action["type"] == "equip":
        target = state["squads"][seat][action["slot"]]
        state["hands"][seat].remove(action["card"])
        target["artifact"] = action["card"]
        event(state, EQUIPS % {"name": player(state, seat), "card": cards.name(target["card"]),
                               "artifact": cards.name(action["card"])})
        state["ready"][seat] = not _equip_options(state, seat)
    else:
        state["ready"][seat] = True
    _maybe_fight(state)


def _maybe_fight(state: dict) -> None:
    if not all(state["ready"]):
        return
    state["phase"] = "combat"
    state["pending"] = None
    state["turn"] = state["dealer"] if state["round"] == 1 else state["first"]
    event(state, ATTACKS_FIRST % {"name": player(state, state["turn"])})


# ---------------------------------------------------------------- attacks

def available(state: dict, seat: int) -> list[int]:
    return [pos for pos, s in enumerate(state["squads"][seat]) if not s["dead"] and not s["pulled"]]


def _tanks(state: dict, seat: int) -> list[int]:
    return [pos for pos in battle.living(state, seat) if cards.is_tank(state["squads"][seat][pos]["card"])]


def attack_legal(state: dict) -> list[dict]:
    seat = state["turn"]
    foe = other(seat)
    mine = state["squads"][seat]
    targets = _tanks(state, foe) or battle.living(state, foe)
    actions = []
    ready = available(state, seat)
    for pos in ready:
        card = mine[pos]["card"]
        for target in targets:
            cleaves = battle.neighbours(state, foe, target) if cards.rank(card) == "J" else []
            for cleave in cleaves or [None]:
                actions.append({"type": "attack", "seat": seat, "attacker": pos, "target": target,
                                "cleave": cleave})
        if cards.rank(card) == "Q":
            actions.append({"type": "lightning", "seat": seat, "attacker": pos})
    tanks = _tanks(state, foe)
    for i, a in enumerate(ready):
        for b in ready[i + 1:]:
            ca, cb = mine[a]["card"], mine[b]["card"]
            if not (cards.is_advanced(ca) and cards.is_advanced(cb) and cards.suit(ca) == cards.suit(cb)):
                continue
            for ta in battle.living(state, foe):
                for tb in battle.living(state, foe):
                    if _assault_targets_ok(state, seat, (a, b), (ta, tb), tanks):
                        actions.append({"type": "assault", "seat": seat, "attackers": [a, b],
                                        "targets": [ta, tb]})
    return actions


def _assault_targets_ok(state: dict, seat: int, attackers, targets, tanks) -> bool:
    if tanks and not set(targets) & set(tanks):
        return False
    foe = other(seat)
    for target in set(targets) & set(tanks):
        alone = any(battle.can_kill(state, battle.ap(state, seat, a), foe, target) for a in attackers)
        if not alone and targets != (target, target):
            return False
    return True


def shield_options(state: dict, attack: dict) -> list[dict]:
    if attack["type"] == "lightning":
        return []
    foe = other(attack["seat"])
    attacked = attack["targets"] if attack["type"] == "assault" else [attack["target"]]
    options = []
    for target in sorted(set(attacked)):
        for pos in battle.neighbours(state, foe, target):
            if pos not in attacked and cards.is_basic(state["squads"][foe][pos]["card"]):
                options.append({"type": "shield", "seat": foe, "shield": pos, "target": target})
    return options


def pending_legal(state: dict) -> list[dict]:
    pending = state["pending"]
    if pending["kind"] == "shield":
        return shield_options(state, pending["attack"]) + [{"type": "no_shield", "seat": pending["seat"]}]
    seat, source = pending["seat"], pending["from"]
    return [{"type": "pick_up", "seat": seat, "from": source, "to": to}
            for to in battle.pickup_candidates(state, seat, source)] + [
        {"type": "leave", "seat": seat, "from": source}]


def declare(state: dict, action: dict) -> None:
    attack = {key: value for key, value in action.items() if key != "label"}
    event(state, _declaration(state, attack))
    if shield_options(state, attack):
        state["pending"] = {"kind": "shield", "seat": other(attack["seat"]), "attack": attack}
        return
    _resolve(state, attack, None)


def _declaration(state: dict, attack: dict) -> str:
    seat, foe = attack["seat"], other(attack["seat"])
    if attack["type"] == "lightning":
        return HURLS % _named(state, seat, attack["attacker"])
    if attack["type"] == "attack":
        target = _named(state, foe, attack["target"], "foe", "target")
        if attack["cleave"] is None:
            return ATTACKS % {**_named(state, seat, attack["attacker"]), **target}
        cleaved = cards.name(state["squads"][foe][attack["cleave"]]["card"])
        return ATTACKS_CLEAVING % {**_named(state, seat, attack["attacker"]), **target, "cleaved": cleaved}
    (a, b), (ta, tb) = attack["attackers"], attack["targets"]
    squad, enemy = state["squads"][seat], state["squads"][foe]
    return ASSAULT % {"name": player(state, seat), "first": cards.name(squad[a]["card"]),
                      "first_target": cards.name(enemy[ta]["card"]), "second": cards.name(squad[b]["card"]),
                      "second_target": cards.name(enemy[tb]["card"])}


def answer(state: dict, action: dict) -> None:
    pending, state["pending"] = state["pending"], None
    if action["type"] in ("shield", "no_shield"):
        _resolve(state, pending["attack"], action if action["type"] == "shield" else None)
        return
    seat, source = action["seat"], action["from"]
    squad = state["squads"][seat]
    if action["type"] == "pick_up":
        squad[action["to"]]["artifact"], squad[source]["artifact"] = squad[source]["artifact"], None
        event(state, PICKS_UP % {**_named(state, seat, action["to"]),
                                 "artifact": cards.name(squad[action["to"]]["artifact"])})
    _after_turn(state, pending["attacker"], pending["queue"])


def _named(state: dict, seat: int, pos: int, owner: str = "player", card: str = "card") -> dict:
    """A squad card as a line names it, "Ann's Gnoll Brute (J♣)": its owner and its name, as ``owner`` and ``card``."""
    return {owner: player(state, seat), card: cards.name(state["squads"][seat][pos]["card"])}


def _strike(state, seat, pos, attack_power, target, dropped, line=HITS):
    foe = other(seat)
    if state["squads"][foe][target]["dead"]:
        return
    target_value = battle.value(state, foe, target)
    effect = battle.check(attack_power, target_value)
    source = (line, {**_named(state, seat, pos), "ap": attack_power, "value": target_value})
    battle.damage(state, foe, target, effect, source, dropped)


def _resolve(state: dict, attack: dict, shield) -> None:
    seat, kind = attack["seat"], attack["type"]
    foe = other(seat)
    squads, dropped = state["squads"], []
    if shield is not None:
        event(state, SHIELDS % {**_named(state, foe, shield["shield"]),
                                "target": cards.name(squads[foe][shield["target"]]["card"])})
        battle.kill(state, foe, shield["shield"], dropped)
    shielded = shield["target"] if shield else None
    if kind == "lightning":
        attacker = attack["attacker"]
        for pos in battle.living(state, foe):
            battle.damage(state, foe, pos, battle.ability_effect(state, foe, pos),
                          (LIGHTNING_STRIKES, _named(state, seat, attacker)), dropped)
        strikes = [(attacker, None)]
    elif kind == "attack":
        strikes = [(attack["attacker"], attack["target"])]
    else:
        strikes = list(zip(attack["attackers"], attack["targets"], strict=True))
    if kind == "assault" and strikes[0][1] == strikes[1][1]:
        target = strikes[0][1]
        total = battle.ap(state, seat, strikes[0][0]) + battle.ap(state, seat, strikes[1][0])
        if target != shielded:
            _strike(state, seat, strikes[0][0], total, target, dropped, FOCUS)
    elif kind != "lightning":
        for pos, target in strikes:
            if target != shielded:
                _strike(state, seat, pos, battle.ap(state, seat, pos), target, dropped)
    if kind == "attack" and attack.get("cleave") is not None:
        pos, cleave = attack["attacker"], attack["cleave"]
        if not squads[foe][cleave]["dead"]:
            battle.damage(state, foe, cleave, battle.ability_effect(state, foe, cleave),
                          (CLEAVE_HITS, _named(state, seat, pos)), dropped)
    attackers = [pos for pos, _ in strikes]
    for pos, target in strikes:
        if target is None or not cards.is_advanced(squads[seat][pos]["card"]):
            continue
        for follower in battle.living(state, seat):
            same_rank = cards.rank(squads[seat][follower]["card"]) == cards.rank(squads[seat][pos]["card"])
            if follower not in attackers and same_rank:
                _strike(state, seat, follower, battle.ap(state, seat, follower), target, dropped, FLANKS)
    for pos in attackers:
        squads[seat][pos]["pulled"] = True
    _after_turn(state, seat, dropped)


def _after_turn(state: dict, seat: int, queue: list[int]) -> None:
    foe = other(seat)
    if not battle.living(state, foe):
        state["phase"] = "recovery"
        state["round_winner"] = seat
        return
    while queue:
        source = queue.pop(0)
        if battle.pickup_candidates(state, foe, source):
            state["pending"] = {"kind": "pickup", "seat": foe, "from": source, "attacker": seat, "queue": queue}
            return
    if not available(state, 0) and not available(state, 1):
        for side in (0, 1):
            for s in state["squads"][side]:
                s["pulled"] = False
        event(state, PUSHED_BACK)
    if available(state, foe):
        state["turn"] = foe
    else:
        state["turn"] = seat
        event(state, NO_CARD_READY % {"name": player(state, foe)})
