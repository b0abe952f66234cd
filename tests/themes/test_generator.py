"""The theme generator is deterministic: regenerating gives the committed PNGs pixel for pixel."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from themes.loader import BUILTIN_DIR
from themes.make import GENERATORS, write_theme
from themes.make.__main__ import main


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_regenerating_reproduces_the_committed_pngs(tmp_path: Path, name: str) -> None:
    written = write_theme(name, tmp_path / name)
    shipped = BUILTIN_DIR / name
    committed = sorted(str(p.relative_to(shipped)) for p in shipped.rglob("*") if p.suffix in (".png", ".json"))
    assert sorted(str(p.relative_to(tmp_path / name)) for p in written) == committed  # tron/ pictures too
    assert "tron/floor.png" in committed and "tron/blocked.png" in committed
    for path in written:
        relative = path.relative_to(tmp_path / name)
        if path.suffix == ".json":
            assert json.loads(path.read_text()) == json.loads((shipped / relative).read_text())
            continue
        with Image.open(path) as new, Image.open(shipped / relative) as old:
            np.testing.assert_array_equal(
                np.asarray(new.convert("RGBA")),
                np.asarray(old.convert("RGBA")),
                err_msg=f"{name}/{relative} differs: run python3 -m themes.make",
            )


def test_main_writes_into_out_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--out", str(tmp_path), "default"]) == 0
    assert (tmp_path / "default" / "robot.png").is_file() and not (tmp_path / "pen").exists()
    assert (tmp_path / "default" / "tron" / "floor.png").is_file()
    assert "default: 26 files" in capsys.readouterr().out
