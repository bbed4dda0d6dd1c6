"""Rules help on tap: every commander power and benefit, Role, Path and game term, in a sentence or two.

Each entry quotes the rulebook or follows it closely, and names the rulebook section it comes from
(``../shared/rulebooks/``); where Muster settles a question, the ruling's number is named
(docs/rulings.md). The page shows an entry through ``{% rules_help %}`` (tabletop/templatetags/rules_help.py):
the term becomes a button that opens the text in a popover, without JavaScript.

Keys are the engines' own words: a power's key (``"master_of_arms"``, the Army engine's ``POWERS``),
a Role (``"aggressor"``), a Path (``"steel"``), an Army term (``"unopposed"``), and each card game's
terms under its engine name (``"gridaris.reinforcement"``). ``GAME_TERMS`` lists the terms each
game's page offers. No text names a unit or a card: the pages' secrets tests look for card names.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_noop


@dataclass(frozen=True)
class Help:
    """A term's help in English; each string is marked, and the page shows it in the reader's language
    (tabletop/templatetags/rules_help.py)."""

    term: str
    text: str
    source: str


POWERS_SOURCE = gettext_noop("Army Rules, Commander Powers")
ROLES_SOURCE = gettext_noop("Army Rules, Roles")
GLOSSARY_SOURCE = gettext_noop("Army Rules, Glossary of Terms")
# Role, Path and power names are the catalog's and the rulebook's names, marked like every shown string.

_POWERS = {
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

_ROLES = {
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
_PATHS = {
    "steel": (gettext_noop("Path of Steel"), PATH_TEXT),
    "magic": (gettext_noop("Path of Magic"), PATH_TEXT),
    "faith": (gettext_noop("Path of Faith"), PATH_TEXT),
    "nature": (gettext_noop("Path of Nature"), PATH_TEXT),
    "mind": (gettext_noop("Path of Mind"), PATH_TEXT),
}

_ARMY_TERMS = {
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

_GAME_TERMS = {
    "gridaris": {
        "battlefield": (
            gettext_noop("Battlefield"),
            gettext_noop(
                'One square of the Battle Map. "Place any Mercenary from your hand onto any empty Battlefield in '
                'Gridaris", with your Empire Token to show you control it.'
            ),
        ),
        "combat": (
            gettext_noop("Combat"),
            gettext_noop(
                "Playing next to another Empire's Mercenary compares the touching Combat Values: a higher value "
                "captures it; a tie or a lower value does nothing. The card just played cannot be captured that "
                "turn."
            ),
        ),
        "ace": (
            gettext_noop("Ace"),
            gettext_noop(
                "\"'A's (Ace) in the place of any numbers are essentially infinity and can only be beaten in "
                'certain Scenarios."'
            ),
        ),
        "star_rank": (
            gettext_noop("Star Rank"),
            gettext_noop(
                '"The number of stars represents the Rank of each Mercenary." The Rank of every Mercenary you '
                "control at the end counts toward your score."
            ),
        ),
        "reinforcement": (
            gettext_noop("Reinforcement Phase"),
            gettext_noop(
                'The Final Round, once the last empty Battlefield is claimed: "Each player will take one final '
                "turn, but they may only play on Battlefields that they currently control, covering and replacing"
                ' the Mercenary that is in play at that location." The player with the fewest Battlefields '
                "chooses to go first or last."
            ),
        ),
        "scenario": (
            gettext_noop("Scenario"),
            gettext_noop(
                'Enhanced Play only: "two random Scenarios are revealed which introduce new rules to the game."'
            ),
        ),
        "earthquake": (
            gettext_noop("Earthquake"),
            gettext_noop('A Scenario: "changing the Battle Map from a 4x4 grid to a 2x8 grid."'),
        ),
        "tremor": (
            gettext_noop("Tremor"),
            gettext_noop(
                'A Scenario: "shifting one of the boards over one quadrant and making the land look like some '
                "sort of geometric 'S' or 'Z' shape.\""
            ),
        ),
        "two_islands": (
            gettext_noop("Two Islands"),
            gettext_noop('A Scenario: "creating two separate 2x4 islands to deploy your Mercenaries onto."'),
        ),
    },
    "gotm": {
        "shop": (
            gettext_noop("Shop"),
            gettext_noop(
                "The mercenary camp and the Goblin merchant (the artifacts) together. A card's value is its cost;"
                " you pay with the resource cards in your hand."
            ),
        ),
        "recruitment": (
            gettext_noop("Recruitment"),
            gettext_noop(
                "The first phase of a round: hire mercenaries and buy or swap artifacts. A player with no "
                "mercenary must recruit one, or the game ends."
            ),
        ),
        "squad": (
            gettext_noop("Squad"),
            gettext_noop(
                '"Each player selects a squad of three cards from their hand", face down in a row. A squad must '
                "have at least one mercenary."
            ),
        ),
        "artifact": (
            gettext_noop("Artifact"),
            gettext_noop(
                "Aces: equipped by a card matching the racial requirement to boost it and its allies. An artifact"
                " can be sold to the merchant for its value, spent at once on a hire."
            ),
        ),
        "shielding": (
            gettext_noop("Shielding"),
            gettext_noop(
                '"To protect the target, the defender is allowed to sacrifice one basic unit adjacent to it." The'
                " attack hits the shield instead."
            ),
        ),
        "wounded": (
            gettext_noop("Wounded"),
            gettext_noop(
                "An attack whose total AP falls 1-7 short of the target's value wounds it (the card is turned); a"
                " wounded card hit that way again dies. 8 or more short: unharmed."
            ),
        ),
        "infirmary": (
            gettext_noop("Infirmary"),
            gettext_noop(
                'Wounded cards after a round, face up in front of their player: "If played during combat, a card '
                'from the infirmary will be wounded at the start of the skirmish."'
            ),
        ),
    },
    "mercenarium": {
        "aura": (
            gettext_noop("Aura"),
            gettext_noop(
                "\"On the edges of each card is a series of dots (called an AURA) that define a card's capture "
                'strength." A card threatens an adjacent enemy whose touching edge has fewer dots.'
            ),
        ),
        "capture": (
            gettext_noop("Capture"),
            gettext_noop(
                "Move your card into an enemy card's space when it is threatened at the start of your turn. \"The "
                'first player to five (5) captures wins the game."'
            ),
        ),
        "alchemy": (
            gettext_noop("Alchemy"),
            gettext_noop(
                "Tied auras follow the Alchemy Wheel: Consumption (one suit always wins), Annihilation (opposite "
                "suits: both are discarded) or Deadlock (same suit: no capture)."
            ),
        ),
        "contract": (
            gettext_noop("Contract"),
            gettext_noop(
                'A bought or summoned Mercenary is "Under Contract" until it is again the turn of the player who '
                "bought or summoned it: nobody may buy it until then."
            ),
        ),
        "hymn": (
            gettext_noop("Hymn"),
            gettext_noop(
                "Hold at most one. Singing it is a turn action; learning a new one takes an offering of cards or "
                "a spent capture."
            ),
        ),
        "limbo": (
            gettext_noop("Limbo"),
            gettext_noop(
                "A player with no card in play whose House is occupied cannot summon: they are in Limbo. With two"
                " players, one who cannot escape on their next turn loses; with three or four, they stay in Limbo"
                " until they can summon again."
            ),
        ),
        "singularity": (
            gettext_noop("Singularity"),
            gettext_noop('"If at any point no cards remain in the main deck, the game enters Singularity."'),
        ),
    },
    "dungeon": {
        "ambush": (
            gettext_noop("Ambush!!"),
            gettext_noop(
                '"When an Ambush card is drawn, the First Player searches the Reserve Monster Deck for the '
                'Monsters listed. Those Monsters are placed in the Battle Area."'
            ),
        ),
        "reserve": (
            gettext_noop("Reserve Monster Deck"),
            gettext_noop("The face-up pile of spare Monsters that Ambush cards summon from."),
        ),
        "champion": (
            gettext_noop("Champion Monster"),
            gettext_noop(
                'A Monster with a yellow and black species symbol; "All Champion Monsters are placed on the '
                'Ranged Monster Row (even Melee Champions)."'
            ),
        ),
        "area_feature": (
            gettext_noop("Area Feature"),
            gettext_noop(
                "Drawn by the First Player at the start of each new Area: some act when drawn, others hold for "
                "the whole Area."
            ),
        ),
        "first_player": (
            gettext_noop("First Player"),
            gettext_noop(
                "Keeps the First Player card; at the first turn of each new Area it passes to the left. The First"
                " Player makes the Monsters' choices unless there is a Deck Master."
            ),
        ),
        "deck_master": (
            gettext_noop("Deck Master"),
            gettext_noop("A player who runs the Monsters against the mercenaries and makes the Monsters' choices."),
        ),
        "minus_health": (
            gettext_noop("Minus Health"),
            gettext_noop(
                '"While at Minus Health, a player cannot attack or play Skill Melee or Skill Ranged cards. They '
                'may still play Skill Defence cards, Ability cards, move, etc."'
            ),
        ),
        "exp": (
            gettext_noop("EXP"),
            gettext_noop(
                'Experience, gained in combat ("If a Mercenary makes a successful attack and does not kill a '
                'Monster, that player gains 1 EXP") and spent to acquire cards from the Resource Area: "Players '
                'may only acquire one card per turn."'
            ),
        ),
        "acted": (
            gettext_noop("Acted"),
            gettext_noop('"If a Monster has an Acted Token on it, it cannot move, attack, Retaliate, or Lash Out."'),
        ),
        "skill": (
            gettext_noop("Skill cards"),
            gettext_noop(
                "Grey cards: Skill Melee and Skill Ranged cards make attacks, Skill Defence cards defend. A "
                "Ranged attack reaches Monsters between the cards' Min. and Max. Range, in rows."
            ),
        ),
    },
}

SOURCES = {
    "gridaris": gettext_noop("Mercenaries of Gridaris rulebook"),
    "gotm": gettext_noop("Mercenaries (GOT'M) rulebook"),
    "mercenarium": gettext_noop("Mercenarium rulebook"),
    "dungeon": gettext_noop("Mercenaries deck-builder rulebook"),
}


def _build() -> dict[str, Help]:
    entries = {}
    for key, (term, text) in _POWERS.items():
        entries[key] = Help(term, text, POWERS_SOURCE)
    for key, (term, text) in _ROLES.items():
        entries[key] = Help(term, text, ROLES_SOURCE)
    for key, (term, text) in _PATHS.items():
        entries[key] = Help(term, text, POWERS_SOURCE)
    for key, (term, text) in _ARMY_TERMS.items():
        entries[key] = Help(term, text, GLOSSARY_SOURCE)
    for game, terms in _GAME_TERMS.items():
        for key, (term, text) in terms.items():
            entries[f"{game}.{key}"] = Help(term, text, SOURCES[game])
    return entries


HELP: dict[str, Help] = _build()

# The terms each page offers in its "Rules help" row (the Army row adds the commanders' own powers).
GAME_TERMS: dict[str, tuple[str, ...]] = {
    "army": (
        "aggressor",
        "guardian",
        "healer",
        "savant",
        "equipment",
        "ritual",
        "offense",
        "defense",
        "unopposed",
        "unable",
        "pass",
        "exhausted",
        "disabled",
        "killed",
        "morale",
        "routed",
        "base",
        "phase",
    ),
    "commander": ("aggressor", "guardian", "healer", "savant", "equipment", "ritual", "favor"),
    **{game: tuple(f"{game}.{key}" for key in terms) for game, terms in _GAME_TERMS.items()},
}

_BY_TITLE = {entry.term.lower(): key for key, entry in HELP.items()}


def help_key(term: str) -> str | None:
    """The key of a term given as a key (``"master_of_arms"``) or as shown (``"Master of Arms"``)."""
    term = str(term or "").strip()
    if term in HELP:
        return term
    lowered = term.lower()
    if lowered in _BY_TITLE:
        return _BY_TITLE[lowered]
    slug = lowered.replace(" ", "_").replace("-", "_")
    return slug if slug in HELP else None


def help_for(term: str) -> Help | None:
    key = help_key(term)
    return HELP[key] if key else None
