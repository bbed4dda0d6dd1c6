"""The coach's migration (tabletop 0014, ruling CO1): the tables already there get the switch a new table
would get: on without stakes (a what-if included), off at a staked table or an Army battle."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import CampaignFactory

BEFORE = [("tabletop", "0013_projector_link")]


@pytest.mark.django_db(transaction=True)
def test_practice_tables_and_what_ifs_get_the_coach_staked_tables_and_battles_do_not():
    campaign = CampaignFactory(slug="old").pk  # the campaign app is not migrated back
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    tables = old.get_model("tabletop", "Table").objects

    def table(game, **fields):
        return tables.create(campaign_id=campaign, game=game, title=game, config={}, state={}, **fields).pk

    practice, staked, battle = table("gridaris"), table("gridaris"), table("army")
    battle_what_if = table("army", what_if=True)
    old.get_model("tabletop", "Stake").objects.create(table_id=staked, entry_fee=5)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from tabletop.models import Table

    coach = dict(Table.objects.values_list("pk", "coach"))
    assert coach == {practice: True, staked: False, battle: False, battle_what_if: True}
