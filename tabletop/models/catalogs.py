"""The card catalogs the games deal from: Gridaris cards and scenarios, Mercenarium cards and hymns, the
dungeon deck-builder's cards and adventures. Each is a ``CatalogEntry`` (starter data labelled as such, an
inactive card kept but not dealt); a new table snapshots what it deals (tabletop/catalog/snapshot.py).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaign import bounds
from campaign.bounds import between, check_between


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


class CatalogEntry(models.Model):
    """Common to every card catalog: starter data is labelled as such."""

    class Source(models.TextChoices):
        STARTER = "starter", _("Starter data (designed by Muster, not official)")
        IMPORTED = "imported", _("Imported")
        CUSTOM = "custom", _("Entered by hand")

    source = models.CharField(max_length=10, choices=Source.choices, default=Source.CUSTOM)
    active = models.BooleanField(default=True, help_text=_("Inactive cards are kept but not dealt in new games."))

    class Meta:
        abstract = True


class GridarisCard(CatalogEntry):
    class Tier(models.TextChoices):
        SILVER = "silver", _("Silver")
        GOLD = "gold", _("Gold")

    class Class(models.TextChoices):
        CHEESE = "Cheese People", "Cheese People"
        MOPS = "Mops", "Mops"
        WIZARDS = "Wizards", "Wizards"
        MONSTERS = "Monsters", "Monsters"
        VOIDLINGS = "Voidlings", "Voidlings"
        BUSINESS = "Business Drones", "Business Drones"

    EDGE_CHOICES = [(str(value), str(value)) for value in range(1, 10)] + [("A", "A (Ace)")]

    code = models.SlugField(max_length=20, unique=True, help_text=_("Stable id used in game logs, e.g. s01."))
    name = models.CharField(max_length=80)
    card_class = models.CharField(_("class"), max_length=20, choices=Class.choices)
    tier = models.CharField(max_length=6, choices=Tier.choices)
    stars = models.PositiveSmallIntegerField(validators=between(*bounds.GRIDARIS_STARS))
    top = models.CharField(max_length=1, choices=EDGE_CHOICES)
    right = models.CharField(max_length=1, choices=EDGE_CHOICES)
    bottom = models.CharField(max_length=1, choices=EDGE_CHOICES)
    left = models.CharField(max_length=1, choices=EDGE_CHOICES)

    class Meta:
        ordering = ["tier", "code"]
        verbose_name = _("Gridaris card")
        verbose_name_plural = _("Gridaris cards")
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
        verbose_name = _("Gridaris scenario")
        verbose_name_plural = _("Gridaris scenarios")

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

    code = models.SlugField(max_length=20, unique=True, help_text=_("Stable id used in game logs, e.g. C14."))
    name = models.CharField(max_length=80)
    suit = models.CharField(max_length=1, choices=Suit.choices)
    value = models.PositiveSmallIntegerField(choices=VALUE_CHOICES, validators=between(*bounds.MERCENARIUM_VALUES))
    top = models.PositiveSmallIntegerField(choices=DOT_CHOICES, validators=between(*bounds.MERCENARIUM_DOTS))
    right = models.PositiveSmallIntegerField(choices=DOT_CHOICES, validators=between(*bounds.MERCENARIUM_DOTS))
    bottom = models.PositiveSmallIntegerField(choices=DOT_CHOICES, validators=between(*bounds.MERCENARIUM_DOTS))
    left = models.PositiveSmallIntegerField(choices=DOT_CHOICES, validators=between(*bounds.MERCENARIUM_DOTS))

    class Meta:
        ordering = ["suit", "value"]
        verbose_name = _("Mercenarium card")
        verbose_name_plural = _("Mercenarium cards")
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

    code = models.SlugField(max_length=20, unique=True, help_text=_("Stable id used in game logs, e.g. H07."))
    number = models.PositiveSmallIntegerField(unique=True, validators=between(*bounds.MERCENARIUM_HYMN_NUMBERS))
    name = models.CharField(max_length=80)
    effect = models.JSONField(help_text=_('Effect primitives, e.g. {"primitive": "draw", "count": 2}.'))
    text = models.TextField()

    class Meta:
        ordering = ["number"]
        verbose_name = _("Mercenarium hymn")
        verbose_name_plural = _("Mercenarium hymns")
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
        MONSTER = "monster", _("Monster")
        SKILL = "skill", _("Skill")
        ABILITY = "ability", _("Ability")
        AREA_FEATURE = "area_feature", _("Area feature")
        AMBUSH = "ambush", _("Ambush")
        MERCENARY = "mercenary", _("Mercenary")

    code = models.SlugField(max_length=40, unique=True, help_text=_("Stable id used in game logs, e.g. goblin."))
    kind = models.CharField(max_length=20, choices=Kind.choices)
    name = models.CharField(max_length=80)
    stats = models.JSONField(default=dict, blank=True, validators=[validate_dungeon_stats])
    text = models.TextField(blank=True)

    class Meta:
        ordering = ["kind", "name"]
        verbose_name = _("dungeon card")
        verbose_name_plural = _("dungeon cards")
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

    code = models.SlugField(max_length=40, unique=True, help_text=_("Stable id, e.g. distelblute-mansion."))
    name = models.CharField(max_length=80)
    text = models.TextField(blank=True)
    monster_table = models.JSONField(
        help_text=_('Monsters per game type, e.g. {"competitive-4": {"goblin": 10}, "competitive-3": {...}, '
                    '"cooperative-4": {...}, "cooperative-3": {...}}.'))
    ambush_top = models.JSONField(default=list, blank=True,
                                  help_text=_('Ambush codes shuffled into the top half, e.g. ["ambush-goblin"].'))
    ambush_bottom = models.JSONField(default=list, blank=True,
                                     help_text=_("Ambush codes shuffled into the bottom half."))
    champion = models.CharField(max_length=40, blank=True,
                                help_text=_("Shuffled into the bottom ten cards; empty: none."))
    starting_deck = models.JSONField(
        help_text=_('Each mercenary\'s deck, e.g. [["basic-melee", 6], ["basic-block", 4]].'))
    resource = models.JSONField(default=list, blank=True, help_text=_("Codes of the Resource Area stacks."))
    area_features = models.JSONField(null=True, blank=True,
                                     help_text=_('e.g. {"empty-area": 2}; empty: every area feature card, its copies.'))

    class Meta:
        ordering = ["name"]
        verbose_name = _("dungeon adventure")
        verbose_name_plural = _("dungeon adventures")

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
