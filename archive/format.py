"""The campaign archive's file format (docs/archive-format.md): gzip-compressed JSON Lines.

Line 1 is the header ``{"format": FORMAT, "version": VERSION, "exported_at": ..., "campaign": slug, ...}``,
then one record per line ``{"kind": ..., ...}``, and last the trailer
``{"kind": "end", "records": N, "digest": "sha256:<hex>"}`` whose digest is over the exact bytes of every
line before it (header included, newlines included). A truncated file has no trailer; a changed one has
the wrong digest.

``ArchiveWriter`` writes one; ``read_archive`` reads one as a stream and checks every limit as it goes,
so a hostile file is refused before it costs more than the limits allow. ``check_archive`` is the
importer's first pass (issue 34): it streams the file once checking the header, every limit and the
trailer's count and digest over the raw lines, building no record, so a file that was changed, cut or
padded is refused before anything is parsed, replayed or written. Every refusal is an
``ArchiveRefused`` whose message is a sentence for the person who gave the file.

What a record costs in memory is bounded twice: in bytes (``max_line_bytes``) and in JSON values
(``max_values``), counted before json parses the line. The second matters because a value can be two
bytes of text (``0,``) but is a Python object once parsed: an 8 MB run of ``[0,0,…]`` is four million of
them (issue 34: ten such records compress to 80 KB and took the server past 700 MB).

The writer and the reader are kept in one module, past the house's 400 lines: they are the two sides of one
format (the header, the line encoding, the trailer's count and digest over the raw lines), and a change to
it is made to both at once or an archive written here no longer reads here.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import io
import json
import math
import re
import zlib
from collections import deque
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from django.utils.translation import gettext, gettext_noop

from muster.refusals import Refusal

FORMAT = "muster-campaign-archive"
# 2: a claim not used yet travels as the member it stands for, its id "claim-<pk>" (archive/context.py
# ``CLAIM_ID``); a version-1 reader would refuse such an id. Version 1 archives (no claims) read as before.
VERSION = 2
END = "end"  # the trailer's kind; no section may use it
TRUNCATED = gettext_noop("The file ends before its last line: it is truncated.")

_MiB = 1024 * 1024
INT_BOUND = 2**63  # integers must lie in [-2**63, 2**63 - 1]: what a BigIntegerField holds
MAX_DIGITS = 20  # "-9223372036854775808" is 20 characters; longer is refused before int() parses it


class ArchiveRefused(Refusal):
    """The file is not an archive this Muster takes; the message says why, in one sentence.

    As an engine's ``IllegalAction`` does (docs/architecture.md, "A refusal"): ``message`` is the English
    sentence with named placeholders (marked with ``gettext_noop`` where it is written), ``params`` their
    values, plain data, so the refusal can be kept and sent between processes (the upload's job keeps its
    ``words``) and said where it is shown. ``str(refusal)`` and ``sentence`` are the English one (the logs,
    the job's record); ``say(gettext)`` says it in the active language (``muster.answers.said``). What fills
    a placeholder is the file's own (a record's kind and id, a field's key, a table's title): data, never
    translated."""

    def __init__(self, message: str, **params: Any):
        self.message, self.params = message, params
        self.sentence = say_words([message, params], _english)
        super().__init__(self.sentence)

    def say(self, translate: Callable[[str], str]) -> str:
        """The sentence in the language ``translate`` (``gettext``) looks it up in."""
        return say_words(self.words(), translate)

    def words(self) -> list:
        """The sentence as plain data: [message, params], for ``said``."""
        return [self.message, self.params]


def say_words(words: list, translate: Callable[[str], str]) -> str:
    """``[message, params]`` (``ArchiveRefused.words``) as a sentence, the message looked up by ``translate``.
    A value that is a list holds words of its own (``[[message, params], ...]``), said the same way and
    joined with commas (the fields in which a unit card differs)."""
    message, params = words
    translated = translate(message)
    if not params:
        return translated
    values = {
        name: ", ".join(say_words(part, translate) for part in value) if isinstance(value, list) else value
        for name, value in params.items()
    }
    return translated % values


def _english(message: str) -> str:
    return message


def said(words: list) -> str:
    """``[message, params]`` as a sentence in the active language."""
    return say_words(words, gettext)


@dataclass(frozen=True)
class Limits:
    """What a reader accepts. The defaults fit a long campaign many times over."""

    max_compressed_bytes: int = 200 * _MiB
    max_decompressed_bytes: int = 2000 * _MiB  # a zip bomb stops here
    max_line_bytes: int = 8 * _MiB  # one record: a table with its config and start state is the biggest
    max_depth: int = 48  # nesting of JSON arrays and objects in one record
    max_records: int = 50_000_000
    max_values: int = 4 * _MiB  # JSON values in one record (each a Python object once parsed): 8 MB of "0,"
    # JSON values in any WINDOW consecutive records: the importer holds a batch of a thousand records'
    # rows before it inserts them (archive/context.py BATCH), so this bounds what one batch may hold
    max_window_values: int = 1024 * _MiB


WINDOW = 1000


def count_words(count: int) -> str:
    """A count in words: "1,000"."""
    return f"{count:,}"


DEFAULT_LIMITS = Limits()


def size_words(count: int) -> str:
    """A limit in words: "50 MB", "512 KB", "100 bytes"."""
    if count >= _MiB and count % _MiB == 0:
        return f"{count // _MiB} MB"
    if count >= 1024 and count % 1024 == 0:
        return f"{count // 1024} KB"
    return f"{count} bytes"


def _plain(value: Any) -> Any:
    """json's ``default``: times as ISO strings; anything else that is not plain JSON is a bug."""
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    raise TypeError(f"An archive record holds only plain JSON data, not {type(value).__name__}.")


