"""The armies sections of an archive (H15 writes these against archive/sections.py).

Register each with ``register(Section(kind=..., order=..., export=..., load=...))`` at import time;
archive/apps.py imports this module when Django is ready. Orders: the core sections use 10-90
(campaign 10, day 20, member 30, account 40, ledger_entry 45, activity 90) and tabletop 100-140
(table 100, seat 110, table_action 120, stake 130, invite 200); armies may use 50-80 for what
tables do not refer to and 150-190 for what refers to tables (battles).
"""
