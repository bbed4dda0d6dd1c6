"""Whose phone is not connected (issue 38): the GM and the other seats read "Ann's phone is not connected"
while a seat whose turn it is has had no push socket for more than ``AFTER_S`` seconds, and stop reading it
when the phone is back. Otherwise they saw "Ann to play" for minutes while Ann's phone was off the Wi-Fi.

The push counts each viewer's open sockets and when its last one closed (``muster.presence``); a seat's
phones are the viewers ``seat.<index>.*`` (tabletop/viewers.py). A seat whose phone never connected is not
named: the GM may be playing it from the tablet. A seat the computer plays is never named.

The sentence is in each render of the GM's and the seats' region (``note``), and the consumers (``tell``)
send it alone, ``{"away": "..."}``, to the GM's and the seats' sockets when it may have changed without the
table moving: a seat's phone gone for ``AFTER_S`` seconds, or back after that. static/js/live.js puts it in
the region's [data-away] without fetching anything. Only names and the sentence cross: no hand, no link.
"""

from __future__ import annotations

import json
import logging

from django.utils import translation
from django.utils.translation import gettext

from muster import presence
from muster.live import MESSAGE_TYPE, send_all

from . import selectors, viewers
from .engines import get_engine
from .engines.kernel import seat_name
from .models import Table

logger = logging.getLogger(__name__)

# A phone back within this long (a reconnect, a reload, a server restart) was never said to be away.
AFTER_S = 5.0


def seats_away(table: Table) -> dict[int, str]:
    """{seat index: name} of the seats to act now whose every phone has been gone more than ``AFTER_S``.
    Read once per table instance: a push renders every viewer from one."""
    found = table.__dict__.get("_seats_away")
    if found is not None:
        return found
    found = {}
    if table.status == Table.Status.ACTIVE and not table.gm_only:
        space = viewers.table_space(table.pk)
        left = presence.left(space)
        if any(viewer.startswith("seat.") for viewer in left):  # else nothing more to read
            watched = presence.watched(space)
            gone = [index for index in get_engine(table.game).to_act(table.state)
                    if isinstance(index, int) and (_gone_for(index, watched, left) or 0) > AFTER_S]
            computers = selectors.computer_seats(table) if gone else {}
            found = {index: seat_name(table.state, index) for index in gone if index not in computers}
    table.__dict__["_seats_away"] = found
    return found


def _gone_for(index: int, watched: dict[str, int], left: dict[str, float]) -> float | None:
    """Seconds since the seat's last phone closed its socket; None while one is open or none ever was."""
    prefix = f"seat.{index}."
    if any(viewer.startswith(prefix) for viewer in watched):
        return None
    ago = [seconds for viewer, seconds in left.items() if viewer.startswith(prefix)]
    return min(ago) if ago else None


def gone_for(table_id: int, index: int) -> float | None:
    """``_gone_for`` read now (a seat's socket opening or closed a while ago: tabletop/consumers.py)."""
    space = viewers.table_space(table_id)
    return _gone_for(index, presence.watched(space), presence.left(space))


def note(table: Table, own_seat: int | None = None) -> str:
    """The sentence for the GM (``own_seat`` None) or a seat's page (never its own phone): "" when none."""
    names = [name for index, name in sorted(seats_away(table).items()) if index != own_seat]
    if not names:
        return ""
    if len(names) == 1:
        # Translators: a player's name; the phone of that player has lost its connection.
        return gettext("%(name)s’s phone is not connected.") % {"name": names[0]}
    # Translators: "Ann’s, Bob’s and Cy’s phones are not connected."
    return gettext("%(names)s and %(last)s’s phones are not connected.") % {
        "names": ", ".join(gettext("%(name)s’s") % {"name": name} for name in names[:-1]),
        "last": names[-1],
    }


def away_message(text: str) -> dict:
    return {"type": MESSAGE_TYPE, "text": json.dumps({"away": text})}


def tell(table_id: int) -> None:
    """The GM's and the seats' sockets of the table hear the sentence as it is now, each in the language its
    page is read in (``viewers.language_of``). Never raises: a sentence lost is caught up by the next push or
    fetch."""
    try:
        table = selectors.table_for_page(table_id)
        messages = []
        for watched in presence.watched(viewers.table_space(table_id)):
            viewer, language = viewers.language_of(watched)
            kind, _, rest = viewer.partition(".")
            if kind not in ("gm", "seat"):
                continue
            own = int(rest.partition(".")[0]) if kind == "seat" else None
            with translation.override(language):
                messages.append((viewers.viewer_group(table_id, watched), away_message(note(table, own))))
        send_all(messages)
    except Exception:
        logger.exception("telling table %s whose phone is not connected failed", table_id)
