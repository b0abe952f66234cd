"""Shared fixtures: one EGL context for the whole folder and a render helper."""

from __future__ import annotations

from collections.abc import Iterator

import moderngl
import pytest
from PIL import Image

from engine.model import Board
from tests.viewer_render.helpers import SIZE, Render
from viewer3d.fallback_theme import FallbackTheme
from viewer3d.render.offscreen import OffscreenTarget, create_headless_context
from viewer3d.render.renderer import SceneRenderer
from viewer3d.render.state import CameraMatrices, FrameState

__all__ = ["Render"]


@pytest.fixture(scope="session")
def ctx() -> Iterator[moderngl.Context]:
    context = create_headless_context()
    yield context
    context.release()


@pytest.fixture
def render(ctx: moderngl.Context) -> Iterator[Render]:
    """render(board, camera, frame, theme=None, size=SIZE) -> RGBA image, cleaning up afterwards.

    The colour assertions are written against the built-in theme, so that is the default here
    (the themes package's art may change); tests that want another theme pass it."""
    made: list[object] = []

    def draw(
        board: Board,
        camera: CameraMatrices,
        frame: FrameState | None = None,
        theme: object = None,
        size: tuple[int, int] = SIZE,
        renderer: SceneRenderer | None = None,
    ) -> Image.Image:
        scene = renderer or SceneRenderer(ctx, board, theme or FallbackTheme())  # type: ignore[arg-type]
        target = OffscreenTarget(ctx, size)
        made.extend([target] if renderer else [target, scene])
        return target.render(lambda: scene.render(camera, frame or FrameState(), size))

    yield draw
    for resource in made:
        resource.release()  # type: ignore[attr-defined]
