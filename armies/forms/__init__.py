"""Armies' forms, one module per subject as its services are: ``commanders`` (make, edit, retire, the
GM's treasury and items), ``recruiting`` (offers and the Recruit button), ``training`` and ``battles``.
Each form carries a one-time token (``OnceForm``) and the bounds of ``campaign/bounds.py``; the
services check them again. The shared machinery (one error sentence, the pinned form) is muster/forms.py.
"""
