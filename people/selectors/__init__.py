"""People's reads, a module per subject as its services and forms are: ``invites.py`` (an invite by its token
and what it would do, a campaign's invites, the commanders an invite may promise), ``claims.py`` (what a claim
holds, which claims still wait) and ``members.py`` (a user's membership, the GM's members page, the rules it
shares with the member services). No module of it imports a service.

The invite pages' reads are named here too, so their views, forms and service read
``selectors.invite_by_token(...)``; the others are imported from their module.
"""

from .claims import claim_holds, claim_of
from .invites import (
    FORGED,
    campaign_invites,
    commanders_for_invites,
    commanders_without_player,
    invite_by_token,
    invite_commander_refusal,
    invite_refusal,
    open_invite_commanders,
    open_invites,
    uses_count,
)
from .members import member_of

__all__ = [
    "FORGED",
    "campaign_invites",
    "claim_holds",
    "claim_of",
    "commanders_for_invites",
    "commanders_without_player",
    "invite_by_token",
    "invite_commander_refusal",
    "invite_refusal",
    "member_of",
    "open_invite_commanders",
    "open_invites",
    "uses_count",
]
