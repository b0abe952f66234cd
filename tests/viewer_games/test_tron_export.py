"""A Tron game file exported headless to GIF through ``robots-view`` and the shared export: the
light walls grow in their bots' exact colours (one shared palette made from the last picture, so
colours the first frame lacks are not lost), and every frame carries the HUD lines in those colours."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageSequence

from engine.tron.arena import parse_arena
from engine.tron.record import BotInfo, GameRecord, RoundRecord, save_game
from viewer3d.cli import main as view_main
from viewer3d.games.tron.show import colour_of

ARENA = "GAMEBOARDSTART 12,8\n" + "............\n" * 8 + "GAMEBOARDEND\nPOS 1 1,2 E\nPOS 2 12,7 W\n"
ROUNDS = 12


def near(pixels: np.ndarray, colour: tuple[int, int, int], tolerance: int = 60) -> np.ndarray:
    return np.abs(pixels - np.array(colour)).sum(axis=-1) < tolerance


def test_a_tron_game_file_exports_to_gif(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rounds = [RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {}) for _ in range(ROUNDS - 1)]
    rounds.append(RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [1, 2], {}))  # both leave the board
    game = tmp_path / "tron-game.json"
    save_game(GameRecord(parse_arena(ARENA), (BotInfo("a"), BotInfo("b")), tuple(rounds)), game)
    out = tmp_path / "game.gif"
    assert view_main([str(game), "--headless", "--out", str(out), "--size", "320x240", "--fps", "10"]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out} (")
    with Image.open(out) as gif:
        frames = [np.asarray(frame.convert("RGB")).astype(int) for frame in ImageSequence.Iterator(gif)]
    assert len(frames) > 10 and frames[0].shape == (240, 320, 3)
    scene = [frame[60:, :] for frame in frames]  # below the HUD box
    cyan = [int(near(frame, colour_of(0)).sum()) for frame in scene]
    orange = [int(near(frame, colour_of(1)).sum()) for frame in scene]
    assert cyan[-1] > 4 * max(1, cyan[0]) and orange[-1] > 4 * max(1, orange[0])  # the walls grew
    hud = frames[-1][:60, :200]
    assert near(hud, colour_of(0), 90).sum() > 10 and near(hud, colour_of(1), 90).sum() > 10


def test_one_round_exported_zoomed_and_bad_rounds_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from viewer3d.games.tron.show import TronShow
    from viewer3d.show_export import hud_at, round_span

    rounds = [RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {}) for _ in range(ROUNDS - 1)]
    rounds.append(RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [1, 2], {}))
    record = GameRecord(parse_arena(ARENA), (BotInfo("a"), BotInfo("b")), tuple(rounds))
    game = tmp_path / "tron-game.json"
    save_game(record, game)
    show = TronShow(record, game.name)
    begin, end = round_span(show.timeline, 5)
    assert end - begin == show.timeline.step_ends[4] - show.timeline.step_starts[4]  # one round, one step
    assert hud_at(show, begin, "")[0].text == "Tron 12x8   round 5 / 12"
    whole, zoomed = tmp_path / "whole.png", tmp_path / "zoomed.png"
    assert view_main([str(game), "--headless", "--out", str(whole), "--round", "5", "--size", "320x240"]) == 0
    args = [str(game), "--headless", "--out", str(zoomed), "--round", "5", "--zoom", "3", "--size", "320x240"]
    assert view_main(args) == 0
    lit = [near(np.asarray(Image.open(p).convert("RGB")).astype(int)[60:], colour_of(0)).sum() for p in (whole, zoomed)]
    assert lit[1] > 2 * lit[0]  # three times closer: the wall covers more of the picture
    capsys.readouterr()
    assert view_main([str(game), "--headless", "--out", str(tmp_path / "x.gif"), "--round", "13"]) == 2
    assert capsys.readouterr().err == "robots-view: --round 13: there is no round 13: the game has 12 rounds\n"


def refused_export(path: Path, tmp_path: Path) -> str:
    """``robots-view PATH --headless --out x.png`` refused: its one line on stderr (exit 2, no file)."""
    result = subprocess.run(
        [sys.executable, "-m", "viewer3d", str(path), "--headless", "--out", str(tmp_path / "x.png")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "x.png").exists()
    return lines[0]


def test_a_protocol_transcript_is_named_as_one(tmp_path: Path) -> None:
    """``robots-tron play --log`` writes a text file users try to open first: it is recognised as
    Tron's, and refused in one line that says which file to open instead."""
    from engine.games import TRON, sniff_game

    log = tmp_path / "log.txt"
    log.write_text(">1 GAMEBOARDSTART 3,3\n>1 ...\n>1 ...\n>1 ...\n>1 GAMEBOARDEND\n>1 SET 1\n<1 AHEAD\n")
    assert sniff_game(log) == TRON
    line = refused_export(log, tmp_path)
    assert f"{log}:1:1: a robots-tron --log transcript" in line and "tron-game.json" in line


@pytest.mark.parametrize("content", ["", '{"format": "robots-tron-ga'])
def test_an_empty_or_cut_tron_game_file_is_named_as_tron(tmp_path: Path, content: str) -> None:
    """An empty ``tron-game.json`` was read as a robot board: "expected a first line 'WIDTH HEIGHT'"."""
    from engine.games import TRON, sniff_game

    game = tmp_path / "tron-game.json"
    game.write_text(content)
    assert sniff_game(game) == TRON
    line = refused_export(game, tmp_path)
    assert f"{game}:1:" in line and "JSON" in line and "WIDTH HEIGHT" not in line
