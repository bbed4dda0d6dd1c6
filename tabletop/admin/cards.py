"""Each card catalog's admin (Gridaris, Mercenarium, the dungeon deck-builder), on the shared
``CatalogAdmin`` (tabletop/admin/catalog.py): what each list shows, and the dungeon's own starter data.
"""

from __future__ import annotations

import json

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.decorators import method_decorator
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from ..catalog import (
    DUNGEON_ADVENTURES,
    DUNGEON_CARDS,
    GRIDARIS_CARDS,
    GRIDARIS_SCENARIOS,
    MERCENARIUM_CARDS,
    MERCENARIUM_HYMNS,
    CatalogImportError,
)
from ..catalog.starter_dungeon import dungeon_adventure_load_starter, dungeon_catalog_load_starter
from ..models import DungeonAdventure, DungeonCard, GridarisCard, GridarisScenario, MercenariumCard, MercenariumHymn
from .catalog import CatalogAdmin, invalid_starter


@admin.register(GridarisCard)
class GridarisCardAdmin(CatalogAdmin):
    catalog_spec = GRIDARIS_CARDS
    list_display = ("code", "name", "edges", "tier", "stars", "card_class", "source_badge", "active")
    list_display_links = ("code", "name")
    list_filter = ("tier", "card_class", "source", "active")
    search_fields = ("code", "name")
    fieldsets = (
        (None, {"fields": ("code", "name", "card_class", "tier", "stars", "active", "source")}),
        (_("Edges"), {"fields": (("top", "right", "bottom", "left"),)}),
    )

    @admin.display(description=_("edges ↑ → ↓ ←"))
    def edges(self, card: GridarisCard) -> str:
        return format_html("<code>{} {} {} {}</code>", card.top, card.right, card.bottom, card.left)


@admin.register(GridarisScenario)
class GridarisScenarioAdmin(CatalogAdmin):
    catalog_spec = GRIDARIS_SCENARIOS
    list_display = ("key", "name", "text", "source_badge", "active")
    list_display_links = ("key", "name")
    list_filter = ("source", "active")
    search_fields = ("key", "name", "text")


@admin.register(MercenariumCard)
class MercenariumCardAdmin(CatalogAdmin):
    catalog_spec = MERCENARIUM_CARDS
    starter_description = _(
        "Load or refresh every starter catalog, Mercenarium cards and hymns included (not official)."
    )
    list_display = ("code", "name", "suit", "value", "dots", "source_badge", "active")
    list_display_links = ("code", "name")
    list_filter = ("suit", "source", "active")
    search_fields = ("code", "name")
    fieldsets = (
        (None, {"fields": ("code", "name", "suit", "value", "active", "source")}),
        (_("Aura dots (relative to the owner)"), {"fields": (("top", "right", "bottom", "left"),)}),
    )

    @admin.display(description=_("dots ↑ → ↓ ←"))
    def dots(self, card: MercenariumCard) -> str:
        return format_html("<code>{} {} {} {}</code>", card.top, card.right, card.bottom, card.left)


@admin.register(MercenariumHymn)
class MercenariumHymnAdmin(CatalogAdmin):
    catalog_spec = MERCENARIUM_HYMNS
    starter_description = MercenariumCardAdmin.starter_description
    list_display = ("number", "name", "text", "source_badge", "active")
    list_display_links = ("number", "name")
    list_filter = ("source", "active")
    search_fields = ("code", "name", "text")


@admin.register(DungeonCard)
class DungeonCardAdmin(CatalogAdmin):
    """Monsters, skills, abilities, area features, ambushes and mercenaries of the dungeon deck-builder."""

    catalog_spec = DUNGEON_CARDS
    starter_description = _(
        "Load or refresh the Distelblute Mansion starter cards (designed by Muster, not official)."
    )
    list_display = ("code", "name", "kind", "stats_summary", "source_badge", "active")
    list_display_links = ("code", "name")
    list_filter = ("kind", "source", "active")
    search_fields = ("code", "name", "text")
    fieldsets = ((None, {"fields": ("code", "kind", "name", "stats", "text", "active", "source")}),)

    @admin.display(description=_("stats"))
    def stats_summary(self, card: DungeonCard) -> str:
        return format_html("<code>{}</code>", json.dumps(card.stats, ensure_ascii=False)[:80])

    @method_decorator(require_POST)
    def load_starter_view(self, request: HttpRequest) -> HttpResponse:
        self._require(self.can_import(request))
        try:
            report = dungeon_catalog_load_starter()
        except CatalogImportError as error:
            self.message_user(request, invalid_starter(error), messages.ERROR)
        else:
            loaded = gettext("Starter catalog loaded. %(report)s") % {"report": report.summary(DUNGEON_CARDS.noun)}
            self.message_user(request, loaded, messages.SUCCESS)
        return HttpResponseRedirect(self._changelist_url())


@admin.register(DungeonAdventure)
class DungeonAdventureAdmin(CatalogAdmin):
    """Adventures of the dungeon deck-builder: what a new table deals (monster table, ambushes, champion, decks)."""

    catalog_spec = DUNGEON_ADVENTURES
    starter_description = _("Load or refresh the starter adventure, The Distelblute Mansion (designed by Muster).")
    list_display = ("name", "code", "champion", "source_badge", "active")
    list_display_links = ("name", "code")
    list_filter = ("source", "active")
    search_fields = ("code", "name", "text")

    @method_decorator(require_POST)
    def load_starter_view(self, request: HttpRequest) -> HttpResponse:
        self._require(self.can_import(request))
        try:
            report = dungeon_adventure_load_starter()
        except CatalogImportError as error:
            self.message_user(request, invalid_starter(error), messages.ERROR)
        else:
            summary = report.summary(DUNGEON_ADVENTURES.noun)
            loaded = gettext("Starter adventure loaded. %(report)s") % {"report": summary}
            self.message_user(request, loaded, messages.SUCCESS)
        return HttpResponseRedirect(self._changelist_url())
