"""The warm round of ``robots-ai``: a cached plan answers with the standard library alone.

The contest starts ``robots-ai`` once per round and gives it 10 s, but a fast entry should cost
far less than that: with the plan cached, a decision must take at most 100 ms as a whole process.
Starting Python takes a good part of that, and importing the engine's model, rules and parsers
(dataclasses, enums, argparse) would take most of the rest. So this module handles only the
ordinary case, with nothing but the standard library and the numpy-free plan modules:

- the arguments are just ``LEVEL`` (optionally ``--cache-dir DIR``);
- ``board.txt`` is in canonical form (as ``robots-engine`` writes it), so its text hashes straight
  to the cache key (``plan_file.text_key``); the plan file's own check of that key then proves
  that the board is the one the plan was built for, without parsing it;
- ``cards.txt`` holds eight cards and ``bot.txt`` one pose, both written exactly as the contest
  writes them, and the pose's value was iterated.

Anything else (another board layout, odd spacing, bad input, a missing or damaged cache, a write
that fails) returns False and ``contest_entry`` takes the full path, which parses with the engine's
readers, reports errors, and builds the plan. Both paths choose with ``plan_choice.best`` on the
same arrays, so the answer does not depend on which one ran (tests check it).
"""

from __future__ import annotations

import os

from engine.ai import plan_choice, plan_file

#: Card kinds as written in card files, in ``engine.cards.Card`` order (a test checks it).
CARD_TEXTS = ("MF 3", "MF 2", "MF 1", "MB", "RL", "RR", "RU")
#: Facing letters in ``engine.model.Direction`` order (a test checks it).
FACINGS = "LRUD"
LEVELS = ("easy", "normal", "hard")
HAND_SIZE = 8


def _arguments(argv: list[str]) -> tuple[str, str | None] | None:
    """(level, cache folder or None for the default) when ``argv`` is the plain case."""
    level: str | None = None
    folder: str | None = None
    rest = list(argv)
    while rest:
        word = rest.pop(0)
        if word == "--cache-dir" and rest and rest[0] and not rest[0].startswith("-") and folder is None:
            folder = rest.pop(0)
        elif word in LEVELS and level is None:
            level = word
        else:
            return None
    return (level, folder) if level is not None else None


def _read(name: str) -> str:
    """A regular file's text; OSError for anything else (a FIFO would block the open for ever)."""
    from engine.atomic import read_regular  # loaded on this path anyway (ccards.txt is written with it)

    return read_regular(name, plan_file.MAX_FILE_BYTES).decode("utf-8")  # not engine.bounds: see there


def _pose(text: str) -> tuple[int, int, int] | None:
    parts = text.split(" ")
    if len(parts) != 3 or not text.endswith("\n") or text.count("\n") != 1:
        return None
    x, y, facing = parts[0], parts[1], parts[2][:-1]
    if not (x.isascii() and x.isdigit() and y.isascii() and y.isdigit()) or len(facing) != 1 or facing not in FACINGS:
        return None
    if str(int(x)) != x or str(int(y)) != y:  # "07": the full path decides what that means
        return None
    return int(x), int(y), FACINGS.index(facing)


def _hand(text: str) -> list[int] | None:
    lines = text.split("\n")
    if lines[-1] != "" or len(lines) != HAND_SIZE + 1:
        return None
    hand = []
    for line in lines[:-1]:
        if line not in CARD_TEXTS:
            return None
        hand.append(CARD_TEXTS.index(line))
    return hand


def answer(argv: list[str]) -> bool:
    """Decide from the cache and write ``ccards.txt`` in the working folder; False to hand over."""
    arguments = _arguments(argv)
    if arguments is None:
        return False
    level, folder = arguments
    try:
        board_text = _read("board.txt")
        hand = _hand(_read("cards.txt"))
        pose = _pose(_read("bot.txt"))
    except (OSError, UnicodeDecodeError):
        return False
    if hand is None or pose is None:
        return False
    cache = folder if folder is not None else plan_file.default_cache_dir()
    data = plan_file.load_keyed(cache, plan_file.text_key(board_text, level))
    if data is None:
        return False
    x, y, facing = pose
    if x >= data.width or y >= data.height:
        return False
    state = (y * data.width + x) * 4 + facing
    if not data.solved[state]:
        return False
    best = plan_choice.best(data.next, data.goal, data.won, data.alive, data.states, state, hand)
    from engine.atomic import write_text_atomic

    try:
        write_text_atomic(os.path.join(os.getcwd(), "ccards.txt"), "".join(CARD_TEXTS[i] + "\n" for i in best))
    except OSError:
        return False
    return True
