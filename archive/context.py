"""What a section's ``load`` works with while an archive is imported (archive/importer.py).

Records arrive in the sections' order, one at a time. A loader turns its record into model
instances and ``add``s them; they are written in batches (``bulk_create``, about a thousand at a
time), and each new id is recorded under its kind and source id (``ids``), so later records find
what they refer to with ``id_for``. A reference to something not yet written flushes the batch
first; a reference to something the archive never held is a refusal.
"""

from __future__ import annotations

import datetime
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_noop

from campaign.models import Campaign
from people.models import Invite
from people.services.claims import ClaimSpec, claims_make

from . import records as r
from .format import VERSION, ArchiveRefused

BATCH = 1000
MAX_USERNAME = 150
_username_validator = UnicodeUsernameValidator()


# A claim not used yet travels as a member record (format version 2) whose id is "claim-<its pk>": a space of its
# own, so it never meets a membership's id; seats, accounts and commanders name it as they name a member.
CLAIM_ID = re.compile(r"claim-[1-9][0-9]{0,18}")
CLAIMS_SINCE = 2
A_RECORD = r.named(gettext_noop("a record"))  # what ``id_for`` calls a record none named
NOT_A_USER_NAME = gettext_noop("The archive names a member %(name)s, which is not a user name.")


def claim_ident(claim_pk: int) -> str:
    """The member id an archive gives a waiting claim (people.Claim's pk)."""
    return f"claim-{claim_pk}"



def claimant(claim_pk: int | None) -> str | None:
    """The member id of a waiting claim (people/selectors/claims.py ``waiting_claim_of``), or None for none: what
    an export writes where that member's id would be."""
    return None if claim_pk is None else claim_ident(claim_pk)


def username_problem(username: object) -> ArchiveRefused | None:
    """Why ``username`` is not a user name this site could have (e.g. a path such as ../etc), or None."""
    if not isinstance(username, str) or not username:
        return ArchiveRefused(gettext_noop("An archive's member has no user name."))
    if len(username) > MAX_USERNAME:
        return ArchiveRefused(gettext_noop("The archive names a member %(name)s…, longer than a user name may be."),
                              name=repr(username[:40]))
    try:
        _username_validator(username)
    except ValidationError:
        return ArchiveRefused(NOT_A_USER_NAME, name=repr(username[:60]))
    if not username.strip("."):  # "." and "..": what a path is made of, never a person
        return ArchiveRefused(NOT_A_USER_NAME, name=repr(username))
    return None


@dataclass
class Claim:
    """A member of the exported campaign (anyone but the importer): the invite that lets them claim their place."""

    username: str
    display_name: str
    role: str
    invite: Invite


@dataclass
class Unclaimed:
    """A member other than the importer, waiting for their claim invite (one per member, made at the end of
    the import: people/services/claims.py), which gives back everything noted here by the archive's ids.
    Whether an account of that name exists here does not matter: an archive never makes anyone a member."""

    username: str
    display_name: str
    role: str
    character_name: str = ""
    joined_at: datetime.datetime | None = None
    seats: list[tuple[Any, str]] = field(default_factory=list)  # (source id, the seat's own name as archived)
    accounts: list[Any] = field(default_factory=list)  # source ids
    commanders: list[Any] = field(default_factory=list)  # source ids


@dataclass
class _Pending:
    instance: models.Model
    kind: str | None
    old_id: Any
    times: dict[str, datetime.datetime] | None
    then: Callable[[models.Model], None] | None


