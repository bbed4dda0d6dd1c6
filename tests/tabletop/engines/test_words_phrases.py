"""An engine's English line read back into its template and said in another language (issue 41): the state
keeps English, the page says it in the reader's."""

from __future__ import annotations

from tabletop.engines import words
from tabletop.engines.words import phrase, read, say_text

# Templates of this test alone (the book is the engines' too: none of theirs reads these lines).
PLAYS = phrase("%(player)s test-plays %(card)s on %(cell)s.")
CAPTURES = phrase("%(player)s test-plays %(card)s on %(cell)s and captures %(captured)s.")
ROLLS = phrase("%(name)s test-rolls %(roll)d.")
OVER = phrase("Test match over: %(result_words)s")
WINS = phrase("%(winner)s wins the test with %(points)d points.")
GERMAN = {
    PLAYS: "%(player)s testet %(card)s auf %(cell)s.",
    CAPTURES: "%(player)s testet %(card)s auf %(cell)s und erobert %(captured)s.",
    ROLLS: "%(name)s testwürfelt %(roll)d.",
    OVER: "Testspiel vorbei: %(result_words)s",
    WINS: "%(winner)s gewinnt den Test mit %(points)d Punkten.",
}


def german(text: str) -> str:
    return GERMAN.get(text, text)


def test_a_line_is_read_back_into_its_template_the_most_specific_first():
    assert read("Ann test-plays Salt and Pepper on A2 and captures Mop.").message == CAPTURES
    assert say_text("Ann test-plays Salt and Pepper on A2 and captures Mop.", german) == (
        "Ann testet Salt and Pepper auf A2 und erobert Mop."
    )
    assert say_text("Ann test-plays Echo Wisp on B2.", german) == "Ann testet Echo Wisp auf B2."


def test_numbers_and_phrases_within_phrases_are_said_too():
    assert read("Bob test-rolls 6.").params == {"name": "Bob", "roll": 6}
    assert say_text("Test match over: Ben the Sly wins the test with 37 points.", german) == (
        "Testspiel vorbei: Ben the Sly gewinnt den Test mit 37 Punkten."
    )


def test_a_line_no_template_matches_is_shown_as_it_is():
    assert read("Kraken Jr.") is None
    assert say_text("Kraken Jr.", german) == "Kraken Jr."
    assert say_text("Bob test-rolls six.", german) == "Bob test-rolls six."  # %(roll)d reads digits only


def test_english_is_the_line_itself():
    for line in (
        "Ann test-plays Salt and Pepper on A2 and captures Mop.",
        "Test match over: Ben wins the test with 3 points.",
    ):
        assert say_text(line, words.english) == line


SEP = phrase("%(first_words)s / %(rest_words)s")  # a list of this test's phrases
GERMAN[SEP] = "%(first_words)s / %(rest_words)s"


def test_a_list_of_phrases_is_read_item_by_item():
    line = "Bob test-rolls 6. / Ann test-plays Mop on A1. / Cy test-rolls 2."
    assert say_text(line, german) == "Bob testwürfelt 6. / Ann testet Mop auf A1. / Cy testwürfelt 2."
    assert say_text("Bob test-rolls 6. / not a phrase", german) == "Bob test-rolls 6. / not a phrase"


def test_lines_shown_together_are_said_sentence_by_sentence():
    line = "Ann test-plays Mop on A1. Bob test-rolls 6."
    assert say_text(line, german) == "Ann testet Mop auf A1. Bob testwürfelt 6."
    assert say_text("Ann test-plays Kraken Jr. on A1.", german) == "Ann testet Kraken Jr. auf A1."


TWO = phrase("Test round %(n)d ends. %(name)s test-starts the next.")
GERMAN[TWO] = "Testrunde %(n)d endet. %(name)s testbeginnt die nächste."


def test_a_line_of_two_sentences_is_kept_whole_among_lines_shown_together():
    line = "Ann test-plays Mop on A1. Test round 2 ends. Bob test-starts the next. Cy test-rolls 3."
    assert say_text(line, german) == (
        "Ann testet Mop auf A1. Testrunde 2 endet. Bob testbeginnt die nächste. Cy testwürfelt 3."
    )
