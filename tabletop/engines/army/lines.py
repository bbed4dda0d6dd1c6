"""The English lines of an Army battle: its log, its moves' labels, its rolls' and modifiers' names (issue 41).

Each sentence the engine writes as text is one of these templates (``words.phrase``), so the site reads a line
back and says it in the reader's language. A value named ``..._words`` is itself one of these phrases (a side,
a pile, a payment, the why of a Morale change); card, commander, power and role names are put in as they are.
"""

from __future__ import annotations

from ..words import phrase

# ---------------------------------------------------------------- words put into other lines
SIDE_WORDS = {"offense": phrase("Offense"), "defense": phrase("Defense")}
PILE_WORDS = {
    "hand": phrase("hand"),
    "exhausted": phrase("exhausted"),
    "disabled": phrase("disabled"),
    "killed": phrase("killed"),
    "offense": phrase("offense"),
    "defense": phrase("defense"),
}
PAYMENT_WORDS = {"favor": phrase("a Favor"), "influence": phrase("half an Influence"), "morale": phrase("3 Morale")}
GM = phrase("GM")
HEALER = phrase("Healer")
TO_SAVE = phrase("to save a unit")
PASSED_OFFENSE = phrase("passed on Offense")
UNOPPOSED_WHY = phrase("Unopposed %(card)s")
ROGUE_ROLLED = phrase("Rogue rolled %(value)d")
NO_DIE = phrase("no die")

# ---------------------------------------------------------------- set-up and turns
COMMANDS = phrase("%(commander)s (%(player)s) commands as %(power)s; Morale %(morale)d.")
COMMANDS_BASE = phrase("%(commander)s (%(player)s) commands as %(power)s; Morale %(morale)d plus %(base)d Base Morale.")
CHOSEN = phrase("%(commander)s was chosen at random to decide who takes the first turn.")
DECIDES_FIRST = phrase("%(name)s decides that %(first)s takes the first turn. The first Phase begins.")
SECOND_PHASE = phrase(
    "Neither commander can play on Offense: the second Phase begins. Exhausted cards return to hand; %(name)s begins."
)
UNABLE_OFFENSE = phrase("%(name)s is Unable to play on Offense; %(other)s takes the turn.")
PLAYS_OFFENSE = phrase("Skirmish %(n)d: %(name)s plays a unit face down on Offense.")
PASSES_OFFENSE = phrase("%(name)s passes on Offense.")
NOBODY_OFFENSE = phrase("%(name)s is Unable, so nobody will play on Offense: the Phase ends.")
PLAYS_DEFENSE = phrase("%(name)s plays a unit face down on Defense.")
PASSES_DEFENSE = phrase("%(name)s passes on Defense: the attack is Unopposed.")
THIRD_TIME = phrase(
    "The same position came round a third time (the same cards in hand and in the piles, the same "
    "modifiers, the same commander to react): the window closes as if both declined."
)

