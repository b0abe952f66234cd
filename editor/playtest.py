"""Test-play: play the board with the built-in AI at a level, write a game directory, open the viewer.

The game is played by the engine (``engine.game.play_game``) with the best built-in AI
that is installed (the planner, else the contest's reference AI) on a fresh deck, and
written with the engine's game-directory writer, which the 3D viewer reads.
"""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

from engine.deck import generate_deck
from engine.game import Chooser, GameRecord, play_game
from engine.gamedir import write_game_dir
from engine.model import Board, Level

AI_PREFERENCE = ("planner", "reference")
VIEWER_MODULE = "viewer3d.cli"


def builtin_ai() -> tuple[str, Chooser]:
    """The best available built-in AI and its name."""
    try:
        registry = importlib.import_module("engine.ai.registry")
    except ModuleNotFoundError:
        registry = None
    if registry is not None:
        for name in AI_PREFERENCE:
            try:
                return name, registry.resolve_ai(name)
            except Exception:  # not installed in this build: try the next one
                continue
    from engine.conformance import reference_chooser

    return "reference", reference_chooser


def play(board: Board, level: Level, folder: Path | None = None, seed: int | None = None) -> tuple[Path, GameRecord]:
    """Play one game and write its game directory (a new temporary folder unless given)."""
    target = folder if folder is not None else Path(tempfile.mkdtemp(prefix="robots-edit-play-"))
    name, chooser = builtin_ai()
    deck = generate_deck(seed)
    game = play_game(board, level, deck, chooser)
    write_game_dir(target, game, ai=name, deck=None, seed=seed)
    return target, game


def viewer_available() -> bool:
    try:
        return importlib.util.find_spec(VIEWER_MODULE) is not None
    except ModuleNotFoundError:
        return False


def open_viewer(game_dir: Path) -> subprocess.Popen[bytes]:
    """Start the 3D viewer on a game directory as its own process (the editor keeps running)."""
    return subprocess.Popen([sys.executable, "-m", VIEWER_MODULE, str(game_dir)])
