"""Render once, push to every page of a viewer (issue 26): after a change to a table commits, each viewer
somebody watches (``muster.presence``) gets its live region rendered once, from one load of the table,
and pushed to its own group with the key (``tabletop/viewers.py`` names the groups). A viewer nobody
watches costs nothing; the GM's second tablet or a seat's second phone costs no second render.

What is rendered is exactly what that viewer's poll answers at that key, with two differences that one
render shared by several devices needs: the CSRF token and the client action id are placeholders, which
each page fills with its own (static/js/live.js) before it swaps the region in.

Each viewer is rendered in the language its sockets were opened in (``viewers.in_language``): words are
made at the render, never kept in the table.

Before each render the viewer is checked again, as its page would be: a seat's link must still be the
one its sockets opened (not handed to the computer, not renewed), a GM must still be a GM, a member still
a member, a projector link still the table's. A viewer that no longer passes is sent a close instead
(its sockets close with ``muster.live.REFUSED``, its page polls and gets the page's refusal).

Registered by ``tabletop.apps`` (``viewers.render_with``): the services, below the presenters, only call
``viewers.table_moved``.

In a served process (``settings.PUSH_AFTER_ANSWER``: uvicorn, ``make run``) the renders and sends run on
one thread of the process (``Behind``) after the writer has its answer (issue 40): a tap never waits for
the other screens. A table moved again while its push waits is rendered once, as it is then (versions
merge when the push falls behind: fewer renders when the server is busiest), and one thread sends every
push of the process in order, so no viewer is sent an older render after a newer one from this process
(pushes of two processes may cross: ``static/js/live.js`` keeps the newer). A writer's own render is
handed along (``Known``) and goes to its viewer's other devices when the table is still at its key;
so does the table as the writer saved it, which the push thread renders the others from instead of
reading it again, but only if its version is newer than any this thread pushed for it and no change
that kept the version (an abandon) or came without a table (a link renewed) waits with it: the viewers
are checked against the seats, the members and the link read anew all the same.
Elsewhere (a Celery worker, a command, the tests) the push runs in the caller, as soon as asked.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import defaultdict
from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

from campaign.models import Membership
from muster import presence
from muster.live import CLOSE, moved_message, send_all

from . import presenters, selectors, viewers
from .models import Table

logger = logging.getLogger(__name__)

# Placeholders a page replaces with its own token and a fresh id (static/js/live.js).
CSRF_PLACEHOLDER = "__muster_csrf_token__"
ACTION_ID_PLACEHOLDER = "__muster_client_action_id__"
TABLE_REGION = "tabletop/live.jinja"  # the table pages' live region (Jinja2 for speed, issue 40)
PROJECTOR_REGION = "tabletop/projector.html#live"

Region = tuple[str, Callable[[], dict]]  # a template and the context it renders (built only if rendered)
Known = dict[str, tuple[str, str]]  # viewer in its language -> (key, its shared render) made already (the writer's)


def shared_render(template: str, context: dict) -> str:
    """A region rendered for every device of one viewer: no device's CSRF token, no one page's id."""
    return render_to_string(
        template, {**context, "csrf_token": CSRF_PLACEHOLDER, "client_action_id": ACTION_ID_PLACEHOLDER}
    )


def for_request(html: str, request) -> str:
    """A shared region as one request's answer: that page's CSRF token and a fresh client action id."""
    return html.replace(CSRF_PLACEHOLDER, get_token(request)).replace(ACTION_ID_PLACEHOLDER, uuid.uuid4().hex)


def _watched_viewers(table_id: int) -> dict[str, dict]:
    """The watched viewers (each in its language, ``viewers.in_language``) by kind: ``seat`` {index:
    [watched, ...]}, ``gm``/``public`` {membership: [watched, ...]}, ``projector`` {viewer: [watched, ...]}."""
    by_kind: dict[str, dict] = {kind: defaultdict(list) for kind in ("seat", "gm", "public", "projector")}
    for watched in presence.watched(viewers.table_space(table_id)):
        viewer, _ = viewers.language_of(watched)
        kind, _, rest = viewer.partition(".")
        if kind == "seat":
            index, _, _ = rest.partition(".")
            by_kind["seat"][int(index)].append(watched)
        elif kind in ("gm", "public"):
            by_kind[kind][int(rest)].append(watched)
        elif kind == "projector":
            by_kind["projector"][viewer].append(watched)
    return by_kind


def _seat_regions(table: Table, watched: dict[int, list[str]]) -> tuple[dict[str, Region], list[str]]:
    regions, refused = {}, []
    current = {seat.index: seat for seat in selectors.table_seats(table.pk) if seat.index in watched}
    for index, seat_viewers in watched.items():
        seat = current.get(index)
        for watched in seat_viewers:
            viewer, _ = viewers.language_of(watched)
            if seat is None or seat.bot or table.gm_only or viewer != viewers.seat_viewer(index, seat.token):
                refused.append(watched)
                continue
            seat.table = table  # the seat's links need the table's campaign: no query for it
            regions[watched] = (TABLE_REGION, lambda seat=seat: presenters.seat_context(seat, table))
    return regions, refused


def _member_regions(
    table: Table, gms: dict[int, list[str]], publics: dict[int, list[str]]
) -> tuple[dict[str, Region], list[str]]:
    roles = dict(
        Membership.objects.filter(pk__in=[*gms, *publics], campaign_id=table.campaign_id).values_list("pk", "role")
    )
    regions, refused = {}, []
    for membership_id, watched in gms.items():
        if roles.get(membership_id) == Membership.Role.GM:
            for name in watched:
                regions[name] = (TABLE_REGION, lambda m=membership_id: presenters.gm_view_context(table, m))
        else:
            refused.extend(watched)
    for membership_id, watched in publics.items():
        if membership_id in roles:
            for name in watched:
                regions[name] = (TABLE_REGION, lambda m=membership_id: presenters.public_view_context(table, m))
        else:
            refused.extend(watched)
    return regions, refused


def _projector_regions(table: Table, watched: dict[str, list[str]]) -> tuple[dict[str, Region], list[str]]:
    link = None if table.gm_only else selectors.projector_link(table.pk)
    regions, refused = {}, []
    for viewer, names in watched.items():
        if link is not None and viewer == viewers.projector_viewer(link.token):
            for name in names:
                regions[name] = (PROJECTOR_REGION, lambda: presenters.projector_context(table, link.token))
        else:
            refused.extend(names)
    return regions, refused


def regions_of(
    table_id: int, known: Known | None = None, saved: Table | None = None
) -> tuple[str, dict[str, str], list[str]]:
    """(the key, {viewer: its region} for every watched viewer allowed, [watched viewers refused now]). A
    viewer's render in ``known`` at the table's key now is taken as it is, not rendered again. ``saved``:
    the table as its page renders it, known to be current (``Behind``), else it is read."""
    watched = _watched_viewers(table_id)
    if not any(watched.values()):
        return "", {}, []
    table = saved if saved is not None else selectors.table_for_page(table_id)
    if watched["seat"] or watched["gm"] or watched["public"]:
        table.campaign  # noqa: B018  (one query: every page's links name its slug)
    regions: dict[str, Region] = {}
    refused: list[str] = []
    for found, lost in (
        _seat_regions(table, watched["seat"]) if watched["seat"] else ({}, []),
        _member_regions(table, watched["gm"], watched["public"]) if watched["gm"] or watched["public"] else ({}, []),
        _projector_regions(table, watched["projector"]) if watched["projector"] else ({}, []),
    ):
        regions.update(found)
        refused.extend(lost)
    key, known = viewers.table_key(table), known or {}
    rendered = {}
    for watched, (template, context) in regions.items():
        made_at, html = known.get(watched, ("", ""))
        if made_at != key:
            with translation.override(viewers.language_of(watched)[1]):  # the words of its page's language
                html = shared_render(template, context())
        rendered[watched] = html
    return key, rendered, refused


def push_table(table_id: int, known: Known | None = None, saved: Table | None = None) -> int | None:
    """Render each watched viewer of the table once (or take its render from ``known``) and push it; close
    the viewers refused now. A push that fails is logged and never fails the write that caused it (the
    pages catch up by their poll). Returns the version the viewers were sent (None: nothing sent)."""
    try:
        key, regions, refused = regions_of(table_id, known, saved)
    except Exception:
        logger.exception("rendering the push of table %s failed: its pages are told to fetch", table_id)
        return _key_alone(table_id)
    if not key:
        return None
    messages = [(viewers.viewer_group(table_id, viewer), moved_message(key, html)) for viewer, html in regions.items()]
    send_all(messages + [(viewers.viewer_group(table_id, viewer), CLOSE) for viewer in refused])
    return viewers.key_version(key)


class Behind:
    """The pushes of a served process, made on one thread of their own after the answers: tables in the
    order they moved, each once however often it moved while it waited (merged with the renders known
    for it). The thread starts with the first push and waits while there is none; it reads through its
    own database connection, given back whenever the queue runs empty.

    A put may hand the table as its writer saved it (``saved``): the push renders from it, no read, when
    it is the newest of the puts merged (two of one version: an abandon keeps it; a put without one: read)
    and its version is above every version this thread pushed for the table, so it is at least as new as
    anything sent and never sent after a newer one."""

    def __init__(self, push: Callable[[int, Known, Table | None], int | None]):
        self.push = push
        self.waiting: dict[int, Known] = {}  # insertion order: the order the tables moved
        self.saved: dict[int, Table | None] = {}  # a waiting table's writer's table, None: read it
        self.pushed: dict[int, int] = {}  # the newest version this thread pushed for each table
        self.ready = threading.Condition()
        self.thread: threading.Thread | None = None
        self.pushing: int | None = None  # the table whose push is under way

    def put(self, table_id: int, known: Known | None = None, saved: Table | None = None) -> None:
        with self.ready:
            if table_id in self.waiting:
                saved = _newer(self.saved[table_id], saved)
            self.saved[table_id] = saved
            self.waiting.setdefault(table_id, {}).update(known or {})
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="muster-push", daemon=True)
                self.thread.start()
            self.ready.notify()

    def run(self) -> None:
        while True:
            with self.ready:
                while not self.waiting:
                    self.ready.wait()
                table_id = self.pushing = next(iter(self.waiting))
                known, saved = self.waiting.pop(table_id), self.saved.pop(table_id)
                last = not self.waiting
            if saved is not None and saved.version <= self.pushed.get(table_id, -1):
                saved = None  # as new as a version sent already at best: read the table as it is now
            try:
                version = self.push(table_id, known, saved)
                if version is not None:
                    self.pushed[table_id] = max(version, self.pushed.get(table_id, version))
                if last:  # this thread's connection goes back to the pool (PostgreSQL) or is kept (SQLite)
                    connection.close_if_unusable_or_obsolete()
            except Exception:  # the thread goes on: the pages catch up by their poll
                logger.exception("the push of table %s was lost", table_id)
            finally:
                self.pushing = None


def _newer(held: Table | None, handed: Table | None) -> Table | None:
    """Of two writers' tables merged in one waiting push, the one of the newer version; None (read the
    table) when either put came without one or both are of one version."""
    if held is None or handed is None or held.version == handed.version:
        return None
    return handed if handed.version > held.version else held


behind = Behind(push_table)


def push_soon(table_id: int, known: Known | None = None, saved: Table | None = None) -> None:
    """The table's push: after the answer on the served process's push thread, else now (see above). The
    writer's ``saved`` table is taken by the push thread alone, which knows what it sent before."""
    if settings.PUSH_AFTER_ANSWER:
        behind.put(table_id, known, saved)
    else:
        push_table(table_id, known)


def _key_alone(table_id: int) -> int | None:
    """The fallback: every watched viewer's group hears the key and fetches its own view."""
    try:
        key = viewers.key_now(table_id)
        send_all(
            [
                (viewers.viewer_group(table_id, viewer), moved_message(key))
                for viewer in presence.watched(viewers.table_space(table_id))
            ]
        )
    except Exception:  # never fail the write: the pages catch up when they next poll or reconnect
        logger.exception("the push of table %s was lost", table_id)
        return None
    return viewers.key_version(key)
