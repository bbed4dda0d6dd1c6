"""The upload page's bounds, fitted to what a real long campaign needs (bench/archive.py, docs/benchmarks.md)
with headroom, and well below the command line's (the default limits of archive/format.py, for an operator
who knows the file).

A web upload is an outside file (issue 34): its digest proves nothing, since whoever wrote it signed it.
What it may cost is bounded here. Measured (2026-12-07): the biggest record of a campaign is a table (a
Gridaris table with its card list: 12 KB and 1,205 JSON values; an Army battle: 2.7 KB and 197 values);
the benchmark's campaign of 10,000 commanders over a year is 535,001 records, about 105 MB unpacked
(11.8 MB for 60,024 records). So a record may be 512 KB and 20,000 values (about 16 times the biggest
seen), a thousand consecutive records 2,000,000 values (the importer holds a batch of a thousand before it
inserts: a thousand Gridaris tables are 1.2 million), and the file 512 MB unpacked and 2,000,000 records
(about four times the benchmark's campaign). The worst a batch can then hold is about 2 million Python
objects (some 150 MB if every one were an empty object; 16 MB for a run of zeros), against the 700 MB
that ten 8 MB runs of ``[0,0,…]`` took (docs/benchmarks.md).
"""

from dataclasses import replace

from .format import DEFAULT_LIMITS

_MiB = 1024 * 1024
MAX_UPLOAD_BYTES = 50 * _MiB
UPLOAD_LIMITS = replace(
    DEFAULT_LIMITS,
    max_compressed_bytes=MAX_UPLOAD_BYTES,
    max_decompressed_bytes=512 * _MiB,
    max_line_bytes=512 * 1024,
    max_values=20_000,
    max_window_values=2_000_000,
    max_records=2_000_000,
)
