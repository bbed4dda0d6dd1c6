"""The GM's members page, read in a fixed number of queries whatever the number of members.

Five queries: the members with their users, their commanders, the open tables that count where each
holds a seat, the battles that have not ended (a commander in one is not handed on, ruling MB5), and
the members who also belong to a campaign the viewing GM does not run (no reset link from this GM for
them, issue 34: the row says why instead of offering the button).

A row offers only what can work (issue 35): its role button and reset link are withheld, with the
service's own sentence, where the service would refuse them. The sentence comes from the service's rule
itself (``role_kind_refusal``, ``reset_link_refusal``) asked with the facts read above, so the rule is
written once and the page stays at five queries.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch

from armies.models import Battle, Commander
from campaign.models import Campaign, Membership
from tabletop.models import Seat, Table

from .selectors import members_elsewhere
from .services.members import GM, PLAYER, member_digest, role_kind_refusal, runner_digest
from .services.resets import reset_link_refusal


@dataclass
class CommanderRow:
    commander: Commander
    digest: str
    battle: int | None  # the battle it is in that has not ended


@dataclass
class MemberRow:
    member: Membership
    digest: str
    commanders: list[CommanderRow] = field(default_factory=list)
    open_tables: list[str] = field(default_factory=list)
    no_reset: str = ""  # why the viewing GM makes no reset link for this member ("" when they may)
    no_role_change: str = ""  # why the member cannot take the other role now (MB2; "" when they can)


def member_rows(campaign: Campaign, *, gm) -> list[MemberRow]:
    """Every member of ``campaign``: GMs first, then by name; each with commanders and open tables, as
    ``gm`` (the viewing GM) sees them."""
    commanders = Commander.objects.order_by("name", "pk").only(
        "pk", "name", "kind", "membership_id", "retired_day", "campaign_id"
    )
    members = list(
        Membership.objects.filter(campaign=campaign)
        .select_related("user")
        .prefetch_related(Prefetch("commanders", queryset=commanders))
        .order_by("role", "character_name", "user__username", "pk")
    )
    seats = (
        Seat.objects.filter(table__campaign=campaign, table__status=Table.Status.ACTIVE, table__what_if=False)
        .exclude(membership__isnull=True)
        .order_by("table__created_at", "table_id")
        .values_list("membership_id", "table__title")
    )
    tables: dict[int, list[str]] = defaultdict(list)
    for membership_id, title in seats:
        if title not in tables[membership_id]:
            tables[membership_id].append(title)
    unfinished = Battle.objects.filter(campaign=campaign, ended_at__isnull=True, abandoned_at__isnull=True)
    in_battle: dict[int, int] = {}
    for pk, attacker, defender in unfinished.order_by("-pk").values_list("pk", "attacker_id", "defender_id"):
        in_battle[attacker] = in_battle[defender] = pk
    in_campaign = Membership.objects.filter(campaign=campaign).values("user_id")
    elsewhere = set(members_elsewhere(gm=gm, user_ids=in_campaign))
    gm_here = any(member.user_id == gm.pk and member.role == GM for member in members)
    rows = []
    for member in members:
        row = MemberRow(member=member, digest=member_digest(member), open_tables=tables.get(member.pk, []))
        row.no_reset = reset_link_refusal(
            gm=gm, membership=member, gm_here=gm_here, plays_elsewhere=member.user_id in elsewhere
        ) or ""
        for commander in member.commanders.all():
            commander.membership = member  # the name in the hand-over form, without a query per commander
            row.commanders.append(CommanderRow(commander, runner_digest(commander), in_battle.get(commander.pk)))
        other_role = PLAYER if member.role == GM else GM
        runs = [(line.commander.name, line.commander.kind) for line in row.commanders]
        row.no_role_change = role_kind_refusal(member, other_role, runs) or ""
        rows.append(row)
    rows.sort(key=lambda row: (row.member.role != Membership.Role.GM, row.member.display_name.casefold()))
    return rows


def gm_count(rows: list[MemberRow]) -> int:
    return sum(1 for row in rows if row.member.role == Membership.Role.GM)
