"""The card games' rules help (tabletop/rules_help): each side event's terms, under its engine's name, each
(term, text) in English and marked; the rulebook each game's entries name."""

from __future__ import annotations

from django.utils.translation import gettext_noop

GAME_TERM_TEXTS = {
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
