"""``robots-ai`` end to end: per-user cache, warm rounds without numpy, --warm, damaged caches."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import plan_file
from engine.ai.contest_entry import main
from engine.ai.planner import forget_plans, plan_for
from engine.cards import Card
from engine.deck import generate_deck
from engine.model import Level
from engine.protocol import read_chosen, write_ai_inputs
from tests.planner.boards import CHOP, CORRIDOR, ROOT, chop

HAND = (Card.MF3, Card.MF2, Card.MF2, Card.MF3, Card.MF1, Card.RR, Card.MF3, Card.MF2)


@pytest.fixture
def game_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "game"
    folder.mkdir()
    write_ai_inputs(folder, CORRIDOR, HAND, CORRIDOR.start)
    monkeypatch.chdir(folder)
    monkeypatch.setenv(plan_file.CACHE_ENV, str(tmp_path / "cache"))
    forget_plans()
    return folder


def cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.plan"))


def test_default_cache_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(plan_file.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert plan_file.default_cache_dir() == tmp_path / "robots" / "planner"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert plan_file.default_cache_dir() == tmp_path / "home" / ".cache" / "robots" / "planner"


def test_writes_five_cards_and_caches_per_user(game_folder: Path) -> None:
    assert main(["normal"]) == 0
    chosen = read_chosen(game_folder)
    assert len(chosen) == 5 and not Counter(chosen) - Counter(HAND)
    assert chosen[0] is Card.RR or chosen[:2] == [Card.MF1, Card.RR]  # the hole is two tiles ahead
    assert not list(game_folder.glob(".robots*"))  # nothing left in the game folder
    assert len(cache_files(game_folder.parent / "cache")) == 1
    forget_plans()
    assert main(["normal"]) == 0 and read_chosen(game_folder) == chosen  # warm: same answer


def test_cache_dir_option(game_folder: Path, tmp_path: Path) -> None:
    assert main(["normal", "--cache-dir", str(tmp_path / "mine")]) == 0
    assert len(cache_files(tmp_path / "mine")) == 1
    assert not (game_folder.parent / "cache").exists()


def test_warm_path_equals_cold_path_and_imports_no_numpy(game_folder: Path, tmp_path: Path) -> None:
    board = chop()
    cache = tmp_path / "cache"
    plan = plan_for(board, Level.HARD, cache_dir=cache)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    probe = (
        "import sys; from engine.ai.contest_entry import main; code = main(['hard']); "
        "print(code, 'numpy' in sys.modules)"
    )
    for seed in range(6):
        deck = generate_deck(seed)
        hand = tuple(deck[:8])
        write_ai_inputs(game_folder, board, hand, board.start)
        done = subprocess.run([sys.executable, "-c", probe], cwd=game_folder, env=env, capture_output=True, text=True)
        assert done.stdout.split() == ["0", "False"], done.stderr
        assert read_chosen(game_folder) == plan.best(board.start, hand)


def test_numpy_free_ranking_equals_the_vectorised_one() -> None:
    from engine.ai import plan_choice
    from engine.ai.plan_table import CARD_INDEX
    from engine.model import Direction, Pose

    board = chop()
    plan = plan_for(board, Level.HARD, cache_dir=None)
    data = plan.to_data()
    deck = generate_deck(3)
    checked = 0
    for i in range(40):
        pose = Pose(i % board.width, (i * 7) % board.height, list(Direction)[i % 4])
        if (pose.x, pose.y) in board.goals:
            continue
        hand = deck[8 * i : 8 * i + 8]
        state = plan.state(pose)
        data = plan.to_data()
        slow = [choice.cards for choice in plan.rank(pose, hand)]
        fast = plan_choice.rank(
            data.next, data.goal, data.won, data.alive, data.states, state, [CARD_INDEX[c] for c in hand]
        )
        assert [tuple(list(Card)[k] for k in seq) for seq, _ in fast] == slow
        checked += 1
    assert checked > 30


def test_warm_option_builds_the_cache(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--warm", str(CHOP), "hard", "--cache-dir", str(tmp_path / "c")]) == 0
    assert "cached" in capsys.readouterr().out
    assert plan_file.load(tmp_path / "c", chop(), Level.HARD) is not None
    with pytest.raises(SystemExit):
        main(["--warm", str(CHOP), "insane"])
    assert main(["--warm", str(tmp_path / "missing.dat"), "hard"]) == 2


@pytest.mark.parametrize("blocker", ["folder", "fifo", "damaged", "file-as-cache-dir"])
def test_warm_says_when_it_cannot_write_the_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blocker: str
) -> None:
    """--warm used to print "cached ... converged" and exit 0 whenever something stood at the cache
    file's name, a damaged file included, so a contest's rounds all planned afresh."""
    cache = tmp_path / "c"
    cache.mkdir()
    path = plan_file.cache_path(cache, chop(), Level.HARD)
    if blocker == "folder":
        path.mkdir()
    elif blocker == "fifo":
        os.mkfifo(path)
    elif blocker == "damaged":  # a damaged file in a folder that cannot be written
        path.write_bytes(b"ROBOTS-PLAN 4\ntruncated")
        cache.chmod(0o500)
    else:
        cache.rmdir()
        cache.write_text("a file, not a folder")
    forget_plans()
    capsys.readouterr()
    try:
        code = main(["--warm", str(CHOP), "hard", "--cache-dir", str(cache)])
    finally:
        if blocker == "damaged":
            cache.chmod(0o700)
    captured = capsys.readouterr()
    if blocker == "damaged" and os.geteuid() == 0:  # root writes through the missing permission
        assert code == 0 and plan_file.load(cache, chop(), Level.HARD) is not None
        return
    assert code == 2 and "cached" not in captured.out
    err = captured.err.strip()
    assert err.count("\n") == 0 and err.startswith("robots-ai: ") and "error:" not in err, err
    if blocker == "file-as-cache-dir":
        assert f"{cache}: is a file, not a folder" in err, err
    else:
        assert f"could not write the cache file {path}: " in err, err


@pytest.mark.parametrize("limit", ["nan", "-5", "later"])
def test_warm_refuses_a_time_limit_that_is_not_seconds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], limit: str
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--warm", str(CHOP), "hard", "--cache-dir", str(tmp_path / "c"), f"--time-limit={limit}"])
    assert exc.value.code == 2
    assert "argument --time-limit: must be" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("folder", ["", "  "])
def test_an_empty_cache_dir_is_refused_not_the_current_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, folder: str
) -> None:
    """``--cache-dir "$UNSET"`` quietly cached plans in the current folder."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["--warm", str(CHOP), "hard", "--cache-dir", folder])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --cache-dir: must name a folder" in err
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_warm_is_one_line_and_leaves_the_cache_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C during a long --warm printed a traceback from inside the solver."""
    import signal

    from engine.ai import planner
    from engine.stopping import Stopped

    def stopped(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(planner, "plan_for", stopped)
    cache = tmp_path / "c"
    assert main(["--warm", str(CHOP), "hard", "--cache-dir", str(cache)]) == 130
    assert capsys.readouterr().err == "robots-ai: interrupted\n"
    assert not cache_files(cache)

    def terminated(*args: object, **kwargs: object) -> object:
        raise Stopped(signal.SIGTERM)

    monkeypatch.setattr(planner, "plan_for", terminated)
    assert main(["--warm", str(CHOP), "hard", "--cache-dir", str(cache)]) == 128 + signal.SIGTERM
    assert capsys.readouterr().err == "robots-ai: stopped by SIGTERM\n"


def test_stale_temporaries_of_killed_writers_are_removed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kill -9 between writing and renaming left ``.KEY.plan.RANDOM.tmp`` for good (tens of MB on
    big boards); the next write removes those a day old, and nothing else."""
    cache = tmp_path / "c"
    cache.mkdir()
    day = plan_file.STALE_SECONDS
    stale = cache / f".{plan_file.cache_key(chop(), Level.EASY)}.plan.0123456789ab.tmp"
    fresh = cache / f".{plan_file.cache_key(chop(), Level.NORMAL)}.plan.ba9876543210.tmp"
    other = cache / ".notes.txt.0123456789ab.tmp"  # not a plan's: not ours to remove
    for path in (stale, fresh, other):
        path.write_bytes(b"half a plan")
    old = os.stat(stale).st_mtime - day - 60
    for path in (stale, other):
        os.utime(path, (old, old))
    assert main(["--warm", str(CHOP), "hard", "--cache-dir", str(cache)]) == 0
    capsys.readouterr()
    assert not stale.exists() and fresh.exists() and other.exists()
    assert plan_file.load(cache, chop(), Level.HARD) is not None


