"""Only plain data crosses a process (CONVENTIONS 14f), checked where it is sent.

What goes to the computer's process pool or to a Celery task is unpickled on the other side,
where Django may not be set up: a model, a lazy string or a Django enum (``Table.Game.ARMY`` is a
``str`` subclass that pickles as ``tabletop.models.tables.Table.Game``) makes that side import Django
and fail (``AppRegistryNotReady``), and a pool process that fails to unpickle its job dies and
takes every queued decision with it (issue 22). So ``scheduling`` passes what it sends through
``plain`` first: a refusal is a sentence at the send site, naming the argument and the path.
"""

from __future__ import annotations

from typing import Any

SCALARS = (str, int, float, bool, type(None))


class NotPlain(TypeError):
    """A value that is not plain data was about to cross a process."""


def plain(value: Any, path: str = "value") -> Any:
    """``value`` itself when it is plain data: exactly ``str``, ``int``, ``float``, ``bool``, None,
    and lists and dicts (with ``str`` keys) of those. Anything else, a subclass too (an enum is a
    ``str`` subclass), raises ``NotPlain`` naming its path, e.g. ``state['cards'][3]``."""
    kind = type(value)
    if kind in SCALARS:
        return value
    if kind is list:
        for index, item in enumerate(value):
            plain(item, f"{path}[{index}]")
        return value
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise NotPlain(f"{path} has the key {key!r} ({_named(key)}): only str keys are plain data.")
            plain(item, f"{path}[{key!r}]")
        return value
    raise NotPlain(
        f"{path} is {value!r} ({_named(value)}), not plain data: only int, float, str, bool, None, lists and "
        "dicts cross a process (CONVENTIONS 14f); make it plain where it is made (e.g. str() of a Django enum)."
    )


def plain_arguments(**arguments: Any) -> dict[str, Any]:
    """Check each named argument with ``plain`` (the name starts the path); the arguments back."""
    for name, value in arguments.items():
        plain(value, name)
    return arguments


def _named(value: Any) -> str:
    kind = type(value)
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
