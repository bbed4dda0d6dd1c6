"""Setup, turn order and actions of Mercenaries of Gridaris.

Setup: shuffle the silver and the gold piles; in Enhanced Play draw two scenarios
(unless the config names them); Head Stand draws the top two silver cards, records
their classes, and the silver pile is shuffled again; deal 6 silver and 3 gold cards
to each player; pick the first player at random. When two board-shape scenarios are
drawn and the config names no map, the game waits in phase ``choose_map`` for the
GM to enter the table's choice, among the drawn shapes (ruling).

Placement (phase ``placement``): clockwise (seat order), each player places one card
from hand on an empty battlefield, then combat (combat.py). A player with an empty
hand is skipped (ruling). Rags to Riches: the card must be one of the lowest Star
Rank in the hand, in placement and in reinforcement.

Reinforcement: once every battlefield is filled, players with no battlefield are out
of the game. The player with the fewest battlefields (tie: the lower Star total; then
the first in seat order from the game's first player -- rulings) chooses to go
"first" or "last" (phase ``choose_order``). Then clockwise from the starting player
each player takes one final, mandatory turn (ruling): play a card on a battlefield
they control, covering the card there (it stays in the stack and its stars no longer
count; a Class Project/War modifier is recomputed for the new card). A player wiped
off the board when their turn comes is out; a player without cards skips (ruling).
After the last of them the game is over and scored (scoring.py).

Rulings are recorded in docs/rulings.md.
"""

from __future__ import annotations

from .. import kernel
from ..kernel import GM, IllegalAction
from ..shapes import TEXT, checked
from ..words import either, gettext_noop, phrase
from . import combat, maps
from . import config as configuration
from .scoring import final_result
from .starter import SCENARIO_KEYS, SCENARIOS_BY_KEY

VERSION = 1
PHASES = ("choose_map", "placement", "choose_order", "reinforcement", "over")
MAX_EVENTS = 60

# The log's lines (issue 41): English templates the page reads back and says in the reader's language.
SCENARIOS_DRAWN = phrase("Scenarios: %(first_words)s and %(second_words)s.")
CLASSES_CANCEL = phrase("Class Project and Class War cancel each other out.")
HEAD_STAND_ONE = phrase("Head Stand: %(cls)s play upside down.")
HEAD_STAND_TWO = phrase("Head Stand: %(first)s and %(second)s play upside down.")
TABLE_CHOOSES_MAP = phrase("The table chooses the map: %(first_words)s or %(second_words)s.")
BATTLE_MAP = phrase("The battle is fought on the %(map_words)s map. %(name)s goes first.")
GOES_FIRST = phrase("%(name)s chooses to go first in the Reinforcement Phase.")
GOES_LAST = phrase("%(name)s chooses to go last in the Reinforcement Phase.")
NO_CARDS_SKIPPED = phrase("%(name)s has no cards left and is skipped.")
WIPED_OUT = phrase("%(name)s has been wiped off the board and is out of the game.")
REINFORCEMENT_BEGINS = phrase("Every battlefield is taken: the Reinforcement Phase begins. %(name)s controls the "
                              "fewest battlefields and chooses to go first or last.")
