"""The server speaks the contest's protocol exactly and supervises bot programs like the robots AIs."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.tron.arena import parse_arena
from engine.tron.cli import bot_spec
from engine.tron.server import play_game

Scripted = Callable[..., tuple[str, Path]]

ARENA = parse_arena("GAMEBOARDSTART 4,2\n....\n....\nGAMEBOARDEND\nPOS 1 1,1 EAST\nPOS 2 4,2 W\n")


def test_exact_conversation_and_end_for_out_bots(scripted: Scripted) -> None:
    one, log_one = scripted("AHEAD", "AHEAD", "AHEAD", "RIGHT")
    two, log_two = scripted("AHEAD", "LEFT")
    transcript = io.StringIO()
    record, _ = play_game(ARENA, [bot_spec(one), bot_spec(two)], transcript=transcript)
    # round 1: 1 -> 2,1; 2 -> 3,2.  round 2: 1 -> 3,1; 2 turns LEFT (south) off the board.
    # rounds 3, 4: bot 1 alone: 4,1 then RIGHT (south) to 4,2, which bot 2 started on: out.
    assert log_two.read_text() == (
        "GAMEBOARDSTART 4,2\n....\n....\nGAMEBOARDEND\nSET 2\n"
        "POS 1 1,1 EAST\nPOS 2 4,2 WEST\nROUND 1\n"
        "POS 1 2,1 EAST\nPOS 2 3,2 WEST\nROUND 2\n"
        "END\n"
    )
    assert log_one.read_text() == (
        "GAMEBOARDSTART 4,2\n....\n....\nGAMEBOARDEND\nSET 1\n"
        "POS 1 1,1 EAST\nPOS 2 4,2 WEST\nROUND 1\n"
        "POS 1 2,1 EAST\nPOS 2 3,2 WEST\nROUND 2\n"
        "OUT 2\n"
        "POS 1 3,1 EAST\nROUND 3\n"
        "POS 1 4,1 EAST\nROUND 4\n"
        "END\n"
    )
    assert [r.outs for r in record.rounds] == [[], [2], [], [1]]
    assert record.survived() == [3, 1]
    assert record.points() == [3, 0]
    assert transcript.getvalue().count(">2 END") == 1


def test_answers_tolerate_white_space_and_carriage_returns(scripted: Scripted) -> None:
    one, _ = scripted("__AHEADCR", "RIGHT")
    two, _ = scripted("AHEAD", "AHEAD")
    record, _ = play_game(ARENA, [bot_spec(one), bot_spec(two)])
    assert record.rounds[0].answers == {1: "AHEAD", 2: "AHEAD"}


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("UP", "answered 'UP', not LEFT, RIGHT or AHEAD"),
        ("left", "answered 'left'"),
        ("EXIT", "ended without answering: closed its output (exited with status 3)"),
        ("HANG", "no answer within 0.3 s (killed)"),
        ("FLOOD", "line longer than 4096 bytes"),
    ],
)
def test_misbehaving_bot_is_out_with_a_reason_and_the_game_goes_on(
    scripted: Scripted, answer: str, reason: str
) -> None:
    bad, _ = scripted(answer)
    good, good_log = scripted("AHEAD", "AHEAD", "AHEAD")
    record, _ = play_game(ARENA, [bot_spec(bad), bot_spec(good)], time_limit=0.3, startup=0.0)
    assert record.rounds[0].answers[1] is None
    assert reason in record.rounds[0].failures[1]
    assert record.rounds[0].outs == [1]
    assert record.points() == [0, 3]
    assert good_log.read_text().splitlines()[-1] == "END"


def test_a_late_bot_is_told_its_time_limit(scripted: Scripted) -> None:
    """The limit was counted from after the questions were written: 'no answer within -5.66e-06 s'."""
    bad, _ = scripted("HANG")
    good, _ = scripted("HANG")
    record, _ = play_game(ARENA, [bot_spec(bad), bot_spec(good)], time_limit=1e-6, startup=0.0)
    said = "no answer within 1e-06 s (killed); it has written nothing at all yet: does it flush its output after each line?"
    assert record.rounds[0].failures == {p: said for p in (1, 2)}


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a killed zombie waiting for its new parent to reap it does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def test_a_late_bot_and_everything_it_started_are_killed(scripted: Scripted) -> None:
    bad, log = scripted("CHILD")
    good, _ = scripted("AHEAD")
    record, processes = play_game(ARENA, [bot_spec(bad), bot_spec(good)], time_limit=0.5, startup=0.0)
    assert "no answer within" in record.rounds[0].failures[1]
    child = int(Path(str(log) + ".child").read_text())
    assert not _alive(child)
    assert all(p.process is not None and p.process.returncode is not None for p in processes)


def test_what_a_bot_leaves_in_a_session_of_its_own_is_killed_with_it(scripted: Scripted) -> None:
    """A setsid child escaped the bot's process group: it ran on after the game (and a tournament)."""
    leaver, log = scripted("ORPHAN")
    good, _ = scripted("AHEAD")
    record, _ = play_game(ARENA, [bot_spec(leaver), bot_spec(good)])
    assert record.rounds[0].failures == {}
    child = int(Path(str(log) + ".child").read_text())
    assert not _alive(child), "the bot's child outlived the game"


