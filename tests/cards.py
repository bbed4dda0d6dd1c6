"""Whether a page names a card id: the one question every secrets test asks of a page.

Card ids are short ("4S", "c12"), and pages carry random link tokens (``secrets.token_urlsafe``: letters,
digits, ``-`` and ``_``). A plain ``\\b4S\\b`` finds "4S" inside a token such as ``…x-4S-k…``, which made
the projector's secrets test fail once in a while. A card is named only where it stands alone: not
touching a letter, digit, ``_`` or ``-`` on either side.
"""

import html
import re

from tabletop.engines.sight import sight


def names_card(text: str, card_id: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(card_id)}(?![\w-])", text) is not None


def names_a_secret(engine, state, viewer, text: str) -> str | None:
    """A card hidden from ``viewer`` (sight.py) that ``text`` names by id, or by a name no card of its
    view bears (as tests/tabletop/views/test_projector.py asks of a page); None when it names none."""
    seen = sight(engine, state, viewer)
    names = engine.card_names(state)
    for card_id in seen.hidden:
        name = names.get(card_id)
        if names_card(text, card_id) or (
            name and not any(name in string for string in seen.strings) and html.escape(name) in text
        ):
            return card_id
    return None
