"""Every shortcut of the editor in one table: the controller dispatches from it, F1 shows it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shortcut:
    key: str  # pyglet key name, e.g. "Z", "F5", "DELETE"
    action: str
    help: str
    ctrl: bool = False
    shift: bool = False

    @property
    def label(self) -> str:
        return "+".join(
            [
                *(["Ctrl"] if self.ctrl else []),
                *(["Shift"] if self.shift else []),
                self.key.title() if len(self.key) > 2 else self.key,
            ]
        )


SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("Z", "undo", "undo", ctrl=True),
    Shortcut("Y", "redo", "redo", ctrl=True),
    Shortcut("Z", "redo", "redo", ctrl=True, shift=True),
    Shortcut("S", "save", "save", ctrl=True),
    Shortcut("S", "save_as", "save as (type a path)", ctrl=True, shift=True),
    Shortcut("O", "open", "open a board (type a path)", ctrl=True),
    Shortcut("N", "new", "new board (type WxH)", ctrl=True),
    Shortcut("E", "resize", "resize (type 20x10 anchor=center)", ctrl=True),
    Shortcut("Q", "quit", "quit", ctrl=True),
    Shortcut("R", "rotate_board_cw", "rotate the board clockwise", ctrl=True),
    Shortcut("R", "rotate_board_ccw", "rotate the board anticlockwise", ctrl=True, shift=True),
    Shortcut("M", "mirror_h", "mirror the board left-right", ctrl=True),
    Shortcut("M", "mirror_v", "mirror the board top-bottom", ctrl=True, shift=True),
    Shortcut("R", "rotate_tile_cw", "rotate tile under cursor (or brush); Ctrl+wheel"),
    Shortcut("R", "rotate_tile_ccw", "rotate that tile anticlockwise", shift=True),
    Shortcut("B", "tool_paint", "paint tool (right button erases)"),
    Shortcut("Q", "tool_rectangle", "rectangle tool (or Shift+drag)"),
    Shortcut("F", "tool_fill", "flood fill tool"),
    Shortcut("I", "tool_eyedropper", "eyedropper (or Alt+click)"),
    Shortcut("W", "tool_walls", "wall tool: click/drag along tile edges"),
    Shortcut("G", "grid", "grid on/off"),
    Shortcut("HOME", "fit", "fit the board in the window"),
    Shortcut("F1", "help", "this help"),
    Shortcut("F2", "theme", "next theme"),
    Shortcut("F5", "playtest", "test-play: built-in AI, then the 3D viewer"),
    Shortcut("F6", "level", "choose the test-play level"),
)

MOUSE_HELP: tuple[tuple[str, str], ...] = (
    ("palette drag", "drop a tile on the board"),
    ("left drag", "use the current tool"),
    ("right drag", "erase to floor / remove walls"),
    ("wheel", "zoom"),
    ("Space+drag", "pan (or drag with the middle button)"),
    ("Esc", "cancel a prompt, close help"),
)


def action_for(key: str, ctrl: bool, shift: bool) -> str | None:
    """The action bound to a key press, or None."""
    for shortcut in SHORTCUTS:
        if shortcut.key == key and shortcut.ctrl == ctrl and shortcut.shift == shift:
            return shortcut.action
    return None
