"""The Army Rules' rules help (tabletop/rules_help): every commander power, Role and Path, and the game's terms,
each (term, text) in English and marked; the sources the entries name."""

from __future__ import annotations

from django.utils.translation import gettext_noop

POWERS_SOURCE = gettext_noop("Army Rules, Commander Powers")
ROLES_SOURCE = gettext_noop("Army Rules, Roles")
GLOSSARY_SOURCE = gettext_noop("Army Rules, Glossary of Terms")
# Role, Path and power names are the catalog's and the rulebook's names, marked like every shown string.

POWERS = {
    "tactician": (
        gettext_noop("Tactician"),
        gettext_noop(
            'Guardian of Steel: "At the start of each Battle, you may choose any single Guardian or Path of '
            "Steel Commander benefit.\" The chosen power is the Tactician's benefit for that Battle."
        ),
    ),
    "battlemage": (
        gettext_noop("Battlemage"),
        gettext_noop(
            'Guardian of Magic: "Any card you discard to the Disabled pile is instead placed in the Exhausted'
            ' pile on a 5+ on a d6. This power may only succeed once per Phase."'
        ),
    ),
    "oathbound": (
        gettext_noop("Oathbound"),
        gettext_noop(
            'Guardian of Faith: "Each Battle, designate one unit. If that unit is Killed, it is only '
            'Disabled. If it is Disabled (not including your power), it is only Exhausted."'
        ),
    ),
    "shapeshifter": (
        gettext_noop("Shapeshifter"),
        gettext_noop(
            'Guardian of Nature: "Once per Battle, you may change the Role of any one card as you reveal it '
            'in a Skirmish or discard it."'
        ),
    ),
    "adept": (
        gettext_noop("Adept"),
        gettext_noop(
            'Guardian of Mind: "You may change the Role of any card you play to Guardian. Guardian units you '
            'play Add 1."'
        ),
    ),
    "chirurgeon": (
        gettext_noop("Chirurgeon"),
        gettext_noop(
            "Healer of Steel: you gain the Chirurgeon's Equipment unit for free; \"If it would be Killed, "
            'place it in the Disabled pile."'
        ),
    ),
    "necromancer": (
        gettext_noop("Necromancer"),
        gettext_noop(
            'Healer of Magic: "At the start of the second Phase, you may return 1 card from your Disabled '
            'pile to your hand. Undead units you play Add 1."'
        ),
    ),
    "cleric": (
        gettext_noop("Cleric"),
        gettext_noop(
            'Healer of Faith: "Once per Day, you may return 1 Killed card to your hand by spending a Morale."'
        ),
    ),
    "animist": (
        gettext_noop("Animist"),
        gettext_noop('Healer of Nature: "You may play 2 Rituals each Phase. Healers you play Add 1."'),
    ),
    "mender": (
        gettext_noop("Mender"),
        gettext_noop(
            'Healer of Mind: "Before the Battle, you may ask your opponent to reveal 2 random cards from '
            'their hand. You may spend 1 Morale to Disable one of them."'
        ),
    ),
    "master_of_arms": (
        gettext_noop("Master of Arms"),
        gettext_noop(
            'Aggressor of Steel: "You may change the Role of any card you play to Aggressor. Aggressor units '
            'you play Add 1."'
        ),
    ),
    "evoker": (
        gettext_noop("Evoker"),
        gettext_noop(
            'Aggressor of Magic: "Three times per Battle, you may Add 2 to any unit in a Skirmish. You may '
            'not do this more than once per Skirmish."'
        ),
    ),
    "dervish": (
        gettext_noop("Dervish"),
        gettext_noop(
            'Aggressor of Faith: "Units under your command Add 1 against units that are on a specific Path or'
            ' Role (choose one each Day)."'
        ),
    ),
    "scout": (
        gettext_noop("Scout"),
        gettext_noop(
            'Aggressor of Nature: "All cards you play on Offense gain the Ranged trait. If they already had '
            'the Ranged trait, they Add 1."'
        ),
    ),
    "mindblade": (
        gettext_noop("Mindblade"),
        gettext_noop(
            'Aggressor of Mind: "Whenever you win a Skirmish, you may Add 1 to the next Skirmish that Phase. '
            'Whenever you win the next Skirmish, it increases to Add 2. This ends when you lose a Skirmish."'
        ),
    ),
    "rogue": (
        gettext_noop("Rogue"),
        gettext_noop('Savant of Steel: "When you Kill an enemy unit, gain a Morale on a 4+."'),
    ),
    "illusionist": (
        gettext_noop("Illusionist"),
        gettext_noop(
            'Savant of Magic: "Twice per Battle, you may roll a d6 and have either unit in a Skirmish Add the'
            ' result. You may not do this more than once per Skirmish."'
        ),
    ),
    "chaplain": (
        gettext_noop("Chaplain"),
        gettext_noop(
            "Savant of Faith: you gain access to the Chaplain's mediating unit, \"which neither deals nor "
            'receives damage in Skirmishes."'
        ),
    ),
    "shaman": (
        gettext_noop("Shaman"),
        gettext_noop('Savant of Nature: "Elemental and Savant units you play Add 1."'),
    ),
    "etherealist": (
        gettext_noop("Etherealist"),
        gettext_noop(
            'Savant of Mind: "Once per Battle, you may exchange any unit in your hand with any unit you have '
            "played in a Skirmish, as long as the unit from your hand would be legal to play into that "
            'Skirmish."'
        ),
    ),
}

