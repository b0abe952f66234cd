"""Which game a file belongs to: the product hosts several (the 2009 robot game, the 2014 Tron).

The front ends keep a registry each (``viewer3d.games``, ``editor.games``) mapping a game's name to
what it shows and edits; the rule that recognises a file lives here, once, so the viewer and the
editor never disagree about a file.
"""

from __future__ import annotations

import re
from pathlib import Path

ROBOTS, TRON = "robots", "tron"
GAME_NAMES = (ROBOTS, TRON)
SNIFF_BYTES = 4096
#: The name ``robots-tron play`` gives its game file.
TRON_GAME_FILE = "tron-game.json"
#: A ``robots-tron play --log`` transcript: each line is ``>P`` (server to bot P) or ``<P`` (bot P's
#: answer) and the protocol line.
TRANSCRIPT_LINE = re.compile(r"[<>]\d+ ")


def _head(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(SNIFF_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""


def sniff_game(path: str | Path) -> str | None:
    """``"tron"`` for a Tron game file (by its content, or by its name ``*tron-game.json`` when the
    content says nothing: an empty or cut one was read as a robot board), arena (``GAMEBOARDSTART``
    first) or protocol transcript, ``"robots"`` for any other file or folder (robot boards, game
    folders, ``game.json``), None when the path does not exist."""
    target = Path(path)
    if not target.exists():
        return None
    if target.is_file():
        head = _head(target)
        start = head.lstrip()
        if '"robots-tron-game"' in head or start.startswith("GAMEBOARDSTART") or TRANSCRIPT_LINE.match(start):
            return TRON
        if target.name.endswith(TRON_GAME_FILE):
            return TRON
    return ROBOTS
