"""Problem lines short enough to read: each at most about 80 characters, and a long list cut
to a few lines plus "and N more" wherever space is scarce (stderr, a HUD, a status bar)."""

from __future__ import annotations

LINE_CHARS = 80


def clip(line: str, limit: int = LINE_CHARS) -> str:
    """``line`` cut to ``limit`` characters with an ellipsis (a quoted file can be anything)."""
    line = " ".join(line.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def name_list(names: list[str], room: int) -> str:
    """``a, b, c and N more`` fitting in about ``room`` characters."""
    shown: list[str] = []
    for index, name in enumerate(names):
        rest = len(names) - index - 1
        tail = f" and {rest} more" if rest else ""
        if shown and len(", ".join([*shown, name])) + len(tail) > room:
            return ", ".join(shown) + f" and {len(names) - len(shown)} more"
        shown.append(name)
    return ", ".join(shown)


def summary(lines: list[str], most: int = 3) -> list[str]:
    """At most ``most`` clipped lines; when there are more, the last says how many were left out."""
    if len(lines) <= most:
        return [clip(line) for line in lines]
    return [clip(line) for line in lines[: most - 1]] + [f"and {len(lines) - most + 1} more"]


def theme_line(name: str, warnings: list[str] | tuple[str, ...]) -> str:
    """A theme just shown, in one status line: ``theme: NAME``, or its first warning and how many more."""
    if not warnings:
        return f"theme: {name}"
    more = f" (+{len(warnings) - 1} more)" if len(warnings) > 1 else ""
    return f"theme {name}: {warnings[0]}{more}"


def refusal_line(name: str, problem: str) -> str:
    """``--theme NAME: PROBLEM`` for a theme that cannot be used, naming ``NAME`` once: a folder's
    problem names it already (``--theme /x: /x: does not exist`` said it twice)."""
    return f"--theme {problem}" if problem.startswith(f"{name}: ") else f"--theme {name}: {problem}"
