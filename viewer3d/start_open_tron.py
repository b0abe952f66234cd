"""The start screen's file browser for Tron (no GL): open a Tron game file or arena, or choose a
bot's program. The typing, listing and buttons are ``start_open.OpenBrowser``'s; only what a
chosen path means differs: a file is sniffed (``engine.games``) and anything not Tron is refused
in one line, so a robot board never reaches the Tron viewer."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from engine.games import TRON, sniff_game
from viewer3d.start_open import OpenBrowser, Opened, not_a_file

TRON_OPEN_LABEL = "open a Tron game file (.json) or arena (.txt)"
PROGRAM_LABEL = "choose the program of bot {slot} (any executable speaking the contest's protocol)"


@dataclass
class TronBrowser(OpenBrowser):
    """``slot`` None: open a game or arena; else choose the program of that bot (1-based)."""

    slot: int | None = None

    def __post_init__(self) -> None:
        self.label = TRON_OPEN_LABEL if self.slot is None else PROGRAM_LABEL.format(slot=self.slot)
        super().__post_init__()

    def _ask(self, label: str, text: str) -> None:
        super()._ask(self.label, text)

    def _submitted(self, text: str) -> None:
        typed = text.strip()
        if not typed:
            self.message = "type a path or choose one from the list"
            return self._ask(self.label, text)
        path = Path(os.path.expanduser(typed))
        if path.is_dir():
            return self._ask(self.label, str(path).rstrip("/") + "/")
        if not path.is_file():
            self.message = not_a_file(path, typed)
            return self._ask(self.label, text)
        if self.slot is None and sniff_game(path) != TRON:
            self.message = f"{path.name[:60]} is not a Tron game file or arena"
            return self._ask(self.label, text)
        self.result = Opened(str(path))
        return None

    def hint(self) -> str:
        if self.message:
            return self.message
        return "Up/Down and Enter, Tab completes, or click; Esc cancels"
