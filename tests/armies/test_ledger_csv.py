"""The ledger as CSV: the GM's whole campaign, a player's own commander; formulas neutralised, streamed."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import LedgerEntry
from campaign.services import ledger_adjust

from tests.armies.factories import CommanderFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ledgers(world):
    vey = CommanderFactory(membership=world.ann, name="Lady Véy", balance=30)
    marr = CommanderFactory(membership=world.ben, name="Lord Marr", balance=5)
    ledger_adjust(account=vey.account, amount=-4, reason='=HYPERLINK("http://evil")', gm=world.gm.user)
    ledger_adjust(account=marr.account, amount=10, reason="Bounty", gm=world.gm.user)
    ledger_adjust(account=vey.account, amount=2, reason="+2 for courage", gm=world.gm.user)
    return vey, marr


def read_csv(response) -> list[dict]:
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="')
    text = b"".join(response.streaming_content).decode("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def test_the_gm_downloads_every_entry_with_running_balances_and_neutralised_formulas(client, world, ledgers):
    vey, marr = ledgers
    client.force_login(world.gm.user)
    rows = read_csv(client.get(reverse("armies:ledger_csv", args=[world.campaign.slug])))
    assert list(rows[0]) == [
        "id",
        "created_at",
        "day",
        "account",
        "commander",
        "kind",
        "amount",
        "balance_after",
        "reason",
        "cause_type",
        "cause_id",
        "by",
    ]
    assert [int(row["id"]) for row in rows] == list(LedgerEntry.objects.order_by("id").values_list("id", flat=True))
    vey_rows = [row for row in rows if row["commander"] == "Lady Véy"]  # UTF-8 survives
    assert [(row["amount"], row["balance_after"]) for row in vey_rows] == [("30", "30"), ("-4", "26"), ("2", "28")]
    assert [row["balance_after"] for row in rows if row["commander"] == "Lord Marr"] == ["5", "15"]
    assert vey_rows[1]["reason"] == '\'=HYPERLINK("http://evil")'
    assert vey_rows[2]["reason"] == "'+2 for courage"
    assert vey_rows[1]["by"] == "gm" and vey_rows[1]["kind"] == "adjustment"
    assert vey_rows[0]["created_at"].startswith("20") and "T" in vey_rows[0]["created_at"]


def test_a_player_downloads_their_own_commander_only(client, world, ledgers):
    vey, marr = ledgers
    client.force_login(world.ann.user)
    rows = read_csv(client.get(reverse("armies:commander_ledger_csv", args=[world.campaign.slug, vey.pk])))
    assert {row["commander"] for row in rows} == {"Lady Véy"} and len(rows) == 3
    assert client.get(reverse("armies:commander_ledger_csv", args=[world.campaign.slug, marr.pk])).status_code == 404
    assert client.get(reverse("armies:ledger_csv", args=[world.campaign.slug])).status_code == 403


@pytest.mark.parametrize(
    ("who", "own", "other", "whole"),
    [("anonymous", 302, 302, 302), ("outsider", 404, 404, 404), ("staff", 404, 404, 404), ("gm", 200, 200, 200)],
)
def test_who_may_download_what(client, world, ledgers, who, own, other, whole):
    vey, marr = ledgers
    users = {"outsider": world.outsider, "staff": world.staff, "gm": world.gm.user}
    if who in users:
        client.force_login(users[who])
    slug = world.campaign.slug
    assert client.get(reverse("armies:commander_ledger_csv", args=[slug, vey.pk])).status_code == own
    assert client.get(reverse("armies:commander_ledger_csv", args=[slug, marr.pk])).status_code == other
    assert client.get(reverse("armies:ledger_csv", args=[slug])).status_code == whole


def download_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
        b"".join(response.streaming_content)
    return len(queries)


def test_the_download_takes_a_fixed_number_of_queries(client, world, ledgers):
    vey, _ = ledgers
    client.force_login(world.gm.user)
    url = reverse("armies:ledger_csv", args=[world.campaign.slug])
    few = download_queries(client, url)
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            account=vey.account, amount=1, day=1, kind="adjustment", reason=f"Gift {n}", created_by=world.gm.user
        )
        for n in range(50)
    )
    assert download_queries(client, url) == few


def test_the_commander_page_links_its_csv(client, world, ledgers):
    vey, _ = ledgers
    client.force_login(world.ann.user)
    html = client.get(reverse("armies:commander", args=[world.campaign.slug, vey.pk])).content.decode()
    assert reverse("armies:commander_ledger_csv", args=[world.campaign.slug, vey.pk]) in html


@pytest.mark.parametrize("starter", ["＝", "＋", "－", "＠", "﹦", "﹢", "﹣", "﹫"])
def test_a_full_width_or_small_formula_starter_is_neutralised_too(client, world, starter):
    """Spreadsheets read ＝ (U+FF1D) and its look-alikes as =: NFKC folds them onto the ASCII starters."""
    vey = CommanderFactory(membership=world.ann, name="Lady Véy", balance=5)
    reason = f'{starter}HYPERLINK("http://evil")'
    ledger_adjust(account=vey.account, amount=-1, reason=reason, gm=world.gm.user)
    client.force_login(world.gm.user)
    rows = read_csv(client.get(reverse("armies:ledger_csv", args=[world.campaign.slug])))
    assert [row["reason"] for row in rows if row["kind"] == "adjustment"] == ["'" + reason]


def test_a_full_width_letter_that_is_no_formula_starter_is_left_alone(client, world):
    vey = CommanderFactory(membership=world.ann, name="Lady Véy", balance=5)
    ledger_adjust(account=vey.account, amount=-1, reason="Ａle for the troops", gm=world.gm.user)
    client.force_login(world.gm.user)
    rows = read_csv(client.get(reverse("armies:ledger_csv", args=[world.campaign.slug])))
    assert [row["reason"] for row in rows if row["kind"] == "adjustment"] == ["Ａle for the troops"]