def test_warm_takes_a_shipped_board_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no chop.dat here: the shipped one
    assert main(["--warm", "chop.dat", "easy", "--cache-dir", str(tmp_path / "c")]) == 0
    assert "cached chop.dat (easy)" in capsys.readouterr().out
    assert plan_file.load(tmp_path / "c", chop(), Level.EASY) is not None


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


def _header_edited(raw: bytes, edit: str) -> bytes:
    """``raw`` with its JSON header line changed by ``edit`` (the payload and its digest kept)."""
    import json

    start = raw.index(b"\n") + 1
    end = raw.index(b"\n", start)
    header = json.loads(raw[start:end])
    if edit == "nested":
        line = b"[" * 100_000
    else:
        if edit == "inf-width":
            header["width"] = float("inf")
        elif edit == "string-width":
            header["width"] = str(header["width"])
        elif edit == "inf-sweeps":
            header["report"]["sweeps"] = float("inf")
        elif edit == "text-sweeps":
            header["report"]["sweeps"] = "many"
        elif edit == "nan-seconds":
            header["report"]["seconds"] = float("nan")
        elif edit == "list-report":
            header["report"] = [1, 2]
        line = json.dumps(header).encode()
    return raw[:start] + line + raw[end:]


HEADER_EDITS = ["nested", "inf-width", "string-width", "inf-sweeps", "text-sweeps", "nan-seconds", "list-report"]


