"""theme.json: ``write_manifest`` writes what ``read_manifest`` reads back, exactly."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import themes.manifest as manifest_module
from themes.loader import BUILTIN_DIR
from themes.manifest import MANIFEST_FILE, Look, Manifest, read_manifest, write_manifest

colours = st.tuples(*[st.integers(0, 255)] * 3)
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
names = texts.filter(lambda t: bool(t.strip()))
looks = st.builds(
    Look,
    wall_colour=st.none() | colours,
    robot_colour=st.none() | colours,
    wall_height=st.none() | st.floats(0.05, 1.5),
    light=st.none() | st.floats(0.2, 2.0),
)
manifests = st.builds(
    Manifest,
    name=names,
    author=texts,
    licence=texts,
    start_marker=st.none() | st.booleans(),
    base=st.none() | names,
    backdrop=colours,
    look=looks,
)


def _read(text: str) -> tuple[Manifest, list[str]]:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / MANIFEST_FILE).write_text(text, encoding="utf-8")
        problems: list[str] = []
        return read_manifest(Path(folder), problems), problems


@given(manifests)
def test_any_manifest_round_trips_exactly(manifest: Manifest) -> None:
    text = write_manifest(manifest)
    read, problems = _read(text)
    assert problems == [] and read == manifest
    assert write_manifest(read) == text


def test_the_shipped_manifests_are_what_the_writer_writes() -> None:
    for theme in ("default", "pen"):
        text = (BUILTIN_DIR / theme / MANIFEST_FILE).read_text(encoding="utf-8")
        read, problems = _read(text)
        assert problems == [] and write_manifest(read) == text


def test_every_theme_json_the_package_writes_goes_through_the_writer() -> None:
    """``robots-theme new`` and ``import`` and the shipped themes' generator: one writer, so none
    writes what the reader refuses (``new`` wrote ``"start_marker": null``)."""
    themes = Path(manifest_module.__file__).parent
    own = [
        str(path.relative_to(themes))
        for path in sorted(themes.rglob("*.py"))
        if "json.dumps(manifest" in path.read_text(encoding="utf-8")
    ]
    assert own == []
