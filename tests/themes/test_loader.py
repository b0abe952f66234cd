"""Discovery (package, per-user folder, extra folders), name resolution and the reload-aware cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from themes import ThemeError, list_themes, load_theme, user_themes_dir
from themes.loader import BUILTIN_DIR


def test_user_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert user_themes_dir() == tmp_path / "robots" / "themes"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_themes_dir() == tmp_path / "home" / ".local" / "share" / "robots" / "themes"


def test_user_and_extra_themes_are_discovered_and_loadable_by_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    user_dir = tmp_path / "data" / "robots" / "themes"
    shutil.copytree(BUILTIN_DIR / "pen", user_dir / "sketchy")
    extra = tmp_path / "extra"
    shutil.copytree(BUILTIN_DIR / "default", extra / "another")
    (extra / "not-a-theme").mkdir()
    (extra / "notes.txt").write_text("ignored")
    infos = list_themes([extra])
    assert [(i.key, i.origin) for i in infos] == [
        ("default", "builtin"),
        ("pen", "builtin"),
        ("sketchy", "user"),
        ("another", "extra"),
    ]
    assert load_theme("sketchy").path == (user_dir / "sketchy").resolve()
    assert load_theme("another", [extra]).name == "Default"


def test_a_half_made_theme_is_listed(tmp_path: Path) -> None:
    (tmp_path / "wip").mkdir()
    Image.new("RGBA", (64, 64)).save(tmp_path / "wip" / "floor.png")
    [info] = [i for i in list_themes([tmp_path]) if i.origin == "extra"]
    assert (info.key, info.name) == ("wip", "wip")


def test_unknown_name_lists_known_themes() -> None:
    with pytest.raises(ThemeError) as info:
        load_theme("no-such-theme")
    [problem] = info.value.problems
    assert problem.startswith("no theme called 'no-such-theme' (known themes: ") and "default" in problem


def test_load_by_path_string_and_path(theme_copy: Path) -> None:
    assert load_theme(str(theme_copy)) is load_theme(theme_copy)


def test_cache_returns_same_theme_until_a_file_changes(theme_copy: Path) -> None:
    first = load_theme(theme_copy)
    assert load_theme(theme_copy) is first
    array_before = first.texture_array()[0]
    Image.new("RGBA", (64, 64), (255, 0, 0, 255)).save(theme_copy / "floor.png")
    os.utime(theme_copy / "floor.png", ns=(1, 1))  # a different mtime even on coarse clocks
    second = load_theme(theme_copy)
    assert second is not first
    assert second.tile("floor").getpixel((5, 5)) == (255, 0, 0, 255)
    assert array_before is first.texture_array()[0]  # the old theme object is untouched


def test_a_repaired_theme_is_read_again(theme_copy: Path) -> None:
    (theme_copy / "oil.png").rename(theme_copy / "oil.bak")
    assert load_theme(theme_copy).warnings
    (theme_copy / "oil.bak").rename(theme_copy / "oil.png")
    assert load_theme(theme_copy).warnings == ()


def test_themes_imports_no_gl_toolkit() -> None:
    code = "import sys, themes, themes.cli, themes.sheet; print(sorted(m for m in sys.modules if m.split('.')[0] in ('pyglet', 'moderngl')))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.stdout.strip() == "[]"


def test_names_that_are_not_themes(monkeypatch: pytest.MonkeyPatch, theme_copy: Path) -> None:
    with pytest.raises(ThemeError, match="no theme name given"):
        load_theme("")
    for name in ("make", "__pycache__"):  # the generator package and Python's cache are not themes
        with pytest.raises(ThemeError, match="no theme called"):
            load_theme(name)
    monkeypatch.chdir(theme_copy)
    assert load_theme(".").path == theme_copy.resolve()  # checking the theme you are standing in


def test_a_folder_of_upper_case_names_is_listed(tmp_path: Path) -> None:
    folder = tmp_path / "shouty"
    folder.mkdir()
    Image.new("RGB", (64, 64)).save(folder / "FLOOR.PNG")
    assert [info.key for info in list_themes([tmp_path]) if info.origin == "extra"] == ["shouty"]
