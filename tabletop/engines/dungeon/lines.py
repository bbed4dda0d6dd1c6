"""The dungeon game's English lines: its log lines, status lines, moves' labels and the words its view gives (a
resource card's use, a status effect), each written from a template named here at import (issue 41), so the page
reads a line back and says it in the reader's language. Monster, card, mercenary and adventure names are the
catalog's: they stand in the lines as they are (an Ambush card's name is a log line of its own, shown as it is)."""

from __future__ import annotations

from ..words import phrase

# ---------------------------------------------------------------- the log: set-up and areas
SET_UP = {
    "competitive": phrase("%(adventure)s: %(count)d mercenaries, competitive monster deck of %(cards)d cards."),
    "cooperative": phrase("%(adventure)s: %(count)d mercenaries, cooperative monster deck of %(cards)d cards."),
}
FIRST_PLAYER = phrase("Area %(area)d: %(merc)s is the First Player.")
AREA_FEATURE = phrase("Area feature: %(card)s.")
NO_ROOM = phrase("No room for %(monster)s: it is discarded.")
APPEARS = phrase("%(monster)s appears at row %(row)d, column %(column)d.")
ENTERS = phrase("%(merc)s enters the area at column %(column)d.")
REGENERATES = phrase("%(merc)s regenerates 1 Health.")
ALL_AT_MINUS = phrase("Every mercenary is at Minus Health at the end of a turn: the players lose.")
CLEARED = phrase("The last monster is dead: the mansion is cleared.")
ACQUIRES = phrase("%(merc)s acquires %(card)s.")
PLAYS = phrase("%(merc)s plays %(card)s.")

# ---------------------------------------------------------------- the log: combat
TRAP_WOUNDS = phrase("%(card)s: %(merc)s suffers %(wounds)d wounds (Health %(health)d).")
MONSTER_HITS = {
    "lash": phrase("%(monster)s lashes out at %(merc)s: %(wounds)d wounds (Health %(health)d)."),
    "retaliation": phrase("%(monster)s retaliates on %(merc)s: %(wounds)d wounds (Health %(health)d)."),
    "attack": phrase("%(monster)s attacks %(merc)s: %(wounds)d wounds (Health %(health)d)."),
}
MERC_HITS = {
    "retaliation": phrase("%(merc)s retaliates on %(monster)s: %(wounds)d wounds."),
    "lash": phrase("%(merc)s lashes out at %(monster)s: %(wounds)d wounds."),
    "attack": phrase("%(merc)s attacks %(monster)s: %(wounds)d wounds."),
}
IS_STATUS = {  # a mercenary or a monster that a status effect takes hold of
    "poison": phrase("%(name)s is poisoned."),
    "burn": phrase("%(name)s is burning."),
    "webbed": phrase("%(name)s is webbed."),
}
KILLS = phrase("%(merc)s kills %(monster)s (+%(exp)d EXP).")
MOVES_TO = phrase("%(name)s moves to row %(row)d, column %(column)d.")
SHOOTS_AND_MISSES = phrase("%(monster)s shoots (d20 %(roll)d) and misses.")
SHOOTS = phrase("%(monster)s shoots (d20 %(roll)d).")

# ---------------------------------------------------------------- the log: status effects
MERC_SUFFERS = {
    "poison": phrase("%(merc)s suffers %(amount)d wounds from poison (Health %(health)d)."),
    "burn": phrase("%(merc)s suffers %(amount)d wounds from burn (Health %(health)d)."),
}
MERC_WEBBED = phrase("%(merc)s is webbed: no move this turn.")
MONSTER_SUFFERS = {
    "poison": phrase("%(monster)s suffers %(amount)d wounds from poison."),
    "burn": phrase("%(monster)s suffers %(amount)d wounds from burn."),
}
MONSTER_WEBBED = phrase("%(monster)s is webbed: it does not move this turn.")
DIES_OF_WOUNDS = phrase("%(monster)s dies of its wounds: into the Monster Discard Pile, nobody gains its EXP or MVPs.")