# ---------------------------------------------------------------- the skirmish
# a revealed unit: "Ann's Soldier (Aggressor)", or "(Aggressor, played as one by the Shapeshifter)" when a power
# changed its Role; each way of the line is a template of its own (a unit alone would read any "X's Y (Z)")
REVEALED_ALONE = {
    False: phrase("Revealed: %(name)s's %(card)s (%(role)s) attacks."),
    True: phrase("Revealed: %(name)s's %(card)s (%(role)s, played as one by the %(power)s) attacks."),
}
REVEALED_UNOPPOSED = {
    False: phrase("Revealed: %(name)s's %(card)s (%(role)s) attacks Unopposed."),
    True: phrase("Revealed: %(name)s's %(card)s (%(role)s, played as one by the %(power)s) attacks Unopposed."),
}
REVEALED = {
    (False, False): phrase(
        "Revealed: %(name)s's %(card)s (%(role)s) attacks %(enemy)s's %(enemy_card)s (%(enemy_role)s)."
    ),
    (True, False): phrase(
        "Revealed: %(name)s's %(card)s (%(role)s, played as one by the %(power)s) attacks "
        "%(enemy)s's %(enemy_card)s (%(enemy_role)s)."
    ),
    (False, True): phrase(
        "Revealed: %(name)s's %(card)s (%(role)s) attacks %(enemy)s's %(enemy_card)s "
        "(%(enemy_role)s, played as one by the %(enemy_power)s)."
    ),
    (True, True): phrase(
        "Revealed: %(name)s's %(card)s (%(role)s, played as one by the %(power)s) attacks "
        "%(enemy)s's %(enemy_card)s (%(enemy_role)s, played as one by the %(enemy_power)s)."
    ),
}
UNABLE_DEFENSE = phrase(
    "%(name)s is Unable to play on Defense: no Skirmish is fought and %(card)s is not Unopposed "
    "(nobody Passed), so it deals no Morale damage and is Exhausted."
)
ROLL_LABEL = {"offense": phrase("%(card)s (Offense) d6"), "defense": phrase("%(card)s (Defense) d6")}
ROLL_LABEL_N = {"offense": phrase("%(card)s (Offense) d6 #%(n)d"), "defense": phrase("%(card)s (Defense) d6 #%(n)d")}
# the dice of a skirmish: one side or both, each keeping the better of two dice or not
ROLLED_ONE = {
    False: phrase("%(name)s rolls %(dice_words)s: total %(total)d."),
    True: phrase("%(name)s rolls %(dice_words)s (keeps %(kept)d): total %(total)d."),
}
ROLLED_TWO = {
    (False, False): phrase(
        "%(name)s rolls %(dice_words)s: total %(total)d; %(other)s rolls %(other_dice_words)s: total %(other_total)d."
    ),
    (True, False): phrase(
        "%(name)s rolls %(dice_words)s (keeps %(kept)d): total %(total)d; %(other)s rolls "
        "%(other_dice_words)s: total %(other_total)d."
    ),
    (False, True): phrase(
        "%(name)s rolls %(dice_words)s: total %(total)d; %(other)s rolls %(other_dice_words)s "
        "(keeps %(other_kept)d): total %(other_total)d."
    ),
    (True, True): phrase(
        "%(name)s rolls %(dice_words)s (keeps %(kept)d): total %(total)d; %(other)s rolls "
        "%(other_dice_words)s (keeps %(other_kept)d): total %(other_total)d."
    ),
}
EQUIPMENT_BOTH = phrase("Both 0-Strength Equipment are Killed.")
EQUIPMENT_ONE = phrase("%(card)s (0-Strength Equipment) is Killed; %(winner)s wins.")
TIE_AGAIN = phrase("Tie at %(total)d with equal base Strength: every die is rolled again.")
STAND_OFF = phrase("%(offense)s %(o)d vs %(defense)s %(d)d: a stand-off; both are Exhausted.")
WINS = {
    ("killed", False): phrase("%(offense)s %(o)d vs %(defense)s %(d)d: %(winner)s wins; %(loser)s would be Killed."),
    ("disabled", False): phrase("%(offense)s %(o)d vs %(defense)s %(d)d: %(winner)s wins; %(loser)s is Disabled."),
    ("exhausted", False): phrase("%(offense)s %(o)d vs %(defense)s %(d)d: %(winner)s wins; %(loser)s takes no damage."),
    ("killed", True): phrase(
        "%(offense)s %(o)d vs %(defense)s %(d)d: %(winner)s wins on base Strength; %(loser)s would be Killed."
    ),
    ("disabled", True): phrase(
        "%(offense)s %(o)d vs %(defense)s %(d)d: %(winner)s wins on base Strength; %(loser)s is Disabled."
    ),
    ("exhausted", True): phrase(
        "%(offense)s %(o)d vs %(defense)s %(d)d: %(winner)s wins on base Strength; %(loser)s takes no damage."
    ),
}
OATHBOUND_EXHAUSTED = phrase("%(card)s is oathbound: only Exhausted.")
UNOPPOSED_DAMAGE = phrase("Unopposed %(card)s totals %(points)d: %(damage)d Morale damage to %(name)s.")

