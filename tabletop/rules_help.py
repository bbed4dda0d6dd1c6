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


@dataclass(frozen=True)
class Help:
    term: str
    text: str
    source: str


POWERS_SOURCE = "Army Rules, Commander Powers"
ROLES_SOURCE = "Army Rules, Roles"
GLOSSARY_SOURCE = "Army Rules, Glossary of Terms"

_POWERS = {
    "tactician": ("Tactician", "Guardian of Steel: \"At the start of each Battle, you may choose any single Guardian "
                  "or Path of Steel Commander benefit.\" The chosen power is the Tactician's benefit for that Battle."),
    "battlemage": ("Battlemage", "Guardian of Magic: \"Any card you discard to the Disabled pile is instead placed in "
                   "the Exhausted pile on a 5+ on a d6. This power may only succeed once per Phase.\""),
    "oathbound": ("Oathbound", "Guardian of Faith: \"Each Battle, designate one unit. If that unit is Killed, it is "
                  "only Disabled. If it is Disabled (not including your power), it is only Exhausted.\""),
    "shapeshifter": ("Shapeshifter", "Guardian of Nature: \"Once per Battle, you may change the Role of any one card "
                     "as you reveal it in a Skirmish or discard it.\""),
    "adept": ("Adept", "Guardian of Mind: \"You may change the Role of any card you play to Guardian. Guardian units "
              "you play Add 1.\""),
    "chirurgeon": ("Chirurgeon", "Healer of Steel: you gain the Chirurgeon's Equipment unit for free; \"If it would be "
                   "Killed, place it in the Disabled pile.\""),
    "necromancer": ("Necromancer", "Healer of Magic: \"At the start of the second Phase, you may return 1 card from "
                    "your Disabled pile to your hand. Undead units you play Add 1.\""),
    "cleric": ("Cleric", "Healer of Faith: \"Once per Day, you may return 1 Killed card to your hand by spending a "
               "Morale.\""),
    "animist": ("Animist", "Healer of Nature: \"You may play 2 Rituals each Phase. Healers you play Add 1.\""),
    "mender": ("Mender", "Healer of Mind: \"Before the Battle, you may ask your opponent to reveal 2 random cards from "
               "their hand. You may spend 1 Morale to Disable one of them.\""),
    "master_of_arms": ("Master of Arms", "Aggressor of Steel: \"You may change the Role of any card you play to "
                       "Aggressor. Aggressor units you play Add 1.\""),
    "evoker": ("Evoker", "Aggressor of Magic: \"Three times per Battle, you may Add 2 to any unit in a Skirmish. You "
               "may not do this more than once per Skirmish.\""),
    "dervish": ("Dervish", "Aggressor of Faith: \"Units under your command Add 1 against units that are on a specific "
                "Path or Role (choose one each Day).\""),
    "scout": ("Scout", "Aggressor of Nature: \"All cards you play on Offense gain the Ranged trait. If they already "
              "had the Ranged trait, they Add 1.\""),
    "mindblade": ("Mindblade", "Aggressor of Mind: \"Whenever you win a Skirmish, you may Add 1 to the next Skirmish "
                  "that Phase. Whenever you win the next Skirmish, it increases to Add 2. This ends when you lose a "
                  "Skirmish.\""),
    "rogue": ("Rogue", "Savant of Steel: \"When you Kill an enemy unit, gain a Morale on a 4+.\""),
    "illusionist": ("Illusionist", "Savant of Magic: \"Twice per Battle, you may roll a d6 and have either unit in a "
                    "Skirmish Add the result. You may not do this more than once per Skirmish.\""),
    "chaplain": ("Chaplain", "Savant of Faith: you gain access to the Chaplain's mediating unit, \"which neither deals "
                 "nor receives damage in Skirmishes.\""),
    "shaman": ("Shaman", "Savant of Nature: \"Elemental and Savant units you play Add 1.\""),
    "etherealist": ("Etherealist", "Savant of Mind: \"Once per Battle, you may exchange any unit in your hand "
                    "with any unit you have played in a Skirmish, as long as the unit from your hand would be "
                    "legal to play into that Skirmish.\""),
}

_ROLES = {
    "aggressor": ("Aggressor", "\"May roll 2d6 and take the best one when played on Offense. Negate this benefit if "
                  "the defending unit is a Guardian.\""),
    "guardian": ("Guardian", "\"May roll 2d6 and take the best one when played on Defense. Negate this benefit if the "
                 "attacking unit is an Aggressor.\""),
    "healer": ("Healer", "\"You may spend a Morale and discard a unit with the Healer role from your hand after any "
               "Skirmish. If you do so, you may take one card out of your Disabled or Exhausted pile and return it to "
               "your hand. A Healer may not be used to return a unit with more than twice its Strength.\""),
    "savant": ("Savant", "\"Any time a unit with the Savant role receives a bonus to Strength from another card, they "
               "receive an additional +2 to Strength.\" Commander effects do not trigger it."),
    "equipment": ("Equipment", "\"Can usually be discarded to grant a bonus of some kind. Equipment cards do not roll "
                  "a d6 when played on Offense or Defense, and equipment cards with a Strength of 0 are automatically "
                  "Killed in any Skirmish.\""),
    "ritual": ("Ritual", "\"Only two cards with the Ritual role may be played by a commander each Battle one per "
               "Phase. To use a Ritual, an Army must include at least two units with a matching Path.\""),
}

