"""``robots-ai`` end to end in a temporary folder, with a stale and a corrupt cache."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from engine.ai import plan_cache
from engine.ai.contest_entry import main
from engine.ai.plan_table import build_table
from engine.cards import Card
from engine.deck import generate_deck
from engine.model import Level
from engine.protocol import read_chosen, write_ai_inputs
from tests.planner.boards import CORRIDOR, ROOT

HAND = (Card.MF3, Card.MF2, Card.MF2, Card.MF3, Card.MF1, Card.RR, Card.MF3, Card.MF2)


@pytest.fixture
def game_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_ai_inputs(tmp_path, CORRIDOR, HAND, CORRIDOR.start)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def cache_files(folder: Path) -> list[Path]:
    return sorted((folder / plan_cache.CACHE_FOLDER).glob("*.npz"))


def test_writes_five_cards_of_the_hand_and_a_cache(game_folder: Path) -> None:
    assert main(["normal"]) == 0
    chosen = read_chosen(game_folder)
    assert len(chosen) == 5 and not Counter(chosen) - Counter(HAND)
    assert chosen[0] is Card.RR or chosen[:2] == [Card.MF1, Card.RR]  # the hole is two tiles ahead
    assert len(cache_files(game_folder)) == 1
    assert main(["normal"]) == 0 and read_chosen(game_folder) == chosen  # from the cache: same answer


def test_as_a_program(game_folder: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "engine.ai.contest_entry", "hard"],
        cwd=game_folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert len(read_chosen(game_folder)) == 5


def test_corrupt_cache_is_ignored_and_rewritten(game_folder: Path) -> None:
    assert main(["normal"]) == 0
    expected = read_chosen(game_folder)
    (path,) = cache_files(game_folder)
    path.write_bytes(path.read_bytes()[:100])
    assert plan_cache.load_cached(game_folder / plan_cache.CACHE_FOLDER, CORRIDOR, Level.NORMAL) is None
    assert main(["normal"]) == 0
    assert read_chosen(game_folder) == expected
    assert plan_cache.load_cached(game_folder / plan_cache.CACHE_FOLDER, CORRIDOR, Level.NORMAL) is not None


def test_stale_or_tampered_cache_is_not_trusted(game_folder: Path) -> None:
    folder = game_folder / plan_cache.CACHE_FOLDER
    table = build_table(CORRIDOR, Level.NORMAL)
    # Values that would send the robot into the hole: tampered, so the digest no longer matches.
    plan_cache.store(folder, CORRIDOR, Level.NORMAL, table, np.zeros(table.states))
    path = plan_cache.cache_path(folder, CORRIDOR, Level.NORMAL)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["values"] = arrays["values"] + 1.0
    np.savez(path.with_suffix(""), **arrays)  # np.savez adds the .npz suffix back
    assert plan_cache.load_cached(folder, CORRIDOR, Level.NORMAL) is None
    # A file from an older table format under the same name is stale.
    arrays["version"] = np.array(plan_cache.TABLE_FORMAT_VERSION - 1)
    arrays["values"] = arrays["values"] - 1.0
    np.savez(path.with_suffix(""), **arrays)
    assert plan_cache.load_cached(folder, CORRIDOR, Level.NORMAL) is None
    # Another level or board never shares the key.
    assert plan_cache.cache_key(CORRIDOR, Level.HARD) != plan_cache.cache_key(CORRIDOR, Level.NORMAL)
    assert main(["normal"]) == 0
    chosen = read_chosen(game_folder)
    assert chosen[0] is Card.RR or chosen[:2] == [Card.MF1, Card.RR]


@pytest.mark.parametrize(
    ("files", "args", "fragment"),
    [
        ({"cards.txt": "MF 1\nXX\n"}, ["hard"], "cards.txt:2:1"),
        ({"cards.txt": "MF 1\nMF 2\n"}, ["hard"], "expected 8 cards"),
        ({"bot.txt": "9 9 D\n"}, ["hard"], "off the 5x3 board"),
        ({"board.txt": "2 2\nQQ\n  \n"}, ["hard"], "board.txt:2"),
    ],
)
def test_bad_input_is_a_one_line_error(
    game_folder: Path, capsys: pytest.CaptureFixture[str], files: dict[str, str], args: list[str], fragment: str
) -> None:
    for name, text in files.items():
        (game_folder / name).write_text(text)
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and fragment in err, err
    assert not (game_folder / "ccards.txt").exists()


def test_bad_level_exits_non_zero(game_folder: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["impossible"])
    assert exc.value.code != 0


def test_a_whole_game_through_the_protocol(game_folder: Path) -> None:
    deck = generate_deck(2)
    from engine.game import play_game

    def via_files(board: object, level: Level, pose: object, hand: tuple[Card, ...]) -> list[Card]:
        write_ai_inputs(game_folder, CORRIDOR, hand, pose)  # type: ignore[arg-type]
        assert main([level.value]) == 0
        return read_chosen(game_folder)

    game = play_game(CORRIDOR, Level.HARD, deck, via_files)
    assert game.outcome is not None and game.outcome.value == "Z"
