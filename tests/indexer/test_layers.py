"""Layers point one way: the service reads what the indexer writes, and the indexer never imports the
service; evaluation and fitting the ranker, which read both, live beside the benchmarks."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, at its top or inside a function: (line, module)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.append((node.lineno, node.module or ""))
    return found


def test_no_module_of_the_indexer_imports_the_service_or_the_benchmarks():
    wrong = [f"{path.relative_to(ROOT)}:{line} imports {module}"
             for path in sorted((ROOT / "indexer").rglob("*.py"))
             for line, module in imported(path) if module.split(".")[0] in ("service", "benchmarks")]
    assert not wrong, wrong


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "late.py"
    module.write_text("def f():\n    from service.library import Library\n    import benchmarks.evaluate\n", encoding="utf-8")
    assert imported(module) == [(2, "service.library"), (3, "benchmarks.evaluate")]


def test_building_an_index_loads_no_module_of_the_service():
    code = "import sys, indexer.build, indexer.added; assert not [m for m in sys.modules if m.startswith('service')]"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