NO_CARDS_NO_REINFORCEMENT = phrase("%(name)s has no cards left and skips the Reinforcement Phase.")
# A card played: (reinforced, with a modifier, captures, cascade) -> its line.
PLAYED = {
    (False, False, False, False): phrase("%(player)s plays %(card)s on %(cell)s."),
    (False, False, True, False): phrase("%(player)s plays %(card)s on %(cell)s and captures %(captured)s."),
    (False, False, True, True): phrase("%(player)s plays %(card)s on %(cell)s and captures %(captured)s; "
                                       "the cascade takes %(cascaded)s."),
    (False, True, False, False): phrase("%(player)s plays %(card)s on %(cell)s (%(modifier)s)."),
    (False, True, True, False): phrase("%(player)s plays %(card)s on %(cell)s (%(modifier)s) and captures "
                                       "%(captured)s."),
    (False, True, True, True): phrase("%(player)s plays %(card)s on %(cell)s (%(modifier)s) and captures "
                                      "%(captured)s; the cascade takes %(cascaded)s."),
    (True, False, False, False): phrase("%(player)s reinforces %(cell)s with %(card)s, covering %(covered)s."),
    (True, False, True, False): phrase("%(player)s reinforces %(cell)s with %(card)s, covering %(covered)s, and "
                                       "captures %(captured)s."),
    (True, False, True, True): phrase("%(player)s reinforces %(cell)s with %(card)s, covering %(covered)s, and "
                                      "captures %(captured)s; the cascade takes %(cascaded)s."),
    (True, True, False, False): phrase("%(player)s reinforces %(cell)s with %(card)s (%(modifier)s), covering "
                                       "%(covered)s."),
    (True, True, True, False): phrase("%(player)s reinforces %(cell)s with %(card)s (%(modifier)s), covering "
                                      "%(covered)s, and captures %(captured)s."),
    (True, True, True, True): phrase("%(player)s reinforces %(cell)s with %(card)s (%(modifier)s), covering "
                                     "%(covered)s, and captures %(captured)s; the cascade takes %(cascaded)s."),
}


# ---------------------------------------------------------------- setup

def setup(config: dict, rng) -> dict:
    clean = configuration.validate(config)
    players = clean["players"]
    cards = {card["id"]: card for card in clean["cards"]}
    silver = rng.shuffled([card["id"] for card in clean["cards"] if card["tier"] == "silver"])
    gold = rng.shuffled([card["id"] for card in clean["cards"] if card["tier"] == "gold"])
    events: list[str] = []
    scenarios: list[str] = []
    if clean["mode"] == "enhanced":
        scenarios = clean["scenarios"] or _draw_scenarios(rng)
        first, second = (SCENARIOS_BY_KEY[key]["name"] for key in scenarios)
        events.append(SCENARIOS_DRAWN % {"first_words": first, "second_words": second})
    active = [key for key in scenarios if key not in configuration.BOARD_SHAPES]
    if "class_project" in active and "class_war" in active:
        active = [key for key in active if key not in ("class_project", "class_war")]
        events.append(CLASSES_CANCEL)
    headstand: list[str] = []
    if "head_stand" in active:
        for card_id in silver[:2]:
            if cards[card_id]["class"] not in headstand:
                headstand.append(cards[card_id]["class"])
        silver = rng.shuffled(silver)
        if len(headstand) == 1:
            events.append(HEAD_STAND_ONE % {"cls": headstand[0]})
        else:
            events.append(HEAD_STAND_TWO % {"first": headstand[0], "second": headstand[1]})
    hands: list[list[str]] = [[] for _ in players]
    for pile, each in ((silver, configuration.SILVER_PER_PLAYER), (gold, configuration.GOLD_PER_PLAYER)):
        for _ in range(each):
            for seat in range(len(players)):
                hands[seat].append(pile.pop(0))
    first = rng.randint(0, len(players) - 1)
    options = configuration.map_options(scenarios)
    chosen = clean["map"] if clean["map"] in options else None
    map_key = options[0] if len(options) == 1 else chosen
    state = {
        "v": VERSION, "game": "gridaris", "players": players, "mode": clean["mode"],
        "scenarios": scenarios, "active": active, "map": None, "map_options": options,
        "headstand_classes": headstand, "cards": cards,
        "decks": {"silver": silver, "gold": gold}, "hands": hands, "board": {},
        "phase": "choose_map", "first": first, "turn": None, "chooser": None,
        "order": [], "order_pos": 0, "out": [False] * len(players),
        "last": {"cell": None, "captured": []}, "events": events, "result": None,
    }
    if map_key is not None:
        _start_placement(state, map_key)
    else:
        first, second = (maps.MAPS[key]["name"] for key in options)
        _event(state, TABLE_CHOOSES_MAP % {"first_words": first, "second_words": second})
    return state


