"""The Tron window's state and keys, without GL: time, play/pause, speed, camera views.

Space play/pause    Left/Right one round back/forward    Home/End start/end
+ / - speed         1-4 iso views    T top view    drag orbit    wheel zoom    S screenshot    Q/Esc quit
"""

from __future__ import annotations

from engine.tron.record import GameRecord
from viewer3d.camera import ISO_YAWS, Camera
from viewer3d.games.tron.timeline import Moment, Timeline

SPEEDS = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0)
HELP = "Space play/pause  Left/Right step  Home/End  +/- speed  1-4 iso  T top  drag orbit  wheel zoom  S shot  Q quit"


class TronPlayer:
    """Plays a game: ``update(dt)`` advances time while playing; ``key(name)`` handles a key."""

    def __init__(self, record: GameRecord, size: tuple[int, int] = (1024, 768)) -> None:
        self.timeline = Timeline(record)
        self.camera = Camera((record.arena.width, record.arena.height), size)
        self.time = 0.0
        self.playing = True
        # start at a speed that shows a long game in about a minute
        self.speed_index = next((i for i, s in enumerate(SPEEDS) if s * 60 >= self.timeline.duration), len(SPEEDS) - 1)
        self.speed_index = max(self.speed_index, 2)
        self.quit_requested = False
        self.screenshot_requested = False

    @property
    def speed(self) -> float:
        """Rounds per second."""
        return SPEEDS[self.speed_index]

    def update(self, dt: float) -> None:
        self.camera.update(dt)
        if self.playing:
            self.time = min(self.timeline.duration + 1.5, self.time + dt * self.speed)
            if self.time >= self.timeline.duration + 1.5:
                self.playing = False

    def moment(self) -> Moment:
        return self.timeline.at(self.time)

    def hud(self) -> list[str]:
        state = "playing" if self.playing else "paused"
        return [*self.moment().hud, f"{state}, {self.speed:g} rounds/s", HELP]

    def key(self, name: str) -> bool:
        """Handle a key by name (pyglet's symbol names); False when it means nothing here."""
        end = self.timeline.duration
        if name == "SPACE":
            if not self.playing and self.time >= end:
                self.time = 0.0
            self.playing = not self.playing
        elif name == "RIGHT":
            self.playing = False
            self.time = min(end, float(int(self.time) + 1))
        elif name == "LEFT":
            self.playing = False
            self.time = max(0.0, float(int(self.time) - (0 if self.time != int(self.time) else 1)))
        elif name == "HOME":
            self.time = 0.0
        elif name == "END":
            self.time, self.playing = end + 1.5, False
        elif name in ("PLUS", "EQUAL", "NUM_ADD"):
            self.speed_index = min(len(SPEEDS) - 1, self.speed_index + 1)
        elif name in ("MINUS", "NUM_SUBTRACT"):
            self.speed_index = max(0, self.speed_index - 1)
        elif name in ("_1", "_2", "_3", "_4"):
            self.camera.iso_view(int(name[1]))
        elif name == "T":
            self.camera.top_view()
        elif name == "S":
            self.screenshot_requested = True
        elif name in ("Q", "ESCAPE"):
            self.quit_requested = True
        else:
            return False
        return True


__all__ = ["ISO_YAWS", "TronPlayer"]
