"""``robots-view``: open a game in the 3D viewer, or render it offscreen to PNG/GIF/MP4.

    robots-view GAMEDIR
    robots-view BOARD.dat [--ai NAME | --sequence S]   (a board alone: its start pose)
    robots-view --board B --sequence globalseq.txt [--start X Y D] [--level L]
    robots-view --board B [--deck D | --seed N] --ai NAME|PROGRAM [--level L]
    robots-view --demo
    ... [--theme NAME] [--headless --out FILE [--size WxH] [--fps N] [--view V] [--speed X]
        [--camera auto|follow|fit] [--zoom Z]]

Bad input is one line on stderr (file:line:column, and the round and card for a sequence
that contradicts its board) and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import atexit
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from engine.ai.external import kill_running_ais, stop_all_ais
from engine.atomic import resolve_target
from engine.cliutil import (
    EXIT_BROKEN_PIPE,
    OneLineParser,
    ProgressBar,
    add_version,
    parse_size,
    seed_argument,
    stdout_gone,
)
from engine.errors import InputError
from engine.games import TRON
from engine.model import Level
from engine.protocol import parse_pose
from engine.resources import ResourceMissing
from engine.shipped import board_argument, board_or_arena_argument
from engine.stopping import describe, exit_status, raise_on_signals
from viewer3d import sources
from viewer3d.movie import CAMERAS, MAX_SECONDS, FramePlan
from viewer3d.sources import GameSource

if TYPE_CHECKING:  # the start screen's modules are imported only when it is shown
    from viewer3d.games import Game, ViewOptions
    from viewer3d.games.tron.live import LiveTronGame
    from viewer3d.start import StartScreen
    from viewer3d.start_tron import TronPanel

DEMOS = ("robots", "tron")
VIEWS = ("iso1", "iso2", "iso3", "iso4", "top", "persp")
DEMO_OUT = Path("out") / "demo.gif"  # relative to where robots-view runs (./run demo: the checkout)
DEMO_SIZE, DEMO_FPS, DEMO_MAX_SECONDS = (512, 384), 10, 30.0
EXIT_BAD_INPUT = 2
EXIT_AI_ERROR = 3  # as robots-engine: the game ended because the AI failed
EXIT_BROKEN_INSTALL = 4  # a file that ships with the package is missing


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="robots-view",
        description="Watch a robot game in 3D: a game directory, a board with its globalseq.txt, "
        "or a new game played by an AI while you watch.",
    )
    add_version(parser)
    parser.add_argument(
        "gamedir",
        nargs="?",
        type=board_or_arena_argument,
        help="a directory written by 'robots-engine play', a board file (.dat), a Tron game or arena, "
        "or the name of a shipped board or arena",
    )
    parser.add_argument("--board", type=board_argument, help="board file (.dat), or a shipped board's name")
    parser.add_argument("--sequence", help="globalseq.txt to replay on --board")
    parser.add_argument(
        "--start", nargs=3, metavar=("X", "Y", "D"), help="start pose (default: the board's start tile)"
    )
    parser.add_argument(
        "--level",
        choices=[lv.value for lv in Level],
        help="rule level (default: the hardest the sequence fits; hard for new games)",
    )
    parser.add_argument(
        "--ai", help="play a new game with this AI: a built-in name or an AI program (--demo tron: the first bot)"
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        metavar="S",
        help="--demo tron: seconds per answer for the bots (default 1, as robots-tron play)",
    )
    deck = parser.add_mutually_exclusive_group()
    deck.add_argument("--deck", help="deck file for --ai")
    deck.add_argument("--seed", type=seed_argument, help="generate the deck for --ai from this seed (default 1)")
    parser.add_argument(
        "--demo",
        nargs="?",
        const="robots",
        choices=DEMOS,
        help="robots (default): chop.dat, hard, the best built-in AI, seed 1; "
        "tron: the strong Tron bot against the simple one",
    )
    parser.add_argument("--theme", help="tile theme name")
    parser.add_argument("--headless", action="store_true", help="render offscreen (EGL) to --out, no window")
    parser.add_argument("--out", help="output file for --headless: .png (one frame), .gif or .mp4 (the replay)")
    parser.add_argument("--size", default=None, help="image size WxH (default 1024x768; GIF 640x480)")
    parser.add_argument("--fps", type=int, default=None, help="frames per second of a GIF/MP4 (default 15)")
    parser.add_argument("--view", choices=VIEWS, default="iso1", help="camera for --headless (default iso1)")
    parser.add_argument(
        "--speed",
        type=float,
        default=None,
        help="playback speed of an export (default: 1, faster for long games so it lasts <= 60 s)",
    )
    parser.add_argument(
        "--camera",
        choices=CAMERAS,
        default="auto",
        help="export camera: the whole board (fit), the robot in the middle of every frame (follow), "
        "or follow when the whole board would make the robot a few pixels small (auto, default)",
    )
    parser.add_argument(
        "--zoom",
        type=float,
        default=None,
        help="export zoom: times closer than the whole board (default 1 for fit, 16-pixel tiles for follow)",
    )
    parser.add_argument(
        "--round",
        type=int,
        metavar="N",
        help="export only round N: a .png shows the robot before its first card, a .gif/.mp4 the round",
    )
    parser.add_argument("--card", type=int, metavar="K", help="with --round: only card K of the round (.png: after it)")
    parser.add_argument("--no-hud", action="store_true", help="exports without the HUD text")
    parser.add_argument("--no-marks", action="store_true", help="exports without the AI's debug marks")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen instead of a window")
    parser.add_argument(
        "--screenshot", metavar="PNG", help="open the window, save its first frame to PNG and quit (for scripts)"
    )
    return parser


def check_writable(path: Path) -> None:
    """InputError unless ``path`` can take a new file: its folder exists (never created for the
    user) and nothing but a regular file (or a symlink to one) is there (``engine.atomic``). Said
    before a game is computed or a window opened, not after."""
    folder = path.parent
    if str(folder) and not folder.is_dir():
        raise InputError(f"folder {folder} does not exist", path)
    try:
        resolve_target(path)
    except OSError as exc:
        raise InputError(exc.strerror or str(exc), path) from None


def load_source(args: argparse.Namespace) -> GameSource:
    """The game the arguments name; InputError for anything wrong with it."""
    level = Level(args.level) if args.level else None
    start = parse_pose(" ".join(args.start), "--start") if args.start else None
    if args.demo:
        return sources.demo_source()
    # A board file: the board, with a game if asked. So is anything there that is no folder (a
    # FIFO, a link loop): the board reader names what it is ("b.dat: is a FIFO (named pipe), not a
    # regular file"), where the game folder reader said "b.dat: not a game directory".
    if args.gamedir and not Path(args.gamedir).is_dir() and os.path.lexists(args.gamedir):
        if args.board:
            raise InputError("give the board either as BOARD or as --board, not both")
        args.board = args.gamedir
        if not args.sequence and not args.ai:
            return sources.from_board_file(args.board, start)
    elif args.gamedir:
        if args.board or args.sequence or args.ai:
            raise InputError("give either GAMEDIR or --board with --sequence/--ai, not both")
        return sources.from_game_dir(args.gamedir, background=not args.headless)
    if not args.board:
        raise InputError("nothing to show: give GAMEDIR, --board B --sequence S, --board B --ai NAME, or --demo")
    if args.sequence and args.ai:
        raise InputError("give either --sequence (replay a game) or --ai (play a new one), not both")
    if args.sequence:
        return sources.from_sequence(args.board, args.sequence, start, level)
    if args.ai:
        seed = args.seed if args.seed is not None or args.deck else 1
        return sources.from_ai(args.board, args.ai, level or Level.HARD, args.deck, seed, start)
    raise InputError("--board needs --sequence FILE (replay) or --ai NAME (play a new game)")


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def export_command(argv: Sequence[str], out: str = "replay.gif") -> str:
    """The command line that renders the same game offscreen (window-only options dropped)."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--screenshot":
            skip = True
        elif not arg.startswith("--screenshot="):
            kept.append(arg)
    return " ".join(["robots-view", *(shlex.quote(a) for a in kept), "--headless", "--out", out])