@pytest.mark.parametrize("damage", ["truncate", "flip", "key", "garbage", *HEADER_EDITS])
def test_damaged_cache_is_ignored_and_rewritten(game_folder: Path, damage: str) -> None:
    assert main(["normal"]) == 0
    expected = read_chosen(game_folder)
    cache = game_folder.parent / "cache"
    (path,) = cache_files(cache)
    raw = path.read_bytes()
    if damage == "truncate":
        raw = raw[:100]
    elif damage == "flip":
        raw = raw[:-9] + bytes([raw[-9] ^ 0xFF]) + raw[-8:]
    elif damage == "key":
        raw = raw.replace(plan_file.cache_key(CORRIDOR, Level.NORMAL).encode(), b"0" * 64)
    elif damage == "garbage":
        raw = b"\x00garbage"
    else:
        raw = _header_edited(raw, damage)
    path.write_bytes(raw)
    assert plan_file.load(cache, CORRIDOR, Level.NORMAL) is None
    forget_plans()
    assert main(["normal"]) == 0
    assert read_chosen(game_folder) == expected
    assert plan_file.load(cache, CORRIDOR, Level.NORMAL) is not None
    assert plan_file.cache_key(CORRIDOR, Level.HARD) != plan_file.cache_key(CORRIDOR, Level.NORMAL)


@pytest.mark.parametrize("edit", HEADER_EDITS)
def test_a_hand_edited_header_sends_warm_to_rebuild_the_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: str
) -> None:
    """The full path (``--warm``, options) reads the report too: an edited one is ignored, not a crash."""
    cache = tmp_path / "c"
    assert main(["--warm", str(CHOP), "hard", "--cache-dir", str(cache)]) == 0
    (path,) = cache_files(cache)
    path.write_bytes(_header_edited(path.read_bytes(), edit))
    forget_plans()
    capsys.readouterr()
    assert main(["--warm", str(CHOP), "hard", "--cache-dir", str(cache)]) == 0
    assert "cached" in capsys.readouterr().out
    assert plan_file.load(cache, chop(), Level.HARD) is not None


