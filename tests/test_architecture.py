"""The house's floors hold: no import circle between files, and the import contracts of pyproject.toml.

The contracts (the table service without Flask; web over table over games; three games independent
of one another; pure game engines; firmware and vision reaching into companion only for its ground
floor) are import-linter's, run by
`make lint` (`lint-imports`). Here each is shown to catch the import it forbids, on a copy of the
tree. The circle check is this file's own: import-linter's acyclic contract compares packages, while a
circle between two files of one package (``scoring`` ↔ ``scrolls``) is what makes import order matter.
Imports under ``if TYPE_CHECKING:`` are for types only and do not count.
"""

from __future__ import annotations

import graphlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "firmware", "vision")


def circle_in(imports: dict[str, set[str]]) -> list[str] | None:
    """One circle in ``imports`` (module -> the modules it imports), as the modules along it, or None."""
    try:
        tuple(graphlib.TopologicalSorter(imports).static_order())
    except graphlib.CycleError as circle:
        found: list[str] = circle.args[1]
        return found
    return None


@pytest.fixture(scope="module")
def imports() -> dict[str, set[str]]:
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)
    return {module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules}


def test_no_file_imports_itself_through_others(imports: dict[str, set[str]]) -> None:
    circle = circle_in(imports)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


@pytest.mark.parametrize("importer", ["companion.games.marrakesh.scrolls", "companion.table.service", "vision.detect"])
def test_the_circle_check_finds_a_circle_between_two_files(imports: dict[str, set[str]], importer: str) -> None:
    """The check is not vacuous: one of ``importer``'s imports turned round (as scoring ↔ scrolls was) is found."""
    imported = sorted(imports[importer])[0]
    with_circle = {**imports, imported: imports[imported] | {importer}}
    assert {importer, imported} <= set(circle_in(with_circle) or [])


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the project's contracts on the packages under ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports;"
                           " sys.exit(lint_imports(no_cache=True))"],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the packages and pyproject.toml, to break."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_contracts_hold_on_the_tree_as_it_is(tree: Path) -> None:
    result = lint_imports(tree)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("companion/table/views.py", "from flask import request", "The table service works without the web framework"),
    ("companion/games/marrakesh/board.py", "import companion.table.service",
     "The web room sits on the table service, which sits on the game engines"),
    ("companion/games/morocco/scoring.py", "import sqlite3", "The game engines are pure"),
    ("companion/games/morocco/errors.py", "from companion.games.marrakesh import errors",
     "The three games know nothing of one another"),
    ("vision/detect.py", "from companion.tower import model", "firmware/ and vision/ reach into companion only"),
    ("firmware/pintest.py", "from companion.tower.model import SimulatedTower",
     "firmware/ and vision/ reach into companion only"),
])
def test_each_contract_catches_the_import_it_forbids(tree: Path, module: str, line: str, contract: str) -> None:
    path = tree / module
    path.write_text(path.read_text() + f"\n{line}  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode == 1, result.stdout
    broken = result.stdout.split("Broken contracts", 1)[-1]
    assert contract in " ".join(broken.split()), result.stdout


def layout_rows() -> list[tuple[list[str], list[str]]]:
    """The README's layout table: per row, the folders it is about and the paths it names in its text."""
    text = (ROOT / "README.md").read_text()
    table = text.split("| folder | what it holds |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:
        folder_cell, what = line.strip("|").split("|", 1)
        rows.append((re.findall(r"`([^`]+)`", folder_cell), re.findall(r"`([^`]+)`", what)))
    return rows


def named_paths(folders: list[str], names: list[str]) -> list[Path]:
    """Where the names of one row point: a folder relative to the row's first folder's parent, a file or
    folder relative to the row's first folder, or to the project when it starts with a top-level folder."""
    first = ROOT / folders[0]
    paths = [first] + [first.parent / folder for folder in folders[1:]]
    for name in names:
        if not re.fullmatch(r"[\w./*-]+", name) or "." not in name and not name.endswith("/"):
            continue  # a command, a class, a placeholder: not a path
        base = ROOT if name.split("/", 1)[0] in {p.name for p in ROOT.iterdir()} else first
        paths.append(base / name)
    return paths


def test_the_readme_layout_table_matches_the_tree() -> None:
    rows = layout_rows()
    named = [path for folders, names in rows for path in named_paths(folders, names)]
    missing = [str(path.relative_to(ROOT)) for path in named if not list(path.parent.glob(path.name))]
    assert missing == [], f"the README's layout table names what is not there: {missing}"
    tops = {folders[0].rstrip("/") for folders, _ in rows}
    assert {"firmware", "vision", "companion", "tests", "hardware", "benchmarks"} <= tops
    packages = {path.parent for path in (ROOT / "companion").glob("*/__init__.py")}
    unnamed = sorted(str(p.relative_to(ROOT)) for p in packages if p not in {n.resolve() for n in named})
    assert unnamed == [], f"packages the README's layout table does not name: {unnamed}"
