"""Whether a page names a card id: the one question every secrets test asks of a page.

Card ids are short ("4S", "c12"), and pages carry random link tokens (``secrets.token_urlsafe``: letters,
digits, ``-`` and ``_``). A plain ``\\b4S\\b`` finds "4S" inside a token such as ``…x-4S-k…``, which made
the projector's secrets test fail once in a while. A card is named only where it stands alone: not
touching a letter, digit, ``_`` or ``-`` on either side.
"""

import re


def names_card(text: str, card_id: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(card_id)}(?![\w-])", text) is not None
