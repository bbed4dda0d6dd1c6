"""Every kind of line a played campaign writes keeps its words (issue 41): said back in English they are the
summary the log kept, byte for byte; said in German (the catalog with the activity log's part) they are German.
An imported campaign's lines keep the words its archive carried."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polib
import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import translation

from armies.services.battles import battle_open
from armies.services.commander_edits import commander_edit, commander_retire, commander_return, unit_remove
from armies.services.commanders import commander_create, commander_update_items
from armies.services.recruiting import offer_edit, offer_post, offer_restore, offer_withdraw, quest_grant, recruit_buy
from armies.services.training import unit_train, unit_training_correct
from campaign.activity import line_said
from campaign.models import Activity, Campaign
from campaign.services import campaign_settings_update
from people.services.invites import invite_accept, invite_create, invite_reissue, invite_revoke
from people.services.members import commander_hand, member_remove, member_role_change
from people.services.resets import reset_link_for_member
from tabletop.models import Table
from tabletop.services.abandon import table_abandon
from tabletop.services.seats import seat_set_bot

from tests.armies.factories import ArmyUnitFactory, UnitCardFactory
from tests.catalogs import write_catalog
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
LOCALE = Path(django_settings.BASE_DIR) / "locale"


def _play_more(world):
    """The full campaign's lines, and a line of every other kind the GM's and players' acts write."""
    campaign, gm = world.campaign, world.gm.user
    campaign_settings_update(campaign=campaign, gm=gm, desertion="cheapest", battle_cooldown_minutes=90)
    campaign_settings_update(campaign=campaign, gm=gm, name="Siege of the Vale", description="New words",
                             allow_credit=True, day_end_time=dt.time(18, 0), language="de")
    campaign_settings_update(campaign=campaign, gm=gm, description="", language="")
    vey = commander_create(campaign=campaign, membership=world.ann, name="Lady Vey", kind="pc", progression=1,
                           role="aggressor", path="steel", opening_balance=40, created_by=gm)
    marr = commander_create(campaign=campaign, membership=world.ben, name="Lord Marr", kind="pc", progression=1,
                            role="guardian", path="magic", created_by=gm)
    commander_update_items(commander=vey, gm=gm, weapons=12, build_points=60)
    commander_edit(commander=vey, gm=gm, progression=2, kind="npc", membership=world.gm, influence_halves=3)
    commander_edit(commander=vey, gm=gm, kind="pc", membership=world.ann)
    commander_retire(commander=marr, gm=gm, reason="Gone home.")
    commander_return(commander=marr, gm=gm)
    card = UnitCardFactory(name="Pikemen", strength=3)
    offer = offer_post(campaign=campaign, card=card, price=10, quantity=3, until_day=5, posted_by=gm)
    offer_edit(offer=offer, gm=gm, price=1, quantity=4, until_day=None)
    recruit_buy(offer=offer, commander=vey, day=campaign.current_day, bought_by=world.ann.user)
    offer_withdraw(offer=offer, gm=gm, reason="Sold out")
    offer_restore(offer=offer, gm=gm)
    offer_withdraw(offer=offer, gm=gm)
    quest = offer_post(campaign=campaign, card=card, price=0, quantity=1, quest="Slay the wyrm", posted_by=gm)
    quest_grant(offer=quest, commander=vey, day=campaign.current_day, gm=gm)
    unit = ArmyUnitFactory(commander=vey, card=card)
    unit_train(unit=unit, day=campaign.current_day, pay_with="items", weapons=10, trained_by=gm)
    unit_training_correct(unit=unit, gm=gm, trained=False, reason="A slip")
    for how in ("dismissed", "released"):
        unit_remove(unit=ArmyUnitFactory(commander=vey, card=card), gm=gm, how=how, reason="Too costly")
    invite = invite_create(campaign=campaign, created_by=gm, max_uses=2)
    invite_revoke(invite=invite, gm=gm)
    tam = commander_create(campaign=campaign, membership=world.gm, name="Old Tam", kind="npc", progression=1,
                           role="healer", path="faith", created_by=gm)
    again = invite_reissue(invite=invite_create(campaign=campaign, created_by=gm, commander=tam), gm=gm)
    cara = invite_accept(token=again.token, user=UserFactory(username="cara")).membership
    member_remove(membership=cara, gm=gm)
    commander_hand(commander=marr, to=world.gm, gm=gm)
    member_role_change(membership=world.ben, role="gm", gm=gm)
    reset_link_for_member(gm=gm, membership=world.ann)
    battle_open(attacker=vey, defender=marr, day=campaign.current_day, opened_by=gm)
    battle_open(attacker=vey, defender=marr, day=campaign.current_day, opened_by=gm, override_reason="A rematch")
    staked = Table.objects.get(title="Stakes at the Inn")
    staked = seat_set_bot(table_id=staked.pk, index=0, bot="normal", version=staked.version, user=gm)
    table_abandon(table_id=staked.pk, version=staked.version, gm=gm, reason="Closing time")


