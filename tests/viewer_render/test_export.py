"""Export writes real files: a PNG Pillow opens, a GIF with one frame per state, an MP4 (or a
clear error when the encoder package is missing); bad paths fail cleanly, leaving no file."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from engine.model import Board
from tests.viewer_render.helpers import iso_camera
from viewer3d.export import ExportError, export_replay, export_static
from viewer3d.render.state import FrameState, RobotVisual

BOARD = Board.from_strings(["  Z", " H ", "c  "])
SIZE = (96, 64)


def frames(count: int):
    camera = iso_camera(BOARD, (1, 1), size=SIZE)
    return [(camera, FrameState(robot=RobotVisual(i * 2 / max(count - 1, 1), 0.0), time=i / 10)) for i in range(count)]


def test_png_single_frame(tmp_path):
    path = tmp_path / "frame.png"
    calls = []
    assert (
        export_replay(path, frames(3), SIZE, 10, BOARD, progress=lambda done, total: calls.append((done, total))) == 1
    )
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size == SIZE
    assert calls == [(1, 1)]


def test_export_static_png(tmp_path):
    path = tmp_path / "static.png"
    camera, state = frames(1)[0]
    export_static(path, BOARD, None, camera, state, size=SIZE)
    with Image.open(path) as image:
        assert image.size == SIZE and len(np.unique(np.asarray(image.convert("RGB")).reshape(-1, 3), axis=0)) > 20


def test_gif_has_every_frame_and_progress(tmp_path):
    path = tmp_path / "replay.gif"
    calls = []
    written = export_replay(
        path, lambda: iter(frames(5)), SIZE, 12.5, BOARD, progress=lambda done, total: calls.append(done)
    )
    assert written == 5 and calls == [1, 2, 3, 4, 5]
    with Image.open(path) as image:
        assert image.format == "GIF" and image.n_frames == 5 and image.size == SIZE
        assert image.info["duration"] == 80
        first = image.convert("RGB").tobytes()
        image.seek(4)
        assert image.convert("RGB").tobytes() != first  # the robot moved


def test_mp4_is_a_real_movie(tmp_path):
    """imageio-ffmpeg is a declared dependency, so MP4 export must work (no fallback accepted)."""
    path = tmp_path / "replay.mp4"
    assert export_replay(path, frames(4), SIZE, 10, BOARD) == 4
    data = path.read_bytes()
    assert data[4:8] == b"ftyp" and len(data) > 500


@pytest.mark.parametrize(
    ("name", "message"), [("out.bmp", "unknown export format"), ("missing/out.gif", "does not exist")]
)
def test_bad_paths(tmp_path, name, message):
    with pytest.raises(ExportError, match=message):
        export_replay(tmp_path / name, frames(2), SIZE, 10, BOARD)
    assert list(tmp_path.iterdir()) == []


def test_no_frames_is_an_error(tmp_path):
    with pytest.raises(ExportError, match="no frames"):
        export_replay(tmp_path / "empty.gif", [], SIZE, 10, BOARD)
    assert list(tmp_path.iterdir()) == []


def test_mp4_temporary_is_named_as_one_and_a_read_only_file_is_kept(tmp_path):
    """A kill -9 during an MP4 export left '.replay.mp4.k2j4x8ab.mp4', a movie by its name; the
    temporary file is '.replay.mp4.RANDOM.tmp' now (engine.atomic's). A chmod 444 file was replaced."""
    path = tmp_path / "replay.mp4"
    seen = []

    def watched():
        for number, frame in enumerate(frames(4)):
            if number == 2:
                seen.extend(p.name for p in tmp_path.iterdir())
            yield frame

    assert export_replay(path, watched, SIZE, 10, BOARD) == 4
    assert len(seen) == 1 and seen[0].startswith(".replay.mp4.") and seen[0].endswith(".tmp")
    path.write_bytes(b"keep")
    path.chmod(0o444)
    with pytest.raises(ExportError, match="read-only"):
        export_replay(path, frames(2), SIZE, 10, BOARD)
    assert path.read_bytes() == b"keep" and [p.name for p in tmp_path.iterdir()] == ["replay.mp4"]
