"""docs/operations.md's production commands, for the tests that run or compare them (issue 37).

The tests take the commands from the docs themselves, so the docs cannot drift from deploy/: a
command that changes in one place and not the other fails a test. The docs install the release at
``RELEASE``; the tests map that to this checkout.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "operations.md"
DEPLOY = ROOT / "deploy"
RELEASE = "/srv/muster/current"


def docs_section(title: str) -> str:
    """The text of the section headed ``## title`` or ``### title``, its subsections included, up to the
    next heading of its level or above (a ``#`` line inside a fenced block is a shell comment)."""
    lines, level, fenced = [], 0, False
    for line in DOCS.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"(#{1,6}) (.*)", line)
        if heading and level and len(heading[1]) <= level:
            break
        if level:
            lines.append(line)
        elif heading and len(heading[1]) in (2, 3) and heading[2].strip() == title:
            level = len(heading[1])
    assert level, f"docs/operations.md has no section {title!r}"
    return "".join(lines)


def fenced_blocks(text: str, language: str = "sh") -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.S | re.M)


def block_after(text: str, marker: str, language: str = "sh") -> str:
    """The first fenced block after ``marker`` in ``text``."""
    assert marker in text, f"docs/operations.md no longer says {marker!r}"
    blocks = fenced_blocks(text.split(marker, 1)[1], language)
    assert blocks, f"no ```{language} block after {marker!r}"
    return blocks[0]


def commands(block: str) -> list[list[str]]:
    """A shell block's commands, each as its arguments: continued lines joined, comments dropped."""
    joined = block.replace("\\\n", " ")
    return [argv for line in joined.splitlines() if (argv := shlex.split(line, comments=True))]


def commands_starting(text: str, *words: str) -> list[list[str]]:
    """The commands, in the ```sh blocks of ``text``, whose first arguments are ``words``."""
    return [argv for block in fenced_blocks(text) for argv in commands(block) if argv[: len(words)] == list(words)]


def command_starting(text: str, *words: str) -> list[str]:
    """The one command, in the ```sh blocks of ``text``, whose first arguments are ``words``."""
    found = commands_starting(text, *words)
    assert len(found) == 1, f"expected one command starting {' '.join(words)!r}, found {len(found)}"
    return found[0]


def env_file(path: Path, *lines: str) -> Path:
    """An environment file as /etc/muster/env is written: one NAME=value a line, readable by its group."""
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    path.chmod(0o640)
    return path
