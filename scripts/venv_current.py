"""scripts/venv_current.py FILE...: is this Python's environment current for these requirement files?

Exits 0 when every requirement the files pin (for this Python, markers evaluated) is installed at the
pinned version; else 1, with a sentence naming the first one that is missing or different.

scripts/venv.sh asks it before installing. A virtualenv made by hand (production's, made by
docs/operations.md's ``pip install -r requirements.txt``) carries no stamp of scripts/venv.sh, and
without this check ``make backup`` on a production install ran pip into it again, as whoever ran make.
Run by the venv's own Python: ``packaging`` is one of the pinned requirements, so a venv without it is
not current either.
"""

from __future__ import annotations

import re
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.requirements import Requirement


def requirement_lines(path: Path):
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = re.sub(r"(^|\s)#.*", "", raw).strip()
        if line and not line.startswith("-"):  # -r, -c, --index-url: the files are all passed anyway
            yield line


def unmet(paths: list[Path]) -> str | None:
    """The first requirement not installed as pinned, as a sentence; None when all are."""
    for path in paths:
        for line in requirement_lines(path):
            requirement = Requirement(line)
            if requirement.marker and not requirement.marker.evaluate():
                continue
            try:
                installed = version(requirement.name)
            except PackageNotFoundError:
                return f"{requirement.name} is not installed ({path.name} wants {requirement.specifier})"
            if not requirement.specifier.contains(installed, prereleases=True):
                return f"{requirement.name} {installed} is installed, {path.name} wants {requirement.specifier}"
    return None


if __name__ == "__main__":
    problem = unmet([Path(name) for name in sys.argv[1:]])
    if problem:
        print(problem, file=sys.stderr)
    sys.exit(1 if problem else 0)