def test_a_fifo_or_an_oversized_cache_file_is_ignored(game_folder: Path, tmp_path: Path) -> None:
    """A cache file is read only if it is a regular file of at most MAX_FILE_BYTES: a FIFO with no
    writer held the entry until the contest's timeout, and /dev/zero or a huge file ate memory."""
    from tests.fifo_guard import never_stuck_on

    cache = tmp_path / "cache"
    assert main(["normal"]) == 0
    expected = read_chosen(game_folder)
    (path,) = cache_files(cache)
    key = plan_file.cache_key(CORRIDOR, Level.NORMAL)
    path.unlink()
    os.mkfifo(path)
    with never_stuck_on(path):
        assert plan_file.load_keyed(cache, key) is None
        forget_plans()
        assert main(["normal"]) == 0  # planned afresh (the FIFO is not replaced)
    assert read_chosen(game_folder) == expected
    path.unlink()
    with path.open("wb") as file:  # sparse: no disk space used
        file.truncate(plan_file.MAX_FILE_BYTES + 1)
    assert plan_file.load_keyed(cache, key) is None
    forget_plans()
    assert main(["normal"]) == 0
    assert read_chosen(game_folder) == expected
    assert plan_file.load(cache, CORRIDOR, Level.NORMAL) is not None  # rewritten


def _tiny_plan() -> bytes:
    """A sound plan file of a 1 x 1 board (6 states), as ``plan_file.encode`` writes it."""
    from array import array

    states = 1 * 1 * 4 + 2
    data = plan_file.PlanData(
        1,
        1,
        array("i", [0] * (plan_file.KINDS * states)),
        array("d", [0.5] * states),
        array("d", [0.25] * states),
        array("d", [1.0] * states),
        array("B", [1] * states),
        {"converged": True},
    )
    return plan_file.encode("k", data)


@settings(max_examples=300, deadline=None)
@given(
    edits=st.lists(
        st.tuples(
            st.integers(0, 400),
            st.integers(0, 4),
            st.sampled_from([b"", b"[" * 2000, b"9" * 4400, b"1e400", b"NaN", b'"', b"\n", b"\xff", b"-1", b"{}"])
            | st.binary(max_size=8),
        ),
        max_size=4,
    )
)
def test_fuzz_a_damaged_plan_file_is_none_never_an_error(edits: list[tuple[int, int, bytes]]) -> None:
    """The cache is a file anyone can damage: reading it gives a plan or None (rebuilt), never a crash."""
    raw = _tiny_plan()
    assert plan_file.decode(raw, "k") is not None
    for at, cut, piece in edits:
        raw = raw[:at] + piece + raw[at + cut :]
    data = plan_file.decode(raw, "k")
    assert data is None or data.states == 6


def test_cache_file_limit_is_the_engine_input_limit() -> None:
    from engine.bounds import MAX_BOARD_TILES, MAX_FILE_BYTES

    assert plan_file.MAX_FILE_BYTES == MAX_FILE_BYTES
    states = MAX_BOARD_TILES * 4 + 2  # the biggest board's plan still fits
    assert 200 + states * (4 * plan_file.KINDS + 8 + 8 + 8 + 1) < MAX_FILE_BYTES


def test_unwritable_cache_still_answers(game_folder: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["normal", "--cache-dir", str(blocker / "sub")]) == 0
    assert len(read_chosen(game_folder)) == 5


