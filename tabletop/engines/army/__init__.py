"""Army Rules battles: a pure rules engine behind the kernel contract.

Two commanders (seats 0 and 1; the GM is ``"gm"``) fight a battle of two Phases made
of skirmishes: one unit face down on Offense, one face down on Defense, reveal, two
reaction windows around the dice, result (Exhausted / Disabled / Killed), Healers,
next turn. Morale, Bases, kill saving, Rituals, rout and the twenty commander powers
follow the Army Rules rulebook (version 2, 08/2019); every ruling on a gap is in
docs/rulings.md (AR1...) and in the docstring of the module that implements it.

State (plain JSON, ``"v": 1``)::

    cards       {id: card + owner + granted}   read-only after setup (thaw shares it)
    commanders  [{name, kind, power, benefit, morale, base, base_used, start_morale,
                  favors, influence_halves, spent, uses, oath, dervish, streak, routed}]
    piles       [{hand, exhausted, disabled, killed}, ...]   card ids per seat
    used        [[ids], [ids]]    cards that left their hand (upkeep; ruling AR16)
    phase       "before" | "first" | "second" | "over"
    chooser, first, active, last_defender, pass_run, number
    skirmish    None | {n, attacker, defender, offense, defense, unopposed, mods,
                        dice, window, once, rerolls}
                offense/defense = {card, role (in force), role_source, revealed}
    step        None | {kind, seat, task, ...}    the one open decision
    tasks       the queue of automatic work (steps.py)
    routing, forced_dice, gm_next, phase_effects, killed_log, revived, revealed,
    last (the last resolution, step by step), events, result

Steps (``step["kind"]``; who decides): ``power`` (a commander: Tactician's choice,
Oathbound's designation, Dervish's target, Mender's reveal and disable, Necromancer's
return, the unit that Adds the Illusionist's d6, the Cleric's chance as the battle
ends), ``choose_first`` (the random commander), ``offense`` (the active commander),
``defense`` (the other), ``react`` (reaction windows, attacker first),
``save`` (the owner of a unit that would be Killed), ``heal`` (attacker, then
defender), ``dice`` (the GM, at a physical-dice table). Actions: choices.py; GM
overrides: gm.py.

Modules:

* ``abilities`` -- the card ability vocabulary (documented there)
* ``starter``   -- STARTER UNITS (designed by Muster, not official)
* ``config``    -- config validation, ``starter_config``, ``random_config``
* ``common``    -- constants, card moves, Morale
* ``steps``     -- the battle's step queue (its tasks) and decisions; ``dice`` -- every roll
* ``strength``  -- Roles and traits in force, modifiers, dice modes, totals
* ``skirmish``  -- turns, Offense/Defense, reveal, reaction windows, result
* ``effects``   -- discards, discard powers, Rituals
* ``aftermath`` -- kill saving, Healers, rout, Phases, end, winner
* ``powers/``   -- the twenty commander powers, one module per row
* ``choices``   -- the legal actions with labels; ``actions`` -- apply
* ``gm``        -- GM overrides; ``seat_view`` -- what each seat may see, hidden ids, outcome
* ``checks``    -- invariants and illegal examples; ``testing`` -- test helpers
* ``odds``      -- exact skirmish odds (shown to the GM)
"""

from ..spec import EngineSpec
from .actions import apply
from .bot import SEARCH, heuristic, observed, playout, redeal  # noqa: F401  (re-exported for the computer players, issues 16, 27)
from .checks import illegal_examples, invariants
from .config import random_config, starter_config
from .game import legal_actions, setup, to_act
from .gm import examples as gm_overrides
from .gm import override_menu, settle, shown_by
from .seat_view import card_names, hidden_from, outcome, view
from .starter import STARTER_UNITS, side_units

NAME = "army"
TITLE = "Army Rules battle"
SPEC = EngineSpec(name=NAME, title=TITLE, settle=settle, card_names=card_names, shown_by=shown_by, redeal=redeal,
                  heuristic=heuristic, playout=playout, observed=observed, search=SEARCH,
                  override_menu=override_menu, gm_overrides=gm_overrides)

__all__ = [
    "NAME", "TITLE", "SPEC", "STARTER_UNITS", "side_units",
    "setup", "to_act", "legal_actions", "apply", "settle", "view", "outcome", "invariants",
    "illegal_examples", "hidden_from", "card_names", "gm_overrides", "override_menu", "shown_by", "random_config",
    "starter_config",
]
