"""Every PNG mode Pillow reads draws as its pixels say, and larger tiles are reduced well."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from themes import load_theme


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png16(samples: np.ndarray, colour_type: int, trns: bytes = b"") -> bytes:
    """A 16-bit PNG written by hand (Pillow cannot write 16-bit colour): ``samples`` is (h, w, c) uint16."""
    height, width = samples.shape[:2]
    rows = b"".join(b"\0" + samples[y].astype(">u2").tobytes() for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 16, colour_type, 0, 0, 0)
    extra = _chunk(b"tRNS", trns) if trns else b""
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + extra
        + _chunk(b"IDAT", zlib.compress(rows))
        + _chunk(b"IEND", b"")
    )


def _floor(folder: Path) -> np.ndarray:
    theme = load_theme(folder)
    assert not any("floor" in w for w in theme.warnings), theme.warnings
    return np.asarray(theme.pictures["floor"])


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "modes"
    path.mkdir()
    return path


def test_16_bit_grey(folder: Path) -> None:
    (folder / "floor.png").write_bytes(png16(np.full((64, 64, 1), 0x7A40, np.uint16), 0))
    assert (_floor(folder) == (0x7A, 0x7A, 0x7A, 255)).all()  # not clipped to white


def test_16_bit_grey_with_colour_key(folder: Path) -> None:
    samples = np.full((64, 64, 1), 0x7A40, np.uint16)
    samples[:8] = 0x1234
    (folder / "floor.png").write_bytes(png16(samples, 0, trns=struct.pack(">H", 0x1234)))
    floor = _floor(folder)
    assert (floor[:8, :, 3] == 0).all() and (floor[8:] == (0x7A, 0x7A, 0x7A, 255)).all()


def test_16_bit_colour(folder: Path) -> None:
    (folder / "floor.png").write_bytes(png16(np.full((64, 64, 3), (0x1100, 0x80FF, 0xFFFF), np.uint16), 2))
    assert (_floor(folder) == (0x11, 0x80, 0xFF, 255)).all()


def test_16_bit_colour_with_alpha(folder: Path) -> None:
    samples = np.full((64, 64, 4), (0xC000, 0x4000, 0x2000, 0x8000), np.uint16)
    (folder / "floor.png").write_bytes(png16(samples, 6))
    assert (_floor(folder) == (0xC0, 0x40, 0x20, 0x80)).all()


def test_16_bit_grey_alpha(folder: Path) -> None:
    (folder / "floor.png").write_bytes(png16(np.full((64, 64, 2), (0x6000, 0xFFFF), np.uint16), 4))
    assert (_floor(folder) == (0x60, 0x60, 0x60, 255)).all()


def test_palette_with_transparency(folder: Path) -> None:
    image = Image.new("P", (64, 64), 1)
    image.putpalette([0, 0, 0, 200, 30, 60] + [0] * 762)
    image.paste(0, (0, 0, 64, 16))
    image.save(folder / "floor.png", transparency=0)
    floor = _floor(folder)
    assert (floor[:16, :, 3] == 0).all() and (floor[16:] == (200, 30, 60, 255)).all()


def test_grey_alpha(folder: Path) -> None:
    Image.new("LA", (64, 64), (90, 128)).save(folder / "floor.png")
    assert (_floor(folder) == (90, 90, 90, 128)).all()


def test_rgb_colour_key(folder: Path) -> None:
    Image.new("RGB", (64, 64), (1, 2, 3)).save(folder / "floor.png", transparency=(1, 2, 3))
    assert (_floor(folder)[..., 3] == 0).all()


def test_one_bit(folder: Path) -> None:
    Image.new("1", (64, 64), 1).save(folder / "floor.png")
    assert (_floor(folder) == 255).all()


@pytest.mark.parametrize("factor", [2, 3, 16])
def test_multiples_of_64_are_area_averaged(folder: Path, factor: int) -> None:
    size = 64 * factor
    big = np.zeros((size, size, 4), np.uint8)
    big[..., :3] = (10, 200, 30)
    big[..., 3] = 255
    big[::2, ::2, :3] = (250, 0, 0)  # fine detail a nearest-neighbour reduction would alias
    Image.fromarray(big, "RGBA").save(folder / "floor.png")
    floor = _floor(folder).astype(int)
    if factor % 2:  # odd blocks hold 4 or 5 red pixels of 9: two mixes, never a pure colour
        colours = set(map(tuple, floor[..., :3].reshape(-1, 3).tolist()))
        assert len(colours) <= 4 and not colours & {(10, 200, 30), (250, 0, 0)}
        return
    expected = (np.array([10, 200, 30]) * 3 + np.array([250, 0, 0])) / 4
    assert (floor == floor[0, 0]).all() and np.abs(floor[0, 0, :3] - expected).max() <= 1


def test_too_large_or_not_square_is_refused(folder: Path) -> None:
    Image.new("RGB", (64 * 17, 64 * 17)).save(folder / "floor.png")
    assert "is 1088x1088 pixels" in load_theme(folder).warnings[0]
