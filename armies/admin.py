"""Admin for the Army economy: the unit-card catalog (import/export), commanders, rosters, offers,
and read-only lists of settlements, day ends and battles.

Rosters change only through the services (``armies.services``), which record every change
in the unit's history, so units and their history are read-only here.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.decorators import method_decorator
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from tabletop.admin.catalog import STARTER_NOTICE, CatalogAdmin
from tabletop.catalog import CatalogImportError

from .catalog import UNIT_CARDS, unit_catalog_import, unit_catalog_load_starter
from .models import ArmyUnit, Battle, Commander, DayEnd, RecruitOffer, Settlement, UnitCard, UnitEvent

ERRATA_NOTICE = _(
    "Errata never rewrite history: a commander's roster always shows the current card, while every "
    "battle keeps its own snapshot of the cards it was fought with. To retire a card, untick active."
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(UnitCard)
class UnitCardAdmin(CatalogAdmin):
    """The generic catalog admin; traits and abilities travel as JSON text (see ``armies.catalog``)."""

    catalog_spec = UNIT_CARDS
    list_display = ("code", "name", "strength", "role", "path", "upkeep", "price", "source_badge", "active")
    list_display_links = ("code", "name")
    list_filter = ("role", "path", "source", "active")
    search_fields = ("code", "name", "text")
    fields = (
        "code",
        "name",
        "strength",
        "role",
        "path",
        "traits",
        "abilities",
        "upkeep",
        "price",
        "text",
        "active",
        "source",
    )

    notice = format_lazy("{} {}", STARTER_NOTICE, ERRATA_NOTICE)
    starter_description = _("Load or refresh the Army starter unit cards (designed by Muster, not official).")
    starter_button = _("Load starter units")

    def import_rows(self, parsed):
        return unit_catalog_import(rows=parsed.rows, unit=parsed.unit)

    @method_decorator(require_POST)
    def load_starter_view(self, request: HttpRequest) -> HttpResponse:
        self._require(self.can_import(request))
        try:
            report = unit_catalog_load_starter()
        except (CatalogImportError, LookupError) as error:
            problems = error.errors if isinstance(error, CatalogImportError) else [str(error)]
            self.message_user(
                request,
                gettext("The starter units cannot be loaded: %(problems)s") % {"problems": "; ".join(problems)},
                messages.ERROR,
            )
        else:
            self.message_user(
                request,
                gettext("Starter units loaded: %(created)s created, %(updated)s updated, %(unchanged)s unchanged.")
                % {"created": report.created, "updated": report.updated, "unchanged": report.unchanged},
                messages.SUCCESS,
            )
        return HttpResponseRedirect(self._changelist_url())


@admin.register(Commander)
class CommanderAdmin(admin.ModelAdmin):
    """Commanders are created with their treasury by ``commander_create`` (the campaign pages)."""

    list_display = ("name", "campaign", "kind", "role", "path", "membership", "progression")
    list_filter = ("campaign", "kind", "role", "path")
    search_fields = ("name", "campaign__name", "membership__user__username")
    list_select_related = ("campaign", "membership__user", "membership__campaign")
    readonly_fields = ("campaign", "membership", "account", "kind")
    fields = (
        "name",
        "campaign",
        "membership",
        "kind",
        "account",
        "role",
        "path",
        "progression",
        "favors",
        "influence_halves",
        "weapons",
        "shields",
        "alchemy",
        "build_points",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class UnitEventInline(admin.TabularInline):
    model = UnitEvent
    fields = ("day", "kind", "cause", "cause_type", "cause_id", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(ArmyUnit)
class ArmyUnitAdmin(admin.ModelAdmin):
    """Read-only: units change through the services, which write the history shown below."""

    list_display = ("card", "commander", "status", "trained", "joined_day", "left_day")
    list_filter = ("status", "trained", "commander__campaign")
    search_fields = ("card__name", "commander__name")
    list_select_related = ("card", "commander")
    readonly_fields = ("commander", "card", "trained", "status", "joined_day", "left_day")
    fields = readonly_fields
    inlines = [UnitEventInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(RecruitOffer)
class RecruitOfferAdmin(admin.ModelAdmin):
    list_display = ("card", "campaign", "price", "quantity", "sold", "until_day", "quest", "created_at")
    list_filter = ("campaign",)
    search_fields = ("card__name", "quest")
    list_select_related = ("card", "campaign")
    readonly_fields = ("sold", "created_at")


@admin.register(Settlement)
class SettlementAdmin(ReadOnlyAdmin):
    list_display = ("commander", "day", "owed", "paid", "deserted_names", "created_at")
    list_filter = ("commander__campaign", "day")
    list_select_related = ("commander",)

    @admin.display(description=_("deserted"))
    def deserted_names(self, settlement: Settlement) -> str:
        return ", ".join(settlement.deserted) or "—"


@admin.register(DayEnd)
class DayEndAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "day", "status", "done", "total", "started_by", "created_at", "finished_at")
    list_filter = ("campaign", "status")
    list_select_related = ("campaign", "started_by")


@admin.register(Battle)
class BattleAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "campaign",
        "day",
        "attacker",
        "defender",
        "started_at",
        "ended_at",
        "winner",
        "routed",
        "override_reason",
    )
    list_filter = ("campaign", "day")
    list_select_related = ("campaign", "attacker", "defender", "winner", "routed")
