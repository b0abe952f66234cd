"""An X display name that no server answers, for the tests of "cannot open a window".

A fixed ``:97`` was a live display whenever someone on the machine ran Xvfb on it (a developer
driving the viewer by hand): the viewer then opened its window there and the test failed. The
number is chosen where no X server holds its lock file or socket.
"""

from __future__ import annotations

import os


def unreachable_display() -> str:
    """``:N`` for the first N from 1000 with no X lock file and no socket on this machine."""
    for number in range(1000, 2000):
        if not os.path.lexists(f"/tmp/.X{number}-lock") and not os.path.lexists(f"/tmp/.X11-unix/X{number}"):
            return f":{number}"
    raise AssertionError("no free X display number from 1000 to 1999")