_PATHS = {
    path: (f"Path of {path.title()}", "One of the five Paths (Steel, Magic, Faith, Nature, Mind). A commander's Role "
           "and Path make their class and power (the Commander Powers table); a Ritual needs at least two units "
           "with a matching Path.")
    for path in ("steel", "magic", "faith", "nature", "mind")
}

_ARMY_TERMS = {
    "exhausted": ("Exhausted", "\"A card is placed in the Exhausted pile when it wins a Skirmish. Exhausted cards "
                  "become available again during the second Phase of a Battle.\""),
    "disabled": ("Disabled", "\"A card defeated in a Skirmish but not Killed is Disabled. ... Disabled cards are out "
                 "for the Battle but will recover afterwards.\""),
    "killed": ("Killed", "A unit beaten by 3 or more is Killed: \"removed from play permanently at the end of the "
               "Battle.\" A commander may spend a Favor or 1/2 Influence (PCs) or 3 Morale (NPCs) to have it Disabled "
               "instead."),
    "unopposed": ("Unopposed", "\"If a commander could play a card on Defense but does not, the attacker's unit is "
                  "considered Unopposed.\" It rolls and adds modifiers as normal and \"for every 4 whole points of "
                  "Strength that results, deals 1 point of Morale damage to the defending player.\""),
    "unable": ("Unable", "\"The response when you would play a card in a Skirmish, but cannot do so.\" Being Unable "
               "costs no Morale; when both commanders are Unable, the Phase ends."),
    "pass": ("Pass", "\"Electing not to play a card on Offense or Defense when you otherwise could.\" Passing on "
             "Offense costs a Morale; if both commanders Pass, the Battle ends."),
    "morale": ("Morale", "\"A measure of a commander's ability to lead.\" Starting Morale is 3 + half the non-bonus "
               "Progression (rounded down); at 0 the commander is Routed."),
    "routed": ("Routed", "\"A Commander reduced to 0 Morale is Routed - they lose the Battle immediately.\" The "
               "opponent rolls a d6 for each of their Disabled or Exhausted units: on a 5+ it is Killed."),
    "base": ("Base", "\"A battlefield feature that grants extra Morale to the defending Commander.\" Base Morale is "
             "lost first, and is then used up for the Day."),
    "phase": ("Phase", "\"Half of a Battle. A Phase ends when both Commanders are unable to play cards.\" In the "
              "second Phase the Exhausted piles return to hand."),
    "skirmish": ("Skirmish", "One unit on Offense against one on Defense: each rolls a d6 and adds its Strength; the "
                 "higher total is Exhausted, the other Disabled (Killed if beaten by 3 or more)."),
    "offense": ("Offense", "\"The (usually face-down) card played by the attacking player in a Skirmish.\""),
    "defense": ("Defense", "\"The (usually face-down) card played by the defending player in a Skirmish.\""),
    "strength": ("Strength", "\"A rating on a card indicating its raw combat power. A d6 roll will be added to this in "
                 "a Skirmish.\" Ties go to the higher base Strength, then a re-roll."),
    "favor": ("Favor", "A PC commander may spend a Favor (or 1/2 Influence) to have a unit that would be Killed "
              "become Disabled instead."),
}