# ---------------------------------------------------------------- the moves' labels (the engine's)
PLACE = phrase("Place %(monster)s at column %(column)d of row %(row)d")
ENTERS_COLUMN = phrase("%(merc)s enters column %(column)d")
LEADS = phrase("%(merc)s goes first this turn")
DEFEND_WITH = phrase("Defend with %(card)s")
TAKE_THE_HIT = phrase("Take the hit")
SUFFER_THE_TRAP = phrase("Suffer the trap")
RETALIATE = phrase("Retaliate")
DO_NOT_RETALIATE = phrase("Do not retaliate")
LASH_OUT = phrase("Lash out at %(monster)s as it moves away")
LET_GO = phrase("Let %(monster)s go")
MOVE_TO = phrase("Move to column %(column)d of row %(row)d")
ACTS_NEXT = phrase("%(monster)s acts next")
MONSTER_TO = phrase("%(monster)s to column %(column)d of row %(row)d")
TARGETS = phrase("%(monster)s attacks %(merc)s")
HOLDS = phrase("%(monster)s does not attack")
PLAY = phrase("Play %(card)s")
STRIKE = phrase("Strike %(monster)s")
SHOOT = phrase("Shoot %(monster)s")
TAKE_BACK = phrase("Take the cards back")
MOVE = phrase("Move")
MELEE_ATTACK = phrase("Melee attack %(monster)s")
RANGED_ATTACK = phrase("Ranged attack")
END_TURN = phrase("End turn")
DONE = phrase("Done: no more buying this turn")
# at any time, the mercenary named first when its owner leads two
ACQUIRE = phrase("Acquire %(card)s (%(cost)d EXP)")
ACQUIRE_FOR = phrase("%(merc)s: Acquire %(card)s (%(cost)d EXP)")
PLAY_FOR = phrase("%(merc)s: Play %(card)s")
PLAY_BLUE = phrase("Play %(card)s (blue box)")
PLAY_BLUE_FOR = phrase("%(merc)s: Play %(card)s (blue box)")

# ---------------------------------------------------------------- the moves' labels as the view says them
MOVE_MERC = phrase("Move %(merc)s")
MOVE_MERC_HERE = phrase("Move %(merc)s here")
MERC_MOVE_TO = phrase("%(merc)s: move to column %(column)d of row %(row)d")
MERC_RANGED = phrase("%(merc)s: ranged attack (choose Skill cards, then a target)")
MERC_MELEE = phrase("%(merc)s: melee attack on %(monster)s")
MERC_MELEE_ANY = phrase("%(merc)s: melee attack on a monster")
MERC_DONE = phrase("End turn: %(merc)s is done")
STRIKES_BACK = phrase("%(merc)s strikes back at %(monster)s")
DOES_NOT_STRIKE_BACK = phrase("%(merc)s does not strike back")
MERC_TAKES_THE_HIT = phrase("%(merc)s: take the hit")
MERC_SUFFERS_THE_TRAP = phrase("%(merc)s: suffer the trap")
MERC_DEFENDS_WITH = phrase("%(merc)s: defend with %(card)s")
MERC_PLAYS = phrase("%(merc)s: play %(card)s")
MERC_STRIKES = phrase("%(merc)s: strike %(monster)s")
MERC_SHOOTS = phrase("%(merc)s: shoot %(monster)s")
MERC_TAKES_BACK = phrase("%(merc)s: take the cards back")
TAKES_THE_HIT = phrase("%(merc)s takes the hit")
DEFENDS = phrase("%(merc)s defends")
ATTACKS = phrase("%(merc)s attacks")
TAP_TEXT = {
    "place": phrase("Place here"),
    "enter": phrase("Enter here"),
    "to": phrase("Move here"),
    "monster_to": phrase("Move it here"),
}
CHOOSE_THIS_SQUARE = phrase("Choose this square")

