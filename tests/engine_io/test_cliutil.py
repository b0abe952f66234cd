"""The command-line helpers every tool shares (engine.cliutil)."""

from __future__ import annotations

import io

import pytest

from engine.cliutil import OneLineParser, ProgressBar, parse_size
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
