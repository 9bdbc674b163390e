"""The structure a newcomer can hold (docs/architecture.md): no import circle between files, no source file
over 700 lines — checked by the same script that draws the layers (tools/import_layers.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "import_layers.py"


def _layers_module():
    spec = importlib.util.spec_from_file_location("import_layers", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_source_has_no_import_circle_and_no_long_file():
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 circles, 0 files over 700 lines" in done.stdout


def test_the_layers_are_drawn_from_the_code():
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=120)
    lines = done.stdout.splitlines()
    assert lines[0].startswith(" 0: ") and "errors" in lines[0]  # the bottom layer imports nothing of agentunit
    assert any("cli{" in line for line in lines[1:])


def test_a_new_circle_or_a_long_file_is_found(tmp_path):
    """The check itself: a package whose two modules import each other, and a long file, fail it."""
    layers = _layers_module()
    package = tmp_path / "agentunit"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from agentunit.b import thing\n")
    (package / "b.py").write_text("def thing():\n    from agentunit import a\n")
    (package / "c.py").write_text("import agentunit.a\n" + "x = 1\n" * 701)
    (package / "d.py").write_text(textwrap.dedent("""
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from agentunit import c
    """))
    known = layers.modules(tmp_path)
    graph = {name: layers.imports(name, path, known) for name, path in known.items()}
    assert layers.circles(graph) == [["agentunit.a", "agentunit.b"]]
    assert graph["agentunit.d"] == set()  # TYPE_CHECKING imports do not count
    assert [path.name for path, _ in layers.long_files(known)] == ["c.py"]