def resolve_theme(name: str | None) -> object | None:
    """The theme object for ``--theme`` (None: the renderer's default); InputError if unusable."""
    if name is None:
        return None
    from themes import ThemeError, load_theme
    from themes.report import refusal_line, summary

    try:
        theme = load_theme(name)
    except ThemeError as exc:
        raise InputError(refusal_line(name, "; ".join(exc.problems) or "unusable")) from None

    for line in summary(list(theme.warnings)):  # a partial theme: what came from its base, in a line or three
        print(f"robots-view: theme {theme.path.name}: {line}", file=sys.stderr)
    return theme


def export(
    source: GameSource,
    out: Path,
    size: tuple[int, int] | None,
    fps: int | None,
    view: str,
    speed: float | None,
    theme: object | None,
    quiet: bool = False,
    max_seconds: float | None = None,
    camera: str = "auto",
    zoom: float | None = None,
    round_number: int | None = None,
    card: int | None = None,
    hud: bool = True,
    marks: bool = True,
) -> int:
    """Render the whole game (once computed), or one round or card of it, offscreen to ``out``,
    with the HUD text and the AI's debug marks painted on; returns the number of frames."""
    from viewer3d.export import ExportError, export_replay
    from viewer3d.movie import plan_frames, round_span

    sources.wait_complete(source)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".gif", ".mp4"):
        raise InputError(f"--out must end in .png, .gif or .mp4, not {out.suffix or 'nothing'!r}", out)
    still = suffix == ".png"
    size = size or ((640, 480) if suffix == ".gif" else (1024, 768))
    fps = fps or 15
    span = still_at = None
    if round_number is not None:
        try:
            span = round_span(source.timeline, round_number, card)
        except ValueError as exc:
            which = f"--round {round_number}" + (f" --card {card}" if card is not None else "")
            raise InputError(f"{which}: {exc}") from None
        still_at = span[1] if card is not None else span[0]
    frames = plan_frames(
        source,
        size,
        fps,
        view,
        speed,
        still=still,
        max_seconds=max_seconds or MAX_SECONDS,
        span=span,
        still_at=still_at,
        camera_mode=camera,
        zoom=zoom,
        hud_top=export_hud_top(source, size) if hud else 0.0,
        round_number=round_number,
    )
    decorate = export_decoration(source, frames, size, hud=hud, marks=marks)
    # One line in a log (a render is short), a live bar on a terminal.
    bar = None if quiet else ProgressBar(len(frames), unit="frames", label="rendering ", log_progress=False)
    try:
        export_replay(
            out,
            frames,
            size,
            fps,
            source.board,
            theme,  # type: ignore[arg-type]
            bar,
            decorate=decorate,
        )
    except ExportError as exc:
        raise InputError(str(exc)) from None
    except OSError as exc:
        failed = (Path(exc.filename) if exc.filename else out).resolve()
        target = out.resolve()
        if not (target.is_relative_to(failed) or failed.parent == target.parent):  # not the output: say what failed
            raise InputError(f"cannot read: {exc.strerror or exc}", exc.filename) from None
        raise InputError(f"cannot write: {exc.strerror or exc}", out) from None
    if bar is not None:
        bar.finish()
    return len(frames)


