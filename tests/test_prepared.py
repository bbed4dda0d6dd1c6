"""Queries compiled once (muster/prepared.py): the same objects as the queryset, the same SQL every call,
and the queryset's own checks kept (a lock only in a transaction)."""

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from muster.prepared import Prepared
from tabletop import selectors
from tabletop.models import Seat, Table

from tests.factories import gridaris_table
from tests.tables import play_next
from tests.tabletop._stakes import open_staked, purse

pytestmark = pytest.mark.django_db

SEATS = Prepared(
    lambda token: Seat.objects.select_related("table__campaign", "membership__user")
    .only(*selectors.SEAT_BY_TOKEN_FIELDS)
    .filter(token=token, bot=""),
    token=str,
)
TABLES = Prepared(lambda pk: selectors.tables_for_page().filter(pk=pk), pk=int)


def fields(obj, names):
    return {name: getattr(obj, name) for name in names}


def test_a_prepared_query_builds_what_its_queryset_builds(world, table):
    table = play_next(table)
    seat = Seat.objects.get(table=table, index=0)
    prepared = SEATS.first(token=seat.token)
    expected = Seat.objects.select_related("table__campaign", "membership__user").get(token=seat.token)
    assert prepared.pk == expected.pk and prepared.token == seat.token
    assert prepared.table.version == 1 and prepared.table.campaign.slug == world.campaign.slug
    assert prepared.membership.user.username == expected.membership.user.username
    assert prepared.get_deferred_fields() == Seat.objects.only(*selectors.SEAT_BY_TOKEN_FIELDS).get(
        pk=seat.pk).get_deferred_fields()
    assert SEATS.first(token="no-such-token") is None


def test_its_annotations_related_objects_and_json_come_back_converted(world):
    table = open_staked(world, [world.ann, world.ben], [purse(world.ann, 50), purse(world.ben, 50)], fee=10)
    table = play_next(table)
    prepared, queried = TABLES.first(pk=table.pk), selectors.tables_for_page().get(pk=table.pk)
    names = ["version", "status", "state", "game", "created_at", "last_undo", *(f"bot_{i}" for i in range(6))]
    assert fields(prepared, names) == fields(queried, names)
    assert isinstance(prepared.state, dict) and prepared.created_at.tzinfo is not None
    assert prepared.stake.pk == queried.stake.pk and prepared.stake.entry_fee == 10
    assert set(prepared.get_deferred_fields()) == set(selectors.UNSHOWN_TABLE_FIELDS)


def test_each_call_runs_the_sql_compiled_once_with_its_own_values(world, table):
    other = play_next(play_next(gridaris_table(world.campaign, ["Gus", "Gwen"])))
    compiled = TABLES.compiled()
    with CaptureQueriesContext(connection) as captured:
        versions = [TABLES.first(pk=pk).version for pk in (table.pk, other.pk)]
    assert versions == [0, 2] and TABLES.compiled() is compiled
    ran = [query["sql"] for query in captured.captured_queries]
    found = [f'"tabletop_table"."id" = {pk}' in sql for sql, pk in zip(ran, (table.pk, other.pk), strict=True)]
    assert all(found) and len(found) == 2


def test_a_lock_is_refused_outside_a_transaction_at_every_call(world, table):
    locked = Prepared(lambda pk: Table.objects.select_for_update().filter(pk=pk), pk=int)
    with transaction.atomic():
        assert locked.first(pk=table.pk).pk == table.pk
    if connection.features.supports_transactions and connection.get_autocommit():
        with pytest.raises(TransactionManagementError):
            locked.first(pk=table.pk)


def test_a_parameter_the_query_does_not_use_or_a_prefetch_is_refused(world, table):
    with pytest.raises(ValueError, match="does not use"):
        Prepared(lambda pk, token: Table.objects.filter(pk=pk), pk=int, token=str).first(pk=1, token="x")
    with pytest.raises(ValueError, match="prefetch"):
        Prepared(lambda pk: Table.objects.prefetch_related("seats").filter(pk=pk), pk=int).first(pk=table.pk)


def test_its_columns_converters_are_worked_out_once_per_connection(world, table, monkeypatch):
    """Django works a query's converters out column by column at every run; a prepared query keeps them
    for each connection it runs on (they read the connection they were made for): issue 40, where that
    work was a twentieth of an action's CPU."""
    from django.db.models.sql.compiler import SQLCompiler

    worked_out, get_converters = [], SQLCompiler.get_converters
    monkeypatch.setattr(SQLCompiler, "get_converters", lambda self, e: worked_out.append(1) or get_converters(self, e))
    prepared = Prepared(lambda pk: selectors.tables_for_page().filter(pk=pk), pk=int)
    tables = [prepared.first(pk=table.pk) for _ in range(3)]
    assert len(worked_out) == 1
    assert {t.version for t in tables} == {0} and all(t.created_at.tzinfo is not None for t in tables)