def test_a_program_that_cannot_start_is_out_in_round_one(tmp_path: Path, scripted: Scripted) -> None:
    good, _ = scripted("AHEAD")
    missing = tmp_path / "no-such-bot"
    text = tmp_path / "not-executable"
    text.write_text("hello")
    for bad, words in ((missing, "not found"), (text, "not executable")):
        record, _ = play_game(ARENA, [bot_spec(str(bad)), bot_spec(good)])
        assert words in record.rounds[0].failures[1]


def test_why_a_program_cannot_start_names_the_cause(tmp_path: Path, scripted: Scripted) -> None:
    """A missing interpreter said only 'program not found' for a file that is there, a folder was
    told to chmod +x, and the hints named the robots AIs' --ai option, which robots-tron has not."""
    good, _ = scripted("AHEAD")
    shebang = tmp_path / "bot.sh"
    shebang.write_text("#!/no/such/interpreter\n")
    shebang.chmod(0o755)
    script = tmp_path / "bot.py"
    script.write_text("print('AHEAD')\n")
    cases = (
        (shebang, "program not found: ", "its '#!' line names /no/such/interpreter, which does not exist"),
        (tmp_path, "program is not executable: ", "(it is a folder, not a program)"),
        (script, "program is not executable: ", f"name the interpreter: 'python3 {script}'"),
    )
    for bad, start, cause in cases:
        record, _ = play_game(ARENA, [bot_spec(str(bad)), bot_spec(good)])
        failure = record.rounds[0].failures[1]
        assert failure.startswith(start + str(bad)) and cause in failure
        assert "--ai" not in failure and "chmod" not in failure.replace(f"chmod +x {script}", "")


def test_stderr_is_kept_and_capped(tmp_path: Path) -> None:
    noisy = tmp_path / "noisy.sh"
    noisy.write_text(
        "#!/bin/sh\nhead -c 200000 /dev/zero | tr '\\\\0' e >&2\nwhile read l; do case $l in ROUND*) echo AHEAD;; END) exit 0;; esac; done\n"
    )
    noisy.chmod(0o755)
    record, processes = play_game(ARENA, [bot_spec(str(noisy)), bot_spec(str(noisy))])
    assert processes[0].stderr.total == 200000
    assert b"bytes of output left out" in processes[0].stderr.data()
    assert record.rounds[0].failures == {}


def test_much_error_output_over_a_game_does_not_put_a_bot_out(tmp_path: Path) -> None:
    """Error output is the bot's log; past 8 MiB (a board dump a round, 200 rounds) it was killed."""
    noisy = tmp_path / "noisy.sh"
    noisy.write_text(
        "#!/bin/sh\nhead -c 9000000 /dev/zero >&2\nwhile read l; do case $l in ROUND*) echo AHEAD;; END) exit 0;; esac; done\n"
    )
    noisy.chmod(0o755)
    record, processes = play_game(ARENA, [bot_spec(str(noisy)), bot_spec(str(noisy))])
    assert processes[0].stderr.total == 9000000
    assert all(not r.failures for r in record.rounds)
    assert record.survived() == [3, 3]  # both drive ahead to the far edge


