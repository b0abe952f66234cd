"""``load`` then ``start`` round by round with ./bot-ki, exactly like the contest engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.boardfile import load_board, write_board
from engine.cards import HAND_SIZE
from engine.deck import generate_deck, load_deck, parse_cards, save_deck
from engine.model import Level
from engine.protocol import parse_pose
from engine.replay import load_replay
from engine.session import STATE_FILE, Session, save_session

CHOP = Path(__file__).resolve().parents[2] / "gameboards" / "chop.dat"
# bot-ki that records what it saw: the level argument and the hand in cards.txt.
SPY_BOT = '#!/bin/sh\necho "$1" >> levels.log\ncat cards.txt >> hands.log\nhead -5 cards.txt > ccards.txt\n'


def play_rounds(engine, limit: int = 800) -> list:
    results = []
    for _ in range(limit):
        result = engine("start")
        results.append(result)
        if result.code != 0:
            break
    return results


@pytest.mark.parametrize(("level", "seed"), [(Level.NORMAL, 8), (Level.EASY, 8), (Level.HARD, 3)])
def test_rounds_of_start_write_the_same_files_as_play(
    engine, write_bot, tmp_path: Path, level: Level, seed: int
) -> None:
    save_deck(generate_deck(seed), tmp_path / "deck.dat")
    write_bot(tmp_path)
    assert engine("load", str(CHOP), "deck.dat", level.value).code == 0
    results = play_rounds(engine)
    assert [r.code for r in results[:-1]] == [0] * (len(results) - 1) and results[-1].code == 1
    assert "game over" in results[-1].out and results[-1].err == ""
    played = engine("play", str(CHOP), "--deck", "deck.dat", "--level", level.value, "--out", "g")
    assert played.code == 0, played.err
    for name in ("globalseq.txt", "stats.txt", "sequence.txt"):
        assert (tmp_path / name).read_text() == (tmp_path / "g" / name).read_text(), name
    info = json.loads((tmp_path / "g" / "game.json").read_text())
    assert len(results) == info["rounds"]
    assert parse_pose((tmp_path / "bot.txt").read_text()) == parse_pose(" ".join(map(str, info["final"])))
    assert f"game over: {info['outcome']}" in results[-1].out


def test_load_writes_the_contest_files_and_start_deals_eight_cards(engine, write_bot, tmp_path: Path) -> None:
    save_deck(generate_deck(9), tmp_path / "deck.dat")
    deck = load_deck(tmp_path / "deck.dat")
    result = engine("load", str(CHOP), "deck.dat", "normal")
    assert result.code == 0 and "level normal" in result.out
    assert (tmp_path / "board.txt").read_text() == write_board(load_board(CHOP))
    assert (tmp_path / "bot.txt").read_text() == "0 0 D\n"
    assert parse_cards((tmp_path / "cards.txt").read_text()) == deck  # the whole deck while the game runs
    assert (tmp_path / STATE_FILE).exists() and (tmp_path / "ascii-board.txt").read_text().startswith("Board 12 x 12")
    write_bot(tmp_path, SPY_BOT)
    for number in (1, 2):
        result = engine("start")
        assert result.code == 0 and result.out.startswith(f"round {number}: robot at ")
    hands = parse_cards((tmp_path / "hands.log").read_text())
    assert hands == deck[: 2 * HAND_SIZE]  # each round the AI saw exactly the next 8 cards
    assert (tmp_path / "levels.log").read_text() == "normal\nnormal\n"
    assert parse_cards((tmp_path / "cards.txt").read_text()) == deck[2 * HAND_SIZE :]
    replay = load_replay(
        load_board(CHOP), Level.NORMAL, load_board(CHOP).start, (tmp_path / "globalseq.txt").read_text()
    )
    assert replay.round_count == 2 and replay.outcome is None
    assert parse_pose((tmp_path / "bot.txt").read_text()) == replay.final_pose
    assert not (tmp_path / "stats.txt").exists()  # only at the game's end


def test_start_after_the_end_says_so_and_changes_nothing(engine, write_bot, tmp_path: Path) -> None:
    write_bot(tmp_path)
    save_deck(generate_deck(0), tmp_path / "deck.dat")
    engine("load", str(CHOP), "deck.dat", "hard")
    assert engine("start").code == 1  # hard, seed 0: destroyed in round 1
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    again = engine("start")
    assert again.code == 1 and "game over: X" in again.err and "load" in again.err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


def test_level_defaults_to_the_loaded_one_and_a_different_one_is_refused_mid_game(
    engine, write_bot, tmp_path: Path
) -> None:
    write_bot(tmp_path, SPY_BOT)
    save_deck(generate_deck(9), tmp_path / "deck.dat")
    engine("load", str(CHOP), "deck.dat", "easy")
    assert engine("start", "normal").code == 0  # before the first round a level given to start wins (contest habit)
    assert engine("start").code == 0
    refused = engine("start", "hard")
    assert refused.code == 2 and "loaded at level normal" in refused.err
    assert (tmp_path / "levels.log").read_text() == "normal\nnormal\n"


def test_deck_running_out_ends_with_y(engine, write_bot, tmp_path: Path) -> None:
    deck = generate_deck(4)[: 2 * HAND_SIZE + 3]  # two full hands, then too few cards
    save_session(tmp_path, Session(load_board(CHOP), Level.EASY, deck))  # easy never dies; seed 4 never finishes
    write_bot(tmp_path)
    results = play_rounds(engine)
    assert [r.code for r in results] == [0, 0, 1]
    assert "game over: Y (deck exhausted) after 2 rounds" in results[-1].out
    assert (tmp_path / "sequence.txt").read_text() == "Y\n"
    assert (tmp_path / "globalseq.txt").read_text().endswith("--------\nY\n")
    assert "Cards Out (Y): 1\nFinished (Z): 0\n" in (tmp_path / "stats.txt").read_text()


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("#!/bin/sh\nexit 3\n", "exit"),
        ("#!/bin/sh\nprintf 'MF 1\\nMF 1\\nMF 1\\nMF 1\\nXX\\n' > ccards.txt\n", "XX"),
        ("#!/bin/sh\nhead -4 cards.txt > ccards.txt\n", "wrote 4 cards to ccards.txt"),
        ("#!/bin/sh\nprintf 'RU\\nRU\\nRU\\nRU\\nRU\\n' > ccards.txt\n", "not in the hand"),
    ],
)
def test_an_ai_failure_ends_the_game_as_an_ai_error(
    engine, write_bot, tmp_path: Path, script: str, message: str
) -> None:
    save_deck(generate_deck(9), tmp_path / "deck.dat")
    engine("load", str(CHOP), "deck.dat")
    write_bot(tmp_path, script)
    result = engine("start")
    assert result.code == 3 and "game over: E (AI error)" in result.out and message in result.out
    assert "\n" not in result.out.rstrip("\n")
    assert (tmp_path / "stats.txt").read_text().startswith("Cards: 0\nRounds: 0\n")
    assert json.loads((tmp_path / STATE_FILE).read_text())["status"] == "E"
    assert engine("start").code == 1


def test_a_hanging_bot_is_killed_after_the_timeout(engine, write_bot, tmp_path: Path) -> None:
    engine("load", str(CHOP))
    write_bot(tmp_path, "#!/bin/sh\nsleep 30\n")
    result = engine("start", "--timeout", "0.5")
    assert result.code == 3 and "timed out" in result.out


def test_a_missing_bot_ki_is_an_ai_error_naming_it(engine, tmp_path: Path) -> None:
    engine("load", str(CHOP))
    result = engine("start")
    assert result.code == 3 and "bot-ki" in result.out


def test_start_without_load_is_a_one_line_error(engine, one_line_error) -> None:
    one_line_error(engine("start"), ".robots-state.json", "run 'robots-engine load")


def test_a_corrupt_state_file_is_a_one_line_error(engine, one_line_error, tmp_path: Path) -> None:
    engine("load", str(CHOP))
    (tmp_path / STATE_FILE).write_text('{"format": 1, "level": "hard",')
    one_line_error(engine("start"), ".robots-state.json:1:")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.dictionaries(
        st.sampled_from(["format", "level", "status", "board", "deck", "chosen", "error"]),
        st.one_of(
            st.none(),
            st.integers(0, 2),
            st.sampled_from(["easy", "hard", "running", "X", "Y", "Z", "E", "2 1\nTZ\n"]),
            st.lists(st.sampled_from(["MF 1", "RR", "RL"]), max_size=10),
            st.lists(st.lists(st.sampled_from(["MF 1", "RR"]), min_size=5, max_size=5), max_size=2),
        ),
    )
)
def test_start_on_any_state_ends_cleanly(engine, tmp_path: Path, data: dict[str, object]) -> None:
    (tmp_path / STATE_FILE).write_text(json.dumps(data))
    result = engine("start")
    assert result.code in (0, 1, 2, 3) and "Traceback" not in result.err
    if result.code == 2:
        assert len(result.err.splitlines()) == 1
