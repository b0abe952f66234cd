"""The source distribution as a packager gets it: the whole tracked tree, so that README's links
into docs/ resolve and the tests can run from the unpacked archive.

setuptools on its own packs only the packages and their data; MANIFEST.in grafts the rest. Building
needs the package index (``build`` and the build backend are installed into a throw-away
environment), like the wheel test beside this one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile

import pytest

from tests.install.test_wheel import ROOT, _checked, _tracked_copy

#: Tracked, but of no use in an archive of the sources.
NOT_SHIPPED = (".gitignore",)


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Every file of the built archive (path without the top folder -> contents)."""
    base = tmp_path_factory.mktemp("sdist")
    source, dist, venv = base / "src", base / "dist", base / "venv"
    source.mkdir()
    _tracked_copy(source)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_REQUIRE_VIRTUALENV", "VIRTUAL_ENV")}
    _checked(
        subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, timeout=300),
        "creating the virtual environment",
    )
    python = str(venv / "bin" / "python")
    _checked(
        subprocess.run(
            [python, "-m", "pip", "install", "-q", "build"], env=env, capture_output=True, text=True, timeout=600
        ),
        "installing build",
    )
    _checked(
        subprocess.run(
            [python, "-m", "build", "--sdist", "--outdir", str(dist), str(source)],
            cwd=base,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        ),
        "building the sdist",
    )
    (archive,) = dist.glob("robots-*.tar.gz")
    files: dict[str, bytes] = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            read = tar.extractfile(member) if member.isfile() else None
            if read is not None:
                files[member.name.split("/", 1)[1]] = read.read()
    return files


@pytest.fixture(scope="module")
def sdist_names(sdist: dict[str, bytes]) -> set[str]:
    return set(sdist)


def _tracked() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in listed.decode().split("\0") if name and (ROOT / name).is_file()]


def test_sdist_holds_every_tracked_file(sdist_names: set[str]) -> None:
    missing = [name for name in _tracked() if name not in sdist_names and name not in NOT_SHIPPED]
    assert missing == []


def test_sdist_holds_no_caches(sdist_names: set[str]) -> None:
    assert [name for name in sdist_names if "__pycache__" in name or name.endswith(".pyc")] == []


def test_readme_links_resolve_inside_the_sdist(sdist_names: set[str]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = {link.split("#")[0] for link in re.findall(r"\]\(([^)\s]+)\)", readme)}
    local = sorted(t for t in targets if t and "://" not in t and not t.startswith("mailto:"))
    assert local, "README links to its docs"
    assert [
        t for t in local if t.rstrip("/") not in sdist_names and not any(n.startswith(t) for n in sdist_names)
    ] == []


def test_metadata_says_what_the_project_is(sdist: dict[str, bytes]) -> None:
    """PyPI and pip show it: the licence, the Python versions, what kind of program it is."""
    info = sdist["PKG-INFO"].decode()
    assert "License-Expression: GPL-3.0-or-later" in info
    assert "Requires-Python: >=3.11" in info
    classifiers = [line.split(": ", 1)[1] for line in info.splitlines() if line.startswith("Classifier: ")]
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert "Operating System :: POSIX :: Linux" in classifiers
