"""Tables: one game in progress or finished, its seats, its stake, its action log and its projector link.

The card catalogs the games deal from are in tabletop/models/catalogs.py; tabletop/models/__init__.py
imports every model, so Django, the migrations and ``from tabletop.models import Table`` see one set.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.bounds import between, check_between

from .. import titles


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_seed() -> int:
    return secrets.randbits(48)


class TableQuerySet(models.QuerySet):
    def counted(self) -> TableQuerySet:
        """The tables that count in the campaign: every table but the what-ifs (sandboxes forked from a
        log, tabletop/services/forks.py). Every list or sum that means the campaign reads through this."""
        return self.filter(what_if=False)

    def what_ifs(self) -> TableQuerySet:
        return self.filter(what_if=True)


class Table(models.Model):
    class Game(models.TextChoices):
        ARMY = "army", _("Army Rules battle")
        GRIDARIS = "gridaris", "Mercenaries of Gridaris"
        GOTM = "gotm", "Mercenaries (GOT'M)"
        MERCENARIUM = "mercenarium", "Mercenarium (Anthromancer)"
        DUNGEON = "dungeon", _("Mercenaries: the dungeon deck-builder")

    class Status(models.TextChoices):
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="tables")
    game = models.CharField(max_length=20, choices=Game.choices)
    title = models.CharField(max_length=120)
    config = models.JSONField()
    seed = models.BigIntegerField(default=new_seed)
    setup_draws = models.JSONField(default=list)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    outcome = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    log_released_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When a seat first downloaded the full log; from then on the game is closed for good (no undo)."),
    )
    what_if = models.BooleanField(
        default=False,
        help_text=_(
            "A sandbox forked from another table's log: no stakes, no roster or ledger effects, never counted."
        ),
    )
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks", help_text=_("The table forked.")
    )
    forked_at = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("The version (log entry) of the original table this what-if starts from.")
    )
    gm_only = models.BooleanField(
        default=False,
        help_text=_("A what-if only the GM plays, on the GM's page: no seat link opens it (ruling WI10)."),
    )
    coach = models.BooleanField(
        default=False,
        help_text=_("Players may ask the computer what it would do: its top three moves from their own seat's "
                    "view (issue 27, ruling CO1). On when a table opens without stakes and for a what-if; the GM "
                    "switches it."),
    )
    start_state = models.JSONField(
        null=True,
        blank=True,
        help_text=_("A what-if dealt anew at its fork point: its state there, where its log starts "
                    "(no set-up draws; ruling WI10)."),
    )

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["campaign", "status"])]

    def __str__(self) -> str:
        return f"{self.title} ({self.get_game_display()})"

    @property
    def shown_title(self) -> str:
        """The title in the reader's language when Muster wrote it (a battle's, a what-if's: tabletop/titles.py)."""
        return titles.said(self.title)

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED


class Seat(models.Model):
    """A place at a table: bound to a campaign member, or a guest who joins by secret link.

    ``guest_name`` is a guest's name; on a member's seat it is empty, or the name the seat goes by at
    the table instead of the member's: an NPC's seat is the GM's and is called by the NPC (ruling B3).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    membership = models.ForeignKey(
        "campaign.Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    guest_name = models.CharField(max_length=60, blank=True)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    stake_account = models.ForeignKey(
        "campaign.Account",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="staked_seats",
        help_text=_("The member's account that paid the entry fee and receives any winnings; empty for guests."),
    )
    bot = models.CharField(
        max_length=8,
        blank=True,
        choices=[
            ("", _("A person")),
            ("quick", _("Computer: quick")),
            ("normal", _("Computer: normal")),
            ("strong", _("Computer: strong")),
        ],
        help_text=_("Empty when a person plays this seat; else the computer plays it at this strength."),
    )

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="unique_seat_index"),
            models.CheckConstraint(
                condition=Q(membership__isnull=False) | ~Q(guest_name=""), name="seat_has_member_or_guest"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} at {self.table}"

    @property
    def is_guest(self) -> bool:
        return self.membership_id is None

    @property
    def name(self) -> str:
        return self.guest_name or self.membership.display_name


class Stake(models.Model):
    """What a side-event table is played for: an entry fee per staked seat and how the pot is paid out.

    The pot is never stored: it is the table's STAKE ledger entries (tabletop/services/stakes.py,
    docs/rulings.md).
    """

    class Payout(models.TextChoices):
        WINNER_TAKES_ALL = "winner_takes_all", _("Winner takes all (tied winners share the pot)")
        TIE_RETURNS = "tie_returns", _("Winner takes all; a shared win returns every stake")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="stake")
    entry_fee = models.PositiveIntegerField(
        help_text=_("Coins each seated member pays in when the table opens."), validators=between(1, bounds.MAX_COINS)
    )
    payout = models.CharField(max_length=20, choices=Payout.choices, default=Payout.WINNER_TAKES_ALL)
    paid_out_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(entry_fee__gt=0), name="stake_entry_fee_positive"),
            check_between("entry_fee", 1, bounds.MAX_COINS, name="stake_entry_fee_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_fee} a seat at {self.table}"

    @property
    def is_paid_out(self) -> bool:
        return self.paid_out_at is not None


class TableAction(models.Model):
    """One entry of a table's log: an action with the draws it consumed, or a GM undo."""

    class Kind(models.TextChoices):
        ACTION = "action", _("Action")
        UNDO = "undo", _("Undo")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ACTION)
    seat = models.CharField(max_length=8, blank=True, help_text=_("Seat index, or 'gm'."))
    action = models.JSONField(null=True, blank=True)
    draws = models.JSONField(default=list)
    undoes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by")
    digest = models.CharField(max_length=64)
    client_action_id = models.CharField(max_length=64, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="unique_action_seq"),
            models.UniqueConstraint(
                fields=["table", "client_action_id"], condition=~Q(client_action_id=""), name="unique_client_action"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} {self.kind}"


class ProjectorLink(models.Model):
    """A table's projector link (issue 25, ruling PJ1): a secret the GM makes, shows the table's public
    view to whoever opens it, without an account, read-only. At most one per table; revoking deletes it
    and a new one replaces it, so an old link opens nothing."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="projector")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Projector link of table {self.table_id}"
