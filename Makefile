# Muster. GNU make; needs python3 (3.11) and, for `make test`, Debian's apt-get.
#   make run              serve the phones on this network: demo data, SQLite, DEBUG off, port 8000
#   make test             every test (not the soak tests) on a throwaway PostgreSQL + Redis, with Chromium
#   make test DB=sqlite   the same on SQLite (PostgreSQL-only tests skipped)
#   make test ARGS='-k gridaris -x'   pass arguments to pytest
#   make soak             the soak tests: hundreds of checked random games per engine (about 15 min)
#   make backup           a backup of make run's database and campaigns into backups/ (while it serves)
#   make messages         update the translation catalogs (locale/) after marking strings; compile them
#   make lint | bench | clean | distclean

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
DB ?= postgres
ARGS ?=
export PYTHON

.PHONY: help run test soak lint bench backup clean distclean venv venv-dev messages

help:
	@sed -n '2,10s/^# \{0,1\}//p' Makefile

venv:
	@bash scripts/venv.sh runtime

venv-dev:
	@bash scripts/venv.sh dev

# scripts/serve.py: migrate, collectstatic, demo data, print the address (and its QR code), then uvicorn:
# one process, the live push in-process (with REDIS_URL: WEB_CONCURRENCY processes over Redis).
# The demo logins are generated on the first run and printed on every one (kept in .demo_logins, 0600).
# make run DEMO=0: no demo at all (the first account is made on the sign-up page).
run: venv
	$(if $(DEMO),MUSTER_DEMO=$(DEMO) )$(PY) scripts/serve.py

# manage.py backup (archive/backup.py) on the database make run serves (DATABASE_URL, else db.sqlite3 here),
# safe while it serves: a dated folder in BACKUP_DIR (default backups/), the newest BACKUP_KEEP (14) kept.
# Pass options with ARGS, e.g. make backup ARGS='--dir /media/usb/muster --keep 30'. The settings need a
# SECRET_KEY: make run's own (.secret_key), though a backup signs nothing. `venv` installs nothing into a
# current venv (scripts/venv.sh); a production install backs up with deploy/muster-manage backup instead,
# which reads /etc/muster/env as the services do (docs/operations.md, "Backups and restore").
backup: venv
	@SECRET_KEY="$${SECRET_KEY:-$$(cat .secret_key 2>/dev/null || echo backup-signs-nothing)}" $(PY) manage.py backup $(ARGS)

test:
	@DB=$(DB) bash scripts/test.sh $(ARGS)

soak:
	@DB=sqlite bash scripts/test.sh -m soak $(ARGS)

# scripts/messages.py: Django's makemessages (the Jinja2 templates' strings included) for every language in
# locale/, then compiled; needs Debian's gettext (xgettext, msgmerge).
messages: venv-dev
	$(PY) scripts/messages.py

lint: venv-dev
	$(VENV)/bin/ruff check .

# Benchmarks run like production (DEBUG off), on plain HTTP.
bench: export DEBUG := 0
bench: export SECRET_KEY ?= bench-only-secret-not-for-production
bench: export SECURE_SSL_REDIRECT := 0
bench: venv-dev
	$(PY) bench/table_requests.py --game gridaris
	$(PY) bench/table_requests.py --game army
	$(PY) bench/table_requests.py --game dungeon
	$(PY) bench/army_odds.py
	$(PY) manage.py simulate gridaris --games 200 --seed 1
	$(PY) manage.py simulate army --games 2000 --seed 1
	$(PY) manage.py simulate gotm --games 300 --seed 1
	$(PY) manage.py simulate mercenarium --games 200 --seed 1
	$(PY) manage.py simulate dungeon --games 100 --seed 1
	$(PY) bench/load_sqlite.py --seconds 10
	$(PY) bench/request_floor.py --seconds 10
	@echo "bench/day_end.py and bench/load.py need PostgreSQL: see docs/benchmarks.md"
	@echo "bench/live.py (push: uvicorn, websockets): --embedded serves as make run does; else PostgreSQL and Redis: see its docstring"

clean:
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
	rm -rf .pytest_cache .ruff_cache staticfiles staticfiles.collected

# Also the virtualenv and the development database.
distclean: clean
	rm -rf $(VENV) db.sqlite3
