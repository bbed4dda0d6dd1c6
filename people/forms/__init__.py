"""People's forms, one module per subject as its views and services are: ``invites`` (a new invite, the
printable sheet, revoke or re-issue), ``signup``, ``owner`` (the owner's link), ``accounts`` (one's own name
and password), ``resets`` (the reset links) and ``members`` (the GM's members page). Each form says what is
wrong in a sentence; the services check the same bounds again. The shared machinery (the one-time token, the
pinned form) is campaign/submissions.py and muster/forms.py.
"""