def _draw_scenarios(rng) -> list[str]:
    keys = list(SCENARIO_KEYS)
    first = keys.pop(rng.randint(0, len(keys) - 1))
    return [first, keys[rng.randint(0, len(keys) - 1)]]


def _start_placement(state: dict, map_key: str) -> None:
    state["map"] = map_key
    if map_key != "standard":
        state["active"] = [key for key in state["active"] if key != map_key] + [map_key]
    state["phase"] = "placement"
    state["turn"] = state["first"]
    _event(state, BATTLE_MAP % {"map_words": maps.MAPS[map_key]["name"], "name": state["players"][state["first"]]})


# ---------------------------------------------------------------- queries

def _event(state: dict, line: str) -> None:
    state["events"] = (state["events"] + [line])[-MAX_EVENTS:]


def owned_cells(state: dict, seat: int) -> list[str]:
    return [cell_key for cell_key, cell in state["board"].items() if cell["owner"] == seat]


def star_total(state: dict, seat: int) -> int:
    return sum(state["cards"][state["board"][key]["stack"][-1]]["stars"] for key in owned_cells(state, seat))


def to_act(state: dict) -> list:
    phase = state["phase"]
    if phase == "choose_map":
        return [GM]
    if phase == "choose_order":
        return [state["chooser"]]
    if phase in ("placement", "reinforcement"):
        return [state["turn"]]
    return []


def playable_cards(state: dict, seat: int) -> list[str]:
    """The cards ``seat`` may play now (Rags to Riches keeps only the lowest ranks)."""
    hand = state["hands"][seat]
    if "rags_to_riches" in state["active"] and hand:
        lowest = min(state["cards"][card_id]["stars"] for card_id in hand)
        return [card_id for card_id in hand if state["cards"][card_id]["stars"] == lowest]
    return list(hand)


def playable_cells(state: dict, seat: int) -> list[str]:
    if state["phase"] == "placement":
        return [key for key in maps.cell_keys(state["map"]) if key not in state["board"]]
    if state["phase"] == "reinforcement":
        return [key for key in maps.cell_keys(state["map"]) if state["board"][key]["owner"] == seat]
    return []


def legal_actions(state: dict) -> list[dict]:
    phase = state["phase"]
    if phase == "choose_map":
        return [{"type": "map", "seat": GM, "map": key} for key in state["map_options"]]
    if phase == "choose_order":
        return [{"type": "order", "seat": state["chooser"], "go": go} for go in ("first", "last")]
    if phase in ("placement", "reinforcement"):
        seat = state["turn"]
        return [{"type": "place", "seat": seat, "card": card_id, "cell": cell_key}
                for card_id in playable_cards(state, seat) for cell_key in playable_cells(state, seat)]
    return []


# ---------------------------------------------------------------- apply

ACTION_SHAPES = {"place": {"card": TEXT, "cell": TEXT}, "order": {"go": TEXT}, "map": {"map": TEXT}}


@checked(ACTION_SHAPES, "Gridaris")
def apply(state: dict, action: dict, rng) -> dict:
    """The state after ``action``; the input is left untouched. Uses no chance."""
    if not isinstance(action, dict):
        raise IllegalAction(gettext_noop("An action must be a set of fields with a type."))
    if state["phase"] == "over":
        raise IllegalAction(gettext_noop("The game is over."))
    checks = {"place": _check_place, "order": _check_order, "map": _check_map}
    kind = action.get("type")
    if kind not in checks:
        raise IllegalAction(gettext_noop("Unknown action type %(kind)r; Gridaris knows place, order and map."),
                            kind=kind)
    # Every check reads the input only, so a refusal costs no copy; the effect changes a private copy.
    effect, arguments = checks[kind](state, action)
    new_state = kernel.thaw(state, shared=("cards",))
    effect(new_state, *arguments)
    return new_state


