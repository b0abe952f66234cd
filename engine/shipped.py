"""BOARD arguments on the command line: a file, or the name of a board or arena that ships inside the
package.

An installed copy keeps its boards in site-packages, which nobody types; ``robots-engine play
chop.dat`` in an empty folder should play the shipped chop.dat, as ``robots-engine boards`` lists
it. A file of that name in the folder always wins, and any text with a folder in it is a path, so
the fallback never hides a user's file: it only turns "no such file" into the board the user named.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def _shipped_or_given(text: str, names: Callable[[], list[str]], path_of: Callable[[str], Path]) -> str:
    if not text or Path(text).name != text or Path(text).exists():
        return text
    return str(path_of(text)) if text in names() else text


def board_argument(text: str) -> str:
    """``text``, or the path of the shipped board named ``text`` when no such file is here.

    The name may leave out ``.dat``, as a Tron arena's may leave out ``.txt``: ``robots-engine
    play chop`` said "chop: no such file" where ``robots-tron play open-10x10`` played."""
    import gameboards

    return _with_or_without(text, ".dat", gameboards.board_names, gameboards.board_path)


def arena_argument(text: str) -> str:
    """``text``, or the path of the shipped Tron arena named ``text`` when no such file is here.

    The name may leave out ``.txt``, as docs/tron.md's table of arenas and the editor's list do."""
    import gameboards

    return _with_or_without(text, ".txt", gameboards.tron_arena_names, gameboards.tron_arena_path)


def _with_or_without(text: str, suffix: str, names: Callable[[], list[str]], path_of: Callable[[str], Path]) -> str:
    """The shipped file named ``text``, or ``text`` + ``suffix``; ``text`` itself when neither is
    shipped or a file of that name is here."""
    given = _shipped_or_given(text, names, path_of)
    if given != text or text.endswith(suffix) or Path(text).exists():
        return given
    named = _shipped_or_given(text + suffix, names, path_of)
    return named if named != text + suffix else text


def board_or_arena_argument(text: str) -> str:
    """``text``, or the path of the shipped board or else Tron arena named ``text`` (robots-view)."""
    shipped = board_argument(text)
    return shipped if shipped != text else arena_argument(text)
