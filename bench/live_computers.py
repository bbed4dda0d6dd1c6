"""bench/live.py's computers (``--computers N``): N Gridaris tables where two computer seats play each
other at ``normal``, so N computer decisions are wanted the whole time, decided by the server as at
the venue (its own spawn pool embedded; a Celery worker with Redis).

The bench opens each table through the ORM with two guest seats (so its own process schedules no
computer turn), then the GM hands both seats to the computer with the seat control
(``POST /c/<slug>/tables/<id>/seats/computer/``, as the GM's tablet does): the server schedules the
first turn, and each move schedules the next. A watcher reads every table once a second: a table
that finished is replaced by a fresh one, and so is one that has not moved for ``STALL`` seconds
(counted). ``moves()`` is the number of computer moves played so far.
"""

from __future__ import annotations

import time

import gevent

STRENGTH = "normal"
STALL = 60.0  # seconds without a move after which a computer table is replaced (and counted)
HAND_OVER_ATTEMPTS = 5


class Computers:
    def __init__(self, run, tables, reader, gm, count: int):
        self.run, self.tables, self.reader, self.gm, self.count = run, tables, reader, gm, count
        self.slots: list[dict] = []
        self.finished = self.stalled = self.opened = 0
        self.played_before = 0  # moves of the tables already replaced
        self.watcher = None

    def start(self) -> None:
        for _ in range(self.count):
            self.slots.append(self.open())
        self.watcher = gevent.spawn(self.watch)

    def open(self) -> dict:
        """A new computer table, both seats handed to the computer: {table_id, start, version, seen}."""
        from tabletop.engines.gridaris.starter import STARTER_CARDS
        from tabletop.services.tables import SeatSpec, table_create

        self.opened += 1
        table = table_create(
            campaign=self.tables.campaign, game="gridaris", title=f"Computers {self.opened}",
            seats=[SeatSpec(guest_name=f"Computer {self.opened}{side}") for side in "ab"],
            config={"mode": "standard", "cards": STARTER_CARDS}, created_by=self.tables.gm, seed=self.opened,
        )  # fmt: skip
        for seat in (1, 0):
            self.hand_over(table.pk, seat)
        _, version, _ = self.reader.row(table.pk)
        return {"table_id": table.pk, "start": version, "version": version, "seen": time.monotonic()}

    def hand_over(self, table_id: int, seat: int) -> None:
        """The GM's "computer, normal" on ``seat``, at the table's current version (again if it moved)."""
        url = f"/c/{self.tables.campaign.slug}/tables/{table_id}/seats/computer/"
        token = self.gm.cookies.get("csrftoken", "")
        for _ in range(HAND_OVER_ATTEMPTS):
            _, version, _ = self.reader.row(table_id)
            status, content = self.gm.request(
                "POST", url, {"seat": seat, "bot": STRENGTH, "version": version, "csrfmiddlewaretoken": token},
                {"HX-Request": "true", "X-CSRFToken": token},
            )  # fmt: skip
            if status == 200:
                return
            if status != 409:  # 409: the computer moved meanwhile; read the version again
                break
        self.run.stats.error(f"computer hand-over HTTP {status}", content[:200].decode(errors="replace"))

    def watch(self) -> None:
        while not self.run.stopping:
            gevent.sleep(1.0)
            for k, slot in enumerate(self.slots):
                _, version, status = self.reader.row(slot["table_id"])
                now = time.monotonic()
                if version != slot["version"]:
                    slot["version"], slot["seen"] = version, now
                stalled = now - slot["seen"] > STALL
                if status != "active" or stalled:
                    self.finished += status != "active"
                    self.stalled += stalled and status == "active"
                    self.played_before += slot["version"] - slot["start"]
                    if not self.run.stopping:
                        self.slots[k] = self.open()

    def moves(self) -> int:
        """Computer moves played so far (each is a version; the hand-overs are not counted)."""
        return self.played_before + sum(slot["version"] - slot["start"] for slot in self.slots)

    def stop(self) -> None:
        if self.watcher is not None:
            self.watcher.kill(block=True, timeout=5)
