"""Issue 25, words: a count agrees with its noun ("1 field", "3 cards", never "card(s)"), a ledger reason
reads as a sentence and is not said twice, a seat range says "2 players" when it is one number, the
chart's legend shows each line's colour, and a what-if's title names the table it shows once.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from campaign.charts import Series, line_chart
from campaign.models import LedgerEntry
from tabletop.engines.kernel import counted
from tabletop.forms import GotmTableForm
from tabletop.services.forks import fork_title

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("armies", "campaign", "tabletop", "people", "archive", "muster")
# "{{ n }} cards" with no pluralize: "1 cards" whenever n is 1.
BARE_COUNT = re.compile(
    r"\{\{\s*([^}]+?)\s*\}\}\s+(fields|units|coins|cards|entries|players|seats|commanders|moves|days|points|"
    r"wounds|items|battles|tables)\b"
)


# A counted translation (issue 41) says its plural in its own form: "{% blocktranslate count n=... %}{{ n }} unit
# {% plural %}{{ n }} units{% endblocktranslate %}"; its counts are not bare.
COUNTED = re.compile(r"\{%\s*blocktranslate\b[^%]*\bcount\b.*?\{%\s*endblocktranslate\s*%\}", re.DOTALL)


def test_no_template_counts_without_pluralize_or_says_s_in_brackets():
    found = []
    for path in sorted([*(ROOT / "templates").rglob("*.html"), *(ROOT / "templates").rglob("*.jinja")]):
        text = COUNTED.sub(lambda block: "\n" * block.group(0).count("\n"), path.read_text())
        for number, line in enumerate(text.splitlines(), 1):
            bare = [m.group(0) for m in BARE_COUNT.finditer(line) if "pluralize" not in m.group(1)]
            if bare or "(s)" in line:
                found.append(f"{path.relative_to(ROOT)}:{number}: {bare or '(s)'}")
    assert found == []


def test_a_counted_translation_is_not_a_bare_count_but_a_plain_one_is():
    block = "{% blocktranslate count n=units|length %}{{ n }} unit{% plural %}{{ n }} units{% endblocktranslate %}"
    assert COUNTED.sub("", block) == ""
    assert BARE_COUNT.search(COUNTED.sub("", f"{block} and {{{{ total }}}} units"))


# Lines an engine writes into a game's state are part of every stored log's digests: rewording them
# would stop old tables from replaying to what they recorded (forks, archives, `replay`). Ruling PH9.
WRITTEN_INTO_STATE = {"tabletop/engines/gotm/recovery.py", "tabletop/engines/dungeon/cards.py"}


def test_no_python_string_a_person_reads_says_s_in_brackets():
    found = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts or str(path.relative_to(ROOT)) in WRITTEN_INTO_STATE:
                continue
            tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
            for token in tokens:
                text = token.string
                if token.type == tokenize.STRING and "(s)" in text and not text.lstrip("rbfuRBFU").startswith('"""'):
                    found.append(f"{path.relative_to(ROOT)}:{token.start[0]}")
    assert found == []


@pytest.mark.parametrize(
    ("reason", "kind", "note"),
    [
        ("Opening balance of Captain Annika Vey", LedgerEntry.Kind.OPENING, ""),
        ("Upkeep for day 4: 9 owed, 3 paid", LedgerEntry.Kind.UPKEEP, ""),
        ("Recruited Pikemen", LedgerEntry.Kind.RECRUITMENT, "Recruitment"),
        ("Found a purse", LedgerEntry.Kind.ADJUSTMENT, "GM adjustment"),
    ],
)
def test_a_ledger_line_names_its_kind_only_when_the_reason_does_not(reason, kind, note):
    assert LedgerEntry(reason=reason, kind=kind, amount=1, day=1).kind_note == note


@pytest.mark.django_db
def test_a_seat_range_of_one_number_says_it_once(world):
    form = GotmTableForm({"title": "Too many", "guests": "A\nB\nC", "series_game": 0}, campaign=world.campaign)
    assert not form.is_valid()
    assert "This game seats 2 players; you chose 3." in form.non_field_errors()


def test_the_chart_legend_shows_each_lines_colour_without_an_inline_style():
    chart = line_chart([Series("Lady Vey", [(1, 5), (2, 7)]), Series("Lord Marr", [(1, 3), (2, 1)])])
    legend = chart[chart.index('<ul class="legend">'):]
    assert "style=" not in legend  # the site's CSP refuses inline styles: a styled span showed no colour
    swatches = re.findall(r'<li><svg class="swatch"[^>]*><rect[^>]*fill="(#[0-9a-f]{6})"', legend)
    assert len(swatches) == 2 and swatches[0] != swatches[1]
    assert re.search(r'stroke="' + swatches[0], chart)


def test_a_what_if_of_a_what_if_names_the_table_once():
    first = fork_title("Battle #3: Lady Vey against Lord Marr", 5)
    assert first == "What-if: Battle #3: Lady Vey against Lord Marr from move 5"
    assert fork_title(first, 9) == "What-if: Battle #3: Lady Vey against Lord Marr from move 9"


def test_a_view_counts_what_an_engine_wrote_with_a_bracketed_plural():
    """Ruling PH9: the state keeps "card(s)" (its digests), the views show "1 card" and "3 cards"."""
    assert counted("Ann receives 1 card(s) from the bank.") == "Ann receives 1 card from the bank."
    assert counted("Play from your hand to draw 3 card(s).") == "Play from your hand to draw 3 cards."
    assert counted("No count here (s).") == "No count here (s)."
