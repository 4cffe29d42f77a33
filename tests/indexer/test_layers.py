"""Layers point one way: the service reads what the indexer writes, and the indexer never imports the
service; evaluation and fitting the ranker, which read both, live beside the benchmarks; and no two
modules import each other (two such modules are one, or a third is missing)."""

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


def modules() -> dict[str, Path]:
    """Every module of indexer/, service/ and benchmarks/ by its dotted name."""
    found = {}
    for package in ("indexer", "service", "benchmarks"):
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def depends_on(path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules a file imports (``from package import module`` counted as the module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            inner = {f"{node.module}.{alias.name}" for alias in node.names} & known.keys()
            found |= inner or {node.module}
    return found & known.keys()


def test_no_two_modules_import_each_other():
    known = modules()
    needs = {name: depends_on(path, known) - {name} for name, path in known.items()}
    both_ways = sorted({tuple(sorted((a, b))) for a in needs for b in needs[a] if a in needs.get(b, ())})
    assert not both_ways, both_ways
