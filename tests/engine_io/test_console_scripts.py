"""What every console script of pyproject.toml shares, checked on the list itself so that a new
tool cannot leave it out: ``--version`` from the package metadata, one-line usage errors."""

from __future__ import annotations

import argparse
import importlib
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from engine.cliutil import package_version

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
SCRIPTS: dict[str, str] = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["scripts"]


def entry(target: str) -> Callable[[Sequence[str]], int]:
    module, _, function = target.partition(":")
    main: Callable[[Sequence[str]], int] = getattr(importlib.import_module(module), function)
    return main


def run(name: str, argv: list[str]) -> int:
    try:
        return entry(SCRIPTS[name])(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 1


def test_the_package_version_is_the_one_in_pyproject() -> None:
    assert package_version() == tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_tool_prints_its_name_and_the_package_version(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(name, ["--version"]) == 0
    out, err = capsys.readouterr()
    assert out == f"{name} {package_version()}\n" and err == ""


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_tool_reports_a_usage_error_in_one_line_with_status_2(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown option (or, first, a missing argument): one line naming the tool and its --help."""
    assert run(name, ["--no-such-option"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"{name}: ") and err.endswith(" --help')\n") and err.count("\n") == 1, err


def test_a_tron_bot_refuses_a_budget_that_is_not_a_positive_number(capsys: pytest.CaptureFixture[str]) -> None:
    for budget in ("nan", "-1", "0", "x"):
        assert run("robots-tron-strong", ["--budget", budget]) == 2
        err = capsys.readouterr().err
        assert err.startswith("robots-tron-strong: argument --budget: budget must be") and err.count("\n") == 1, err


def test_the_simple_tron_bot_refuses_options_it_would_ignore(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("robots-tron-simple", ["--budget", "1"]) == 2
    assert "unrecognized arguments: --budget 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["simple", "--budget", "1"], "--budget"),
        (["random", "--budget", "1"], "--budget"),
        (["simple", "--seed", "3"], "--seed"),
        (["strong", "--seed", "3"], "--seed"),
    ],
)
def test_the_generic_tron_bot_entry_refuses_options_its_bot_would_ignore(
    argv: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/tron.md: ``python -m engine.tron.bots`` takes only the options its bot uses, as the scripts do."""
    from engine.tron.bots.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and f": {option} is for the" in err, err
    assert err.count("\n") == 1


ROOT = PYPROJECT.parent

#: A command of each kind that ends by saying what it wrote: into a pipe whose reader has left.
CLOSED_PIPE_COMMANDS = {
    "version": ["robots-engine", "--version"],
    "tron-bot-version": ["robots-tron-strong", "--version"],
    "view-export": ["robots-view", "chop.dat", "--headless", "--out", "chop.png", "--size", "64x48"],
    "edit-export": ["robots-edit", "chop.dat", "--export", "chop.svg"],
    "ai-warm": ["robots-ai", "--warm", "crossing-5x3.dat", "easy", "--cache-dir", "cache"],
}


@pytest.mark.parametrize("case", sorted(CLOSED_PIPE_COMMANDS))
def test_output_into_a_pipe_whose_reader_left_ends_quietly_with_141(case: str, tmp_path: Path) -> None:
    """``... | head -0``: a BrokenPipeError traceback (robots-view, robots-edit, --version) or
    'robots-ai: Broken pipe' with status 2; the other tools stop quietly with 141."""
    import os
    import subprocess
    import sys

    name, *argv = CLOSED_PIPE_COMMANDS[case]
    module, _, function = SCRIPTS[name].partition(":")
    script = f"import sys; from {module} import {function}; sys.exit({function}(sys.argv[1:]))"
    read_end, write_end = os.pipe()
    os.close(read_end)  # every write now fails with EPIPE, as after `head` has exited
    try:
        result = subprocess.run(
            [sys.executable, "-c", script, *argv],
            cwd=tmp_path,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=300,
            check=False,
        )
    finally:
        os.close(write_end)
    assert result.returncode == 141 and "Traceback" not in result.stderr and "pipe" not in result.stderr, result.stderr


def parsers_of(name: str, monkeypatch: pytest.MonkeyPatch) -> list[argparse.ArgumentParser]:
    """The argument parser ``name`` builds (its sub-commands' too), caught where it would parse."""
    caught: list[argparse.ArgumentParser] = []

    def catch(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        caught.append(self)
        raise SystemExit(0)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", catch)
    assert run(name, ["x"]) == 0 and caught, name
    found: list[argparse.ArgumentParser] = []
    while caught:
        parser = caught.pop()
        found.append(parser)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                caught.extend(action.choices.values())
    return found


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_argument_says_in_help_what_it_is(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``robots-engine save --help`` listed DECK, ``replay`` GLOBALSEQ, ``robots-tron tournament`` BOT
    with nothing beside them."""
    bare = [
        f"{parser.prog} {action.metavar or action.dest}"
        for parser in parsers_of(name, monkeypatch)
        for action in parser._actions
        if not action.help and not isinstance(action, argparse._SubParsersAction)
    ]
    assert bare == []


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_no_option_shows_argparse_s_made_up_placeholder(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--time-limit TIME_LIMIT``, ``--cache-dir CACHE_DIR`` (robots-ai, robots-oracle): the option's
    own name shouted back; the other tools say ``S``, ``DIR``."""
    shouted = [
        f"{parser.prog} {action.option_strings[0]}"
        for parser in parsers_of(name, monkeypatch)
        for action in parser._actions
        if action.option_strings and action.nargs != 0 and action.metavar is None and "_" in action.dest
    ]
    assert shouted == []


def test_play_s_help_says_which_values_are_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--ai ... (reference)`` and ``--out DIR ... (game-out)``: every other option says ``default:``."""
    (play,) = [parser for parser in parsers_of("robots-engine", monkeypatch) if parser.prog.endswith(" play")]
    text = " ".join(play.format_help().split())
    assert "(default: reference)" in text and "(default: game-out)" in text


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_a_bad_timeout_is_worded_alike_by_the_engine_and_the_contest(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """robots-contest said "invalid float value: 'soon'" where robots-engine explained the seconds."""
    messages = []
    for name, argv in (("robots-engine", ["play", "chop.dat"]), ("robots-contest", ["chop.dat"])):
        assert run(name, [*argv, "--timeout", value]) == 2
        err = capsys.readouterr().err
        messages.append(err[len(name) : err.index(" (see ")])
    assert messages[0] == messages[1] and messages[0].startswith(": argument --timeout: timeout must be"), messages
