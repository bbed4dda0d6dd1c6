"""The ASGI application: Django's pages over HTTP and the live push over websockets
(muster/live.py). Served by uvicorn (scripts/serve.py for ``make run``; docs/operations.md).

HTTP goes through Django's WSGI handler on a pool of ``WEB_THREADS`` threads (a2wsgi), not
through Django's ASGI handler. Every view and middleware here is synchronous, and the ASGI
handler runs each sync middleware's request and response hooks in a thread hop of its own, all
of a process's sync code on ONE thread: about 18 hops a request, and a request waiting on the
database holds up every other. The WSGI handler makes one hop a request, and the pool's
threads overlap their database waits (bench/live.py: flat-out actions/s +45 %, see
docs/benchmarks.md). The websockets stay on Channels' consumers in the event loop.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
os.environ.setdefault("MUSTER_ASGI", "1")

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

# Threads answering HTTP in each process: each holds at most one database connection while it
# answers (settings.DATABASE_POOL_SIZE defaults to the same number).
WEB_THREADS = int(os.environ.get("WEB_THREADS", "") or "10")

django_wsgi = get_wsgi_application()  # sets Django up first

from muster.middleware import refuse_unreadable_charset_wsgi  # noqa: E402

http_application = WSGIMiddleware(refuse_unreadable_charset_wsgi(django_wsgi), workers=WEB_THREADS)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter  # noqa: E402

from muster.lifespan import lifespan  # noqa: E402
from muster.origin import websocket_guard  # noqa: E402
from muster.routing import websocket_router  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": http_application,
        # only the site's own pages, port included (muster/origin.py)
        "websocket": websocket_guard(AuthMiddlewareStack(websocket_router)),
        "lifespan": lifespan,  # the computer's processes stop with the server (muster/lifespan.py)
    }
)
