"""Game files: written, read back, re-simulated; a file that contradicts the rules names round and bot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.tron.arena import parse_arena
from engine.tron.record import BotInfo, GameRecord, RoundRecord, load_game, parse_game, save_game, write_game

ARENA = parse_arena("GAMEBOARDSTART 4,2\n....\n....\nGAMEBOARDEND\nPOS 1 1,1 E\nPOS 2 4,2 W\n")


def _record() -> GameRecord:
    rounds = (
        RoundRecord({1: "AHEAD", 2: "AHEAD"}, {}, [], {1: 0.01, 2: 0.02}),
        RoundRecord({1: "AHEAD", 2: None}, {2: "answered 'UP', not LEFT, RIGHT or AHEAD"}, [2], {1: 0.01, 2: 0.0}),
        RoundRecord({1: "AHEAD"}, {}, [], {1: 0.01}),
        RoundRecord({1: "AHEAD"}, {}, [1], {1: 0.01}),
    )
    return GameRecord(ARENA, (BotInfo("one", ("./one",)), BotInfo("two", ("./two",))), rounds, 1.0)


def test_round_trip(tmp_path: Path) -> None:
    record = _record()
    path = tmp_path / "game.json"
    save_game(record, path)
    again = load_game(path)
    assert again.arena == record.arena
    assert again.bots == record.bots
    assert [r.answers for r in again.rounds] == [r.answers for r in record.rounds]
    assert again.survived() == [3, 1]
    assert again.points() == [3, 0]
    assert write_game(again) == path.read_text()
    assert again.reasons()[1] == "round 2: answered 'UP', not LEFT, RIGHT or AHEAD"
    assert again.reasons()[0] == "round 4: drove off the board"


def _edit(change: str) -> str:
    data = json.loads(write_game(_record()))
    exec(change, {"d": data})
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("d['rounds'][3]['out'] = []", "round 4, bot 1: the rules put it out, the file does not"),
        ("d['rounds'][0]['out'] = [2]", "round 1, bot 2: the file says it went out, the rules say it is still in"),
        ("d['rounds'][2]['answers']['2'] = 'LEFT'", "round 3, bot 2: it answers, but it is not in the game"),
        ("del d['rounds'][0]['answers']['1']", "round 1, bot 1: it is in the game but has no answer"),
        ("d['rounds'][0]['answers']['1'] = 'JUMP'", "round 1, bot 1: answer 'JUMP' is not LEFT, RIGHT or AHEAD"),
        ("del d['rounds'][1]['failures']", "round 2, bot 2: a failed answer needs its reason"),
        ("d['rounds'].pop()", "ends after round 3 with bots [1] still in the game"),
        ("d['rounds'].append(d['rounds'][-1])", "round 5: every bot is already out"),
        ("d['bots'][0]['points'] = 1", "bot 1: the file says points 1, the rules give 3"),
        ("d['format'] = 'robots-game'", "not a Tron game file"),
        ("d['arena'][1] = '..x.'", "in \"arena\", line 2: unknown field 'x'"),
        ("d['bots'].append({'name': 'three'})", "cannot host 3 bots"),
    ],
)
def test_contradicting_files_are_rejected(change: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_game(_edit(change), "game.json")
    assert message in str(caught.value)
    assert str(caught.value).startswith("game.json")


@pytest.mark.parametrize(
    ("change", "marker"),
    [
        ("d['rounds'][2]['answers']['1'] = 'JUMP'", '"JUMP"'),
        ("d['bots'][1]['points'] = 1717", "1717"),
        ("d['time_limit'] = 'soon'", '"soon"'),
    ],
)
def test_a_contradiction_is_named_at_its_line_and_column(change: str, marker: str) -> None:
    """A game file's errors named the file alone: the place is where the value is written."""
    data = json.loads(write_game(_record()))
    exec(change, {"d": data})
    text = json.dumps(data, indent=1)
    with pytest.raises(InputError) as caught:
        parse_game(text, "game.json")
    at = text.index(marker)
    line = text.count("\n", 0, at) + 1
    column = at - text.rfind("\n", 0, at)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert str(caught.value).startswith(f"game.json:{line}:{column}: ")


def test_not_json_names_line_and_column() -> None:
    with pytest.raises(InputError) as caught:
        parse_game('{\n "format": ,\n}', "g.json")
    assert (caught.value.line, caught.value.column) == (2, 12)


def test_replay_gives_every_state() -> None:
    states, events = _record().replay()
    assert len(states) == 5 and len(events) == 4
    assert (states[3].cycles[0].x, states[3].cycles[0].y) == (4, 1)


def test_a_game_file_that_is_not_utf8_is_refused_where_the_bytes_are(tmp_path: Path) -> None:
    """Read as Latin-1, FF FE in a key was "1:1: not a Tron game file" (the format key gone)."""
    path = tmp_path / "tron-game.json"
    save_game(_record(), path)
    lines = path.read_bytes().split(b"\n")
    lines[1] = lines[1][:2] + b"\xff\xfe" + lines[1][2:]
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(InputError) as info:
        load_game(path)
    assert str(info.value) == f"{path}:2:3: not UTF-8 text (byte 0xff): save it as UTF-8"
