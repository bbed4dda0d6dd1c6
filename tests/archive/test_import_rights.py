"""What an archive import may and may not change (issue 34, part A; docs/operations.md).

An outside attack: a stranger who may start campaigns added a ``member`` record naming an existing account
(``admin``, another campaign's player) to an archive, signed it again and uploaded it: the account became a
member of the stranger's campaign, whose GM then made it a reset link. Here every member but the importer
becomes a claim invite; the shared unit catalog is not written by anyone but staff (and then only with
inactive cards); an imported invite is held to the invite form's bounds.
"""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from archive.format import ArchiveRefused
from archive.importer import campaign_import
from armies.catalog import unit_catalog_load_starter
from armies.forms.recruiting import OfferForm
from armies.models import ArmyUnit, Commander, RecruitOffer, UnitCard, UnitEvent
from campaign.models import Campaign, Membership
from people.models import MAX_INVITE_DAYS, Invite

from tests.archive._helpers import upload
from tests.armies.factories import ArmyUnitFactory, CommanderFactory, UnitCardFactory
from tests.factories import CampaignFactory, MembershipFactory
from tests.forms import assert_answered

pytestmark = pytest.mark.django_db


def memberships(*users) -> set[tuple[str, int, str]]:
    return set(Membership.objects.filter(user__in=users).values_list("user__username", "campaign_id", "role"))


def naming(*names: str, role: str = "gm"):
    """``archives.rewrite`` change: a member record for each of ``names`` (accounts here) added."""
    def change(records):
        at = max(i for i, r in enumerate(records) if r["kind"] == "member") + 1
        for n, name in enumerate(names):
            records.insert(at + n, {"kind": "member", "id": 990_000 + n, "username": name, "display_name": name,
                                    "character_name": "", "role": role, "joined_at": "2024-01-01T00:00:00+00:00"})
    return change


# ------------------------------------------------------------------------------------------ members


def test_an_archive_naming_admin_and_another_campaigns_player_makes_neither_a_member(
        client, full_campaign, exported, archives, settings):
    """The attack, through the upload page: the stranger's new campaign holds only the stranger."""
    settings.CAMPAIGN_CREATORS = "everyone"
    world = full_campaign
    carol = MembershipFactory(campaign=CampaignFactory(slug="elsewhere"), user__username="carol").user
    everyone = (world.staff, carol, world.ann.user, world.ben.user, world.gm.user, world.outsider)
    before = memberships(*everyone)
    data = archives.rewrite(exported(world.campaign), naming("staff", "carol"))
    client.force_login(world.outsider)
    response = upload(client, data)
    assert response.status_code < 500
    copy = Campaign.objects.get(slug="siege-2")
    assert memberships(*everyone) - before == {("outsider", copy.pk, "gm")}
    assert set(copy.memberships.values_list("user__username", flat=True)) == {"outsider"}
    # the members page offers no reset link for anyone but its GM: the named accounts are no members
    page = client.get(reverse("people:members", args=[copy.slug]))
    assert page.status_code == 200 and "outsider" in page.content.decode()
    own = str(copy.memberships.get().pk)
    assert set(re.findall(r"/members/(\d+)/reset/", page.content.decode())) <= {own}
    for user in (world.staff, carol, world.ann.user, world.gm.user):
        assert not Membership.objects.filter(campaign=copy, user=user).exists()
    # each named person has an invite to claim their place, which only they can choose to use
    claims = Invite.objects.filter(campaign=copy, max_uses=1, created_by=world.outsider)
    assert claims.filter(role="gm").count() == 3  # the archive's gm, staff and carol
    assert claims.filter(role="player").count() == 2  # ann and ben


def test_importing_twice_adds_no_one(full_campaign, exported, imported):
    world = full_campaign
    data = exported(world.campaign)
    before = memberships(world.ann.user, world.ben.user)
    for _ in range(2):
        copy = imported(data, world.gm.user)
        assert set(copy.memberships.values_list("user__username", flat=True)) == {"gm"}
    assert memberships(world.ann.user, world.ben.user) == before


