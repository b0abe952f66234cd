"""The command-line helpers every tool shares (engine.cliutil)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from engine.cliutil import OneLineParser, ProgressBar, make_folder, parse_size, seed_argument
from engine.errors import InputError


@pytest.mark.parametrize(("text", "size"), [("1024x768", (1024, 768)), ("64 48", (64, 48)), (" 20X30 ", (20, 30))])
def test_parse_size(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("big", "--size must look like WIDTHxHEIGHT (e.g. 1024x768), not 'big'"),
        ("1x1", "--size 1x1 out of range (16..8192 wide, 16..8192 high)"),
        ("9" * 5000, "--size must look like WIDTHxHEIGHT (e.g. 1024x768), not '999"),
    ],
)
def test_parse_size_errors_are_short(text: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_size(text)
    assert str(info.value).startswith(message) and len(str(info.value)) < 100


def test_usage_errors_are_one_line_named_after_the_program(capsys: pytest.CaptureFixture[str]) -> None:
    parser = OneLineParser(prog="robots-x")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    sub.add_parser("go").add_argument("--n", type=int)
    with pytest.raises(SystemExit) as info:
        parser.parse_args(["go", "--n", "one"])
    assert info.value.code == 2
    assert capsys.readouterr().err == ("robots-x: argument --n: invalid int value: 'one' (see 'robots-x go --help')\n")


def test_an_unknown_option_of_a_sub_command_points_to_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    """``robots-engine play chop --bogus`` said "see 'robots-engine --help'", which lists no play options."""
    parser = OneLineParser(prog="robots-x")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    sub.add_parser("go").add_argument("--n", type=int)
    with pytest.raises(SystemExit) as info:
        parser.parse_args(["go", "--bogus"])
    assert info.value.code == 2
    assert capsys.readouterr().err == "robots-x: unrecognized arguments: --bogus (see 'robots-x go --help')\n"
    assert vars(parser.parse_args(["go", "--n", "1"])) == {"command": "go", "n": 1}  # nothing of its own left
    alone = OneLineParser(prog="robots-y")
    assert vars(alone.parse_args([])) == {}
    with pytest.raises(SystemExit):
        alone.parse_args(["--bogus"])
    assert capsys.readouterr().err == "robots-y: unrecognized arguments: --bogus (see 'robots-y --help')\n"


@pytest.mark.parametrize(
    ("argv", "quoted"),
    [
        (["x" * 5000], "invalid choice: '" + "x" * 55 + "...' (choose from 'easy', 'hard')"),
        (["easy", "--n", "9" * 5000], "invalid int value: '" + "9" * 55 + "...'"),
        (["easy", "--n", "1\n2"], "invalid int value: '1\\n2'"),
        (
            ["easy", *map(str, range(1000))],
            "unrecognized arguments: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 2...",
        ),
        (["easy", "a\nb"], "unrecognized arguments: a\\nb"),
    ],
)
def test_usage_errors_quote_about_60_characters_on_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], quoted: str
) -> None:
    """argparse quotes a bad value whole (a 5,000-character level was a 5,000-character line) and
    lists unrecognized arguments as given, newlines and all."""
    parser = OneLineParser(prog="robots-x")
    parser.add_argument("level", choices=["easy", "hard"])
    parser.add_argument("--n", type=int)
    with pytest.raises(SystemExit) as info:
        parser.parse_args(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 200, err
    assert quoted in err, err


def test_progress_bar_finishes_once() -> None:
    stream = io.StringIO()
    bar = ProgressBar(3, stream, unit="frames", label="rendering ", interactive=False, log_progress=False)
    for done in (1, 2, 3):
        bar.update(done)
    first = bar.finish()
    assert bar.finish() == first
    assert stream.getvalue().count("\n") == 1 and stream.getvalue().startswith("rendering 3/3 frames in ")
    live = io.StringIO()
    bar = ProgressBar(200, live, interactive=True)
    for done in range(1, 201):
        bar.update(done)
    bar.finish()
    assert live.getvalue().count("\r") == 101 + 1  # each visible percent (0..100) once, then the final line


def test_a_reader_that_leaves_ends_the_command_quietly() -> None:
    """``robots-engine ... | head``: the pipe's reader goes away; no message, the SIGPIPE status."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys\n"
        "from engine.cliutil import run_command\n"
        "sys.exit(run_command('prog', lambda: (print('line\\n' * 400_000), 0)[1]))\n"
    )
    root = Path(__file__).resolve().parents[2]
    child = subprocess.Popen([sys.executable, "-c", code], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.read(10)  # more than a pipe holds is written: the child waits on us
    child.stdout.close()  # ... and its next write finds no reader
    error = child.stderr.read()
    assert child.wait(timeout=120) == 141
    assert error == b""


def test_make_folder_names_what_is_in_the_way(tmp_path: Path) -> None:
    """mkdir's bare 'File exists' said nothing of what was there: the message names it."""
    assert make_folder(tmp_path / "a" / "b") == tmp_path / "a" / "b" and (tmp_path / "a" / "b").is_dir()
    assert make_folder(tmp_path / "a") == tmp_path / "a"  # an existing folder is fine
    (tmp_path / "file").write_text("mine")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    cases = {
        tmp_path / "file": f"{tmp_path / 'file'}: is a file, not a folder (for --out)",
        tmp_path / "file" / "deeper" / "game": f"{tmp_path / 'file'}: is a file, not a folder (for --out)",
        tmp_path / "fifo": f"{tmp_path / 'fifo'}: is a FIFO (named pipe), not a folder (for --out)",
        tmp_path / "dangling": f"{tmp_path / 'dangling'}: is a symlink to nothing, not a folder (for --out)",
    }
    for path, message in cases.items():
        with pytest.raises(InputError) as error:
            make_folder(path)
        assert str(error.value) == message
    assert (tmp_path / "file").read_text() == "mine" and not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize(
    ("text", "seed"), [("1", 1), ("-5", -5), ("0", 0), ("999999999999999999", 10**18 - 1), (" 42 ", 42)]
)
def test_seed_argument_takes_whole_numbers_of_up_to_18_digits(text: str, seed: int) -> None:
    assert seed_argument(text) == seed


@pytest.mark.parametrize("text", ["1" * 19, "1" * 200, "1.5", "x", "", "--3", "1e3"])
def test_seed_argument_refuses_the_rest_in_one_short_line(text: str) -> None:
    import argparse

    with pytest.raises(argparse.ArgumentTypeError) as info:
        seed_argument(text)
    assert "\n" not in str(info.value) and len(str(info.value)) < 80


def test_play_refuses_a_200_digit_seed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from engine.cli import main

    with pytest.raises(SystemExit) as info:
        main(["play", "chop.dat", "--seed", "1" * 200, "--out", str(tmp_path / "g")])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --seed: seed" in err and "more than 18 digits" in err
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("stop", [KeyboardInterrupt, InputError])
def test_output_folder_removes_the_empty_folders_it_made_when_stopped(
    tmp_path: Path, stop: type[BaseException]
) -> None:
    """Ctrl-C in 'play --out a/b' left an empty a/b (and a) behind."""
    from engine.cliutil import output_folder

    with pytest.raises(stop), output_folder(tmp_path / "a" / "b") as folder:
        assert folder.is_dir()
        raise stop("stopped")
    assert not (tmp_path / "a").exists()


def test_output_folder_keeps_folders_that_existed_or_hold_something(tmp_path: Path) -> None:
    from engine.cliutil import output_folder

    (tmp_path / "old").mkdir()
    with pytest.raises(KeyboardInterrupt), output_folder(tmp_path / "old" / "new" / "g") as folder:
        (folder.parent / "ai.log").write_text("what the AI said\n")
        raise KeyboardInterrupt
    assert (tmp_path / "old" / "new" / "ai.log").read_text() == "what the AI said\n"
    assert not (tmp_path / "old" / "new" / "g").exists()
    with output_folder(tmp_path / "done") as folder:
        (folder / "game.json").write_text("{}")
    assert (tmp_path / "done" / "game.json").exists()
