"""archive/format.py: the writer, and the reader's refusal of every kind of bad file (no database)."""

from __future__ import annotations

import gzip
import hashlib
import io
import json

import pytest

from archive.format import (
    FORMAT,
    VERSION,
    ArchiveRefused,
    ArchiveWriter,
    Limits,
    check_archive,
    encode_line,
    read_archive,
)


def write(records, **header) -> bytes:
    out = io.BytesIO()
    writer = ArchiveWriter(out, campaign="siege", **header)
    for record in records:
        writer.write(record)
    writer.close()
    return out.getvalue()


def signed(lines: list[bytes]) -> bytes:
    """Raw lines (header first) with a correct trailer: what a careful forger would write."""
    body = b"".join(lines)
    digest = "sha256:" + hashlib.sha256(body).hexdigest()
    trailer = encode_line({"kind": "end", "records": len(lines) - 1, "digest": digest})
    return gzip.compress(body + trailer)


HEADER = encode_line(
    {"format": FORMAT, "version": VERSION, "exported_at": "2026-01-01T00:00:00+00:00", "campaign": "x"})


DEFAULT = Limits()


def read(data: bytes, limits: Limits = DEFAULT, kinds=None) -> list[dict]:
    return list(read_archive(io.BytesIO(data), limits, kinds=kinds))


def refusal(data: bytes, **kwargs) -> str:
    with pytest.raises(ArchiveRefused) as caught:
        read(data, **kwargs)
    return caught.value.sentence


def test_what_is_written_is_read_back_with_its_header_and_trailer():
    records = [{"kind": "day", "id": 1, "number": 1}, {"kind": "day", "id": 2, "number": 2, "note": "ü ✓"}]
    data = write(records)
    reader = read_archive(io.BytesIO(data))
    assert reader.header["format"] == FORMAT and reader.header["version"] == VERSION
    assert reader.header["campaign"] == "siege"
    assert list(reader) == records
    assert reader.trailer["records"] == 2 and reader.trailer["digest"].startswith("sha256:")


def test_the_writer_refuses_a_record_without_a_kind_or_with_the_trailers():
    writer = ArchiveWriter(io.BytesIO(), campaign="x")
    for bad in ({"id": 1}, {"kind": "end"}, ["day"]):
        with pytest.raises(ValueError):
            writer.write(bad)


