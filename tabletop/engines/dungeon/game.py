"""Set-up, who acts, legal actions and apply for the Mercenaries dungeon game.

The board is 6×6: row 0 the Ranged Monster Row, row 1 the Melee Monster Row, row 5 the
Mercenary Row. A card id is ``"<code>#<n>"``. Play runs through ``advance``, which keeps
the game going until a seat must decide (``state["pending"]``) or the acting mercenary's
owner has a free choice in their turn.
"""

from __future__ import annotations

from ..kernel import IllegalAction, require, thaw
from . import cards as starter

SIZE = 6
RANGED_ROW, MELEE_ROW, MERC_ROW = 0, 1, 5
MAX_HEALTH = 20
HAND = 6


# --- catalog ----------------------------------------------------------------------------------


def code(card_id: str) -> str:
    return card_id.split("#")[0]


def card(state, card_id: str) -> dict:
    return state["cards"][code(card_id)]


def stats(state, card_id: str) -> dict:
    return card(state, card_id)["stats"]


def _make(codes_counts, used: dict) -> list[str]:
    made = []
    for c, n in codes_counts:
        for _ in range(n):
            used[c] = used.get(c, 0) + 1
            made.append(f"{c}#{used[c]:02d}")
    return made


# --- set-up -----------------------------------------------------------------------------------


def game_type(config: dict) -> tuple[str, int]:
    """(mode for the monster table, 3 or 4 mercenaries)."""
    n = len(config["players"])
    dm = bool(config.get("deck_master"))
    if dm:
        return "cooperative", 4
    if n == 2:
        return ("cooperative" if config.get("variant", "pairs") == "pairs" else "competitive"), 4
    return config.get("mode", "competitive"), n


def setup(config: dict, rng) -> dict:
    players = list(config["players"])
    n = len(players)
    dm = bool(config.get("deck_master"))
    require(2 <= n <= 5, "The dungeon game seats 2 to 5 players.")
    require(n != 5 or dm, "Five players need a Deck Master.")
    require(not dm or n in (3, 5), "A Deck Master plays with 3 or 5 players.")
    catalog = {c["code"]: c for c in (config.get("cards") or starter.starter_cards())}
    dm_seat = n - 1 if dm else None
    heroes = [s for s in range(n) if s != dm_seat]
    owners = heroes * 2 if len(heroes) == 2 else heroes
    mode = "cooperative" if dm else config.get("mode", "competitive")
    if len(heroes) == 2 and config.get("variant", "pairs") == "singles":
        mode = "competitive"
    variant = config.get("variant", "pairs") if len(heroes) == 2 else "standard"
    table_mode, count = game_type(config)
    used: dict = {}
    state = {
        "v": 1, "players": players, "mode": mode, "variant": variant, "dm": dm_seat, "cards": catalog,
        "mercs": [], "board": [], "monster_discard": [], "af_discard": [], "area_feature": None,
        "first": 0, "area": 0, "turn": 0, "phase": "spawn", "current": None, "order": [], "pending": None,
        "combat": None, "lash": None, "spawn": None, "mstep": None, "events": [], "result": None,
        "table_mode": table_mode, "count": count,
    }
    colours = [c for c in catalog.values() if c["kind"] == "mercenary"]
    for index, owner in enumerate(owners):
        deck = rng.shuffled(_make(starter.STARTING_DECK, used))
        colour = colours[index % len(colours)] if colours else {"code": f"m{index}", "name": f"Mercenary {index + 1}"}
        state["mercs"].append({
            "owner": owner, "colour": colour["code"], "name": colour["name"], "health": MAX_HEALTH, "exp": 0,
            "deck": deck, "hand": [], "discard": [], "acquired": [], "defence": [], "pos": None, "acted": False,
            "moved": False, "attacked": False, "bought": False, "killed": False, "defended": False,
            "melee": colour.get("stats", {}).get("melee", 1), "ranged": colour.get("stats", {}).get("ranged", 0),
            "base_defence": colour.get("stats", {}).get("defence", 0),
        })
    state["stacks"] = {}
    for c in starter.RESOURCE_STACKS:
        if c in catalog:
            state["stacks"][c] = _make([(c, catalog[c]["stats"].get("copies", 0))], used)
    state["monster_deck"], state["reserve"] = _monster_decks(catalog, table_mode, count, used, rng)
    features = [(c["code"], c["stats"].get("copies", 1)) for c in catalog.values() if c["kind"] == "area_feature"]
    state["af_deck"] = rng.shuffled(_make(sorted(features), used))
    _event(state, f"The Distelblute Mansion: {count} mercenaries, {table_mode} monster deck of "
                  f"{len(state['monster_deck'])} cards.")
    state["card_count"] = len(all_cards(state))
    _new_area(state, rng, first_area=True)
    advance(state, rng)
    return state