def test_answers_are_taken_in_order_one_a_round(tmp_path: Path) -> None:
    """docs/tron.md: a line written before ROUND is no error but answers the next round."""
    early = tmp_path / "early.sh"
    early.write_text(
        "#!/bin/sh\necho RIGHT\nwhile read l; do case $l in ROUND*) echo AHEAD;; END) exit 0;; esac; done\n"
    )
    early.chmod(0o755)
    record, _ = play_game(ARENA, [bot_spec(str(early)), bot_spec("simple")])
    assert record.rounds[0].answers[1] == "RIGHT" and record.rounds[0].failures == {}
    assert record.rounds[1].answers[1] == "AHEAD"


def test_a_bot_that_closes_its_input_is_told_so(tmp_path: Path) -> None:
    """It went out with 'stopped reading its input: closed its output', its output open all along."""
    deaf = tmp_path / "deaf.py"
    deaf.write_text(
        "import os, sys, time\nos.close(0)\nsys.stdout.write('AHEAD\\n'); sys.stdout.flush()\ntime.sleep(30)\n"
    )
    record, _ = play_game(ARENA, [bot_spec(f"{sys.executable} {deaf}"), bot_spec("simple")], time_limit=5.0)
    failure = next(f for r in record.rounds for p, f in r.failures.items() if p == 1)
    assert failure == "stopped reading its input (is still running)"


def test_builtin_bots_play_a_whole_game() -> None:
    arena = parse_arena("GAMEBOARDSTART 8,8\n" + "........\n" * 8 + "GAMEBOARDEND\n")
    record, _ = play_game(arena, [bot_spec("strong"), bot_spec("simple")])
    assert record.final.over
    assert sum(record.points()) in (3, 2)
    assert all(not r.failures for r in record.rounds)


def test_a_watcher_hears_every_round_as_it_is_decided_and_gets_the_processes() -> None:
    """``on_record`` hears each round (its record, the state after it, its events) in order, and
    ``on_start`` gets the bot processes before they run: a viewer shows the game while it is played."""
    arena = parse_arena("GAMEBOARDSTART 6,6\n" + "......\n" * 6 + "GAMEBOARDEND\n")
    heard: list[tuple[object, int, int]] = []
    started: list[int] = []
    record, _ = play_game(
        arena,
        [bot_spec("simple"), bot_spec("simple")],
        on_record=lambda r, state, events: heard.append((r, state.round, len(events))),
        on_start=lambda procs: started.append(len(procs)),
    )
    assert started == [2]
    assert [h[0] for h in heard] == list(record.rounds)  # the very records, in order
    assert [h[1] for h in heard] == list(range(1, len(record.rounds) + 1))
    assert heard[0][2] == 2  # two bots in round 1: each moves or goes out
    assert heard[-1][1] == record.final.round


def test_an_exception_from_a_watcher_ends_the_game_and_kills_the_bots() -> None:
    arena = parse_arena("GAMEBOARDSTART 6,6\n" + "......\n" * 6 + "GAMEBOARDEND\n")
    seen: list[object] = []

    class Stop(Exception):
        pass

    def stop(r: object, state: object, events: object) -> None:
        raise Stop

    with pytest.raises(Stop):
        play_game(arena, [bot_spec("simple"), bot_spec("simple")], on_start=seen.extend, on_record=stop)
    assert len(seen) == 2 and all(p.process is not None and p.process.returncode is not None for p in seen)  # type: ignore[attr-defined]


HUNGRY = """
import mmap, sys
for line in sys.stdin:
    if line.startswith("ROUND"):
        mmap.mmap(-1, {size} << 20)  # address space only: no page is touched, so no memory is used
        print("AHEAD", flush=True)
    if line.strip() == "END":
        break
"""


def test_a_bot_over_its_memory_limit_is_out_and_the_limit_can_be_raised(tmp_path: Path) -> None:
    """A bot allocating in a loop took the whole machine's memory (bots ran without any limit)."""
    hungry = tmp_path / "hungry.py"
    hungry.write_text(HUNGRY.format(size=3072))
    bots = [bot_spec(f"{sys.executable} {hungry}"), bot_spec("simple")]
    record, _ = play_game(ARENA, bots, time_limit=5.0)
    failure = record.rounds[0].failures[1]
    assert failure.startswith("ended without answering: closed its output (exited with status 1)")
    assert "error output: OSError: [Errno 12] Cannot allocate memory" in failure
    record, _ = play_game(ARENA, bots, time_limit=5.0, memory_mb=4096)
    assert 1 not in record.rounds[0].failures
    record, _ = play_game(ARENA, bots, time_limit=5.0, memory_mb=0)  # no limit
    assert 1 not in record.rounds[0].failures


