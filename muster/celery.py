"""The Celery app. With REDIS_URL unset, tasks run in-process (CELERY_TASK_ALWAYS_EAGER).

A worker, as it starts, lowers its own session's scheduling weight where Linux groups by session
(``lower_the_workers_session``, issue 40, ruling BOT35).
"""

import os

from celery import Celery
from celery.signals import celeryd_after_setup

from tabletop.computer import priority, strengths

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")

app = Celery("muster")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@celeryd_after_setup.connect
def lower_the_workers_session(**_) -> None:
    """In the worker's main process, once its logging is set up and before its pool starts (a prefork
    pool's processes then share the session's weight): ``priority.lower_session``."""
    priority.lower_session(strengths.niceness())
