"""Loading the starter catalogs (designed by Muster, not official) into the database."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext

from ..engines.gridaris.starter import SCENARIOS, STARTER_CARDS
from ..engines.mercenarium.cards import STARTER_CARDS as MERCENARIUM_STARTER_CARDS
from ..engines.mercenarium.cards import STARTER_HYMNS as MERCENARIUM_STARTER_HYMNS
from ..models import CatalogEntry
from . import (
    GRIDARIS_CARDS,
    GRIDARIS_SCENARIOS,
    MERCENARIUM_CARDS,
    MERCENARIUM_HYMNS,
    CatalogSpec,
    ImportReport,
    catalog_import,
)


@dataclass(frozen=True)
class StarterReport:
    cards: ImportReport
    scenarios: ImportReport
    mercenarium_cards: ImportReport | None = None
    mercenarium_hymns: ImportReport | None = None

    def lines(self) -> list[str]:
        lines = [
            capfirst(GRIDARIS_CARDS.noun) + ": " + _counts(self.cards),
            capfirst(GRIDARIS_SCENARIOS.noun) + ": " + _counts(self.scenarios),
        ]
        if self.mercenarium_cards is not None and self.mercenarium_hymns is not None:
            lines.append(capfirst(MERCENARIUM_CARDS.noun) + ": " + _counts(self.mercenarium_cards))
            lines.append(capfirst(MERCENARIUM_HYMNS.noun) + ": " + _counts(self.mercenarium_hymns))
        return lines


@transaction.atomic
def catalog_load_starter() -> StarterReport:
    """Create or refresh the Gridaris cards and scenarios and Mercenarium cards and hymns (``source="starter"``).

    Idempotent: a second run finds every row unchanged.  A starter row someone edited is
    put back to its starter values; ``active`` is left as the admin set it, and rows with
    other keys (imported or custom cards) are not touched.
    """
    card_rows = [
        {"code": card["id"], "name": card["name"], "card_class": card["class"], "tier": card["tier"],
         "stars": card["stars"], "top": card["edges"][0], "right": card["edges"][1],
         "bottom": card["edges"][2], "left": card["edges"][3]}
        for card in STARTER_CARDS
    ]
    scenario_rows = [{"key": s["key"], "name": s["name"], "text": s["text"]} for s in SCENARIOS]
    return StarterReport(
        cards=_load(GRIDARIS_CARDS, card_rows),
        scenarios=_load(GRIDARIS_SCENARIOS, scenario_rows),
        mercenarium_cards=_load(MERCENARIUM_CARDS, [
            {"code": c["id"], "name": c["name"], "suit": c["suit"], "value": c["value"], "top": c["aura"][0],
             "right": c["aura"][1], "bottom": c["aura"][2], "left": c["aura"][3]}
            for c in MERCENARIUM_STARTER_CARDS
        ]),
        mercenarium_hymns=_load(MERCENARIUM_HYMNS, [
            {"code": h["id"], "number": h["number"], "name": h["name"], "effect": h["effect"], "text": h["text"]}
            for h in MERCENARIUM_STARTER_HYMNS
        ]),
    )


def _load(spec: CatalogSpec, rows: list[dict]) -> ImportReport:
    columns = [name for name in spec.fields if name != "active"]
    return catalog_import(
        spec=spec,
        rows=list(enumerate(rows, start=1)),
        source=CatalogEntry.Source.STARTER,
        unit="starter row",
        columns=columns,
    )


def _counts(report: ImportReport) -> str:
    return gettext("%(created)s created, %(updated)s updated, %(unchanged)s unchanged.") % {
        "created": report.created, "updated": report.updated, "unchanged": report.unchanged}
