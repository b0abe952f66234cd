"""``debug.txt``: an AI's optional marks for the viewer, kept per round, never an AI error."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai.base import BaseAI
from engine.boardfile import load_board
from engine.cards import Card
from engine.debugmarks import (
    MAX_BYTES,
    MAX_MARKS,
    Arrow,
    TextLine,
    TileMark,
    marks_from_json,
    marks_to_json,
    parse_debug,
)
from engine.deck import generate_deck
from engine.game import play_game
from engine.model import Board, Level, Pose
from engine.turns import TurnRecorder

from .conftest import CHOP, Runner, python_bot


def test_every_documented_line_and_its_problems() -> None:
    text = (
        "# a comment\n"
        "\n"
        "mark 1 2 red start here\n"
        "mark 0 0 #0f0\n"
        "arrow 0 0 3 4\n"
        "arrow 0 0 3 4 #112233\n"
        "text best value 3.5\n"
        "circle 1 1\n"
        "mark 12 0 red\n"
        "mark a b red\n"
        "mark 1 1 chartreuse\n"
        "arrow 1 1 2\n"
    )
    marks = parse_debug(text, 12, 12)
    assert marks.marks == (
        TileMark(1, 2, (230, 40, 40), "start here"),
        TileMark(0, 0, (0, 255, 0)),
        Arrow(0, 0, 3, 4),
        Arrow(0, 0, 3, 4, (0x11, 0x22, 0x33)),
        TextLine("best value 3.5"),
    )
    assert [p.split(":")[1] for p in marks.problems] == ["8", "9", "10", "11", "12"]
    assert "unknown mark 'circle'" in marks.problems[0]
    assert "outside the 12x12 board" in marks.problems[1]
    assert "unknown colour 'chartreuse'" in marks.problems[3]
    assert marks_from_json(marks_to_json(marks), 12, 12) == marks


@settings(max_examples=150, deadline=None)
@given(
    text=st.lists(
        st.sampled_from(["mark", "arrow", "text", "1", "-1", "9" * 5000, "nan", "inf", "1e400", "0x10", "red", "#12"])
        | st.text(max_size=12),
        max_size=12,
    ).map(" ".join)
    | st.text(max_size=300)
)
def test_fuzz_debug_marks_never_raise_and_problems_stay_one_short_line(text: str) -> None:
    """debug.txt is written by the AI: whatever it holds is marks or one-line problems, never an error."""
    marks = parse_debug(text + "\n" + text.replace(" ", "\n"), 12, 12)
    for problem in marks.problems:
        assert "\n" not in problem and "\r" not in problem and len(problem) < 200, problem
    assert marks_from_json(json.loads(json.dumps(marks_to_json(marks))), 12, 12) == marks


def test_marks_are_bounded() -> None:
    many = parse_debug("mark 1 1 red\n" * (MAX_MARKS + 7), 12, 12)
    assert len(many.marks) == MAX_MARKS
    assert many.problems == (f"debug.txt: 7 marks after the first {MAX_MARKS} ignored",)
    long = parse_debug("mark 1 1 red " + "L" * 500 + "\ntext " + "T" * 5000, 12, 12)
    assert all(len(getattr(m, "label", "") or getattr(m, "text", "")) <= 200 for m in long.marks)
    noise = parse_debug("\x00\xff garbage\n" * 100, 12, 12)
    assert noise.marks == () and len(noise.problems) == 21  # 20 reported, then a count


GOOD = 'open("ccards.txt", "w").write("".join(open("cards.txt").readlines()[:5]))\n'


def test_an_ai_writing_marks_has_them_in_its_round_record(engine: Runner, tmp_path: Path) -> None:
    python_bot(
        tmp_path / "marker.py",
        GOOD + 'open("debug.txt", "w").write("mark 2 3 blue goal?\\narrow 0 0 1 1 red\\ntext hi\\nbroken\\n")\n',
    )
    assert engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--ai", "./marker.py", "--out", "g").code == 0
    first = json.loads((tmp_path / "g" / "rounds.jsonl").read_text().splitlines()[0])
    kinds = [m["kind"] for m in first["debug"]["marks"]]
    assert kinds == ["mark", "arrow", "text"]
    assert first["debug"]["problems"] == ["debug.txt:4: unknown mark 'broken' (expected mark, arrow or text): 'broken'"]
    assert "[debug.txt:4: unknown mark 'broken'" in (tmp_path / "g" / "ai.log").read_text()


def test_bad_or_huge_debug_files_never_change_the_game(engine: Runner, tmp_path: Path) -> None:
    python_bot(tmp_path / "plain.py", GOOD)
    python_bot(
        tmp_path / "noisy.py",
        GOOD + f'open("debug.txt", "wb").write(b"\\xff\\x00nonsense\\n" * {MAX_BYTES})\n',
    )
    python_bot(tmp_path / "dir.py", GOOD + "import os\nos.makedirs('debug.txt', exist_ok=True)\n")
    results = []
    for name in ("plain", "noisy", "dir"):
        result = engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--ai", f"./{name}.py", "--out", name)
        assert result.code == 0, result.err
        results.append((tmp_path / name / "globalseq.txt").read_text())
    assert results[0] == results[1] == results[2]
    noisy = json.loads((tmp_path / "noisy" / "rounds.jsonl").read_text().splitlines()[0])
    assert noisy["debug"]["problems"][0] == f"debug.txt: larger than {MAX_BYTES} bytes, only the start was read"
    plain = json.loads((tmp_path / "plain" / "rounds.jsonl").read_text().splitlines()[0])
    assert "debug" not in plain


def test_a_stale_debug_file_is_not_taken_for_the_next_rounds(engine: Runner, tmp_path: Path) -> None:
    python_bot(
        tmp_path / "once.py",
        GOOD
        + 'import os\nif not os.path.exists("n"):\n    open("n", "w").close()\n    open("debug.txt", "w").write("text first round only\\n")\n',
    )
    engine("play", str(CHOP), "--seed", "25", "--level", "hard", "--ai", "./once.py", "--out", "g")
    records = [json.loads(line) for line in (tmp_path / "g" / "rounds.jsonl").read_text().splitlines()]
    assert len(records) > 1
    assert "debug" in records[0] and all("debug" not in r for r in records[1:])


class Marker(BaseAI):
    name = "marker"

    def choose(self, board: Board, level: Level, pose: Pose, hand: tuple[Card, ...]) -> tuple[Card, ...]:
        self.mark(pose.x, pose.y, "green", "here")
        self.arrow(pose.x, pose.y, 0, 0)
        self.note("thinking")
        self.mark(99, 99, "red")
        self.say("chose the first five")
        return hand[:5]


def test_a_built_in_ai_draws_marks_and_says_things_through_base_ai() -> None:
    recorder = TurnRecorder(Marker())
    play_game(load_board(CHOP), Level.HARD, generate_deck(25), recorder)
    turn = recorder.turns[0]
    assert turn.output == "chose the first five\n"
    assert [type(m).__name__ for m in turn.debug.marks] == ["TileMark", "Arrow", "TextLine"]
    assert turn.debug.problems == ("marker marks:4: tile 99 99 lies outside the 12x12 board: 'mark 99 99 red'",)
