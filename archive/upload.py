"""The upload page's bounds: a file bigger than this is refused before it is read (the command line
takes bigger ones, with the default limits of archive/format.py)."""

from dataclasses import replace

from .format import DEFAULT_LIMITS

MAX_UPLOAD_BYTES = 50 * 1024 * 1024
UPLOAD_LIMITS = replace(DEFAULT_LIMITS, max_compressed_bytes=MAX_UPLOAD_BYTES)