def encode_line(record: dict) -> bytes:
    return (
        json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False, default=_plain)
        + "\n"
    ).encode("utf-8")


@dataclass
class Summary:
    """What an export wrote: the records (the trailer's N), per kind, the digest and the compressed size."""

    campaign: str
    records: int
    kinds: dict[str, int]
    digest: str
    compressed_bytes: int

    def as_dict(self) -> dict:
        return {
            "campaign": self.campaign,
            "records": self.records,
            "kinds": dict(self.kinds),
            "digest": self.digest,
            "compressed_bytes": self.compressed_bytes,
        }


class _CountingSink(io.RawIOBase):
    """Counts the compressed bytes on their way to the real file."""

    def __init__(self, fileobj: IO[bytes]):
        self.fileobj = fileobj
        self.count = 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.fileobj.write(data)
        self.count += len(data)
        return len(data)


class ArchiveWriter:
    """Writes an archive to ``fileobj`` (binary, left open): the header at once, ``write`` each record,
    ``close`` the trailer and the gzip end. ``close`` returns the ``Summary``."""

    def __init__(self, fileobj: IO[bytes], *, campaign: str, exported_at: datetime.datetime | None = None,
                 **header: Any):
        self._sink = _CountingSink(fileobj)
        # mtime=0: the same records give the same bytes, whenever they are written
        self._gzip = gzip.GzipFile(fileobj=self._sink, mode="wb", compresslevel=6, mtime=0)
        self._digest = hashlib.sha256()
        self._campaign = campaign
        self.records = 0
        self.kinds: dict[str, int] = {}
        self._closed = False
        when = exported_at or datetime.datetime.now(datetime.UTC)
        self._line({"format": FORMAT, "version": VERSION, "exported_at": when.isoformat(), "campaign": campaign,
                    **header})

    def _line(self, record: dict) -> None:
        data = encode_line(record)
        self._digest.update(data)
        self._gzip.write(data)

    def write(self, record: dict) -> None:
        if self._closed:
            raise ValueError("The archive is closed.")
        kind = record.get("kind") if isinstance(record, dict) else None
        if not isinstance(kind, str) or not kind or kind == END:
            raise ValueError(f"An archive record is a dict with a kind other than {END!r}: {record!r:.80}")
        self._line(record)
        self.records += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def close(self) -> Summary:
        if self._closed:
            raise ValueError("The archive is already closed.")
        digest = "sha256:" + self._digest.hexdigest()
        self._gzip.write(encode_line({"kind": END, "records": self.records, "digest": digest}))
        self._gzip.close()  # writes the gzip trailer; the caller's file stays open
        self._closed = True
        return Summary(self._campaign, self.records, dict(self.kinds), digest, self._sink.count)


