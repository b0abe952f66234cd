"""File handling of the editor: open, save, save as, new, recent files, unsaved-changes questions.

Every question goes through the prompts (with the file browser for paths). Save as asks
before overwriting an existing file; saving writes through symlinks and refuses read-only
targets and missing folders with a message (``editor.safe_write``); opening a path in a
missing folder says so instead of starting a board that can never be saved.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from editor.autosave import Autosaver, state_folder
from editor.document import Document
from engine.atomic import read_regular, write_text_atomic
from engine.bounds import MAX_FILE_BYTES
from engine.errors import InputError, read_text
from pathui.prompt import Prompts

RECENT_MAX = 10


class RecentFiles:
    """The last boards opened or saved, newest first, kept in the per-user state folder."""

    def __init__(self, folder: Path | None = None) -> None:
        self.file = (folder or state_folder()) / "recent.txt"

    def load(self) -> list[Path]:
        try:
            lines = read_regular(self.file, MAX_FILE_BYTES).decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return []
        return [Path(line) for line in lines if line.strip()][:RECENT_MAX]

    def add(self, path: Path) -> None:
        full = path.absolute()
        paths = [full, *(p for p in self.load() if p != full)][:RECENT_MAX]
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.file, "".join(f"{p}\n" for p in paths))
        except OSError:
            pass  # a read-only home: recent files are a convenience, never an error


class Settings:
    """The editor's few remembered choices (the right button's job), as JSON in the state folder.

    A missing, unreadable or hand-broken file means the defaults; it is never an error. Both files
    are read with ``engine.atomic.read_regular``: a FIFO in their place held the editor at start
    for ever (``read_text`` waits for a writer), a folder or ``/dev/zero`` is no list either."""

    def __init__(self, folder: Path | None = None) -> None:
        self.file = (folder or state_folder()) / "settings.json"

    def load(self) -> dict[str, object]:
        try:
            data = json.loads(read_regular(self.file, MAX_FILE_BYTES).decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}

    def save(self, changes: dict[str, object]) -> None:
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.file, json.dumps({**self.load(), **changes}, indent=2) + "\n")
        except OSError:
            pass  # a read-only home: the choice holds for this session only


def parse_new_size(text: str, parse: Callable[[str], tuple[int, int, str]]) -> tuple[int, int]:
    width, height, _ = parse(text)
    return width, height


class FileActions:
    """Open / save / save as / new for one document, through prompts."""

    def __init__(
        self,
        document: Document,
        prompts: Prompts,
        autosaver: Autosaver,
        say: Callable[[str], None],
        offer_autosave: Callable[[], None],
        recent: RecentFiles | None = None,
    ) -> None:
        self.document = document
        self.prompts = prompts
        self.autosaver = autosaver
        self.say = say
        self.offer_autosave = offer_autosave
        self.recent = recent or RecentFiles()
        self.last_folder: Path | None = None  # the folder of the last file, kept after Ctrl+N
        self._disk_told: str | None = None  # the change on disk last told about (told once)

    # -- questions -------------------------------------------------------------
    def unless_unsaved(self, proceed: Callable[[], None]) -> None:
        """Run ``proceed`` now, or after asking what to do with unsaved changes."""
        if not self.document.modified:
            proceed()
            return

        def answer(choice: str) -> None:
            if choice == "y":
                self.save(then=proceed)
            elif choice == "n":
                proceed()

        self.prompts.ask("unsaved changes — save them first? y = save, n = discard, Esc = cancel", answer, choices="yn")

    def ask_path(self, label: str, on_submit: Callable[[str], None], text: str) -> None:
        def submit(typed: str) -> None:
            # A folder typed in full (no entry chosen) is entered, as a chosen one is: the browser
            # stays open there, instead of closing and sending the next keys to the board.
            folder = Path(typed.strip()).expanduser()
            if typed.strip() and folder.is_dir():
                self.ask_path(label, on_submit, str(folder).rstrip("/") + "/")
                return
            on_submit(typed)

        prompt = self.prompts.ask(label, submit, text=text, paths=True)
        if prompt.listing is not None:
            prompt.listing.recent = self.recent.load() if label.startswith("open") else []
            prompt.listing._shown_for = None
            prompt.listing.follow(prompt.text)

    def folder(self) -> Path:
        """Where the browser starts: the board's folder; for a new board, the last file's folder."""
        path = self.document.path
        return (path.parent if path is not None else self.last_folder or Path.cwd()).absolute()

    def _folder_text(self) -> str:
        return f"{self.folder()}/"

    # -- save ----------------------------------------------------------------
    def save(self, then: Callable[[], None] | None = None) -> None:
        if self.document.path is None:
            self.save_as(then)
            return
        self.save_to(self.document.path, then)

    def save_as(self, then: Callable[[], None] | None = None) -> None:
        path = self.document.path
        game = self.document.game
        text = str(path.absolute()) if path is not None else self._folder_text() + game.noun + game.suffix
        self.ask_path("save as:", lambda typed: self._save_as_typed(typed, then), text)

    def _save_as_typed(self, typed: str, then: Callable[[], None] | None) -> None:
        if not typed.strip():
            self.say("no file name given: not saved")
            return
        path = Path(typed.strip()).expanduser()
        if path.is_dir():
            self.say(f"{path} is a folder: type a file name after it")
            return
        if path.exists() and path.absolute() != (self.document.path or Path()).absolute():

            def answer(choice: str) -> None:
                if choice == "y":
                    self.save_to(path, then)
                else:
                    self.say("not saved")

            self.prompts.ask(f"{path.name} already exists — replace it? y/n", answer, choices="yn")
            return
        self.save_to(path, then)

    def save_to(self, path: Path, then: Callable[[], None] | None = None) -> None:
        """Save to ``path``; when it is this board's own file and another editor or program
        changed it since it was opened or saved here, ask before replacing that work."""
        own = self.document.path is not None and path.absolute() == self.document.path.absolute()
        if own and self.document.changed_on_disk():

            def answer(choice: str) -> None:
                if choice == "y":
                    self._write(path, then)
                else:
                    self.say(
                        f"not saved: {path.name} was changed by another program; Ctrl+Shift+S saves under another name"
                    )

            self.prompts.ask(
                f"{path.name} was changed on disk by another program since you opened it — replace it? y/n",
                answer,
                choices="yn",
            )
            return
        self._write(path, then)

    def _write(self, path: Path, then: Callable[[], None] | None) -> None:
        try:
            self.document.save(path)
        except OSError as exc:
            self.say(f"could not save {path}: {exc.strerror or exc}")
            return
        self.autosaver.saved()
        self.recent.add(path)
        self.say(f"saved {path}")
        if then is not None:
            then()

    # -- changed on disk -----------------------------------------------------
    def check_disk(self) -> None:
        """The window was activated again: when another program changed the file meanwhile,
        offer to reload it (no unsaved edits here), else say so (saving will ask). Each change
        on disk is told once; nothing is said while a question shows."""
        document = self.document
        if document.path is None or not document.changed_on_disk() or self.prompts.current is not None:
            return
        text = document.disk_now()
        if text is None or text == self._disk_told:
            return
        self._disk_told = text
        path = document.path
        if document.modified:
            self.say(
                f"{path.name} was changed on disk by another program; "
                "you have unsaved edits here: saving will ask before replacing it"
            )
            return

        def answer(choice: str) -> None:
            if choice == "y":
                self.reload(path)
            else:
                self.say(f"not reloaded: saving will ask before replacing the new {path.name} on disk")

        self.prompts.ask(f"{path.name} was changed on disk by another program — reload it? y/n", answer, choices="yn")

    def reload(self, path: Path) -> None:
        document = self.document
        if document.path != path:
            return  # another file was opened meanwhile
        try:
            text = read_text(path)
            board = document.game.parse(text, path)
        except InputError as exc:
            self.say(f"could not reload: {exc}")
            return
        document.reload(board, text)
        self.say(f"reloaded {path.name} from disk (Ctrl+Z brings back what was here)")

    # -- open / new -------------------------------------------------------------
    def open(self) -> None:
        self.unless_unsaved(lambda: self.ask_path("open:", self.open_path, self._folder_text()))

    def open_path(self, text: str) -> None:
        path = Path(text.strip()).expanduser()
        if not text.strip():
            self.say("no file name given")
            return
        if not path.exists():
            folder = path.parent
            if not folder.is_dir():
                self.say(f"cannot open {path}: the folder {folder} does not exist")
                return
            game = self.document.game
            self.document.replace(game.blank(*game.default_size), path)
            self.say(f"{path.name} does not exist yet: a blank {game.noun} that will be saved there")
            return
        try:
            opened = Document.open(path)
        except InputError as exc:
            self.say(str(exc))
            return
        self.document.replace(opened.board, path, opened.disk_text)
        self.recent.add(path)
        self.say(f"opened {path}")
        self.offer_autosave()

    def drop(self, paths: list[str]) -> None:
        """Files dropped onto the window: open the first (after the unsaved-changes question)."""
        if not paths:
            return
        first = paths[0]
        self.unless_unsaved(lambda: self.open_path(first))
        if len(paths) > 1:
            self.say(f"{len(paths)} files dropped: opening {Path(first).name}")

    def new(self, parse: Callable[[str], tuple[int, int, str]]) -> None:
        board = self.document.board

        def make(text: str) -> None:
            try:
                width, height = parse_new_size(text, parse)
            except ValueError as exc:
                self.say(str(exc))
                return
            game = self.document.game
            try:
                blank = game.blank(width, height)
            except ValueError as exc:
                self.say(str(exc))
                return
            if self.document.path is not None:
                self.last_folder = self.document.path.parent
            self.document.replace(blank, None)
            self.say(f"new {width}x{height} {game.noun}")

        def ask() -> None:
            self.prompts.ask(f"new {self.document.game.noun}, size:", make, text=f"{board.width}x{board.height}")

        self.unless_unsaved(ask)
