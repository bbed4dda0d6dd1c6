"""The roster history: every change to a commander's units as a sentence, with a link to its cause."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from armies.history import commander_history
from armies.models import ArmyUnit, Battle, Settlement, UnitEvent
from armies.services.battles import battle_finish
from armies.services.commanders import unit_dismiss
from armies.services.recruiting import quest_grant, recruit_buy
from armies.services.settlement import day_settle
from armies.services.training import unit_train
from campaign.activity import activity_record
from campaign.models import Activity, Campaign, LedgerEntry

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def story(world):
    """Lady Vey recruits Pikemen (12 coins), trains them, loses Archers in battle and Pikemen to upkeep."""
    campaign = world.campaign
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=20, weapons=10)
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", balance=50)
    pikemen = UnitCardFactory(name="Pikemen", upkeep=9, price=12)
    archers = UnitCardFactory(name="Archers", upkeep=3)
    offer = RecruitOfferFactory(campaign=campaign, card=pikemen, price=12, quantity=3)
    pike = recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)  # 20 - 12 = 8 left
    unit_train(unit=pike, day=1, pay_with="items", weapons=10, trained_by=world.ann.user)
    bow = ArmyUnitFactory(commander=vey, card=archers)
    scouts = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Scouts", upkeep=0))
    battle = Battle.objects.create(campaign=campaign, attacker=vey, defender=marr, day=1)
    battle_finish(
        battle=battle, ended_at=timezone.now(), winner=marr, routed=None, used_units=[pike, bow], killed_units=[bow]
    )
    day_settle(campaign=campaign, day=1)  # owes 9 + 3 = 12, has 8: Pikemen desert, 3 paid
    campaign.refresh_from_db()
    return vey, marr, pike, bow, scouts, battle, offer


def sentences(lines) -> list[str]:
    return [line.sentence for line in lines]


def line_of(lines, unit_name: str, kind: str):
    [line] = [line for line in lines if line.unit_name == unit_name and line.kind == kind]
    return line


def test_every_change_is_a_sentence_with_a_link_to_its_cause_newest_first(world, story):
    vey, _, pike, bow, _, battle, offer = story
    slug = world.campaign.slug
    lines = commander_history(vey, slug=slug)
    page = reverse("armies:commander", args=[slug, vey.pk])
    settlement = Settlement.objects.get(commander=vey, day=1)
    payment = LedgerEntry.objects.get(account=vey.account, cause_type="offer")
    upkeep = LedgerEntry.objects.get(account=vey.account, cause_type="settlement")

    joined = line_of(lines, "Pikemen", "joined")
    assert joined.sentence == f"Day 1: Pikemen joined: recruited from offer #{offer.pk} (12 coins)"
    assert joined.url == f"{page}#entry-{payment.pk}"
    trained = line_of(lines, "Pikemen", "trained")
    assert (trained.sentence, trained.url) == ("Day 1: Pikemen trained with 10 weapons", None)
    killed = line_of(lines, "Archers", "killed")
    assert killed.sentence == f"Day 1: Archers killed in battle #{battle.pk}"
    assert killed.url == reverse("armies:battle_result", args=[slug, battle.pk])
    deserted = line_of(lines, "Pikemen", "deserted")
    assert deserted.sentence == (
        "End of day 1: Pikemen deserted: upkeep 12 could not be paid (8 coins in the treasury, 3 paid)"
    )
    assert deserted.url == f"{page}#entry-{upkeep.pk}" and not deserted.taken_back
    assert settlement.owed == 12 and settlement.paid == 3
    # newest first: the desertion (end of day 1) comes before the battle and the recruit
    assert lines[0].kind == "deserted" and lines[-1].kind == "joined"


def test_the_ledger_entry_of_a_desertion_day_names_who_deserted(story):
    vey = story[0]
    entry = LedgerEntry.objects.get(account=vey.account, cause_type="settlement")
    assert entry.reason == "Upkeep for day 1: 12 owed, 3 paid; could not pay, so Pikemen deserted"


def test_a_dismissal_and_a_quest_unit_are_explained(world, story):
    vey, *_ = story
    scouts = ArmyUnit.objects.get(commander=vey, card__name="Scouts")
    unit_dismiss(unit=scouts, day=2, dismissed_by=world.ann.user)
    quest = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Wyvern"), quest="Slay the hydra")
    quest_grant(offer=quest, commander=vey, day=2, gm=world.gm.user)
    lines = commander_history(vey, slug=world.campaign.slug)
    assert "Day 2: Scouts dismissed by Ann the Bold" in sentences(lines)
    assert "Day 2: Wyvern joined: granted for the quest “Slay the hydra”" in sentences(lines)


def gm_event(unit, kind, cause, cause_type="gm", *, day=2, world=None):
    activity = activity_record(
        campaign=world.campaign, actor=world.gm.user, kind=Activity.Kind.UNIT_REMOVE, summary=cause
    )
    return UnitEvent.objects.create(
        unit=unit, day=day, kind=kind, cause=cause, cause_type=cause_type, cause_id=activity.pk
    )


def test_gm_changes_and_a_day_end_taken_back_read_as_sentences_the_gm_gets_the_activity_log(world, story):
    vey, _, pike, _, scouts, _, _ = story
    gm_event(scouts, UnitEvent.Kind.RELEASED, "Released by the GM: went home for the harvest", world=world)
    corrected = gm_event(pike, UnitEvent.Kind.CORRECTED, "Training corrected by the GM: was never trained", world=world)
    returned = gm_event(
        pike,
        UnitEvent.Kind.RETURNED,
        "Back in the army: the end of day 1 was taken back",
        "day_end_revert",
        world=world,
    )
    slug = world.campaign.slug
    player = commander_history(vey, slug=slug)
    assert "Day 2: Scouts released by the GM: went home for the harvest" in sentences(player)
    assert "Day 2: Pikemen: training corrected by the GM: was never trained" in sentences(player)
    assert "Day 2: Pikemen returned: the end of day 1 was taken back" in sentences(player)
    assert all(line.url is None for line in player if line.kind in ("released", "corrected", "returned"))

    gm = {line.event_id: line for line in commander_history(vey, slug=slug, viewer_is_gm=True)}
    log = reverse("campaign:activity", args=[slug])
    assert gm[returned.pk].url == f"{log}?kind=unit_remove&day=2#activity-{returned.cause_id}"
    assert gm[corrected.pk].url == f"{log}?kind=unit_remove&day=2#activity-{corrected.cause_id}"


def test_the_real_gm_services_and_a_day_end_taken_back_read_as_sentences(world, story):
    from armies.services.commander_edits import unit_remove
    from armies.services.day_end_revert import day_end_revert
    from armies.services.training import unit_training_correct

    vey, _, pike, _, scouts, _, _ = story
    revert = day_end_revert(campaign=world.campaign, day=1, gm=world.gm.user)
    unit_remove(unit=scouts, gm=world.gm.user, how="released", reason="went home for the harvest")
    unit_training_correct(unit=pike, gm=world.gm.user, trained=False, reason="the weapons were never handed over")
    slug = world.campaign.slug
    lines = commander_history(vey, slug=slug, viewer_is_gm=True)
    returned = line_of(lines, "Pikemen", "returned")
    assert returned.sentence == "Day 1: Pikemen returned: the end of day 1 was taken back"
    log = reverse("campaign:activity", args=[slug])
    assert returned.url == f"{log}?kind=day_end_revert&day={revert.day}#activity-{revert.pk}"
    assert line_of(lines, "Pikemen", "deserted").taken_back
    assert "Day 1: Scouts released by the GM: went home for the harvest" in sentences(lines)
    corrected = line_of(lines, "Pikemen", "corrected")
    assert corrected.sentence.startswith("Day 1: Pikemen: training corrected by the GM")
    assert corrected.sentence.endswith("the weapons were never handed over") and corrected.url.startswith(log)

    from armies import reports

    [refund] = reports.ledger_lines(reports.ledger_for(world.campaign, kind=LedgerEntry.Kind.CORRECTION), slug)
    assert (
        refund.entry.amount == 3
        and refund.cause_url == f"{log}?kind=day_end_revert&day={revert.day}#activity-{revert.pk}"
    )


def test_an_unknown_cause_falls_back_to_the_stored_text(world):
    vey = CommanderFactory(membership=world.ann, name="Lady Vey")
    unit = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Caravan Guards"))
    UnitEvent.objects.filter(unit=unit).delete()
    UnitEvent.objects.create(
        unit=unit,
        day=1,
        kind=UnitEvent.Kind.JOINED,
        cause="Came with the spice caravan",
        cause_type="caravan",
        cause_id=4,
    )
    [line] = commander_history(vey, slug=world.campaign.slug, viewer_is_gm=True)
    assert (line.sentence, line.url) == ("Day 1: Caravan Guards joined: Came with the spice caravan", None)


def test_when_nothing_was_paid_the_settlement_itself_explains_the_desertion(world):
    """Ruling W1: no zero-amount ledger line; the history reads the Settlement row."""
    Campaign.objects.filter(pk=world.campaign.pk).update(desertion=Campaign.Desertion.ALL_USED)
    world.campaign.refresh_from_db()
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=2)
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", balance=50)
    knights = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Knights", upkeep=5))
    battle = Battle.objects.create(campaign=world.campaign, attacker=vey, defender=marr, day=1)
    battle_finish(
        battle=battle, ended_at=timezone.now(), winner=None, routed=None, used_units=[knights], killed_units=[]
    )
    day_settle(campaign=world.campaign, day=1)

    assert not LedgerEntry.objects.filter(account=vey.account, kind=LedgerEntry.Kind.UPKEEP).exists()
    settlement = Settlement.objects.get(commander=vey)
    player = line_of(commander_history(vey, slug=world.campaign.slug), "Knights", "deserted")
    assert player.sentence == (
        "End of day 1: Knights deserted: upkeep 5 could not be paid (2 coins in the treasury, nothing paid)"
    )
    assert player.url is None
    gm = line_of(commander_history(vey, slug=world.campaign.slug, viewer_is_gm=True), "Knights", "deserted")
    assert gm.url == f"{reverse('armies:treasury', args=[world.campaign.slug])}?settled=1#settlement-{settlement.pk}"


def test_a_desertion_whose_day_end_was_taken_back_is_marked(world, story):
    vey = story[0]
    Settlement.objects.filter(commander=vey).update(reverted_at=timezone.now())
    assert line_of(commander_history(vey, slug=world.campaign.slug), "Pikemen", "deserted").taken_back


def history_queries(commander, slug) -> int:
    with CaptureQueriesContext(connection) as queries:
        commander_history(commander, slug=slug, viewer_is_gm=True)
    return len(queries)


def test_the_history_takes_a_fixed_number_of_queries(world, story):
    vey, marr, *_ = story
    few = history_queries(vey, world.campaign.slug)
    assert few <= 7
    offer = RecruitOfferFactory(
        campaign=world.campaign, card=UnitCardFactory(name="Militia", price=1), price=1, quantity=30
    )
    LedgerEntry.objects.create(account=vey.account, amount=100, day=2, kind=LedgerEntry.Kind.ADJUSTMENT, reason="Gift")
    for _ in range(20):
        unit = recruit_buy(offer=offer, commander=vey, day=2, bought_by=world.ann.user)
        battle = Battle.objects.create(campaign=world.campaign, attacker=vey, defender=marr, day=2)
        battle_finish(
            battle=battle, ended_at=timezone.now(), winner=None, routed=None, used_units=[unit], killed_units=[unit]
        )
    assert history_queries(vey, world.campaign.slug) == few
    lines = commander_history(vey, slug=world.campaign.slug)
    paid = [line.url for line in lines if line.unit_name == "Militia" and line.kind == "joined"]
    assert len(paid) == 20 and len(set(paid)) == 20  # each recruit links to its own payment


def test_the_commander_page_shows_the_history_to_its_player_only(client, world, story):
    vey, marr, *_ = story
    client.force_login(world.ann.user)
    html = client.get(reverse("armies:commander", args=[world.campaign.slug, vey.pk])).content.decode()
    assert 'id="history"' in html and "Pikemen deserted: upkeep 12 could not be paid" in html
    client.force_login(world.ben.user)
    assert client.get(reverse("armies:commander", args=[world.campaign.slug, vey.pk])).status_code == 404
    marr_page = client.get(reverse("armies:commander", args=[world.campaign.slug, marr.pk])).content.decode()
    assert "could not be paid" not in marr_page and "coins in the treasury" not in marr_page
