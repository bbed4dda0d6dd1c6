"""Issue 34: an import checks the digest and the bounds before it builds anything, bounds what a record
and the whole file may expand to on the upload page, and replays the tables before its write transaction
(archive/importer.py's passes)."""

from __future__ import annotations

import gzip
from dataclasses import replace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from archive import sections
from archive.format import DEFAULT_LIMITS, ArchiveRefused, encode_line
from archive.upload import UPLOAD_LIMITS
from campaign.models import Campaign

pytestmark = pytest.mark.django_db


def first(records, kind):
    return next(record for record in records if record["kind"] == kind)


def refused_before_loading(data: bytes, user, imported, archives, monkeypatch, **kwargs) -> str:
    """The import's refusal, asserting that no section's loader ran and no row was written."""
    for section in sections.sections():
        def never(record, ctx, kind=section.kind):
            raise AssertionError(f"the {kind} loader ran for a file refused before loading")
        monkeypatch.setitem(sections._registry, section.kind, replace(section, load=never))
    before = archives.rows(), Campaign.objects.count()
    with pytest.raises(ArchiveRefused) as caught:
        imported(data, user, **kwargs)
    assert (archives.rows(), Campaign.objects.count()) == before
    return caught.value.sentence


def test_a_wrong_digest_is_refused_before_any_loader_or_row(full_campaign, exported, imported, archives,
                                                            monkeypatch):
    world = full_campaign
    raw = gzip.decompress(exported(world.campaign))
    tampered = gzip.compress(raw.replace(b'"reason":"A fine"', b'"reason":"A gift"'))
    assert refused_before_loading(tampered, world.gm.user, imported, archives, monkeypatch) == (
        "The file's contents do not match its digest: it was changed after export.")


def test_a_wrong_digest_writes_no_query_at_all(full_campaign, exported, imported):
    world = full_campaign
    raw = gzip.decompress(exported(world.campaign))
    tampered = gzip.compress(raw.replace(b'"reason":"A fine"', b'"reason":"A gift"'))
    with CaptureQueriesContext(connection) as queries, pytest.raises(ArchiveRefused) as caught:
        imported(tampered, world.gm.user, by_operator=True)
    assert "do not match its digest" in caught.value.sentence
    writes = [q["sql"] for q in queries.captured_queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert [sql for sql in writes if "INSERT" in sql.upper() or "UPDATE" in sql.upper()] == []


def zeros_then_cut(data: bytes, archives, per_line: int) -> bytes:
    """The attack of issue 34: activity records whose details are a run of [0,0,…], signed again; then the
    file is cut before its trailer, so a refusal about the zeros shows it came before the trailer."""
    lines = archives.lines(data)
    header, records = lines[0], lines[1:-1]
    model = first(records, "activity")
    records += [{**model, "id": 10**6 + n, "details": {"x": [0] * per_line}} for n in range(3)]
    body = b"".join(encode_line(line) for line in [header, *records])
    return gzip.compress(body)  # no trailer: a reader that reached the end would say "truncated"


def test_a_run_of_zeros_is_refused_by_the_upload_limits_before_anything_is_written(
        full_campaign, exported, imported, archives, monkeypatch):
    world = full_campaign
    per_line = UPLOAD_LIMITS.max_values + 10  # short enough in bytes for a line, too many values
    assert 2 * per_line < UPLOAD_LIMITS.max_line_bytes
    data = zeros_then_cut(exported(world.campaign), archives, per_line)
    sentence = refused_before_loading(data, world.gm.user, imported, archives, monkeypatch, limits=UPLOAD_LIMITS)
    assert sentence.endswith(f"holds more than the {UPLOAD_LIMITS.max_values:,} values a record may.")


def test_the_upload_limits_bound_a_record_and_the_whole_file_below_the_command_lines(full_campaign, exported,
                                                                                      imported):
    assert UPLOAD_LIMITS.max_values < DEFAULT_LIMITS.max_values
    assert UPLOAD_LIMITS.max_line_bytes < DEFAULT_LIMITS.max_line_bytes
    assert UPLOAD_LIMITS.max_decompressed_bytes < DEFAULT_LIMITS.max_decompressed_bytes
    assert UPLOAD_LIMITS.max_records < DEFAULT_LIMITS.max_records
    world = full_campaign
    data = exported(world.campaign)
    copy = imported(data, world.gm.user, limits=UPLOAD_LIMITS)  # a real campaign fits them
    assert copy.pk != world.campaign.pk


def test_the_whole_file_bound_on_unpacked_bytes_refuses_before_loading(full_campaign, exported, imported, archives,
                                                                        monkeypatch):
    world = full_campaign
    data = exported(world.campaign)
    size = len(gzip.decompress(data))
    small = replace(UPLOAD_LIMITS, max_decompressed_bytes=size - 100)
    sentence = refused_before_loading(data, world.gm.user, imported, archives, monkeypatch, limits=small)
    assert sentence.startswith("The file unpacks to more than the")


def test_a_table_that_does_not_replay_is_refused_before_any_row(full_campaign, exported, imported, archives,
                                                                monkeypatch):
    world = full_campaign

    def other_end(records):
        first(records, "table")["digest"] = "f" * 64
    data = archives.rewrite(exported(world.campaign), other_end)
    with CaptureQueriesContext(connection) as queries, pytest.raises(ArchiveRefused) as caught:
        imported(data, world.gm.user, by_operator=True)
    assert "(its end: the final state differs from the table's digest)" in caught.value.sentence
    assert [q["sql"] for q in queries.captured_queries if "INSERT" in q["sql"].upper()] == []


def test_the_tables_are_replayed_outside_the_write_transaction(full_campaign, exported, imported, monkeypatch):
    """Every engine step of the replay runs before the transaction opens (SQLite's write lock is not held
    while the CPU replays), and the copy's tables hold the replayed states."""
    from tabletop.engines import replay

    world = full_campaign
    data = exported(world.campaign)
    inside = []
    real = replay.apply_recorded

    def watched(*args, **kwargs):
        inside.append(connection.in_atomic_block and connection.savepoint_ids != [])
        return real(*args, **kwargs)

    monkeypatch.setattr("archive.sections.tabletop.apply_recorded", watched)
    copy = imported(data, world.gm.user)
    assert inside and not any(inside)
    tables = {t.title: t.state for t in world.campaign.tables.all()}
    assert {t.title: t.state for t in copy.tables.all()} == tables

