"""What the viewer shows about the AI's side of the current round: its hand, its choice, its
output and its debug marks (from the game folder's round record, ``engine.roundlog``, or from a
live game's recorder).

Pure functions, no GL: ``round_lines`` is the HUD text, ``project_marks`` turns the round's debug
marks into screen shapes for a camera, and ``draw_on_image`` paints those shapes and the HUD text
onto an exported picture with Pillow (the window draws the same shapes with pyglet).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.cards import Card
from engine.debugmarks import Arrow, TextLine, TileMark
from engine.errors import read_utf8
from engine.game import play_cards
from engine.model import Board, Level, Pose
from engine.roundlog import RoundEntry
from viewer3d import coords
from viewer3d.playback import Timeline
from viewer3d.render.state import CameraMatrices, RobotVisual

#: Lines of the AI's output shown for a round (its last ones).
OUTPUT_LINES = 3
MARK_ALPHA = 110

Point = tuple[float, float]


@dataclass
class MarkShapes:
    """A round's debug marks in screen pixels (origin top-left)."""

    tiles: list[tuple[list[Point], tuple[int, int, int]]] = field(default_factory=list)
    arrows: list[tuple[Point, Point, tuple[int, int, int]]] = field(default_factory=list)
    labels: list[tuple[Point, str]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.tiles or self.arrows or self.labels or self.texts)


def cards_text(cards: Sequence[object] | None, current: int | None = None) -> str:
    """``MF 1  [RL]  RR ...``: the current card (0-based) in brackets."""
    if cards is None:
        return "-"
    words = [getattr(card, "value", str(card)) for card in cards]
    return "  ".join(f"[{w}]" if i == current else w for i, w in enumerate(words))


def round_lines(
    entry: RoundEntry | None, card: int | None = None, *, output_lines: int = OUTPUT_LINES, cards: bool = True
) -> list[str]:
    """The HUD lines for a round: hand, chosen cards (the current one marked), time, last output.

    ``cards`` False leaves the hand and the choice out (the window draws them as cards)."""
    if entry is None:
        return []
    time = f"   ({entry.seconds:.3f} s)" if entry.seconds is not None else ""
    if cards:
        lines = [f"hand:   {cards_text(entry.hand)}", f"chosen: {cards_text(entry.chosen, card)}{time}"]
    else:
        lines = [f"AI time: {entry.seconds:.3f} s"] if entry.seconds is not None else []
    if entry.error:
        lines.append(f"AI error: {entry.error[:100]}")
    said = [line for line in entry.output.splitlines() if line.strip()][-output_lines:] if output_lines else []
    lines.extend(f"> {line[:100]}" for line in said)
    lines.extend(f"# {mark.text}" for mark in entry.debug.marks if isinstance(mark, TextLine))
    if entry.debug.problems:
        more = f" (+{len(entry.debug.problems) - 1} more)" if len(entry.debug.problems) > 1 else ""
        lines.append(f"debug: {entry.debug.problems[0][:90]}{more}")
    return lines


def _screen(point: tuple[float, float, float], view_proj: np.ndarray, viewport: tuple[int, int]) -> Point:
    px, py, _ = coords.project(point, view_proj, viewport)
    return (px, py)


def project_marks(entry: RoundEntry | None, camera: CameraMatrices, viewport: tuple[int, int]) -> MarkShapes:
    """The round's debug marks as screen shapes for ``camera``."""
    shapes = MarkShapes()
    if entry is None:
        return shapes
    view_proj = camera.view_proj_columns()
    lift = 0.02
    for mark in entry.debug.marks:
        if isinstance(mark, TileMark):
            corners = [
                (mark.x + dx, lift, mark.y + dz) for dx, dz in ((0.08, 0.08), (0.92, 0.08), (0.92, 0.92), (0.08, 0.92))
            ]
            shapes.tiles.append(([_screen(c, view_proj, viewport) for c in corners], mark.colour))
            if mark.label:
                shapes.labels.append(
                    (_screen(coords.tile_center(mark.x, mark.y, lift), view_proj, viewport), mark.label)
                )
        elif isinstance(mark, Arrow):
            start = _screen(coords.tile_center(mark.x1, mark.y1, 0.3), view_proj, viewport)
            end = _screen(coords.tile_center(mark.x2, mark.y2, 0.3), view_proj, viewport)
            shapes.arrows.append((start, end, mark.colour))
        else:
            shapes.texts.append(mark.text)
    return shapes


def arrow_head(start: Point, end: Point, size: float = 10.0) -> list[Point]:
    """The triangle at the end of an arrow."""
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    left = (end[0] - size * math.cos(angle - 0.45), end[1] - size * math.sin(angle - 0.45))
    right = (end[0] - size * math.cos(angle + 0.45), end[1] - size * math.sin(angle + 0.45))
    return [end, left, right]


HUD_LINE_PX = 14  # an exported frame's HUD text: one line of Pillow's default font at HUD_FONT_PX
#: Pillow's default font (Aileron) at its default 10 px set a colon or full stop straight against a
#: round or upright letter: Tron's ``1 ./cbot: driving`` was exported as ``1 ./cbot driving`` (the
#: colon's dots merged into the t) and spaces shrank to 2 px (``intoa trail``).  At 12 px, the
#: window HUD's size, every letter and digit keeps a blank column before ``:`` and ``.``.
HUD_FONT_PX = 12


def hud_box_height(lines: int) -> float:
    """The bottom edge (pixels from the top) of an exported frame's HUD box with ``lines`` lines."""
    return float(10 + HUD_LINE_PX * lines)


