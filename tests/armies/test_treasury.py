"""The GM treasury overview: balances, what the end of today would take, the chart, the whole ledger."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from armies import reports
from armies.models import Commander, Settlement, UnitUse
from armies.services.settlement import day_settle
from armies.services.upkeep import day_end_preview
from campaign.models import LedgerEntry

from tests.armies.factories import ArmyUnitFactory, CommanderFactory, RecruitOfferFactory, UnitCardFactory
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def armies(world):
    """Lady Vey can pay for today; Lord Marr cannot (his Golem deserts); Old Bram is retired."""
    vey = CommanderFactory(membership=world.ann, name="Lady Vey", balance=30)
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", balance=5)
    bram = CommanderFactory(membership=world.gm, name="Old Bram", kind=Commander.Kind.NPC, balance=7)
    Commander.objects.filter(pk=bram.pk).update(retired_day=1)
    spear = ArmyUnitFactory(commander=vey, card=UnitCardFactory(name="Spearmen", upkeep=4))
    golem = ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Secret Golem", upkeep=8))
    militia = ArmyUnitFactory(commander=marr, card=UnitCardFactory(name="Militia", upkeep=1))
    for unit in (spear, golem, militia):
        UnitUse.objects.create(unit=unit, commander=unit.commander, day=world.campaign.current_day)
    return vey, marr, bram


def treasury_url(world, **params) -> str:
    url = reverse("armies:treasury", args=[world.campaign.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def test_the_overview_says_what_day_end_preview_says(world, armies):
    vey, marr, bram = armies
    overview = reports.treasury_overview(world.campaign)
    preview = day_end_preview(campaign=world.campaign, day=world.campaign.current_day)
    rows = {row.commander.name: row for row in overview.rows}
    for bill in preview.bills:
        row = rows[bill.commander_name]
        assert (row.balance, row.owed, row.would_pay, row.balance_after) == (
            bill.balance,
            bill.owed,
            bill.paid,
            bill.balance_after,
        )
        assert row.deserters == [unit.name for unit in bill.deserters]
    assert (rows["Lord Marr"].owed, rows["Lord Marr"].would_pay, rows["Lord Marr"].deserters) == (
        9,
        1,
        ["Secret Golem"],
    )
    assert (rows["Lady Vey"].owed, rows["Lady Vey"].would_pay, rows["Lady Vey"].balance_after) == (4, 4, 26)
    assert (rows["Old Bram"].owed, rows["Old Bram"].balance_after, rows["Old Bram"].retired) == (0, 7, True)
    assert [row.commander.name for row in overview.rows] == ["Lady Vey", "Lord Marr", "Old Bram"]  # retired last
    assert (overview.total_balance, overview.total_owed, overview.total_paid) == (
        42,
        preview.total_owed,
        preview.total_paid,
    )
    assert overview.total_after == 42 - preview.total_paid and overview.deserting == preview.deserting == 1


def test_the_gm_page_shows_balances_totals_the_chart_and_the_ledger(client, world, armies):
    client.force_login(world.gm.user)
    html = client.get(treasury_url(world)).content.decode()
    assert "Lady Vey" in html and "Lord Marr" in html and "Secret Golem" in html
    assert "retired on day 1" in html
    assert "<svg" in html
    assert 'id="ledger"' in html and "Opening" in html
    assert reverse("armies:ledger_csv", args=[world.campaign.slug]) in html


def test_players_get_403_and_strangers_404(client, world, armies):
    assert client.get(treasury_url(world)).status_code == 302  # to the login page
    for user, status in ((world.ann.user, 403), (world.outsider, 404), (world.staff, 404), (world.gm.user, 200)):
        client.force_login(user)
        assert client.get(treasury_url(world)).status_code == status, user


def test_the_ledger_filters_by_account_and_kind_and_links_causes(client, world, armies):
    vey, marr, _ = armies
    offer = RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Pikes"), price=3)
    LedgerEntry.objects.create(
        account=vey.account,
        amount=-3,
        day=1,
        kind=LedgerEntry.Kind.RECRUITMENT,
        reason="Recruited Pikes",
        cause_type="offer",
        cause_id=offer.pk,
    )
    day_settle(campaign=world.campaign, day=1)
    settlement = Settlement.objects.get(commander=marr)
    client.force_login(world.gm.user)

    html = client.get(treasury_url(world, account=marr.account_id)).content.decode()
    ledger = html[html.index('id="ledger"') :]
    assert "Upkeep for day 1: 9 owed, 1 paid; could not pay, so Secret Golem deserted" in ledger
    assert "Recruited Pikes" not in ledger
    assert f"?settled=1#settlement-{settlement.pk}" in ledger
    assert f'id="settlement-{settlement.pk}"' in html  # the line the link lands on

    html = client.get(treasury_url(world, kind="recruitment")).content.decode()
    ledger = html[html.index('id="ledger"') :]
    assert "Recruited Pikes" in ledger and "Upkeep for day 1" not in ledger
    [line] = [line for line in reports.ledger_lines(reports.ledger_for(world.campaign, kind="recruitment"), "siege")]
    assert line.cause_label == f"offer #{offer.pk}" and line.cause_url


def test_table_and_battle_causes_link_to_their_pages(world, armies):
    vey = armies[0]
    table_entry = LedgerEntry(
        account=vey.account, amount=-2, day=1, kind="stake", reason="x", cause_type="table", cause_id=9
    )
    battle_entry = LedgerEntry(
        account=vey.account, amount=-2, day=1, kind="adjustment", reason="x", cause_type="battle", cause_id=4
    )
    assert reports.cause_link(table_entry, "siege") == (reverse("tabletop:gm_table", args=["siege", 9]), "table #9")
    assert reports.cause_link(battle_entry, "siege") == (
        reverse("armies:battle_result", args=["siege", 4]),
        "battle #4",
    )
    unknown = LedgerEntry(
        account=vey.account, amount=1, day=1, kind="adjustment", reason="x", cause_type="quest", cause_id=2
    )
    assert reports.cause_link(unknown, "siege") == (None, "quest #2")


def test_the_ledger_is_paginated_newest_first(client, world, armies):
    vey = armies[0]
    LedgerEntry.objects.bulk_create(
        LedgerEntry(account=vey.account, amount=1, day=1, kind="adjustment", reason=f"Gift {n:03d}") for n in range(60)
    )
    client.force_login(world.gm.user)
    first = client.get(treasury_url(world)).content.decode()
    assert "Gift 059" in first and "Gift 000" not in first and "Page 1 of 2" in first
    second = client.get(treasury_url(world, page=2)).content.decode()
    assert "Gift 000" in second and "Gift 059" not in second


def page_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_page_takes_a_fixed_number_of_queries(client, world, armies):
    client.force_login(world.gm.user)
    day_settle(campaign=world.campaign, day=1)

    def captain(n: int) -> None:
        commander = CommanderFactory(membership=world.ann if n % 2 else world.ben, name=f"Captain {n}", balance=n)
        unit = ArmyUnitFactory(commander=commander, card=UnitCardFactory(upkeep=5))
        UnitUse.objects.create(unit=unit, commander=commander, day=world.campaign.current_day)  # day 2: short
        LedgerEntry.objects.create(account=commander.account, amount=3, day=2, kind="adjustment", reason="Gift")

    captain(0)
    few = page_queries(client, treasury_url(world))
    for n in range(1, 16):
        captain(n)
    assert page_queries(client, treasury_url(world)) == few
    assert few <= 20


def test_the_gm_armies_page_and_gm_home_link_the_treasury(client, world, armies):
    client.force_login(world.gm.user)
    for page in ("armies:list", "campaign:detail"):
        html = client.get(reverse(page, args=[world.campaign.slug])).content.decode()
        assert treasury_url(world) in html, page
    client.force_login(world.ann.user)
    assert (
        treasury_url(world) not in client.get(reverse("campaign:detail", args=[world.campaign.slug])).content.decode()
    )


def test_a_player_of_another_campaign_gets_404(client, world, armies):
    stranger = UserFactory(username="stranger")
    client.force_login(stranger)
    assert client.get(treasury_url(world)).status_code == 404
