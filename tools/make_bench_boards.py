"""Write the planner's unseen benchmark boards into ``bench/boards/`` (hand-drawn, row by row).

They are in the style of third-party contest boards, which the planner was never tuned on:
narrow gorges between holes, belt labyrinths, moats of holes around the goal, oil slides that
end in holes, crusher gates and pusher gauntlets. Run ``python3 tools/make_bench_boards.py``
from the repository root; the committed ``.dat`` files are what count.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.boardfile import write_board  # noqa: E402
from engine.model import Board  # noqa: E402

BOARDS: dict[str, list[str]] = {
    # A one-tile gorge between holes, twice bent; the goal at its far end.
    "gorge-12x12": [
        "T   HHHHHHHH",
        "HHH HHHHHHHH",
        "HHH HHHHHHHH",
        "HHH      HHH",
        "HHHHHHHH HHH",
        "HHHHHHHH HHH",
        "HHH      HHH",
        "HHH HHHHHHHH",
        "HHH HHHHHHHH",
        "HHH       HH",
        "HHHHHHHHH HH",
        "HHHHHHHHH ZH",
    ],
    # Belts everywhere: lanes that carry the robot away from the goal unless it crosses at the right tile.
    "belt-labyrinth-12x12": [
        "V>>>>>>>>>>v",
        " ^<<<<<<<<<v",
        ">>>>>>>>>v^v",
        "^ <<<<<<<v^v",
        "^ v >>>v v^v",
        "^ v ^ Zv v^v",
        "^ v ^<<< v^v",
        "^ >>>>>>>>^v",
        "^<<<<<<<<<<v",
        "H H H H H Hv",
        "<<<<<<<<<<<<",
        "            ",
    ],
    # The goal on an island inside a moat of holes; two one-tile bridges.
    "moat-12x12": [
        "U           ",
        "            ",
        "  HHHHHHHH  ",
        "  H      H  ",
        "  H HHHH H  ",
        "  H H  H H  ",
        "    H Z H   ",
        "  H HH HH H ",
        "  H      H  ",
        "  HHHHH HHH ",
        "            ",
        "            ",
    ],
    # Oil slides across the approach; every slide that overshoots ends in a hole.
    "oil-moat-12x12": [
        "T   OOOOH   ",
        "    OOOOH   ",
        "HHH OOOOHHHH",
        "    OOOO    ",
        " HH OOOO HH ",
        " HZ OOOO  H ",
        " HH OOOO HH ",
        "    OOOO    ",
        "HHHHOOOOHHHH",
        "    OOOOH   ",
        "    OOOOH   ",
        "            ",
    ],
    # A narrow corridor with crushers and pushers on both sides, holes behind them.
    "crusher-gorge-16x8": [
        "HHHHHHHHHHHHHHHH",
        "HHHHHFHHHFHHHHHH",
        "T  N  N  N  N ZH",
        "HHHHHHHEHHHHHHHH",
        "HHHHHHHHHHHHHHHH",
        "HHHHHHHHHHHHHHHH",
        "HHHHHHHHHHHHHHHH",
        "HHHHHHHHHHHHHHHH",
    ],
    # Pushers line a walled lane; rotators turn the robot towards the holes.
    "pusher-gauntlet-12x12": [
        "V  D  D  D  ",
        " HHHHHHHHHH ",
        " H  L   R H ",
        " H HHHHHH H ",
        "   H    H   ",
        "HHRH HH HLHH",
        "   H HZ H   ",
        " H H    H H ",
        " H HHHH H H ",
        " H  C   E H ",
        " HHHHHHHHHH ",
        "            ",
    ],
}


def main() -> int:
    # Arguments are parsed only so that --help answers (it rewrote every file) and a typo is refused.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    folder = ROOT / "bench" / "boards"
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in BOARDS.items():
        board = Board.from_strings(rows)
        (folder / f"{name}.dat").write_text(write_board(board), encoding="utf-8")
        print(f"wrote {folder / name}.dat ({board.width}x{board.height})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
