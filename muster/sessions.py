"""The session store (``SESSION_ENGINE``): Django's database sessions, read by a query compiled once.

Every request of a logged-in phone or tablet reads its session (issue 26: on a seat's action and
fetch it is one query of three to seven). Django's store builds and compiles
``Session.objects.get(session_key=..., expire_date__gt=now)`` each time; this one runs the same query
by key compiled once (``muster.prepared``) and refuses an expired row here, as that filter would. The
table, the rows and everything else are Django's: sessions made before this store keep working.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from .prepared import Prepared

_BY_KEY = Prepared(lambda key: Session.objects.filter(session_key=key).order_by(), key=str)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        session = _BY_KEY.first(key=self.session_key) if self.session_key else None
        if session is None or session.expire_date <= timezone.now():  # expired: as if it never was
            self._session_key = None
            return None
        return session
