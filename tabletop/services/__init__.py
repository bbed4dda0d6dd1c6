"""The writes of the tabletop app, each in one transaction.

``tables``: open a table, play an action (lock, apply the pure engine, save the state and a log
entry), undo, release the log to the seats. ``stakes``: entry fees paid in when a side-event
table opens and the pot paid out when it ends (both through the campaign ledger). ``computer_moves``:
a computer's decided move played, or its seat handed back (``tabletop/computer`` decides; it imports
no service).
"""
