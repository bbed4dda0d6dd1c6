"""Admin for campaigns, members, days, accounts and the ledger.

The ledger is append-only (``campaign.ledger``, its one writer): entries can be looked at,
never added, changed or deleted here. A correction is a new GM adjustment.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet, Sum
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .models import Account, Activity, Campaign, Day, LedgerEntry, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    fields = ("user", "role", "character_name", "joined_at")
    readonly_fields = ("joined_at",)
    autocomplete_fields = ("user",)
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "current_day", "allow_credit", "desertion", "day_end_time", "created_at",
                    "being_imported")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    fieldsets = (
        (None, {"fields": ("name", "slug", "description", "current_day")}),
        ("Economy", {"fields": ("allow_credit", "desertion", "day_end_time")}),
    )
    inlines = [MembershipInline]

    @admin.display(boolean=True, description=_("being imported"))
    def being_imported(self, campaign: Campaign) -> bool:
        """Still being written by an archive's import: nobody sees it until it ends (archive/importer.py)."""
        return campaign.importing_at is not None


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "campaign", "role", "character_name", "joined_at")
    list_filter = ("campaign", "role")
    search_fields = ("user__username", "character_name", "campaign__name")
    list_select_related = ("user", "campaign")
    autocomplete_fields = ("user",)


@admin.register(Day)
class DayAdmin(admin.ModelAdmin):
    list_display = ("campaign", "number", "opened_at", "closed_at")
    list_filter = ("campaign",)
    list_select_related = ("campaign",)
    readonly_fields = ("opened_at",)


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "owner", "balance", "created_at")
    list_filter = ("campaign",)
    search_fields = ("name",)
    list_select_related = ("campaign", "owner__user", "owner__campaign")
    readonly_fields = ("balance",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Account]:
        return super().get_queryset(request).annotate(total=Sum("entries__amount"))

    @admin.display(description=_("balance"), ordering="total")
    def balance(self, account: Account) -> int:
        return getattr(account, "total", None) or 0

    def has_delete_permission(self, request: HttpRequest, obj: Account | None = None) -> bool:
        return False


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    """Append-only: view only."""

    list_display = ("created_at", "account", "day", "kind", "amount", "reason", "cause_type", "cause_id", "created_by")
    list_filter = ("kind", "account__campaign")
    search_fields = ("reason", "account__name")
    list_select_related = ("account", "created_by")
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: LedgerEntry | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: LedgerEntry | None = None) -> bool:
        return False


@admin.register(Activity)
class ActivityAdmin(admin.ModelAdmin):
    """The GM activity log is append-only: view only."""

    list_display = ("created_at", "campaign", "day", "actor_name", "kind", "summary", "target_type", "target_id")
    list_filter = ("kind", "campaign")
    search_fields = ("summary", "actor_name")
    list_select_related = ("campaign",)
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Activity | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Activity | None = None) -> bool:
        return False
