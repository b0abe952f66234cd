"""Every shortcut of the editor in one table: the controller dispatches from it, F1 and the
command palette show it. Tool shortcuts come from the tools themselves (declared once there)."""

from __future__ import annotations

from dataclasses import dataclass

from editor.tools import TOOLS

_KEY_LABELS = {"EQUAL": "=", "MINUS": "-"}


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
                _KEY_LABELS.get(self.key, self.key.title() if len(self.key) > 2 else self.key),
            ]
        )


SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("P", "palette", "command palette: every action", ctrl=True, shift=True),
    Shortcut("Z", "undo", "undo", ctrl=True),
    Shortcut("Y", "redo", "redo", ctrl=True),
    Shortcut("Z", "redo", "redo", ctrl=True, shift=True),
    Shortcut("S", "save", "save", ctrl=True),
    Shortcut("S", "save_as", "save as (file browser)", ctrl=True, shift=True),
    Shortcut("O", "open", "open a board (browser, recent files)", ctrl=True),
    Shortcut("E", "export", "export the board: PNG, SVG or PDF", ctrl=True, shift=True),
    Shortcut("N", "new", "new board (type WxH)", ctrl=True),
    Shortcut("E", "resize", "resize (type 20x10 anchor=center)", ctrl=True),
    Shortcut("Q", "quit", "quit", ctrl=True),
    Shortcut("R", "rotate_board_cw", "rotate the board clockwise", ctrl=True),
    Shortcut("R", "rotate_board_ccw", "rotate the board anticlockwise", ctrl=True, shift=True),
    Shortcut("M", "mirror_h", "mirror the board left-right", ctrl=True),
    Shortcut("M", "mirror_v", "mirror the board top-bottom", ctrl=True, shift=True),
    Shortcut("R", "rotate_tile_cw", "rotate the tile under the pointer"),
    Shortcut("R", "rotate_tile_ccw", "rotate that tile anticlockwise", shift=True),
    *(Shortcut(tool.key, f"tool_{tool.name}", tool.help) for tool in TOOLS),
    Shortcut("G", "grid", "grid on/off", ctrl=True),
    Shortcut("G", "grid", "grid on/off (as Ctrl+G)"),
    Shortcut("X", "right_click", "right button: erase <-> pick", ctrl=True, shift=True),
    Shortcut("HOME", "fit", "fit the board in the window"),
    Shortcut("EQUAL", "zoom_in", "zoom in (or Ctrl+wheel)", ctrl=True),
    Shortcut("MINUS", "zoom_out", "zoom out", ctrl=True),
    Shortcut("F1", "help", "this help"),
    Shortcut("F2", "theme", "next theme"),
    Shortcut("F5", "playtest", "test-play with the AI, then the viewer"),
    Shortcut("F6", "level", "choose the test-play level"),
)

MOUSE_HELP: tuple[tuple[str, str], ...] = (
    ("palette drag", "drop a tile on the board"),
    ("left drag", "use the current tool"),
    ("right drag", "erase (or pick) / remove walls"),
    ("Ctrl+wheel", "zoom at the pointer (as in Tiled)"),
    ("wheel", "scroll (Shift: sideways; Alt: rotate)"),
    ("Space+drag", "pan (or the middle button)"),
    ("drop a file", "open it"),
    ("Esc", "close a prompt or help, cancel an export"),
)


def action_for(key: str, ctrl: bool, shift: bool) -> str | None:
    """The action bound to a key press, or None."""
    for shortcut in SHORTCUTS:
        if shortcut.key == key and shortcut.ctrl == ctrl and shortcut.shift == shift:
            return shortcut.action
    return None