# ---------------------------------------------------------------- Morale, kills, healers, rout, the end
GAINS = phrase("%(name)s gains %(amount)d Morale (%(why_words)s): now %(total)d.")
LOSES = phrase("%(name)s loses %(amount)d Morale (%(why_words)s): now %(total)d.")
LOSES_BASE = phrase("%(name)s loses %(amount)d Morale (%(base)d of it Base Morale) (%(why_words)s): now %(total)d.")
IMMUNE = phrase("%(card)s would be Killed: it is placed in the Disabled pile instead.")
OATHBOUND_DISABLED = phrase("%(card)s is oathbound: only Disabled instead of Killed.")
KILLED = phrase("%(name)s's %(card)s is Killed.")
PAYS = phrase("%(name)s pays %(pay_words)s: %(card)s is only Disabled.")
HEALS = phrase("%(name)s discards %(healer)s to return %(card)s to hand.")
HEALS_SHIFTED = phrase("%(name)s discards %(healer)s (as a Healer, by the Shapeshifter) to return %(card)s to hand.")
ROUTED = phrase("%(name)s is Routed and loses the battle!")
ROUT_ROLL = phrase("Rout roll by %(name)s for %(card)s (5+ Kills)")
# each roll "Soldier 3" or "Soldier 5 (Killed)": a plain value (a template of one roll would read other lines)
ROUT_ROLLS = phrase("Rout rolls: %(rolls)s.")
REASONS = {
    "unable": phrase("Both commanders are Unable to play in the second Phase. %(why_words)s"),
    "passed": phrase("Both commanders passed in succession. %(why_words)s"),
    "gm": phrase("The GM ended the battle. %(why_words)s"),
}
GM_WINNER = phrase("The GM declares %(name)s the winner.")
GM_NO_WINNER = phrase("The GM declares no winner.")
WAS_ROUTED = phrase("%(routed)s was Routed: %(winner)s wins.")
MORE_KILLS = phrase("%(winner)s Killed more enemy units (%(kills)d to %(other)d) and wins.")
MORE_MORALE = phrase(
    "Kills are tied at %(kills)d; %(winner)s has the higher Morale (%(morale)d to %(other)d) and wins."
)
ALL_TIED = phrase("Kills tied at %(kills)d and Morale tied at %(morale)d: both commanders lose.")

# ---------------------------------------------------------------- card effects
DISCARD_OATHBOUND = phrase("%(name)s's %(card)s is oathbound: discarded, it is only Exhausted.")
DISCARDS_BONUS = {
    "offense": phrase("%(name)s discards %(card)s: %(unit)s (Offense) %(amount)s."),
    "defense": phrase("%(name)s discards %(card)s: %(unit)s (Defense) %(amount)s."),
}
DISCARDED_BY = phrase("%(card)s (discarded by %(name)s)")
PLAYS_RITUAL = phrase("%(name)s plays the Ritual %(card)s.")
UNITS_ADD = phrase("%(name)s's units Add %(amount)d for the rest of this Phase.")
DISABLED_BY = phrase("%(why_words)s: %(name)s's %(card)s is Disabled.")
DISABLED_OATHBOUND = phrase("%(why_words)s: %(name)s's %(card)s is oathbound and only Exhausted.")

# ---------------------------------------------------------------- the abilities' words (the cards' faces)
ABILITY_BONUS = {
    "either": phrase("Discard: %(amount)s Strength to either unit in a Skirmish"),
    "own": phrase("Discard: %(amount)s Strength to your unit in a Skirmish"),
    "enemy": phrase("Discard: %(amount)s Strength to the enemy unit in a Skirmish"),
}
ABILITY_HEAL = phrase("Discard: return a card from your Disabled or Exhausted pile to your hand")
ABILITY_HEAL_UP_TO = phrase(
    "Discard: return a card of Strength %(limit)d or less from your Disabled or Exhausted pile to your hand"
)
ABILITY_MORALE = phrase("Ritual: gain %(amount)d Morale")
ABILITY_ADD = phrase("Ritual: your units Add %(amount)d this Phase")
ABILITY_DISABLE = phrase("Ritual: Disable one card in the enemy's Exhausted pile")
ABILITY_DAMAGE = phrase("Ritual: the enemy commander loses %(amount)d Morale")
ABILITY_IMMUNE = phrase("If it would be Killed, place it in the Disabled pile")
ABILITY_NO_DAMAGE = phrase("Neither deals nor receives damage in Skirmishes")
ABILITY_NO_SKIRMISH = phrase("Cannot be played on Offense or Defense")

