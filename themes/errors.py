"""The one error a theme can raise: a list of every problem found, in plain words."""

from __future__ import annotations

from pathlib import Path


class ThemeError(Exception):
    """A theme that cannot be used. ``problems`` holds one self-contained line per problem.

    Validation collects everything wrong before raising, so a theme maker fixes all
    issues in one round instead of discovering them one at a time.
    """

    def __init__(self, path: Path | str, problems: list[str]) -> None:
        self.path = Path(path)
        self.problems = list(problems)
        count = len(self.problems)
        head = f"theme {self.path} has {count} problem{'s' if count != 1 else ''}"
        super().__init__(head + ":\n" + "\n".join(f"  {p}" for p in self.problems))
