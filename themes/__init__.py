"""Tile themes: one folder of 64x64 PNGs per theme, and the one loader the viewer and editor share.

The shipped themes are this package's subfolders (``default``, ``pen``); users add
their own under ``$XDG_DATA_HOME/robots/themes`` or load any folder by path. See
``docs/themes.md`` for the format. This package never imports pyglet or moderngl:
renderers upload :meth:`Theme.texture_array` or :meth:`Theme.atlas` themselves.
"""

from themes.errors import ThemeError
from themes.keys import START_MARKER_LAYERS, TILE_KEYS, tile_key
from themes.loader import ThemeInfo, check_theme, clear_cache, list_themes, load_theme, user_themes_dir
from themes.manifest import Manifest
from themes.theme import Theme
from themes.watch import ThemeWatcher

__all__ = [
    "START_MARKER_LAYERS",
    "TILE_KEYS",
    "Manifest",
    "Theme",
    "ThemeError",
    "ThemeInfo",
    "ThemeWatcher",
    "check_theme",
    "clear_cache",
    "list_themes",
    "load_theme",
    "tile_key",
    "user_themes_dir",
]