# ---------------------------------------------------------------- the moves' labels
PLAY = {
    "Offense": phrase("Play %(card)s (Strength %(strength)s, %(role)s) on Offense"),
    "Defense": phrase("Play %(card)s (Strength %(strength)s, %(role)s) on Defense"),
}
PLAY_AS = {
    ("Offense", "a"): phrase("Play %(card)s on Offense as a %(role)s (%(power)s)"),
    ("Offense", "an"): phrase("Play %(card)s on Offense as an %(role)s (%(power)s)"),
    ("Defense", "a"): phrase("Play %(card)s on Defense as a %(role)s (%(power)s)"),
    ("Defense", "an"): phrase("Play %(card)s on Defense as an %(role)s (%(power)s)"),
}
PLAY_RITUAL = phrase("Play the Ritual %(card)s")
PLAY_RITUAL_DISABLING = phrase("Play the Ritual %(card)s, Disabling %(name)s's Exhausted %(target)s")
DISCARD_BONUS = {
    "offense": phrase("Discard %(card)s: %(unit)s (Offense) %(amount)s"),
    "defense": phrase("Discard %(card)s: %(unit)s (Defense) %(amount)s"),
}
DISCARD_HEAL = phrase("Discard %(card)s: return %(target)s to hand")
DECLINE = phrase("Decline")
ENTER = phrase("Enter %(values)s")
TAKES_FIRST = phrase("%(name)s takes the first turn")
PASS_OFFENSE = phrase("Pass (lose 1 Morale)")
PASS_DEFENSE = phrase("Pass: the attacking unit is Unopposed")
DECLINE_REACT = phrase("Decline (use nothing more now)")
HEAL = phrase("Spend 1 Morale, discard %(healer)s: return %(card)s to hand")
HEAL_SHIFTED = phrase("Spend 1 Morale, discard %(healer)s as a Healer (Shapeshifter): return %(card)s to hand")
HEAL_NO_MORE = phrase("Heal no more")
SAVE = phrase("Pay %(pay_words)s: %(card)s is only Disabled")
LET_KILLED = phrase("Let %(card)s be Killed")

# ---------------------------------------------------------------- who decides now, as the page's status line
# (the view's ``turn_text`` is describe_step's line with its first letter capitalised)
OVER = phrase("The battle is over")
NOBODY = phrase("Nobody has a decision to make")
GM_DICE = phrase("The GM enters the dice (%(rolls_words)s)")  # the dice asked for, each a line of this book
ROLLS = phrase("%(first_words)s; %(rest_words)s")  # the dice asked for, as GM_DICE lists them

# ---------------------------------------------------------------- the GM's overrides
GM_MODIFIER = {
    "offense": phrase("The GM gives the Offense unit %(amount)s Strength."),
    "defense": phrase("The GM gives the Defense unit %(amount)s Strength."),
}
GM_NEXT_MODIFIER = {
    "offense": phrase("The GM gives the next Offense unit %(amount)s Strength."),
    "defense": phrase("The GM gives the next Defense unit %(amount)s Strength."),
}
GM_DICE_SET = phrase("The GM sets the next dice: %(values)s.")
GM_DICE_CLEARED = phrase("The GM sets the next dice: none (cleared).")
GM_CALLS_OFF = phrase(
    "The GM calls off the skirmish: %(name)s's %(card)s goes to %(to_words)s; the other unit returns to hand."
)
GM_CALLS_OFF_FACE_DOWN = phrase(
    "The GM calls off the skirmish: %(name)s's face-down unit goes to %(to_words)s; the other unit returns to hand."
)
GM_MOVES = phrase("The GM moves %(name)s's %(card)s from %(where_words)s to %(to_words)s.")
MENU_MODIFIER_NOW = phrase("Add a Strength modifier to a unit in this skirmish")
MENU_MODIFIER_NEXT = phrase("Add a Strength modifier to a unit in the next skirmish")
MENU_DICE = phrase("Set the next dice the engine needs")
MENU_MOVE = phrase("Move a card to a hand or pile")
MENU_MOVE_OFF = phrase("Move a card to a hand or pile (a card in the skirmish calls it off)")
MENU_MORALE = phrase("Add or remove Morale")
MENU_END = phrase("End the battle now (leave out the winner to apply the rules)")

