"""``comparison.png``: per board, how often one AI beat another on the same decks.

One panel per pair of AIs; one row per board: a bar from the centre to the right for the share
of games the first AI ranked better (goal first, then fewer rounds), to the left for the share
it ranked worse, the games of equal rank left blank.  Drawn with Pillow's default font so that
it needs nothing but Pillow.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.atomic import write_bytes_atomic
from engine.contest.compare import PairComparison, board_name

WIDTH = 760
ROW = 18
LABEL_WIDTH = 250
MARGIN = 12
BETTER = (46, 160, 67)
WORSE = (207, 34, 46)
INK = (30, 30, 30)
GRID = (200, 200, 200)


def _panel_height(pair: PairComparison) -> int:
    return 3 * ROW + ROW * len(pair.boards) + MARGIN


def draw_chart(pairs: Sequence[PairComparison]) -> Image.Image:
    """The chart of every pair (an image with a note when there is no pair)."""
    height = MARGIN + sum(_panel_height(p) for p in pairs) if pairs else 3 * ROW
    image = Image.new("RGB", (WIDTH, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    y = MARGIN
    centre = LABEL_WIDTH + (WIDTH - LABEL_WIDTH - MARGIN) // 2
    half = (WIDTH - LABEL_WIDTH - MARGIN) // 2 - 4
    for pair in pairs:
        draw.text((MARGIN, y), pair.verdict()[:110], fill=INK, font=font)
        y += ROW
        draw.text((LABEL_WIDTH, y), f"<- {pair.a} worse", fill=WORSE, font=font)
        right = f"{pair.a} better ->"
        draw.text((WIDTH - MARGIN - 7 * len(right), y), right, fill=BETTER, font=font)
        y += ROW
        top = y
        for tally in pair.boards:
            draw.text((MARGIN, y + 3), board_name(tally.board)[:28], fill=INK, font=font)
            if tally.games:
                better = round(half * tally.better / tally.games)
                worse = round(half * tally.worse / tally.games)
                if better:
                    draw.rectangle((centre, y + 3, centre + better, y + ROW - 3), fill=BETTER)
                if worse:
                    draw.rectangle((centre - worse, y + 3, centre, y + ROW - 3), fill=WORSE)
                share = f"{tally.better}/{tally.equal}/{tally.worse}"
                draw.text((LABEL_WIDTH - 8 - 6 * len(share), y + 3), share, fill=(120, 120, 120), font=font)
            y += ROW
        draw.line((centre, top, centre, y), fill=INK)
        y += ROW + MARGIN - ROW
        y += ROW
    if not pairs:
        draw.text((MARGIN, MARGIN), "one AI only: nothing to compare", fill=INK, font=font)
    return image


def write_chart(path: Path, pairs: Sequence[PairComparison]) -> None:
    buffer = io.BytesIO()
    draw_chart(pairs).save(buffer, format="PNG")
    write_bytes_atomic(path, buffer.getvalue())
