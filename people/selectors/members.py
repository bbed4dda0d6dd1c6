"""People reads about members: a user's membership of a campaign, who also plays where a GM does not run
(``members_elsewhere``: no reset link from that GM), and the GM's members page, read in a fixed number of
queries whatever the number of members.

Five queries: the members with their users, their commanders, the open tables that count where each
holds a seat, the battles that have not ended (a commander in one is not handed on, ruling MB5), and
the members who also belong to a campaign the viewing GM does not run (no reset link from this GM for
them, issue 34: the row says why instead of offering the button).

A row offers only what can work (issue 35): its role button and reset link are withheld, with the
service's own sentence, where the service would refuse them. The sentence comes from the rule the
service refuses by (``role_kind_refusal``, ``reset_link_refusal``), asked with the facts read above, so
the rule is written once and the page stays at five queries. Those rules and the digests a member's
forms carry (``member_digest``, ``runner_digest``) are reads, so they live here and the services
(``services/members.py``, ``services/resets.py``) import them: this page loads no write module.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from armies.models import Battle, Commander
from campaign.activity import Line, listed
from campaign.models import Campaign, Membership
from muster.forms import values_digest
from tabletop.models import Seat, Table

GM = Membership.Role.GM
PLAYER = Membership.Role.PLAYER
NAMED = 4  # how many tables, battles or commanders a refusal names before "and N more"


def member_of(user, campaign: Campaign | int) -> Membership | None:
    """``user``'s membership of ``campaign`` (with the campaign), or None: a visitor or no member."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(user=user, campaign=campaign).select_related("campaign").first()


def members_elsewhere(*, gm, user_ids) -> QuerySet:
    """The ids of the users among ``user_ids`` (ids or a subquery) who are members of some campaign
    that ``gm`` does not run as a GM: a reset link from ``gm`` would open that campaign to them too.
    One query whatever the number of users."""
    runs = Membership.objects.filter(user=gm, role=Membership.Role.GM).values("campaign_id")
    return (
        Membership.objects.filter(user_id__in=user_ids)
        .exclude(campaign_id__in=runs)
        .values_list("user_id", flat=True)
        .distinct()
    )


def plays_elsewhere_sentence(name: str) -> str:
    """Why ``gm`` makes no reset link for ``name``: shown on the link page and on the members page."""
    return _(
        "%(name)s also plays in a campaign you do not run, so only staff (or %(name)s, on their own account "
        "page) can change their password: ask staff for a reset link."
    ) % {"name": name}


def member_digest(membership: Membership) -> str:
    """What a member's row showed that a role change or a removal depends on: the form carries it."""
    return values_digest({"member": membership.pk, "role": membership.role})


def runner_digest(commander: Commander) -> str:
    """Who ran the commander when its hand-over form was made: the form carries it."""
    return values_digest({"commander": commander.pk, "membership": commander.membership_id, "kind": commander.kind})


def _listed(names: Iterable[str], both, more) -> str:
    names = list(names)
    shown, extra = names[:NAMED], len(names) - NAMED
    if extra > 0:
        return more(", ".join(shown), extra)
    if len(shown) <= 1:
        return "".join(shown)
    return both(", ".join(shown[:-1]), shown[-1])


def names_listed(names: Iterable[str]) -> str | Line:
    """'A', 'A and B', 'A, B and C', 'A, B, C, D and 2 more': the activity log's words."""
    names = list(names)
    if len(names) > NAMED:
        more = len(names) - NAMED
        return Line(gettext_noop("%(names)s and %(more)s more"), names=", ".join(names[:NAMED]), more=more)
    return listed(names) if names else ""


def names_said(names: Iterable[str]) -> str:
    """``names_listed`` in the request's language: a refusal's words."""
    return _listed(
        names,
        lambda first, last: _("%(names)s and %(last)s") % {"names": first, "last": last},
        lambda first, more: ngettext("%(names)s and %(more)d more", "%(names)s and %(more)d more", more)
        % {"names": first, "more": more},
    )


def role_kind_refusal(member: Membership, role: str, runs: Iterable[tuple[str, str]]) -> str | None:
    """Why ``member``, running the commanders ``runs`` ((name, kind) pairs, by name), cannot be made
    ``role`` (ruling MB2: a GM runs no PC, a player no NPC), or None. The service refuses with it, and the
    members page shows it in place of the button (issue 35), so the rule is written once."""
    wrong_kind = Commander.Kind.PC if role == GM else Commander.Kind.NPC
    held = [name for name, kind in runs if kind == wrong_kind]
    if not held:
        return None
    words = {"member": member.display_name, "commanders": names_said(held)}
    if role == GM:
        return ngettext(
            "%(member)s runs %(commanders)s: player characters (a GM's commanders are NPCs). Hand it to another "
            "member first, then change the role.",
            "%(member)s runs %(commanders)s: player characters (a GM's commanders are NPCs). Hand them to another "
            "member first, then change the role.",
            len(held),
        ) % words
    return ngettext(
        "%(member)s runs %(commanders)s: NPCs (a player runs PCs). Hand it to another member first, then change "
        "the role.",
        "%(member)s runs %(commanders)s: NPCs (a player runs PCs). Hand them to another member first, then change "
        "the role.",
        len(held),
    ) % words


def common_reset_refusal(maker, user, who: str) -> str | None:
    """Why ``maker`` (a GM or staff) may make no reset link for ``user`` (called ``who``) whoever they are,
    or None: it is the maker's own account, or a switched-off one."""
    if user.pk == maker.pk:
        return _("That is you: change your own password on Your account.")
    if not user.is_active:
        return _("%(name)s's account is switched off; staff can switch it on in the admin.") % {"name": who}
    return None


def reset_link_refusal(
    *, gm, membership: Membership, gm_here: bool | None = None, plays_elsewhere: bool | None = None
) -> str | None:
    """Why ``gm`` may not make a reset link for ``membership``'s user (a sentence), or None when they may.

    The members page asks it for every row (issue 35), passing what it read for all rows at once: whether
    ``gm`` is a GM of the campaign (``gm_here``) and whether the member plays where ``gm`` is no GM
    (``plays_elsewhere``); left None, each is a query of its own here."""
    if gm_here is None:
        gm_here = Membership.objects.filter(user=gm, campaign=membership.campaign, role=Membership.Role.GM).exists()
    if not gm_here:
        return _("Only the campaign's GM can make a reset link for its members.")
    user, who = membership.user, membership.display_name
    refusal = common_reset_refusal(gm, user, who)
    if refusal:
        return refusal
    if user.is_staff or user.is_superuser:
        return _("%(name)s is a staff member: only staff can make a reset link for them.") % {"name": who}
    if membership.role == Membership.Role.GM:  # GMs are peers: none takes over another's account
        return _(
            "%(name)s is a GM too: only staff can make a reset link for them (or they change it on Your account)."
        ) % {"name": who}
    if plays_elsewhere is None:
        plays_elsewhere = members_elsewhere(gm=gm, user_ids=[user.pk]).exists()
    if plays_elsewhere:
        return plays_elsewhere_sentence(who)
    return None


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
