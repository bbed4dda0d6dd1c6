"""docs/rulings.md stays a true index: one ruling per id, and every test it names exists.

Two sessions once both wrote a ruling LV1; a ruling whose test was renamed points at nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULINGS = (ROOT / "docs" / "rulings.md").read_text()
HEADING = re.compile(r"^### ([A-Z]+\d+[a-z]?)\. ", re.MULTILINE)
# `tests/x.py`, `tests/x.py::test_name`, and after one of those on the same line `::test_other` (same file)
NAMED = re.compile(r"`(tests/[\w/]+\.py)?(?:::(\w+))?`")


def named_tests() -> set[tuple[str, str]]:
    named = set()
    for line in RULINGS.splitlines():
        module = ""
        for path, name in NAMED.findall(line):
            module = path or module
            if module and (path or name):
                named.add((module, name))
    return named


def test_every_ruling_id_is_used_once():
    counts = Counter(HEADING.findall(RULINGS))
    assert counts, "no ruling headings found"
    assert [ruling for ruling, count in counts.items() if count > 1] == []


def test_every_test_a_ruling_names_exists():
    named = named_tests()
    assert len(named) > 100, "the rulings' tests were not found"
    missing = []
    for path, name in named_tests():
        module = ROOT / path
        if not module.exists():
            missing.append(path)
        elif name and not re.search(rf"^(async )?def {name}\b", module.read_text(), re.MULTILINE):
            missing.append(f"{path}::{name}")
    assert sorted(missing) == []
