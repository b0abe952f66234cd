"""Live reload: notice that a theme's files changed and load the new version.

Polling, not a file-system notification library: a theme folder holds a few dozen files, and
one ``scandir`` with their sizes, times and inodes costs microseconds, works the same on every
platform and needs no thread. A front end calls :meth:`ThemeWatcher.poll` from its clock a few
times a second; a picture caught half-written reads as broken, keeps its last good version
(``load_theme(previous=...)``) and is read again at the next change.
"""

from __future__ import annotations

from themes.loader import load_theme
from themes.stamp import folder_stamp
from themes.theme import Theme

POLL_SECONDS = 0.25


class ThemeWatcher:
    """Watches the folder of ``theme``; :meth:`poll` returns the reloaded theme after a change."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self._stamp = theme.stamp  # as the files were when the theme was read: no change is missed

    def poll(self) -> Theme | None:
        """The theme read again if any of its files changed since the last poll, else None.

        A folder that became unreadable (deleted, unmounted) is not a change: the theme
        shown stays, and the next poll tries again."""
        stamp = folder_stamp(self.theme.path)
        if stamp is None or stamp == self._stamp:
            return None
        self._stamp = stamp
        try:
            fresh = load_theme(self.theme.path, previous=self.theme)
        except Exception:  # the folder vanished between the two reads: keep what is shown
            return None
        self.theme = fresh
        return fresh
