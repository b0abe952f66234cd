"""The shipped game boards (``*.dat``), installed as package data so every program finds them
wherever it runs: ``board_path("chop.dat")`` is the contest's reference board."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from engine.resources import resource_path

#: The contest's reference board, the one the demo plays.
DEMO_BOARD = "chop.dat"


def board_path(name: str) -> Path:
    """The shipped board ``name`` (e.g. ``"chop.dat"``); ResourceMissing if there is none."""
    return resource_path(__name__, name)


def board_names() -> list[str]:
    """The file names of every shipped board, sorted."""
    return sorted(item.name for item in resources.files(__name__).iterdir() if item.name.endswith(".dat"))


#: The folder (inside this package) holding the Tron arenas (``*.txt``, the 2014 contest's format).
TRON_FOLDER = "tron"


def tron_arena_path(name: str) -> Path:
    """The shipped Tron arena ``name`` (e.g. ``"open-10x10.txt"``); ResourceMissing if there is none."""
    return resource_path(__name__, f"{TRON_FOLDER}/{name}")


def tron_arena_names() -> list[str]:
    """The file names of every shipped Tron arena, sorted."""
    folder = resources.files(__name__).joinpath(TRON_FOLDER)
    return sorted(item.name for item in folder.iterdir() if item.name.endswith(".txt"))
