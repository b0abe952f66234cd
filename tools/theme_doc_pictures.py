"""Draw docs/img/themes/<picture>.png: each picture of a theme as drawn flat (editor, contact
sheet, exports) beside how the 3D viewer shows it, for the table in docs/themes.md.

    python3 tools/theme_doc_pictures.py [THEME] [--out docs/img/themes]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image

from themes import load_theme
from themes.folder import PICTURE_KEYS
from themes.keys import TILE_KEYS
from themes.sheet import _checkerboard
from viewer3d.render.thumbnails import render_thumbnails

CELL = 96


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("theme", nargs="?", default="default")
    parser.add_argument("--out", type=Path, default=Path("docs/img/themes"))
    args = parser.parse_args(argv)
    theme = load_theme(args.theme)
    shots = render_thumbnails(theme, CELL)
    args.out.mkdir(parents=True, exist_ok=True)
    for key in PICTURE_KEYS:
        if key in TILE_KEYS:
            flat = theme.tile(key)
        elif key in theme.pictures:
            flat = _checkerboard(64)
            flat.alpha_composite(theme.pictures[key])
        else:
            continue
        shot = shots.get(key)
        strip = Image.new("RGB", (2 * CELL + 4 if shot else CELL, CELL), (38, 42, 50))
        strip.paste(flat.convert("RGB").resize((CELL, CELL), Image.Resampling.NEAREST), (0, 0))
        if shot is not None:
            strip.paste(shot.convert("RGB"), (CELL + 4, 0))
        strip.save(args.out / f"{key}.png", optimize=True)
    print(f"{args.out}: {len(list(args.out.glob('*.png')))} pictures of {theme.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
