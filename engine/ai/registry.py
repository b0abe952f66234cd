"""Find an AI by name: a built-in Python AI, or an external program through the file protocol.

``resolve_ai("reference")`` gives a built-in; ``resolve_ai("./my-bot")`` or
``resolve_ai("examples/python/bot.py")`` gives an :class:`ExternalAI`.  Built-in names win
over files of the same name in the current directory; write ``./NAME`` for the file.
Built-ins are imported only when asked for, so an AI module that is missing or slow to
import costs nothing until it is used.

An installed package adds a built-in AI without editing this product through the entry-point
group :data:`ENTRY_POINT_GROUP` (``robots.ai``): the entry point's name is the AI's name and
its object a callable making a chooser (a :class:`~engine.ai.base.BaseAI` subclass will do)::

    [project.entry-points."robots.ai"]
    cautious = "my_robots_ai:CautiousAI"

A program with arguments is given as one string, ``--ai "python3 bot.py"``: when the whole
string is not a file it is split like a shell command line.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from engine.ai.external import DEFAULT_TIMEOUT, ExternalAI
from engine.ai.hints import INTERPRETERS, file_problem, interpreter_of
from engine.ai.reference import ReferenceAI
from engine.ai.supervise import AILimits
from engine.bounds import cut, shown
from engine.errors import MAX_NAME_SHOWN, InputError
from engine.game import Chooser


@dataclass(frozen=True)
class BuiltinAI:
    """A registered built-in AI: its name, a one-line description and how to make one."""

    name: str
    description: str
    factory: Callable[[], Chooser]
    #: One instance may play game after game (it keeps only caches that do not change its
    #: choices, such as the planner's tables per board), so a contest makes one per worker.
    reusable: bool = False


def _make_planner() -> Chooser:
    from engine.ai.planner import Planner  # imported when chosen: it loads numpy and compiles its kernel

    return Planner()


BUILTINS: dict[str, BuiltinAI] = {
    ai.name: ai
    for ai in (
        BuiltinAI(
            "reference", "the contest's reference AI: plays the first five cards in dealt order", ReferenceAI, True
        ),
        BuiltinAI("planner", "searches the round's card orders and plans towards the goal", _make_planner, True),
    )
}


ENTRY_POINT_GROUP = "robots.ai"


def _plugin_factory(point: EntryPoint) -> Callable[[], Chooser]:
    def make() -> Chooser:
        try:
            factory = point.load()
        except Exception as exc:  # a broken plugin must be reported, not crash the tool
            raise InputError(
                f"the AI {point.name!r} from the package entry point {point.value!r} cannot be loaded: "
                f"{type(exc).__name__}: {exc}"
            ) from None
        chooser = factory()
        if not callable(chooser):
            raise InputError(f"the AI {point.name!r} ({point.value}) made {chooser!r}, which is not a chooser")
        if not getattr(chooser, "name", None):
            with contextlib.suppress(AttributeError):
                chooser.name = point.name
        return chooser  # type: ignore[no-any-return]

    return make


@cache
def plugin_ais() -> dict[str, BuiltinAI]:
    """AIs that installed packages register under the ``robots.ai`` entry-point group."""
    found: dict[str, BuiltinAI] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name in BUILTINS or point.name in found:
            continue  # the product's own names win; the first package wins a clash
        where = point.dist.name if point.dist is not None else point.module
        found[point.name] = BuiltinAI(
            point.name, f"from the installed package {where} ({point.value})", _plugin_factory(point)
        )
    return found


def all_builtins() -> dict[str, BuiltinAI]:
    """The product's built-in AIs and those added by installed packages."""
    return {**BUILTINS, **plugin_ais()}


def list_ais() -> list[tuple[str, str]]:
    """``(name, description)`` of every built-in AI (and every plugin AI), for help texts."""
    return [(ai.name, ai.description) for ai in all_builtins().values()]


def ai_help() -> str:
    """One paragraph for ``--ai`` help: the built-in names and how to name a program."""
    names = ", ".join(name for name, _ in list_ais())
    return f"a built-in AI ({names}) or the path of an executable AI program speaking the contest's file protocol"


def is_reusable(spec: str) -> bool:
    """Whether the AI named ``spec`` is a built-in whose one instance may play many games."""
    builtin = all_builtins().get(spec)
    return builtin is not None and builtin.reusable


def resolve_ai(
    spec: str, *, timeout: float = DEFAULT_TIMEOUT, log_path: Path | None = None, limits: AILimits | None = None
) -> Chooser:
    """The chooser named by ``spec``: a built-in name, or a path to (or ``PATH`` name of) a program.

    Raises InputError with a one-line message when ``spec`` names nothing usable.
    """
    if not spec.strip():
        raise InputError("no AI given: name a built-in AI or an AI program")
    builtin = all_builtins().get(spec)
    if builtin is not None:
        return builtin.factory()
    if timeout <= 0:
        raise InputError(f"the AI timeout must be positive, not {timeout:g} s")
    if not Path(spec).exists() and len(spec.split()) > 1:
        return ExternalAI(resolve_command(spec), timeout=timeout, log_path=log_path, limits=limits)
    return ExternalAI(resolve_program(spec, spec), timeout=timeout, log_path=log_path, limits=limits)


def resolve_program(word: str, spec: str) -> Path:
    """The program file ``word`` names (a path, or a name on ``PATH``), checked to be runnable."""
    path = Path(word)
    if os.sep not in word and not path.exists():
        found = shutil.which(word)
        if found is None:
            names = ", ".join(all_builtins())
            raise InputError(f"unknown AI {shown(word)}: not a built-in AI ({names}) and no program of that name")
        path = Path(found)
    name = cut(word, MAX_NAME_SHOWN)  # game.json names the AI 'round' runs: any length
    if not path.exists():
        raise InputError("no such AI program", name)
    if path.is_dir():
        raise InputError("is a directory, not an AI program", name)
    problem = file_problem(path)
    if problem is not None:
        raise InputError(f"cannot run this AI program: {problem}", name)
    if not os.access(path, os.X_OK):
        raise InputError(
            f"AI program is not executable (try: chmod +x {shlex.quote(word)}, or --ai '{interpreter_of(path)} {word}')",
            name,
        )
    return path


def resolve_command(spec: str) -> list[str]:
    """``"python3 bot.py"``: a program and its arguments, split like a shell command line."""
    try:
        argv = shlex.split(spec)
    except ValueError as exc:
        raise InputError(f"cannot split the AI command {spec[:80]!r}: {exc}") from None
    program = resolve_program(argv[0], spec)
    args = argv[1:]
    for i, arg in enumerate(args):
        # "python3 bot.py": the program runs in the AI's own folder, so a file's path must be absolute.
        if not arg.startswith("-") and Path(arg).exists():
            args[i] = str(Path(arg).absolute())
        elif Path(arg).suffix.lower() in INTERPRETERS:
            raise InputError(f"no such file (named in the AI command {spec[:80]!r})", arg)
    return [str(program), *args]
