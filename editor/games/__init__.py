"""The games the editor draws, by name or by sniffing a file (``engine.games.sniff_game``): robot
boards by the editor's own path (``editor.cli``), Tron arenas by ``editor.games.tron``."""

from __future__ import annotations

from engine.games import TRON, sniff_game

__all__ = ["TRON", "sniff_game"]
