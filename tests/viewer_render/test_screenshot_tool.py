"""``python -m viewer3d.render.screenshots`` with no folder writes to ``docs/img`` of the current
folder, as ``python -m editor.screenshots`` does. It was ``docs/img`` beside the package, which
in an installed copy is ``site-packages/docs/img``: a folder pip never removes."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer3d.render import screenshots


def test_default_folder_is_docs_img_of_the_current_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[Path] = []
    monkeypatch.setattr(screenshots, "export_static", lambda path, *rest, **named: written.append(Path(path)))
    monkeypatch.chdir(tmp_path)
    assert screenshots.main([]) == 0
    assert len(written) == 5
    assert all((tmp_path / path).parent.resolve() == (tmp_path / "docs" / "img").resolve() for path in written)
