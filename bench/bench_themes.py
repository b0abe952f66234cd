"""Theme costs: cold load (read, validate, complete from the base), cached load, packing, the
live-reload poll and the contact sheet's 3D thumbnails.

Run from the repo root: ``python3 bench/bench_themes.py``. Prints milliseconds per operation
(best of several runs, to be robust on a shared machine).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from themes import ThemeWatcher, clear_cache, load_theme
from themes.packing import pack_atlas, pack_texture_array


def best_ms(action: Callable[[], object], repeat: int = 7, number: int = 1) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            action()
        times.append((time.perf_counter() - start) / number)
    return min(times) * 1000


def main() -> None:
    for name in ("default", "pen"):

        def cold(name: str = name) -> None:
            clear_cache()
            load_theme(name)

        cold_ms = best_ms(cold)
        theme = load_theme(name)
        cached_ms = best_ms(lambda name=name: load_theme(name), number=50)
        images = theme.layer_images()
        array_ms = best_ms(lambda images=images: pack_texture_array(images), number=10)
        atlas_ms = best_ms(lambda images=images: pack_atlas(images), number=10)
        watcher = ThemeWatcher(theme)
        poll_ms = best_ms(watcher.poll, number=50)  # live reload's look at the folder, nothing changed
        print(
            f"{name:8} cold load+validate {cold_ms:7.2f} ms   cached load_theme {cached_ms:6.3f} ms   "
            f"texture_array pack {array_ms:6.2f} ms   atlas pack {atlas_ms:6.2f} ms   watcher poll {poll_ms:6.3f} ms"
        )
    try:
        from viewer3d.render.thumbnails import render_thumbnails
    except ImportError:
        return
    shots_ms = best_ms(lambda: render_thumbnails(load_theme("default")), repeat=3)
    print(f"3D thumbnails of every tile (contact sheet, one renderer, EGL): {shots_ms:7.1f} ms")


if __name__ == "__main__":
    main()
