import functools
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from .bounds import MAX_COOLDOWN_MINUTES, MAX_DAY, MAX_LEDGER_AMOUNT, between, check_between

MAX_TIME_ZONE = 64
MAX_LANGUAGE = 15  # a language code, e.g. "de" or "pt-br" (settings.LANGUAGES)
# Names the tz database ships that are not places: aliases of the machine's own zone, its template,
# and the leap-second ("right/") and POSIX copies of every zone.
_NOT_PLACES = ("localtime", "posixrules", "Factory")
_NOT_PLACE_FOLDERS = ("posix/", "right/")


@functools.cache
def _time_zone_names() -> dict[str, str]:
    """Every IANA zone name this machine knows, by its lower-case spelling."""
    return {
        name.lower(): name
        for name in zoneinfo.available_timezones()
        if name not in _NOT_PLACES and not name.startswith(_NOT_PLACE_FOLDERS)
    }


def time_zone_named(text: object) -> str | None:
    """The IANA name ``text`` spells (any case, e.g. "europe/berlin" -> "Europe/Berlin"), or None."""
    if not isinstance(text, str) or len(text) > MAX_TIME_ZONE:
        return None
    return _time_zone_names().get(text.strip().lower())


def validate_time_zone(value: object) -> None:
    if time_zone_named(value) != value:
        raise ValidationError(
            "%(value)s is not a time zone this site knows: write an IANA name such as Europe/Berlin or UTC.",
            params={"value": str(value)[:MAX_TIME_ZONE]},
            code="time_zone",
        )