def _monster_decks(catalog, table_mode, count, used, rng):
    counts = starter.MONSTER_COUNTS[(table_mode, count)]
    monsters = rng.shuffled(_make(sorted(counts.items()), used))
    half = (len(monsters) + 1) // 2
    top = rng.shuffled(monsters[:half] + _make([(a, 1) for a in starter.AMBUSH_TOP], used))
    bottom = rng.shuffled(monsters[half:] + _make([(a, 1) for a in starter.AMBUSH_BOTTOM], used))
    deck = top + bottom
    tail = deck[-10:] + _make([(starter.CHAMPION, 1)], used)
    deck = deck[:-10] + rng.shuffled(tail)
    reserve = []
    for c in sorted(counts, key=lambda k: catalog[k]["name"]):
        extra = catalog[c]["stats"].get("copies", 0) - counts[c]
        reserve += _make([(c, max(0, extra))], used)
    return deck, reserve


def all_cards(state) -> list[str]:
    """Every card id in the game, wherever it is (invariants: none lost, none twice)."""
    found = list(state["monster_deck"]) + state["reserve"] + state["monster_discard"] + state["af_deck"]
    found += state["af_discard"] + ([state["area_feature"]] if state["area_feature"] else [])
    found += [m["id"] for m in state["board"]]
    for merc in state["mercs"]:
        found += merc["deck"] + merc["hand"] + merc["discard"] + merc["acquired"] + merc["defence"]
    for stack in state["stacks"].values():
        found += stack
    if state.get("spawn"):
        found += state["spawn"]["queue"]
    if state.get("combat"):
        found += state["combat"]["cards"]
    p = state.get("pending")
    if p and p["type"] == "attack" and not state.get("combat"):
        found += p["cards"]
    return found


# --- small helpers ----------------------------------------------------------------------------


def _event(state, text: str) -> None:
    state["events"].append(text)
    del state["events"][:-40]


def coop(state) -> bool:
    return state["mode"] == "cooperative"


def decider(state):
    """Who makes the monsters' choices: the Deck Master, else the First Player."""
    return state["dm"] if state["dm"] is not None else state["mercs"][state["first"]]["owner"]


def turn_order(state) -> list[int]:
    n = len(state["mercs"])
    return [(state["first"] + i) % n for i in range(n)]


def occupied(state, skip=None) -> set:
    taken = {tuple(m["pos"]) for m in state["board"] if m["id"] != skip}
    taken |= {tuple(m["pos"]) for i, m in enumerate(state["mercs"]) if m["pos"] is not None and i != skip}
    return taken


def monster(state, mid):
    for m in state["board"]:
        if m["id"] == mid:
            return m
    raise IllegalAction("That monster is not in the battle area.")


def adjacent(a, b) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def manhattan(a, b) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _draw(state, rng, merc: dict, n: int) -> None:
    for _ in range(n):
        if not merc["deck"]:
            if not merc["discard"]:
                return
            merc["deck"], merc["discard"] = rng.shuffled(merc["discard"]), []
        merc["hand"].append(merc["deck"].pop(0))


def destinations(state, pos, skip) -> dict:
    """Every square reachable by one move (along, one row forward/back, or both in either order)."""
    taken = occupied(state, skip)
    r, c = pos

    def slide(row, col):
        found = []
        for step in (-1, 1):
            x = col + step
            while 0 <= x < SIZE and (row, x) not in taken:
                found.append((row, x))
                x += step
        return found

    reach = {}

    def add(square, dist):
        if square not in reach or reach[square] > dist:
            reach[square] = dist

    for sq in slide(r, c):
        add(sq, abs(sq[1] - c))
        for dr in (-1, 1):
            if 0 <= r + dr < SIZE and (r + dr, sq[1]) not in taken:
                add((r + dr, sq[1]), abs(sq[1] - c) + 1)
    for dr in (-1, 1):
        if 0 <= r + dr < SIZE and (r + dr, c) not in taken:
            add((r + dr, c), 1)
            for sq in slide(r + dr, c):
                add(sq, abs(sq[1] - c) + 1)
    return reach


def monster_value(state, m, kind) -> int:
    s = stats(state, m["id"])
    value = s["melee"] if kind == "melee" else s["ranged"]
    if kind == "melee":
        value += _feature(state, "monster_melee")
    return value


def monster_defence(state, m) -> int:
    return max(0, stats(state, m["id"])["defence"] + _feature(state, "monster_defence"))


def _feature(state, effect) -> int:
    af = state["area_feature"]
    if af and stats(state, af)["effect"] == effect:
        return stats(state, af)["amount"]
    return 0


def category(state, mid) -> str:
    s = stats(state, mid)
    return "champion" if s.get("champion") else s["type"]


# --- areas ------------------------------------------------------------------------------------


