"""Every way an external AI can fail ends the game as an AI error with a clear one-line message."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine.ai.external import ExternalAI, run_ai_once
from engine.boardfile import load_board
from engine.cards import Card
from engine.deck import generate_deck
from engine.game import AIError, Outcome, play_game
from engine.model import Direction, Level, Pose
from engine.protocol import read_ai_inputs, write_ai_inputs

from .conftest import CHOP, ScriptMaker, is_alive, wait_gone

HAND = (Card.MF1, Card.MF2, Card.RL, Card.RR, Card.MB, Card.MF3, Card.RU, Card.MF1)

# name, script body, pattern expected in the AIError message
FAILURES: list[tuple[str, str, str]] = [
    ("crash", "kill -SEGV $$\n", r"crashed \(SIGSEGV\)"),
    ("exit3", "echo 'something went wrong' >&2\nexit 3\n", r"exited with status 3; last output: something went wrong"),
    ("no_answer", "echo thinking\n", r"wrote no ccards\.txt; last output: thinking"),
    ("garbage", "printf 'hello\\nworld\\n' > ccards.txt\n", r"malformed ccards\.txt: .* \(line 1\)"),
    ("binary", "head -c 200 /dev/urandom > ccards.txt\n", r"malformed ccards\.txt"),
    # The count names the file: "chose 4 cards" alone did not say where to look.
    (
        "four_cards",
        "head -n 4 cards.txt > ccards.txt\n",
        r"wrote 4 cards to ccards\.txt, must write exactly 5, one a line",
    ),
    (
        "six_cards",
        "head -n 6 cards.txt > ccards.txt\n",
        r"wrote 6 cards to ccards\.txt, must write exactly 5, one a line",
    ),
    ("empty", ": > ccards.txt\n", r"wrote an empty ccards\.txt: it must hold 5 cards, one a line$"),
    (
        "printed_cards",
        "head -n 5 cards.txt\n",
        r"wrote no ccards\.txt; last output: MB \(the cards go into the file ccards\.txt, one a line, not to the",
    ),
    # A program that printed its cards and then failed is told why it failed, not where cards go.
    ("printed_then_exit1", "head -n 5 cards.txt\nexit 1\n", r"exited with status 1; last output: MB$"),
    (
        "not_in_hand",
        "printf 'MF 3\\nMF 3\\nMF 3\\nMF 3\\nMF 3\\n' > ccards.txt\n",
        r"chose cards not in the hand: 'MF 3'",
    ),
]


def run_chooser(program: Path, timeout: float = 10.0, log: Path | None = None) -> list[Card]:
    board = load_board(CHOP)
    with ExternalAI(program, timeout=timeout, log_path=log) as ai:
        return ai(board, Level.HARD, board.start, HAND)


@pytest.mark.parametrize(("name", "body", "pattern"), FAILURES, ids=[f[0] for f in FAILURES])
def test_failure_is_ai_error(make_script: ScriptMaker, name: str, body: str, pattern: str) -> None:
    program = make_script(name, body)
    with pytest.raises(AIError, match=pattern) as info:
        run_chooser(program)
    message = str(info.value)
    assert "\n" not in message
    assert str(program) in message


def test_program_not_found(tmp_path: Path) -> None:
    with pytest.raises(AIError, match=r"AI program not found: .*nothing-here"):
        run_chooser(tmp_path / "nothing-here")


def test_program_not_executable(tmp_path: Path) -> None:
    program = tmp_path / "plain.sh"
    program.write_text("#!/bin/sh\nhead -n 5 cards.txt > ccards.txt\n")
    with pytest.raises(AIError, match="not executable"):
        run_chooser(program)


def test_no_shebang_is_clean_error(tmp_path: Path) -> None:
    program = tmp_path / "binary"
    program.write_bytes(b"\x7fELF garbage that is not a program")
    program.chmod(0o755)
    with pytest.raises(AIError, match="cannot start AI program"):
        run_chooser(program)


def test_hang_is_killed_with_its_children(make_script: ScriptMaker, tmp_path: Path) -> None:
    marker = tmp_path / "child.pid"
    # The program starts a child that would outlive it, then hangs itself.
    program = make_script("hang", f"sleep 2345.81 &\necho $! > {marker}\nexec sleep 2345.82\n")
    started = time.monotonic()
    with pytest.raises(AIError, match=r"timed out after 2 s \(killed\)"):
        run_chooser(program, timeout=2)  # long enough for the child to be started on a loaded machine
    # Not waiting for the program or its child, which hold its output (39 minutes), only guards a hang.
    assert time.monotonic() - started < 600
    assert wait_gone(int(marker.read_text())), "the hanging program's child outlived it"


def test_closing_output_then_hanging_is_timeout(make_script: ScriptMaker) -> None:
    program = make_script("closer", "exec >/dev/null 2>&1\nhead -n 5 cards.txt > ccards.txt\nsleep 30\n")
    with pytest.raises(AIError, match="timed out"):
        run_chooser(program, timeout=0.5)


def test_huge_output_is_stopped_and_log_capped(make_script: ScriptMaker, tmp_path: Path) -> None:
    # 50 MB of output, then a valid answer: the flood alone is the error.
    program = make_script("flood", "head -c 52428800 /dev/zero | tr '\\0' x\nhead -n 5 cards.txt > ccards.txt\n")
    log = tmp_path / "ai.log"
    with pytest.raises(AIError, match="wrote more than 8388608 bytes of output"):
        run_chooser(program, log=log)
    assert log.stat().st_size < 100 * 1024
    assert "bytes of output left out" in log.read_text()


def test_chatty_program_is_fine_and_logged(make_script: ScriptMaker, tmp_path: Path) -> None:
    program = make_script("chatty", "echo 'level is' $1\necho oops >&2\nhead -n 5 cards.txt > ccards.txt\n")
    log = tmp_path / "ai.log"
    assert run_chooser(program, log=log) == list(HAND[:5])
    text = log.read_text()
    assert "level is hard" in text and "oops" in text and "exit 0" in text


def test_stale_answer_is_removed(make_script: ScriptMaker, tmp_path: Path) -> None:
    workdir = tmp_path / "work"
    workdir.mkdir()
    (workdir / "ccards.txt").write_text("MF 1\nMF 1\nMF 1\nMF 1\nMF 1\n")
    program = make_script("silent", "true\n")
    with pytest.raises(AIError, match=r"wrote no ccards\.txt"):
        run_ai_once(program, workdir, Level.EASY)


def test_ai_error_ends_game_with_outcome_e(make_script: ScriptMaker) -> None:
    program = make_script("exit3", "exit 3\n")
    board = load_board(CHOP)
    with ExternalAI(program) as ai:
        game = play_game(board, Level.HARD, generate_deck(1), ai)
    assert game.outcome is Outcome.AI_ERROR
    assert game.error is not None and game.error.startswith("round 1: AI ")
    assert not game.rounds


def test_background_process_is_killed_when_the_answer_is_given(make_script: ScriptMaker, tmp_path: Path) -> None:
    """A program that leaves a child behind (holding its output open) still answers in time; the child dies."""
    marker = tmp_path / "child.pid"
    program = make_script("daemon", f"sleep 30 &\necho $! > {marker}\nhead -n 5 cards.txt > ccards.txt\nexit 0\n")
    # Were it to wait for the child holding its output (30 s), the 20 s time limit would fail the run.
    assert run_chooser(program, timeout=20) == list(HAND[:5])
    assert not is_alive(int(marker.read_text()))


def test_setsid_child_is_killed_too(make_script: ScriptMaker, tmp_path: Path) -> None:
    """A child in a session of its own escapes a process-group kill, not the subreaper."""
    marker = tmp_path / "child.pid"
    program = make_script(
        "escaper",
        f"setsid sh -c 'echo $$ > {marker}; exec sleep 30' </dev/null >/dev/null 2>&1 &\n"
        f"while [ ! -s {marker} ]; do sleep 0.01; done\nhead -n 5 cards.txt > ccards.txt\n",
    )
    assert run_chooser(program, timeout=20) == list(HAND[:5])
    assert not is_alive(int(marker.read_text()))


def test_scratch_folder_is_fresh_each_round(make_script: ScriptMaker, tmp_path: Path) -> None:
    """Links, locked folders and files left in round 1 are gone in round 2; the engine writes only there."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    seen = tmp_path / "seen.log"
    program = make_script(
        "planter",
        f"ls -A >> {seen}\necho ---- >> {seen}\nhead -n 5 cards.txt > ccards.txt\n"
        f"for f in board.txt cards.txt bot.txt; do rm -f $f; ln -s {victim} $f; done\n"
        "mkdir -p locked; touch locked/file 2>/dev/null; chmod 000 locked; chmod 500 .\n",
    )
    board = load_board(CHOP)
    with ExternalAI(program) as ai:
        for _ in range(3):
            assert ai(board, Level.HARD, board.start, HAND) == list(HAND[:5])
        last = ai.workdir
    assert victim.read_text() == "keep me\n" and not last.exists()
    first = "board.txt\nbot.txt\ncards.txt\n----\n"
    # Its folder is carried over as a note; the links it planted are not (the inputs are new files).
    assert seen.read_text() == first + "board.txt\nbot.txt\ncards.txt\nlocked\n----\n" * 2


