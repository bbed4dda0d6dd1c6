"""Who may see and do what, in one place.

- The GM of a campaign sees and does everything in it.
- A player sees the campaign's public pages and their own things.
- Anyone else gets 404 for every campaign URL, so slugs do not leak.
- Staff manage the card catalogs in the admin; being staff gives no campaign access.
- Who may start a campaign is the site's choice (settings.CAMPAIGN_CREATORS): every signed-in
  user ("everyone"), or staff alone ("staff"); the starter is the new campaign's GM.
- A thing bound to one member (a seat at a table) opens for that member only;
  a guest seat opens with its secret link alone.

A seat's phone asks on every action and fetch whether its login is the seat's member, and every campaign
page whose member the login is: the seat's or the membership's own query reads that member's user, so
``login_is`` checks the session against that row rather than loading the user a second time, and the
caller goes Django's own way whenever it is not sure (issue 26).
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, load_backend
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from muster.prepared import Prepared

from .models import Campaign, Membership

# A member's membership of a campaign with the campaign and the user (one per pair: no ordering needed).
_MEMBERSHIP = Prepared(
    lambda slug, user_id: Membership.objects.select_related("campaign", "user")
    .filter(campaign__slug=slug, user_id=user_id, campaign__importing_at__isnull=True)  # not one being imported
    .order_by(),
    slug=str,
    user_id=int,
)


def membership_for(user, slug: str) -> Membership:
    """The user's membership of the campaign ``slug``, or 404 (also when it does not exist)."""
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    membership = _MEMBERSHIP.first(slug=slug, user_id=user.pk)
    if membership is None:
        raise Http404("No such campaign.")
    return membership


def membership_of_login(request, slug: str) -> Membership | None:
    """The membership of campaign ``slug`` of the user the session names, with that user, when the session
    is that user's login (``login_is``): then it is also ``request.user``, and the user cost no query of
    its own. None for no session, no such membership, or a session Django must judge."""
    try:
        user_id = int(request.session[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None
    membership = _MEMBERSHIP.first(slug=slug, user_id=user_id)
    if membership is None or not login_is(request, membership.user):
        return None
    request.user = membership.user
    return membership


def require_own(user, membership: Membership | None) -> None:
    """A thing bound to a member (a seat, later a commander) is theirs alone; unbound things are open."""
    if membership is None or membership.user_id == user.id:
        return
    if not user.is_authenticated:
        raise PermissionDenied(_("Log in to take your seat."))
    raise PermissionDenied(_("This belongs to another player."))


def login_is(request, user) -> bool:
    """Whether the request's session is ``user``'s login, as ``django.contrib.auth.get_user`` would find,
    for a ``user`` row already loaded with every field: the session names this user, through a backend
    of AUTHENTICATION_BACKENDS whose ``get_user`` is ModelBackend's own (the user by primary key, if it
    may log in: active), and holds the hash of the user's password as it is now. Anything else is False,
    and the caller asks ``request.user``: Django then decides (and rotates a hash made with an old
    SECRET_KEY, or flushes a session whose password changed)."""
    session = request.session
    try:
        user_id = user._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return False
    if user_id != user.pk or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return False
    backend = load_backend(backend_path)
    if type(backend).get_user is not ModelBackend.get_user or not backend.user_can_authenticate(user):
        return False
    session_hash = session.get(HASH_SESSION_KEY)
    return bool(session_hash) and constant_time_compare(session_hash, user.get_session_auth_hash())


def require_own_login(request, membership: Membership | None) -> None:
    """``require_own`` for the request's login, where ``membership.user`` was loaded with all its fields
    (a seat's token query): the member's own login becomes ``request.user`` with no query for it."""
    if membership is not None and login_is(request, membership.user):
        request.user = membership.user
        return
    require_own(request.user, membership)


def signed_in(request, membership: Membership | None) -> bool:
    """Whether the request has a login, without a query when it is ``membership``'s (as above)."""
    if membership is not None and login_is(request, membership.user):
        request.user = membership.user
        return True
    return request.user.is_authenticated


CREATORS_STAFF_ONLY = gettext_noop("On this site only staff start campaigns: ask an administrator to start yours.")


def may_create_campaigns(user) -> bool:
    """Whether ``user`` may start a campaign here (settings.CAMPAIGN_CREATORS)."""
    if not user.is_authenticated or not user.is_active:
        return False
    return settings.CAMPAIGN_CREATORS == "everyone" or user.is_staff


def require_campaign_creator(user) -> None:
    """Refuse (403, with a sentence) a user who may not start a campaign."""
    if not user.is_authenticated:
        raise PermissionDenied(_("Log in to start a campaign."))
    if not may_create_campaigns(user):
        raise PermissionDenied(_(CREATORS_STAFF_ONLY))


def is_gm(user, campaign: Campaign) -> bool:
    return Membership.objects.filter(user=user, campaign=campaign, role=Membership.Role.GM).exists()


def in_campaign_zone(view, request, *args, **kwargs):
    """Run ``view`` with the campaign's time zone active (issue 35): every time its page renders (an
    invite's expiry, a battle's start, the activity log) and every ``timezone.localtime`` it calls is the
    campaign's local time, as the GM and the players at the venue read their clocks. One place for every
    page under ``/c/<slug>/`` rather than a ``{% timezone %}`` tag per template; a page renders inside
    the view (``render``), so the zone is still active while it does."""
    with timezone.override(request.campaign.zone):
        return view(request, *args, **kwargs)


def campaign_member(view):
    """Resolve ``slug`` to ``request.membership`` and ``request.campaign`` for any member, and run the view
    in the campaign's time zone (``in_campaign_zone``).

    A member's own login is one query, the membership with its campaign and user (``membership_of_login``);
    anything else goes Django's way: the login page for nobody logged in, then the user and 404 for a
    user who is no member."""

    @login_required
    @wraps(view)
    def checked(request, slug, *args, **kwargs):
        request.membership = membership_for(request.user, slug)
        request.campaign = request.membership.campaign
        return in_campaign_zone(view, request, *args, **kwargs)

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        membership = membership_of_login(request, slug)
        if membership is None:
            return checked(request, slug, *args, **kwargs)
        request.membership, request.campaign = membership, membership.campaign
        return in_campaign_zone(view, request, *args, **kwargs)

    return wrapper


def campaign_gm(view):
    """Like ``campaign_member``, and refuse players (403): they know the campaign exists."""

    @campaign_member
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.membership.is_gm:
            raise PermissionDenied(_("Only the GM can do this."))
        return view(request, *args, **kwargs)

    return wrapper
