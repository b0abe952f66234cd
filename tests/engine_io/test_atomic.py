"""Atomic writes: errors name the user's file, never the hidden temporary file next to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.atomic import write_bytes_atomic, write_text_atomic


def test_missing_folder_error_names_the_target(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "deck.dat"
    with pytest.raises(FileNotFoundError) as info:
        write_text_atomic(target, "MF 1\n")
    assert info.value.filename == str(target)
    assert not (tmp_path / "no").exists()


def test_folder_that_is_a_file_error_names_the_target(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("in the way")
    target = tmp_path / "afile" / "out.png"
    with pytest.raises(OSError) as info:
        write_bytes_atomic(target, b"x")
    assert info.value.filename == str(target)
    assert (tmp_path / "afile").read_text() == "in the way"


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_device_node_is_refused_not_replaced(tmp_path: Path) -> None:
    """As root, the old writer renamed over /dev/null; a device is never replaced."""
    import os
    import stat

    before = os.stat("/dev/null")
    with pytest.raises(FileExistsError) as info:
        write_text_atomic("/dev/null", "x")
    assert info.value.filename == "/dev/null" and "device" in str(info.value)
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_fifo_and_symlink_to_fifo_are_refused(tmp_path: Path) -> None:
    import os
    import stat

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)
    for target in (fifo, link):
        with pytest.raises(FileExistsError) as info:
            write_text_atomic(target, "x")
        assert info.value.filename == str(target) and "FIFO" in str(info.value)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and link.is_symlink()
    assert _leftovers(tmp_path) == []


def test_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(IsADirectoryError) as info:
        write_text_atomic(tmp_path / "d", "x")
    assert info.value.filename == str(tmp_path / "d") and (tmp_path / "d").is_dir()


def test_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    real = real_dir / "deck.dat"
    real.write_text("old\n")
    link = tmp_path / "deck.dat"
    link.symlink_to(Path("real") / "deck.dat")  # relative, resolved against the link's folder
    write_text_atomic(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"
    dangling = tmp_path / "later.dat"
    dangling.symlink_to(real_dir / "later.dat")
    write_text_atomic(dangling, "made\n")
    assert dangling.is_symlink() and (real_dir / "later.dat").read_text() == "made\n"


def test_symlink_loop_is_refused(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(OSError) as info:
        write_text_atomic(a, "x")
    assert info.value.filename == str(a)


def test_permissions_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "board.txt"
    target.write_text("old")
    target.chmod(0o640)
    write_text_atomic(target, "new")
    assert target.stat().st_mode & 0o7777 == 0o640 and target.read_text() == "new"
    fresh = tmp_path / "fresh.txt"
    write_text_atomic(fresh, "x")
    assert fresh.stat().st_mode & 0o777 == 0o644


def test_full_disk_leaves_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    target = tmp_path / "deck.dat"
    target.write_text("old\n")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as info:
        write_text_atomic(target, "new\n")
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(target)
    assert target.read_text() == "old\n" and _leftovers(tmp_path) == []


def test_write_files_atomic_is_all_or_nothing(tmp_path: Path) -> None:
    from engine.atomic import write_files_atomic

    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("old a")
    (tmp_path / "blocked").mkdir()
    with pytest.raises(IsADirectoryError) as info:
        write_files_atomic({first: "new a", tmp_path / "blocked": "x", second: "new b"})
    assert info.value.filename == str(tmp_path / "blocked")
    assert first.read_text() == "old a" and not second.exists() and _leftovers(tmp_path) == []
    write_files_atomic({first: "new a", second: "new b"})
    assert (first.read_text(), second.read_text()) == ("new a", "new b")


def test_read_only_file_is_refused_and_kept(tmp_path: Path) -> None:
    """A rename needs only the folder's permission: 'robots-engine save deck.dat' replaced a
    chmod 444 deck.dat (as any user, not only root). A read-only file is refused, also through a
    symlink, and stays as it was; in an AI's folder (no following) it is replaced as before."""
    target = tmp_path / "deck.dat"
    target.write_text("mine\n")
    target.chmod(0o444)
    link = tmp_path / "link.dat"
    link.symlink_to(target)
    for given in (target, link):
        with pytest.raises(PermissionError) as info:
            write_text_atomic(given, "new\n")
        assert info.value.filename == str(given) and "read-only" in str(info.value)
    assert target.read_text() == "mine\n" and _leftovers(tmp_path) == []
    write_text_atomic(target, "ai's\n", follow_symlinks=False)
    assert target.read_text() == "ai's\n"


def test_atomic_output_renames_on_success_only(tmp_path: Path) -> None:
    from engine.atomic import atomic_output

    target = tmp_path / "replay.mp4"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_output(target) as tmp:
        assert tmp.parent == tmp_path and tmp.name.startswith(".replay.mp4.") and tmp.name.endswith(".tmp")
        tmp.write_bytes(b"half")
        raise RuntimeError("the encoder died")
    assert target.read_bytes() == b"old" and _leftovers(tmp_path) == []
    with atomic_output(target) as tmp:
        tmp.write_bytes(b"new")
    assert target.read_bytes() == b"new" and _leftovers(tmp_path) == []
    os_fifo = tmp_path / "pipe.mp4"
    import os

    os.mkfifo(os_fifo)
    with pytest.raises(FileExistsError), atomic_output(os_fifo):
        pass


def test_open_log_refuses_a_fifo_without_waiting(tmp_path: Path) -> None:
    """robots-tron's --log, robots-engine start's rounds.jsonl and an AI's log waited for ever on a FIFO."""
    import os

    from engine.atomic import open_log
    from tests.fifo_guard import never_stuck_on

    fifo = tmp_path / "talk.log"
    os.mkfifo(fifo)
    with never_stuck_on(fifo) as knocked, pytest.raises(FileExistsError) as info:
        open_log(fifo, append=False)
    assert info.value.filename == str(fifo) and "FIFO" in str(info.value) and not knocked


def test_open_log_in_an_ai_folder_replaces_a_planted_link(tmp_path: Path) -> None:
    """An AI running in robots-engine start's folder linked bot-ki.log (and rounds.jsonl) to a
    file of the user's: the engine emptied that file and wrote its log into it."""
    import os

    from engine.atomic import open_log

    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    game = tmp_path / "game"
    game.mkdir()
    (game / "bot-ki.log").symlink_to(victim)
    os.mkfifo(game / "rounds.jsonl")
    for name in ("bot-ki.log", "rounds.jsonl"):
        with open_log(game / name, append=name == "rounds.jsonl", follow_symlinks=False) as handle:
            handle.write(b"ours\n")
        assert not (game / name).is_symlink() and (game / name).read_bytes() == b"ours\n"
    assert victim.read_text() == "keep me\n"
    # a user's own link is followed, as every save does
    (game / "mine.log").symlink_to(victim)
    with open_log(game / "mine.log") as handle:
        handle.write(b"more\n")
    assert victim.read_text() == "keep me\nmore\n" and (game / "mine.log").is_symlink()
