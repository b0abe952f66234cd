"""Any game exported headless to PNG, GIF or MP4: a ``GameShow``'s frames through the shared export.

The camera, the frame times (a long game sped up to last at most ``max_seconds``), the HUD box
painted on every frame and the file formats are the robot game's (``viewer3d.movie``,
``viewer3d.roundview.draw_on_image``, ``viewer3d.export``), so every game's films look alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, overload

from PIL import Image

from viewer3d.clock import GamePlayer
from viewer3d.export import Progress, export_frames
from viewer3d.games.base import GameShow, HudLine, Steps
from viewer3d.movie import MAX_SECONDS, camera_for_view, frame_times
from viewer3d.render.state import CameraMatrices
from viewer3d.roundview import draw_on_image, hud_box_height

Frame = tuple[CameraMatrices, Any]


class ShowFrames(Sequence[Frame]):
    """Frame ``k``: the fixed camera and the game at ``times[k]``, computed when the exporter asks."""

    def __init__(self, show: GameShow[Any], matrices: CameraMatrices, times: list[float]) -> None:
        self.show, self.matrices, self.times = show, matrices, times

    def __len__(self) -> int:
        return len(self.times)

    @overload
    def __getitem__(self, index: int) -> Frame: ...
    @overload
    def __getitem__(self, index: slice) -> list[Frame]: ...
    def __getitem__(self, index: int | slice) -> Frame | list[Frame]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return (self.matrices, self.show.frame(self.times[index]))


def hud_at(show: GameShow[Any], t: float, title: str) -> list[HudLine]:
    """The HUD lines of an exported frame: the title and the game's lines at ``t`` (no player flags)."""
    player: GamePlayer[Any] = GamePlayer(show.timeline)
    player.seek(t)
    starting = [n for n, start in show.timeline.round_starts.items() if start == t and t > 0]
    if starting:  # a round's first frame names that round, as after a jump to it (--round N)
        player.jump_to_round(starting[0])
    return [HudLine(title), *show.status_lines(player)] if title else show.status_lines(player)


def hud_painter(show: GameShow[Any], times: list[float], title: str) -> Callable[[Image.Image, int], Image.Image]:
    def decorate(image: Image.Image, index: int) -> Image.Image:
        lines = hud_at(show, times[index], title)
        return draw_on_image(image, None, [line.text for line in lines], [line.colour for line in lines])

    return decorate


def round_span(steps: Steps, number: int) -> tuple[float, float]:
    """The times round ``number`` (from 1) starts and ends; ValueError naming what exists."""
    if number not in steps.round_starts:
        last = max(steps.round_starts, default=0)
        raise ValueError(f"there is no round {number}: the game has {last} round{'s' if last != 1 else ''}")
    ends = [end for i, end in enumerate(steps.step_ends) if steps.step_round(i) == number]
    return steps.round_starts[number], ends[-1]


def export_show(
    show: GameShow[Any],
    out: Path,
    size: tuple[int, int] | None = None,
    fps: int | None = None,
    view: str = "iso1",
    speed: float | None = None,
    *,
    theme: Any = None,
    hud: bool = True,
    max_seconds: float = MAX_SECONDS,
    progress: Progress | None = None,
    round_number: int | None = None,
    zoom: float | None = None,
) -> int:
    """Write ``show`` to ``out`` (.png: its final picture; .gif/.mp4: the whole game), or only round
    ``round_number`` (.png: its start), ``zoom`` times closer than the whole board; returns frames."""
    still = out.suffix.lower() == ".png"
    size = size or ((640, 480) if out.suffix.lower() == ".gif" else (1024, 768))
    fps = fps or 15
    begin, duration = (
        round_span(show.timeline, round_number) if round_number is not None else (0.0, show.timeline.duration)
    )
    if still:
        times = [begin if round_number is not None else duration]
    else:
        times = [begin + t for t in frame_times(duration - begin, fps, speed, max_seconds)]
    title = show.title
    tallest = max(len(hud_at(show, t, title)) for t in (0.0, show.timeline.duration)) if hud else 0
    hud_top = min(hud_box_height(tallest) + 4.0, 0.2 * size[1]) if hud else 0.0
    matrices = camera_for_view(show.size, size, view, zoom or 1.0, hud_top).matrices()
    # A GIF's frames share one palette, made from the last picture (it holds every light wall's
    # colour, which the first lacks): unchanged pixels keep their index, so the GIF stores only what
    # changed (a 1,041-round game: 83 MB with a palette per frame)
    gif = out.suffix.lower() == ".gif"
    if gif:
        times = [times[-1], *times]
    return export_frames(
        out,
        ShowFrames(show, matrices, times),
        size,
        fps,
        lambda ctx: show.renderer(ctx, theme),
        progress,
        hud_painter(show, times, title) if hud else None,
        palette_first=gif,
    )