def test_a_bot_that_never_flushes_is_asked_whether_it_does(tmp_path: Path) -> None:
    """A bot whose answers sat in its own output buffer got only 'no answer within 3 s (killed)'."""
    buffered = tmp_path / "buffered.py"
    buffered.write_text(
        "import os, sys\nout = os.fdopen(1, 'w', buffering=65536)\n"
        "for line in sys.stdin:\n    if line.startswith('ROUND'):\n        out.write('AHEAD\\n')\n"
    )
    record, _ = play_game(ARENA, [bot_spec(f"{sys.executable} {buffered}"), bot_spec("simple")], time_limit=0.3)
    assert record.rounds[0].failures[1] == (
        "no answer within 2.3 s (killed); it has written nothing at all yet: does it flush its output after each line?"
    )


def test_a_bot_late_after_answering_is_not_asked_about_flushing(scripted: Scripted) -> None:
    slow, _ = scripted("AHEAD", "HANG")
    record, _ = play_game(ARENA, [bot_spec(slow), bot_spec("simple")], time_limit=0.3)
    assert record.rounds[1].failures[1] == "no answer within 0.3 s (killed)"


def test_the_transcript_shows_control_characters_escaped(tmp_path: Path) -> None:
    """A NUL byte in an answer went into --log raw (grep: 'binary file matches'), a CR or an escape
    sequence unseen; the transcript now shows what the bot sent, escaped."""
    odd = tmp_path / "odd.py"
    odd.write_text(
        "import sys\nanswers = iter([b'AHEAD\\r\\n', b'AH\\x00EAD\\x1b[2J\\n'])\n"
        "for line in sys.stdin:\n    if line.startswith('ROUND'):\n"
        "        sys.stdout.buffer.write(next(answers)); sys.stdout.flush()\n"
    )
    transcript = io.StringIO()
    record, _ = play_game(ARENA, [bot_spec(f"{sys.executable} {odd}"), bot_spec("simple")], transcript=transcript)
    said = [line for line in transcript.getvalue().splitlines() if line.startswith("<1 ")]
    assert said == ["<1 AHEAD\\r", "<1 AH\\x00EAD\\x1b[2J"]
    assert record.rounds[0].answers[1] == "AHEAD" and record.rounds[1].answers[1] is None


def test_a_bot_runs_in_the_callers_folder_as_the_docs_say(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/tron.md: a bot runs in the folder robots-tron was started in, not in its own."""
    home, elsewhere = tmp_path / "bot", tmp_path / "caller"
    home.mkdir()
    elsewhere.mkdir()
    bot = home / "where.sh"
    bot.write_text("#!/bin/sh\npwd >&2\nwhile read l; do case $l in ROUND*) echo AHEAD;; END) exit 0;; esac; done\n")
    bot.chmod(0o755)
    monkeypatch.chdir(elsewhere)
    _, processes = play_game(ARENA, [bot_spec(str(bot)), bot_spec("simple")])
    assert processes[0].stderr.data().decode().strip() == str(elsewhere)


def test_a_bot_that_closes_its_input_after_reading_it_all_is_told_so(tmp_path: Path) -> None:
    """It read round 1's lines, closed its input and waited: no write failed, so it was told 'no
    answer within 3 s (killed); ... does it flush its output?' (or, by a race, the right reason)."""
    deaf = tmp_path / "deaf.py"
    deaf.write_text(
        "import os, sys, time\nwhile not sys.stdin.readline().startswith('ROUND'):\n    pass\n"
        "os.close(0)\ntime.sleep(600)\n"
    )
    record, _ = play_game(ARENA, [bot_spec(f"{sys.executable} {deaf}"), bot_spec("simple")], time_limit=0.3)
    assert record.rounds[0].failures[1] == "stopped reading its input (is still running)"
