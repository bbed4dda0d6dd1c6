"""Where each armies kind of record loads among the others, and the names other records give it.

The core kinds load in this order (archive/sections/campaign.py, people.py, tabletop.py): campaign 10,
day 20, member 30, account 40, table 100, seat 110, table_action 120, stake 130, invite 160, activity 170,
ledger_entry 180. The armies kinds (archive/sections/armies.py, unit_cards.py, battles.py) fit between them:
commanders after the members and accounts they belong to; battles after the tables they are played at; unit
events last, after the activity log, so their causes (offers, settlements, battles, activities) map as they
load.
"""

from __future__ import annotations

# The kinds this module writes, and those of the core sections its records refer to.
UNIT_CARD = "unit_card"
COMMANDER = "commander"
ARMY_UNIT = "army_unit"
RECRUIT_OFFER = "recruit_offer"
DAY_END = "day_end"
SETTLEMENT = "settlement"
BATTLE = "battle"
UNIT_USE = "unit_use"
UNIT_EVENT = "unit_event"
MEMBERSHIP = "member"
ACCOUNT = "account"
TABLE = "table"
ACTIVITY = "activity"

ORDER = {
    UNIT_CARD: 50,
    COMMANDER: 55,
    ARMY_UNIT: 60,
    RECRUIT_OFFER: 65,
    DAY_END: 70,
    SETTLEMENT: 75,
    BATTLE: 150,
    UNIT_USE: 155,
    UNIT_EVENT: 190,
}

# What other records call each kind in a free reference (a unit event's or ledger entry's ``cause_type``,
# an activity's ``target_type``, which is the model's name): ``ImportContext.free_ref`` maps them.
NAMES = {
    UNIT_CARD: ("unitcard",),
    COMMANDER: ("commander",),
    ARMY_UNIT: ("armyunit",),
    RECRUIT_OFFER: ("offer", "recruitoffer"),
    DAY_END: ("dayend",),
    SETTLEMENT: ("settlement",),
    BATTLE: ("battle",),
    UNIT_USE: ("unituse",),
    UNIT_EVENT: ("unitevent",),
}
