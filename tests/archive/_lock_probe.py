"""An import's write pass beside another GM's write, on a SQLite file as ``make run`` serves it (issue 34).

Run by tests/archive/test_import_writing.py in a process of its own (``python -m tests.archive._lock_probe
FOLDER``), because the test database is SQLite in memory, where the busy timeout does not apply: here the
database is a file in FOLDER, migrated first, with ``SQLITE_BUSY_TIMEOUT=1`` (one second: well past one
batch of the write pass, far below the whole pass). A campaign's archive gets ``RECORDS`` activity records
more (signed again, as bench/archive.py's ``lock`` file); while it is imported, when its activity loader
reaches record ``OTHER_AT``, another thread with its own connection makes a GM adjustment in another campaign
and notes whether it went through and whether the import was still under way then. Prints that as JSON.
"""

from __future__ import annotations

import io
import json
import os
import sys
import threading
from dataclasses import replace
from pathlib import Path

RECORDS, OTHER_AT = 30_000, 2_000


def main(folder: Path) -> dict:
    os.environ.update(DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}", SQLITE_BUSY_TIMEOUT="1",
                      SECRET_KEY="lock-probe-only", SECURE_SSL_REDIRECT="0", DEBUG="0")
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muster.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from archive import sections
    from archive.export import campaign_export
    from archive.importer import campaign_import
    from campaign.services import account_create, campaign_create, ledger_adjust

    from tests.archive._helpers import rewrite

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    importer, other_gm = users.create(username="importer"), users.create(username="other-gm")
    source = campaign_create(name="Siege", slug="siege", gm=importer)
    other = campaign_create(name="Elsewhere", slug="elsewhere", gm=other_gm)
    purse = account_create(campaign=other, name="The bank")
    out = io.BytesIO()
    campaign_export(source, out)

    def more_lines(records):
        model = next(record for record in records if record["kind"] == "activity")
        records += [{**model, "id": 10**6 + n, "summary": f"Line {n}"} for n in range(RECORDS)]

    data = rewrite(out.getvalue(), more_lines)
    seen = {"activity": 0}
    outcome: dict = {}
    finished = threading.Event()

    def other_write():
        try:
            ledger_adjust(account=purse, amount=5, reason="Meanwhile", gm=other_gm)
            outcome["other_write"] = "done"
            outcome["import_under_way"] = not finished.is_set()
        except Exception as error:  # "database is locked": what the GM's page answered with a 500
            outcome["other_write"] = f"{type(error).__name__}: {error}"
        finally:
            connection.close()

    writer = threading.Thread(target=other_write)
    section = sections.section_for("activity")

    def load(record, ctx):
        seen["activity"] += 1
        if seen["activity"] == OTHER_AT:
            writer.start()
        section.load(record, ctx)

    sections._registry["activity"] = replace(section, load=load)
    imported = campaign_import(io.BytesIO(data), importer=importer)
    finished.set()
    writer.join(10)
    outcome["imported"] = imported.slug
    return outcome


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
