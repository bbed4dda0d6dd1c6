"""A table's viewers and when they hear of a change: the names of their groups, the table's key, and a
committed change announced to them. The services call this module; rendering and sending each viewer's
region is ``tabletop/push.py``'s (the sender), and the sockets that listen are in ``consumers``.

When an action, an undo, an abandon or a hand-over commits, every viewer of the table somebody watches (a
seat, a GM, a member's public view, a projector link) gets its live region rendered once and pushed to its
own group (muster/live.py carries it).

Each socket joins only its own viewer's group, ``table.<id>.<viewer>``:

* ``seat.<index>.<digest of the seat's token>``: a seat's phones. The token is in the name, so a seat
  whose link changed (handed to the computer and back, its member removed) never sends its new view to
  a socket opened with the old link; the push closes such sockets (``REFUSED``).
* ``gm.<membership>``, ``public.<membership>``: a member's GM tablet or public view (a game's
  ``table_links`` hook may show each member different links).
* ``projector.<digest of the link's token>``: the projector link's screens (ruling PJ1).

Each ends with the language its page is read in unless that is the site's (``in_language``:
``seat.0.<digest>.in-de``), decided for
the socket as for its page (``muster.languages.of_scope``): the push renders a viewer once per language.

The viewers watched are counted per table (``muster.presence``, space ``table.<id>``): one nobody
watches costs nothing. The services know nothing of rendering: ``table_moved`` runs the pusher that
``tabletop.apps`` registers (``render_with``) once the transaction commits, and without one announces
the key alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial

from django.conf import settings
from django.db import transaction

from campaign.live import member_moved
from muster import presence
from muster.live import moved_message, send_all

from .models import Seat, Table

LANGUAGE_MARK = ".in-"  # between a viewer and its language: no token digest, id or language code holds it
Pusher = Callable[[int], None]
_pusher: list[Pusher] = []
# The tables whose push waits for the writer's own answer (``deferred``), in this request's context.
_deferred: ContextVar[list[int] | None] = ContextVar("deferred_pushes", default=None)


def render_with(pusher: Pusher) -> None:
    """``pusher(table_id)`` renders and pushes what each watched viewer of the table now shows."""
    _pusher[:] = [pusher]


def table_space(table_id: int) -> str:
    return f"table.{table_id}"


def viewer_group(table_id: int, viewer: str) -> str:
    return f"{table_space(table_id)}.{viewer}"


def digest(token: str) -> str:
    """A link's token in a group name: a digest, so the name (in Redis, in logs) reveals no link."""
    return hashlib.sha256(token.encode()).hexdigest()[:16]


def seat_viewer(index: int, token: str) -> str:
    return f"seat.{index}.{digest(token)}"


def gm_viewer(membership_id: int) -> str:
    return f"gm.{membership_id}"


def public_viewer(membership_id: int) -> str:
    return f"public.{membership_id}"


def projector_viewer(token: str) -> str:
    return f"projector.{digest(token)}"


def in_language(viewer: str, language: str) -> str:
    """A viewer as read in ``language`` (issue 41): its sockets join this group, and the push renders each
    language a viewer is watched in once (a GM's tablet in German and phone in English: two renders)."""
    if language == settings.LANGUAGE_CODE:  # the site's own language: the viewer's name as it always was
        return viewer
    return f"{viewer}{LANGUAGE_MARK}{language}"


def language_of(watched: str) -> tuple[str, str]:
    """(the viewer, its language) of a watched name (``in_language``); a name without one: the site's."""
    viewer, mark, language = watched.rpartition(LANGUAGE_MARK)
    return (viewer, language) if mark else (watched, settings.LANGUAGE_CODE)


def table_key(table: Table) -> str:
    """What a page compares with: the version, and whether the table was abandoned (which keeps
    its version)."""
    return f"{table.version}-abandoned" if table.status == Table.Status.ABANDONED else str(table.version)


def key_version(key: str) -> int:
    """The version a key (``table_key``) names."""
    return int(key.split("-")[0])


def key_now(table_id: int) -> str:
    """The table's key read now (a socket just joined its group: muster.live.LiveConsumer)."""
    return table_key(Table.objects.only("version", "status").get(pk=table_id))


def members_moved(table: Table, membership_ids=None) -> None:
    """The campaign pages of the members seated at ``table`` fetch their panels once this commits: the
    table opened, finished, was abandoned or reopened (issue 25). One query unless the caller knows the
    members (a table just created)."""
    if table.gm_only:  # a what-if only the GM plays is on no player's page
        return
    if membership_ids is None:
        membership_ids = Seat.objects.filter(table=table, membership__isnull=False).values_list(
            "membership_id", flat=True
        )
    member_moved(membership_ids)


@contextmanager
def deferred() -> Iterator[list[int]]:
    """Within this block a committed change's push is not sent but its table listed: the writer's view
    (views/answers.write) renders its own answer first and then pushes, reusing that render for its
    own viewer's other devices."""
    moved: list[int] = []
    reset = _deferred.set(moved)
    try:
        yield moved
    finally:
        _deferred.reset(reset)


def push_now(table_id: int) -> None:
    """Each watched viewer of the table hears it as it is now (rendered when a pusher is registered)."""
    moved = _deferred.get()
    if moved is not None:
        if table_id not in moved:
            moved.append(table_id)
        return
    if _pusher:
        _pusher[0](table_id)
        return
    watched = presence.watched(table_space(table_id))
    if watched:
        key = key_now(table_id)
        send_all([(viewer_group(table_id, viewer), moved_message(key)) for viewer in watched])


def table_moved(table: Table) -> None:
    """Every watched viewer of ``table`` gets its new region once the current transaction commits."""
    table_id = table.pk
    transaction.on_commit(lambda: push_now(table_id))


def links_renewed(table_ids) -> None:
    """Seats of these tables got new links without a change of the table (a member removed, ruling MB4):
    each table is pushed once the transaction commits, so the sockets opened with an old link are closed
    then (the push checks every watched seat's link, ruling LV5), not left open until the table moves."""
    for table_id in sorted(set(table_ids)):
        transaction.on_commit(partial(push_now, table_id))


def projector_group(table_id: int) -> str:
    """The projector pages of a table also listen here: a revoked or replaced link is told so
    (``PROJECTOR_REVOKED``), fetches, and its poll sends the page to the refusal (ruling PJ1)."""
    return f"projector.{table_id}"


PROJECTOR_REVOKED = "revoked"
