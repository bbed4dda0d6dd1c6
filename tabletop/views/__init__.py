"""The table views, one module per page family: ``gm`` (the GM's tablet), ``seat`` (a seat's phone),
``public`` (the projector), ``new`` (opening a table), ``abandon`` and ``forks`` (what-ifs).

Each table page has one live region (the Jinja2 ``tabletop/live.jinja``, ``push.TABLE_REGION``), built
by ``presenters``. It refetches when the push (``live``) or its poll says the table's version moved
on. Writes post the version they were made against and a one-time client action id: ``answers.write``
turns a stale post into 409 with the fresh table and a refusal into 400 with its sentence, once for every
view.
"""