def _new_area(state, rng, first_area=False):
    state["area"] += 1
    if not first_area:
        state["first"] = (state["first"] + 1) % len(state["mercs"])
    for merc in state["mercs"]:
        _draw(state, rng, merc, HAND)
    _event(state, f"Area {state['area']}: {state['mercs'][state['first']]['name']} is the First Player.")
    extra = 0
    if state["af_deck"]:
        af = state["af_deck"].pop(0)
        state["area_feature"] = af
        extra = _area_feature(state, af)
    per_area = {("competitive", 3): 3, ("competitive", 4): 4, ("cooperative", 3): 4, ("cooperative", 4): 5}
    state["spawn"] = {"to_draw": per_area[(state["table_mode"], state["count"])] + extra, "queue": [],
                      "last": False}
    state["phase"] = "spawn"


def _area_feature(state, af) -> int:
    s = stats(state, af)
    effect, amount = s["effect"], s["amount"]
    _event(state, f"Area feature: {card(state, af)['name']}.")
    first = state["mercs"][state["first"]]
    if effect == "heal_all":
        for m in state["mercs"]:
            m["health"] = min(MAX_HEALTH, m["health"] + amount)
    elif effect == "trap_first":
        first["health"] -= amount
    elif effect == "trap_all":
        for m in state["mercs"]:
            m["health"] -= amount
    elif effect == "exp_all":
        for m in state["mercs"]:
            m["exp"] += amount
    elif effect == "exp_first":
        first["exp"] += amount
    elif effect == "extra_monster":
        return amount
    return 0


def placement_options(state, mid) -> list:
    taken = occupied(state)
    s = stats(state, mid)
    row = RANGED_ROW if (s["type"] == "ranged" or s.get("champion")) else MELEE_ROW
    while row < SIZE:
        free = [(row, c) for c in range(SIZE) if (row, c) not in taken]
        if free:
            if state["dm"] is not None:
                return free
            best = min(abs(c - 2.5) for _, c in free)
            return [sq for sq in free if abs(sq[1] - 2.5) == best]
        row += 1
    return []


def _step_spawn(state, rng):
    sp = state["spawn"]
    if sp["queue"]:
        mid = sp["queue"][0]
        options = placement_options(state, mid)
        if not options:
            sp["queue"].pop(0)
            state["monster_discard"].append(mid)
            _event(state, f"No room for {card(state, mid)['name']}: it is discarded.")
        elif len(options) == 1:
            _place_monster(state, mid, options[0])
        else:
            state["pending"] = {"type": "place_monster", "seat": decider(state), "monster": mid,
                                "options": [list(o) for o in options]}
        return
    if sp["to_draw"] == 0 and not sp["last"]:
        sp["last"] = True
        if len(state["monster_deck"]) == 1:
            sp["to_draw"] = 1
    if sp["to_draw"] > 0 and state["monster_deck"]:
        sp["to_draw"] -= 1
        drawn = state["monster_deck"].pop(0)
        c = card(state, drawn)
        if c["kind"] == "ambush":
            _event(state, f"{c['name']}")
            for wanted in c["stats"]["summons"]:
                found = next((r for r in state["reserve"] if code(r) == wanted), None)
                if found:
                    state["reserve"].remove(found)
                    sp["queue"].append(found)
            state["monster_discard"].append(drawn)
        else:
            if c["stats"].get("champion"):
                sp["to_draw"] += 1
            sp["queue"].append(drawn)
        return
    state["spawn"] = None
    state["phase"] = "place_mercs"


def _place_monster(state, mid, square):
    state["spawn"]["queue"].remove(mid)
    state["board"].append({"id": mid, "pos": list(square), "wounds": 0, "acted": False})
    _event(state, f"{card(state, mid)['name']} appears at row {square[0] + 1}, column {square[1] + 1}.")


def _step_place_mercs(state):
    for index in turn_order(state):
        merc = state["mercs"][index]
        if merc["pos"] is None:
            taken = occupied(state)
            options = [c for c in range(SIZE) if (MERC_ROW, c) not in taken]
            state["pending"] = {"type": "enter", "seat": merc["owner"], "merc": index, "options": options}
            return
    _start_turn(state)


def _start_turn(state):
    state["turn"] += 1
    state["phase"] = "mercs"
    state["order"] = turn_order(state)
    state["current"] = None


# --- the driver -------------------------------------------------------------------------------


