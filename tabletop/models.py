"""Tables (one game in progress or finished), their seats and action log, and the card catalogs."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from campaign import bounds
from campaign.bounds import between, check_between


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_seed() -> int:
    return secrets.randbits(48)


def validate_dungeon_stats(stats) -> None:
    """Every number on a dungeon card within its bounds: ``copies`` 0..MAX_CARD_COPIES, any other
    number (also inside lists) -MAX_CARD_STAT..MAX_CARD_STAT (campaign/bounds.py)."""
    if not isinstance(stats, dict):
        return  # the shape of ``stats`` is the catalog validation's to judge
    copies = stats.get("copies")
    if isinstance(copies, int) and not isinstance(copies, bool) and not 0 <= copies <= bounds.MAX_CARD_COPIES:
        raise ValidationError(f"copies must be between 0 and {bounds.MAX_CARD_COPIES} (got {copies}).")
    for key, value in stats.items():
        for number in value if isinstance(value, list) else [value]:
            if isinstance(number, (int, float)) and not isinstance(number, bool):
                if not -bounds.MAX_CARD_STAT <= number <= bounds.MAX_CARD_STAT:
                    raise ValidationError(
                        f"{key} must be between {-bounds.MAX_CARD_STAT} and {bounds.MAX_CARD_STAT} (got {number})."
                    )


class TableQuerySet(models.QuerySet):
    def counted(self) -> TableQuerySet:
        """The tables that count in the campaign: every table but the what-ifs (sandboxes forked from a
        log, tabletop/services/forks.py). Every list or sum that means the campaign reads through this."""
        return self.filter(what_if=False)

    def what_ifs(self) -> TableQuerySet:
        return self.filter(what_if=True)


class Table(models.Model):
    class Game(models.TextChoices):
        ARMY = "army", "Army Rules battle"
        GRIDARIS = "gridaris", "Mercenaries of Gridaris"
        GOTM = "gotm", "Mercenaries (GOT'M)"
        MERCENARIUM = "mercenarium", "Mercenarium (Anthromancer)"
        DUNGEON = "dungeon", "Mercenaries: the dungeon deck-builder"

    class Status(models.TextChoices):
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

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
        help_text="When a seat first downloaded the full log; from then on the game is closed for good (no undo).",
    )
    what_if = models.BooleanField(
        default=False,
        help_text="A sandbox forked from another table's log: no stakes, no roster or ledger effects, never counted.",
    )
    forked_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks", help_text="The table forked."
    )
    forked_at = models.PositiveIntegerField(
        null=True, blank=True, help_text="The version (log entry) of the original table this what-if starts from."
    )
    gm_only = models.BooleanField(
        default=False,
        help_text="A what-if only the GM plays, on the GM's page: no seat link opens it (ruling WI10).",
    )
    coach = models.BooleanField(
        default=False,
        help_text="Players may ask the computer what it would do: its top three moves from their own seat's "
        "view (issue 27, ruling CO1). On when a table opens without stakes and for a what-if; the GM switches it.",
    )
    start_state = models.JSONField(
        null=True,
        blank=True,
        help_text="A what-if dealt anew at its fork point: its state there, where its log starts "
        "(no set-up draws; ruling WI10).",
    )

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["campaign", "status"])]

    def __str__(self) -> str:
        return f"{self.title} ({self.get_game_display()})"

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
        help_text="The member's account that paid the entry fee and receives any winnings; empty for guests.",
    )
    bot = models.CharField(
        max_length=8,
        blank=True,
        choices=[
            ("", "A person"),
            ("quick", "Computer: quick"),
            ("normal", "Computer: normal"),
            ("strong", "Computer: strong"),
        ],
        help_text="Empty when a person plays this seat; else the computer plays it at this strength.",
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
        WINNER_TAKES_ALL = "winner_takes_all", "Winner takes all (tied winners share the pot)"
        TIE_RETURNS = "tie_returns", "Winner takes all; a shared win returns every stake"

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="stake")
    entry_fee = models.PositiveIntegerField(
        help_text="Coins each seated member pays in when the table opens.", validators=between(1, bounds.MAX_COINS)
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
        ACTION = "action", "Action"
        UNDO = "undo", "Undo"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ACTION)
    seat = models.CharField(max_length=8, blank=True, help_text="Seat index, or 'gm'.")
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


class CatalogEntry(models.Model):
    """Common to every card catalog: starter data is labelled as such."""

    class Source(models.TextChoices):
        STARTER = "starter", "Starter data (designed by Muster, not official)"
        IMPORTED = "imported", "Imported"
        CUSTOM = "custom", "Entered by hand"

    source = models.CharField(max_length=10, choices=Source.choices, default=Source.CUSTOM)
    active = models.BooleanField(default=True, help_text="Inactive cards are kept but not dealt in new games.")

    class Meta:
        abstract = True


class GridarisCard(CatalogEntry):
    class Tier(models.TextChoices):
        SILVER = "silver", "Silver"
        GOLD = "gold", "Gold"

    class Class(models.TextChoices):
        CHEESE = "Cheese People", "Cheese People"
        MOPS = "Mops", "Mops"
        WIZARDS = "Wizards", "Wizards"
        MONSTERS = "Monsters", "Monsters"
        VOIDLINGS = "Voidlings", "Voidlings"
        BUSINESS = "Business Drones", "Business Drones"

    EDGE_CHOICES = [(str(value), str(value)) for value in range(1, 10)] + [("A", "A (Ace)")]

    code = models.SlugField(max_length=20, unique=True, help_text="Stable id used in game logs, e.g. s01.")
    name = models.CharField(max_length=80)
    card_class = models.CharField("class", max_length=20, choices=Class.choices)
    tier = models.CharField(max_length=6, choices=Tier.choices)
    stars = models.PositiveSmallIntegerField(validators=between(*bounds.GRIDARIS_STARS))
    top = models.CharField(max_length=1, choices=EDGE_CHOICES)
    right = models.CharField(max_length=1, choices=EDGE_CHOICES)
    bottom = models.CharField(max_length=1, choices=EDGE_CHOICES)
    left = models.CharField(max_length=1, choices=EDGE_CHOICES)

    class Meta:
        ordering = ["tier", "code"]
        verbose_name = "Gridaris card"
        constraints = [check_between("stars", *bounds.GRIDARIS_STARS, name="gridaris_stars_bounded")]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def as_engine_card(self) -> dict:
        return {
            "id": self.code,
            "name": self.name,
            "class": self.card_class,
            "tier": self.tier,
            "stars": self.stars,
            "edges": [self.top, self.right, self.bottom, self.left],
        }


class GridarisScenario(CatalogEntry):
    key = models.SlugField(max_length=30, unique=True)
    name = models.CharField(max_length=60)
    text = models.TextField()

    class Meta:
        ordering = ["name"]
        verbose_name = "Gridaris scenario"

    def __str__(self) -> str:
        return self.name


class MercenariumCard(CatalogEntry):
    """A Mercenarium deck card: suit, face value and aura dots per edge, relative to its owner."""

    class Suit(models.TextChoices):
        CLAWS = "C", "Claws"
        SOULS = "S", "Souls"
        GEARS = "G", "Gears"
        BLADES = "B", "Blades"

    VALUE_CHOICES = [(v, str(v)) for v in range(2, 11)] + [(11, "J"), (12, "Q"), (13, "K"), (14, "A"), (15, "L (Lord)")]
    DOT_CHOICES = [(n, str(n)) for n in range(6)]

    code = models.SlugField(max_length=20, unique=True, help_text="Stable id used in game logs, e.g. C14.")
    name = models.CharField(max_length=80)
    suit = models.CharField(max_length=1, choices=Suit.choices)
    value = models.PositiveSmallIntegerField(choices=VALUE_CHOICES, validators=between(*bounds.MERCENARIUM_VALUES))
    top = models.PositiveSmallIntegerField(choices=DOT_CHOICES, validators=between(*bounds.MERCENARIUM_DOTS))
    right = models.PositiveSmallIntegerField(choices=DOT_CHOICES, validators=between(*bounds.MERCENARIUM_DOTS))
    bottom = models.PositiveSmallIntegerField(choices=DOT_CHOICES, validators=between(*bounds.MERCENARIUM_DOTS))
    left = models.PositiveSmallIntegerField(choices=DOT_CHOICES, validators=between(*bounds.MERCENARIUM_DOTS))

    class Meta:
        ordering = ["suit", "value"]
        verbose_name = "Mercenarium card"
        constraints = [
            check_between("value", *bounds.MERCENARIUM_VALUES, name="mercenarium_value_bounded"),
            *(
                check_between(edge, *bounds.MERCENARIUM_DOTS, name=f"mercenarium_{edge}_dots_bounded")
                for edge in ("top", "right", "bottom", "left")
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def as_engine_card(self) -> dict:
        return {
            "id": self.code,
            "name": self.name,
            "suit": self.suit,
            "value": self.value,
            "aura": [self.top, self.right, self.bottom, self.left],
        }


class MercenariumHymn(CatalogEntry):
    """A hymn: its number (I-XV), name, text and the effect primitives the engine runs."""

    code = models.SlugField(max_length=20, unique=True, help_text="Stable id used in game logs, e.g. H07.")
    number = models.PositiveSmallIntegerField(unique=True, validators=between(*bounds.MERCENARIUM_HYMN_NUMBERS))
    name = models.CharField(max_length=80)
    effect = models.JSONField(help_text='Effect primitives, e.g. {"primitive": "draw", "count": 2}.')
    text = models.TextField()

    class Meta:
        ordering = ["number"]
        verbose_name = "Mercenarium hymn"
        constraints = [check_between("number", *bounds.MERCENARIUM_HYMN_NUMBERS, name="mercenarium_hymn_bounded")]

    def __str__(self) -> str:
        return self.name

    def as_engine_hymn(self) -> dict:
        return {"id": self.code, "number": self.number, "name": self.name, "effect": self.effect, "text": self.text}


class DungeonCard(CatalogEntry):
    """A card of the Mercenaries dungeon deck-builder: monster, skill, ability, area feature, ambush or mercenary.

    ``stats`` holds the numbers the engine reads (see ``tabletop/engines/dungeon/cards.py``), e.g. a
    monster's ``{"type": "melee", "champion": false, "health": 2, "melee": 2, "ranged": 0, "defence": 0,
    "exp": 1, "mvp": 1, "copies": 18}``.
    """

    class Kind(models.TextChoices):
        MONSTER = "monster", "Monster"
        SKILL = "skill", "Skill"
        ABILITY = "ability", "Ability"
        AREA_FEATURE = "area_feature", "Area feature"
        AMBUSH = "ambush", "Ambush"
        MERCENARY = "mercenary", "Mercenary"

    code = models.SlugField(max_length=40, unique=True, help_text="Stable id used in game logs, e.g. goblin.")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    name = models.CharField(max_length=80)
    stats = models.JSONField(default=dict, blank=True, validators=[validate_dungeon_stats])
    text = models.TextField(blank=True)

    class Meta:
        ordering = ["kind", "name"]
        verbose_name = "dungeon card"
        constraints = [
            models.CheckConstraint(
                condition=Q(stats__copies__lte=bounds.MAX_CARD_COPIES), name="dungeon_card_copies_bounded"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def as_engine_card(self) -> dict:
        return {
            "code": self.code,
            "kind": self.kind,
            "name": self.name,
            "stats": dict(self.stats or {}),
            "text": self.text,
        }


class DungeonAdventure(CatalogEntry):
    """An adventure of the dungeon deck-builder: what the set-up deals (see ``engines/dungeon/adventure.py``).

    The monster table per game type, the ambushes shuffled into each half of the Monster Deck, the
    champion, each mercenary's starting deck, the Resource Area stacks and the Area Feature deck; the
    cards themselves are ``DungeonCard`` rows, named here by code. A new table snapshots it.
    """

    code = models.SlugField(max_length=40, unique=True, help_text="Stable id, e.g. distelblute-mansion.")
    name = models.CharField(max_length=80)
    text = models.TextField(blank=True)
    monster_table = models.JSONField(
        help_text='Monsters per game type, e.g. {"competitive-4": {"goblin": 10}, "competitive-3": {...}, '
                  '"cooperative-4": {...}, "cooperative-3": {...}}.')
    ambush_top = models.JSONField(default=list, blank=True,
                                  help_text='Ambush codes shuffled into the top half, e.g. ["ambush-goblin"].')
    ambush_bottom = models.JSONField(default=list, blank=True, help_text="Ambush codes shuffled into the bottom half.")
    champion = models.CharField(max_length=40, blank=True, help_text="Shuffled into the bottom ten cards; empty: none.")
    starting_deck = models.JSONField(help_text='Each mercenary\'s deck, e.g. [["basic-melee", 6], ["basic-block", 4]].')
    resource = models.JSONField(default=list, blank=True, help_text="Codes of the Resource Area stacks.")
    area_features = models.JSONField(null=True, blank=True,
                                     help_text='e.g. {"empty-area": 2}; empty: every area feature card, its copies.')

    class Meta:
        ordering = ["name"]
        verbose_name = "dungeon adventure"

    def __str__(self) -> str:
        return self.name

    def as_engine_adventure(self) -> dict:
        adventure = {
            "code": self.code, "name": self.name, "text": self.text, "monster_table": self.monster_table,
            "ambush_top": list(self.ambush_top or []), "ambush_bottom": list(self.ambush_bottom or []),
            "champion": self.champion, "starting_deck": self.starting_deck, "resource": list(self.resource or []),
        }
        if self.area_features:
            adventure["area_features"] = self.area_features
        return adventure