_GAME_TERMS = {
    "gridaris": {
        "battlefield": ("Battlefield", "One square of the Battle Map. \"Place any Mercenary from your hand onto any "
                        "empty Battlefield in Gridaris\", with your Empire Token to show you control it."),
        "combat": ("Combat", "Playing next to another Empire's Mercenary compares the touching Combat Values: a higher "
                   "value captures it; a tie or a lower value does nothing. The card just played cannot be captured "
                   "that turn."),
        "ace": ("Ace", "\"'A's (Ace) in the place of any numbers are essentially infinity and can only be beaten in "
                "certain Scenarios.\""),
        "star_rank": ("Star Rank", "\"The number of stars represents the Rank of each Mercenary.\" The Rank of every "
                      "Mercenary you control at the end counts toward your score."),
        "reinforcement": ("Reinforcement Phase", "The Final Round, once the last empty Battlefield is claimed: \"Each "
                          "player will take one final turn, but they may only play on Battlefields that they currently "
                          "control, covering and replacing the Mercenary that is in play at that location.\" The "
                          "player with the fewest Battlefields chooses to go first or last."),
        "scenario": ("Scenario", "Enhanced Play only: \"two random Scenarios are revealed which introduce new rules to "
                     "the game.\""),
        "earthquake": ("Earthquake", "A Scenario: \"changing the Battle Map from a 4x4 grid to a 2x8 grid.\""),
        "tremor": ("Tremor", "A Scenario: \"shifting one of the boards over one quadrant and making the land look like "
                   "some sort of geometric 'S' or 'Z' shape.\""),
        "two_islands": ("Two Islands", "A Scenario: \"creating two separate 2x4 islands to deploy your Mercenaries "
                        "onto.\""),
    },
    "gotm": {
        "shop": ("Shop", "The mercenary camp and the Goblin merchant (the artifacts) together. A card's value is its "
                 "cost; you pay with the resource cards in your hand."),
        "recruitment": ("Recruitment", "The first phase of a round: hire mercenaries and buy or swap artifacts. A "
                        "player with no mercenary must recruit one, or the game ends."),
        "squad": ("Squad", "\"Each player selects a squad of three cards from their hand\", face down in a row. "
                  "A squad must have at least one mercenary."),
        "artifact": ("Artifact", "Aces: equipped by a card matching the racial requirement to boost it and its allies. "
                     "An artifact can be sold to the merchant for its value, spent at once on a hire."),
        "shielding": ("Shielding", "\"To protect the target, the defender is allowed to sacrifice one basic unit "
                      "adjacent to it.\" The attack hits the shield instead."),
        "wounded": ("Wounded", "An attack whose total AP falls 1-7 short of the target's value wounds it (the card is "
                    "turned); a wounded card hit that way again dies. 8 or more short: unharmed."),
        "infirmary": ("Infirmary", "Wounded cards after a round, face up in front of their player: \"If played during "
                      "combat, a card from the infirmary will be wounded at the start of the skirmish.\""),
    },
    "mercenarium": {
        "aura": ("Aura", "\"On the edges of each card is a series of dots (called an AURA) that define a card's "
                 "capture strength.\" A card threatens an adjacent enemy whose touching edge has fewer dots."),
        "capture": ("Capture", "Move your card into an enemy card's space when it is threatened at the start of your "
                    "turn. \"The first player to five (5) captures wins the game.\""),
        "alchemy": ("Alchemy", "Tied auras follow the Alchemy Wheel: Consumption (one suit always wins), Annihilation "
                    "(opposite suits: both are discarded) or Deadlock (same suit: no capture)."),
        "contract": ("Contract", "A bought or summoned Mercenary is \"Under Contract\" until it is again the turn of "
                     "the player who bought or summoned it: nobody may buy it until then."),
        "hymn": ("Hymn", "Hold at most one. Singing it is a turn action; learning a new one takes an offering of cards "
                 "or a spent capture."),
        "limbo": ("Limbo", "A player with no card in play whose House is occupied cannot summon: they are in Limbo. "
                  "With two players, one who cannot escape on their next turn loses; with three or four, they stay in "
                  "Limbo until they can summon again."),
        "singularity": ("Singularity", "\"If at any point no cards remain in the main deck, the game enters "
                        "Singularity.\""),
    },
    "dungeon": {
        "ambush": ("Ambush!!", "\"When an Ambush card is drawn, the First Player searches the Reserve Monster Deck "
                   "for the Monsters listed. Those Monsters are placed in the Battle Area.\""),
        "reserve": ("Reserve Monster Deck", "The face-up pile of spare Monsters that Ambush cards summon from."),
        "champion": ("Champion Monster", "A Monster with a yellow and black species symbol; \"All Champion Monsters "
                     "are placed on the Ranged Monster Row (even Melee Champions).\""),
        "area_feature": ("Area Feature", "Drawn by the First Player at the start of each new Area: some act when "
                         "drawn, others hold for the whole Area."),
        "first_player": ("First Player", "Keeps the First Player card; at the first turn of each new Area it passes "
                         "to the left. The First Player makes the Monsters' choices unless there is a Deck Master."),
        "deck_master": ("Deck Master", "A player who runs the Monsters against the mercenaries and makes the "
                        "Monsters' choices."),
        "minus_health": ("Minus Health", "\"While at Minus Health, a player cannot attack or play Skill Melee or Skill "
                         "Ranged cards. They may still play Skill Defence cards, Ability cards, move, etc.\""),
        "exp": ("EXP", "Experience, gained in combat (\"If a Mercenary makes a successful attack and does not kill a "
                "Monster, that player gains 1 EXP\") and spent to acquire cards from the Resource Area: \"Players may "
                "only acquire one card per turn.\""),
        "acted": ("Acted", "\"If a Monster has an Acted Token on it, it cannot move, attack, Retaliate, or Lash "
                  "Out.\""),
        "skill": ("Skill cards", "Grey cards: Skill Melee and Skill Ranged cards make attacks, Skill Defence cards "
                  "defend. A Ranged attack reaches Monsters between the cards' Min. and Max. Range, in rows."),
    },
}

SOURCES = {
    "gridaris": "Mercenaries of Gridaris rulebook",
    "gotm": "Mercenaries (GOT'M) rulebook",
    "mercenarium": "Mercenarium rulebook",
    "dungeon": "Mercenaries deck-builder rulebook",
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
    "army": ("aggressor", "guardian", "healer", "savant", "equipment", "ritual", "offense", "defense", "unopposed",
             "unable", "pass", "exhausted", "disabled", "killed", "morale", "routed", "base", "phase"),
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
