"""``./run demo`` until the 3D viewer lands: play chop.dat with the reference AI and report."""

from __future__ import annotations

from pathlib import Path

from engine.boardfile import load_board
from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.game import play_game
from engine.model import Level
from engine.outputs import format_globalseq, format_stats

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    board = load_board(ROOT / "gameboards" / "chop.dat")
    game = play_game(board, Level.HARD, generate_deck(1), reference_chooser)
    out = ROOT / "out" / "demo"
    out.mkdir(parents=True, exist_ok=True)
    (out / "globalseq.txt").write_text(format_globalseq(game))
    (out / "stats.txt").write_text(format_stats(game))
    print(f"chop.dat, hard, reference AI, seed 1: outcome {game.outcome.name if game.outcome else '?'} "
          f"after {len(game.rounds)} rounds; files in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