def advance(state, rng) -> None:
    while state["result"] is None and state["pending"] is None:
        if state["combat"]:
            _step_combat(state, rng)
        elif state["lash"]:
            _step_lash(state)
        elif state["phase"] == "spawn":
            _step_spawn(state, rng)
        elif state["phase"] == "place_mercs":
            _step_place_mercs(state)
        elif state["phase"] == "mercs":
            if state["current"] is not None:
                return
            if state["order"]:
                index = state["order"].pop(0)
                state["current"] = index
                merc = state["mercs"][index]
                merc["moved"] = merc["attacked"] = False
                if merc["health"] <= 0:
                    merc["health"] += 1
                    _event(state, f"{merc['name']} regenerates 1 Health.")
            elif state["board"]:
                state["phase"] = "monsters"
                state["mstep"] = {"steps": ["melee_move", "melee_attack", "champion_move", "champion_attack",
                                            "ranged_move", "ranged_attack"], "todo": None, "group": None}
            else:
                state["phase"] = "end_turn"
        elif state["phase"] == "monsters":
            _step_monsters(state, rng)
        elif state["phase"] == "end_turn":
            _end_turn(state, rng)


# --- combat -----------------------------------------------------------------------------------


def merc_defence(state, merc) -> int:
    return merc["base_defence"] + sum(stats(state, c)["value"] for c in merc["defence"])


def defence_cards(state, merc, lash) -> list[str]:
    kinds = ("defence", "melee") if lash else ("defence",)
    return [c for c in merc["hand"] if card(state, c)["kind"] == "skill" and stats(state, c)["skill"] in kinds]


def monster_attacks(state, mid, merc_index, kind, lash=False, retaliation=False):
    state["combat"] = {"who": "monster", "monster": mid, "merc": merc_index, "kind": kind, "lash": lash,
                       "retaliation": retaliation, "cards": [], "stage": "defend"}


def _step_combat(state, rng):
    cb = state["combat"]
    merc = state["mercs"][cb["merc"]]
    m = monster(state, cb["monster"])
    if cb["who"] == "monster":
        if cb["stage"] == "defend":
            if defence_cards(state, merc, cb["lash"]):
                state["pending"] = {"type": "defend", "seat": merc["owner"], "merc": cb["merc"]}
                cb["stage"] = "resolve"
                return
            cb["stage"] = "resolve"
        if cb["stage"] == "resolve":
            attack = monster_value(state, m, cb["kind"])
            base = merc["base_defence"]
            played = merc_defence(state, merc) - base + sum(stats(state, c)["value"] for c in cb["cards"])
            wounds = max(0, attack - base - played)
            if played > 0 and attack - base > 0:
                merc["defended"] = True
            merc["health"] -= wounds
            merc["discard"] += cb["cards"]
            cb["cards"] = []
            m["acted"] = True
            what = "lashes out at" if cb["lash"] else "retaliates on" if cb["retaliation"] else "attacks"
            _event(state, f"{card(state, m['id'])['name']} {what} {merc['name']}: {wounds} wounds "
                          f"(Health {merc['health']}).")
            able = (not cb["lash"] and not cb["retaliation"] and not merc["acted"] and merc["health"] > 0
                    and adjacent(m["pos"], merc["pos"]))
            if able:
                state["pending"] = {"type": "retaliate", "seat": merc["owner"], "merc": cb["merc"],
                                    "monster": m["id"]}
                cb["stage"] = "offered"
                return
            state["combat"] = None
            _bury(state)
            return
        state["combat"] = None
        _bury(state)
        return
    # a mercenary's attack, cards chosen: resolve
    attack = (merc["melee"] if cb["kind"] == "melee" else merc["ranged"])
    attack += sum(stats(state, c)["value"] for c in cb["cards"])
    wounds = max(0, attack - monster_defence(state, m))
    m["wounds"] += wounds
    merc["discard"] += cb["cards"]
    cb["cards"] = []
    merc["acted"] = True
    health = stats(state, m["id"])["health"]
    killed = m["wounds"] >= health
    if wounds and not killed:
        merc["exp"] += 1
    _event(state, f"{merc['name']} {'retaliates on' if cb['retaliation'] else 'attacks'} "
                  f"{card(state, m['id'])['name']}: {wounds} wounds.")
    if not cb["retaliation"] and not m["acted"] and adjacent(m["pos"], merc["pos"]):
        state["combat"] = None
        if killed:
            state.setdefault("dying", []).append([m["id"], cb["merc"]])
        monster_attacks(state, m["id"], cb["merc"], "melee", retaliation=True)
        return
    state["combat"] = None
    if killed:
        state.setdefault("dying", []).append([m["id"], cb["merc"]])
    _bury(state)


def _bury(state):
    for mid, killer in state.pop("dying", []):
        m = monster(state, mid)
        state["board"].remove(m)
        merc = state["mercs"][killer]
        merc["discard"].append(mid)
        merc["exp"] += stats(state, mid)["exp"]
        merc["killed"] = True
        _event(state, f"{merc['name']} kills {card(state, mid)['name']} (+{stats(state, mid)['exp']} EXP).")
        if state["mstep"] and state["mstep"]["todo"] and mid in state["mstep"]["todo"]:
            state["mstep"]["todo"].remove(mid)


