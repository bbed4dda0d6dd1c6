"""The people views, one module per subject: ``signup``, ``account`` (one's own name and password),
``resets`` (one-time password reset links), ``invites`` and ``members`` (the GM's pages)."""
