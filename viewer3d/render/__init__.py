"""Rendering side of the 3D viewer: scene building, meshes, shaders, the renderer and an
offscreen (EGL) target. No window code lives here; the app feeds :class:`FrameState` and
:class:`CameraMatrices` values in and the renderer draws into whatever framebuffer is bound."""

from viewer3d.render.state import CameraMatrices, FrameState, RobotVisual

__all__ = ["CameraMatrices", "FrameState", "RobotVisual"]