def _step_lash(state):
    lash = state["lash"]
    if lash["monsters"]:
        mid = lash["monsters"].pop(0)
        monster_attacks(state, mid, lash["merc"], "melee", lash=True)
        return
    merc = state["mercs"][lash["merc"]]
    merc["pos"] = list(lash["dest"])
    state["lash"] = None
    _event(state, f"{merc['name']} moves to row {merc['pos'][0] + 1}, column {merc['pos'][1] + 1}.")


# --- monster turn -----------------------------------------------------------------------------


def _order_key(state, mid):
    return -stats(state, mid)["health"]


def _step_monsters(state, rng):
    ms = state["mstep"]
    if not ms["steps"]:
        state["mstep"] = None
        state["phase"] = "end_turn"
        return
    step = ms["steps"][0]
    cat, what = step.split("_")
    if ms["todo"] is None:
        ms["todo"] = [m["id"] for m in state["board"] if category(state, m["id"]) == cat and not m["acted"]]
        ms["group"] = None
    ms["todo"] = [mid for mid in ms["todo"] if any(m["id"] == mid and not m["acted"] for m in state["board"])]
    if not ms["todo"]:
        ms["steps"].pop(0)
        ms["todo"] = None
        return
    group = [mid for mid in ms["todo"] if card(state, mid)["name"] == ms["group"]]
    if not group:
        top = min(_order_key(state, mid) for mid in ms["todo"])
        group = [mid for mid in ms["todo"] if _order_key(state, mid) == top]
    if len(group) > 1:
        state["pending"] = {"type": "next_monster", "seat": decider(state), "options": sorted(group)}
        return
    _monster_acts(state, group[0], rng)


def _monster_acts(state, mid, rng):
    ms = state["mstep"]
    ms["todo"].remove(mid)
    ms["group"] = card(state, mid)["name"]
    m = monster(state, mid)
    cat, what = ms["steps"][0].split("_")
    kind = stats(state, mid)["type"]
    if what == "move":
        options = monster_moves(state, m, kind)
        if len(options) == 1:
            _move_monster(state, m, options[0])
        elif options:
            state["pending"] = {"type": "monster_move", "seat": decider(state), "monster": mid,
                                "options": [list(o) for o in options]}
        return
    near = [i for i, merc in enumerate(state["mercs"]) if merc["pos"] and adjacent(m["pos"], merc["pos"])]
    if state["dm"] is not None:
        targets = [i for i in near if state["mercs"][i]["health"] > 0]
        if kind == "ranged" and not near:
            targets = [i for i, merc in enumerate(state["mercs"]) if merc["health"] > 0]
            if targets:
                state["pending"] = {"type": "target", "seat": state["dm"], "monster": mid, "options": targets,
                                    "kind": "ranged", "hold": False}
            return
        if targets:
            state["pending"] = {"type": "target", "seat": state["dm"], "monster": mid, "options": targets,
                                "kind": "melee", "hold": kind == "melee"}
        return
    if near:
        if len(near) == 1:
            monster_attacks(state, mid, near[0], "melee")
        else:
            state["pending"] = {"type": "target", "seat": decider(state), "monster": mid, "options": near,
                                "kind": "melee", "hold": False}
        return
    if kind == "ranged":
        roll = rng.randint(1, 20)
        order = turn_order(state)
        width = 4 if len(order) == 4 else 5
        slot = (roll - 1) // width - 1
        if slot < 0:
            _event(state, f"{card(state, mid)['name']} shoots (d20 {roll}) and misses.")
            m["acted"] = True
            return
        _event(state, f"{card(state, mid)['name']} shoots (d20 {roll}).")
        monster_attacks(state, mid, order[slot], "ranged")


def monster_moves(state, m, kind) -> list:
    here = tuple(m["pos"])
    reach = destinations(state, here, m["id"])
    reach[here] = 0
    mercs = [tuple(x["pos"]) for x in state["mercs"] if x["pos"] is not None]
    if not mercs:
        return [here]

    def next_to_merc(sq):
        return any(adjacent(sq, p) for p in mercs)

    if kind == "ranged":
        if not next_to_merc(here):
            return [here]
        along = {sq: d for sq, d in reach.items() if sq[0] == here[0] and not next_to_merc(sq)}
        pool = along or {sq: d for sq, d in reach.items() if not next_to_merc(sq)}
        if not pool:
            return [here]
        if state["dm"] is not None:
            return sorted(pool)
        best = min(pool.values())
        return sorted(sq for sq, d in pool.items() if d == best)
    if state["dm"] is not None:
        return sorted(reach)
    adj = {sq: d for sq, d in reach.items() if next_to_merc(sq)}
    if adj:
        reachable = [p for p in mercs if any(adjacent(sq, p) for sq in adj)]
        near = min(manhattan(here, p) for p in reachable)
        chosen = [p for p in reachable if manhattan(here, p) == near]
        pool = {sq: d for sq, d in adj.items() if any(adjacent(sq, p) for p in chosen)}
        best = min(pool.values())
        return sorted(sq for sq, d in pool.items() if d == best)
    near = min(manhattan(here, p) for p in mercs)
    chosen = [p for p in mercs if manhattan(here, p) == near]
    score = {sq: min(manhattan(sq, p) for p in chosen) for sq in reach}
    best = min(score.values())
    return sorted(sq for sq, v in score.items() if v == best)


