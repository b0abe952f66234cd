"""The launcher (engine.ai.launcher): from an ExternalAI's second round on, its program is forked
inside one pids cgroup by a launcher, and behaves, fails and is cleaned up exactly as before."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.ai import launcher
from engine.ai.cgroup import PidsGroup
from engine.ai.external import ExternalAI
from engine.ai.supervise import AILimits
from engine.boardfile import load_board
from engine.cards import Card
from engine.game import AIError
from engine.model import Level

from .conftest import CHOP, ScriptMaker, is_alive, wait_gone
from .test_external_failures import FAILURES

HAND = (Card.MF1, Card.MF2, Card.RL, Card.RR, Card.MB, Card.MF3, Card.RU, Card.MF1)
ANSWER = "head -n 5 cards.txt > ccards.txt\n"


@pytest.fixture(autouse=True)
def _cgroups() -> None:
    """The launcher needs a pids cgroup to make (root in a container or CI, a delegated v2 tree)."""
    group = PidsGroup.create(0)
    if group is None:
        pytest.skip("no pids cgroup can be made here: programs are started without a launcher")
    group.remove()


def second_round(body: str) -> str:
    """A program that answers in its first round and runs ``body`` in every later one (its notes
    carry over from round to round)."""
    return f"if [ -f seen ]; then\n{body}else\n  : > seen\n  {ANSWER}fi\n"


def play(ai: ExternalAI, rounds: int) -> None:
    board = load_board(CHOP)
    for _ in range(rounds):
        assert ai(board, Level.HARD, board.start, HAND) == list(HAND[:5])


def launcher_pid(ai: ExternalAI) -> int:
    process = ai._launcher.process
    assert process is not None, "no launcher running"
    return process.pid


def only_the_launcher_left(ai: ExternalAI) -> PidsGroup:
    """The launcher's cgroup, checked to hold nothing of the rounds played."""
    group = ai._launcher.group
    assert group is not None
    assert group.pids() == [launcher_pid(ai)]
    return group


def test_later_rounds_run_in_the_launchers_cgroup_as_children_of_the_engine(
    make_script: ScriptMaker, tmp_path: Path
) -> None:
    noted = tmp_path / "noted"
    body = f'echo "$$ $PPID $(grep pids /proc/self/cgroup)" >> "{noted}"\n{ANSWER}'
    with ExternalAI(make_script("where", body)) as ai:
        play(ai, 4)
        pid = launcher_pid(ai)
        group = only_the_launcher_left(ai)
        lines = [line.split(" ", 2) for line in noted.read_text().splitlines()]
    assert len({line[0] for line in lines}) == 4  # a fresh process every round
    assert all(int(parent) == os.getpid() for _, parent, _ in lines)  # re-parented to the engine
    assert lines[0][2] != lines[1][2] == lines[2][2] == lines[3][2]  # rounds 2-4 share the launcher's
    assert lines[1][2].endswith(group.path.name)
    assert wait_gone(pid)  # closed with the AI, its cgroup removed
    assert not group.path.exists()


@pytest.mark.parametrize(("name", "body", "pattern"), FAILURES, ids=[f[0] for f in FAILURES])
def test_a_launched_program_fails_as_a_program_started_directly(
    make_script: ScriptMaker, name: str, body: str, pattern: str
) -> None:
    with ExternalAI(make_script(name, second_round(body))) as ai:
        play(ai, 1)
        assert ai._launcher.running
        board = load_board(CHOP)
        with pytest.raises(AIError, match=pattern):
            ai(board, Level.HARD, board.start, HAND)
        assert ai._launcher.running  # a failing program is no reason to drop the launcher


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        (lambda path: path.unlink(), r"AI program not found: "),
        (lambda path: path.chmod(0o644), r"AI program is not executable: .*chmod \+x"),
        (lambda path: path.write_bytes(b"\x7fELF-not-really"), r"cannot start AI program .*: Exec format error"),
    ],
    ids=["removed", "not-executable", "not-a-program"],
)
def test_a_program_the_launcher_cannot_start_is_named_as_before(
    make_script: ScriptMaker, change: object, pattern: str
) -> None:
    program = make_script("gone", ANSWER)
    with ExternalAI(program) as ai:
        play(ai, 1)
        assert callable(change)
        change(program)
        board = load_board(CHOP)
        with pytest.raises(AIError, match=pattern):
            ai(board, Level.HARD, board.start, HAND)
        assert ai._launcher.running


