"""campaign_import refuses a bad archive with its sentence and writes nothing (tests/archive/conftest.py
``archives.rewrite`` makes a file edited and signed again, so only the import's own checks catch it)."""

from __future__ import annotations

import gzip

import pytest
from django.core.exceptions import PermissionDenied

from archive.format import ArchiveRefused, Limits

pytestmark = pytest.mark.django_db


def refused(data: bytes, user, imported, archives, **kwargs) -> str:
    before = archives.rows()
    with pytest.raises(ArchiveRefused) as caught:
        imported(data, user, **kwargs)
    assert archives.rows() == before  # nothing written, not even the campaign or an invite
    return caught.value.sentence


def first(records, kind):
    return next(record for record in records if record["kind"] == kind)


def test_a_truncated_or_corrupted_file_writes_nothing(full_campaign, exported, imported, archives):
    world = full_campaign
    data = exported(world.campaign)
    raw = gzip.decompress(data)
    assert refused(gzip.compress(raw[:-40]), world.gm.user, imported, archives) == (
        "The file ends before its last line: it is truncated.")
    assert "truncated" in refused(data[: len(data) - 200], world.gm.user, imported, archives)
    garbage = data[:30] + b"\x00" * 50 + data[80:]
    assert refused(garbage, world.gm.user, imported, archives)


def test_a_tampered_file_fails_its_digest_after_everything_was_loaded(full_campaign, exported, imported, archives):
    world = full_campaign
    raw = gzip.decompress(exported(world.campaign))
    tampered = gzip.compress(raw.replace(b'"reason":"A fine"', b'"reason":"A gift"'))
    assert refused(tampered, world.gm.user, imported, archives) == (
        "The file's contents do not match its digest: it was changed after export.")


def test_a_future_version_an_oversized_file_and_deep_nesting(full_campaign, exported, imported, archives):
    world = full_campaign
    data = exported(world.campaign)
    lines = gzip.decompress(data).split(b"\n", 1)
    future = gzip.compress(lines[0].replace(b'"version":2', b'"version":3') + b"\n" + lines[1])
    assert refused(future, world.gm.user, imported, archives) == (
        "This archive is version 3; this Muster reads version 2: update Muster first.")
    assert refused(data, world.gm.user, imported, archives, limits=Limits(max_compressed_bytes=1024)) == (
        "The file is larger than the 1 KB an archive may be.")

    def nest(records):
        deep = [1]
        for _ in range(50):
            deep = [deep]
        first(records, "activity")["details"] = {"x": deep}
    assert "nests deeper than the 48 levels" in refused(archives.rewrite(data, nest), world.gm.user, imported, archives)

    def huge(records):
        first(records, "ledger_entry")["amount"] = 10**30
    assert "number" in refused(archives.rewrite(data, huge), world.gm.user, imported, archives)


@pytest.mark.parametrize("username", ["../etc", "a/b", "..", "ann\x00", "x" * 151, ""])
def test_a_member_whose_user_name_is_a_path_is_refused(username, full_campaign, exported, imported, archives):
    world = full_campaign

    def rename(records):
        first(records, "member")["username"] = username
    sentence = refused(archives.rewrite(exported(world.campaign), rename), world.gm.user, imported, archives)
    assert "user name" in sentence or "username" in sentence


def test_a_table_whose_log_does_not_reach_its_digest_is_refused(full_campaign, exported, imported, archives):
    world = full_campaign
    data = exported(world.campaign)

    def other_move(records):
        action = first(records, "table_action")
        action["draws"] = [*action["draws"], 0] if action["draws"] else action["draws"]
        action["digest"] = "0" * 64
    sentence = refused(archives.rewrite(data, other_move), world.gm.user, imported, archives)
    assert sentence.startswith("The table “Duel at the Inn” does not replay from its log (entry 1:")

    def other_end(records):
        first(records, "table")["digest"] = "f" * 64
    sentence = refused(archives.rewrite(data, other_end), world.gm.user, imported, archives)
    assert "(its end: the final state differs from the table's digest)" in sentence

    def one_action_less(records):
        records.remove([r for r in records if r["kind"] == "table_action"][-1])
    assert "does not replay" in refused(archives.rewrite(data, one_action_less), world.gm.user, imported, archives)


def test_a_balance_that_does_not_match_is_refused(full_campaign, exported, imported, archives):
    world = full_campaign
    data = exported(world.campaign)

    def richer(records):
        next(r for r in records if r["kind"] == "account" and r["name"] == "Ben's purse")["balance"] += 1
    assert refused(archives.rewrite(data, richer), world.gm.user, imported, archives) == (
        "The account “Ben's purse” comes to 15 coins from its ledger entries, but the archive says 16: "
        "its ledger is incomplete or was changed.")

    def entry_gone(records):
        records.remove(next(r for r in records if r["kind"] == "ledger_entry" and r["reason"] == "A fine"))
    assert "comes to 20 coins" in refused(archives.rewrite(data, entry_gone), world.gm.user, imported, archives)


def test_unknown_references_and_kinds_are_refused(full_campaign, exported, imported, archives):
    world = full_campaign
    data = exported(world.campaign)

    def dangling(records):
        first(records, "ledger_entry")["account_id"] = 999_999
    assert "refers to account 999999, which the archive does not hold" in refused(
        archives.rewrite(data, dangling), world.gm.user, imported, archives)

    def unknown_kind(records):
        records.append({"kind": "session", "id": 1, "key": "abc"})
    assert "kind 'session', which this Muster does not know" in refused(
        archives.rewrite(data, unknown_kind), world.gm.user, imported, archives)

    def out_of_order(records):
        records.append(dict(first(records, "day"), id=99, number=7))
    assert "out of order" in refused(archives.rewrite(data, out_of_order), world.gm.user, imported, archives)


def test_someone_who_may_not_start_campaigns_imports_nothing(full_campaign, exported, imported, settings, archives):
    world = full_campaign
    settings.CAMPAIGN_CREATORS = "staff"
    data = exported(world.campaign)
    before = archives.rows()
    with pytest.raises(PermissionDenied):
        imported(data, world.ann.user)
    assert archives.rows() == before
