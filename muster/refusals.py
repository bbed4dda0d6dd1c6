"""The one base of every refusal: a write the rules, the bounds or the page's age will not make.

A service refuses by raising a ``Refusal`` subclass whose message is a sentence a person understands
(``str(refusal)``) and whose ``status`` says how a page answers it: 400 by default, 409 for ``Stale``
(the form, the version or the table the page showed has moved on; the fresh page comes with the
sentence), 429 for a quota. The view turns it into the page's answer in one place,
``muster.answers.answer`` (Zulip's ``JsonableError`` and its middleware are the model: one class, one
place where it becomes a response). Anything else a service raises, a plain ``ValueError`` or
``TypeError`` too, is a bug and answers 500.

Every app's errors derive from it (campaign, armies, people, tabletop, archive). The engines'
``IllegalAction`` stays in the engines, which import only the standard library; the view helper maps it.
This module imports no Django, so any module may import it.
"""

from __future__ import annotations


class Refusal(Exception):
    """A refused write: its message is the sentence shown as it is; ``status`` the page's answer."""

    status = 400


class Stale(Refusal):
    """The page a post came from showed a state that has changed since: nothing was written (409)."""

    status = 409


class AlreadyDone(Exception):
    """Not a refusal: the form's one-time token was applied before (campaign/submissions.py), so nothing new
    was done; ``result`` is what that first submission made (None if it is gone). A view says "Already done"
    and shows that result. It is defined here, beside ``Refusal``, so the view helper that answers both
    (muster/answers.py) imports no app."""

    def __init__(self, kind: str, result: object | None) -> None:
        self.kind = kind
        self.result = result
        super().__init__(f"Already done: this form was sent before ({kind}).")
