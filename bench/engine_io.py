"""Figures for the engine's files and command line (print only; no assertions).

    python3 bench/engine_io.py

- the cost a ``robots-engine start`` pays to rebuild the game from its state file, at the end of
  the longest possible game (700 rounds, chop.dat easy, deck seed 2 never reaches the goal);
- one whole ``start`` round in-process with a shell ``bot-ki`` (median of a 40-round game);
- ``write_game_dir`` of that long game, and ``render_ascii_board`` of a 100 x 100 board.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.asciiboard import render_ascii_board  # noqa: E402
from engine.boardfile import load_board  # noqa: E402
from engine.cli import main  # noqa: E402
from engine.conformance import reference_chooser  # noqa: E402
from engine.deck import generate_deck, save_deck  # noqa: E402
from engine.game import play_game  # noqa: E402
from engine.gamedir import write_game_dir  # noqa: E402
from engine.model import Board, Level  # noqa: E402
from engine.session import Session, session_from_json, session_to_json  # noqa: E402

CHOP = ROOT / "gameboards" / "chop.dat"


def best_of(repeat: int, work: object) -> float:
    times = []
    for _ in range(repeat):
        begin = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - begin)
    return min(times)


def main_bench() -> None:
    board = load_board(CHOP)
    deck = generate_deck(2)
    game = play_game(board, Level.EASY, deck, reference_chooser)
    session = Session(board, Level.EASY, deck, chosen=[list(r.chosen) for r in game.rounds])
    text = session_to_json(session)
    rebuild = best_of(5, lambda: session_from_json(text).rebuild())
    print(
        f"state file of a {len(game.rounds)}-round game: {len(text) / 1024:.0f} KiB; "
        f"read + rebuild: {rebuild * 1000:.1f} ms"
    )

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        written = best_of(5, lambda: write_game_dir(folder / "g", game, ai="reference", deck=None, seed=2))
        print(f"write_game_dir of that game: {written * 1000:.1f} ms")

        save_deck(generate_deck(2), folder / "deck.dat")
        bot = folder / "bot-ki"
        bot.write_text("#!/bin/sh\nhead -5 cards.txt > ccards.txt\n")
        bot.chmod(bot.stat().st_mode | stat.S_IXUSR)
        old = Path.cwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                main(["load", str(CHOP), "deck.dat", "easy"])
                rounds = []
                for _ in range(40):
                    begin = time.perf_counter()
                    code = main(["start"])
                    rounds.append(time.perf_counter() - begin)
                    if code != 0:
                        break
        finally:
            os.chdir(old)
        print(
            f"robots-engine start (in-process, shell bot-ki): median {statistics.median(rounds) * 1000:.1f} ms "
            f"per round over {len(rounds)} rounds"
        )

    big = Board.from_strings(["T" + " " * 98 + "Z"] + [" " * 100] * 99)
    drawing = best_of(5, lambda: render_ascii_board(big, big.start))
    print(
        f"render_ascii_board 100 x 100: {drawing * 1000:.1f} ms, {len(render_ascii_board(big, big.start)) / 1024:.0f} KiB"
    )


if __name__ == "__main__":
    main_bench()
