"""The codes the shaders share with the scene builder come from Python as #defines: no shader
compares a tile kind or a material with a number of its own."""

from __future__ import annotations

import re
from pathlib import Path

from viewer3d.render import scene
from viewer3d.render.meshes import MATERIAL_DECAL
from viewer3d.render.renderer import shader_constants

SHADERS = sorted(Path(scene.__file__).parent.glob("*.[vf]*"))


def test_every_kind_and_material_is_defined_with_its_python_value() -> None:
    defined = dict(line.split(" ", 1) for line in shader_constants() if not line.startswith("IS_MATERIAL"))
    for name in dir(scene):
        if name.startswith("KIND_") and name not in ("KIND_CODE",) and isinstance(getattr(scene, name), int):
            assert defined[name] == f"{getattr(scene, name)}u", name
        if name.startswith("MATERIAL_"):
            assert float(defined[name]) == getattr(scene, name), name
    assert float(defined["MATERIAL_DECAL"]) == MATERIAL_DECAL
    assert defined["DIRECTION_VECTORS"].startswith("vec2[4](vec2(-1.0, 0.0), vec2(1.0, 0.0)")


def test_shaders_use_the_names_not_literals() -> None:
    assert SHADERS
    offenders = []
    for path in SHADERS:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            code = line.split("//")[0]
            if re.search(r"\bkind\s*==\s*\d|&\s*15u|>>\s*4u|material\s*[<>]", code):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []
