"""The computer at the table (issue 16): the Django side of the pure search ``tabletop.bots.decide``.

* ``strengths``: the strengths a seat can be given ("quick", "normal", "strong"), the guest names of
  computer seats, a decision's seed and budget.
* ``scheduling``: after every committed change of a table, ``turn_after_commit`` gives a computer seat
  that is to act its turn: by task name to a Celery worker (``REDIS_URL`` set), else to ``pool``.
* ``pool``: the in-process runner without a worker (``make run``): a spawn process pool that runs
  the pure decision, so it never holds the request thread, the server's GIL or a database lock; one
  decision per table and version, older ones cancelled, a dead process's decisions sent once more.
* ``priority``: a decision runs at a lower OS priority than the pages (ruling BOT35): the pool's
  processes lower themselves as they start; a worker decides in a thread that lowers only itself.
* ``plain``: only plain data crosses a process, checked where ``scheduling`` sends (CONVENTIONS 14f).
* ``watchdog``: the bound on a computer turn (ruling BOT33): sent once more, then the seat handed back.
* ``coach``: a seat asks "what would the computer do?" (ruling CO4): ``coach_bounds`` its leases (per
  account, campaign and site), ``coach_search`` where it thinks (the pool's coach processes or a worker's
  task, never the web process), ``coach_job`` the search as plain data in and out.

What a decided move does to the database is a service, ``services.computer_moves`` (play it as an
ordinary ``table_play`` at the version the computer looked at, or hand the seat back to a person,
ruling BOT30), run by the tasks: the services import this package, never the other way round.

Which seats the computer plays is read with the table (``selectors.with_computer_seats``); what the
pages show of it is in ``presenters``; the GM hands a seat over with ``services.seats.seat_set_bot``.
"""
