"""Muster settings, read from the environment.

DEBUG            "1"/"true" turns debug on (default off; ``make run`` serves the network with it off)
SECRET_KEY       required when DEBUG is off
ALLOWED_HOSTS    comma-separated
PUBLIC_BASE_URL  e.g. http://192.168.1.20:8000: join links and QR codes use it (unset: the request's host)
MUSTER_SIGNUP    "invite" (default): accounts are made only through a GM's invite link; "open": anyone
                 reaching the server may sign up at /signup/ (and is a member of nothing until invited)
MUSTER_CAMPAIGN_CREATORS  "everyone" (default): any signed-in user may start a campaign (and is its GM);
                 "staff": only staff users may
MUSTER_VENUE     "1": served over plain HTTP on a local network (``make run``): no HTTPS redirect, no
                 secure-only cookies, no HSTS
STATIC_ROOT      where collectstatic writes (default: staticfiles/ in the project)
DATABASE_URL     e.g. postgres://user:pass@host:5432/muster (default: SQLite in the project)
REDIS_URL        Celery broker and cache; unset => Celery tasks run in-process
EMAIL_HOST       an SMTP server: "Forgot your password?" on the login page mails a reset link (unset: no
                 mail at all; the GM makes one-time reset links instead). With EMAIL_PORT (587),
                 EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS ("1" by default), DEFAULT_FROM_EMAIL
PASSWORD_RESET_LINK_MINUTES  how long a GM's or staff's one-time reset link works (default 30)
BACKUP_DIR       where ``manage.py backup`` / ``make backup`` write dated folders (default: backups/ in the project)
BACKUP_KEEP      how many of them are kept (default 14)
BACKUP_HOUR      with beat: the hour (0-23, CELERY_TIMEZONE) of the daily backup; "off": none (default 4)
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.conf import global_settings
from django.core.exceptions import ImproperlyConfigured

from muster import redis_urls

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "insecure-development-key-only-for-make-run"

ALLOWED_HOSTS = [
    host.strip() for host in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if host.strip()
]
# Join links and QR codes carry this address, whatever host the GM's own browser used (make run sets it).
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "").strip().rstrip("/")
VENUE = env_flag("MUSTER_VENUE")
SIGNUP = os.environ.get("MUSTER_SIGNUP", "").strip().lower() or "invite"
if SIGNUP not in {"invite", "open"}:
    raise ImproperlyConfigured(f"MUSTER_SIGNUP must be 'invite' or 'open', not {SIGNUP!r}.")
CAMPAIGN_CREATORS = os.environ.get("MUSTER_CAMPAIGN_CREATORS", "").strip().lower() or "everyone"
if CAMPAIGN_CREATORS not in {"everyone", "staff"}:
    raise ImproperlyConfigured(f"MUSTER_CAMPAIGN_CREATORS must be 'everyone' or 'staff', not {CAMPAIGN_CREATORS!r}.")
CSRF_TRUSTED_ORIGINS = [origin for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if origin]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "rosetta",  # staff translate in the browser (issue 41): /admin/translations/
    "campaign",
    "tabletop",
    "armies",
    "people",
    "archive",
]

MIDDLEWARE = [
    # first: a 400 for a charset the form cannot be read in, before anything reads request.POST
    "muster.middleware.RefuseUnreadableCharset",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # the request's language (issue 41, muster/languages.py): the device's choice, else the browser's
    "muster.languages.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # last, as django-axes asks: it turns a locked-out login into the lock-out page (AXES_LOCKOUT_CALLABLE)
    "axes.middleware.AxesMiddleware",
]

# Django's database sessions, read by a query compiled once per process (muster/sessions.py, issue 26).
SESSION_ENGINE = "muster.sessions"

ROOT_URLCONF = "muster.urls"
WSGI_APPLICATION = "muster.wsgi.application"
ASGI_APPLICATION = "muster.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    # Second, so every other name resolves as before: the hot fragments (the Army Rules game, the event log)
    # in Jinja2, included with {% jinja %} (tabletop/jinja.py, docs/architecture.md). Only templates/jinja2/,
    # whose ".jinja" names the Django backend above never asks for.
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "tabletop.jinja.environment"},
    },
]

# Served over ASGI (muster/asgi.py sets MUSTER_ASGI), requests run on a pool of threads and the
# websockets' database work on others. On PostgreSQL no persistent connections there (a connection
# kept per thread would idle in every one of them): they come from a pool instead (DATABASE_POOL_SIZE
# each process). SQLite (make run) keeps a connection per thread like management commands, Celery and
# the test suite (CONN_MAX_AGE): a file handle each, where opening one per request cost a tenth of an
# action's CPU (issue 40).
ASGI = os.environ.get("MUSTER_ASGI") == "1"
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if ASGI and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].update(CONN_MAX_AGE=0, CONN_HEALTH_CHECKS=False)  # the pool checks its own
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        # by default one connection for each thread answering HTTP (muster/asgi.py's WEB_THREADS),
        # one for the websockets' thread (Channels' database_sync_to_async) and one for the push's
        # (tabletop/push.py, PUSH_AFTER_ANSWER)
        "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "") or int(os.environ.get("WEB_THREADS", "") or "10") + 2),
        "timeout": 10,
    }
# A served process renders and sends a table's push on a thread of its own after the writer's answer
# (tabletop/push.py, issue 40); a worker, a command and the tests push in the caller, at once.
PUSH_AFTER_ANSWER = ASGI
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # make run serves the table's phones from several threads and processes on one SQLite file.
    # A transaction that begins as a read and then writes cannot wait for another writer: SQLite
    # answers "database is locked" at once, whatever the timeout. So every transaction takes the
    # write lock when it begins (IMMEDIATE) and waits up to ``timeout`` seconds for it (the busy
    # timeout, honoured for BEGIN IMMEDIATE); WAL lets readers (polls, pages) go on while one writes;
    # synchronous=NORMAL is safe with WAL (a power cut may lose the last commits, never the file).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE",
        timeout=int(os.environ.get("SQLITE_BUSY_TIMEOUT", "20")),
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed logins are throttled (django-axes): after AXES_FAILURE_LIMIT failures within the cool-off a
# user name is locked out whatever the address, and an address whatever the user name, for
# AXES_COOLOFF_TIME after the last counted failure. Guesses during a lock-out are refused without
# being counted, so nobody can keep the only GM out for good by guessing on. A successful login
# clears that user's own failures from that address, nobody else's (people/throttle.py). The
# lock-out page is the login page with a sentence (muster/views.py).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out login before the password is checked
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "") or "5")
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "") or "15"))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # either one alone, not only the pair
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True  # clears only the user's own failures from that address (AXES_HANDLER, issue 34)
AXES_HANDLER = "people.throttle.OwnFailuresHandler"
AXES_LOCKOUT_CALLABLE = "muster.views.login_locked_out"
AXES_DISABLE_ACCESS_LOG = True  # failures are what it is for; a row per successful login would grow for ever
AXES_VERBOSE = False  # no banner in every process's log
# axes keeps a failed post's fields; sign-up and reset pages count failures too (people/throttle.py)
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "password1", "password2", "new_password1", "new_password2",
                             "old_password"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaign:home"
LOGOUT_REDIRECT_URL = "login"

# Mail is optional: a venue usually has none. Without EMAIL_HOST nothing is ever sent (the dummy
# backend, so a stray reset post cannot hang on or fail against a missing SMTP server), the login page
# offers no "Forgot your password?" and the GM makes one-time reset links (people/services/resets.py).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_CONFIGURED = bool(EMAIL_HOST)
if EMAIL_CONFIGURED:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "") or "587")
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", True)
    EMAIL_TIMEOUT = 10
    DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "") or f"Muster <muster@{EMAIL_HOST}>"
else:
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
PASSWORD_RESET_LINK_MINUTES = int(os.environ.get("PASSWORD_RESET_LINK_MINUTES", "") or "30")
# Quotas (campaign/quotas.py; 0: none): new campaigns per account (staff exempt), and accounts made by
# open sign-up per address (an invite's sign-ups are bounded by the invite's own number of uses).
CAMPAIGNS_PER_HOUR = int(os.environ.get("MUSTER_CAMPAIGNS_PER_HOUR", "") or "5")
CAMPAIGNS_PER_DAY = int(os.environ.get("MUSTER_CAMPAIGNS_PER_DAY", "") or "20")
SIGNUPS_PER_HOUR = int(os.environ.get("MUSTER_SIGNUPS_PER_HOUR", "") or "5")
SIGNUPS_PER_DAY = int(os.environ.get("MUSTER_SIGNUPS_PER_DAY", "") or "20")

LANGUAGE_CODE = "en-gb"
# The languages Muster speaks (issue 41, muster/languages.py): English and each with a compiled catalog in
# LOCALE_PATHS (German ships); Django's whole list, so a language added in the browser needs nothing here.
LANGUAGES = global_settings.LANGUAGES
LOCALE_PATHS = [Path(os.environ.get("MUSTER_LOCALE_DIR", "") or BASE_DIR / "locale")]  # writable: staff translate
ROSETTA_ACCESS_CONTROL_FUNCTION = "muster.languages.may_translate"  # rosetta (/admin/translations/): staff only
ROSETTA_STORAGE_CLASS = "rosetta.storage.SessionRosettaStorage"  # not the cache: each process has its own
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# A password in the URL (redis://:PASSWORD@host:6379/0, or an ACL user: redis://muster:PASSWORD@...) and TLS
# with rediss://, the server's certificate verified against REDIS_CA_FILE (else the system's CAs): every
# consumer below gets the same options (muster/redis_urls.py; docs/operations.md, "Redis between machines").
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_CA_FILE = os.environ.get("REDIS_CA_FILE", "").strip()
REDIS_CLIENT_OPTIONS = redis_urls.client_options(REDIS_URL, REDIS_CA_FILE)  # redis-py's (muster/presence.py too)
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": REDIS_CLIENT_OPTIONS,
        }
    }
# The live push (muster/live.py): Redis whenever it is configured, so every server process and
# worker shares one layer; else the in-process layer of the embedded default (one server process).
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [redis_urls.channel_layer_host(REDIS_URL, REDIS_CA_FILE)]},
    }
    if REDIS_URL
    else {"BACKEND": "muster.channel_layer.InMemoryLayer"}  # Channels' own, swept at most once a second
}
# The in-memory broker with its host named: a bare "memory://" made kombu warn "No hostname was supplied" in
# make run's terminal on every eager task (issue 35).
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_BROKER_USE_SSL = CELERY_REDIS_BACKEND_USE_SSL = redis_urls.celery_ssl(REDIS_URL, REDIS_CA_FILE)
# With Redis down a send fails within a second or two, not 20 s: publishing tries 3 times 0.5 s apart, each
# connection attempt waits at most 1 s (a Redis that is down on a machine that is up refuses at once: about
# 1 s in all; an unreachable machine: at most 3 x 1 s + 1 s), and the result backend, which subscribes to a
# task's result before it is sent, gives up as soon. The caller says so (a day end stays queued for beat's
# check, armies/services/day_end.py), where Celery's defaults took 20 s and logged "must be restarted".
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0.5, "interval_step": 0.5, "interval_max": 0.5}
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": CELERY_TASK_PUBLISH_RETRY_POLICY}
# Without Redis there is no worker: tasks run in-process, exactly as a worker would run them.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
# Computer players without a worker (tabletop/computer/pool.py): processes deciding turns in each web process.
BOT_PROCESSES = int(os.environ.get("BOT_PROCESSES", "") or "1")
# How much lower than the pages' a computer's search runs (tabletop/computer/priority.py, ruling BOT35):
# the pool's processes, or a worker's deciding thread, are this much nicer (0: not lowered; capped at 19).
COMPUTER_NICENESS = int(os.environ.get("COMPUTER_NICENESS", "") or "10")
# The bound on a computer turn (tabletop/computer/watchdog.py, ruling BOT33): its strength's time cap plus
# this margin; not moved by then, it is sent once more, and after a second bound the seat is a person's again.
COMPUTER_TURN_MARGIN = float(os.environ.get("COMPUTER_TURN_MARGIN", "") or "30")
# A table where every seat is the computer's is abandoned with a sentence once its version reaches this many
# actions (tabletop/computer/action_limit.py, issue 36): never a table that runs for ever.
COMPUTER_TABLE_ACTIONS = int(os.environ.get("COMPUTER_TABLE_ACTIONS", "") or "5000")
# The coach, "what would the computer do?" (tabletop/computer/coach_bounds.py, issue 34): one question thinking
# at a time per account (per seat for a guest), at most COACH_PER_CAMPAIGN per campaign and COACH_SEARCHES over
# the site (without a worker, also the coach's own processes; with workers, keep it below their concurrency);
# a request waits for its answer at most the strength's seconds cap plus COACH_MARGIN.
COACH_PER_CAMPAIGN = int(os.environ.get("COACH_PER_CAMPAIGN", "") or "2")
COACH_SEARCHES = int(os.environ.get("COACH_SEARCHES", "") or "2")
COACH_MARGIN = float(os.environ.get("COACH_MARGIN", "") or "5")
# A task a killed worker never acknowledged goes back to the queue after the visibility timeout
# (Redis' default is an hour). Fitted to the tasks: the day end, the longest, settles 10,000
# commanders in about 4 s (docs/benchmarks.md) and waits at most 60 s before a retry, so 5
# minutes; every worker looks for such tasks every 10 s (and when it starts). It also bounds a
# task's ETA: a task delayed by more than this would be handed out twice.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "300")),
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
    "socket_connect_timeout": CELERY_BROKER_CONNECTION_TIMEOUT,  # a send to a Redis that is down (above)
}
# The day-end lease (armies/services/day_end.py): a queued or running day end without a heartbeat
# for this long has no live worker, and beat's check (every DAY_END_CHECK_SECONDS) sends it again.
DAY_END_LEASE_SECONDS = int(os.environ.get("DAY_END_LEASE_SECONDS", "120"))
DAY_END_CHECK_SECONDS = float(os.environ.get("DAY_END_CHECK_SECONDS", "60"))
CELERY_BEAT_SCHEDULE = {
    "armies: run scheduled day ends": {"task": "armies.run_scheduled_day_ends", "schedule": DAY_END_CHECK_SECONDS},
}
# Backups (archive/backup.py): dated folders in BACKUP_DIR, the newest BACKUP_KEEP kept. With beat, one a
# day at BACKUP_HOUR o'clock (CELERY_TIMEZONE), written by a worker on its machine; "off" leaves it to cron.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", "") or BASE_DIR / "backups")
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "") or "14")
if BACKUP_KEEP < 1:
    raise ImproperlyConfigured(f"BACKUP_KEEP must be at least 1, not {BACKUP_KEEP}.")
BACKUP_HOUR = os.environ.get("BACKUP_HOUR", "").strip().lower() or "4"
if BACKUP_HOUR != "off":
    if not BACKUP_HOUR.isdigit() or not 0 <= int(BACKUP_HOUR) <= 23:
        raise ImproperlyConfigured(f"BACKUP_HOUR must be an hour from 0 to 23 or 'off', not {BACKUP_HOUR!r}.")
    CELERY_BEAT_SCHEDULE["archive: daily backup"] = {
        "task": "archive.daily_backup",
        "schedule": crontab(hour=int(BACKUP_HOUR), minute=0),
    }

# Content-Security-Policy (django-csp 4): only the site's own scripts and styles, no inline ones (no
# style="..." attributes or onchange="..." handlers either: templates use classes, SVG attributes and
# static/js/muster.js; htmx's indicator style is in muster.css, see base.html's htmx-config).
# data: images are the guest seats' QR codes.
CONTENT_SECURITY_POLICY = {"DIRECTIVES": {
    "default-src": ["'self'"], "script-src": ["'self'"], "style-src": ["'self'"], "img-src": ["'self'", "data:"],
    "object-src": ["'none'"], "base-uri": ["'none'"], "frame-ancestors": ["'none'"], "form-action": ["'self'"],
}}  # fmt: skip

if not DEBUG:
    # A venue (make run on the GM's laptop) has no HTTPS: phones would never get a secure-only cookie.
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", True) and not VENUE
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
    # No SECURE_PROXY_SSL_HEADER: Django would believe X-Forwarded-Proto from anyone who reaches a web
    # process. uvicorn's --proxy-headers believes it from --forwarded-allow-ips (the proxy) only and
    # sets the request's scheme, which request.is_secure() reads (docs/operations.md, "Web processes").
    SESSION_COOKIE_SECURE = not VENUE
    CSRF_COOKIE_SECURE = not VENUE
    SECURE_HSTS_SECONDS = 0 if VENUE else int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    # both on by default; an organisation's apex domain turns them off (its other hosts may not all be HTTPS)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", True)
    # chosen by the environment, so check --deploy does not warn about the choice (W005, W021)
    SILENCED_SYSTEM_CHECKS = [check for check, on in (("security.W005", SECURE_HSTS_INCLUDE_SUBDOMAINS),
                                                      ("security.W021", SECURE_HSTS_PRELOAD)) if not on]
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"

# A refused request (403, 404, any 4xx) is one line, "403 GET /path user=ann: reason", without
# the traceback Django attaches to a PermissionDenied (muster/request_log.py); 5xx keep theirs.
# LOGGING_CONFIG applies it and then keeps seat and projector links out of uvicorn's own lines
# (its websocket and access lines: muster/server_logs.py), whatever uvicorn's options.
LOGGING_CONFIG = "muster.server_logs.configure"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"one_line_refusals": {"()": "muster.request_log.OneLineRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["one_line_refusals"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.request": {"filters": ["one_line_refusals"]},
        "django.db.backends": {"level": "INFO"},
        "axes": {"level": "WARNING"},  # a line per failed login and per lock-out, not its every step
    },
}
if VENUE:
    # make run's terminal is the GM's (issue 35): the address, the logins, the owner's link and what went
    # wrong, not an INFO line per Celery task run in-process or per computer move. Warnings and errors
    # (a refusal's one line, a 500's traceback) still show; LOG_LEVEL still chooses Muster's. Celery's line per
    # task and an access line (it holds a seat's link) stay out even then. Production keeps INFO.
    LOGGING["root"]["level"] = os.environ.get("LOG_LEVEL", "WARNING")
    for noisy in ("celery", "kombu", "channels", "uvicorn.access"):
        LOGGING["loggers"][noisy] = {"level": "WARNING"}