def test_a_truncated_file_is_refused():
    data = write([{"kind": "day", "id": n} for n in range(200)])
    raw = gzip.decompress(data)
    cut_inside_a_line = gzip.compress(raw[: len(raw) - 30])
    assert refusal(cut_inside_a_line) == "The file ends before its last line: it is truncated."
    lines = raw.splitlines(keepends=True)
    without_trailer = gzip.compress(b"".join(lines[:-1]))
    assert refusal(without_trailer) == "The file ends before its last line: it is truncated."
    cut_compressed = data[: len(data) // 2]
    assert "truncated" in refusal(cut_compressed)


def test_gzip_garbage_and_a_plain_file_are_refused():
    data = write([{"kind": "day", "id": n} for n in range(500)])
    damaged = data[:40] + bytes(b ^ 0xFF for b in data[40:80]) + data[80:]
    assert refusal(damaged) in {
        "The file's compressed data is damaged: it cannot be read.",
        "The file ends before its last line: it is truncated.",
        "The file's contents do not match its digest: it was changed after export.",
    }
    assert refusal(b"name,amount\nann,5\n") == "The file is not gzip-compressed: it is not a Muster campaign archive."
    assert refusal(gzip.compress(b'{"hello": 1}\n')) == "The file is not a Muster campaign archive."
    assert refusal(b"") == "The file is empty: it is not a Muster campaign archive."


def test_a_record_changed_after_export_fails_the_digest():
    data = write([{"kind": "ledger_entry", "id": 1, "amount": 5}])
    tampered = gzip.compress(gzip.decompress(data).replace(b'"amount":5', b'"amount":500'))
    assert refusal(tampered) == "The file's contents do not match its digest: it was changed after export."
    lines = gzip.decompress(data).splitlines(keepends=True)
    dropped = gzip.compress(lines[0] + lines[2])  # the record gone, the trailer kept
    assert "records but the file holds 0" in refusal(dropped)
    extra = gzip.compress(gzip.decompress(data) + b'{"kind":"day"}\n')
    assert refusal(extra) == "The file goes on after its last line, where an archive ends."


def test_a_newer_version_asks_for_an_update():
    header = encode_line({"format": FORMAT, "version": 3, "exported_at": "2030-01-01T00:00:00+00:00", "campaign": "x"})
    assert refusal(signed([header])) == "This archive is version 3; this Muster reads version 2: update Muster first."


def test_an_oversized_file_a_long_line_and_a_zip_bomb_are_refused():
    data = write([{"kind": "day", "id": n, "pad": "x" * 1000} for n in range(300)])
    assert refusal(data, limits=Limits(max_compressed_bytes=1024)) == (
        "The file is larger than the 1 KB an archive may be.")
    assert "is longer than" in refusal(data, limits=Limits(max_line_bytes=500))
    bomb = signed([HEADER] + [b'{"kind":"day","pad":"' + b"0" * (3 * 1024 * 1024) + b'"}\n'] * 4)
    assert len(bomb) < 100 * 1024  # small on the wire
    assert refusal(bomb, limits=Limits(max_decompressed_bytes=8 * 1024 * 1024)) == (
        "The file unpacks to more than the 8 MB an archive may hold.")


def test_deep_nesting_is_refused_before_json_recurses():
    deep = b'{"kind":"day","x":' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    assert refusal(signed([HEADER, deep])) == "Line 2 nests deeper than the 48 levels an archive may."
    brackets_in_text = encode_line({"kind": "day", "text": "[" * 500})
    assert read(signed([HEADER, brackets_in_text])) == [{"kind": "day", "text": "[" * 500}]


@pytest.mark.parametrize("number", [b"9" * 5000, b"9223372036854775808", b"-9223372036854775809", b"1e999", b"NaN"])
def test_huge_numbers_are_refused(number):
    line = b'{"kind":"day","amount":' + number + b"}\n"
    sentence = refusal(signed([HEADER, line]))
    assert "number" in sentence or "NaN" in sentence
    ok = b'{"kind":"day","amount":9223372036854775807}\n'
    assert read(signed([HEADER, ok])) == [{"kind": "day", "amount": 2**63 - 1}]


def test_only_known_kinds_and_dict_records_are_read():
    data = signed([HEADER, b'{"kind":"password_hash","id":1}\n'])
    assert refusal(data, kinds={"day"}) == (
        "Line 2 is a record of kind 'password_hash', which this Muster does not know.")
    assert refusal(signed([HEADER, b"[1,2]\n"])) == "Line 2 is not a record with a kind: the file is damaged."
    assert refusal(signed([HEADER, b"not json\n"])) == "Line 2 is not a JSON record: the file is damaged."


def test_the_same_records_give_the_same_bytes():
    records = [{"kind": "day", "id": 1}]
    assert write(records, exported_at=None) != b""
    one, two = (json.loads(gzip.decompress(write(records)).splitlines()[1]) for _ in range(2))
    assert one == two


def checked(data: bytes, limits: Limits = DEFAULT) -> str:
    with pytest.raises(ArchiveRefused) as caught:
        check_archive(io.BytesIO(data), limits)
    return caught.value.sentence


def test_a_record_of_too_many_values_is_refused_before_json_parses_it(monkeypatch):
    zeros = encode_line({"kind": "day", "x": [0] * 2000})
    limits = Limits(max_values=1000)
    parsed = []
    real = json.loads
    monkeypatch.setattr("archive.format.json.loads", lambda text, **kw: parsed.append(text) or real(text, **kw))
    assert refusal(signed([HEADER, zeros]), limits=limits) == "Line 2 holds more than the 1,000 values a record may."
    assert checked(signed([HEADER, zeros]), limits) == "Line 2 holds more than the 1,000 values a record may."
    assert parsed and all('"x":[' not in text for text in parsed)  # the header only
    commas_in_text = encode_line({"kind": "day", "text": ",[{" * 3000})  # a string's commas are one value
    assert read(signed([HEADER, commas_in_text]), limits=limits) == [{"kind": "day", "text": ",[{" * 3000}]


def test_a_thousand_records_together_are_bounded_in_values():
    lines = [encode_line({"kind": "day", "id": n, "x": [0] * 99}) for n in range(1500)]
    per_line = lines[0].count(b",") + 2 + 1  # 100 commas, two opening brackets, plus one: 103
    limits = Limits(max_window_values=50_000)  # a thousand lines hold 103,000
    last = 1 + 50_000 // per_line + 1  # the line that takes the window past 50,000 (line 1 is the header)
    assert refusal(signed([HEADER, *lines]), limits=limits) == (
        f"Lines 2 to {last} hold more than the 50,000 values 1,000 records together may.")
    assert checked(signed([HEADER, *lines]), limits).startswith(f"Lines 2 to {last} hold more than")
    assert len(read(signed([HEADER, *lines]), limits=Limits(max_window_values=110_000))) == 1500


def test_the_check_reads_the_raw_lines_and_refuses_a_bound_before_the_trailer():
    data = write([{"kind": "day", "id": n} for n in range(10)])
    reader = check_archive(io.BytesIO(data))
    assert reader.header["campaign"] == "siege" and reader.trailer["records"] == 10
    raw = gzip.decompress(data)
    assert checked(gzip.compress(raw.replace(b'"id":3', b'"id":4'))) == (
        "The file's contents do not match its digest: it was changed after export.")
    assert checked(gzip.compress(raw[:-30])) == "The file ends before its last line: it is truncated."
    # a line past the bounds is refused where it stands, not at the end (this file has no trailer at all)
    cut = gzip.compress(HEADER + encode_line({"kind": "day", "x": [0] * 2000}) + b'{"kind":"day"}\n')
    assert checked(cut, Limits(max_values=1000)) == "Line 2 holds more than the 1,000 values a record may."
    assert checked(signed([HEADER] + [b'{"kind":"day"}\n'] * 5), Limits(max_records=3)) == (
        "The file holds more than the 3 records an archive may.")
