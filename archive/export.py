"""Writing a campaign's archive: every registered section's records, in order, into one file.

``campaign_export(campaign, fileobj)`` is what the command, the download page and the backups call.
Each section streams its rows (``iterator(chunk_size=...)``), so memory stays bounded whatever the
campaign's size; the download page sends the compressed bytes as they are made (``export_chunks``).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from django.db import connection, transaction

from campaign.models import Campaign

from .format import ArchiveWriter, Summary
from .sections import sections


@contextmanager
def consistent_reads() -> Iterator[None]:
    """Every query inside reads one snapshot of the database, so an archive never holds a ledger entry
    its account's balance missed or an action its table's digest does not include; writers go on
    meanwhile. PostgreSQL: a read-only REPEATABLE READ transaction. SQLite: a deferred (read)
    transaction, which in WAL mode neither waits for nor blocks a writer (an atomic block here would
    take the write lock: settings' transaction_mode IMMEDIATE). Inside a caller's transaction (a test,
    a backup's) that transaction's view is used as it is."""
    if connection.in_atomic_block:
        yield
    elif connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield
    elif connection.vendor == "sqlite":
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("COMMIT")
    else:
        yield


def _records(campaign: Campaign) -> Iterator[dict]:
    for section in sections():
        for record in section.export(campaign):
            if "kind" in record and record["kind"] != section.kind:
                # "kind" is the record's kind: a model field of that name travels as "<section>_kind"
                raise ValueError(
                    f"The {section.kind} section exports a field called kind ({record['kind']!r}): "
                    f"name it e.g. {section.kind}_kind."
                )
            yield {**record, "kind": section.kind}


def campaign_export(campaign: Campaign, fileobj: IO[bytes]) -> Summary:
    """Write ``campaign``'s archive to ``fileobj`` (binary; left open) and return what was written."""
    with consistent_reads():
        writer = ArchiveWriter(fileobj, campaign=campaign.slug, name=campaign.name)
        for record in _records(campaign):
            writer.write(record)
        return writer.close()


class _Drain(io.RawIOBase):
    """A file that keeps what is written until it is taken."""

    def __init__(self):
        self.parts: list[bytes] = []
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.parts.append(bytes(data))
        self.size += len(data)
        return len(data)

    def take(self) -> bytes:
        data, self.parts, self.size = b"".join(self.parts), [], 0
        return data


def export_chunks(campaign: Campaign, *, chunk_bytes: int = 64 * 1024) -> Iterator[bytes]:
    """The archive as compressed chunks of about ``chunk_bytes``, made as they are sent."""
    drain = _Drain()
    with consistent_reads():
        writer = ArchiveWriter(drain, campaign=campaign.slug, name=campaign.name)
        for record in _records(campaign):
            writer.write(record)
            if drain.size >= chunk_bytes:
                yield drain.take()
        writer.close()
    yield drain.take()