def _seat(state: dict, action: dict) -> int:
    raw = action.get("seat")
    if raw == GM:
        raise IllegalAction(
            gettext_noop("Say which player's seat this move is for; the GM enters moves on a player's behalf."))
    if isinstance(raw, bool) or not isinstance(raw, (int, str)) or not str(raw).strip().isdigit():
        raise IllegalAction(gettext_noop("%(raw)r is not a seat number."), raw=raw)
    seat = int(str(raw).strip())
    if seat >= len(state["players"]):
        raise IllegalAction(gettext_noop("There is no seat %(seat)s at this table."), seat=seat)
    return seat


def _require_turn(state: dict, seat: int, deciding: int) -> None:
    if seat != deciding:
        name = state["players"][deciding]
        raise IllegalAction(gettext_noop("It is %(name)s's turn, not yours."), name=name)


def _check_map(state: dict, action: dict) -> tuple:
    if action.get("seat") != GM:
        raise IllegalAction(gettext_noop("Only the GM enters the table's choice of map."))
    if state["phase"] != "choose_map":
        raise IllegalAction(gettext_noop("The map has already been chosen."))
    map_key = action.get("map")
    if map_key not in state["map_options"]:
        names = either([maps.MAPS[key]["name"] for key in state["map_options"]])
        raise IllegalAction(gettext_noop("The map must be %(names)s."), names=names)
    return _start_placement, (map_key,)


def _check_order(state: dict, action: dict) -> tuple:
    seat = _seat(state, action)
    if state["phase"] != "choose_order":
        raise IllegalAction(gettext_noop("There is no Reinforcement order to choose now."))
    _require_turn(state, seat, state["chooser"])
    go = str(action.get("go", "")).strip().lower()
    if go not in ("first", "last"):
        raise IllegalAction(gettext_noop("Choose to go 'first' or 'last' in the Reinforcement Phase."))
    return _set_order, (seat, go)


def _set_order(state: dict, seat: int, go: str) -> None:
    count = len(state["players"])
    start = seat if go == "first" else (seat + 1) % count
    state["order"] = [(start + step) % count for step in range(count)]
    state["order_pos"] = 0
    state["phase"] = "reinforcement"
    _event(state, (GOES_FIRST if go == "first" else GOES_LAST) % {"name": state["players"][seat]})
    _next_reinforcer(state)


def _check_place(state: dict, action: dict) -> tuple:
    seat = _seat(state, action)
    phase = state["phase"]
    if phase == "choose_map":
        raise IllegalAction(gettext_noop("The table must choose the map before anyone plays."))
    if phase == "choose_order":
        raise IllegalAction(gettext_noop("%(name)s must first choose to go first or last."),
                            name=state["players"][state["chooser"]])
    _require_turn(state, seat, state["turn"])
    card_id = action.get("card")
    if card_id in (None, ""):  # a battlefield tapped before a card (issue 25): the page's own sentence
        raise IllegalAction(gettext_noop("Pick a card from your hand first, then tap the battlefield."))
    if not isinstance(card_id, str) or card_id not in state["hands"][seat]:
        raise IllegalAction(gettext_noop("That card is not in your hand."))
    cell_key = action.get("cell")
    parsed = maps.parse_key(cell_key)
    if parsed is None:
        raise IllegalAction(gettext_noop("%(cell)r is not a battlefield; battlefields are written row,column like "
                                         "'1,2'."), cell=cell_key)
    cell_key = maps.key(*parsed)
    where = maps.label(cell_key)
    if not maps.on_map(state["map"], cell_key):
        raise IllegalAction(gettext_noop("There is no battlefield at %(where)s on this map."), where=where)
    board = state["board"]
    if phase == "placement" and cell_key in board:
        raise IllegalAction(gettext_noop("The battlefield %(where)s is already occupied."), where=where)
    if phase == "reinforcement" and board[cell_key]["owner"] != seat:
        raise IllegalAction(gettext_noop("In the Reinforcement Phase you may only cover a battlefield you control; "
                                         "%(where)s belongs to %(name)s."),
                            where=where, name=state["players"][board[cell_key]["owner"]])
    if card_id not in playable_cards(state, seat):
        stars = state["cards"][playable_cards(state, seat)[0]]["stars"]
        if stars == 1:
            raise IllegalAction(gettext_noop("Rags to Riches: play one of your lowest-ranked cards (1 star) first."))
        raise IllegalAction(gettext_noop("Rags to Riches: play one of your lowest-ranked cards (%(stars)s stars) "
                                         "first."), stars=stars)
    return _play, (seat, card_id, cell_key)


