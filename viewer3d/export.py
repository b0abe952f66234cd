"""Render a replay offscreen (EGL) to a file: PNG (one frame), GIF (whole replay, Pillow) or
MP4 (whole replay, ffmpeg from the ``imageio-ffmpeg`` wheel). No display is needed.

The caller supplies the frames (camera + scene state per frame) from its playback, so the
export shows exactly what the window would show."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sized
from pathlib import Path
from typing import TYPE_CHECKING, Any

import moderngl
from PIL import Image

from engine.atomic import atomic_output, resolve_target
from engine.model import Board
from viewer3d.render.offscreen import OffscreenTarget, create_headless_context
from viewer3d.render.renderer import SceneRenderer, ThemeLike
from viewer3d.render.state import CameraMatrices, FrameState

if TYPE_CHECKING:
    from viewer3d.games.base import GameRenderer

Frame = tuple[CameraMatrices, FrameState]
Progress = Callable[[int, int | None], None]  # (frames done, total frames or None when unknown)
#: Paints over rendered frame ``index`` (the HUD, debug marks) and returns the picture to keep.
Decorate = Callable[[Image.Image, int], Image.Image]
FORMATS = (".png", ".gif", ".mp4")
#: Pillow's GIF writer holds every frame until the end (to merge repeats and store only changes):
#: about this many bytes of memory per pixel of the film, measured (154 frames of 1024x768: 415 MB).
GIF_BYTES_PER_PIXEL = 2.2
#: The most pixels (frames x width x height) a GIF export takes on, about 4.7 GB of memory: a
#: minute of 1920x1080 at 15 fps fits; --size 8192x8192 asked for well over 100 GB and was killed.
MAX_GIF_PIXELS = 2**31
#: Makes a game's renderer on the export's headless GL context.
MakeRenderer = Callable[[moderngl.Context], "GameRenderer[Any]"]


class ExportError(Exception):
    """An export that cannot be done (unknown format, missing encoder, no frames); str() is one line."""


def _check_format(path: Path) -> str:
    """Fail before any rendering when the file cannot be written."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ExportError(f"{path}: unknown export format {suffix or '(none)'!r}; use one of {', '.join(FORMATS)}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"{path}: folder {folder} does not exist")
    _target(path)
    return suffix


def _target(path: Path) -> Path:
    """The regular file (or new name) an export to ``path`` replaces: a symlink is followed and
    its target written, so the link stays; a folder, FIFO, device or socket (or a link to one)
    is refused, so nothing but a regular file is ever replaced (``engine.atomic``'s rules)."""
    try:
        return resolve_target(path)
    except OSError as exc:
        raise ExportError(f"{path}: {exc.strerror}") from None


def _rendered(
    frames: Iterable[tuple[CameraMatrices, Any]], make_renderer: MakeRenderer, size: tuple[int, int]
) -> Iterator[Image.Image]:
    """Every frame drawn offscreen by the game's renderer (made once, on a headless context)."""
    ctx = create_headless_context()
    renderer = make_renderer(ctx)
    target = OffscreenTarget(ctx, size)
    try:
        for camera, state in frames:

            def draw(camera: CameraMatrices = camera, state: Any = state) -> None:
                renderer.render(camera, state, size)

            yield target.render(draw)
    finally:
        target.release()
        renderer.release()
        ctx.release()


def _scene(board: Board, theme: ThemeLike | None) -> MakeRenderer:
    """The robot game's renderer for ``board``."""
    return lambda ctx: SceneRenderer(ctx, board, theme)


def export_static(
    path: Path,
    board: Board,
    theme: ThemeLike | None,
    camera: CameraMatrices,
    frame: FrameState,
    size: tuple[int, int] = (1024, 768),
) -> None:
    """Write one rendered frame as a PNG."""
    path = Path(path)
    if _check_format(path) != ".png":
        raise ExportError(f"{path}: a single frame is exported as .png")
    image = next(_rendered([(camera, frame)], _scene(board, theme), size))
    _save_atomic(path, lambda tmp: image.convert("RGB").save(tmp, format="PNG"))


def export_replay(
    path: Path,
    frames: Iterable[Frame] | Callable[[], Iterable[Frame]],
    size: tuple[int, int],
    fps: float,
    board: Board,
    theme: ThemeLike | None = None,
    progress: Progress | None = None,
    decorate: Decorate | None = None,
) -> int:
    """Render ``frames`` to ``path`` (.png: the first frame only; .gif / .mp4: all of them).

    ``frames`` is an iterable of ``(CameraMatrices, FrameState)`` or a function returning one.
    ``progress(done, total)`` is called after every frame. Returns the number of frames written."""
    return export_frames(path, frames, size, fps, _scene(board, theme), progress, decorate)


def export_frames(
    path: Path,
    frames: Iterable[tuple[CameraMatrices, Any]] | Callable[[], Iterable[tuple[CameraMatrices, Any]]],
    size: tuple[int, int],
    fps: float,
    make_renderer: MakeRenderer,
    progress: Progress | None = None,
    decorate: Decorate | None = None,
    shared_palette: bool = True,
    palette_first: bool = False,
) -> int:
    """Any game's frames (camera and the game's frame state) drawn by its renderer to ``path``.

    The robot game's ``export_replay`` and every other game's export (``viewer3d.show_export``)
    come through here, so formats, progress, HUD painting and atomic writing are the same."""
    path = Path(path)
    suffix = _check_format(path)
    if fps <= 0:
        raise ExportError(f"{path}: frames per second must be positive, not {fps}")
    source = frames() if callable(frames) else frames
    total = len(source) if isinstance(source, Sized) else None
    if suffix == ".png":
        total = 1
    if suffix == ".gif" and total is not None and total * size[0] * size[1] > MAX_GIF_PIXELS:
        need = total * size[0] * size[1] * GIF_BYTES_PER_PIXEL / 2**30
        raise ExportError(
            f"{path}: {total} frames of {size[0]}x{size[1]} need about {need:.0f} GiB of memory as a GIF"
            " (it keeps every frame); use .mp4, a smaller --size or a higher --speed"
        )
    report = progress or (lambda done, total: None)

    def counted() -> Iterator[Image.Image]:
        for done, image in enumerate(_rendered(source, make_renderer, size), start=1):
            report(done, total)
            yield decorate(image, done - 1) if decorate is not None else image
            if suffix == ".png":
                return

    return save_images(path, counted(), size, fps, shared_palette=shared_palette, palette_first=palette_first)


