import io
import json
import re

import pytest
from django.core.management import CommandError, call_command

from tabletop.selectors import table_log
from tabletop.services.tables import table_undo

from tests.tables import play_next

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def write_log(tmp_path, log) -> str:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    return str(path)


def test_replay_verifies_every_digest_of_a_downloaded_log(tmp_path, table):
    for _ in range(4):
        table = play_next(table)
    table = table_undo(table_id=table.pk, version=table.version)
    output = run("replay", write_log(tmp_path, table_log(table)))
    assert "gridaris: 4 actions, 1 undone, 6 digests checked, 0 mismatches" in output
    assert "still in progress" in output


def test_replay_prints_the_outcome_of_a_finished_game(tmp_path, table):
    from tabletop.engines import get_engine

    while get_engine("gridaris").outcome(table.state) is None:
        table = play_next(table)
    output = run("replay", write_log(tmp_path, table_log(table)))
    assert "0 mismatches" in output
    assert f"Outcome: {table.outcome['reason']}" in output


def test_replay_fails_loudly_on_a_tampered_log(tmp_path, table):
    table = play_next(play_next(table))
    log = table_log(table)
    log["entries"][1]["action"]["cell"] = "3,3" if log["entries"][1]["action"]["cell"] != "3,3" else "0,0"
    with pytest.raises(CommandError):
        run("replay", write_log(tmp_path, log))


def test_replay_refuses_a_file_that_is_not_a_log(tmp_path):
    path = tmp_path / "junk.json"
    path.write_text("{not json")
    with pytest.raises(CommandError, match="Cannot read"):
        run("replay", str(path))
    with pytest.raises(CommandError, match="not a Muster table log"):
        run("replay", write_log(tmp_path, {"hello": "world"}))


def test_simulate_ends_with_the_one_line_summary():
    output = run("simulate", "gridaris", "--games", "5", "--seed", "3")
    last = output.strip().splitlines()[-1]
    assert re.fullmatch(
        r"gridaris: 5 games, \d+ actions, 0 GM overrides, \d+ what-ifs dealt, 0 invariant violations, "
        r"[\d.]+ games/s, [\d.]+ actions/s",
        last,
    ), last


def test_simulate_mixes_the_gm_overrides_into_random_army_battles():
    last = run("simulate", "army", "--games", "20", "--seed", "1").strip().splitlines()[-1]
    overrides = int(re.search(r"(\d+) GM overrides", last).group(1))
    assert overrides > 0 and "0 invariant violations" in last, last