def _play(state: dict, seat: int, card_id: str, cell_key: str) -> None:
    cards, name = state["cards"], state["players"][seat]
    state["hands"][seat].remove(card_id)
    modifier = combat.class_modifier(state, cards[card_id]["class"], cell_key)
    covered = state["board"].get(cell_key)
    stack = (covered["stack"] if covered else []) + [card_id]
    state["board"][cell_key] = {"stack": stack, "owner": seat, "modifier": modifier}
    direct, cascaded = combat.resolve(state, cell_key, seat)
    state["last"] = {"cell": cell_key, "captured": direct + cascaded}
    line = PLAYED[bool(covered), bool(modifier), bool(direct), bool(cascaded)]
    _event(state, line % {
        "player": name, "card": cards[card_id]["name"], "cell": maps.label(cell_key), "modifier": f"{modifier:+d}",
        "covered": cards[covered["stack"][-1]]["name"] if covered else "",
        "captured": _names(state, direct), "cascaded": _names(state, cascaded),
    })
    if state["phase"] == "placement":
        _after_placement(state)
    else:
        state["order_pos"] += 1
        _next_reinforcer(state)


def _names(state: dict, cell_keys: list[str]) -> str:
    names = [state["cards"][state["board"][key]["stack"][-1]]["name"] for key in cell_keys]
    if not names:
        return ""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _after_placement(state: dict) -> None:
    count = len(state["players"])
    if len(state["board"]) < len(maps.MAPS[state["map"]]["cells"]):
        for step in range(1, count + 1):
            seat = (state["turn"] + step) % count
            if state["hands"][seat]:
                state["turn"] = seat
                return
            _event(state, NO_CARDS_SKIPPED % {"name": state["players"][seat]})
    _start_reinforcement(state)


def _start_reinforcement(state: dict) -> None:
    state["turn"] = None
    count, first = len(state["players"]), state["first"]
    for seat in range(count):
        if not owned_cells(state, seat):
            state["out"][seat] = True
            _event(state, WIPED_OUT % {"name": state["players"][seat]})
    standing = [seat for seat in range(count) if not state["out"][seat]]
    chooser = min(standing, key=lambda seat: (len(owned_cells(state, seat)), star_total(state, seat),
                                              (seat - first) % count))
    state["chooser"] = chooser
    state["phase"] = "choose_order"
    _event(state, REINFORCEMENT_BEGINS % {"name": state["players"][chooser]})


def _next_reinforcer(state: dict) -> None:
    while state["order_pos"] < len(state["order"]):
        seat = state["order"][state["order_pos"]]
        name = state["players"][seat]
        if not state["out"][seat] and not owned_cells(state, seat):
            state["out"][seat] = True
            _event(state, WIPED_OUT % {"name": name})
        elif not state["out"][seat] and not state["hands"][seat]:
            _event(state, NO_CARDS_NO_REINFORCEMENT % {"name": name})
        elif not state["out"][seat]:
            state["turn"] = seat
            return
        state["order_pos"] += 1
    state["turn"] = None
    state["phase"] = "over"
    state["result"] = final_result(state)
    _event(state, state["result"]["reason"])