# ---------------------------------------------------------------- Strength modifiers' sources
REACH = phrase("Reach")
SAVANT_BONUS = phrase("Savant (bonus from %(source_words)s)")
MASTER_OF_ARMS = phrase("Master of Arms: Aggressor")
SCOUT = phrase("Scout: already Ranged")
ADEPT = phrase("Adept: Guardian")
NECROMANCER = phrase("Necromancer: Undead")
ANIMIST = phrase("Animist: Healer")
SHAMAN = phrase("Shaman: Elemental or Savant")
MINDBLADE = phrase("Mindblade: %(streak)d win in a row")
MINDBLADE_WINS = phrase("Mindblade: %(streak)d wins in a row")
EVOKER_SOURCE = phrase("Evoker (%(name)s)")
ILLUSIONIST_SOURCE = phrase("Illusionist (%(name)s, d6 = %(value)d)")
DERVISH_BONUS = {
    "path": phrase("Dervish: against Path of %(target)s"),
    "role": phrase("Dervish: against %(target)s units"),
}

# ---------------------------------------------------------------- the commanders' powers
SIDE_LABEL = {"offense": phrase("%(card)s (Offense)"), "defense": phrase("%(card)s (Defense)")}
UNOPPOSED_LABEL = phrase("%(card)s (Unopposed)")
EVOKER = phrase("Evoker: %(unit_words)s Adds 2")
EVOKER_GIVES = phrase("%(name)s (Evoker) gives %(unit_words)s +2 (%(left)d left this battle).")
DERVISH_PATH = phrase("Dervish: +1 against the Path of %(path)s")
DERVISH_ROLE = phrase("Dervish: +1 against %(role)s units")
DERVISH_TODAY = {
    "path": phrase("%(name)s (Dervish) fights against the Path of %(target)s today."),
    "role": phrase("%(name)s (Dervish) fights against the %(target)s units today."),
}
TACTICIAN = phrase("Take the %(power)s benefit for this battle")
TACTICIAN_TAKES = phrase("%(name)s (Tactician) takes the %(power)s benefit for this battle.")
BATTLEMAGE_ROLL = phrase("Battlemage: %(card)s goes to Exhausted on 5+")
BATTLEMAGE_EXHAUSTED = phrase("Battlemage rolls %(value)d: %(name)s's %(card)s goes to Exhausted instead.")
BATTLEMAGE_STAYS = phrase("Battlemage rolls %(value)d: %(card)s stays Disabled.")
DESIGNATE = phrase("Designate %(card)s as your oathbound unit")
DESIGNATES = phrase("%(name)s (Oathbound) designates a unit.")
GAINS_CARD = phrase("%(name)s gains the %(card)s (%(power)s).")
NECROMANCER_RETURN = phrase("Return %(card)s from Disabled to hand")
NECROMANCER_RETURNS = phrase("%(name)s (Necromancer) returns %(card)s to hand.")
CLERIC = phrase("Cleric: spend 1 Morale to return %(card)s from Killed to hand")
CLERIC_LAST = phrase(
    "Cleric: spend 1 Morale to return %(card)s from Killed to hand (your last Morale: you would be Routed)"
)
CLERIC_RETURNS = phrase("%(name)s (Cleric) returns %(card)s from the Killed pile to hand.")
MENDER_ASK = phrase("Ask %(name)s to reveal %(count)d random cards")
MENDER_DISABLE = phrase("Spend 1 Morale to Disable %(card)s")
MENDER_REVEALS = phrase("%(name)s (Mender) has %(enemy)s reveal %(cards)s.")
MENDER_SPENDS = phrase("%(name)s (Mender) spends 1 Morale")
ROGUE_ROLL = phrase("Rogue: %(name)s gains a Morale on 4+")
ROGUE_NOTHING = phrase("Rogue rolls %(value)d: no Morale.")
ILLUSIONIST = phrase("Illusionist: %(unit_words)s Adds %(value)d")
ILLUSIONIST_ROLL_CHOICE = phrase("Illusionist: roll a d6, then choose which unit Adds it")
ILLUSIONIST_HAS = phrase("%(name)s (Illusionist) has %(unit_words)s Add %(value)d.")
ILLUSIONIST_ROLL = phrase("Illusionist d6 (%(name)s)")
ILLUSIONIST_ROLLS = phrase("%(name)s (Illusionist) rolls %(value)d: which unit Adds it?")
ETHEREALIST = phrase("Etherealist: exchange %(unit_words)s for %(card)s")
ETHEREALIST_EXCHANGES = {
    "offense": phrase("%(name)s (Etherealist) exchanges %(old)s for %(card)s on Offense."),
    "defense": phrase("%(name)s (Etherealist) exchanges %(old)s for %(card)s on Defense."),
}
