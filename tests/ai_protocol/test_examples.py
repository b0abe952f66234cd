"""The shipped example AIs speak the protocol and beat blind play where it is easy to see."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.ai.external import ExternalAI, run_ai_once
from engine.ai.reference import reference_chooser
from engine.boardfile import load_board, parse_board
from engine.cards import Card
from engine.cli import main
from engine.deck import generate_deck
from engine.game import Outcome, check_choice, play_game
from engine.model import Direction, Level, Pose
from engine.protocol import write_ai_inputs

from .conftest import CHOP, ROOT

EXAMPLES = {
    "python": ROOT / "examples" / "python" / "bot.py",
    "shell": ROOT / "examples" / "shell" / "bot.sh",
    "c": ROOT / "examples" / "c" / "bot.c",
}
HAND = (Card.MF1, Card.MF2, Card.RL, Card.RR, Card.MB, Card.MF3, Card.RU, Card.MF1)


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C example, built as its first lines tell a user to (warnings are errors here).

    No skip without a compiler: CI's ./run setup installs gcc, so a missing one is a broken set-up.
    """
    compiler = shutil.which("cc")
    assert compiler is not None, "no C compiler 'cc' on PATH: ./run setup installs gcc and libc6-dev"
    program = tmp_path_factory.mktemp("c-example") / "bot"
    source = EXAMPLES["c"]
    build = [compiler, "-std=c99", "-O2", "-Wall", "-Wextra", "-pedantic", "-Werror", "-o", str(program), str(source)]
    result = subprocess.run(build, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    return program


@pytest.fixture(params=sorted(EXAMPLES))
def example(request: pytest.FixtureRequest) -> Path:
    if request.param == "c":
        program: Path = request.getfixturevalue("c_bot")
        return program
    return EXAMPLES[request.param]


def test_example_answers_from_hand(example: Path, tmp_path: Path) -> None:
    board = load_board(CHOP)
    for level in Level:
        write_ai_inputs(tmp_path, board, HAND, board.start)
        chosen = run_ai_once(example, tmp_path, level, log_path=tmp_path / "log")
        check_choice(HAND, chosen)
        assert f"level {level.value}" in (tmp_path / "log").read_text()


def test_example_avoids_the_edge_on_hard(example: Path, tmp_path: Path) -> None:
    # Facing up in the top-left corner: every forward card drives off the board on hard.
    board = load_board(CHOP)
    write_ai_inputs(tmp_path, board, HAND, Pose(0, 0, Direction.UP))
    chosen = run_ai_once(example, tmp_path, Level.HARD)
    check_choice(HAND, chosen)
    assert chosen[0] not in (Card.MF1, Card.MF2, Card.MF3)
    # The reference AI would play MF 1 first and fall off.
    assert reference_chooser(board, Level.HARD, Pose(0, 0, Direction.UP), HAND)[0] is Card.MF1


def test_example_avoids_a_hole(example: Path, tmp_path: Path) -> None:
    board = parse_board("3 3\n V \n H \n Z \n")
    hand = (Card.MF1, Card.MF2, Card.RL, Card.MF1, Card.MF1, Card.RR, Card.MF1, Card.MB)
    write_ai_inputs(tmp_path, board, hand, board.start)
    chosen = run_ai_once(example, tmp_path, Level.NORMAL)
    check_choice(hand, chosen)
    assert chosen[0] not in (Card.MF1, Card.MF2)
    # On easy the hole is floor, so driving straight down is fine.
    write_ai_inputs(tmp_path, board, hand, board.start)
    assert run_ai_once(example, tmp_path, Level.EASY)[0] in (Card.MF1, Card.MF2)


def test_example_plays_whole_game(example: Path) -> None:
    board = load_board(CHOP)
    with ExternalAI(example) as ai:
        game = play_game(board, Level.NORMAL, generate_deck(3), ai)
    assert game.outcome in (Outcome.FINISHED, Outcome.DESTROYED, Outcome.CARDS_OUT), game.error
    assert game.rounds


def test_example_runs_with_spaces_in_paths(example: Path, tmp_path: Path) -> None:
    copy = tmp_path / "my ai" / example.name
    copy.parent.mkdir()
    shutil.copy2(example, copy)
    work = tmp_path / "work dir"
    work.mkdir()
    board = load_board(CHOP)
    with ExternalAI(copy, workdir=work) as ai:
        check_choice(HAND, ai(board, Level.HARD, board.start, HAND))
    assert (work / "ccards.txt").is_file()


def test_the_c_examples_build_line_is_the_one_its_readme_gives() -> None:
    line = "cc -std=c99 -O2 -Wall -Wextra -o examples/c/bot examples/c/bot.c"
    assert line in EXAMPLES["c"].read_text()
    assert line in (ROOT / "examples" / "README.md").read_text()


@pytest.mark.parametrize(
    ("board", "level"),
    [
        ("factory-32x32.dat", Level.HARD),
        ("belt-maze-20x8.dat", Level.NORMAL),
        ("oil-runs-12x8.dat", Level.HARD),
        ("pusher-works-12x12.dat", Level.NORMAL),
        ("crusher-row-9x5.dat", Level.EASY),
    ],
)
def test_the_c_example_simulates_the_rules_exactly(c_bot: Path, tmp_path: Path, board: str, level: Level) -> None:
    """The C example implements docs/rules.md from the text alone and prints the pose it expects:
    every round of these games (belts, oil, pushers, crushers, rotators, the edge) must end there.
    So an outsider can write an exact simulator from the docs, and the example stays a correct one."""
    out = tmp_path / "game"
    argv = ["play", str(ROOT / "gameboards" / board), "--ai", str(c_bot), "--level", level.value]
    assert main([*argv, "--seed", "2", "--out", str(out)]) == 0
    checked = 0
    for line in (out / "rounds.jsonl").read_text().splitlines():
        record = json.loads(line)
        expected = re.search(r"expects (-?\d+ -?\d+ [LRUD]) (\w+)", record["output"])
        assert expected is not None, record["output"]
        end = {"alive": "alive", "X": "destroyed", "Z": "finished"}[record["end"]]
        if record["played"] == 5 or end != "alive":  # a game ended by the goal plays fewer than 5 cards
            assert (expected[1], expected[2]) == (record["after"], end), f"round {record['round']}: {record['output']}"
            checked += 1
    assert checked > 0
