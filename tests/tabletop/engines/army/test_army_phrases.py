"""Every English line an Army battle writes (its log, the status line, the moves' and overrides' labels, the dice
asked for, the skirmish's result and modifiers, the cards' abilities, the result, the luck report's rolls) is read
back into the template it was written from (issue 41): said in English it is the line itself, so the page can say
each of them in the reader's language."""

from __future__ import annotations

import copy

from tabletop.engines import get_engine
from tabletop.engines.army import lines
from tabletop.engines.army.luck import battle_luck
from tabletop.engines.kernel import GM, SeededRng
from tabletop.engines.simulate import SimulationReport, _next_action
from tabletop.engines.words import english, read, say_text

from tests.tabletop.engines.random_play import random_states

GAMES = 120


def _breakdown_texts(side: dict | None) -> list[str]:
    """The modifiers' sources, but a card's (its name, catalog data)."""
    return [mod["source"] for mod in side["modifiers"] if mod["kind"] != "card"] if side else []


def _view_texts(view: dict) -> list[str]:
    texts = [view["turn_text"], *view["events"]]
    texts += [choice["label"] for choice in view["choices"]]
    texts += [die["label"] for die in view["dice_needed"]]
    texts += [override["label"] for override in view.get("overrides", [])]
    cards = [*view["hand"]]
    for commander in view["commanders"]:
        cards += [
            *(commander["hand"] or []),
            *commander["revealed"],
            *commander["exhausted"],
            *commander["disabled"],
            *commander["killed"],
        ]
    texts += [ability for card in cards for ability in card["abilities"]]
    if view["last"]:
        texts += [
            view["last"]["result"],
            *_breakdown_texts(view["last"]["offense"]),
            *_breakdown_texts(view["last"]["defense"]),
        ]
    if view["result"]:
        texts.append(view["result"]["reason"])
    return texts


def _battle(seed: int) -> tuple[set[str], list[str]]:
    """The texts of one random battle (GM overrides and physical dice mixed in, as simulate plays) and the
    labels of its luck report's rolls."""
    engine = get_engine("army")
    rng, chooser = SeededRng(seed), SeededRng(f"choices-{seed}")
    config = engine.random_config(chooser)
    state = engine.setup(config, rng)
    setup_draws, entries, texts = rng.take_draws(), [], set()
    report = SimulationReport(game="army")
    while True:
        texts.update(state["events"])
        for seat in (0, 1, GM, None):
            texts.update(_view_texts(engine.view(state, seat)))
        if engine.outcome(state) is not None:
            break
        action = _next_action(engine, state, engine.legal_actions(state), chooser, report)
        state = engine.apply(state, copy.deepcopy(action), rng)
        entries.append({"seq": len(entries) + 1, "action": action, "draws": rng.take_draws()})
    luck = battle_luck(config, setup_draws, entries, final_state=state)
    return texts, [roll.label for roll in luck.rolls]


def test_every_line_of_a_battle_is_read_back_into_a_template_that_says_it_again():
    texts: set[str] = set()
    for seed in range(GAMES):
        found, labels = _battle(seed)
        texts |= found | set(labels)
    assert len(texts) > 1000
    unread = sorted(text for text in texts if read(text) is None)
    assert unread == []
    changed = sorted(text for text in texts if say_text(text, english) != text)
    assert changed == []


def test_a_line_is_read_into_its_own_template_and_its_words_are_said_too():
    german = {
        lines.LOSES_BASE: "%(name)s verliert %(amount)d Moral (davon %(base)d Basismoral) (%(why_words)s): jetzt "
        "%(total)d.",
        lines.PASSED_OFFENSE: "im Angriff gepasst",
        lines.REVEALED[False, True]: "Aufgedeckt: %(card)s von %(name)s (%(role)s) greift %(enemy_card)s von %(enemy)s "
        "(%(enemy_role)s, als solche gespielt durch %(enemy_power)s) an.",
    }
    line = "Lady Vey loses 2 Morale (1 of it Base Morale) (passed on Offense): now 3."
    assert read(line).message == lines.LOSES_BASE
    assert say_text(line, lambda text: german.get(text, text)) == (
        "Lady Vey verliert 2 Moral (davon 1 Basismoral) (im Angriff gepasst): jetzt 3."
    )
    line = "Revealed: Ann's Soldier (Aggressor) attacks Ben's Shield Wall (Aggressor, played as one by the Master of "
    line += "Arms)."
    assert say_text(line, lambda text: german.get(text, text)) == (
        "Aufgedeckt: Soldier von Ann (Aggressor) greift Shield Wall von Ben (Aggressor, als solche gespielt durch "
        "Master of Arms) an."
    )


def test_no_line_of_the_other_games_is_read_into_an_army_template():
    """A template of one part of a line ("X's Y", "A, B") would read lines of other games that have none of their
    own, and say them wrongly: every Army template is a whole line of the Army's."""
    army = {
        text
        for name, value in vars(lines).items()
        if name.isupper()
        for text in (value.values() if isinstance(value, dict) else [value])
    }
    for game in ("gotm", "gridaris"):
        for seed in range(3):
            for state in random_states(get_engine(game), seed):
                found = [read(line) for line in state["events"]]
                assert [words.message for words in found if words and words.message in army] == []
