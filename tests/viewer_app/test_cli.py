"""robots-view end to end in subprocesses: offscreen PNG/GIF export, bad input, no display."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.boardfile import load_board
from engine.conformance import reference_chooser
from engine.deck import generate_deck
from engine.game import play_game
from engine.gamedir import write_game_dir
from engine.model import Level
from engine.outputs import format_globalseq
from tests.displays import unreachable_display
from viewer3d.cli import main

ROOT = Path(__file__).resolve().parents[2]
CHOP = ROOT / "gameboards" / "chop.dat"


def run(args: list[str], cwd: Path, display: bool = False, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "viewer3d", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture(scope="module")
def game_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game directory (normal level, seed 16: 40 cards) and its globalseq.txt."""
    folder = tmp_path_factory.mktemp("game")
    board = load_board(CHOP)
    game = play_game(board, Level.NORMAL, generate_deck(16), reference_chooser)
    write_game_dir(folder / "dir", game, ai="reference", deck=None, seed=16)
    (folder / "globalseq.txt").write_text(format_globalseq(game))
    return folder


def board_fraction(path: Path) -> float:
    """Share of pixels that are not the (vertical-gradient) background."""
    pixels = np.asarray(Image.open(path).convert("RGB")).astype(int)
    return float((np.abs(pixels - pixels[:, 1:2, :]).sum(axis=2) > 30).mean())