def export_hud_top(source: GameSource, size: tuple[int, int]) -> float:
    """The height of the strip the export's HUD text box covers (its tallest frame's), which the
    camera keeps the board out of; at most a fifth of the picture, so a talkative AI's output may
    overlap the board's edge rather than shrink it to a stamp."""
    from viewer3d.roundview import analysis_line, hud_box_height, round_lines

    longest = max(
        (
            len(round_lines(entry)) + len(analysis_line(source.analysis.get(number)))
            for number, entry in source.rounds.items()
        ),
        default=0,
    )
    return min(hud_box_height(3 + longest) + 4.0, 0.2 * size[1])  # title, round, game over + the round's


def export_decoration(
    source: GameSource, frames: FramePlan, size: tuple[int, int], *, hud: bool, marks: bool
) -> Callable[[Image.Image, int], Image.Image] | None:
    """What an exported frame gets painted on: the HUD's round, card, hand, choice and AI output,
    and the round's debug marks (as the window shows them)."""
    from viewer3d.roundview import analysis_line, draw_on_image, entry_for, project_marks, round_lines

    if not hud and not marks:
        return None
    timeline = source.timeline

    def decorate(image: Image.Image, index: int) -> Image.Image:
        t = frames.times[index]
        step_index = timeline.step_index_at(t)
        step = timeline.steps[step_index] if 0 <= step_index < len(timeline.steps) else None
        if frames.round_number is not None:  # one round: its last frame (the next one's start) is still it
            number = frames.round_number
        else:
            starting = [n for n, start in timeline.round_starts.items() if abs(start - t) < 1e-9]
            number = starting[0] if starting else (step.round_number if step is not None else 1)
        entry = entry_for(source.rounds, number)
        lines: list[str] = []
        if hud:
            card = step.index if step is not None and step.round_number == number else None
            where = f"round {number}" + (f"   card {card + 1}/5" if card is not None else "")
            lines = [source.title, where, *round_lines(entry, card), *analysis_line(source.analysis.get(number))]
            if timeline.complete and t >= timeline.duration - 1e-9 and timeline.outcome is not None:
                lines.append(f"game over: {timeline.outcome.value}")
        shapes = project_marks(entry, frames.frame(index)[0], size) if marks else None
        return draw_on_image(image, shapes, lines)

    return decorate


