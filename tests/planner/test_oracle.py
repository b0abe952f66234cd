"""The full-information optimum equals exhaustive search, and no AI beats it."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Sequence
from functools import cache
from itertools import permutations
from pathlib import Path

import pytest

from engine.ai.planner import Planner
from engine.cards import Card
from engine.deck import generate_deck, save_deck
from engine.events import RobotStatus
from engine.game import Outcome, play_game
from engine.model import Board, Level, Pose
from engine.oracle import main, optimum_rounds
from engine.rules import play_card
from tests.planner.boards import CHOP, UNREACHABLE, chop, random_board

ROOT = Path(__file__).resolve().parents[2]


def play_order(board: Board, level: Level, pose: Pose, order: Sequence[Card]) -> tuple[Pose, RobotStatus]:
    for card in order:
        result = play_card(board, level, pose, card)
        pose = result.pose
        if result.status is not RobotStatus.ALIVE:
            return pose, result.status
    return pose, RobotStatus.ALIVE


def exhaustive_tree(board: Board, level: Level, deck: Sequence[Card]) -> int | None:
    """Every distinct ordered choice of every round, no merging of poses (tiny decks only)."""
    best: list[int | None] = [None]

    @cache
    def outcome(pose: Pose, order: tuple[Card, ...]) -> tuple[Pose, RobotStatus]:
        return play_order(board, level, pose, order)

    @cache
    def orders(hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
        return sorted(set(permutations(hand, 5)), key=lambda o: [c.value for c in o])

    def search(pose: Pose, number: int) -> None:
        hand = deck[8 * (number - 1) : 8 * number]
        if len(hand) < 8 or (best[0] is not None and number >= best[0]):
            return
        for order in orders(tuple(hand)):
            end, status = outcome(pose, order)
            if status is RobotStatus.FINISHED:
                best[0] = number
                return
            if status is RobotStatus.ALIVE:
                search(end, number + 1)

    search(board.start, 1)
    return best[0]


def pose_set_search(board: Board, level: Level, deck: Sequence[Card]) -> int | None:
    """Round by round over the set of reachable poses, every distinct order from every pose."""

    @cache
    def rule(pose: Pose, card: Card) -> tuple[Pose, RobotStatus]:
        result = play_card(board, level, pose, card)
        return result.pose, result.status

    poses = {board.start}
    number = 1
    while poses and 8 * number <= len(deck):
        hand = deck[8 * (number - 1) : 8 * number]
        following = set()
        for pose in poses:
            for order in set(permutations(hand, 5)):
                current, status = pose, RobotStatus.ALIVE
                for card in order:
                    current, status = rule(current, card)
                    if status is not RobotStatus.ALIVE:
                        break
                if status is RobotStatus.FINISHED:
                    return number
                if status is RobotStatus.ALIVE:
                    following.add(current)
        poses = following
        number += 1
    return None


def palette_deck(rng: random.Random, kinds: int, rounds: int) -> list[Card]:
    palette = rng.sample(list(Card), kinds)
    return [rng.choice(palette) for _ in range(8 * rounds)]


@pytest.mark.parametrize("seed", range(10))
def test_oracle_equals_exhaustive_tree_search(seed: int) -> None:
    rng = random.Random(seed)
    board = random_board(seed + 100, 4, 3)
    level = list(Level)[seed % 3]
    deck = palette_deck(rng, 2, 3)
    assert optimum_rounds(board, level, deck) == exhaustive_tree(board, level, deck)


@pytest.mark.parametrize("seed", range(12))
def test_oracle_equals_pose_set_search(seed: int) -> None:
    rng = random.Random(seed)
    board = random_board(seed + 200, 4, 3)
    level = list(Level)[seed % 3]
    deck = palette_deck(rng, 4, 4) if seed % 3 else generate_deck(seed)[:16]
    assert optimum_rounds(board, level, deck) == pose_set_search(board, level, deck)


def test_oracle_found_answers_and_unreachable_cases() -> None:
    answers = []
    for seed in range(12):
        board = random_board(seed + 200, 4, 3)
        answers.append(optimum_rounds(board, Level.NORMAL, generate_deck(seed)[:40]))
    assert any(a is not None for a in answers) and 1 in answers
    assert optimum_rounds(UNREACHABLE, Level.NORMAL, generate_deck(1)) is None


def test_no_ai_beats_the_oracle(planner: Planner) -> None:
    board = chop()
    for seed in range(4):
        deck = generate_deck(seed)
        best = optimum_rounds(board, Level.HARD, deck)
        game = play_game(board, Level.HARD, deck, planner)
        assert best is not None
        if game.outcome is Outcome.FINISHED:
            assert len(game.rounds) >= best


def test_cli_prints_rounds_or_unreachable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = generate_deck(4)
    save_deck(deck, tmp_path / "deck.txt")
    assert main([str(CHOP), str(tmp_path / "deck.txt"), "--level", "hard"]) == 0
    assert capsys.readouterr().out.strip() == str(optimum_rounds(chop(), Level.HARD, deck))
    (tmp_path / "box.dat").write_text("5 3\n" + "\n".join(UNREACHABLE.to_strings()) + "\n")
    assert main([str(tmp_path / "box.dat"), str(tmp_path / "deck.txt")]) == 0
    assert capsys.readouterr().out.strip() == "unreachable"


def test_cli_bad_input_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "deck.txt").write_text("MF 1\nMF 9\n")
    assert main([str(CHOP), str(tmp_path / "deck.txt")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "deck.txt:2:1" in err
    assert main([str(tmp_path / "missing.dat"), str(tmp_path / "deck.txt")]) == 2


def test_no_foresight_cli_equals_brute_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.planner.test_value import brute_force

    board = Board.from_strings(["TO ", "  Z"])
    (tmp_path / "tiny.dat").write_text("3 2\n" + "\n".join(board.to_strings()) + "\n")
    assert main([str(tmp_path / "tiny.dat"), "--no-foresight", "--level", "hard"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    goal, won = brute_force(board, Level.HARD)[board.start]
    assert 0.5 < goal < 1.0
    assert lines[0] == f"goal probability {goal:.8f}"
    assert lines[1] == f"expected rounds of won games {won / goal:.6f}"


def test_no_foresight_bound_holds_for_the_planner(planner: Planner) -> None:
    from engine.oracle import no_foresight_optimum

    best = no_foresight_optimum(chop(), Level.EASY)
    assert best.converged and best.goal_probability == pytest.approx(1.0)
    rounds = [len(play_game(chop(), Level.EASY, generate_deck(seed), planner).rounds) for seed in range(40)]
    assert abs(sum(rounds) / len(rounds) - best.expected_rounds) < 0.5


def test_no_foresight_cli_takes_a_shipped_board_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["crossing-5x3.dat", "--no-foresight", "--level", "hard"]) == 0
    shipped = capsys.readouterr().out
    assert main([str(CHOP.parent / "crossing-5x3.dat"), "--no-foresight", "--level", "hard"]) == 0
    assert capsys.readouterr().out == shipped and "goal probability" in shipped


def test_no_foresight_cli_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(CHOP)]) == 2  # neither a deck nor --no-foresight
    (tmp_path / "deck.txt").write_text("MF 1\n" * 8)
    assert main([str(CHOP), str(tmp_path / "deck.txt"), "--no-foresight"]) == 2
    assert "--no-foresight takes a BOARD" in capsys.readouterr().err
    (tmp_path / "nogoal.dat").write_text("2 1\nT \n")
    capsys.readouterr()
    assert main([str(tmp_path / "nogoal.dat"), "--no-foresight"]) == 2
    assert "no goal" in capsys.readouterr().err


@pytest.mark.parametrize("no_foresight", [False, True])
def test_an_interrupted_oracle_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], no_foresight: bool
) -> None:
    """Ctrl-C during a long search printed a traceback."""
    import engine.oracle

    def stopped(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(engine.oracle, "no_foresight_optimum" if no_foresight else "optimum_rounds", stopped)
    save_deck(generate_deck(1), tmp_path / "deck.txt")
    argv = [str(CHOP), "--no-foresight"] if no_foresight else [str(CHOP), str(tmp_path / "deck.txt")]
    assert main(argv) == 130
    assert capsys.readouterr().err == "robots-oracle: interrupted\n"


@pytest.mark.parametrize("limit", ["nan", "-1", "-inf", "soon"])
def test_no_foresight_cli_refuses_a_time_limit_that_is_not_seconds(
    limit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """nan and negative limits used to stop the solve before its first sweep, as 0 does on purpose."""
    with pytest.raises(SystemExit) as exc:
        main([str(CHOP), "--no-foresight", f"--time-limit={limit}"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --time-limit: must be" in err and repr(limit) in err, err


def test_no_foresight_cli_says_when_it_stopped_early(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from engine.ai.planner import forget_plans

    forget_plans()
    board = random_board(5, 10, 10)
    (tmp_path / "b.dat").write_text("10 10\n" + "\n".join(board.to_strings()) + "\n")
    assert main([str(tmp_path / "b.dat"), "--no-foresight", "--time-limit", "0"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("goal probability ")
    assert "stopped early after 0 sweeps" in captured.err and captured.err.count("\n") == 1
    forget_plans()


def test_a_reader_that_leaves_ends_the_oracle_quietly(tmp_path: Path) -> None:
    """``robots-oracle BOARD DECK | head -0``: the answer's print was a BrokenPipeError traceback."""
    import os
    import subprocess
    import sys

    save_deck(generate_deck(4), tmp_path / "deck.txt")
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write now fails with EPIPE, as after `head` has exited
    try:
        result = subprocess.run(
            [sys.executable, "-m", "engine.oracle", str(CHOP), str(tmp_path / "deck.txt")],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (141, "")


@pytest.mark.parametrize(
    ("converged", "sweeps", "compiled", "expected"),
    [
        (True, 9, True, ""),
        (False, 1, False, "stopped early after 1 sweep (24.4 s): the goal probability is a lower bound"),
        (
            False,
            1,
            True,
            "stopped early after 1 sweep (24.4 s): the goal probability is a lower bound; "
            "this first run also compiled the planner's kernels (cached for the next runs)",
        ),
        (False, 3, False, "stopped early after 3 sweeps (24.4 s): the goal probability is a lower bound"),
    ],
)
def test_stopped_early_says_when_the_kernels_were_compiled(
    converged: bool, sweeps: int, compiled: bool, expected: str
) -> None:
    """``--time-limit 1`` on a first run said "stopped early after 1 sweeps (24.4 s)": the 20 s of
    compiling, unexplained, read like a broken time limit."""
    from engine.oracle import NoForesight, stopped_early_note

    best = NoForesight(0.5, 3.0, converged, sweeps, 24.4)
    assert stopped_early_note(best, compiled=compiled) == expected


def test_kernels_compiled_counts_what_this_process_compiled(tmp_path: Path) -> None:
    """A kernel compiled here counts; one loaded from the cache in a fresh process does not."""
    module = tmp_path / "tiny_kernels.py"
    module.write_text(
        "from engine.ai.jit_cache import numba\n\n@numba.njit(cache=True)\ndef twice(x):\n    return 2 * x\n"
    )
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import tiny_kernels\n"
        "from engine.ai.jit_cache import kernels_compiled\n"
        "print(kernels_compiled(tiny_kernels), end=' '); tiny_kernels.twice(3); print(kernels_compiled(tiny_kernels))"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", code, str(tmp_path)], env=env, capture_output=True, text=True, timeout=300
        )
        for _ in range(2)
    ]
    assert [r.stdout.strip() for r in runs] == ["0 1", "0 0"], [r.stderr for r in runs]
