"""Mercenarium's English lines: its log lines, status lines and moves' labels, each written from a template named
here at import (issue 41), so the page reads a line back and says it in the reader's language. Card and hymn names
("Queen of Blades", "IV. Leap") are the catalog's: they stand in the lines as they are."""

from __future__ import annotations

from ..words import phrase

# ---------------------------------------------------------------- the log
ROLLS = phrase("Rolls: %(rolls)s")
GOES_FIRST = phrase("%(player)s goes first.")
SUMMONS = phrase("%(player)s summons the %(card)s.")
MOVES = phrase("%(player)s moves the %(card)s.")
CAPTURES = phrase("%(player)s captures the %(card)s.")
ANNIHILATE = phrase("The %(card)s and the %(other)s annihilate.")
BUYS = phrase("%(player)s buys the %(card)s.")
DISCARDS_AND_DRAWS = phrase("%(player)s discards the %(card)s and draws.")
DRAWS = phrase("%(player)s draws a card.")
NO_EFFECT = phrase("The hymn has no effect.")
TAKES_AND_SHUFFLES = phrase("%(player)s takes a card and shuffles the deck.")
IS_IN_LIMBO = phrase("%(player)s is in Limbo.")
SINGULARITY = phrase("The deck is empty: Singularity!")
SINGS = phrase("%(player)s sings %(hymn)s.")
ZODIAC = phrase("The Zodiac die shows %(number)d.")
LOOKS_IN_VAIN = phrase(
    "%(player)s looks at %(count)d hymns; none can be held or used now, so they go back to the "
    "hymnal. The hymn has no effect."
)
SEARCHES = phrase("%(player)s searches the deck for a card.")
RETURNS = phrase("The %(card)s returns to %(owner)s's hand.")
TAKES_CONTROL = phrase("%(player)s takes control of the %(card)s.")
BANISHED = phrase("The %(card)s is banished.")
KEEPS = phrase("%(player)s keeps a hymn.")
LEARNS = phrase("%(player)s learns a hymn.")

# ---------------------------------------------------------------- the end (a log line and the result's reason)
FIVE_CAPTURES = phrase("%(player)s has five captures.")
UNIVERSAL_STALEMATE = phrase("Universal stalemate: the Singularity deck ran out.")
NO_ESCAPE = phrase("%(player)s could not escape Limbo.")
LAST_FREE = phrase("Every other player is in Limbo: %(player)s wins.")
STALEMATE = phrase("Stalemate: the same position came round a third time.")

# ---------------------------------------------------------------- the status line
GAME_OVER = phrase("Game over: %(result_words)s")
TO_ACT = phrase("%(player)s to act")

# ---------------------------------------------------------------- the moves' labels
SUMMON = phrase("Summon the %(card)s to %(to)s")
MOVE = phrase("Move the %(card)s: %(src)s → %(dst)s")
CAPTURE_WITH = phrase("Capture with the %(card)s: %(src)s → %(dst)s")
ANNIHILATE_WITH = phrase("Annihilate with the %(card)s: %(src)s → %(dst)s")
BOARD_MOVES = {"move": MOVE, "capture": CAPTURE_WITH, "annihilate": ANNIHILATE_WITH}
BUY = phrase("Buy the %(card)s with a capture")
DISCARD_AND_DRAW = phrase("Discard the %(card)s and draw")
DRAW = phrase("Draw a card")
LEARN = phrase("Learn a hymn: offer %(cards)s")  # the cards' names joined by " + "
LEARN_WITH_CAPTURE = phrase("Learn a hymn: offer %(cards)s + a capture")
LEARN_CAPTURE = phrase("Learn a hymn: offer a capture")
SING = phrase("Sing %(hymn)s")
SING_AT = phrase("Sing %(hymn)s: %(target_words)s")
USE = phrase("Use %(hymn)s now")
USE_AT = phrase("Use %(hymn)s now: %(target_words)s")
KEEP = phrase("Keep %(hymn)s")
TAKE = phrase("Take the %(card)s")
NO_EFFECT_LABEL = phrase("No effect")
RESOLVE = phrase("Resolve")
RESOLVE_AT = phrase("Resolve: %(target_words)s")

# a hymn's target, the part of a label after its colon
AT = phrase("the %(card)s at %(cell)s")
AT_TO = phrase("the %(card)s at %(cell)s to %(to)s")
CARD_TO = phrase("the %(card)s to %(to)s")
CARD = phrase("the %(card)s")
CAPTURE_NUMBER = phrase("capture %(number)d")

# an unspent capture among the cards to pick for an offering, named in the summary of what is picked
A_CAPTURE = phrase("a capture")
