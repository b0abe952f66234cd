"""One-line prompts in the status bar, with the editing keys people expect, and path completion.

A prompt is either free text (cursor, Left/Right, Home/End, Backspace/Delete, Ctrl+A
selects all so typing replaces it, Tab completes a path) or a one-key choice (``y``/``n``).
Path prompts also drive the file browser panel (``pathui.listing``): Up/Down move the
selection in the listing, Enter takes it. No GL here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pathui.listing import Listing


def complete_path(text: str) -> tuple[str, list[str]]:
    """Tab completion: ``text`` extended by the longest common prefix of matching names, and the
    matching names (folders end in ``/``)."""
    expanded = os.path.expanduser(text) if text.startswith("~") else text
    folder, _, stem = expanded.rpartition("/")
    base = Path(folder + "/" if folder or expanded.startswith("/") else ".")
    try:
        names = sorted(
            entry.name + ("/" if entry.is_dir() else "")
            for entry in os.scandir(base)
            if entry.name.startswith(stem) and (stem.startswith(".") or not entry.name.startswith("."))
        )
    except OSError:
        return text, []
    if not names:
        return text, []
    common = _common_prefix(names)
    head = text[: len(text) - len(stem)] if text.endswith(stem) else text
    return head + common, names


def _common_prefix(names: list[str]) -> str:
    """The longest text every name starts with (character by character, as completion wants)."""
    first, last = min(names), max(names)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


@dataclass
class Prompt:
    """A question in the status bar: free text (``choices`` empty) or a one-key choice."""

    label: str
    on_submit: Callable[[str], None]
    text: str = ""
    choices: str = ""  # e.g. "yn": the answer is one key press
    paths: bool = False  # Tab completes paths; the file browser lists the folder
    cursor: int = -1
    all_selected: bool = False
    candidates: list[str] = field(default_factory=list)
    listing: Listing | None = None
    menu: list[tuple[str, str]] | None = None  # (label, value): the command palette
    menu_selected: int = 0

    def __post_init__(self) -> None:
        if self.cursor < 0:
            self.cursor = len(self.text)
        if self.paths:
            self.listing = Listing()
            self.listing.follow(self.text)

    def _changed(self) -> None:
        self.candidates = []
        self.menu_selected = 0
        if self.listing is not None:
            self.listing.follow(self.text)

    def set_text(self, text: str) -> None:
        self.text, self.cursor, self.all_selected = text, len(text), False
        self._changed()

    def insert(self, typed: str) -> None:
        typed = "".join(c for c in typed if c.isprintable() and c not in "\r\n")
        if not typed:
            return
        if self.all_selected:
            self.text, self.cursor, self.all_selected = "", 0, False
        self.text = self.text[: self.cursor] + typed + self.text[self.cursor :]
        self.cursor += len(typed)
        self._changed()

    def key(self, key: str, ctrl: bool = False) -> bool:
        """An editing key; returns whether it was one."""
        if ctrl and key == "A":
            self.all_selected = True
            self.cursor = len(self.text)
            return True
        if key == "BACKSPACE":
            if self.all_selected:
                self.set_text("")
            elif self.cursor > 0:
                self.text = self.text[: self.cursor - 1] + self.text[self.cursor :]
                self.cursor -= 1
                self._changed()
            return True
        if key == "DELETE":
            if self.all_selected:
                self.set_text("")
            elif self.cursor < len(self.text):
                self.text = self.text[: self.cursor] + self.text[self.cursor + 1 :]
                self._changed()
            return True
        moves = {"LEFT": self.cursor - 1, "RIGHT": self.cursor + 1, "HOME": 0, "END": len(self.text)}
        if key in moves:
            self.cursor = min(max(moves[key], 0), len(self.text))
            self.all_selected = False
            return True
        if key == "TAB" and self.paths:
            completed, self.candidates = complete_path(self.text)
            candidates = self.candidates
            self.set_text(completed)
            self.candidates = candidates if len(candidates) > 1 else []
            return True
        if key in ("UP", "DOWN") and self.menu is not None:
            count = len(self.menu_items())
            if count:
                self.menu_selected = (self.menu_selected + (-1 if key == "UP" else 1)) % count
            return True
        if key in ("UP", "DOWN") and self.listing is not None:
            self.listing.move(-1 if key == "UP" else 1)
            return True
        return False

    def menu_items(self) -> list[tuple[str, str]]:
        """The menu entries whose label contains every typed word (case-insensitive)."""
        words = self.text.lower().split()
        return [item for item in self.menu or [] if all(w in item[0].lower() for w in words)]

    @property
    def display(self) -> str:
        """The text with a cursor mark (the whole text bracketed when selected)."""
        if self.all_selected:
            return f"[{self.text}]"
        return self.text[: self.cursor] + "▏" + self.text[self.cursor :]


class Prompts:
    """The prompt currently shown, if any, and how keys and typed text reach it."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.current: Prompt | None = None

    def ask(
        self, label: str, on_submit: Callable[[str], None], text: str = "", choices: str = "", paths: bool = False
    ) -> Prompt:
        self.current = Prompt(label, on_submit, text, choices, paths)
        return self.current

    def cancel(self) -> None:
        self.current = None
        self.say("cancelled")

    def submit(self, text: str | None = None) -> None:
        prompt = self.current
        if prompt is None:
            return
        self.current = None
        prompt.on_submit(prompt.text if text is None else text)

    def key(self, key: str, ctrl: bool = False) -> None:
        prompt = self.current
        if prompt is None:
            return
        if key == "ESCAPE":
            self.cancel()
        elif prompt.choices:
            return
        elif key in ("ENTER", "RETURN") and prompt.menu is not None:
            items = prompt.menu_items()
            self.current = None
            if items:
                prompt.on_submit(items[min(prompt.menu_selected, len(items) - 1)][1])
            else:
                self.say(f"no command matches {prompt.text!r}")
        elif key in ("ENTER", "RETURN"):
            chosen = prompt.listing.chosen(prompt.text) if prompt.listing is not None else None
            if chosen is not None and chosen.is_dir():
                prompt.set_text(str(chosen).rstrip("/") + "/")
            else:
                self.submit(str(chosen) if chosen is not None else None)
        else:
            prompt.key(key, ctrl)

    def text(self, typed: str) -> None:
        prompt = self.current
        if prompt is None:
            return
        if prompt.choices:
            answer = typed.lower()[:1]
            if answer and answer in prompt.choices:
                self.current = None
                prompt.on_submit(answer)
            return
        prompt.insert(typed)

    def pick(self, path: Path) -> None:
        """A click on an entry of the file browser: enter a folder, take a file."""
        prompt = self.current
        if prompt is None:
            return
        if path.is_dir():
            prompt.set_text(str(path).rstrip("/") + "/")
        else:
            self.submit(str(path))