ROLES = {
    "aggressor": (
        gettext_noop("Aggressor"),
        gettext_noop(
            '"May roll 2d6 and take the best one when played on Offense. Negate this benefit if the defending'
            ' unit is a Guardian."'
        ),
    ),
    "guardian": (
        gettext_noop("Guardian"),
        gettext_noop(
            '"May roll 2d6 and take the best one when played on Defense. Negate this benefit if the attacking'
            ' unit is an Aggressor."'
        ),
    ),
    "healer": (
        gettext_noop("Healer"),
        gettext_noop(
            '"You may spend a Morale and discard a unit with the Healer role from your hand after any '
            "Skirmish. If you do so, you may take one card out of your Disabled or Exhausted pile and return "
            'it to your hand. A Healer may not be used to return a unit with more than twice its Strength."'
        ),
    ),
    "savant": (
        gettext_noop("Savant"),
        gettext_noop(
            '"Any time a unit with the Savant role receives a bonus to Strength from another card, they '
            'receive an additional +2 to Strength." Commander effects do not trigger it.'
        ),
    ),
    "equipment": (
        gettext_noop("Equipment"),
        gettext_noop(
            '"Can usually be discarded to grant a bonus of some kind. Equipment cards do not roll a d6 when '
            "played on Offense or Defense, and equipment cards with a Strength of 0 are automatically Killed "
            'in any Skirmish."'
        ),
    ),
    "ritual": (
        gettext_noop("Ritual"),
        gettext_noop(
            '"Only two cards with the Ritual role may be played by a commander each Battle one per Phase. To '
            'use a Ritual, an Army must include at least two units with a matching Path."'
        ),
    ),
}

PATH_TEXT = gettext_noop(
    "One of the five Paths (Steel, Magic, Faith, Nature, Mind). A commander's Role and Path make "
    "their class and power (the Commander Powers table); a Ritual needs at least two units with a "
    "matching Path."
)
PATHS = {
    "steel": (gettext_noop("Path of Steel"), PATH_TEXT),
    "magic": (gettext_noop("Path of Magic"), PATH_TEXT),
    "faith": (gettext_noop("Path of Faith"), PATH_TEXT),
    "nature": (gettext_noop("Path of Nature"), PATH_TEXT),
    "mind": (gettext_noop("Path of Mind"), PATH_TEXT),
}

ARMY_TERMS = {
    "exhausted": (
        gettext_noop("Exhausted"),
        gettext_noop(
            '"A card is placed in the Exhausted pile when it wins a Skirmish. Exhausted cards become '
            'available again during the second Phase of a Battle."'
        ),
    ),
    "disabled": (
        gettext_noop("Disabled"),
        gettext_noop(
            '"A card defeated in a Skirmish but not Killed is Disabled. ... Disabled cards are out for the '
            'Battle but will recover afterwards."'
        ),
    ),
    "killed": (
        gettext_noop("Killed"),
        gettext_noop(
            'A unit beaten by 3 or more is Killed: "removed from play permanently at the end of the Battle." '
            "A commander may spend a Favor or 1/2 Influence (PCs) or 3 Morale (NPCs) to have it Disabled "
            "instead."
        ),
    ),
    "unopposed": (
        gettext_noop("Unopposed"),
        gettext_noop(
            "\"If a commander could play a card on Defense but does not, the attacker's unit is considered "
            'Unopposed." It rolls and adds modifiers as normal and "for every 4 whole points of Strength that'
            ' results, deals 1 point of Morale damage to the defending player."'
        ),
    ),
    "unable": (
        gettext_noop("Unable"),
        gettext_noop(
            '"The response when you would play a card in a Skirmish, but cannot do so." Being Unable costs no'
            " Morale; when both commanders are Unable, the Phase ends."
        ),
    ),
    "pass": (
        gettext_noop("Pass"),
        gettext_noop(
            '"Electing not to play a card on Offense or Defense when you otherwise could." Passing on Offense'
            " costs a Morale; if both commanders Pass, the Battle ends."
        ),
    ),
    "morale": (
        gettext_noop("Morale"),
        gettext_noop(
            '"A measure of a commander\'s ability to lead." Starting Morale is 3 + half the non-bonus '
            "Progression (rounded down); at 0 the commander is Routed."
        ),
    ),
    "routed": (
        gettext_noop("Routed"),
        gettext_noop(
            '"A Commander reduced to 0 Morale is Routed - they lose the Battle immediately." The opponent '
            "rolls a d6 for each of their Disabled or Exhausted units: on a 5+ it is Killed."
        ),
    ),
    "base": (
        gettext_noop("Base"),
        gettext_noop(
            '"A battlefield feature that grants extra Morale to the defending Commander." Base Morale is lost'
            " first, and is then used up for the Day."
        ),
    ),
    "phase": (
        gettext_noop("Phase"),
        gettext_noop(
            '"Half of a Battle. A Phase ends when both Commanders are unable to play cards." In the second '
            "Phase the Exhausted piles return to hand."
        ),
    ),
    "skirmish": (
        gettext_noop("Skirmish"),
        gettext_noop(
            "One unit on Offense against one on Defense: each rolls a d6 and adds its Strength; the higher "
            "total is Exhausted, the other Disabled (Killed if beaten by 3 or more)."
        ),
    ),
    "offense": (
        gettext_noop("Offense"),
        gettext_noop('"The (usually face-down) card played by the attacking player in a Skirmish."'),
    ),
    "defense": (
        gettext_noop("Defense"),
        gettext_noop('"The (usually face-down) card played by the defending player in a Skirmish."'),
    ),
    "strength": (
        gettext_noop("Strength"),
        gettext_noop(
            '"A rating on a card indicating its raw combat power. A d6 roll will be added to this in a '
            'Skirmish." Ties go to the higher base Strength, then a re-roll.'
        ),
    ),
    "favor": (
        gettext_noop("Favor"),
        gettext_noop(
            "A PC commander may spend a Favor (or 1/2 Influence) to have a unit that would be Killed become "
            "Disabled instead."
        ),
    ),
}
