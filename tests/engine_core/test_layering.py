"""The engine must not depend on the front ends (the viewer, the editor, the themes, the path
prompts): they consume it, never the reverse. An import inside a function counts as much as one at
the top of a module (it only runs later), and so does a module named to ``importlib``."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("viewer3d", "editor", "themes", "pathui", "pyglet", "moderngl")
DYNAMIC = ("import_module", "__import__")


def front_end_imports(source: str, name: str = "<text>") -> list[str]:
    """Every front-end module ``source`` imports, wherever it stands: top level, inside a function
    or class, or named as a string to ``importlib.import_module``/``__import__``."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in DYNAMIC and isinstance(node.args[0].value, str):
                names.append(node.args[0].value)
    return [n for n in names if n.split(".")[0] in FORBIDDEN]


def test_the_check_sees_lazy_and_dynamic_imports() -> None:
    source = (
        "import json\n"
        "def show():\n"
        "    from viewer3d.app import App\n"
        "    import pathui.prompt\n"
        "class Later:\n"
        "    def run(self):\n"
        "        import importlib\n"
        "        importlib.import_module('editor.window')\n"
        "        __import__('themes')\n"
        "        importlib.import_module('engine.rules')\n"
    )
    assert front_end_imports(source) == ["viewer3d.app", "pathui.prompt", "editor.window", "themes"]


def test_engine_imports_nothing_from_the_front_ends() -> None:
    offenders = [
        f"{path.relative_to(ENGINE.parent)}: {name}"
        for path in sorted(ENGINE.rglob("*.py"))
        for name in front_end_imports(path.read_text(encoding="utf-8"), str(path))
    ]
    assert offenders == []
