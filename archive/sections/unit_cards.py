"""The unit cards an archive's armies use (docs/archive-format.md, "Armies").

Unit cards are instance-wide (one catalog every GM's offers draw from), so an archive, which is outside data,
must not write it: a "Free Dragons" card (Strength 9, price 0) in one GM's archive would be offered to every
GM (issue 34). The archive carries the definition of every card the campaign's units and offers use, and each
is matched to the catalog here by its code (or a code an earlier staff import gave it, ``<code>-<n>``) with
every rule field equal (``CARD_DEFINITION``). A card that does not match is refused with a sentence naming it
and what differs, unless staff (or the operator, on the command line) import: then it is added under its code
(or the first free ``<code>-<n>``), marked imported and **inactive**, so the campaign's units and offers keep
it and no GM is offered it until staff activate it in the admin. A card here is never changed by an import.
An empty catalog (a fresh instance) is first given Muster's starter units, as any GM may (ruling AC2), so a
campaign played with them imports anywhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext_noop

from armies.catalog import unit_catalog_load_starter
from armies.models import ArmyUnit, Path, RecruitOffer, Role, UnitCard
from campaign.models import Campaign
from tabletop.catalog import CatalogImportError
from tabletop.models import CatalogEntry

from .. import records as r
from ..context import ImportContext
from ..format import ArchiveRefused
from ..records import rows
from .kinds import UNIT_CARD

# Choices as sets, made once: an enum's ``values`` builds a new list at every call (a third of the
# import's time in loaders with 240,000 records, bench/archive.py).
ROLES, PATHS, SOURCES = frozenset(Role.values), frozenset(Path.values), frozenset(CatalogEntry.Source.values)

CARD_DEFINITION = ("name", "strength", "role", "path", "traits", "abilities", "upkeep", "price", "text")
CARD_CODE_LENGTH = UnitCard._meta.get_field("code").max_length


def export_unit_cards(campaign: Campaign) -> Iterator[dict]:
    used = Q(pk__in=ArmyUnit.objects.filter(commander__campaign=campaign).values("card_id")) | Q(
        pk__in=RecruitOffer.objects.filter(campaign=campaign).values("card_id")
    )
    fields = ("id", "code", *CARD_DEFINITION, "source", "active")
    return rows(UnitCard.objects.filter(used), fields)


def _card_variant(code: str, number: int) -> str:
    suffix = f"-{number}"
    return code[: CARD_CODE_LENGTH - len(suffix)] + suffix


def _is_variant(found: str, code: str) -> bool:
    """Whether ``found`` is ``code`` or a code an earlier import gave a different card of that code."""
    if found == code:
        return True
    head, _, number = found.rpartition("-")
    return number.isdigit() and found == _card_variant(code, int(number))


def _card_definition(values: dict) -> tuple:
    return tuple(values[name] for name in CARD_DEFINITION)


def _differences(card: UnitCard, values: dict) -> list[list]:
    """What differs between the catalog's ``card`` and the archive's definition: each field's key, its value
    in the archive and here."""
    return [[name, _shown(values[name]), _shown(getattr(card, name))]
            for name in CARD_DEFINITION if getattr(card, name) != values[name]]


def _shown(value: Any) -> str:
    text = "none" if value is None else repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "…"


CARD_MISSING = gettext_noop(
    "The archive's unit card “%(name)s” (%(code)s) is not in this site's unit catalog. An import changes no card "
    "every GM is offered: staff add the card in the admin, or import the archive themselves (its cards are then "
    "kept for that campaign, not offered to other GMs)."
)
CARD_DIFFERS = gettext_noop(
    "The archive's unit card “%(name)s” (%(code)s) differs from this site's card of that code (%(differences)s). "
    "An import changes no card every GM is offered: staff add the card in the admin, or import the archive "
    "themselves (its cards are then kept for that campaign, not offered to other GMs)."
)
# one field that differs: its key, its value in the archive, its value here (the file's and the catalog's data)
CARD_FIELD_DIFFERS = gettext_noop("%(field)s %(archive)s in the archive, %(here)s here")


def _card_refusal(code: str, values: dict, same_code: UnitCard | None) -> ArchiveRefused:
    named = {"name": values["name"][:60], "code": code[:CARD_CODE_LENGTH]}
    if same_code is None:
        return ArchiveRefused(CARD_MISSING, **named)
    differences = [[CARD_FIELD_DIFFERS, {"field": field, "archive": archive, "here": here}]  # said with the rest
                   for field, archive, here in _differences(same_code, values)]
    return ArchiveRefused(CARD_DIFFERS, differences=differences, **named)


def _fill_an_empty_catalog(ctx: ImportContext) -> None:
    """Muster's starter units into an empty unit catalog, once per import, as any GM may (ruling AC2)."""
    if ctx.catalog_looked_at:
        return
    ctx.catalog_looked_at = True
    if UnitCard.objects.exists():
        return
    try:
        unit_catalog_load_starter()
    except (CatalogImportError, LookupError):  # no starter data here: every card must then match (or staff add it)
        pass


def load_unit_card(record: dict, ctx: ImportContext) -> None:
    what = r.named(gettext_noop("unit card"))
    code = r.str_of(record, "code", what=what, blank=False)
    values = {
        "name": r.str_of(record, "name", what=what, blank=False),
        "strength": r.int_of(record, "strength", what=what, null=True),
        "role": r.str_of(record, "role", what=what, choices=ROLES),
        "path": r.str_of(record, "path", what=what, choices=PATHS),
        "traits": r.json_of(record, "traits", (list,), what=what),
        "abilities": r.json_of(record, "abilities", (list,), what=what),
        "upkeep": r.int_of(record, "upkeep", what=what),
        "price": r.int_of(record, "price", what=what),
        "text": r.str_of(record, "text", what=what),
    }
    r.str_of(record, "source", what=what, choices=SOURCES)
    r.bool_of(record, "active", what=what)
    _fill_an_empty_catalog(ctx)
    wanted = _card_definition(values)
    near = list(UnitCard.objects.filter(code__startswith=code[: CARD_CODE_LENGTH - 12]))
    same = [card for card in near if _is_variant(card.code, code) and _card_definition(vars(card)) == wanted]
    if same:
        card = min(same, key=lambda card: (card.code != code, len(card.code), card.code))
    elif not ctx.may_add_cards:
        raise _card_refusal(code, values, next((card for card in near if card.code == code), None))
    else:
        taken = {card.code for card in near}
        new_code = code if code not in taken else next(
            _card_variant(code, n) for n in range(2, len(taken) + 3) if _card_variant(code, n) not in taken
        )
        # kept for the imported campaign's units and offers; offered to no GM until staff activate it
        card = UnitCard(code=new_code, source=CatalogEntry.Source.IMPORTED, active=False, **values)
        try:
            card.full_clean()
        except ValidationError as error:
            raise ArchiveRefused(gettext_noop("The archive's unit card %(code)s is not a valid card: %(error)s"),
                                 code=repr(code[:40]), error=str(error)) from None
        card.save()
        ctx.cards_added.append(card.pk)
    ctx.record_id(UNIT_CARD, r.int_of(record, "id", what=what), card.pk)

