"""Find an AI by name: a built-in Python AI, or an external program through the file protocol.

``resolve_ai("reference")`` gives a built-in; ``resolve_ai("./my-bot")`` or
``resolve_ai("examples/python/bot.py")`` gives an :class:`ExternalAI`.  Built-in names win
over files of the same name in the current directory; write ``./NAME`` for the file.
Built-ins are imported only when asked for, so an AI module that is missing or slow to
import costs nothing until it is used.
"""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.ai.external import DEFAULT_TIMEOUT, ExternalAI
from engine.ai.reference import ReferenceAI
from engine.errors import InputError
from engine.game import Chooser


@dataclass(frozen=True)
class BuiltinAI:
    """A registered built-in AI: its name, a one-line description and how to make one."""

    name: str
    description: str
    factory: Callable[[], Chooser]


def _make_planner() -> Chooser:
    try:
        module = importlib.import_module("engine.ai.planner")
    except ModuleNotFoundError as exc:
        if exc.name in ("engine.ai.planner", "engine.ai"):
            raise InputError(
                "the built-in AI 'planner' is not available in this installation (engine/ai/planner.py is missing)"
            ) from None
        raise
    planner: Chooser = module.Planner()
    return planner


BUILTINS: dict[str, BuiltinAI] = {
    ai.name: ai
    for ai in (
        BuiltinAI("reference", "the contest's reference AI: plays the first five cards in dealt order", ReferenceAI),
        BuiltinAI("planner", "searches the round's card orders and plans towards the goal", _make_planner),
    )
}


def list_ais() -> list[tuple[str, str]]:
    """``(name, description)`` of every built-in AI, for help texts."""
    return [(ai.name, ai.description) for ai in BUILTINS.values()]


def ai_help() -> str:
    """One paragraph for ``--ai`` help: the built-in names and how to name a program."""
    names = ", ".join(name for name, _ in list_ais())
    return f"a built-in AI ({names}) or the path of an executable AI program speaking the contest's file protocol"


def resolve_ai(spec: str, *, timeout: float = DEFAULT_TIMEOUT, log_path: Path | None = None) -> Chooser:
    """The chooser named by ``spec``: a built-in name, or a path to (or ``PATH`` name of) a program.

    Raises InputError with a one-line message when ``spec`` names nothing usable.
    """
    if not spec.strip():
        raise InputError("no AI given: name a built-in AI or an AI program")
    builtin = BUILTINS.get(spec)
    if builtin is not None:
        return builtin.factory()
    path = Path(spec)
    if os.sep not in spec and not path.exists():
        found = shutil.which(spec)
        if found is None:
            names = ", ".join(BUILTINS)
            raise InputError(f"unknown AI {spec!r}: not a built-in AI ({names}) and no program of that name")
        path = Path(found)
    if not path.exists():
        raise InputError("no such AI program", spec)
    if path.is_dir():
        raise InputError("is a directory, not an AI program", spec)
    if not os.access(path, os.X_OK):
        raise InputError(f"AI program is not executable (try: chmod +x {spec})", spec)
    if timeout <= 0:
        raise InputError(f"the AI timeout must be positive, not {timeout:g} s")
    return ExternalAI(path, timeout=timeout, log_path=log_path)