def save_images(
    path: Path,
    images_in: Iterable[Image.Image],
    size: tuple[int, int],
    fps: float,
    *,
    shared_palette: bool = True,
    palette_first: bool = False,
) -> int:
    """Write rendered images to ``path`` by its suffix (.png: the first only; .gif, .mp4: all), atomically.

    Every game's export ends here (``export_frames``).
    ``shared_palette``: a GIF's frames share the first frame's palette (small files; right when the
    first frame holds every colour), else each frame gets its own.  ``palette_first``: the first
    image is not a frame but the picture the shared palette is made from (Tron: the last frame,
    which holds every light wall's colour)."""
    path = Path(path)
    suffix = _check_format(path)
    counted = iter(images_in)
    source = next(counted, None) if palette_first else None
    if suffix == ".png":
        first = next(counted, None)
        if first is None:
            raise ExportError(f"{path}: no frames to export")
        _save_atomic(path, lambda tmp: first.convert("RGB").save(tmp, format="PNG"))
        return 1
    if suffix == ".gif":
        if shared_palette:
            images = list(_gif_frames(counted, source))
        else:  # frames whose colours the first frame does not hold (new light walls): one palette each
            images = [
                image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
                for image in counted
            ]
        if not images:
            raise ExportError(f"{path}: no frames to export")
        durations = gif_durations(len(images), fps)
        _save_atomic(
            path,
            lambda tmp: images[0].save(
                tmp,
                format="GIF",
                save_all=True,
                append_images=images[1:],
                duration=durations,
                loop=0,
                disposal=1,
                optimize=False,
            ),
        )
        return len(images)
    return _write_mp4(path, counted, size, fps)


TRAIL_GREEN = (26, 217, 64)  # the renderer's trail tint: its blends must be in the GIF palette


def gif_durations(count: int, fps: float) -> list[int]:
    """Per-frame GIF delays in ms. GIF stores hundredths of a second, so a constant 1000 / fps
    is rounded (15 fps became 60 ms, the film 10 % fast); rounding the frames' start times
    instead keeps every frame within 5 ms of its time and the whole film exactly as long."""
    starts = [round(k * 100 / fps) for k in range(count + 1)]
    return [max(2, b - a) * 10 for a, b in itertools.pairwise(starts)]


def _gif_frames(images: Iterable[Image.Image], source: Image.Image | None = None) -> Iterator[Image.Image]:
    """Palette images sharing ONE palette (made from ``source``, or from the first frame and its
    trail-tinted copy), so unchanged pixels keep their index and the GIF writer stores only each
    frame's changed rectangle: a replay with a fixed camera shrinks several times over per-frame palettes."""
    palette = (
        source.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        if source is not None
        else None
    )
    for image in images:
        rgb = image.convert("RGB")
        if palette is None:
            tinted = Image.blend(rgb, Image.new("RGB", rgb.size, TRAIL_GREEN), 0.45)
            both = Image.new("RGB", (rgb.width, rgb.height * 2))
            both.paste(rgb, (0, 0))
            both.paste(tinted, (0, rgb.height))
            palette = both.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        yield rgb.quantize(palette=palette, dither=Image.Dither.NONE)


def _write_mp4(path: Path, images: Iterator[Image.Image], size: tuple[int, int], fps: float) -> int:
    try:
        import imageio_ffmpeg
    except ImportError as error:
        raise ExportError(
            f"{path}: MP4 export needs the imageio-ffmpeg package (pip install imageio-ffmpeg); GIF and PNG work without it"
        ) from error
    even = (size[0] - size[0] % 2, size[1] - size[1] % 2)
    count = 0

    def write(tmp: Path) -> None:
        nonlocal count
        writer = imageio_ffmpeg.write_frames(
            str(tmp),
            even,
            fps=fps,
            codec="libx264",
            pix_fmt_in="rgb24",
            pix_fmt_out="yuv420p",
            quality=7,
            macro_block_size=2,
            output_params=["-f", "mp4"],
        )
        writer.send(None)
        try:
            for image in images:
                writer.send(image.convert("RGB").crop((0, 0, *even)).tobytes())
                count += 1
        finally:
            writer.close()
        if count == 0:  # before the rename: the file (or a link's target) that was there stays
            raise ExportError(f"{path}: no frames to export")

    _save_atomic(path, write)
    return count


def _save_atomic(path: Path, save: Callable[[Path], None]) -> None:
    """Write through a temporary file in the same folder and rename (``engine.atomic.atomic_output``),
    so a failure never leaves half a file; one left by ``kill -9`` is ``.NAME.RANDOM.tmp``."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"{path}: folder {folder} does not exist")
    _target(path)  # again: the render took a while, something may have taken its place
    with atomic_output(path) as tmp:
        save(tmp)