@pytest.mark.parametrize(
    ("files", "args", "fragment"),
    [
        ({"cards.txt": "MF 1\nXX\n"}, ["hard"], "cards.txt:2:1"),
        ({"cards.txt": "MF 1\nMF 2\n"}, ["hard"], "cards.txt:3:1: expected 8 cards, found 2"),  # had no place
        ({"cards.txt": "MF 1\n\n" + "MB\n" * 8}, ["hard"], "cards.txt:10:1: expected 8 cards, found 9"),
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


@pytest.mark.parametrize("name", ["board.txt", "cards.txt", "bot.txt"])
def test_a_fifo_instead_of_an_input_file_is_a_one_line_error(
    game_folder: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Both the warm path and the full one open only regular files: a FIFO no one writes would
    otherwise hold the entry until the contest's timeout kills it, without a word."""
    from tests.fifo_guard import never_stuck_on

    (game_folder / name).unlink()
    os.mkfifo(game_folder / name)
    with never_stuck_on(game_folder / name):
        code = main(["hard"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.count("\n") == 0 and f"{name}: is a FIFO (named pipe), not a regular file" in err, err
    assert not (game_folder / "ccards.txt").exists()


def test_bad_level_exits_non_zero(game_folder: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["impossible"])
    assert exc.value.code != 0
    with pytest.raises(SystemExit):
        main([])


def test_a_whole_game_through_the_protocol(game_folder: Path) -> None:
    deck = generate_deck(2)
    from engine.game import play_game

    def via_files(board: object, level: Level, pose: object, hand: tuple[Card, ...]) -> list[Card]:
        write_ai_inputs(game_folder, CORRIDOR, hand, pose)  # type: ignore[arg-type]
        assert main([level.value]) == 0
        return read_chosen(game_folder)

    game = play_game(CORRIDOR, Level.HARD, deck, via_files)
    assert game.outcome is not None and game.outcome.value == "Z"


def test_cold_round_stops_at_its_limit_and_warm_finishes_the_plan(
    game_folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from engine.ai import contest_entry

    monkeypatch.setattr(contest_entry, "COLD_LIMIT", 0.0)
    board = chop()
    write_ai_inputs(game_folder, board, tuple(generate_deck(4)[:8]), board.start)
    assert main(["hard"]) == 0
    assert "--warm board.txt hard" in capsys.readouterr().err
    cache = game_folder.parent / "cache"
    partial = plan_file.load(cache, board, Level.HARD)
    assert partial is not None and partial.report["converged"] is False
    assert main(["hard"]) == 0 and len(read_chosen(game_folder)) == 5  # the partial plan still plays
    forget_plans()
    assert main(["--warm", str(CHOP), "hard"]) == 0
    assert "converged" in capsys.readouterr().out
    finished = plan_file.load(cache, board, Level.HARD)
    assert finished is not None and finished.report["converged"] is True
    assert finished.goal[plan_for(board, Level.HARD, cache_dir=None).state(board.start)] > 0.99


#: Modules a warm round may load beyond those the interpreter had when it started (today 18:
#: the plan modules, hashlib, json, array, math, engine.atomic); generous, so that only a real
#: regression (the engine's model, argparse, dataclasses, numpy) fails it.
WARM_IMPORT_BOUND = 40


def test_warm_round_imports_neither_numpy_nor_the_engine_model(game_folder: Path, tmp_path: Path) -> None:
    board = chop()
    plan_for(board, Level.HARD, cache_dir=tmp_path / "cache")
    write_ai_inputs(game_folder, board, tuple(generate_deck(5)[:8]), board.start)
    probe = (
        "import sys; before = set(sys.modules); from engine.ai.contest_entry import main; code = main(['hard']); "
        "print(code); print(*sorted(set(sys.modules) - before))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], cwd=game_folder, env=env, capture_output=True, text=True)
    code, loaded = done.stdout.splitlines()
    assert code == "0", done.stderr
    modules = set(loaded.split())
    assert "engine.ai.warm_round" in modules
    heavy = {"numpy", "numba", "engine.model", "engine.rules", "engine.cards", "argparse", "dataclasses", "tempfile"}
    assert not modules & heavy, modules & heavy
    assert len(modules) <= WARM_IMPORT_BOUND, sorted(modules)


def test_warm_round_constants_match_the_engine() -> None:
    from engine.ai import plan_choice, warm_round
    from engine.cards import CHOSEN_PER_ROUND, HAND_SIZE
    from engine.model import Direction

    assert tuple(card.value for card in Card) == warm_round.CARD_TEXTS
    assert "".join(d.value for d in Direction) == warm_round.FACINGS
    assert tuple(level.value for level in Level) == warm_round.LEVELS
    assert warm_round.HAND_SIZE == HAND_SIZE and plan_choice.CHOSEN_PER_ROUND == CHOSEN_PER_ROUND


def test_warm_round_answers_as_the_full_path_or_hands_over(game_folder: Path, tmp_path: Path) -> None:
    from engine.ai import warm_round
    from engine.ai.contest_entry import full_main
    from engine.model import Direction, Pose

    board = chop()
    plan_for(board, Level.HARD, cache_dir=tmp_path / "cache")
    deck = generate_deck(6)
    answered = 0
    for i in range(30):
        pose = Pose((i * 5) % board.width, (i * 7) % board.height, list(Direction)[i % 4])
        write_ai_inputs(game_folder, board, tuple(deck[8 * i : 8 * i + 8]), pose)
        quick = warm_round.answer(["hard"])
        if quick:
            answered += 1
            fast = read_chosen(game_folder)
            (game_folder / "ccards.txt").unlink()
            assert full_main(["hard"]) == 0 and read_chosen(game_folder) == fast
    assert answered >= 15  # poses off the board, in holes or never iterated hand over; most answer
    write_ai_inputs(game_folder, board, tuple(deck[:8]), board.start)
    assert warm_round.answer(["hard", "--cache-dir", str(tmp_path / "cache")])
    assert not warm_round.answer(["normal"])  # no plan for that level: the full path builds it
    for args in (["hard", "--budget", "2"], ["--cache-dir", "-x", "hard"], ["hard", "hard"], []):
        assert not warm_round.answer(args), args
    originals = {name: (game_folder / name).read_text() for name in ("board.txt", "cards.txt", "bot.txt")}
    changes = {
        "board.txt": originals["board.txt"].replace("\n", "\r\n"),  # same board, not canonical
        "cards.txt": "\n" + originals["cards.txt"],
        "bot.txt": " " + originals["bot.txt"],
    }
    for name, text in changes.items():
        (game_folder / name).write_text(text, newline="")
        assert not warm_round.answer(["hard"]), name
        assert main(["hard"]) == 0 and read_chosen(game_folder) == plan_for(board, Level.HARD).best(
            board.start, deck[:8]
        )
        (game_folder / name).write_text(originals[name], newline="")


@pytest.mark.parametrize("blocker", ["fifo", "folder"])
def test_an_answer_file_in_the_way_is_named_without_errno_noise(
    game_folder: Path, capsys: pytest.CaptureFixture[str], blocker: str
) -> None:
    """Something not a file at ``ccards.txt`` read "[Errno 17] is a FIFO ...: '/path/ccards.txt'"
    (the OSError's repr); now the file first, then the reason, as every other command says it."""
    answer = game_folder / "ccards.txt"
    if blocker == "fifo":
        os.mkfifo(answer)
    else:
        answer.mkdir()
    code = main(["hard"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.count("\n") == 0, err
    assert err.startswith(f"robots-ai: {answer}: "), err
    assert "[Errno" not in err and "'" not in err, err


def test_a_plan_file_is_written_again_to_the_same_bytes() -> None:
    """``encode`` and ``decode`` are a writer and its parser: a sound file reads back into what
    writes it again, byte for byte (a real plan's too, with values other than the tiny one's)."""
    raw = _tiny_plan()
    data = plan_file.decode(raw, "k")
    assert data is not None and plan_file.encode("k", data) == raw
    key = plan_file.cache_key(CORRIDOR, Level.NORMAL)
    real = plan_file.encode(key, plan_for(CORRIDOR, Level.NORMAL).to_data())
    again = plan_file.decode(real, key)
    assert again is not None and plan_file.encode(key, again) == real
