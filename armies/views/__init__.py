"""Army pages, one module per subject: ``commanders`` (rosters, treasury, offers, training, the GM's
overview), ``day_end`` and ``battles``; ``common`` holds what they share."""