def _move_monster(state, m, square):
    if list(square) != m["pos"]:
        m["pos"] = list(square)
        _event(state, f"{card(state, m['id'])['name']} moves to row {square[0] + 1}, column {square[1] + 1}.")


# --- end of turn, area, game --------------------------------------------------------------------


def _discard_all(merc):
    merc["discard"] += merc["hand"] + merc["acquired"] + merc["defence"]
    merc["hand"], merc["acquired"], merc["defence"] = [], [], []


def _end_turn(state, rng):
    for merc in state["mercs"]:
        _discard_all(merc)
        merc["acted"] = merc["bought"] = merc["killed"] = merc["defended"] = False
    for m in state["board"]:
        m["acted"] = False
    everyone_down = all(merc["health"] <= 0 for merc in state["mercs"])
    if coop(state) and everyone_down:
        _finish(state, "lost", "Every mercenary is at Minus Health at the end of a turn: the players lose.")
        return
    if not state["board"]:
        if not state["monster_deck"]:
            _finish(state, "won", "The last monster is dead: the mansion is cleared.")
            return
        if state["area_feature"]:
            state["af_discard"].append(state["area_feature"])
            state["area_feature"] = None
        for merc in state["mercs"]:
            merc["pos"] = None
        _new_area(state, rng)
        return
    for merc in state["mercs"]:
        _draw(state, rng, merc, HAND)
    _start_turn(state)


def mvps(state, merc) -> int:
    owned = merc["deck"] + merc["hand"] + merc["discard"] + merc["acquired"] + merc["defence"]
    return sum(stats(state, c).get("mvp", 0) for c in owned if card(state, c)["kind"] == "monster")


def merc_score(state, merc) -> dict:
    monsters = mvps(state, merc)
    bonus = merc["exp"] // 5
    penalty = 1 - merc["health"] if merc["health"] < 1 else 0
    return {"name": merc["name"], "seat": merc["owner"], "mvp": monsters, "exp_bonus": bonus,
            "minus": penalty, "total": monsters + bonus - penalty, "health": merc["health"]}


def _finish(state, how, reason):
    rows = [merc_score(state, merc) for merc in state["mercs"]]
    heroes = sorted({merc["owner"] for merc in state["mercs"]})
    if state["dm"] is not None:
        winners = heroes if how == "won" else [state["dm"]]
    elif coop(state):
        winners = heroes if how == "won" else []
    else:
        if state["variant"] == "pairs":
            totals = {s: (sum(r["total"] for r in rows if r["seat"] == s),
                          sum(r["health"] for r in rows if r["seat"] == s)) for s in heroes}
            best = max(totals.values())
            winners = [s for s in heroes if totals[s] == best]
        else:
            best = max((r["total"], r["health"]) for r in rows)
            winners = sorted({r["seat"] for r in rows if (r["total"], r["health"]) == best})
    state["result"] = {"how": how, "reason": reason, "rows": rows, "winners": winners,
                       "winning_mercs": [i for i, r in enumerate(rows) if r["seat"] in winners]}
    state["phase"] = "over"
    state["pending"] = None
    _event(state, reason)


# --- who acts and what they may do -------------------------------------------------------------


def to_act(state) -> list:
    if state["result"] is not None:
        return []
    if state["pending"]:
        return [state["pending"]["seat"]]
    if state["phase"] == "mercs" and state["current"] is not None:
        return [state["mercs"][state["current"]]["owner"]]
    return []


def _named(state, card_id):
    return card(state, card_id)["name"]


def ranged_targets(state, merc, cards_played) -> list:
    if not cards_played:
        return []
    lo = min(stats(state, c)["min_range"] for c in cards_played)
    hi = max(stats(state, c)["max_range"] for c in cards_played)
    return sorted(m["id"] for m in state["board"] if lo <= abs(m["pos"][0] - merc["pos"][0]) <= hi)


def can_acquire(state, merc, c) -> bool:
    s = state["cards"][c]["stats"]
    cond = s.get("condition", "")
    return (not merc["bought"] and bool(state["stacks"].get(c)) and merc["exp"] >= s.get("cost", 0)
            and (cond != "kill" or merc["killed"]) and (cond != "defence" or merc["defended"]))