def default_time_zone() -> str:
    """A new campaign's time zone: the site's own (settings.TIME_ZONE), else UTC."""
    return time_zone_named(settings.TIME_ZONE or "") or "UTC"


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    current_day = models.PositiveIntegerField(default=1, validators=between(1, MAX_DAY))

    class Desertion(models.TextChoices):
        MOST_EXPENSIVE = "most_expensive", _("The most expensive used units desert until the rest is affordable")
        CHEAPEST = "cheapest", _("The cheapest used units desert until the rest is affordable")
        ALL_USED = "all_used", _("Every used unit deserts and nothing is paid")

    allow_credit = models.BooleanField(default=False, help_text=_("Let treasuries go below zero."))
    desertion = models.CharField(
        max_length=20,
        choices=Desertion.choices,
        default=Desertion.MOST_EXPENSIVE,
        help_text=_("Who deserts when a commander cannot pay the day's upkeep."),
    )
    day_end_time = models.TimeField(
        null=True,
        blank=True,
        help_text=_("Settle upkeep and open the next day automatically at this time (in the campaign's time zone)."),
    )
    time_zone = models.CharField(
        max_length=MAX_TIME_ZONE,
        default=default_time_zone,
        validators=[validate_time_zone],
        help_text=_("The IANA time zone the campaign's times are read and shown in, e.g. Europe/Berlin."),
    )
    battle_cooldown_minutes = models.PositiveIntegerField(
        default=60,
        validators=between(0, MAX_COOLDOWN_MINUTES),
        help_text=_("Minutes before the same two armies may fight again (the rulebook says 1 hour)."),
    )
    language = models.CharField(
        max_length=MAX_LANGUAGE,
        blank=True,
        help_text=_(
            "The language of its guests' phones, projector and printed sheets (muster/languages.py); "
            "empty: each browser's own."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # An archive being imported (archive/importer.py) is written in short transactions into a campaign no page
    # shows, then revealed in one: until then this is the moment its import last wrote a batch (how long ago
    # tells a live import from an interrupted one, archive/discard.py), and every place that finds a campaign
    # for someone (a member's pages and home, the day-end schedule, the backups) passes over it.
    importing_at = models.DateTimeField(
        null=True, blank=True, editable=False,
        help_text=_("Being imported: when the import last wrote. Empty for every campaign the site shows."),
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            check_between("current_day", 1, MAX_DAY, name="campaign_current_day_bounded"),
            check_between("battle_cooldown_minutes", 0, MAX_COOLDOWN_MINUTES, name="campaign_cooldown_bounded"),
            # The database cannot read the tz database: it refuses an empty name; forms and services the rest.
            models.CheckConstraint(condition=~models.Q(time_zone=""), name="campaign_time_zone_named"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The campaign's time zone; UTC if the stored name is unknown here (it is validated on every write)."""
        return zoneinfo.ZoneInfo(time_zone_named(self.time_zone) or "UTC")


class Day(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="days")
    number = models.PositiveIntegerField(validators=between(1, MAX_DAY))
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="unique_day_number"),
            check_between("number", 1, MAX_DAY, name="day_number_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} day {self.number}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", _("Game master")
        PLAYER = "player", _("Player")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    character_name = models.CharField(max_length=120, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "role", "user__username"]
        constraints = [models.UniqueConstraint(fields=["user", "campaign"], name="one_membership_per_campaign")]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    @property
    def is_gm(self) -> bool:
        return self.role == self.Role.GM

    @property
    def display_name(self) -> str:
        return self.character_name or self.user.get_full_name() or self.user.username


class Account(models.Model):
    """A treasury: a commander's purse or the campaign's bank. Its balance is the sum of its entries."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="accounts")
    name = models.CharField(max_length=120)
    owner = models.ForeignKey(
        Membership,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="accounts",
        help_text=_("The member who may see this account; empty for the GM's own accounts."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "name"]

    def __str__(self) -> str:
        return self.name


class LedgerEntry(models.Model):
    """Append-only: entries are only ever created (campaign/ledger.py), never changed or deleted."""

    class Kind(models.TextChoices):
        UPKEEP = "upkeep", _("Upkeep settlement")
        RECRUITMENT = "recruitment", _("Recruitment")
        TRAINING = "training", _("Training")
        STAKE = "stake", _("Side-event stake")
        ADJUSTMENT = "adjustment", _("GM adjustment")
        OPENING = "opening", _("Opening balance")
        CORRECTION = "correction", _("Correction")  # compensates earlier entries (a day end taken back)

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount = models.BigIntegerField(
        help_text=_("Positive credits the account, negative debits it."),
        validators=between(-MAX_LEDGER_AMOUNT, MAX_LEDGER_AMOUNT),
    )
    day = models.PositiveIntegerField(validators=between(1, MAX_DAY))
    kind = models.CharField(max_length=12, choices=Kind.choices)
    reason = models.CharField(max_length=240)
    cause_type = models.CharField(max_length=40, blank=True, help_text=_("What caused it, e.g. 'settlement'."))
    cause_id = models.PositiveBigIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["account", "id"]
        verbose_name_plural = _("ledger entries")
        indexes = [models.Index(fields=["account", "day"]), models.Index(fields=["cause_type", "cause_id"])]
        constraints = [
            check_between("amount", -MAX_LEDGER_AMOUNT, MAX_LEDGER_AMOUNT, name="ledger_amount_bounded"),
            check_between("day", 1, MAX_DAY, name="ledger_day_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.account}: {self.amount:+} ({self.reason})"

    @property
    def kind_note(self) -> str:
        """The kind's name beside the reason, or "" where the reason opens with it already (the pages would
        read "Opening balance of Lady Vey · Opening balance")."""
        with translation.override(None):  # the reason is stored in English: compared with the English name
            english = str(self.get_kind_display())
        opens_with = self.reason.split(" ", 1)[0].lower() == english.split(" ", 1)[0].lower()
        return "" if opens_with else str(self.get_kind_display())


class Submission(models.Model):
    """A one-time form token that was applied, and what it made (campaign/submissions.py).

    The unique key is what makes a repeated or concurrent post apply once.
    """

    key = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=40, help_text=_("What the form did, e.g. 'table_new'."))
    result_type = models.CharField(max_length=60, blank=True, help_text=_("app_label.model of what it made."))
    result_id = models.PositiveBigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} {self.key[:8]}…"


class ActivityQuerySet(models.QuerySet):
    """Append-only: rows are created, never updated or deleted (a campaign's deletion takes them along)."""

    def update(self, **kwargs):
        raise TypeError("The activity log is append-only: entries are never changed.")

    def delete(self):
        raise TypeError("The activity log is append-only: entries are never deleted.")


class Activity(models.Model):
    """One thing a GM (or the schedule) did in a campaign: who, what, when, and what it was about.

    Written by ``campaign.activity.activity_record`` in the same transaction as the change it
    describes; never changed or deleted (``ActivityQuerySet``, ``save`` and ``delete`` refuse).
    """

    class Kind(models.TextChoices):
        DAY_END = "day_end", _("Day ended")
        DAY_END_REVERT = "day_end_revert", _("Day end taken back")
        ADJUSTMENT = "adjustment", _("Treasury adjusted")
        OVERRIDE = "override", _("GM override at a table")
        BATTLE_OPEN = "battle_open", _("Battle opened despite a lock")
        COMMANDER_NEW = "commander_new", _("Commander created")
        COMMANDER_EDIT = "commander_edit", _("Commander edited")
        COMMANDER_RETIRE = "commander_retire", _("Commander retired")
        UNIT_REMOVE = "unit_remove", _("Unit dismissed or released")
        UNIT_TRAINING = "unit_training", _("Training corrected")
        OFFER_NEW = "offer_new", _("Offer posted")
        OFFER_EDIT = "offer_edit", _("Offer edited")
        OFFER_WITHDRAW = "offer_withdraw", _("Offer withdrawn")
        QUEST_GRANT = "quest_grant", _("Quest unit granted")
        SETTINGS = "settings", _("Campaign settings changed")
        TABLE_ABANDON = "table_abandon", _("Table abandoned")
        TABLE_FORK = "table_fork", _("What-if table forked")
        INVITE_NEW = "invite_new", _("Invite made")
        INVITE_REVOKE = "invite_revoke", _("Invite revoked")
        MEMBER_JOIN = "member_join", _("Joined by invite")
        RESET_LINK = "reset_link", _("Password reset link made")
        MEMBER_ROLE = "member_role", _("Member's role changed")
        MEMBER_REMOVE = "member_remove", _("Member removed")
        COMMANDER_HAND = "commander_hand", _("Commander handed to another member")
        CAMPAIGN_NEW = "campaign_new", _("Campaign started")
        ARCHIVE_EXPORT = "archive_export", _("Campaign archive downloaded")
        RECRUIT = "recruit", _("Unit recruited")
        TRAINING = "training", _("Unit trained")
        BATTLE_NEW = "battle_new", _("Battle opened")
        TABLE_NEW = "table_new", _("Table opened")
        TABLE_END = "table_end", _("Table or battle finished")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="activities")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_name = models.CharField(max_length=150, help_text=_("Who did it, as shown then; 'schedule' for the clock."))
    day = models.PositiveIntegerField(validators=between(1, MAX_DAY))
    kind = models.CharField(max_length=20, choices=Kind.choices)
    summary = models.CharField(max_length=300)
    target_type = models.CharField(max_length=40, blank=True, help_text=_("What it was about, e.g. 'commander'."))
    target_id = models.PositiveBigIntegerField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True, help_text=_("Before and after, or what was undone."))
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ActivityQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = _("activities")
        indexes = [models.Index(fields=["campaign", "kind"]), models.Index(fields=["campaign", "created_at"])]

    def __str__(self) -> str:
        return f"{self.actor_name}: {self.summary}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("The activity log is append-only: entries are never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("The activity log is append-only: entries are never deleted.")
