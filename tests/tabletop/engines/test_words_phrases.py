"""An engine's English line read back into its template and said in another language (issue 41): the state
keeps English, the page says it in the reader's."""

from __future__ import annotations

from tabletop.engines import words
from tabletop.engines.words import phrase, read, say_text

PLAYS = phrase("%(player)s plays %(card)s on %(cell)s.")
CAPTURES = phrase("%(player)s plays %(card)s on %(cell)s and captures %(captured)s.")
ROLLS = phrase("%(name)s rolls %(roll)d.")
OVER = phrase("Game over: %(result_words)s")
WINS = phrase("%(winner)s wins with %(points)d points.")
GERMAN = {
    PLAYS: "%(player)s spielt %(card)s auf %(cell)s.",
    CAPTURES: "%(player)s spielt %(card)s auf %(cell)s und erobert %(captured)s.",
    ROLLS: "%(name)s würfelt %(roll)d.",
    OVER: "Spielende: %(result_words)s",
    WINS: "%(winner)s gewinnt mit %(points)d Punkten.",
}


def german(text: str) -> str:
    return GERMAN.get(text, text)


def test_a_line_is_read_back_into_its_template_the_most_specific_first():
    assert read("Ann plays Salt and Pepper on A2 and captures Mop.").message == CAPTURES
    assert say_text("Ann plays Salt and Pepper on A2 and captures Mop.", german) == (
        "Ann spielt Salt and Pepper auf A2 und erobert Mop."
    )
    assert say_text("Ann plays Echo Wisp on B2.", german) == "Ann spielt Echo Wisp auf B2."


def test_numbers_and_phrases_within_phrases_are_said_too():
    assert read("Bob rolls 6.").params == {"name": "Bob", "roll": 6}
    assert say_text("Game over: Ben the Sly wins with 37 points.", german) == (
        "Spielende: Ben the Sly gewinnt mit 37 Punkten."
    )


def test_a_line_no_template_matches_is_shown_as_it_is():
    assert read("Kraken Jr.") is None
    assert say_text("Kraken Jr.", german) == "Kraken Jr."
    assert say_text("Bob rolls six.", german) == "Bob rolls six."  # %(roll)d reads digits only


def test_english_is_the_line_itself():
    for line in ("Ann plays Salt and Pepper on A2 and captures Mop.", "Game over: Ben wins with 3 points."):
        assert say_text(line, words.english) == line
