"""The one error a theme can raise: a list of every problem found, in plain words."""

from __future__ import annotations

import re
from pathlib import Path

from engine.errors import InputError

#: A problem that starts with its own location inside the theme: ``theme.json:3:7: ...``.
_LOCATED = re.compile(r"^([^:\s]+):(\d+):(\d+): ")


class ThemeError(InputError):
    """A theme that cannot be used. ``problems`` holds one self-contained line per problem.

    Validation collects everything wrong before raising, so a theme maker fixes all
    issues in one round instead of discovering them one at a time. As an InputError it
    names the theme's folder (``folder``), and, when the only problem is located in one of
    its files, that file, line and column.
    """

    def __init__(self, path: Path | str, problems: list[str]) -> None:
        self.folder = Path(path)
        self.problems = list(problems)
        count = len(self.problems)
        head = f"theme {self.folder} has {count} problem{'s' if count != 1 else ''}"
        located = _LOCATED.match(self.problems[0]) if count == 1 else None
        if located is not None:
            name, line, column = located.groups()
            super().__init__(head, self.folder / name, int(line), int(column))
        else:
            super().__init__(head, self.folder)
        self.text = head + ":\n" + "\n".join(f"  {p}" for p in self.problems)

    def __str__(self) -> str:
        return self.text
