"""Every program of the organisers' kit in ``examples/hostile/`` does what its README says, and leaves nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.ai.external import ExternalAI
from engine.ai.supervise import AILimits
from engine.boardfile import load_board
from engine.cards import Card
from engine.game import AIError
from engine.model import Level

from .conftest import CHOP
from .test_contest_survival import HOSTILE, strays

HAND = (Card.MF1, Card.MF2, Card.RL, Card.RR, Card.MB, Card.MF3, Card.RU, Card.MF1)

# program, limits, timeout, the AIError pattern (None: it answers with the first five cards)
KIT: list[tuple[str, list[str], float, str | None]] = [
    ("good", [], 10, None),
    ("fork-and-stay", [], 10, None),
    ("setsid-child", [], 10, None),
    ("scratch-writer", [], 10, None),
    ("symlink-planter", [], 10, None),
    ("fork-bomb", [], 30, None),
    ("link-answer", [], 10, r"ccards\.txt is a symbolic link, not a file it wrote"),
    ("huge-output", [], 30, r"wrote more than 8388608 bytes of output"),
    ("hang", [], 1, r"timed out after 1 s"),
    ("memory-hog", ["memory=256"], 30, r"MemoryError"),
    ("file-filler", ["file-size=1"], 30, r"SIGXFSZ"),
    ("cpu-burner", ["cpu=1"], 60, r"SIGXCPU|SIGKILL"),
]


def test_every_program_of_the_kit_is_listed() -> None:
    programs = {p.name for p in HOSTILE.iterdir() if p.name not in ("README.md", "mixed")}
    # kill-parent would kill this test process: test_contest_survival plays it in a contest.
    assert programs - {"kill-parent"} == {name for name, *_ in KIT}
    readme = (HOSTILE / "README.md").read_text()
    assert all(f"`{name}`" in readme for name in [*programs, "mixed"])


@pytest.mark.parametrize(("name", "limits", "timeout", "pattern"), KIT, ids=[k[0] for k in KIT])
def test_kit_program(name: str, limits: list[str], timeout: float, pattern: str | None) -> None:
    board = load_board(CHOP)
    with ExternalAI(HOSTILE / name, timeout=timeout, limits=AILimits.parse(limits)) as ai:
        for _ in range(2):  # the second round runs after whatever the first one left behind
            if pattern is None:
                assert ai(board, Level.HARD, board.start, HAND) == list(HAND[:5])
            else:
                with pytest.raises(AIError, match=pattern):
                    ai(board, Level.HARD, board.start, HAND)
        folder = ai.workdir
    assert not folder.exists()
    assert strays() == [], f"{name} left processes running"


def test_symlink_planter_never_makes_the_engine_write_elsewhere(tmp_path: Path) -> None:
    before = Path("/etc/passwd").read_bytes()
    board = load_board(CHOP)
    with ExternalAI(HOSTILE / "symlink-planter") as ai:
        for _ in range(3):
            ai(board, Level.HARD, board.start, HAND)
    assert Path("/etc/passwd").read_bytes() == before


def test_process_limit_stops_a_fork_bomb_even_for_root(tmp_path: Path) -> None:
    """Root ignores RLIMIT_NPROC; the turn's pids cgroup (where one can be made) holds all the same."""
    import os

    from engine.ai.cgroup import PidsGroup

    probe = PidsGroup.create(1)
    if probe is None and os.geteuid() == 0:
        pytest.skip("running as root where no pids cgroup can be made: the kernel would not enforce the limit")
    if probe is not None:
        probe.remove()
    bomb = tmp_path / "bomb"
    bomb.write_text("#!/bin/sh\ni=0\nwhile [ $i -lt 60 ]; do sleep 2345.95 & i=$((i + 1)); done\nwait\n")
    bomb.chmod(0o755)
    board = load_board(CHOP)
    with ExternalAI(bomb, limits=AILimits.parse(["processes=20"])) as ai, pytest.raises(AIError, match="fork"):
        ai(board, Level.HARD, board.start, HAND)
    assert strays() == []
    if probe is not None:
        assert not [p for p in probe.path.parent.iterdir() if p.name.startswith(f"robots-ai-{os.getpid()}-")]


def test_a_cgroup_left_by_a_killed_worker_is_removed_by_the_next_turn() -> None:
    """An AI that kills its parent leaves that parent's turn cgroup behind; the next turn removes it."""
    import subprocess

    from engine.ai.cgroup import PidsGroup

    probe = PidsGroup.create(1)
    if probe is None:
        pytest.skip("no pids cgroup can be made here")
    probe.remove()
    dead = subprocess.Popen(["true"])
    dead.wait()
    orphan = probe.path.parent / f"robots-ai-{dead.pid}-0"
    orphan.mkdir()
    fresh = PidsGroup.create(1)
    assert fresh is not None and not orphan.exists()
    fresh.remove()