def legal_actions(state) -> list[dict]:
    seats = to_act(state)
    if not seats:
        return []
    seat = seats[0]
    p = state["pending"]
    acts = []
    if p:
        t = p["type"]
        if t == "place_monster":
            acts = [{"type": "place", "square": sq, "label": f"Place {_named(state, p['monster'])} at column "
                     f"{sq[1] + 1} of row {sq[0] + 1}"} for sq in p["options"]]
        elif t == "enter":
            acts = [{"type": "enter", "merc": p["merc"], "column": c,
                     "label": f"{state['mercs'][p['merc']]['name']} enters column {c + 1}"} for c in p["options"]]
        elif t == "defend":
            merc = state["mercs"][p["merc"]]
            lash = state["combat"]["lash"]
            acts = [{"type": "defend", "card": c, "label": f"Defend with {_named(state, c)}"}
                    for c in sorted(set(defence_cards(state, merc, lash)))]
            acts.append({"type": "take", "label": "Take the hit"})
        elif t == "retaliate":
            acts = [{"type": "retaliate", "label": "Retaliate"}, {"type": "decline", "label": "Do not retaliate"}]
        elif t == "attack":
            merc = state["mercs"][p["merc"]]
            acts = [{"type": "add", "card": c, "label": f"Play {_named(state, c)}"}
                    for c in sorted(set(merc["hand"])) if card(state, c)["kind"] == "skill"
                    and stats(state, c)["skill"] == p["kind"]]
            if p["kind"] == "melee":
                acts.append({"type": "strike", "target": p["target"],
                             "label": f"Strike {_named(state, p['target'])}"})
            else:
                targets = ranged_targets(state, merc, p["cards"])
                acts += [{"type": "strike", "target": t2, "label": f"Shoot {_named(state, t2)}"} for t2 in targets]
                if not targets:
                    acts.append({"type": "withdraw", "label": "Take the cards back"})
        elif t == "move":
            acts = [{"type": "to", "square": sq, "label": f"Move to column {sq[1] + 1} of row {sq[0] + 1}"}
                    for sq in p["options"]]
        elif t == "next_monster":
            acts = [{"type": "next", "monster": mid, "label": f"{_named(state, mid)} acts next"}
                    for mid in p["options"]]
        elif t == "monster_move":
            acts = [{"type": "monster_to", "square": sq, "label": f"{_named(state, p['monster'])} to column "
                     f"{sq[1] + 1} of row {sq[0] + 1}"} for sq in p["options"]]
        elif t == "target":
            acts = [{"type": "target", "merc": i, "label": f"{_named(state, p['monster'])} attacks "
                     f"{state['mercs'][i]['name']}"} for i in p["options"]]
            if p["hold"]:
                acts.append({"type": "hold", "label": f"{_named(state, p['monster'])} does not attack"})
    else:
        index = state["current"]
        merc = state["mercs"][index]
        if not merc["moved"] and destinations(state, tuple(merc["pos"]), index):
            acts.append({"type": "move", "merc": index, "label": "Move"})
        if merc["health"] > 0 and not merc["acted"] and not merc["attacked"]:
            for m in state["board"]:
                if adjacent(m["pos"], merc["pos"]):
                    acts.append({"type": "attack", "merc": index, "kind": "melee", "target": m["id"],
                                 "label": f"Melee attack {_named(state, m['id'])}"})
            ranged = [c for c in merc["hand"] if card(state, c)["kind"] == "skill"
                      and stats(state, c)["skill"] == "ranged"]
            if ranged_targets(state, merc, ranged):
                acts.append({"type": "attack", "merc": index, "kind": "ranged", "label": "Ranged attack"})
        for c in sorted(state["stacks"]):
            if can_acquire(state, merc, c):
                entry = state["cards"][c]
                acts.append({"type": "acquire", "merc": index, "code": c,
                             "label": f"Acquire {entry['name']} ({entry['stats'].get('cost', 0)} EXP)"})
        for c in sorted(set(merc["hand"])):
            if card(state, c)["kind"] == "ability":
                acts.append({"type": "ability", "merc": index, "card": c, "label": f"Play {_named(state, c)}"})
        acts.append({"type": "end_turn", "merc": index, "label": "End turn"})
    for a in acts:
        a["seat"] = seat
    return acts


def _key(action) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in action.items() if k != "label"))


def apply(state, action, rng) -> dict:
    if not isinstance(action, dict) or "type" not in action:
        raise IllegalAction("An action needs a type.")
    legal = {_key(a): a for a in legal_actions(state)}
    given = {k: (list(v) if isinstance(v, tuple) else v) for k, v in action.items() if k != "label"}
    match = legal.get(_key(given))
    if match is None:
        if action.get("type") not in {"place", "enter", "defend", "take", "retaliate", "decline", "add", "strike",
                                      "withdraw", "to", "next", "monster_to", "target", "hold", "move", "attack",
                                      "acquire", "ability", "end_turn"}:
            raise IllegalAction(f"There is no such move as {action.get('type')!r} in this game.")
        raise IllegalAction("That is not a move the rules allow right now.")
    state = thaw(state, shared=("cards",))
    _do(state, match, rng)
    advance(state, rng)
    return state


