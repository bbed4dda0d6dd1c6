"""A member's campaign page is live (issue 25): it hears when a table or battle they are seated at opens,
finishes, is abandoned or reopened by an undo, and fetches its panels again (muster/live.py: a push
carries a key, never content).

``campaign`` knows nothing of tables: an app registers a part of the page's key (``key_part(fn)``,
``fn(membership) -> str``, one query at most) from its ``AppConfig.ready`` and calls ``member_moved``
when what it shows a member changed. The page compares its key with the socket's and with the poll's
answer (204 while unchanged)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from muster.live import LiveConsumer, announce_on_commit

from .permissions import membership_for

KeyPart = Callable[[object], str]
_PARTS: list[KeyPart] = []
# What a push says: "look again". A page's own key is never this, so it always fetches, and the
# fetch (its poll) answers with the key as it is then.
MOVED = "moved"


def key_part(fn: KeyPart) -> KeyPart:
    if fn not in _PARTS:
        _PARTS.append(fn)
    return fn


def member_group(membership_id: int) -> str:
    return f"member.{membership_id}"


def home_key(membership) -> str:
    """The member's page's key: every registered part, joined."""
    return "|".join(part(membership) for part in _PARTS) or "-"


def member_moved(membership_ids: Iterable[int]) -> None:
    """Each member's campaign page fetches its panels once the current transaction commits."""
    for membership_id in sorted(set(membership_ids)):
        announce_on_commit(member_group(membership_id), MOVED)


class HomeConsumer(LiveConsumer):
    """A member's campaign page: that member only (the group is their membership's)."""

    def watch(self, user, *, slug: str) -> tuple[str, str]:
        membership = membership_for(user, slug)
        return member_group(membership.pk), home_key(membership)
