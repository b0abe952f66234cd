"""``robots-theme list|check|sheet``: output, exit codes, one-line errors."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from themes.cli import main
from themes.loader import BUILTIN_DIR


def test_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    shutil.copytree(BUILTIN_DIR / "default", tmp_path / "broken")
    (tmp_path / "broken" / "hole.png").unlink()
    assert main(["list", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["default", "Default", "builtin", "ok"]
    assert lines[1].split()[:4] == ["pen", "Pen", "builtin", "ok"]
    assert lines[-1].split()[:5] == ["broken", "Default", "extra", "1", "problem"]
    assert len({line.index("/") for line in lines}) == 1  # the path column lines up


def test_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(BUILTIN_DIR / "pen")]) == 0
    assert capsys.readouterr().out.strip().endswith("pen: ok")


def test_check_prints_each_problem_on_its_own_line(capsys: pytest.CaptureFixture[str], theme_copy: Path) -> None:
    (theme_copy / "oil.png").unlink()
    Image.new("RGB", (64, 64)).save(theme_copy / "robot.png")
    (theme_copy / "theme.json").write_text('{"name": }')
    assert main(["check", str(theme_copy)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert lines[0] == "mytheme/theme.json:1:10: invalid JSON: Expecting value"
    assert lines[1].startswith("mytheme/robot.png: has no alpha channel")
    assert lines[2] == "mytheme: 1 picture not here, taken from default: oil"


def test_check_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "nonexistent"]) == 1
    assert capsys.readouterr().out.startswith("no theme called 'nonexistent'")


def test_sheet_writes_a_labelled_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "sub" / "sheet.png"
    assert main(["sheet", "default", "--out", str(out), "--columns", "6"]) == 0
    assert "contact sheet of Default" in capsys.readouterr().out
    with Image.open(out) as sheet:
        assert sheet.format == "PNG" and sheet.width == 10 + 6 * (2 * 130 + 10)  # flat tile and 3D beside it
        pixels = np.asarray(sheet.convert("RGB"))
    assert len({tuple(p) for p in pixels.reshape(-1, 3)[::97]}) > 50  # drawn, not blank
    assert not list(tmp_path.glob("sub/*.tmp"))


def test_sheet_of_partial_theme_warns_in_one_line(
    capsys: pytest.CaptureFixture[str], theme_copy: Path, tmp_path: Path
) -> None:
    (theme_copy / "goal.png").unlink()
    assert main(["sheet", str(theme_copy), "--out", str(tmp_path / "s.png")]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == ["mytheme: 1 picture not here, taken from default: goal"]
    assert (tmp_path / "s.png").exists()


def test_sheet_unwritable_output_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert main(["sheet", "pen", "--out", str(tmp_path / "file" / "s.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv", [["sheet", "pen"], ["bogus"], [], ["check"], ["list", "--bad"]])
def test_bad_arguments_exit_2_in_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("robots-theme"), lines


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("floor", "floor  [' ' a S T U V]"),
        ("wall-p", "wall-p  [p]"),
        ("conveyor-up", "conveyor-up  [^]"),
        ("crusher-ud", "crusher-ud  [N]"),
        ("robot", "robot"),
    ],
)
def test_sheet_labels_name_key_and_board_characters(key: str, label: str) -> None:
    from themes.sheet import label_for

    assert label_for(key) == label


def test_new_copies_a_theme_into_the_user_folder(capsys: pytest.CaptureFixture[str]) -> None:
    from themes import list_themes, load_theme, user_themes_dir

    assert main(["new", "mine", "--from", "pen"]) == 0
    target = user_themes_dir() / "mine"
    assert capsys.readouterr().out.startswith(f"{target}: new theme copied from Pen")
    theme = load_theme("mine")
    assert theme.path == target.resolve() and theme.name == "mine" and theme.manifest.start_marker
    assert theme.tile("goal").tobytes() == load_theme("pen").tile("goal").tobytes()
    assert [(i.key, i.origin) for i in list_themes() if i.origin == "user"] == [("mine", "user")]
    assert not list(target.parent.glob(".*"))
    assert main(["new", "mine"]) == 2
    assert "already exists, not overwriting it" in capsys.readouterr().err


def test_new_from_a_read_only_theme_is_writable(tmp_path: Path) -> None:
    """A theme installed read-only (a system package, a store) was copied with its modes: the
    new theme's PNGs could not be saved over and its folders took no new file."""
    origin = tmp_path / "installed"
    shutil.copytree(BUILTIN_DIR / "pen", origin)
    for path in [*sorted(origin.rglob("*"), reverse=True), origin]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        assert main(["new", "mine", "--from", str(origin), "--dir", str(tmp_path / "themes")]) == 0
    finally:
        for path in [origin, *origin.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
    made = tmp_path / "themes" / "mine"
    for path in [made, *made.rglob("*")]:
        wanted = stat.S_IWUSR | (stat.S_IXUSR if path.is_dir() else 0)
        assert path.stat().st_mode & wanted == wanted, path


def test_commands_suggested_for_a_folder_with_spaces_can_be_pasted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``then: robots-theme check /x/my théme`` checked ``/x/my``: the path is quoted as a shell needs."""
    parent = tmp_path / "the themes"
    assert main(["new", "my théme", "--dir", str(parent)]) == 0
    assert capsys.readouterr().out.endswith(f"then: robots-theme check '{parent / 'my théme'}'\n")
    sheet = tmp_path / "my sheet.png"
    assert main(["template", "--out", str(sheet)]) == 0
    assert capsys.readouterr().out.endswith(f"then: robots-theme import '{sheet}' NAME\n")
    assert main(["import", str(sheet), "it's", "--dir", str(parent)]) == 0
    quoted = "'" + str(parent / "it") + "'\"'\"'s'"
    assert capsys.readouterr().out.endswith(f"check it with: robots-theme check {quoted}\n")


@pytest.mark.parametrize("leftover", ["folder", "file", "link-to-folder", "dangling-link"])
def test_new_replaces_what_an_interrupted_new_left_without_following_links(
    leftover: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``.NAME.tmp`` that is a link made ``new`` end in a traceback (rmtree refuses links);
    the link is removed, never followed, so what it points at is left alone."""
    decoy = tmp_path / "decoy"
    decoy.mkdir()
    (decoy / "keep.txt").write_text("mine")
    parent = tmp_path / "themes"
    parent.mkdir()
    staging = parent / ".mine.tmp"
    if leftover == "folder":
        staging.mkdir()
        (staging / "half.png").write_bytes(b"half")
    elif leftover == "file":
        staging.write_text("half")
    else:
        staging.symlink_to(decoy if leftover == "link-to-folder" else tmp_path / "nowhere")
    assert main(["new", "mine", "--from", "pen", "--dir", str(parent)]) == 0
    capsys.readouterr()
    assert (parent / "mine" / "goal.png").is_file() and not staging.is_symlink() and not staging.exists()
    assert (decoy / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize("bad", ["", ".", "..", "a/b"])
def test_new_rejects_unusable_names(bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", bad, "--dir", str(tmp_path)]) == 2
    assert "is not a usable folder name" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["new", "import"])
def test_a_name_that_is_not_utf8_is_one_line_and_leaves_nothing(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``robots-theme new $'th\\xff'`` (a Latin-1 terminal): theme.json could not hold the name;
    it was a traceback and a ``.th\\xff.tmp`` staging folder left in the user's theme folder."""
    name = os.fsdecode(b"th\xff")
    args = ["new", name] if command == "new" else ["import", str(tmp_path / "sheet.png"), name]
    assert main([*args, "--dir", str(tmp_path / "themes")]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == ["robots-theme: th\\xff: a theme's name must be UTF-8 text"]
    assert not (tmp_path / "themes").exists() or list((tmp_path / "themes").iterdir()) == []


def test_sheet_out_must_be_a_png_name(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A PNG written under a .txt or .jpg name would mislead: refuse it in one line, write nothing."""
    for name in ("sheet.txt", "sheet.jpg", "sheet"):
        assert main(["sheet", "pen", "--out", str(tmp_path / name)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("robots-theme: ") and ".png" in err
        assert not (tmp_path / name).exists()


@pytest.mark.parametrize("command", ["sheet", "template"])
def test_out_keeps_a_symlink_and_a_file_named_like_the_old_temporary(command: str, tmp_path: Path) -> None:
    """The PNG went to OUT.tmp and was renamed over OUT: a file of that name was lost, a symlink
    at OUT became a plain file. Now OUT's link target is written and nothing else is touched."""
    (tmp_path / "decoy.bin").write_text("old")
    (tmp_path / "out.png").symlink_to("decoy.bin")
    (tmp_path / "out.png.tmp").write_text("mine")
    argv = [command, "pen", "--out", str(tmp_path / "out.png")] + (["--columns", "8"] if command == "sheet" else [])
    assert main(argv) == 0
    assert (tmp_path / "out.png").is_symlink() and (tmp_path / "out.png.tmp").read_text() == "mine"
    with Image.open(tmp_path / "decoy.bin") as picture:
        assert picture.format == "PNG"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["decoy.bin", "out.png", "out.png.tmp"]


@pytest.mark.parametrize("kind", ["fifo", "folder"])
@pytest.mark.parametrize("command", ["sheet", "template"])
def test_out_that_is_not_a_regular_file_is_refused(
    command: str, kind: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A FIFO at OUT was replaced by the picture; a folder left OUT.tmp behind and named it."""
    out = tmp_path / "out.png"
    if kind == "fifo":
        os.mkfifo(out)
    else:
        out.mkdir()
    assert main([command, "pen", "--out", str(out)]) == 2
    what = "FIFO (named pipe)" if kind == "fifo" else "folder"
    assert capsys.readouterr().err.strip() == f"robots-theme: {out}: is a {what}, not a file: refusing to replace it"
    assert os.listdir(tmp_path) == ["out.png"] and (
        out.is_dir() if kind == "folder" else stat.S_ISFIFO(os.lstat(out).st_mode)
    )


@pytest.mark.parametrize("command", ["sheet", "template"])
def test_ctrl_c_is_one_line_and_status_130_and_writes_nothing(
    command: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the picture was drawn printed a traceback."""
    import themes.cli

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(themes.cli, "contact_sheet" if command == "sheet" else "template_sheet", interrupted)
    assert main([command, "pen", "--out", str(tmp_path / "out.png")]) == 130
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "robots-theme: interrupted\n")
    assert os.listdir(tmp_path) == []


def test_an_unknown_theme_is_named_after_the_tool_with_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As robots-view and robots-edit say it for --theme (it was a bare line and status 1)."""
    assert main(["sheet", "nosuch", "--out", str(tmp_path / "s.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("robots-theme: no theme called 'nosuch'") and err.count("\n") == 1, err
    assert main(["template", "nosuch", "--out", str(tmp_path / "s.png")]) == 2
    assert capsys.readouterr().err.startswith("robots-theme: no theme called 'nosuch'")


def test_new_keeps_what_the_copied_theme_says_of_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The copy looks like its origin: base (a relative path made absolute, it was read from the
    origin's folder), backdrop and 3D settings are kept; no start marker choice stays none (it was
    written as null, which the copy's own check then refused)."""
    from themes import load_theme
    from themes.manifest import Look

    base = tmp_path / "my-base"
    shutil.copytree(BUILTIN_DIR / "pen", base)
    origin = tmp_path / "origin"
    origin.mkdir()
    shutil.copy(BUILTIN_DIR / "default" / "floor.png", origin / "floor.png")
    (origin / "theme.json").write_text(
        '{"name": "Origin", "author": "me", "base": "../my-base", "backdrop": "#102030",\n'
        ' "3d": {"wall_colour": "#404850", "light": 1.5}}\n'
    )
    bare = tmp_path / "bare"
    bare.mkdir()
    shutil.copy(BUILTIN_DIR / "default" / "floor.png", bare / "floor.png")
    out = tmp_path / "out"
    assert main(["new", "copy", "--from", str(origin), "--dir", str(out)]) == 0
    assert main(["new", "plain", "--from", str(bare), "--dir", str(out)]) == 0
    capsys.readouterr()
    copy = load_theme(str(out / "copy")).manifest
    assert (copy.name, copy.author, copy.base, copy.backdrop) == ("copy", "", str(base.resolve()), (16, 32, 48))
    assert copy.look == Look(wall_colour=(64, 72, 80), light=1.5) and copy.start_marker is None
    assert load_theme(str(out / "copy")).tile("goal").tobytes() == load_theme("pen").tile("goal").tobytes()
    assert main(["check", str(out / "plain")]) == 1
    assert "start_marker" not in capsys.readouterr().err
    assert '"start_marker"' not in (out / "plain" / "theme.json").read_text()