@pytest.fixture
def logged(full_campaign, client):
    _play_more(full_campaign)
    client.force_login(full_campaign.gm.user)
    assert client.post(reverse("archive:download", args=[full_campaign.campaign.slug])).status_code == 200
    return full_campaign


def _german(locale_dir) -> None:
    """The German catalog with the activity log's part (while the part waits to be merged into it)."""
    entries = {}
    part = LOCALE / "incoming" / "activity.po"
    for path in (LOCALE / "de" / "LC_MESSAGES" / "django.po", part):
        if path.exists():
            entries.update({e.msgid: e.msgstr for e in polib.pofile(str(path)) if e.msgstr and not e.msgctxt})
    write_catalog(locale_dir, "de", entries)


def test_every_kind_of_line_gives_back_its_english_and_is_said_in_german(logged, locale_dir):
    entries = list(Activity.objects.filter(campaign=logged.campaign).order_by("pk"))
    kinds = {entry.kind for entry in entries}
    assert kinds >= {
        Activity.Kind.ADJUSTMENT, Activity.Kind.SETTINGS, Activity.Kind.COMMANDER_NEW, Activity.Kind.COMMANDER_EDIT,
        Activity.Kind.COMMANDER_RETIRE, Activity.Kind.OFFER_NEW, Activity.Kind.OFFER_EDIT,
        Activity.Kind.OFFER_WITHDRAW, Activity.Kind.RECRUIT, Activity.Kind.QUEST_GRANT, Activity.Kind.TRAINING,
        Activity.Kind.UNIT_TRAINING, Activity.Kind.UNIT_REMOVE, Activity.Kind.BATTLE_NEW, Activity.Kind.TABLE_NEW,
        Activity.Kind.TABLE_FORK, Activity.Kind.TABLE_ABANDON, Activity.Kind.OVERRIDE, Activity.Kind.INVITE_NEW,
        Activity.Kind.INVITE_REVOKE, Activity.Kind.MEMBER_JOIN, Activity.Kind.MEMBER_ROLE,
        Activity.Kind.RESET_LINK, Activity.Kind.ARCHIVE_EXPORT, Activity.Kind.MEMBER_REMOVE,
        Activity.Kind.COMMANDER_HAND, Activity.Kind.BATTLE_OPEN,
    }, sorted(kinds)
    for entry in entries:
        assert "said" in entry.details, entry.summary
        assert line_said(entry, translate=lambda text: text) == entry.summary
    _german(locale_dir)
    with translation.override("de"):
        said = {entry.summary: line_said(entry) for entry in entries}
    assert [english for english, german in said.items() if german == english] == []
    assert said["Made Ben the Sly a GM (was player)."] == "Ben the Sly zur Spielleitung gemacht (war Spieler:in)."


def test_an_imported_campaigns_lines_keep_the_words_their_archive_carried(logged, locale_dir, exported, imported):
    copy = imported(exported(Campaign.objects.get(pk=logged.campaign.pk)), logged.outsider)
    entries = list(Activity.objects.filter(campaign=copy).order_by("pk"))
    carried = [entry for entry in entries if entry.kind != Activity.Kind.CAMPAIGN_NEW]
    assert carried and all("said" in entry.details for entry in entries)
    assert all(line_said(entry, translate=lambda text: text) == entry.summary for entry in entries)
    _german(locale_dir)
    with translation.override("de"):
        imported = line_said(entries[-1])
    assert imported.startswith("Kampagne „Siege of the Vale“ aus einem Archiv von „siege“ importiert, exportiert ")
