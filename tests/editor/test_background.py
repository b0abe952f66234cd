"""Background validation is cancelled by the next edit; test-play viewers are reaped and cleaned up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from editor.background import BackgroundValidation
from editor.playtest import PlaytestRunner, Viewer
from engine.model import Board


def _slow_board() -> Board:
    """A big open board whose only goal is walled off by holes: the search visits every pose."""
    rows = [" " * 120 for _ in range(120)]
    rows[0] = "T" + rows[0][1:]
    rows[117] = rows[117][:116] + "HHH" + rows[117][119:]
    rows[118] = rows[118][:116] + "HZH" + rows[118][119:]
    rows[119] = rows[119][:116] + "HHH" + rows[119][119:]
    return Board.from_strings(rows)


def test_the_next_board_cancels_the_search_of_the_previous_one() -> None:
    background = BackgroundValidation(_slow_board())
    try:
        quick = Board.from_strings(["T Z"])
        background.submit(quick)  # long before the first search could finish
        state = background.wait(timeout=120)
        assert state.board is quick and state.done and not state.problems
        assert background._thread.is_alive()  # one worker, still there for the next edit
    finally:
        background.close()


def test_finished_viewers_are_reaped_and_their_play_folders_removed(tmp_path: Path) -> None:
    folder = tmp_path / "robots-edit-play-x" / "chop.dat"
    folder.mkdir(parents=True)
    messages: list[str] = []
    runner = PlaytestRunner(messages.append)
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    runner.viewers.append(Viewer(process, folder))
    runner.folders.append(folder)
    process.wait()
    runner.poll()
    assert runner.viewers == [] and not folder.parent.exists()
    assert process.returncode == 0  # collected: no zombie left behind
