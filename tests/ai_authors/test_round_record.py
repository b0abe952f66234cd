"""Every game folder keeps a per-round record: pose before and after, hand, choice, AI time and output."""

from __future__ import annotations

import json
from pathlib import Path

from engine.ai.output import BoundedOutput, shorten
from engine.ai.trace import Trace
from engine.boardfile import load_board
from engine.cards import Card
from engine.deck import generate_deck, load_deck
from engine.model import Level
from engine.roundlog import read_rounds
from engine.turns import GAME_OUTPUT_BUDGET, TURN_HEAD, TURN_TAIL, TURN_TAIL_LEAN, TurnRecorder

from .conftest import CHOP, Runner, python_bot

#: Prints ~150 KB each round, and raises in round 3 after printing.
CHATTY = """
import os
n = int(open("n.txt").read()) if os.path.exists("n.txt") else 0
open("n.txt", "w").write(str(n + 1))
for i in range(1700):
    print("considering option", i, "x" * 80)
if n == 2:
    raise RuntimeError("boom in round 3")
cards = open("cards.txt").read().split()
open("ccards.txt", "w").write(open("cards.txt").read().splitlines()[0] + "\\n" + "\\n".join(open("cards.txt").read().splitlines()[1:5]) + "\\n")
"""


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_bot_printing_150_kb_and_raising_has_its_traceback_in_its_round_record(
    engine: Runner, tmp_path: Path
) -> None:
    bot = python_bot(tmp_path / "chatty.py", CHATTY)
    result = engine("play", str(CHOP), "--seed", "3", "--level", "easy", "--ai", str(bot), "--out", "g")
    assert result.code == 3
    assert "last output: RuntimeError: boom in round 3" in result.out  # the last line, not the first
    records = lines(tmp_path / "g" / "rounds.jsonl")
    assert [r["round"] for r in records] == [1, 2, 3]
    failed = records[-1]
    assert failed["end"] == "E" and failed["after"] is None and failed["played"] == 0
    assert isinstance(failed["output_bytes"], int) and failed["output_bytes"] > 150_000
    output = str(failed["output"])
    assert "Traceback (most recent call last)" in output and output.rstrip().endswith("RuntimeError: boom in round 3")
    assert output.startswith("considering option 0 ")  # the first part is kept too
    assert "left out" in output
    assert len(output) < TURN_HEAD + TURN_TAIL + 200
    assert "boom in round 3" in str(failed["error"])
    log = (tmp_path / "g" / "ai.log").read_text()
    headers = [line for line in log.splitlines() if line.startswith("--- ")]
    assert [h.split(":")[0] for h in headers] == ["--- round 1", "--- round 2", "--- round 3"]
    assert "exit 1" in headers[2]
    assert log.rstrip().endswith("RuntimeError: boom in round 3")


def test_record_of_a_reference_game_matches_the_game(engine: Runner, tmp_path: Path) -> None:
    result = engine("play", str(CHOP), "--seed", "8", "--level", "hard", "--out", "g")
    assert result.code == 0
    folder = tmp_path / "g"
    info = json.loads((folder / "game.json").read_text())
    records = lines(folder / "rounds.jsonl")
    assert len(records) == info["rounds"]
    deck = generate_deck(8)
    assert load_deck(folder / "deck.txt") == deck
    assert records[0]["before"] == "{} {} {}".format(*info["start"])
    for i, record in enumerate(records):
        hand = [c.value for c in deck[8 * i : 8 * i + 8]]
        assert record["hand"] == hand
        assert record["chosen"] == hand[:5]
        assert isinstance(record["seconds"], float)
        if i:
            assert record["before"] == records[i - 1]["after"]
    assert records[-1]["after"] == "{} {} {}".format(*info["final"])
    assert records[-1]["end"] == info["outcome"]
    board = load_board(CHOP)
    entries = read_rounds(folder, board.width, board.height)
    assert entries is not None and entries[0].hand == tuple(deck[:8])


def test_bounded_output_keeps_first_and_last_part() -> None:
    out = BoundedOutput(10, 10)
    for i in range(1000):
        out.add(f"{i:04d}\n".encode())
    assert out.total == 5000
    assert out.data().startswith(b"0000\n0001\n")
    assert out.data().endswith(b"0998\n0999\n")
    assert out.left_out == 4980
    assert out.last_line() == "0999"
    small = BoundedOutput(10, 10)
    small.add(b"abc")
    assert small.data() == b"abc" and small.left_out == 0
    assert shorten("abcdef", 2, 2) == ("ab\n[... 2 characters left out ...]\nef", 2)


class Loud:
    """A chooser that 'prints' a lot each round, as a trace."""

    name = "loud"

    def __init__(self) -> None:
        self.last_trace: Trace | None = None

    def __call__(self, board: object, level: object, pose: object, hand: tuple[Card, ...]) -> tuple[Card, ...]:
        text = "start\n" + "y" * 100_000 + "\nlast line\n"
        self.last_trace = Trace(output=text, output_bytes=len(text))
        return hand[:5]


def test_kept_output_of_a_whole_game_is_bounded_and_keeps_each_rounds_end() -> None:
    recorder = TurnRecorder(Loud())
    board = load_board(CHOP)
    hand = tuple(generate_deck(5)[:8])
    for _ in range(700):  # the most rounds a game can have
        recorder(board, Level.EASY, board.start, hand)
    kept = sum(len(t.output) for t in recorder.turns)
    assert kept <= GAME_OUTPUT_BUDGET + 700 * (TURN_TAIL_LEAN + 100) + TURN_HEAD + TURN_TAIL
    assert recorder.turns[0].output.startswith("start\n")  # early rounds keep their start too
    assert all(t.output.endswith("last line\n") for t in recorder.turns)
    assert all(t.output_bytes == 100_017 for t in recorder.turns)  # "start\n" + 100,000 + "\nlast line\n"
    assert recorder.name == "loud"


def test_the_contest_style_folder_keeps_the_same_round_record(engine: Runner, tmp_path: Path) -> None:
    """load + start round by round leaves the rounds.jsonl that play writes for the same deck."""
    from engine.deck import save_deck

    save_deck(generate_deck(25), tmp_path / "deck.dat")
    python_bot(
        tmp_path / "bot-ki",
        'print("thinking")\nopen("debug.txt", "w").write("text hi\\n")\n'
        'open("ccards.txt", "w").write("".join(open("cards.txt").readlines()[:5]))\n',
    )
    assert engine("load", str(CHOP), "deck.dat", "hard").code == 0
    while (code := engine("start").code) == 0:
        pass
    assert code == 1
    played = lines(tmp_path / "rounds.jsonl")
    assert (
        engine("play", str(CHOP), "--deck", "deck.dat", "--level", "hard", "--ai", "./bot-ki", "--out", "g").code == 0
    )
    whole = lines(tmp_path / "g" / "rounds.jsonl")
    keys = ("round", "before", "hand", "chosen", "played", "after", "end", "output")
    assert [{k: r[k] for k in keys} for r in played] == [{k: r[k] for k in keys} for r in whole]
    assert played[0]["output"] == "thinking\n" and played[0]["debug"]["marks"] == [{"kind": "text", "text": "hi"}]
    assert (tmp_path / "bot-ki.log").read_text().startswith(f"--- round {len(played)}: ")  # the last round
    assert engine("load", str(CHOP), "deck.dat", "hard").code == 0
    assert not (tmp_path / "rounds.jsonl").exists()  # a new game starts a new record
