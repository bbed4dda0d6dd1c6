"""An engine's refusal is said in the reader's language (issue 41): the engine raises an English template
marked with ``gettext_noop`` and its named values (tabletop/engines/words.py); ``str()`` is the English
sentence, ``say(translate)`` the sentence in ``translate``'s language, with phrases of the engine among its
values (an Army battle's step, "a or b") said in the same language."""

from pathlib import Path

import pytest
from django.conf import settings
from django.utils.translation import gettext, override

from muster.answers import said
from muster.refusals import Refusal
from tabletop.engines import army, gotm
from tabletop.engines.army.actions import STEPS
from tabletop.engines.kernel import IllegalAction, PickRefused, SeededRng
from tabletop.engines.words import Words, either, gettext_noop

# A fake language: every template it knows in capitals, its placeholders kept.
FAKE = {
    "It is %(name)s's turn, not yours.": "IT IS %(name)s'S TURN, NOT YOURS.",
    "The map must be %(names)s.": "THE MAP MUST BE %(names)s.",
    "%(first)s or %(rest)s": "%(first)s OR %(rest)s",
    "It is not %(name)s's decision now: %(now)s.": "NOT %(name)s'S DECISION NOW: %(now)s.",
    STEPS["offense"]: "%(who)s PLAYS ON OFFENSE",
}


def fake(message: str) -> str:
    return FAKE.get(message, message)


def gotm_out_of_turn() -> tuple[IllegalAction, str]:
    """GOT'M's refusal of a move by the seat that is not to act, and the name of the seat that is."""
    state = gotm.setup({"players": ["Ann", "Ben"]}, SeededRng(5))
    [deciding] = gotm.to_act(state)
    with pytest.raises(IllegalAction) as refused:
        gotm.apply(state, {"type": "done", "seat": 1 - deciding}, SeededRng(1))
    return refused.value, state["players"][deciding]


def test_str_is_the_english_sentence_and_the_template_keeps_its_placeholder():
    refusal, name = gotm_out_of_turn()
    assert str(refusal) == f"It is {name}'s turn, not yours."
    assert refusal.message == "It is %(name)s's turn, not yours." and refusal.params == {"name": name}


def test_say_translates_the_template_then_puts_the_values_in():
    refusal, name = gotm_out_of_turn()
    assert refusal.say(fake) == f"IT IS {name}'S TURN, NOT YOURS."
    assert IllegalAction(gettext_noop("The game is over.")).say(lambda message: "VORBEI") == "VORBEI"


def test_a_phrase_among_the_values_is_said_in_the_sentences_language():
    phrase = either(["North", "South", "West"])
    refusal = IllegalAction(gettext_noop("The map must be %(names)s."), names=phrase)
    assert str(refusal) == "The map must be North or South or West."
    assert refusal.say(fake) == "THE MAP MUST BE North OR South OR West."
    assert Words(gettext_noop("a number")) == Words("a number") and str(Words("a number")) == "a number"


def test_an_army_step_in_a_refusal_is_said_in_the_refusals_language():
    state = army.setup(army.random_config(SeededRng(3)), SeededRng(3))
    while state["step"] is None or state["step"]["kind"] != "offense" or state["step"]["seat"] not in (0, 1):
        state = army.apply(state, army.legal_actions(state)[0], SeededRng(4))
    idle = 1 - state["step"]["seat"]
    with pytest.raises(IllegalAction) as refused:
        army.apply(state, {"type": "pass", "seat": idle}, SeededRng(1))
    commanders = [commander["name"] for commander in state["commanders"]]
    actor = commanders[state["step"]["seat"]]
    assert str(refused.value) == (
        f"It is not {commanders[idle]}'s decision now: {actor} plays a unit on Offense or passes."
    )
    assert refused.value.say(fake) == f"NOT {commanders[idle]}'S DECISION NOW: {actor} PLAYS ON OFFENSE."


def test_a_refused_pick_keeps_its_offer_beside_its_values():
    refusal = PickRefused(gettext_noop("The %(card)s is dead and cannot attack."), ["9C"], {"type": "x"}, card="Ogre")
    assert refusal.offer == {"picked": ["9C"], "confirm": {"type": "x"}}
    assert str(refusal) == "The Ogre is dead and cannot attack."


def test_a_page_says_an_engine_refusal_through_say_and_a_service_refusal_as_it_is():
    refusal, name = gotm_out_of_turn()
    with override("en-gb"):
        assert said(refusal) == f"It is {name}'s turn, not yours."
        assert said(Refusal("A campaign needs a name.")) == "A campaign needs a name."


GERMAN = Path(settings.LOCALE_PATHS[0]) / "de" / "LC_MESSAGES" / "django.mo"


@pytest.mark.skipif(
    not GERMAN.exists(),
    reason="the German catalog is not compiled yet (scripts/messages.py "
    "merges locale/incoming/engines.po and writes locale/de/.../django.mo)",
)
def test_a_german_request_reads_an_engine_refusal_in_german_with_its_value_put_in():
    refusal, name = gotm_out_of_turn()
    with override("de"):
        assert refusal.say(gettext) == f"{name} ist am Zug, nicht du."
        assert said(refusal) == f"{name} ist am Zug, nicht du."


def test_a_refusal_made_of_another_exception_still_reads_as_that_exceptions_sentence():
    refusal = IllegalAction(ValueError("Strength 9 is no computer's strength."))
    assert str(refusal) == "Strength 9 is no computer's strength." == refusal.say(fake)