# ---------------------------------------------------------------- what the table waits for
MERC_TURN = phrase("%(merc)s's turn: move, attack or end the turn")
END_OF_TURN = phrase("the end of the turn: acquire cards with EXP, or say you are done")
NEXT_STEP = phrase("the next step")
DEFENDS_AGAINST_TRAP = phrase("%(merc)s defends against the trap with a card, or takes the hit")
DEFENDS_AGAINST_ATTACK = phrase("%(merc)s defends against the attack with a card, or takes the hit")
DEFENDS_AGAINST = phrase("%(merc)s defends against %(monster)s with a card, or takes the hit")
ATTACK_KIND = {
    "melee": phrase("%(merc)s's melee attack: play Skill cards, then strike"),
    "ranged": phrase("%(merc)s's ranged attack: play Skill cards, then strike"),
}
WHERE_PLACED = phrase("where %(monster)s is placed")
WHERE_ENTERS = phrase("where %(merc)s enters the area")
WHICH_LEADS = phrase("which mercenary goes first this turn")
WHETHER_STRIKES_BACK = phrase("whether %(merc)s strikes back at %(monster)s")
WHETHER_LASHES_OUT = phrase("whether %(merc)s lashes out at %(monster)s as it moves away")
WHERE_MOVES = phrase("where %(name)s moves")
WHICH_MONSTER_NEXT = phrase("which monster acts next")
WHOM_ATTACKS = phrase("whom %(monster)s attacks")
NEXT_DECISION = phrase("the next decision")

# ---------------------------------------------------------------- the status line
GAME_OVER = phrase("Game over: %(result_words)s")
NOBODY_DECIDES = phrase("%(what_words)s (area %(area)d, turn %(turn)d)")
YOUR_DECISION = phrase("Your decision: %(what_words)s (area %(area)d, turn %(turn)d)")
TO_DECIDE = phrase("%(who)s to decide: %(what_words)s (area %(area)d, turn %(turn)d)")
WAITING_FOR = phrase("Waiting for %(who)s: %(what_words)s (area %(area)d, turn %(turn)d)")

# ---------------------------------------------------------------- a status effect's badge
STATUS_LEFT = {
    ("poison", False): phrase("poisoned (%(turns)d turn left)"),
    ("poison", True): phrase("poisoned (%(turns)d turns left)"),
    ("burn", False): phrase("burning (%(turns)d turn left)"),
    ("burn", True): phrase("burning (%(turns)d turns left)"),
    ("webbed", False): phrase("webbed (%(turns)d turn left)"),
    ("webbed", True): phrase("webbed (%(turns)d turns left)"),
}

# ---------------------------------------------------------------- what a resource card does (then its own text)
SKILL_DOES = {
    "melee": phrase("Melee +%(value)d."),
    "defence": phrase("Defence +%(value)d."),
    "ranged": phrase("Ranged +%(value)d, range %(low)d–%(high)d."),
}
SKILL_DOES_AND = {
    "melee": phrase("Melee +%(value)d. %(text)s"),
    "defence": phrase("Defence +%(value)d. %(text)s"),
    "ranged": phrase("Ranged +%(value)d, range %(low)d–%(high)d. %(text)s"),
}
PLAY_TO = {  # "N card(s)" said as a view says it, made to agree (ruling PH9)
    "heal": phrase("Play to heal %(amount)d."),
    "exp": phrase("Play to gain %(amount)d EXP."),
    ("draw", False): phrase("Play to draw %(amount)d card."),
    ("draw", True): phrase("Play to draw %(amount)d cards."),
}
PLAY_TO_AND = {
    "heal": phrase("Play to heal %(amount)d. %(text)s"),
    "exp": phrase("Play to gain %(amount)d EXP. %(text)s"),
    ("draw", False): phrase("Play to draw %(amount)d card. %(text)s"),
    ("draw", True): phrase("Play to draw %(amount)d cards. %(text)s"),
}