def positive_seconds(text: str) -> float:
    """A ``--time-limit``: a positive, finite number of seconds."""
    from engine.tron.cli import positive_seconds as engine_seconds

    return engine_seconds(text)


def main(argv: Sequence[str] | None = None) -> int:
    from engine.textout import readable_streams

    readable_streams()  # a file name that is not UTF-8 is printed as \xNN, never a traceback
    args_list = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(args_list)
    # The AI plays in a background thread: whatever ends this process ends it too, and removes its folder.
    atexit.register(stop_all_ais)
    raise_on_signals()
    try:
        size = parse_size(args.size) if args.size else None
        if args.fps is not None and not 1 <= args.fps <= 120:
            raise InputError(f"--fps must be between 1 and 120, not {args.fps}")
        if args.speed is not None and not 0 < args.speed <= 1000:
            raise InputError(f"--speed must be above 0 and at most 1000, not {args.speed}")
        if args.out and not args.headless:
            raise InputError("--out needs --headless (in the window, press S or F12 for a screenshot)")
        if args.headless and not args.out:
            raise InputError("--headless needs --out FILE (.png, .gif or .mp4)")
        if args.out and Path(args.out).suffix.lower() not in (".png", ".gif", ".mp4"):
            raise InputError(
                f"--out must end in .png, .gif or .mp4, not {Path(args.out).suffix or 'nothing'!r}", args.out
            )
        if args.screenshot and Path(args.screenshot).suffix.lower() != ".png":
            raise InputError(
                f"--screenshot must end in .png, not {Path(args.screenshot).suffix or 'nothing'!r}", args.screenshot
            )
        for written in (args.out, args.screenshot):
            if written:
                check_writable(Path(written))
        if args.zoom is not None and not 0.01 <= args.zoom <= 10_000:
            raise InputError(f"--zoom must be between 0.01 and 10000, not {args.zoom}")
        if args.gamedir and other_game(args.gamedir) is not None:  # another game than robots: its own scene
            return show_other_game(Path(args.gamedir), args, size, args_list)
        if args.demo == "tron":
            from viewer3d.games.tron.demo import run_demo

            return run_demo(
                view_options(args, size, args_list), display=has_display(), first=args.ai, time_limit=args.time_limit
            )
        if args.time_limit is not None:
            raise InputError("--time-limit is for a new Tron game's bots (--demo tron)")
        if not (args.gamedir or args.board or args.demo or args.headless or has_display()):
            # The start screen is a window: "nothing to show: give GAMEDIR, ..." hid why it did not open.
            print(
                "robots-view: no display (DISPLAY and WAYLAND_DISPLAY are unset) for the start screen; "
                "render a game offscreen instead: robots-view GAMEDIR --headless --out replay.gif",
                file=sys.stderr,
            )
            return 1
        alone = not (args.gamedir or args.board or args.demo or args.headless) and has_display()
        chosen = choose_on_start_screen(args) if alone else None  # robots-view alone: choose there
        if alone and chosen is None:
            return 0
        if chosen is not None and not isinstance(chosen, Path | GameSource):  # a new Tron game, watched live
            from viewer3d.show_cli import play_live

            return play_live(chosen, view_options(args, size, args_list))
        if isinstance(chosen, Path):  # a Tron game or arena chosen on the start screen
            return show_other_game(chosen, args, size, args_list)
        theme = resolve_theme(args.theme)
        source = chosen if chosen is not None else load_source(args)
        if not args.headless and not args.screenshot:
            remember(args)
        if args.headless:
            if args.card is not None and args.round is None:
                raise InputError("--card K needs --round N")
            count = export(
                source,
                Path(args.out),
                size,
                args.fps,
                args.view,
                args.speed,
                theme,
                round_number=args.round,
                card=args.card,
                hud=not args.no_hud,
                marks=not args.no_marks,
                camera=args.camera,
                zoom=args.zoom,
            )
            print(f"wrote {args.out} ({count} frame{'s' if count != 1 else ''})")
            if source.timeline.error is not None:  # an export has no HUD: say why the game stopped
                print(
                    f"robots-view: AI error: {source.timeline.error} (the export shows the game up to there)",
                    file=sys.stderr,
                )
                return EXIT_AI_ERROR
            return 0
        if not has_display():
            return no_display(
                source, args, args_list, "no display (DISPLAY and WAYLAND_DISPLAY are unset)", theme, size
            )
        next_view: str | None = None
        try:
            from viewer3d.app import ViewerApp
            from viewer3d.window import run_window

            app = ViewerApp(
                source.board,
                source.timeline,
                source.title,
                size or (1024, 768),
                screenshot_dir=Path.cwd(),
                theme=args.theme,
            )
            app.rounds = source.rounds  # live games fill it round by round
            app.analysis = source.analysis
            app.live_ai = bool(args.ai)
            app.ai_stage = lambda: source.ai_stage
            run_window(
                app,
                theme=theme,
                size=size or (1024, 768),
                screenshot=Path(args.screenshot) if args.screenshot else None,
                folder=source.folder,
                fullscreen=args.fullscreen,
            )
            if args.screenshot:  # as the start screen's --screenshot and every export say what they wrote
                print(f"wrote {args.screenshot}")
            elif app.reopen is not None:  # O (start screen) or a dropped file
                next_view = app.reopen
        except Exception as exc:  # pyglet cannot open a window: the display is unusable
            if type(exc).__module__.startswith(("pyglet", "moderngl", "glcontext")) or "display" in str(exc).lower():
                shown = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                return no_display(
                    source, args, args_list, f"cannot open a window on display {shown!r} ({exc})", theme, size
                )
            raise
        finally:
            source.stop.set()
            if not source.timeline.complete:  # closed or cancelled while computed: end the AI program now
                kill_running_ais()
        # Reopened only now: the game left (a live AI, the built-in planner too) is stopped first,
        # not when the start screen and whatever is opened from it are closed.
        return reopen(next_view, args, args_list) if next_view is not None else 0
    except BrokenPipeError:
        if stdout_gone():  # "wrote ..." into a pipe whose reader left: quiet, as every tool (was a traceback)
            return EXIT_BROKEN_PIPE
        raise
    except InputError as error:
        print(f"robots-view: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ResourceMissing as error:
        print(f"robots-view: {error}", file=sys.stderr)
        return EXIT_BROKEN_INSTALL
    except KeyboardInterrupt as stop:
        stop_all_ais()
        print(f"robots-view: {describe(stop)}", file=sys.stderr)
        return exit_status(stop)


def other_game(path: str | Path) -> Game | None:
    """The game a file belongs to when it is not the robot game (its entry shows it), else None."""
    from viewer3d.games import sniff

    game = sniff(path)
    return game if game is not None and game.show is not None else None


def show_other_game(
    path: Path, args: argparse.Namespace, size: tuple[int, int] | None, argv: Sequence[str] = ()
) -> int:
    """Show another game's file with that game's viewer, remembered among its recent games."""
    from viewer3d.recent import RecentGames

    game = other_game(path)
    assert game is not None and game.show is not None
    for name, option in ROBOT_ONLY_OPTIONS:
        if getattr(args, name, None) not in (None, False):
            raise InputError(f"{option} is for robot games; {path.name} is a {game.name} file")
    if not args.headless and not args.screenshot and has_display():
        if game.check is not None:
            game.check(path)  # a broken file is an error, never a recent game
        RecentGames(name=game.recent_file).add(path)
    return game.show(path, view_options(args, size, argv))


def view_options(args: argparse.Namespace, size: tuple[int, int] | None, argv: Sequence[str]) -> ViewOptions:
    """What the command line asks of another game's viewer (window, export, theme)."""
    from viewer3d.games import ViewOptions

    return ViewOptions(
        args.headless,
        args.out,
        size,
        args.fps,
        args.view,
        speed=args.speed,
        hud=not args.no_hud,
        screenshot=args.screenshot,
        fullscreen=args.fullscreen,
        argv=argv,
        theme=args.theme,
        round=args.round,
        zoom=args.zoom,
    )


#: Options that only mean something for a robot game's sources and exports.
ROBOT_ONLY_OPTIONS = (
    ("board", "--board"),
    ("sequence", "--sequence"),
    ("ai", "--ai"),
    ("card", "--card"),
)


def remember(args: argparse.Namespace) -> None:
    """Add what the window opens to the start screen's recent games: a game folder, a board file,
    or a board with its sequence (new games with an AI are chosen on the start screen instead)."""
    from viewer3d.recent import RecentGames

    if args.gamedir:
        RecentGames().add(args.gamedir)
    elif args.board and args.sequence:
        RecentGames().add(args.board, args.sequence)
    elif args.board and not args.ai:
        RecentGames().add(args.board)


def reopen(what: str, args: argparse.Namespace, args_list: Sequence[str]) -> int:
    """After the window closed for the start screen (``what == "start"``) or a dropped game
    folder or board file: run robots-view again on that, with the window options kept."""
    extra = [
        item for option, value in (("--theme", args.theme), ("--size", args.size)) if value for item in (option, value)
    ]
    extra += ["--fullscreen"] if args.fullscreen else []
    if what == "start":
        return main(extra)
    return main([what, *extra])


def choose_on_start_screen(args: argparse.Namespace) -> GameSource | Path | LiveTronGame | None:
    """The game chosen on the start screen (a Path: another game's file, such as a Tron game); a
    file that cannot be opened brings the start screen back with the one-line error on it (a
    window user never lands on a terminal message). None when the start screen was closed."""
    pristine = dict(vars(args))
    message = ""
    screen: StartScreen | None = None
    while screen := start_screen(args, message, screen):
        if screen.watched is not None:
            return screen.watched
        try:
            game = other_game(args.gamedir) if args.gamedir else None
            if game is not None:
                if game.check is not None:
                    game.check(Path(args.gamedir))
                return Path(args.gamedir)
            return load_source(args)
        except InputError as error:
            message = str(error)
            vars(args).update(pristine)
    return None


#: How long a cancelled live Tron game may take to finish its round and end its bots.
LIVE_STOP_SECONDS = 10.0
#: What a start screen brought back after an error keeps of the one before: the user's choices.
KEPT_CHOICES = ("board", "ai", "level", "seed", "deck", "deck_file", "theme", "fullscreen", "game", "tron")


def start_screen(
    args: argparse.Namespace, message: str = "", previous: StartScreen | None = None
) -> StartScreen | None:
    """Show the start screen and put what was chosen there into ``args`` (a new game's board,
    AI, level, deck file or seed, and theme, or a dropped game folder or board file) and return
    the screen; None when it was closed (or only photographed with --screenshot). The choices
    made on ``previous`` are kept."""
    from gameboards import board_names, board_path
    from viewer3d.start import StartScreen
    from viewer3d.start_window import run_start_screen

    try:
        from viewer3d.app import discovered_theme_keys

        themes = discovered_theme_keys() or ["default"]
    except Exception:  # an unreadable themes folder: the default theme only
        themes = ["default"]
    from viewer3d.games import by_name
    from viewer3d.recent import RecentGames

    tron_recent = RecentGames(name=by_name(TRON).recent_file)
    last = "tron" if tron_recent.written() > RecentGames().written() else "robots"  # the tab of the last game
    screen = StartScreen(
        board_names(),
        themes,
        recent=RecentGames().load(),
        message=message,
        tron=tron_tab(),
        game=last,
        watch_live=True,
    )
    for name in KEPT_CHOICES if previous is not None else ():
        setattr(screen, name, getattr(previous, name))
    shot = Path(args.screenshot) if args.screenshot else None
    run_start_screen(screen, shot, parse_size(args.size) if args.size else None)
    live = screen.live
    if live is not None and (screen.watched is not live or shot is not None):  # closed: end it and its bots
        live.cancel()
        live.wait(LIVE_STOP_SECONDS)
        screen.live = screen.watched = None
    if shot is not None:
        print(f"wrote {shot}")
        return None
    if screen.on_tron:  # a Tron game is watched with the Tron tab's theme and window choices
        args.theme, args.fullscreen = screen.theme, screen.fullscreen
    if screen.watched is not None:  # Start on the Tron tab: watched while it is played
        tron_recent.add(str(screen.watched.arena_path))
        return screen
    if screen.dropped is not None:
        args.gamedir = screen.dropped
        return screen
    if screen.played_arena is not None:  # a live Tron game's arena: offered again next time
        tron_recent.add(screen.played_arena)
    if screen.opened is not None:  # a recent game or the file browser's: a game folder, a board, a board + sequence
        if screen.opened.sequence is not None:
            args.board, args.sequence = screen.opened.path, screen.opened.sequence
        else:
            args.gamedir = screen.opened.path
        return screen
    choice = screen.chosen
    if choice is None:
        return None
    args.board, args.ai, args.level = str(board_path(choice.board)), choice.ai, choice.level.value
    args.seed, args.deck = choice.seed, choice.deck  # a deck file, or the (maybe random) seed
    args.theme, args.fullscreen = choice.theme, choice.fullscreen
    return screen


def tron_tab() -> TronPanel:
    """The start screen's Tron tab: the shipped arenas, the recent Tron games and arenas, its bots."""
    from viewer3d.games import by_name
    from viewer3d.recent import RecentGames
    from viewer3d.start_tron import TronPanel

    tron = by_name(TRON)
    shipped = tron.boards() if tron.boards is not None else []
    return TronPanel(shipped, RecentGames(name=tron.recent_file).load(), tron.players)


def no_display(
    source: GameSource,
    args: argparse.Namespace,
    argv: Sequence[str],
    why: str,
    theme: object | None,
    size: tuple[int, int] | None,
) -> int:
    """Say there is no screen in one line; for --demo go on and render out/demo.gif offscreen."""
    if not args.demo:
        print(f"robots-view: {why}; render offscreen instead: {export_command(argv)}", file=sys.stderr)
        return 1
    print(
        f"robots-view: {why}; rendering the demo offscreen to {DEMO_OUT} instead "
        f"(same as: {export_command(argv, str(DEMO_OUT))})",
        file=sys.stderr,
    )
    DEMO_OUT.parent.mkdir(parents=True, exist_ok=True)  # the demo's own output folder
    count = export(
        source,
        DEMO_OUT,
        size or DEMO_SIZE,
        args.fps or DEMO_FPS,
        args.view,
        args.speed,
        theme,
        max_seconds=DEMO_MAX_SECONDS,
    )
    print(f"wrote {DEMO_OUT} ({count} frames): open it in an image viewer")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