# ---------------------------------------------------------------------------------------------- reading


class _CountingSource(io.RawIOBase):
    """Reads the compressed file, refusing it once it passes the limit."""

    def __init__(self, fileobj: IO[bytes], limit: int):
        self.fileobj = fileobj
        self.limit = limit
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.fileobj.read(len(buffer))
        self.count += len(data)
        if self.count > self.limit:
            raise ArchiveRefused(gettext_noop("The file is larger than the %(size)s an archive may be."),
                                 size=size_words(self.limit))
        buffer[: len(data)] = data
        return len(data)


_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(rb"[\[\]{}]")


def _depth_problem(line: bytes, max_depth: int) -> bool:
    """Whether the line nests arrays and objects deeper than ``max_depth`` (checked before json parses it,
    whose recursion a deep line would otherwise exhaust)."""
    if line.count(b"[") + line.count(b"{") <= max_depth:
        return False
    depth = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub(b'""', line)):
        if bracket in (b"[", b"{"):
            depth += 1
            if depth > max_depth:
                return True
        else:
            depth -= 1
    return False


def _values(line: bytes, max_values: int) -> int:
    """At most how many JSON values the line holds: its commas and opening brackets outside strings, plus
    one (an empty array or object counts twice). Checked before json parses the line, since each value
    becomes a Python object; the count of the raw line (strings included) answers when it is small."""
    rough = line.count(b",") + line.count(b"[") + line.count(b"{") + 1
    if rough <= max_values:
        return rough
    bare = _STRINGS.sub(b'""', line)
    return bare.count(b",") + bare.count(b"[") + bare.count(b"{") + 1


def _shape_problem(line: bytes, number: int, limits: Limits) -> int:
    """Refuse a line that nests too deep or holds too many values, before anything parses it; returns
    (at most) how many values it holds."""
    if _depth_problem(line, limits.max_depth):
        raise ArchiveRefused(gettext_noop("Line %(line)d nests deeper than the %(depth)d levels an archive may."),
                             line=number, depth=limits.max_depth)
    values = _values(line, limits.max_values)
    if values > limits.max_values:
        raise ArchiveRefused(
            gettext_noop("Line %(line)d holds more than the %(count)s values a record may."),
            line=number, count=count_words(limits.max_values),
        )
    return values


class _Window:
    """The values of the last ``WINDOW`` records, refused past ``max_window_values``."""

    def __init__(self, limit: int):
        self.limit, self.counts, self.total = limit, deque(), 0

    def add(self, values: int, number: int) -> None:
        self.counts.append(values)
        self.total += values
        if len(self.counts) > WINDOW:
            self.total -= self.counts.popleft()
        if self.total > self.limit:
            raise ArchiveRefused(
                gettext_noop("Lines %(first)d to %(last)d hold more than the %(count)s values %(records)s records "
                             "together may."),
                first=max(2, number - WINDOW + 1), last=number, count=count_words(self.limit),
                records=count_words(WINDOW),
            )


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS - 1:
        raise ArchiveRefused(gettext_noop("The file holds a number with %(digits)d digits; an archive's numbers are "
                                          "smaller."), digits=len(text))
    value = int(text)
    if not -INT_BOUND <= value < INT_BOUND:
        raise ArchiveRefused(gettext_noop("The file holds the number %(number)s, beyond what Muster stores."),
                             number=text)
    return value


def _parse_float(text: str) -> float:
    if len(text) > 40:
        raise ArchiveRefused(gettext_noop("The file holds a number written with too many digits."))
    value = float(text)
    if not math.isfinite(value):
        raise ArchiveRefused(gettext_noop("The file holds the number %(number)s, beyond what Muster stores."),
                             number=text[:40])
    return value


def _parse_constant(text: str):
    raise ArchiveRefused(gettext_noop("The file holds %(value)s, which is not a number an archive may hold."),
                         value=text)


