"""A battle table's links (tabletop's ``table_links`` hook, issue 25): the GM's way to the armies page
and the battle; once the battle is over, its result and luck report for those who may open it (the GM
and the players of its commanders: ``selectors.battles.battle_for``'s rule)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext, gettext_noop

from tabletop.hooks import Link, TableViewer
from tabletop.models import Table

from .models import Battle
from .selectors.battles import battle_players

RESULT = gettext_noop("Result and luck report")


def battle_links(table: Table, viewer: TableViewer) -> list[Link]:
    """One query (the table's battle with its two commanders) for the GM, and for a player once the game
    is over; none for a player's page of a battle still on (every action and fetch of its phones)."""
    if viewer.guest or viewer.membership_id is None:
        return []  # a guest's seat opens no page of the campaign
    over = table.status == Table.Status.FINISHED
    if viewer.kind != "gm" and not over:
        return []  # a player's link is the result's, once it is over: no query while the battle is on
    battle = (
        Battle.objects.select_related("attacker", "defender")
        .only("pk", "attacker__kind", "attacker__membership_id", "defender__kind", "defender__membership_id")
        .filter(table_id=table.pk)
        .first()
    )
    if battle is None:
        return []
    slug = table.campaign.slug
    result = reverse("armies:battle_result", args=[slug, battle.pk])
    if viewer.kind == "gm":
        links = [(gettext("Armies"), reverse("armies:list", args=[slug]))]
        battle_link = (gettext("Battle #%(pk)s") % {"pk": battle.pk}, result)
        return [*links, (gettext(RESULT), f"{result}#luck") if over else battle_link]
    if over and viewer.membership_id in battle_players(battle):
        return [(gettext(RESULT), f"{result}#luck")]
    return []
