"""One engine API: the board status, the game loop and the level finder each exist once (in the
engine), every tool uses them, and a board no game can start on gets the same one line everywhere."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "viewer3d", "editor", "themes", "gameboards", "pathui")

NO_START = "no start tile (S, T, U or V): a board needs exactly one"
TWO_STARTS = "2 start tiles (at 0 0, 2 0): a board needs exactly one"


def _sources() -> dict[str, str]:
    return {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
    }


def _defined(name: str) -> list[str]:
    found = []
    for where, text in _sources().items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name:
                found.append(where)
    return found


@pytest.mark.parametrize(
    ("name", "home"),
    [
        ("BoardStatus", "engine/status.py"),
        ("play_rounds", "engine/game.py"),
        ("fit_levels", "engine/replay.py"),
        ("OneLineParser", "engine/cliutil.py"),
        ("ProgressBar", "engine/cliutil.py"),
        ("parse_size", "engine/cliutil.py"),
    ],
)
def test_each_piece_is_implemented_once(name: str, home: str) -> None:
    found = _defined(name)
    if name == "parse_size":  # the editor's resize prompt reads "WxH anchor" through the shared one
        found.remove("editor/controller.py")
        assert "parse_size as parse_board_size" in (ROOT / "editor" / "controller.py").read_text()
    assert found == [home]


def test_no_command_line_writes_its_own_one_line_parser() -> None:
    subclasses = [
        where
        for where, text in _sources().items()
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ClassDef)
        and any(isinstance(b, ast.Attribute) and b.attr == "ArgumentParser" for b in node.bases)
    ]
    assert subclasses == ["engine/cliutil.py"]


def test_the_game_loop_and_level_search_are_not_written_again() -> None:
    """Only the round iterator deals hands; only the level finder tries levels one after another;
    only the status module counts start tiles."""
    sources = _sources()
    dealing = [where for where, text in sources.items() if re.search(r"\bdeal\(", text)]
    # the oracle searches all hands and plays none; rerun sets one past round up again
    assert sorted(dealing) == ["engine/game.py", "engine/oracle.py", "engine/rerun.py"]
    level_loops = [where for where, text in sources.items() if re.search(r"for \w+ in \(Level\.HARD", text)]
    assert level_loops == []
    off_board = [where for where, text in sources.items() if "lies outside the {board.width}" in text]
    # game_start checks a --start pose for every tool; the game folder reader locates its start.txt
    assert sorted(off_board) == ["engine/gamedir.py", "engine/status.py"]
    counting = [where for where, text in sources.items() if re.search(r"len\([\w.]*starts\) *(!=|==|>) *1", text)]
    assert sorted(counting) == ["engine/model.py", "engine/status.py"]  # Board.start: a fast path to require_start
    card_players = [where for where, text in sources.items() if re.search(r"\bplay_card\(", text)]
    # play_cards is the one loop of cards up to the end of the game (rounds, the analysis' ghost
    # robot, the conformance cases); replay tries every card kind against a file's lines
    assert sorted(card_players) == ["engine/game.py", "engine/replay.py", "engine/rules.py"]
    tiers = [where for where, text in sources.items() if re.search(r"/ EPS \+ 0\.5", text)]
    # goal probabilities compared in whole units of EPS: plan_choice.goal_tier, and planner's numpy twin
    assert sorted(tiers) == ["engine/ai/plan_choice.py", "engine/ai/planner.py"]


@pytest.mark.parametrize(
    ("user", "names"),
    [
        ("engine/cli.py", ["require_start", "board_problems", "fit_levels", "play_game"]),
        ("engine/session.py", ["play_rounds", "require_start"]),
        ("engine/contest/__init__.py", ["require_start"]),
        ("engine/contest/runner.py", ["play_game"]),
        ("engine/oracle.py", ["game_start", "require_goal"]),
        ("viewer3d/sources.py", ["play_rounds", "fit_levels", "game_start"]),
        ("editor/validate.py", ["board_problems", "form_status"]),
        ("editor/games/robots.py", ["board_problems"]),  # the robot game behind the editor seam
        ("editor/playtest.py", ["play_game"]),
    ],
)
def test_front_ends_import_them(user: str, names: list[str]) -> None:
    text = (ROOT / user).read_text(encoding="utf-8")
    imported = {
        alias.asname or alias.name
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine")
        for alias in node.names
    }
    assert [n for n in names if n not in imported] == []


def _engine(*args: str) -> int:
    from engine.cli import main

    return main(list(args))


def _contest(*args: str) -> int:
    from engine.contest import main

    return main([*args, "--seeds", "1", "--out", "results"])


def _oracle(*args: str) -> int:
    from engine.oracle import main

    return main([*args, "deck.dat"])


def _view(*args: str) -> int:
    from viewer3d.cli import main

    return main([*args, "--headless", "--out", "x.png"])


TOOLS: dict[str, tuple[str, Callable[[str], int]]] = {
    "engine play": ("robots-engine", lambda b: _engine("play", b, "--seed", "1")),
    "engine load": ("robots-engine", lambda b: _engine("load", b)),
    "engine replay": ("robots-engine", lambda b: _engine("replay", b, "seq.txt")),
    "contest": ("robots-contest", lambda b: _contest(b)),
    "oracle": ("robots-oracle", lambda b: _oracle(b)),
    "view sequence": ("robots-view", lambda b: _view("--board", b, "--sequence", "seq.txt")),
    "view ai": ("robots-view", lambda b: _view("--board", b, "--ai", "reference")),
}


@pytest.mark.parametrize("tool", list(TOOLS))
@pytest.mark.parametrize(
    ("text", "located", "message"), [("3 1\n  Z\n", "", NO_START), ("3 1\nTZS\n", ":2:3", TWO_STARTS)]
)
def test_a_board_without_one_start_is_the_same_line_in_every_tool(
    tool: str, text: str, located: str, message: str, tmp_path: Path, monkeypatch, capsys
) -> None:
    from engine.deck import generate_deck, write_cards

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISPLAY", raising=False)
    (tmp_path / "b.dat").write_text(text)
    (tmp_path / "seq.txt").write_text("MR\n")
    (tmp_path / "deck.dat").write_text(write_cards(generate_deck(1)))
    prog, run = TOOLS[tool]
    try:
        code = run("b.dat")
    except SystemExit as exc:
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2
    assert err == f"{prog}: b.dat{located}: {message}\n"
    assert not (tmp_path / "x.png").exists() and not (tmp_path / "results").exists()


def test_no_guard_against_our_own_packages_missing() -> None:
    """They ship together in one wheel: an import of one of them never needs a fallback."""
    guarded = []
    for where, text in _sources().items():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Try):
                continue
            own = [
                n
                for stmt in node.body
                for n in ast.walk(stmt)
                if (isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in PACKAGES)
                or (isinstance(n, ast.Import) and any(a.name.split(".")[0] in PACKAGES for a in n.names))
                or (isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.split(".")[0] in PACKAGES[:4])
            ]
            caught = {
                name.id if isinstance(name, ast.Name) else ""
                for handler in node.handlers
                for name in ([handler.type] if not isinstance(handler.type, ast.Tuple) else handler.type.elts)
                if name is not None
            }
            if own and caught & {"ImportError", "ModuleNotFoundError"}:
                guarded.append(f"{where}:{node.lineno}")
    assert guarded == []