def _decode(line: bytes, number: int, limits: Limits, window: _Window | None = None) -> Any:
    values = _shape_problem(line, number, limits)
    if window is not None:
        window.add(values, number)
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ArchiveRefused(gettext_noop("Line %(line)d is not UTF-8 text: the file is damaged."),
                             line=number) from None
    try:
        return json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
        )
    except ArchiveRefused:
        raise
    except RecursionError:
        raise ArchiveRefused(gettext_noop("Line %(line)d nests too deep."), line=number) from None
    except ValueError:
        raise ArchiveRefused(gettext_noop("Line %(line)d is not a JSON record: the file is damaged."),
                             line=number) from None


@dataclass
class ArchiveReader:
    """An archive being read: ``header`` is read and checked at once; iterating yields each record
    (a dict with a known kind), and ends only after the trailer's count and digest are checked.
    ``trailer`` is the trailer once iteration is over."""

    fileobj: IO[bytes]
    limits: Limits = DEFAULT_LIMITS
    kinds: Collection[str] | None = None  # None: any kind; else records of any other kind are refused
    header: dict = field(init=False)
    trailer: dict | None = field(init=False, default=None)

    def __post_init__(self):
        self._source = _CountingSource(self.fileobj, self.limits.max_compressed_bytes)
        self._gzip = gzip.GzipFile(fileobj=io.BufferedReader(self._source, 64 * 1024), mode="rb")
        self._digest = hashlib.sha256()
        self._decompressed = 0
        self._number = 0
        self._started = False
        first = self._next_line()
        if first is None:
            raise ArchiveRefused(gettext_noop("The file is empty: it is not a Muster campaign archive."))
        self.header = self._check_header(first)

    def _readline(self) -> bytes:
        try:
            return self._gzip.readline(self.limits.max_line_bytes + 1)
        except ArchiveRefused:
            raise
        except EOFError:
            raise ArchiveRefused(TRUNCATED) from None
        except (gzip.BadGzipFile, zlib.error, OSError) as error:
            if isinstance(error, gzip.BadGzipFile) and "Not a gzipped file" in str(error) and self._number == 0:
                raise ArchiveRefused(
                    gettext_noop("The file is not gzip-compressed: it is not a Muster campaign archive.")
                ) from error
            raise ArchiveRefused(gettext_noop("The file's compressed data is damaged: it cannot be read.")) from error

    def _next_line(self) -> bytes | None:
        line = self._readline()
        if not line:
            return None
        self._number += 1
        self._decompressed += len(line)
        if self._decompressed > self.limits.max_decompressed_bytes:
            raise ArchiveRefused(
                gettext_noop("The file unpacks to more than the %(size)s an archive may hold."),
                size=size_words(self.limits.max_decompressed_bytes),
            )
        if len(line) > self.limits.max_line_bytes:
            raise ArchiveRefused(
                gettext_noop("Line %(line)d is longer than the %(size)s a record may be."),
                line=self._number, size=size_words(self.limits.max_line_bytes),
            )
        if not line.endswith(b"\n"):
            raise ArchiveRefused(TRUNCATED)
        return line

    def _check_header(self, line: bytes) -> dict:
        try:
            header = _decode(line, 1, self.limits)
        except ArchiveRefused:
            if not line.lstrip().startswith(b"{"):
                raise ArchiveRefused(gettext_noop("The file is not a Muster campaign archive.")) from None
            raise
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ArchiveRefused(gettext_noop("The file is not a Muster campaign archive."))
        version = header.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise ArchiveRefused(gettext_noop("The archive's header names no version this Muster knows."))
        if version > VERSION:
            raise ArchiveRefused(
                gettext_noop("This archive is version %(version)d; this Muster reads version %(known)d: "
                             "update Muster first."),
                version=version, known=VERSION,
            )
        if not isinstance(header.get("campaign"), str) or not isinstance(header.get("exported_at"), str):
            raise ArchiveRefused(
                gettext_noop("The archive's header does not name its campaign and when it was exported.")
            )
        self._digest.update(line)
        return header

    def __iter__(self) -> Iterator[dict]:
        if self._started:
            raise ValueError("An archive is read once.")
        self._started = True
        records, window = 0, _Window(self.limits.max_window_values)
        while True:
            line = self._next_line()
            if line is None:
                raise ArchiveRefused(TRUNCATED)
            record = _decode(line, self._number, self.limits, window)
            if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
                raise ArchiveRefused(gettext_noop("Line %(line)d is not a record with a kind: the file is damaged."),
                                     line=self._number)
            if record["kind"] == END:
                self._finish(record, records)
                return
            if self.kinds is not None and record["kind"] not in self.kinds:
                raise ArchiveRefused(
                    gettext_noop("Line %(line)d is a record of kind %(kind)s, which this Muster does not know."),
                    line=self._number, kind=repr(record["kind"][:40]),
                )
            records += 1
            self._count_record(records)
            self._digest.update(line)
            yield record

    def _count_record(self, records: int) -> None:
        if records > self.limits.max_records:
            raise ArchiveRefused(
                gettext_noop("The file holds more than the %(count)s records an archive may."),
                count=count_words(self.limits.max_records),
            )

    def check(self, progress: Callable[[int], None] | None = None, every: int = 5000) -> dict:
        """Read the rest of the file checking every limit and the trailer's count and digest, without
        parsing a record (only each line's shape: its nesting and its values); returns the trailer.
        ``progress(records)`` is called every ``every`` records. The file's last line is the trailer: the
        line before it is hashed once the next one shows it was not the last."""
        if self._started:
            raise ValueError("An archive is read once.")
        self._started = True
        records, held, window = 0, None, _Window(self.limits.max_window_values)
        while True:
            line = self._next_line()
            if line is None:
                break
            if held is not None:
                records += 1
                self._count_record(records)
                self._digest.update(held)
                if progress is not None and records % every == 0:
                    progress(records)
            window.add(_shape_problem(line, self._number, self.limits), self._number)
            held = line
        if held is None:
            raise ArchiveRefused(TRUNCATED)
        trailer = _decode(held, self._number, self.limits)
        if not isinstance(trailer, dict) or trailer.get("kind") != END:
            raise ArchiveRefused(TRUNCATED)
        self._finish(trailer, records)
        return trailer

    def _finish(self, trailer: dict, records: int) -> None:
        # "changed" only where the digest says so (issue 35): a count that differs under a digest that holds
        # is a file some other writer signed, named for what it is
        digest_holds = trailer.get("digest") == "sha256:" + self._digest.hexdigest()
        if trailer.get("records") != records:
            counted = {"counted": repr(trailer.get("records")), "records": records}
            if digest_holds:
                raise ArchiveRefused(
                    gettext_noop("The file's last line counts %(counted)s records but the file holds %(records)d."),
                    **counted,
                )
            raise ArchiveRefused(
                gettext_noop("The file's last line counts %(counted)s records but the file holds %(records)d: it "
                             "was changed after export."),
                **counted,
            )
        if not digest_holds:
            raise ArchiveRefused(
                gettext_noop("The file's contents do not match its digest: it was changed after export.")
            )
        if self._readline():
            raise ArchiveRefused(gettext_noop("The file goes on after its last line, where an archive ends."))
        self.trailer = trailer


def read_archive(fileobj: IO[bytes], limits: Limits = DEFAULT_LIMITS, *,
                 kinds: Collection[str] | None = None) -> ArchiveReader:
    """Opens an archive for reading: checks the header now (raising ``ArchiveRefused``), and gives an
    object whose iteration yields the records and checks the trailer at the end. ``kinds``: the kinds
    accepted (the importer passes the registered sections' kinds); None accepts any."""
    return ArchiveReader(fileobj, limits, kinds)


def check_archive(fileobj: IO[bytes], limits: Limits = DEFAULT_LIMITS, *,
                  progress: Callable[[int], None] | None = None) -> ArchiveReader:
    """The first pass: reads the whole file checking its header, every limit and its trailer's count and
    digest, parsing no record (``ArchiveReader.check``); raises ``ArchiveRefused``. Returns the reader, its
    ``header`` and ``trailer`` set (it cannot be iterated: open the file again to read the records)."""
    reader = ArchiveReader(fileobj, limits)
    reader.trailer = reader.check(progress)
    return reader