def test_png_from_a_game_directory(game_files: Path, tmp_path: Path) -> None:
    out = tmp_path / "still.png"
    result = run([str(game_files / "dir"), "--headless", "--out", str(out), "--size", "320x240"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout
    with Image.open(out) as image:
        assert image.size == (320, 240)
    assert board_fraction(out) > 0.3


@pytest.mark.parametrize("view", ["iso1", "iso3", "top", "persp"])
def test_png_views_differ(game_files: Path, tmp_path: Path, view: str) -> None:
    out = tmp_path / f"{view}.png"
    result = run(
        [
            "--board",
            str(CHOP),
            "--sequence",
            str(game_files / "globalseq.txt"),
            "--headless",
            "--out",
            str(out),
            "--size",
            "200x150",
            "--view",
            view,
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    reference = tmp_path / "ref.png"
    if not reference.exists():
        run(
            [
                "--board",
                str(CHOP),
                "--sequence",
                str(game_files / "globalseq.txt"),
                "--headless",
                "--out",
                str(reference),
                "--size",
                "200x150",
                "--view",
                "iso2",
            ],
            tmp_path,
        )
    difference = np.abs(np.asarray(Image.open(out), dtype=int) - np.asarray(Image.open(reference), dtype=int)).mean()
    assert difference > 5


def test_theme_changes_the_picture(game_files: Path, tmp_path: Path) -> None:
    common = [str(game_files / "dir"), "--headless", "--size", "200x150"]
    assert run([*common, "--out", str(tmp_path / "default.png")], tmp_path).returncode == 0
    result = run([*common, "--out", str(tmp_path / "pen.png"), "--theme", "pen"], tmp_path)
    assert result.returncode == 0, result.stderr
    default = np.asarray(Image.open(tmp_path / "default.png").convert("RGB"), dtype=int)
    pen = np.asarray(Image.open(tmp_path / "pen.png").convert("RGB"), dtype=int)
    assert np.abs(default - pen).mean() > 5


def test_partial_theme_warns_in_one_line_and_draws_its_floor(game_files: Path, tmp_path: Path) -> None:
    pink = tmp_path / "pink"
    pink.mkdir()
    Image.new("RGB", (64, 64), (255, 105, 180)).save(pink / "floor.png")
    out = tmp_path / "pink.png"
    result = run(
        [str(game_files / "dir"), "--headless", "--size", "200x150", "--out", str(out), "--theme", str(pink)], tmp_path
    )
    assert result.returncode == 0, result.stderr
    [line] = [x for x in result.stderr.splitlines() if x.startswith("robots-view: theme")]
    assert line.startswith("robots-view: theme pink: 22 pictures not here, taken from default: ")
    pixels = np.asarray(Image.open(out).convert("RGB"), dtype=int)
    assert (np.abs(pixels - np.array([255, 105, 180]) * 0.97).sum(axis=2) < 40).sum() > 500


def test_unreadable_theme_is_one_line_exit_2(game_files: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.png"
    result = run(
        [str(game_files / "dir"), "--headless", "--out", str(out), "--theme", str(tmp_path / "gone")], tmp_path
    )
    assert result.returncode == 2 and "--theme" in result.stderr and "does not exist" in result.stderr
    assert result.stderr == f"robots-view: --theme {tmp_path / 'gone'}: does not exist\n"  # the name once
    assert "Traceback" not in result.stderr and not out.exists()


def test_gif_of_a_live_ai_game(tmp_path: Path) -> None:
    out = tmp_path / "game.gif"
    result = run(
        [
            "--board",
            str(CHOP),
            "--ai",
            "reference",
            "--seed",
            "1",
            "--headless",
            "--out",
            str(out),
            "--size",
            "160x120",
            "--fps",
            "4",
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"^rendering (\d+)/\1 frames in ", result.stderr, re.M)  # the progress bar reached its end
    with Image.open(out) as image:
        assert image.n_frames > 4
        image.seek(0)
        first = np.asarray(image.convert("RGB"), dtype=int)
        image.seek(image.n_frames - 1)
        last = np.asarray(image.convert("RGB"), dtype=int)
    assert np.abs(first - last).sum() > 0  # the robot moved (and fell)


BAD_SEQUENCE = "MU\nMU\nMU\nMU\n"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--board", "missing.dat", "--sequence", "seq.txt"], "missing.dat: no such file"),
        (["--board", "{chop}", "--sequence", "missing.txt"], "missing.txt: no such file"),
        (["--board", "{chop}", "--sequence", "bad-line.txt"], "bad-line.txt:2:1: unknown sequence line 'HOP'"),
        (["--board", "{chop}", "--sequence", "seq.txt"], "round 1, card 1: no card can write"),
        (["--board", "broken.dat", "--sequence", "seq.txt"], "broken.dat:"),
        (["--board", "{chop}", "--sequence", "seq.txt", "--start", "99", "0", "D"], "outside the 12x12 board"),
        (["--board", "{chop}", "--ai", "no-such-ai"], "unknown AI 'no-such-ai'"),
        (["--board", "{chop}"], "--board needs --sequence"),
        (["nonexistent-dir"], "nonexistent-dir"),
        (["--board", "{chop}", "--ai", "reference", "--headless", "--out", "x.bmp"], "must end in .png, .gif or .mp4"),
        (["--board", "{chop}", "--ai", "reference", "--headless"], "--headless needs --out"),
        (["--board", "{chop}", "--ai", "reference", "--headless", "--out", "x.png", "--size", "big"], "--size must"),
        (
            ["--board", "{chop}", "--ai", "reference", "--headless", "--out", "x.png", "--theme", "nosuch"],
            "--theme nosuch: no theme called 'nosuch'",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], expected: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In-process (fast): main() itself must turn every bad input into one line and status 2."""
    (tmp_path / "seq.txt").write_text(BAD_SEQUENCE)
    (tmp_path / "bad-line.txt").write_text("MU\nHOP\n")
    (tmp_path / "broken.dat").write_text("12 12\nthis is not a board\n")
    monkeypatch.chdir(tmp_path)
    status = main([a.replace("{chop}", str(CHOP)) for a in args])
    stderr = capsys.readouterr().err
    assert status == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("robots-view: ")
    assert expected in lines[0]
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(
    ("kind", "expected"),
    [("fifo", "b.dat: is a FIFO (named pipe), not a regular file"), ("loop", "b.dat: cannot read: Too many levels")],
)
def test_a_board_that_is_no_regular_file_is_named_as_such(
    tmp_path: Path, kind: str, expected: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``robots-view b.dat`` where b.dat was a FIFO or a link loop said "b.dat: not a game
    directory (no such directory)": the user named a board, and it is there."""
    if kind == "fifo":
        os.mkfifo(tmp_path / "b.dat")
    else:
        (tmp_path / "b.dat").symlink_to("b.dat")
    monkeypatch.chdir(tmp_path)
    status = main(["b.dat", "--headless", "--out", "x.png"])
    assert status == 2 and capsys.readouterr().err.startswith(f"robots-view: {expected}")


def test_bad_input_in_a_real_process_has_no_traceback(tmp_path: Path) -> None:
    (tmp_path / "seq.txt").write_text(BAD_SEQUENCE)
    result = run(["--board", str(CHOP), "--sequence", "seq.txt"], tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and "round 1, card 1" in result.stderr


def test_no_display_says_so_in_one_line(game_files: Path, tmp_path: Path) -> None:
    result = run([str(game_files / "dir")], tmp_path)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "no display" in lines[0] and "--headless --out replay.gif" in lines[0]
    assert "Traceback" not in result.stderr


def test_the_start_screen_without_display_says_so_in_one_line(tmp_path: Path) -> None:
    """``robots-view`` alone opens the start screen; without a display it said "nothing to show"."""
    result = run([], tmp_path)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "no display" in result.stderr and "start screen" in result.stderr
    assert "--headless --out replay.gif" in result.stderr


def test_demo_without_display_renders_a_gif(tmp_path: Path) -> None:
    result = run(["--demo", "--size", "128x96", "--fps", "2", "--speed", "8"], tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "no display" in result.stderr and "out/demo.gif" in result.stderr
    out = tmp_path / "out" / "demo.gif"
    assert f"wrote {Path('out') / 'demo.gif'}" in result.stdout
    with Image.open(out) as image:
        assert image.size == (128, 96) and image.n_frames >= 2


@pytest.mark.parametrize(
    "args",
    [
        ["--board", "{chop}", "--sequence", "seq.txt", "--level", "hrd"],
        ["{gamedir}", "--headless", "--out", "x.png", "--view", "iso9"],
        ["{gamedir}", "--no-such-option"],
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    game_files: Path, tmp_path: Path, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse's own errors (bad choices, unknown options) follow the one-line rule too, no usage block."""
    with pytest.raises(SystemExit) as exit_info:
        main([a.replace("{chop}", str(CHOP)).replace("{gamedir}", str(game_files / "dir")) for a in args])
    assert exit_info.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("robots-view: "), lines


@pytest.mark.parametrize("out", ["no-folder-file/x.png", "a-file/x.png", "/proc/x.png"])
def test_unwritable_out_is_one_line_not_a_traceback(
    game_files: Path, tmp_path: Path, out: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-file").write_text("in the way")
    (tmp_path / "no-folder-file").write_text("in the way")
    monkeypatch.chdir(tmp_path)
    status = main([str(game_files / "dir"), "--headless", "--out", out, "--size", "64x48"])
    assert status == 2
    lines = [line for line in capsys.readouterr().err.strip().splitlines() if not line.startswith("rendering")]
    assert len(lines) == 1 and lines[0].startswith("robots-view: ") and "x.png" in lines[0], lines


def test_progress_bar_in_a_log_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Not on a terminal: no carriage-return redraws piling up in the log, just the finished bar."""
    from viewer3d.cli import ProgressBar

    bar = ProgressBar(40, unit="frames", label="rendering ", interactive=False, log_progress=False)
    for done in range(1, 41):
        bar(done, 40)
    bar.finish()
    err = capsys.readouterr().err
    assert "\r" not in err and err.count("rendering") == 1 and err.startswith("rendering 40/40 frames in ")
    live = ProgressBar(40, unit="frames", label="rendering ", interactive=True)
    for done in range(1, 41):
        live(done, 40)
    live.finish()
    err = capsys.readouterr().err
    assert err.count("\rrendering [") > 10 and err.endswith("\n") and "40/40 frames 100%" in err


def test_export_of_a_failing_ai_says_so_and_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The export has no HUD: an AI error must not pass silently as a normal picture with status 0."""
    crash = tmp_path / "crash.sh"
    crash.write_text("#!/bin/sh\nexit 3\n")
    crash.chmod(0o755)
    out = tmp_path / "x.png"
    status = main(["--board", str(CHOP), "--ai", str(crash), "--headless", "--out", str(out), "--size", "64x48"])
    err = [line for line in capsys.readouterr().err.strip().splitlines() if not line.startswith("rendering")]
    assert status == 3 and out.exists()
    assert len(err) == 1 and err[0].startswith("robots-view: AI error: round 1:") and "status 3" in err[0], err


def test_unreachable_display_names_it_in_one_line(game_files: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    display = unreachable_display()
    env.update(PYTHONPATH=str(ROOT), DISPLAY=display)
    result = subprocess.run(
        [sys.executable, "-m", "viewer3d", str(game_files / "dir")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"robots-view: cannot open a window on display '{display}'"), lines


def test_out_into_a_missing_folder_is_an_error_not_created(
    game_files: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status = main([str(game_files / "dir"), "--headless", "--out", "new/folder/x.png", "--size", "64x48"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and "folder new/folder does not exist" in lines[0], lines
    assert not (tmp_path / "new").exists()


def test_out_through_a_symlink_writes_its_target_and_keeps_the_link(
    game_files: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The export's rename replaced the link itself with a new file (engine.atomic keeps links)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "decoy.bin").write_text("old")
    (tmp_path / "link.gif").symlink_to("decoy.bin")
    status = main([str(game_files / "dir"), "--headless", "--out", "link.gif", "--size", "64x48", "--round", "1"])
    assert status == 0
    assert (tmp_path / "link.gif").is_symlink() and os.readlink(tmp_path / "link.gif") == "decoy.bin"
    with Image.open(tmp_path / "decoy.bin") as gif:
        assert gif.format == "GIF" and gif.size == (64, 48)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["decoy.bin", "link.gif"]  # no temporary left


@pytest.mark.parametrize("kind", ["fifo", "folder", "link to a fifo"])
def test_out_that_is_not_a_regular_file_is_refused_untouched(
    kind: str, game_files: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO (or a link to one) was replaced by the picture; now it is refused before rendering."""
    import stat

    monkeypatch.chdir(tmp_path)
    if kind == "folder":
        (tmp_path / "x.png").mkdir()
    elif kind == "fifo":
        os.mkfifo(tmp_path / "x.png")
    else:
        os.mkfifo(tmp_path / "pipe")
        (tmp_path / "x.png").symlink_to("pipe")
    before = sorted((path.name, os.lstat(path).st_mode) for path in tmp_path.iterdir())
    status = main([str(game_files / "dir"), "--headless", "--out", "x.png", "--size", "64x48"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(lines) == 1, lines
    what = "folder" if kind == "folder" else "FIFO (named pipe)"
    assert lines[0] == f"robots-view: x.png: is a {what}, not a file: refusing to replace it", lines
    assert sorted((path.name, os.lstat(path).st_mode) for path in tmp_path.iterdir()) == before
    assert not any(stat.S_ISREG(os.lstat(path).st_mode) for path in tmp_path.iterdir())


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--screenshot", "x.jpg"], "x.jpg: --screenshot must end in .png, not '.jpg'"),
        (["--screenshot", "gone/x.png"], "gone/x.png: folder gone does not exist"),
        (["--screenshot", "pipe.png"], "pipe.png: is a FIFO (named pipe), not a file: refusing to replace it"),
        (["--screenshot", "dir.png"], "dir.png: is a folder, not a file: refusing to replace it"),
        (["--ai", "reference", "--headless", "--out", "dir.png"], "dir.png: is a folder, not a file: refusing"),
    ],
)
def test_a_screenshot_or_out_that_cannot_be_written_is_said_before_any_window(
    args: list[str], expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--screenshot wrote with pyglet's own open(): a folder was a traceback (after the window was
    open), a FIFO hung for ever. Both --screenshot and --out are checked before anything starts
    (a window, a game computed with --ai); no display is reached here (DISPLAY names none)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISPLAY", unreachable_display())
    os.mkfifo(tmp_path / "pipe.png")
    (tmp_path / "dir.png").mkdir()
    status = main(["--board", str(CHOP), *args])
    lines = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith(f"robots-view: {expected}"), lines
    assert sorted(path.name for path in tmp_path.iterdir()) == ["dir.png", "pipe.png"]


def test_a_gif_too_big_for_memory_is_refused_before_rendering(
    game_files: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """GIF frames all stay in memory until the file is written: --size 8192x8192 on a 40-card game
    asked for well over 100 GB and the export was killed for memory after minutes of rendering."""
    import viewer3d.export

    rendered: list[object] = []
    monkeypatch.setattr(viewer3d.export, "_rendered", lambda *args: rendered.append(args) or iter(()))
    monkeypatch.chdir(tmp_path)
    status = main([str(game_files / "dir"), "--headless", "--out", "x.gif", "--size", "8192x8192"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and not rendered, lines
    assert re.fullmatch(
        r"robots-view: x\.gif: \d+ frames of 8192x8192 need about \d+ GiB of memory as a GIF \(it keeps every"
        r" frame\); use \.mp4, a smaller --size or a higher --speed",
        lines[0],
    ), lines
    assert list(tmp_path.iterdir()) == []


def test_a_board_file_opens_as_a_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``robots-view board.dat`` said 'no such directory'; it shows the board (or plays a game on it)."""
    from viewer3d.cli import build_parser, load_source
    from viewer3d.hud import status_lines
    from viewer3d.playback import Player

    source = load_source(build_parser().parse_args([str(CHOP)]))
    assert source.board.width == 12 and source.timeline.complete and not source.timeline.steps
    assert any("board only" in line for line in status_lines(Player(source.timeline)))
    live = load_source(build_parser().parse_args([str(CHOP), "--ai", "reference", "--seed", "3"]))
    live.stop.set()
    assert live.worker is not None
    out = tmp_path / "board.png"
    assert main([str(CHOP), "--headless", "--out", str(out), "--size", "64x48"]) == 0
    assert out.exists()


def test_gif_frame_delays_add_up_to_the_films_length() -> None:
    """At 15 fps every frame was stored as 60 ms (GIF keeps hundredths): the film ran 10 % fast."""
    from viewer3d.export import gif_durations

    durations = gif_durations(150, 15)
    assert sum(durations) == 10_000 and set(durations) <= {60, 70}
    assert sum(gif_durations(30, 10)) == 3000 and sum(gif_durations(7, 24)) == round(7 * 1000 / 24, -1)


@pytest.mark.parametrize(
    ("failure", "expected"),
    [
        (PermissionError(13, "Permission denied", "/themes/mine/floor.png"), "/themes/mine/floor.png: cannot read"),
        ("missing", "viewer3d/render/floor.frag: missing from the installed package"),
    ],
)
def test_a_failure_while_rendering_names_what_failed_not_the_output(
    failure: object, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Only a failure of the output file itself is "cannot write"."""
    import viewer3d.export
    from engine.resources import ResourceMissing

    def broken(*args: object, **kwargs: object) -> int:
        if failure == "missing":
            raise ResourceMissing("viewer3d.render", "floor.frag")
        assert isinstance(failure, OSError)
        raise failure

    monkeypatch.setattr(viewer3d.export, "export_replay", broken)
    monkeypatch.chdir(tmp_path)
    status = main(["--board", str(CHOP), "--ai", "reference", "--headless", "--out", "x.png", "--size", "64x48"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status in (2, 4) and len(err) == 1, err
    assert err[0].startswith(f"robots-view: {expected}") and "cannot write" not in err[0]
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("name", ["chop.dat", "open-10x10.txt"])
def test_a_shipped_board_or_arena_by_name_from_any_folder(tmp_path: Path, name: str) -> None:
    out = tmp_path / "shipped.png"
    result = run([name, "--headless", "--out", str(out), "--size", "160x120"], tmp_path)
    assert result.returncode == 0, result.stderr
    with Image.open(out) as image:
        assert image.size == (160, 120)
