"""Ruling P7 under real concurrency (PostgreSQL): a seat's download and a GM undo never both succeed."""

import pytest

from tabletop.engines.kernel import IllegalAction
from tabletop.models import Table
from tabletop.services.tables import table_release_log, table_undo

from tests.concurrency import race
from tests.tables import play_next

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("attempt", range(4))
def test_a_download_racing_an_undo_either_closes_the_table_or_finds_it_reopened(world, table, attempt):
    while not table.is_finished:
        table = play_next(table)
    results = race([
        lambda: table_release_log(table_id=table.pk),
        lambda: table_undo(table_id=table.pk, version=table.version, user=world.gm.user),
    ])
    released, undone = (not isinstance(result, Exception) for result in results)
    assert released != undone, results  # exactly one of them happened
    assert all(isinstance(result, (Table, IllegalAction)) for result in results), results
    table.refresh_from_db()
    if released:
        assert table.is_finished and table.log_released_at is not None
    else:
        assert not table.is_finished and table.log_released_at is None