def test_what_a_launched_program_leaves_running_is_killed_after_its_round(
    make_script: ScriptMaker, tmp_path: Path
) -> None:
    noted = tmp_path / "noted"
    body = f'setsid sleep 2345.7 < /dev/null > /dev/null 2>&1 &\necho $! >> "{noted}"\n{ANSWER}'
    with ExternalAI(make_script("leaver", body)) as ai:
        play(ai, 3)
        only_the_launcher_left(ai)
    for pid in noted.read_text().split():
        assert wait_gone(int(pid))


def test_a_program_that_kills_the_launcher_ends_only_the_launcher(make_script: ScriptMaker, tmp_path: Path) -> None:
    """An AI may kill any process of its user: the next rounds start their programs directly."""
    target = tmp_path / "launcher.pid"
    with ExternalAI(make_script("killer", second_round(f'kill -9 "$(cat {target})"\n{ANSWER}'))) as ai:
        play(ai, 1)
        pid = launcher_pid(ai)
        target.write_text(str(pid))
        play(ai, 3)  # round 2 killed it; rounds 3 and 4 are started without it
        assert wait_gone(pid)
        assert not ai._launcher.running


def test_a_program_that_stops_the_launcher_does_not_hang_the_game(
    make_script: ScriptMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(launcher, "ANSWER_TIMEOUT", 0.5)
    target = tmp_path / "launcher.pid"
    with ExternalAI(make_script("stopper", second_round(f'kill -STOP "$(cat {target})"\n{ANSWER}'))) as ai:
        play(ai, 1)
        pid = launcher_pid(ai)
        target.write_text(str(pid))
        assert ai._launcher.channel is not None
        ai._launcher.channel.settimeout(launcher.ANSWER_TIMEOUT)
        play(ai, 3)  # round 2 stopped it; round 3 waits for it in vain, then starts its program itself
        assert wait_gone(pid)  # killed although stopped
        assert not ai._launcher.running


def test_the_launchers_cgroup_holds_the_process_limit(make_script: ScriptMaker, tmp_path: Path) -> None:
    """A fork bomb in a launched round meets the same limit (``processes``) as one started directly."""
    noted = tmp_path / "noted"
    body = second_round(
        f"i=0\nwhile [ $i -lt 40 ]; do\n  sleep 2345.3 &\n  echo $! >> '{noted}'\n  i=$((i + 1))\ndone\n{ANSWER}"
    )
    with ExternalAI(make_script("forks", body), limits=AILimits(processes=10)) as ai:
        play(ai, 1)
        group = ai._launcher.group
        assert group is not None
        assert (group.path / "pids.max").read_text().strip() == str(10 + launcher.OWN_PROCESSES)
        board = load_board(CHOP)
        with pytest.raises(AIError, match="Cannot fork"):  # sh gives up at its first refused fork
            ai(board, Level.HARD, board.start, HAND)
    started = noted.read_text().split()
    assert 0 < len(started) < 10
    assert not any(is_alive(int(pid)) for pid in started)


def test_close_ends_a_launcher_that_was_stopped(make_script: ScriptMaker) -> None:
    with ExternalAI(make_script("plain", ANSWER)) as ai:
        play(ai, 2)
        pid = launcher_pid(ai)
        group = ai._launcher.group
        assert group is not None
        os.kill(pid, signal.SIGSTOP)
    assert wait_gone(pid)
    assert not group.path.exists()


def test_no_launcher_for_a_sandboxed_ai(make_script: ScriptMaker) -> None:
    """Landlock's rules name each round's folder, so a sandboxed program is started directly."""
    from engine.ai import landlock

    if not landlock.available():
        pytest.skip("no Landlock on this system")
    with ExternalAI(make_script("boxed", ANSWER), limits=AILimits(sandbox=1)) as ai:
        play(ai, 2)
        assert not ai._launcher.running


def test_a_launched_program_gets_the_engines_environment_as_it_is_now(
    make_script: ScriptMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    noted = tmp_path / "noted"
    with ExternalAI(make_script("env", f'echo "$ROBOTS_LAUNCHER_TEST" >> "{noted}"\n{ANSWER}')) as ai:
        play(ai, 1)
        monkeypatch.setenv("ROBOTS_LAUNCHER_TEST", "set after the launcher started")
        play(ai, 1)
        assert ai._launcher.running
    assert noted.read_text().splitlines() == ["", "set after the launcher started"]


def test_a_killed_game_leaves_neither_its_launched_program_nor_the_launcher(
    make_script: ScriptMaker, tmp_path: Path
) -> None:
    """``kill -9`` of ``robots-engine play`` in a launched round: the guard ends the program, what it
    started and the launcher with its cgroup."""
    from .test_killed_top import PATIENCE, descendants, wait_all_gone

    noted = tmp_path / "noted"
    waiting = f'echo $$ >> "{noted}"\nsleep 2345.9 &\necho $! >> "{noted}"\nwait\n'
    program = make_script("slow-later", second_round(waiting))
    argv = [sys.executable, "-m", "engine.cli", "play", str(CHOP), "--seed", "1", "--ai", str(program)]
    argv += ["--timeout", "600", "--out", str(tmp_path / "out")]
    game = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + PATIENCE
        while (not noted.exists() or len(noted.read_text().split()) < 2) and time.monotonic() < deadline:
            assert game.poll() is None, game.communicate()[1]
            time.sleep(0.01)
        below = descendants(game.pid)
        commands = [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in below]
        assert any(b"launcher_main.py" in command for command in commands)  # a launched round
        assert {int(pid) for pid in noted.read_text().split()} <= set(below)
    finally:
        game.send_signal(signal.SIGKILL)
        game.communicate(timeout=PATIENCE)
    assert wait_all_gone(below) == []


def test_a_forked_child_neither_uses_nor_ends_its_parents_launcher(make_script: ScriptMaker, tmp_path: Path) -> None:
    """Its programs would be re-parented to the parent, not to the child; and the child's exit
    (its copy of the AI garbage-collected) must leave the parent's launcher running."""
    noted = tmp_path / "noted"
    with ExternalAI(make_script("plain", f'echo $PPID >> "{noted}"\n{ANSWER}')) as ai:
        play(ai, 2)
        pid = launcher_pid(ai)
        child = os.fork()
        if child == 0:  # pragma: no cover - runs in the child
            code = 1
            try:
                from engine.ai.supervise import become_subreaper

                become_subreaper()
                assert not ai._launcher.running
                play(ai, 1)  # started by the child itself
                ai.close()
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert is_alive(pid) and ai._launcher.running
        play(ai, 1)
    parents = [int(line) for line in noted.read_text().split()]
    assert parents == [os.getpid(), os.getpid(), child, os.getpid()]


def test_prepare_starts_the_launcher_before_the_first_round(make_script: ScriptMaker, tmp_path: Path) -> None:
    """What whole games do (``robots-engine play``, contest games): the first round is a launched one."""
    noted = tmp_path / "noted"
    with ExternalAI(make_script("first", f'grep pids /proc/self/cgroup >> "{noted}"\n{ANSWER}')) as ai:
        ai.prepare()
        group = ai._launcher.group
        assert group is not None
        play(ai, 2)
        only_the_launcher_left(ai)
    assert [line.endswith(group.path.name) for line in noted.read_text().splitlines()] == [True, True]


def test_prepare_waits_until_the_launcher_is_ready(make_script: ScriptMaker) -> None:
    """The launcher's own start (its Python) is waited for before the game, not in the first round."""
    with ExternalAI(make_script("ready", ANSWER)) as ai:
        ai.prepare()
        assert ai._launcher.ready
        play(ai, 1)
        only_the_launcher_left(ai)


def test_a_launcher_that_never_says_ready_is_given_up(
    make_script: ScriptMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One that starts but never answers (a broken interpreter, a full disk...): after the answer
    timeout it is killed with its cgroup, and the rounds start their programs directly."""
    silent = tmp_path / "silent_launcher.py"
    silent.write_text("import time\ntime.sleep(600)\n")
    monkeypatch.setattr(launcher, "_PROGRAM", silent)
    monkeypatch.setattr(launcher, "ANSWER_TIMEOUT", 0.5)
    with ExternalAI(make_script("unready", ANSWER)) as ai:
        ai.prepare()
        assert not ai._launcher.running and ai._launcher.failed
        play(ai, 2)