def _fitted(line: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, room: int) -> str:
    """``line`` cut to ``room`` pixels with ``...``: a bot's long path and reason ran off a 480 px
    frame's right edge mid-word (the whole reason is in ``robots-tron replay``'s output)."""
    if font.getlength(line) <= room:
        return line
    while line and font.getlength(line + "...") > room:
        line = line[:-1]
    return line.rstrip() + "..."


def draw_on_image(
    image: Image.Image,
    shapes: MarkShapes | None,
    hud: Sequence[str] = (),
    colours: Sequence[tuple[int, int, int] | None] = (),
) -> Image.Image:
    """Paint debug marks and HUD lines onto an exported frame (a new RGB image); a line with a
    colour in ``colours`` (Tron's bots) is drawn in it, the others in the HUD's white."""
    base = image.convert("RGBA")
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    font = ImageFont.load_default(HUD_FONT_PX)
    if shapes:
        for corners, colour in shapes.tiles:
            draw.polygon(corners, fill=(*colour, MARK_ALPHA), outline=(*colour, 230))
        for start, end, colour in shapes.arrows:
            draw.line([start, end], fill=(*colour, 240), width=3)
            draw.polygon(arrow_head(start, end), fill=(*colour, 240))
        for (x, y), text in shapes.labels:
            draw.text(
                (x - 3 * len(text), y - 5),
                text,
                fill=(255, 255, 255, 255),
                font=font,
                stroke_width=1,
                stroke_fill=(0, 0, 0, 255),
            )
    if hud:
        room = base.width - 14  # text from x=10 to 4 px short of the right edge
        lines = [_fitted(line, font, room) for line in hud]
        width = min(12 + 6 * max(len(line) for line in lines), base.width - 9)  # a 4 px margin as on the left
        draw.rectangle((4, 4, 4 + width, hud_box_height(len(lines))), fill=(12, 16, 24, 170))
        for i, line in enumerate(lines):
            own = colours[i] if i < len(colours) else None
            fill = (*own, 255) if own is not None else (235, 240, 250, 255)
            draw.text((10, 8 + HUD_LINE_PX * i), line, fill=fill, font=font)
    return Image.alpha_composite(base, layer).convert("RGB")


def entry_for(rounds: Mapping[int, RoundEntry], round_number: int) -> RoundEntry | None:
    """The record of a round (round 0, before the first card, shows round 1's)."""
    return rounds.get(max(1, round_number))


@dataclass(frozen=True)
class RoundAnalysis:
    """``robots-engine analyse``'s finding for one round: the best choice and whether the AI lost by its own."""

    best: tuple[Card, ...]
    lossy: bool
    loss: str
    ghost: tuple[Pose, ...] = ()  # the robot after each card of the best choice, from the round's start


def load_analysis(
    folder: Path, rounds: Mapping[int, RoundEntry], board: Board, level: Level
) -> dict[int, RoundAnalysis]:
    """``analysis.json`` of a game folder (empty when there is none); InputError, one line naming
    it, when it cannot be read (``engine.analyse.parse_analysis``, which also judges each round:
    lossy or not, and by how much, as ``robots-engine analyse`` printed it). Rounds it describes
    in a way it never writes are skipped.

    Read as every input is (``engine.errors.read_utf8``): a FIFO named ``analysis.json`` held the
    viewer for ever, and JSON nested 10,000 deep was a RecursionError traceback.
    """
    path = folder / "analysis.json"
    if not os.path.lexists(path):
        return {}
    from engine.analyse import parse_analysis  # the planner's modules: only for an analysed game

    found: dict[int, RoundAnalysis] = {}
    for verdict in parse_analysis(read_utf8(path), path, skip=lambda _: None):  # the other rounds are shown
        entry = rounds.get(verdict.number)
        ghost = ghost_poses(board, level, entry.before, verdict.best.cards) if entry is not None else ()
        found[verdict.number] = RoundAnalysis(verdict.best.cards, verdict.lossy, verdict.loss_text(), ghost)
    return found


def analysis_line(found: RoundAnalysis | None) -> list[str]:
    """The HUD line of ``robots-engine analyse``'s finding for a round (none when not analysed)."""
    if found is None:
        return []
    if not found.lossy:
        return ["best:   the AI's choice was as good"]
    return [f"best:   {'  '.join(c.value for c in found.best)}   (loss: {found.loss})"]


def ghost_poses(board: Board, level: Level, before: Pose, cards: Sequence[Card]) -> tuple[Pose, ...]:
    """The pose before the round and after each card of ``cards`` (played with the real rules)."""
    return (before, *(result.pose for result in play_cards(board, level, before, cards)))


def round_and_cards_done(timeline: Timeline, t: float, within: int | None = None) -> tuple[int, int]:
    """The round shown at replay time ``t`` and how many of its cards have been played by then.

    A round's end is the next round's start, shown as the next round before any card; ``within``,
    the one round a film or picture shows (``--round``), keeps its end that round's, all played."""
    index = timeline.step_index_at(t)
    if index < 0:
        return 1, 0
    step = timeline.steps[index]
    done = step.index + (1 if t >= timeline.card_ends[index] - 1e-9 else 0)
    following = timeline.round_starts.get(step.round_number + 1)
    if following is not None and t >= following - 1e-9 and step.round_number != within:
        return step.round_number + 1, 0
    return step.round_number, done


def ghost_visual(analysis: RoundAnalysis | None, cards_done: int) -> RobotVisual | None:
    """The translucent robot of the best choice after ``cards_done`` cards of the round."""
    if analysis is None or not analysis.ghost:
        return None
    pose = analysis.ghost[min(cards_done, len(analysis.ghost) - 1)]
    return RobotVisual(float(pose.x), float(pose.y), yaw=coords.facing_yaw(pose.facing), alpha=0.35)
