"""Removing a campaign an import wrote but never revealed (issue 34).

An import writes its campaign in short transactions while the campaign is hidden (``Campaign.importing_at``
set: archive/importer.py), so another GM's write waits at most one batch. When it cannot finish (a value the
database refuses, a crash, a refusal that only the write pass could see), ``campaign_discard`` removes what it
wrote, again in short transactions: one model at a time, children before what they point at, a thousand rows
a transaction, newest first (a table's fork and an undo point at older rows of their own table). The order
and the lookups come from the models themselves (``owned_models``): every model that reaches a campaign
through foreign keys that cascade or protect, so a model added later is removed too. The append-only guards
(the activity log's queryset refuses ``delete``; a ledger entry protects its account) are for a campaign
people played: rows nobody ever saw are deleted through ``_base_manager``, and only while their campaign is
still hidden, so no visible campaign is ever touched here.

An import that never got to clean up (its process killed) leaves a hidden campaign whose ``importing_at``
stops moving. ``import_sweep`` removes each one quiet for longer than ``IMPORT_STALE`` and ends the upload
jobs left in a running phase as long (archive/jobs.py). It runs at the start of every import (``make run``
has no beat: the next upload tidies up after the last), before each backup (beat's daily one and ``make
backup``: a backup should not carry a half-written campaign) and from ``manage.py campaign_import_sweep``.
"""

from __future__ import annotations

import datetime
import logging
from functools import cache

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from campaign.models import Campaign

from .models import ImportJob

log = logging.getLogger(__name__)

CHUNK = 1000  # rows a discarding transaction deletes
# An import writes a batch (and moves importing_at) every fraction of a second; its last steps (claims, the
# open battles' tables) take seconds. Quiet for this long, its process is gone.
IMPORT_STALE = datetime.timedelta(minutes=10)
INTERRUPTED = gettext_noop(
    "The import was interrupted (the site stopped while it ran). Nothing was imported; upload the file again."
)
RUNNING = (ImportJob.Status.CHECKING, ImportJob.Status.REPLAYING, ImportJob.Status.WRITING)


@cache
def owned_models() -> tuple[tuple[type[models.Model], str], ...]:
    """Every model whose rows belong to a campaign, with a lookup from it to its campaign ("" for the campaign
    itself), in the order they can be deleted: a model before any it points at, the campaign last."""
    parents: dict[type[models.Model], list[models.ForeignKey]] = {Campaign: []}  # the keys that make it owned
    queue = [Campaign]
    while queue:
        parent = queue.pop(0)
        for relation in _pointing_at(parent):
            child = relation.related_model
            if relation.many_to_many or child is parent or relation.on_delete not in (models.CASCADE, models.PROTECT):
                continue  # SET_NULL (an upload's job, an invite's use) is not the campaign's; a fork, an undo: below
            if child not in parents:
                parents[child] = []
                queue.append(child)
            parents[child].append(relation.field)
    lookups = {model: _lookup(model, parents) for model in parents}
    order: list[type[models.Model]] = []

    def place(model: type[models.Model], path: tuple) -> None:
        if model in order:
            return
        if model in path:
            raise RuntimeError(f"A campaign's models point at each other in a circle: {path}")
        for other in parents:  # whatever points at ``model`` goes first
            if other is not model and any(field.related_model is model for field in _foreign_keys(other)):
                place(other, (*path, model))
        order.append(model)

    for model in parents:
        place(model, ())
    return tuple((model, lookups[model][1]) for model in order)


def _lookup(model: type[models.Model], parents: dict, seen: tuple = ()) -> tuple[bool, str]:
    """(whether it may miss rows, the lookup to the campaign): through keys that are never empty if it can."""
    if model is Campaign:
        return False, ""
    found = []
    for field in parents[model]:
        if field.related_model in seen:
            continue
        misses, rest = _lookup(field.related_model, parents, (*seen, model))
        lookup = f"{field.name}__{rest}" if rest else field.name
        found.append((field.null or misses, lookup.count("__"), lookup))
    misses, _, lookup = min(found)
    return misses, lookup


def _pointing_at(model: type[models.Model]) -> list[models.ForeignObjectRel]:
    """Every foreign key to ``model``, as its reverse relation: those named "+" too (an upload's job)."""
    return [field for field in model._meta.get_fields(include_hidden=True)
            if field.auto_created and not field.concrete and (field.one_to_many or field.one_to_one)]


def _foreign_keys(model: type[models.Model]) -> list[models.Field]:
    return [field for field in model._meta.concrete_fields if field.is_relation and field.related_model is not None]


def _rows_of(model: type[models.Model], lookup: str, campaign_id: int) -> models.QuerySet:
    """The rows of ``model`` that the hidden campaign ``campaign_id`` owns (none if it is not hidden)."""
    if not lookup:
        return model._base_manager.filter(pk=campaign_id, importing_at__isnull=False)
    return model._base_manager.filter(**{lookup: campaign_id, f"{lookup}__importing_at__isnull": False})


def campaign_discard(campaign_id: int) -> int:
    """Delete the hidden campaign ``campaign_id`` and every row it owns, ``CHUNK`` rows a transaction; returns
    the rows deleted. A campaign anyone can see is left alone (0)."""
    if not Campaign._base_manager.filter(pk=campaign_id, importing_at__isnull=False).exists():
        return 0
    deleted = 0
    for model, lookup in owned_models():
        rows = _rows_of(model, lookup, campaign_id)
        while pks := list(rows.order_by("-pk").values_list("pk", flat=True)[:CHUNK]):
            with transaction.atomic():
                deleted += _delete(model, pks)
    return deleted


def _delete(model: type[models.Model], pks: list[int]) -> int:
    """Delete these rows as they are: what they own is gone already, and an undo or a fork points only at an
    older row (deleted in a later chunk, or in this one: the database checks its keys at the commit). What
    points here from outside the campaign and lets go of it (SET_NULL: an upload's job) is emptied first."""
    owned = {owned_model for owned_model, _ in owned_models()}
    for relation in _pointing_at(model):
        if relation.related_model not in owned and relation.on_delete is models.SET_NULL:
            name = relation.field.name
            relation.related_model._base_manager.filter(**{f"{name}__in": pks}).update(**{name: None})
    return model._base_manager.filter(pk__in=pks)._raw_delete(model._base_manager.db)


def import_sweep(*, now: datetime.datetime | None = None) -> dict:
    """Remove every hidden campaign whose import has been quiet for ``IMPORT_STALE``, and end the upload jobs
    as quiet in a running phase (their page then says so); returns the counts (plain data)."""
    cutoff = (now or timezone.now()) - IMPORT_STALE
    stale = list(Campaign._base_manager.filter(importing_at__lt=cutoff).values_list("pk", flat=True))
    for campaign_id in stale:
        log.warning("Removing campaign %s: its import stopped before it ended", campaign_id)
        campaign_discard(campaign_id)
    jobs = list(ImportJob.objects.filter(status__in=RUNNING, heartbeat_at__lt=cutoff).values_list("pk", flat=True))
    if jobs:  # read first: a sweep that finds nothing writes nothing (no write lock on SQLite)
        ImportJob.objects.filter(pk__in=jobs, status__in=RUNNING).update(
            status=ImportJob.Status.FAILED, refusal=INTERRUPTED, refusal_words=[[INTERRUPTED, {}]], data=b"",
            finished_at=timezone.now())
    return {"campaigns": len(stale), "jobs": len(jobs)}