def test_engine_write_failure_is_not_blamed_on_the_ai(
    make_script: ScriptMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import os

    program = make_script("fine", "head -n 5 cards.txt > ccards.txt\n")
    real_open = os.open

    def full(path: str, flags: int, mode: int = 0o777) -> int:
        if str(path).endswith("cards.txt"):
            raise OSError(errno.ENOSPC, "No space left on device", path)
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", full)
    with pytest.raises(OSError, match="cannot write the AI's input files: No space left") as info:
        run_chooser(program)
    assert not isinstance(info.value, AIError)


@pytest.mark.parametrize(
    ("name", "body", "limits", "pattern"),
    [
        ("memory", "python:bytearray(600 * 1024 * 1024)\n", "memory=200", r"exited with status 1.*MemoryError"),
        ("file", "head -n 5 cards.txt > ccards.txt\nexec head -c 3000000 /dev/zero > big\n", "file-size=1", "SIGXFSZ"),
        ("cpu", "while :; do :; done\n", "cpu=1", "SIGXCPU|SIGKILL"),
    ],
)
def test_resource_limits_end_the_program(
    make_script: ScriptMaker, name: str, body: str, limits: str, pattern: str
) -> None:
    from engine.ai.supervise import AILimits

    program = make_script(name, body)
    board = load_board(CHOP)
    with ExternalAI(program, timeout=60, limits=AILimits.parse([limits])) as ai, pytest.raises(AIError, match=pattern):
        ai(board, Level.HARD, board.start, HAND)


def test_inputs_are_exactly_what_write_ai_inputs_writes(make_script: ScriptMaker, tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    seen.mkdir()
    program = make_script("copier", f"cp board.txt cards.txt bot.txt '{seen}/'\nhead -n 5 cards.txt > ccards.txt\n")
    expected = tmp_path / "expected"
    expected.mkdir()
    board = load_board(CHOP)
    pose = Pose(3, 4, Direction.LEFT)
    with ExternalAI(program) as ai:
        for hand in (HAND, tuple(reversed(HAND))):
            ai(board, Level.NORMAL, pose, hand)
            write_ai_inputs(expected, board, hand, pose)
            for name in ("board.txt", "cards.txt", "bot.txt"):
                assert (seen / name).read_bytes() == (expected / name).read_bytes()
    assert read_ai_inputs(seen) == (board, list(reversed(HAND)), pose)


def test_missing_workdir_is_named(make_script: ScriptMaker, tmp_path: Path) -> None:
    program = make_script("fine", "head -n 5 cards.txt > ccards.txt\n")
    with pytest.raises(AIError, match=r"working directory .*gone does not exist"):
        run_ai_once(program, tmp_path / "gone", Level.HARD)


def test_run_ai_once_in_prepared_folder_like_engine_start(make_script: ScriptMaker, tmp_path: Path) -> None:
    """What ``robots-engine start`` does: inputs written by the caller, level as a word, log overwritten."""
    program = make_script("bot-ki", 'echo "args: $*"\nhead -n 5 cards.txt > ccards.txt\n')
    board = load_board(CHOP)
    write_ai_inputs(tmp_path, board, HAND, board.start)
    log = tmp_path / "bot-ki.log"
    for _ in range(2):
        assert run_ai_once([str(program)], tmp_path, "normal", 5.0, log) == list(HAND[:5])
    assert log.read_text().count("args: normal") == 1


def test_kill_running_ais_removes_scratch_folders(make_script: ScriptMaker) -> None:
    from engine.ai.external import kill_running_ais

    board = load_board(CHOP)
    ai = ExternalAI(make_script("fine", "head -n 5 cards.txt > ccards.txt\n"))
    ai(board, Level.HARD, board.start, HAND)
    folder = ai.workdir
    assert folder.is_dir()
    kill_running_ais()
    assert not folder.exists()
    ai.close()


def test_last_output_in_message_is_printable(make_script: ScriptMaker) -> None:
    program = make_script("ansi", "printf 'fine\\n\\033[31mfatal\\013 error\\342\\200\\250 here\\n' >&2\nexit 1\n")
    with pytest.raises(AIError) as info:
        run_chooser(program)
    message = str(info.value)
    assert message.isprintable() and len(message.splitlines()) == 1
    assert "fatal" in message and "here" in message


def test_carry_notes_copies_only_regular_files_and_folders(tmp_path: Path) -> None:
    import os

    from engine.ai.external import carry_notes

    old, new = tmp_path / "old", tmp_path / "new"
    (old / "sub").mkdir(parents=True)
    new.mkdir()
    (old / "notes.txt").write_text("plan")
    (old / "sub" / "deep.txt").write_text("deeper")
    (old / "ccards.txt").write_text("stale answer")
    (old / "link").symlink_to(tmp_path / "outside.txt")
    os.mkfifo(old / "pipe")
    carry_notes(old, new)
    names = sorted(str(p.relative_to(new)) for p in new.rglob("*"))
    assert names == ["notes.txt", "sub", "sub/deep.txt"]
    assert (new / "sub" / "deep.txt").read_text() == "deeper"
    assert not (tmp_path / "outside.txt").exists()


def test_a_flood_is_quoted_in_at_most_80_characters(make_script: ScriptMaker) -> None:
    """A flooding AI's error quoted ~200 characters of its last line into results.csv and the table."""
    program = make_script("long_line", "head -c 5000 /dev/zero | tr '\\0' x\necho\nexit 3\n")
    with pytest.raises(AIError, match=r"exited with status 3; last output: x+\.\.\.x+$") as info:
        run_chooser(program)
    quoted = str(info.value).split("last output: ", 1)[1]
    assert len(quoted) <= 80


def test_a_long_last_line_keeps_its_end_where_the_reason_is() -> None:
    """Cut at 80 characters from its start, a shell's 'PATH: 0: Cannot fork' under a long path lost
    'Cannot fork' (the fork-bomb test of the hostile kit failed on it)."""
    from engine.ai.output import last_line

    path = "/tmp/pytest-of-someone/pytest-1568/test_process_limit_stops_a_fork0/bomb"
    line = last_line(f"started\n{path}: 0: Cannot fork\n".encode())
    assert len(line) == 80 and line.startswith("/tmp/pytest-of-some") and line.endswith("bomb: 0: Cannot fork")
    assert "..." in line
    assert last_line(b"short reason\n\n") == "short reason"