def test_the_command_line_makes_claims_too(full_campaign, exported, archives, tmp_path):
    world = full_campaign
    path = tmp_path / "siege.muster.jsonl.gz"
    path.write_bytes(archives.rewrite(exported(world.campaign), naming("staff")))
    out = io.StringIO()
    call_command("campaign_import", str(path), "--as", "outsider", stdout=out)
    copy = Campaign.objects.get(slug="siege-2")
    assert set(copy.memberships.values_list("user__username", flat=True)) == {"outsider"}
    assert "staff" in out.getvalue() and "gm" in out.getvalue()


def test_a_member_named_twice_is_refused(full_campaign, exported, imported, archives):
    world = full_campaign
    data = archives.rewrite(exported(world.campaign), naming("ann", role="player"))
    with pytest.raises(ArchiveRefused, match="holds the member 'ann' twice"):
        imported(data, world.gm.user)


# ------------------------------------------------------------------------------------------ invites


def only_invite(records) -> dict:
    return next(r for r in records if r["kind"] == "invite")


def test_an_imported_gm_invite_opens_for_one_person(full_campaign, exported, imported, archives):
    world = full_campaign
    data = archives.rewrite(exported(world.campaign), lambda records: only_invite(records).update(
        role="gm", uses_left=100))
    copy = imported(data, world.gm.user)
    imported_invite = Invite.objects.filter(campaign=copy).order_by("pk").first()
    assert (imported_invite.role, imported_invite.max_uses) == ("gm", 1)


def test_an_imported_invite_open_until_9999_closes_within_the_forms_days(full_campaign, exported, imported, archives):
    world = full_campaign
    data = archives.rewrite(exported(world.campaign), lambda records: only_invite(records).update(
        expires_at="9999-12-31T00:00:00+00:00"))
    before = timezone.now()
    copy = imported(data, world.gm.user)
    invite = Invite.objects.filter(campaign=copy).order_by("pk").first()
    assert (invite.role, invite.max_uses) == ("player", 3)  # a player invite keeps its uses
    assert before < invite.expires_at <= timezone.now() + timedelta(days=MAX_INVITE_DAYS)


def test_an_invite_past_the_forms_uses_is_refused(full_campaign, exported, imported, archives):
    world = full_campaign
    data = archives.rewrite(exported(world.campaign), lambda records: only_invite(records).update(uses_left=101))
    with pytest.raises(ArchiveRefused, match="uses_left 101"):
        imported(data, world.gm.user)


# ------------------------------------------------------------------------------------------ the unit catalog


@pytest.fixture
def army(world):
    """Ann's commander with a unit of a catalog card: the campaign an archive of unit cards comes from."""
    vey = CommanderFactory(membership=world.ann, name="Lady Vey")
    card = UnitCardFactory(code="pikemen", name="Pikemen", strength=3, upkeep=2, price=10)
    ArmyUnitFactory(commander=vey, card=card)
    return card


def free_dragons(records):
    card = next(r for r in records if r["kind"] == "unit_card")
    card.update(code="free-dragons", name="Free Dragons", strength=9, price=0, upkeep=0)


def test_a_card_the_catalog_lacks_is_refused_for_a_gm_and_nothing_is_written(army, world, exported, archives):
    data = archives.rewrite(exported(world.campaign), free_dragons)
    rows = archives.rows()
    with pytest.raises(ArchiveRefused, match="“Free Dragons” \\(free-dragons\\) is not in this site's unit catalog"):
        campaign_import(io.BytesIO(data), importer=world.outsider)
    assert archives.rows() == rows
    assert not UnitCard.objects.filter(name="Free Dragons").exists()


def test_a_card_that_differs_from_the_catalogs_is_refused_saying_what_differs(army, world, exported, archives):
    def stronger(records):
        next(r for r in records if r["kind"] == "unit_card").update(strength=9, price=0)
    data = archives.rewrite(exported(world.campaign), stronger)
    with pytest.raises(ArchiveRefused) as refused:
        campaign_import(io.BytesIO(data), importer=world.outsider)
    assert "“Pikemen” (pikemen) differs" in refused.value.sentence
    assert "strength 9 in the archive, 3 here" in refused.value.sentence
    assert "price 0 in the archive, 10 here" in refused.value.sentence
    assert UnitCard.objects.get(code="pikemen").strength == 3


