"""The coach's search as a job for another process (issue 34): plain data in, plain data out.

"What would the computer do?" thinks where the computer's own turns think, never in a thread of the
web process (``coach_search`` sends it): in-process (``make run``) in the coach's processes of
``pool``, with a worker in the task ``tabletop.coach_search``. What crosses is plain data (CONVENTIONS
14f): the game's name, the state as JSON, the seat, the seed string, the strength and the budget; the
answer is the list of moves as the page shows them, each ``{"label", "percent", "visits"}``, named here
from the seat's own view (ruling CO3), so the web process spends no CPU on the answer but its rendering.

This module imports no Django: the pool's fresh interpreter imports it to run ``advice``.
"""

from __future__ import annotations

from ..bots.coach import advise, percent
from ..engines import get_engine
from ..move_names import own_move_label


def advice(game: str, state: dict, seat: int, seed: str, strength: str, budget: dict) -> list[dict]:
    """The first moves of the search for ``seat`` at ``strength`` (``budget``: the tests' ``BOT_BUDGET``),
    named from the seat's view, with their win chances as whole percents. Raises ``BotError`` (with its
    sentence) when the computer cannot play this state."""
    ranked = advise(game, state, seat, seed, strength=strength, **budget)
    view = get_engine(game).view(state, seat)
    return [{"label": own_move_label(view, entry.action), "percent": percent(entry.win_chance),
             "visits": entry.visits} for entry in ranked]
