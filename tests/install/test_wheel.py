"""The product as a user gets it: a wheel built from the tracked files, installed into a fresh
virtual environment outside the checkout, its commands run from an empty folder.

This catches what a checkout hides: shaders, themes or boards missing from the package data,
and code finding its files through paths relative to the source tree. It needs the package
index (pip installs the dependencies; its cache makes later runs quick).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("robots-engine", "robots-view", "robots-edit", "robots-theme", "robots-contest", "robots-ai")
#: Files the programs load at run time; each must be inside the wheel.
SHIPPED = (
    "engine/py.typed",
    "viewer3d/py.typed",
    "editor/py.typed",
    "themes/py.typed",
    "pathui/py.typed",
    "pathui/prompt.py",
    "gameboards/chop.dat",
    "gameboards/big-100x100.dat",
    "viewer3d/render/floor.vert",
    "viewer3d/render/floor.frag",
    "viewer3d/render/lit.frag",
    "themes/default/theme.json",
    "themes/default/floor.png",
    "themes/pen/theme.json",
)


@dataclass
class Installed:
    venv: Path
    wheel: Path
    work: Path  # an empty folder outside the checkout: where the commands run
    env: dict[str, str]
    home: Path
    site: Path  # the venv's site-packages
    at_install: frozenset[str]  # every path under site, right after pip installed the wheel

    def bin(self, name: str) -> Path:
        return self.venv / "bin" / name

    def run(self, *args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(a) for a in args], cwd=self.work, env=self.env, capture_output=True, text=True, timeout=timeout
        )

    def python(self, code: str) -> str:
        result = self.run(self.bin("python"), "-c", code)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()


def _tracked_copy(target: Path) -> None:
    """The files a fresh clone would have (tracked, plus new ones not ignored), copied to ``target``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    for name in listed.decode().split("\0"):
        source = ROOT / name
        if name and source.is_file():  # a tracked file deleted in the work tree is skipped
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _checked(result: subprocess.CompletedProcess[str], what: str) -> None:
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).splitlines()[-25:])
        pytest.fail(f"{what} failed (exit {result.returncode}):\n{tail}")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    assert not base.resolve().is_relative_to(ROOT), "the throw-away environment must lie outside the checkout"
    source, dist, work, home = base / "src", base / "dist", base / "work", base / "home"
    for folder in (source, dist, work, home):
        folder.mkdir()
    _tracked_copy(source)
    pip_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_REQUIRE_VIRTUALENV")}
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(source)],
        cwd=base,
        env=pip_env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    _checked(built, "building the wheel")
    (wheel,) = dist.glob("robots-*.whl")
    venv = base / "venv"
    _checked(
        subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, timeout=300),
        "creating the virtual environment",
    )
    _checked(
        subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
            cwd=base,
            env=pip_env,
            capture_output=True,
            text=True,
            timeout=600,
        ),
        "installing the wheel",
    )
    # A fresh user's environment: no cache or data folders other tests of this session point elsewhere.
    dropped = ("VIRTUAL_ENV", "DISPLAY", "WAYLAND_DISPLAY", "ROBOTS_AI_CACHE", "XDG_CACHE_HOME", "XDG_STATE_HOME")
    env = {k: v for k, v in pip_env.items() if k not in dropped and not k.startswith("NUMBA_")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"))
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    site = Path(
        subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    return Installed(venv, wheel, work, env, home, site, _tree(site))


def _tree(folder: Path) -> frozenset[str]:
    return frozenset(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def _site_packages(installed: Installed) -> Path:
    return Path(installed.python("import engine, pathlib; print(pathlib.Path(engine.__file__).parents[1])"))


def test_wheel_holds_every_runtime_file(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert [name for name in SHIPPED if name not in names] == []
    in_checkout = {
        p.relative_to(ROOT).as_posix() for p in (ROOT / "viewer3d").rglob("*") if p.suffix in (".vert", ".frag")
    }
    assert in_checkout and in_checkout <= names, "every shader of the checkout ships"
    boards = {p.relative_to(ROOT).as_posix() for p in (ROOT / "gameboards").glob("*.dat")}
    assert boards <= names, "every shipped board is package data"
    assert not any(name.startswith(("tests/", "bench/", "tools/", "stubs/")) for name in names)


def test_code_runs_from_the_installed_packages(installed: Installed) -> None:
    site = _site_packages(installed)
    assert site.is_relative_to(installed.venv) and not site.is_relative_to(ROOT)
    for command in COMMANDS:
        assert installed.bin(command).is_file(), f"{command} is not installed"
    chop = Path(installed.python("from gameboards import board_path; print(board_path('chop.dat'))"))
    assert chop == site / "gameboards" / "chop.dat"


def test_engine_plays_the_shipped_chop(installed: Installed) -> None:
    listed = installed.run("robots-engine", "boards")
    _checked(listed, "robots-engine boards")
    rows = {line.split()[0]: line.split("\t")[-1] for line in listed.stdout.splitlines()}
    chop = rows["chop.dat"]
    assert Path(chop) == _site_packages(installed) / "gameboards" / "chop.dat"
    result = installed.run("robots-engine", "play", chop, "--seed", "3", "--level", "hard", "--out", "game")
    _checked(result, "robots-engine play")
    assert "rounds" in result.stdout
    game = installed.work / "game"
    for name in ("globalseq.txt", "stats.txt", "game.json", "board.txt"):
        assert (game / name).is_file(), f"robots-engine play wrote no {name}"


def _assert_shows_something(path: Path, background_share: float = 0.8) -> None:
    """Not blank: many colours, and most pixels differ from the corner (the background)."""
    with Image.open(path) as image:
        pixels = np.asarray(image.convert("RGB"), dtype=np.int16)
    corner = pixels[0, 0]
    differs = np.abs(pixels - corner).sum(axis=2) > 24
    colours = len(np.unique(pixels.reshape(-1, 3), axis=0))
    assert colours > 200, f"{path.name}: only {colours} colours"
    assert differs.mean() > 1 - background_share, f"{path.name}: {differs.mean():.0%} of it differs from the background"


def test_viewer_demo_renders_the_board(installed: Installed) -> None:
    result = installed.run("robots-view", "--demo", "--headless", "--out", "x.png", "--size", "640x480")
    _checked(result, "robots-view --demo --headless")
    out = installed.work / "x.png"
    with Image.open(out) as image:
        assert image.size == (640, 480)
    _assert_shows_something(out, background_share=0.75)


def test_editor_screenshot(installed: Installed) -> None:
    result = installed.run("robots-edit", "--headless", "--screenshot", "y.png")
    _checked(result, "robots-edit --headless --screenshot")
    _assert_shows_something(installed.work / "y.png", background_share=0.6)


def test_theme_list_finds_the_shipped_themes(installed: Installed) -> None:
    result = installed.run("robots-theme", "list")
    _checked(result, "robots-theme list")
    rows = {line.split()[0]: line for line in result.stdout.splitlines() if line.strip()}
    site = _site_packages(installed)
    for key in ("default", "pen"):
        assert key in rows and "ok" in rows[key].split(), result.stdout
        assert str(site / "themes" / key) in rows[key]


def test_the_planner_and_a_new_theme_write_only_into_the_users_folders(installed: Installed) -> None:
    """After every command above and these, site-packages holds what pip put there and nothing
    more: numba's compiled kernels went to ``site-packages/engine/ai/__pycache__`` when the venv
    was the user's own (writable), and ``pip uninstall`` left them behind."""
    warmed = installed.run("robots-ai", "--warm", "tiny-2x1.dat", "easy")
    _checked(warmed, "robots-ai --warm")
    assert str(installed.home / ".cache" / "robots" / "planner") in warmed.stdout + warmed.stderr
    _checked(installed.run("robots-theme", "new", "mine"), "robots-theme new")
    assert (installed.home / "data" / "robots" / "themes" / "mine" / "theme.json").is_file()
    kernels = list((installed.home / ".cache" / "robots" / "numba").rglob("*.nbi"))
    assert kernels, "numba cached the planner's kernels in the user's cache folder"
    assert sorted(_tree(installed.site) - installed.at_install) == []


def test_a_missing_shader_is_named_not_reported_as_a_write_error(installed: Installed) -> None:
    """It breaks the installation on purpose (and puts the file back)."""
    shader = _site_packages(installed) / "viewer3d" / "render" / "floor.frag"
    saved = shader.read_bytes()
    shader.unlink()
    try:
        result = installed.run("robots-view", "--demo", "--headless", "--out", "z.png")
    finally:
        shader.write_bytes(saved)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "viewer3d/render/floor.frag: missing from the installed package" in lines[0]
    assert "cannot write" not in lines[0]
    assert not (installed.work / "z.png").exists()


def test_uninstall_leaves_nothing_behind(installed: Installed) -> None:
    """Last: it removes the installation. Every folder of the product goes with it."""
    result = installed.run(installed.bin("python"), "-m", "pip", "uninstall", "-y", "-q", "robots")
    _checked(result, "pip uninstall")
    left = sorted(
        name
        for name in _tree(installed.site)
        if name.split("/")[0] in ("engine", "viewer3d", "editor", "themes", "gameboards", "pathui")
        or name.startswith("robots-")
    )
    assert left == []
    assert not installed.bin("robots-engine").exists()