@dataclass
class ImportContext:
    campaign: Campaign  # the new campaign, already saved
    importer: Any  # the user importing; a GM of the new campaign
    by_operator: bool = False  # the command line (manage.py campaign_import): may add unit cards
    header: dict = field(default_factory=dict)
    ids: dict[str, dict[Any, Any]] = field(default_factory=lambda: defaultdict(dict))
    claims: list[Claim] = field(default_factory=list)
    unclaimed: dict[Any, Unclaimed] = field(default_factory=dict)  # by the member's source id
    _pending: list[_Pending] = field(default_factory=list)
    _pending_keys: set[tuple[str, Any]] = field(default_factory=set)
    _checks: list[Callable[[], None]] = field(default_factory=list)
    # set by the importer: which kind a free reference's type name stands for (sections.kind_named), and
    # the kinds whose records are all in
    kind_named: Callable[[str], str | None] = lambda name: None
    done: set[str] = field(default_factory=set)
    _remaps: list[tuple[models.Model, str, str, Any]] = field(default_factory=list)
    # the core sections' bookkeeping (archive/sections/campaign.py, tabletop.py)
    importer_membership: Any = None  # the importer's GM membership of the new campaign
    importer_was_member: bool = False
    member_names: set[str] = field(default_factory=set)  # the user names of the archive's members
    balances: dict[Any, int] = field(default_factory=dict)  # each account's balance, by source id
    balance_check: Callable[[], None] | None = None
    replaying: dict[Any, Any] = field(default_factory=dict)  # tables whose log is on its way in
    current_table: Any = None
    replayed_states: list[models.Model] = field(default_factory=list)
    tables_check: Callable[[], None] | None = None
    # each table's final state, replayed before the write transaction (archive/proof.py ``ProvenStates``):
    # the loaders take it instead of replaying; None (a caller of its own) replays as records arrive
    proven_states: Any = None
    catalog_looked_at: bool = False  # whether an empty unit catalog got the starter units (sections/unit_cards.py)
    cards_added: list[int] = field(default_factory=list)  # unit cards a staff import added: removed if it fails

    # ---------------------------------------------------------------- people

    def is_importer(self, username: str) -> bool:
        """Whether the archive's ``username`` is the importer's own (the one account an import matches by
        name: they consent by importing). A name that could not be a user name (a path, a control
        character) is a refusal. No other account here is looked up: a member becomes a claim invite."""
        problem = username_problem(username)
        if problem:
            raise problem
        return username == self.importer.get_username()

    def member_user(self, username: Any):
        """The account here of a user a record names (an actor, a table's creator, who started a day end):
        the importer when the archive holds them as a member, else None. Nobody else is matched, so no
        archive pins an act on an account here that did not import it; an activity line keeps the name it
        showed (``actor_name``)."""
        if username is None:
            return None
        if not isinstance(username, str):
            raise ArchiveRefused(gettext_noop("The archive names a user without a valid user name."))
        return self.importer if self.is_importer(username) and self.importer_was_member else None

    @property
    def may_add_cards(self) -> bool:
        """Whether this import may add unit cards to the shared catalog (archive/sections/unit_cards.py): only
        staff, or the operator on the command line; everyone else's archive must match the catalog."""
        return self.by_operator or bool(self.importer.is_active and self.importer.is_staff)

    def member_ident(self, record: dict, name: str = "id", *, null: bool = False) -> int | str | None:
        """A member's source id in ``record``: a membership's number, or (version 2 on) a waiting claim's
        "claim-<n>" (``CLAIM_ID``), which a version 1 archive cannot hold."""
        value = record.get(name)
        if not isinstance(value, str):
            return r.ident(record, name, null=null)
        if not CLAIM_ID.fullmatch(value):
            raise ArchiveRefused(gettext_noop("The archive's %(kind)s %(id)s has no valid %(name)s."),
                                 kind=record.get("kind"), id=repr(record.get("id", "")), name=name)
        if self.header.get("version", VERSION) < CLAIMS_SINCE:
            raise ArchiveRefused(gettext_noop("The archive's %(kind)s %(id)s names the claim %(claim)s, which a "
                                              "version 1 archive cannot hold: no Muster writes such a file."),
                                 kind=record.get("kind"), id=repr(record.get("id", "")), claim=repr(value))
        return value

    def unclaimed_member(self, old_member_id: Any) -> Unclaimed | None:
        """The member (by source id) waiting for their claim, or None (the importer). Their references (an account's
        owner, a seat, a commander's membership) import as empty: the GM's, until they claim."""
        return self.unclaimed.get(old_member_id)

    def claim_commander(self, old_member_id: Any, old_commander_id: Any) -> None:
        """Note that the unclaimed member ran the commander (by source id): their claim gives it back."""
        self.unclaimed[old_member_id].commanders.append(old_commander_id)

    def make_claims(self) -> None:
        """One claim invite for each member but the importer, holding every seat, account and commander they
        had (called by the importer once all records are in; written with the rest of the campaign)."""
        self.flush()
        ids = self.ids
        members = list(self.unclaimed.values())
        specs = [
            ClaimSpec(username=member.username, display_name=member.display_name, role=member.role,
                      character_name=member.character_name, joined_at=member.joined_at,
                      seats=[(ids["seat"][old], name) for old, name in member.seats],
                      account_ids=[ids["account"][old] for old in member.accounts],
                      commander_ids=[ids["commander"][old] for old in member.commanders])
            for member in members
        ]
        invites = claims_make(campaign=self.campaign, created_by=self.importer, specs=specs)
        self.claims = [Claim(member.username, member.display_name, member.role, invite)
                       for member, invite in zip(members, invites, strict=True)]

    # ---------------------------------------------------------------- ids

    def id_for(self, kind: str, old_id: Any, *, what: list | None = None, optional: bool = False):
        """The new id of the ``kind`` record the archive called ``old_id``; None for None. Refuses an id
        the archive never held (``optional``: None instead, for references that may point outside the
        archive, such as a user)."""
        if old_id is None:
            return None
        if (kind, old_id) in self._pending_keys:
            self.flush()
        known = self.ids[kind]
        if old_id in known:
            return known[old_id]
        if optional:
            return None
        raise ArchiveRefused(gettext_noop("The archive's %(what)s refers to %(kind)s %(id)s, which the archive does "
                                          "not hold."), what=what or A_RECORD, kind=kind, id=repr(old_id))

    def record_id(self, kind: str, old_id: Any, new_id: Any) -> None:
        if old_id in self.ids[kind]:
            raise ArchiveRefused(r.HELD_TWICE, kind=kind, id=repr(old_id))
        self.ids[kind][old_id] = new_id

    def free_ref(self, instance: models.Model, field_name: str, type_name: str, old_id: Any) -> None:
        """Set ``instance.<field_name>`` for a free reference (``cause_type``/``cause_id``, ``target_type``/
        ``target_id``): the new id of what ``type_name`` names (a section's ``names``; "campaign" is the
        new campaign). A type no section names is not archived data (a day number, say): the value is
        kept. A reference to a kind not loaded yet is set once every record is in; one to a record the
        archive does not hold becomes empty (what it pointed at was gone when it was exported)."""
        if old_id is None or not type_name:
            setattr(instance, field_name, old_id)
            return
        if type_name == "campaign":
            setattr(instance, field_name, self.campaign.pk)
            return
        kind = self.kind_named(type_name)
        if kind is None:
            setattr(instance, field_name, old_id)
        elif kind in self.done:
            setattr(instance, field_name, self.ids[kind].get(old_id))
        else:
            setattr(instance, field_name, None)
            self._remaps.append((instance, field_name, kind, old_id))

    def _resolve_remaps(self) -> None:
        grouped: dict[tuple[type, str], list[models.Model]] = defaultdict(list)
        for instance, field_name, kind, old_id in self._remaps:
            new_id = self.ids[kind].get(old_id)
            if new_id is not None:
                setattr(instance, field_name, new_id)
                grouped[(type(instance), field_name)].append(instance)
        self._remaps = []
        for (model, field_name), instances in grouped.items():
            model._base_manager.bulk_update(instances, [field_name], batch_size=BATCH)

    # ---------------------------------------------------------------- writing

    def add(self, instance: models.Model, *, kind: str | None = None, old_id: Any = None,
            times: dict[str, datetime.datetime] | None = None,
            then: Callable[[models.Model], None] | None = None) -> None:
        """Queue ``instance`` for a batched insert. With ``kind`` and ``old_id`` its new id is recorded.
        ``times``: fields whose stored value is kept although the field sets itself on insert
        (``auto_now_add`` such as created_at). ``then``: called with the saved instance."""
        if kind is not None and old_id is not None:
            if old_id in self.ids[kind] or (kind, old_id) in self._pending_keys:
                raise ArchiveRefused(r.HELD_TWICE, kind=kind, id=repr(old_id))
            self._pending_keys.add((kind, old_id))
        self._pending.append(_Pending(instance, kind, old_id, times, then))
        if len(self._pending) >= BATCH:
            self.flush()

    def flush(self) -> None:
        """Write everything queued, model by model in the order first queued."""
        pending, self._pending, self._pending_keys = self._pending, [], set()
        by_model: dict[type, list[_Pending]] = {}
        for item in pending:
            by_model.setdefault(type(item.instance), []).append(item)
        for model, items in by_model.items():
            if any(item.times for item in items):
                _insert_keeping_times(model, items)
            else:
                model.objects.bulk_create([item.instance for item in items], batch_size=BATCH)
            for item in items:
                if item.kind is not None and item.old_id is not None:
                    self.ids[item.kind][item.old_id] = item.instance.pk
            for item in items:
                if item.then is not None:
                    item.then(item.instance)

    # ---------------------------------------------------------------- checks

    def after(self, check: Callable[[], None]) -> None:
        """Run ``check`` once every record is written (it raises ArchiveRefused to refuse the archive).
        A check already registered is not added again."""
        if check not in self._checks:
            self._checks.append(check)

    def run_checks(self) -> None:
        self.flush()
        self._resolve_remaps()
        for check in self._checks:
            check()


class _AsGiven(models.QuerySet):
    """``bulk_create`` that stores each field as the instance holds it: no ``pre_save`` (``auto_now_add``)
    replaces a time the archive carried. Django's own raw insert, the one fixtures load with."""

    def _insert(self, *args, **kwargs):
        kwargs["raw"] = True
        return super()._insert(*args, **kwargs)


def _insert_keeping_times(model: type[models.Model], items: list[_Pending]) -> None:
    """Insert with the archive's times in the fields that set themselves on insert (``auto_now_add``, such
    as created_at); such a field the record does not name gets its usual value. One insert per batch:
    putting the times back with an UPDATE afterwards cost twice the insert (bench/archive.py)."""
    automatic = [field for field in model._meta.concrete_fields
                 if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)]
    for item in items:
        given = item.times or {}
        for auto in automatic:
            if auto.name in given:
                setattr(item.instance, auto.attname, given[auto.name])
            else:
                auto.pre_save(item.instance, add=True)
    _AsGiven(model).bulk_create([item.instance for item in items], batch_size=BATCH)