def _do(state, a, rng):
    t = a["type"]
    p = state["pending"]
    state["pending"] = None
    if t == "place":
        _place_monster(state, p["monster"], a["square"])
    elif t == "enter":
        merc = state["mercs"][a["merc"]]
        merc["pos"] = [MERC_ROW, a["column"]]
        _event(state, f"{merc['name']} enters the area at column {a['column'] + 1}.")
    elif t == "defend":
        merc = state["mercs"][p["merc"]]
        merc["hand"].remove(a["card"])
        if stats(state, a["card"])["skill"] == "defence":
            merc["defence"].append(a["card"])
        else:
            state["combat"]["cards"].append(a["card"])
        state["combat"]["stage"] = "defend"
    elif t == "take":
        pass
    elif t == "retaliate":
        cb = state["combat"]
        state["combat"] = {"who": "merc", "monster": cb["monster"], "merc": cb["merc"], "kind": "melee",
                           "lash": False, "retaliation": True, "cards": [], "stage": "cards"}
        state["pending"] = {"type": "attack", "seat": a["seat"], "merc": cb["merc"], "kind": "melee",
                            "target": cb["monster"], "cards": []}
    elif t == "decline":
        state["combat"] = None
        _bury(state)
    elif t == "attack":
        merc = state["mercs"][a["merc"]]
        merc["attacked"] = True
        state["pending"] = {"type": "attack", "seat": a["seat"], "merc": a["merc"], "kind": a["kind"],
                            "target": a.get("target"), "cards": []}
    elif t == "add":
        merc = state["mercs"][p["merc"]]
        merc["hand"].remove(a["card"])
        p["cards"].append(a["card"])
        state["pending"] = p
        if state["combat"]:
            state["combat"]["cards"].append(a["card"])
    elif t == "withdraw":
        merc = state["mercs"][p["merc"]]
        merc["hand"] += p["cards"]
        merc["attacked"] = False
    elif t == "strike":
        if state["combat"] is None:
            state["combat"] = {"who": "merc", "monster": a["target"], "merc": p["merc"], "kind": p["kind"],
                               "lash": False, "retaliation": False, "cards": list(p["cards"]), "stage": "cards"}
        else:
            state["combat"]["monster"] = a["target"]
    elif t == "move":
        merc = state["mercs"][a["merc"]]
        options = sorted(destinations(state, tuple(merc["pos"]), a["merc"]))
        state["pending"] = {"type": "move", "seat": a["seat"], "merc": a["merc"], "options": [list(o) for o in options]}
    elif t == "to":
        merc = state["mercs"][p["merc"]]
        merc["moved"] = True
        dest = a["square"]
        lashers = [m for m in state["board"] if adjacent(m["pos"], merc["pos"]) and not adjacent(m["pos"], dest)
                   and not m["acted"]]
        order = {"melee": 0, "champion": 1, "ranged": 2}
        lashers.sort(key=lambda m: (order[category(state, m["id"])], -stats(state, m["id"])["health"], m["id"]))
        state["lash"] = {"merc": p["merc"], "dest": dest, "monsters": [m["id"] for m in lashers]}
    elif t == "next":
        _monster_acts(state, a["monster"], rng)
    elif t == "monster_to":
        _move_monster(state, monster(state, p["monster"]), a["square"])
    elif t == "target":
        monster_attacks(state, p["monster"], a["merc"], p["kind"])
    elif t == "hold":
        pass
    elif t == "acquire":
        merc = state["mercs"][a["merc"]]
        got = state["stacks"][a["code"]].pop(0)
        merc["acquired"].append(got)
        merc["bought"] = True
        merc["exp"] -= state["cards"][a["code"]]["stats"].get("cost", 0)
        _event(state, f"{merc['name']} acquires {_named(state, got)}.")
    elif t == "ability":
        merc = state["mercs"][a["merc"]]
        merc["hand"].remove(a["card"])
        merc["discard"].append(a["card"])
        s = stats(state, a["card"])
        if s["effect"] == "heal":
            merc["health"] = min(MAX_HEALTH, merc["health"] + s["amount"])
        elif s["effect"] == "exp":
            merc["exp"] += s["amount"]
        elif s["effect"] == "draw":
            _draw(state, rng, merc, s["amount"])
        _event(state, f"{merc['name']} plays {_named(state, a['card'])}.")
    elif t == "end_turn":
        state["current"] = None
    if state["combat"] and state["combat"]["who"] == "merc" and state["combat"]["stage"] == "cards" \
            and t == "strike":
        state["combat"]["stage"] = "resolve"
