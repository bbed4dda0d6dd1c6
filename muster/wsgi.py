import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
django_wsgi = get_wsgi_application()

from muster.middleware import refuse_unreadable_charset_wsgi  # noqa: E402  (after Django is set up)

application = refuse_unreadable_charset_wsgi(django_wsgi)
