"""Files the programs load at run time (shaders, themes, the shipped boards), found inside the
installed packages with ``importlib.resources``, never through paths relative to a checkout.

A file that is missing is an installation problem, not bad input and not a write error, so it
has its own exception whose message names the package and the file.
"""

from __future__ import annotations

import atexit
from contextlib import ExitStack
from importlib import resources
from pathlib import Path

_extracted = ExitStack()  # files extracted from a zipped install live until the process ends
atexit.register(_extracted.close)


class ResourceMissing(Exception):
    """A file that should ship inside an installed package is not there."""

    def __init__(self, package: str, name: str) -> None:
        self.package = package
        self.name = name
        super().__init__(
            f"{package.replace('.', '/')}/{name}: missing from the installed package "
            "(a broken install: reinstall robots)"
        )


def resource_path(package: str, name: str) -> Path:
    """The file or folder ``name`` (``/``-separated) inside ``package`` as a real path."""
    try:
        root = resources.files(package)
    except ModuleNotFoundError:
        raise ResourceMissing(package, name) from None
    item = root.joinpath(*name.split("/"))
    if isinstance(item, Path):
        if not item.exists():
            raise ResourceMissing(package, name)
        return item
    if not item.is_file():  # zipped installs: only single files can be extracted portably
        raise ResourceMissing(package, name)
    return _extracted.enter_context(resources.as_file(item))


def read_resource_text(package: str, name: str) -> str:
    """A text file shipped inside ``package`` (UTF-8)."""
    return resource_path(package, name).read_text(encoding="utf-8")
