"""Every English line Gridaris and GOT'M write (log lines, status lines, the choices' labels, the names of maps and
scenarios) is read back into the template it was written from (issue 41): said in English it is the line itself,
so the page can say each of them in the reader's language."""

from __future__ import annotations

import pytest

from tabletop.engines import ENGINES
from tabletop.engines.gotm import cards as gotm_cards
from tabletop.engines.gotm import recruit
from tabletop.engines.kernel import GM, SeededRng
from tabletop.engines.words import english, read, say_text

GAMES = 15  # make test; make soak reads the lines of SOAK_GAMES
SOAK_GAMES = 120
MAX_STEPS = 400


def _gridaris_texts(view: dict) -> list[str]:
    texts = [view["turn_text"], view["map"]["name"], *view["events"]]
    texts += [choice["label"] for choice in view["choices"]]
    texts += [text for scenario in view["scenarios"] for text in (scenario["name"], scenario["text"])]
    if view["score"]:
        texts.append(view["score"]["reason"])
    return texts


def _gotm_texts(view: dict) -> list[str]:
    texts = [view["turn_text"], *view["events"]]
    texts += [choice["label"] for choice in view["choices"]]
    pick = view["pick"]
    if pick:
        targets = [target for target in [*pick["mercenaries"], pick["artifact"]] if target]
        texts += [text for target in targets for text in (target["label"], target["move"])]
    if view["score"]:
        texts.append(view["score"]["reason"])
    return texts


def _confirm_labels(state: dict) -> list[str]:
    """The "Pay ... and lose N" labels a picked payment with a loss offers to confirm."""
    labels = []
    if state["phase"] == "recruit":
        for action in recruit.legal(state):
            if action["type"] in recruit.PAYING and recruit.loss(action) > 0:
                with pytest.raises(recruit.ConfirmLoss) as refused:
                    recruit.confirm_loss(state, action, 0)
                labels.append(refused.value.offer["confirm"]["label"])
    return labels


TEXTS = {"gridaris": _gridaris_texts, "gotm": _gotm_texts}


def _lines(game: str, games: int) -> set[str]:
    engine = ENGINES[game]
    lines: set[str] = set()
    for seed in range(games):
        rng, chooser = SeededRng(seed), SeededRng(f"choices-{seed}")
        state = engine.setup(engine.random_config(chooser), rng)
        for _ in range(MAX_STEPS):
            lines.update(state["events"])
            for seat in [*range(len(state["players"])), GM, None]:
                lines.update(TEXTS[game](engine.view(state, seat)))
            if game == "gotm":
                lines.update(_confirm_labels(state))
            actions = engine.legal_actions(state)
            if engine.outcome(state) is not None or not actions:
                break
            state = engine.apply(state, chooser.choice(actions), rng)
    return lines


@pytest.mark.parametrize("games", [GAMES, pytest.param(SOAK_GAMES, marks=pytest.mark.soak)])
@pytest.mark.parametrize("game", sorted(TEXTS))
def test_every_line_is_read_back_into_a_template_that_says_it_again(game, games):
    lines = _lines(game, games)
    assert len(lines) > 100
    unread = sorted(line for line in lines if read(line) is None)
    assert unread == []
    changed = sorted(line for line in lines if say_text(line, english) != line)
    assert changed == []


def test_a_gotm_card_name_is_never_read_as_a_sentence():
    """Card names stand inside lines as they are (catalog data): none may be taken for a phrase of the book."""
    assert [name for card in gotm_cards.ALL_CARDS if read(name := gotm_cards.name(card)) is not None] == []
