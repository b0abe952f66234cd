"""Render a Tron game offscreen (EGL) to PNG, GIF or MP4, with the HUD drawn on every frame.

The replay speed adapts so that a game of any length fits ``max_seconds`` (a 16,000-round game on
a 200x200 arena would otherwise take hours); short games play at ``rounds_per_second``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.tron.record import GameRecord
from viewer3d.camera import ISO_YAWS, TOP_PITCH, Camera, CameraPose
from viewer3d.export import save_images
from viewer3d.games.tron.render import TronRenderer
from viewer3d.games.tron.timeline import COLOURS, Moment, Timeline
from viewer3d.render.offscreen import OffscreenTarget, create_headless_context

ROUNDS_PER_SECOND = 8.0
MAX_SECONDS = 30.0
HOLD_SECONDS = 1.5  # the final picture stays this long at the end of a GIF or MP4


def frame_times(
    duration: float, fps: float, rounds_per_second: float = ROUNDS_PER_SECOND, max_seconds: float = MAX_SECONDS
) -> list[float]:
    """The game times (in rounds) of every frame: the whole game, then the end held still."""
    speed = max(rounds_per_second, duration / max_seconds)
    count = max(1, int(duration / speed * fps) + 1)
    times = [min(duration, i * speed / fps) for i in range(count)]
    if times[-1] < duration:
        times.append(duration)
    return times + [duration + 1.5] * int(HOLD_SECONDS * fps)


def camera_for(width: int, height: int, size: tuple[int, int], view: str) -> Camera:
    camera = Camera((width, height), size)
    if view == "top":
        camera.pose = camera.fitted_pose(CameraPose(yaw=0.0, pitch=TOP_PITCH))
    else:
        number = int(view[-1]) if view[-1:].isdigit() else 1
        camera.pose = camera.fitted_pose(CameraPose(yaw=ISO_YAWS[(number - 1) % 4]))
    return camera


def draw_hud(image: Image.Image, moment: Moment) -> Image.Image:
    """The HUD: round and every bot's state in its colour, top left, on a dark band."""
    draw = ImageDraw.Draw(image, "RGBA")
    size = max(12, image.height // 40)
    try:
        font: ImageFont.ImageFont | ImageFont.FreeTypeFont = ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has one bitmap size
        font = ImageFont.load_default()
    line_height = size + 4
    width = max(int(draw.textlength(line, font=font)) for line in moment.hud) + 16
    draw.rectangle((0, 0, width, 8 + line_height * len(moment.hud)), fill=(0, 0, 0, 150))
    for i, line in enumerate(moment.hud):
        colour = (
            (230, 235, 240)
            if i == 0 or i > len(moment.cycles)
            else tuple(int(255 * c) for c in COLOURS[(i - 1) % len(COLOURS)])
        )
        draw.text((8, 4 + i * line_height), line, fill=colour, font=font)
    return image


def render_frames(
    record: GameRecord, times: list[float], size: tuple[int, int], view: str = "iso1"
) -> Iterator[Image.Image]:
    timeline = Timeline(record)
    ctx = create_headless_context()
    renderer = TronRenderer(ctx, record.arena)
    target = OffscreenTarget(ctx, size)
    camera = camera_for(record.arena.width, record.arena.height, size, view)
    matrices = camera.matrices()
    try:
        for t in times:
            moment = timeline.at(t)
            image = target.render(lambda moment=moment: renderer.render(matrices, moment))  # type: ignore[misc]
            yield draw_hud(image.convert("RGB"), moment)
    finally:
        target.release()
        renderer.release()
        ctx.release()


def export_game(
    record: GameRecord,
    out: Path,
    size: tuple[int, int] = (640, 480),
    fps: float = 15,
    view: str = "iso1",
    progress: Callable[[int, int], None] | None = None,
    max_seconds: float = MAX_SECONDS,
) -> int:
    """Write the game to ``out`` (.png: the final picture; .gif/.mp4: the whole game); returns frames."""
    duration = float(len(record.rounds))
    times = [duration + 1.5] if out.suffix.lower() == ".png" else frame_times(duration, fps, max_seconds=max_seconds)

    def counted() -> Iterator[Image.Image]:
        for done, image in enumerate(render_frames(record, times, size, view), 1):
            if progress is not None:
                progress(done, len(times))
            yield image

    return save_images(out, counted(), size, fps, shared_palette=False)
