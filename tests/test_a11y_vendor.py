"""The vendored axe-core is the one tests/vendor/README.md names: version at least 4.14, checksum unchanged.

The browser tests' accessibility verdict is only as good as the axe-core they run. An older file (4.12 runs
no ``label-content-name-mismatch`` by default) or an edited one would pass pages that the current axe fails,
so both are checked here, without a browser.
"""

import hashlib

from tests.a11y import AXE_FILE, AXE_MINIMUM, axe_source, axe_version

SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"


def test_the_vendored_axe_core_is_at_least_the_minimum_version():
    version = tuple(int(part) for part in axe_version().split(".")[:2])
    assert version >= AXE_MINIMUM, f"{AXE_FILE} is axe-core {axe_version()}, older than {AXE_MINIMUM}"


def test_the_vendored_axe_core_is_the_file_the_readme_names_with_its_licence_header():
    assert hashlib.sha256(AXE_FILE.read_bytes()).hexdigest() == SHA256
    assert SHA256 in (AXE_FILE.parent / "README.md").read_text(encoding="utf-8")
    assert "Mozilla Public" in axe_source()[:400]