def test_a_matching_card_is_used_and_the_catalog_is_not_written(army, world, exported):
    cards = list(UnitCard.objects.order_by("pk").values())
    copy = campaign_import(io.BytesIO(exported(world.campaign)), importer=world.outsider)
    assert list(UnitCard.objects.order_by("pk").values()) == cards
    assert ArmyUnit.objects.get(commander__campaign=copy).card_id == army.pk


def test_staff_import_keeps_a_new_card_for_that_campaign_offered_to_no_gm(army, world, exported, archives):
    data = archives.rewrite(exported(world.campaign), free_dragons)
    copy = campaign_import(io.BytesIO(data), importer=world.staff)
    dragons = UnitCard.objects.get(code="free-dragons")
    assert (dragons.active, dragons.source, dragons.strength) == (False, "imported", 9)
    assert ArmyUnit.objects.get(commander__campaign=copy).card == dragons
    assert dragons not in OfferForm.base_fields["card"].queryset  # no GM is offered it


def test_an_empty_catalog_is_given_the_starter_units_so_a_campaign_played_with_them_imports(world, exported):
    unit_catalog_load_starter()
    starter = UnitCard.objects.order_by("code").first()
    vey = CommanderFactory(membership=world.ann, name="Lady Vey")
    ArmyUnitFactory(commander=vey, card=starter)
    data = exported(world.campaign)
    UnitEvent.objects.all().delete()
    ArmyUnit.objects.all().delete()
    RecruitOffer.objects.all().delete()
    Commander.objects.all().delete()
    UnitCard.objects.all().delete()  # a fresh instance: nobody loaded the catalog yet
    copy = campaign_import(io.BytesIO(data), importer=world.outsider)
    unit = ArmyUnit.objects.select_related("card").get(commander__campaign=copy)
    assert unit.card.code == starter.code and unit.card.source == "starter"
    assert UnitCard.objects.filter(source="starter").count() > 1


# ------------------------------------------------------------------------------------------ fuzz of the upload

HOSTILE = {
    "admin named": naming("staff"),
    "another campaign's GM and players named": naming("gm", "ann", "ben", role="player"),
    "a path for a name": lambda records: records.insert(1, {**next(r for r in records if r["kind"] == "member"),
                                                            "id": 990_001, "username": "../staff"}),
    "a NUL in a name": naming("staff\x00"),
    "a look-alike name": naming("stаff"),  # a Cyrillic а
    "a huge name": naming("s" * 100_000),
    "an unknown role": naming("staff", role="owner"),
    "a GM invite for a crowd, open for ever": lambda records: next(r for r in records if r["kind"] == "invite").update(
        role="gm", uses_left=100, expires_at="9999-12-31T00:00:00+00:00"),
    "the actor of every line is staff": lambda records: [r.update(actor="staff") for r in records
                                                         if r["kind"] == "activity"],
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_archive_on_the_upload_page_changes_no_account(client, full_campaign, exported, archives, case):
    world = full_campaign
    everyone = (world.staff, world.ann.user, world.ben.user, world.gm.user, world.outsider)
    before = memberships(*everyone)
    data = archives.rewrite(exported(world.campaign), HOSTILE[case])
    client.force_login(world.outsider)
    response = upload(client, data)
    assert_answered(response, case)
    if response.status_code == 400:
        assert re.search(r'role="alert"[^>]*>[A-Z][^<]{10,}', response.content.decode()), case
    added = memberships(*everyone) - before
    assert added <= {("outsider", pk, "gm") for pk in Campaign.objects.values_list("pk", flat=True)}, case
    assert not Membership.objects.filter(campaign__in=Campaign.objects.exclude(pk=world.campaign.pk)).exclude(
        user=world.outsider).exists(), case
    assert not Invite.objects.filter(max_uses__gt=1, role="gm").exists()
    assert not Invite.objects.filter(expires_at__gt=timezone.now() + timedelta(days=MAX_INVITE_DAYS)).exists()
