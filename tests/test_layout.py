"""The package layout docs/architecture.md describes: packages import only the layers before them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "engram"
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def documented_layers() -> list[set[str]]:
    """Return the layers the architecture doc lists ("each using only those listed before it: …")."""
    text = " ".join(ARCHITECTURE.read_text(encoding="utf-8").split())
    listed = re.search(r"each using only those listed before it: (.*?)\.", text)
    assert listed is not None, "docs/architecture.md no longer lists the layers"
    return [set(re.findall(r"`(\w+)`", layer)) for layer in listed.group(1).split(";")]


def imports_between_packages() -> dict[str, set[str]]:
    """Return, per package of src/engram, the other packages (or top-level modules) it imports."""
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    found: dict[str, set[str]] = {name: set() for name in packages}
    for package in packages:
        for module in (SRC / package).rglob("*.py"):
            for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engram."):
                    target = node.module.split(".")[1]
                    if target != package and target in packages:
                        found[package].add(target)
    return found


def test_packages_import_only_the_layers_before_them() -> None:
    layers = documented_layers()
    rank = {name: position for position, layer in enumerate(layers) for name in layer}
    imports = imports_between_packages()
    missing = set(imports) - set(rank)
    assert not missing, f"packages missing from docs/architecture.md: {missing}"
    wrong = {
        (package, target)
        for package, targets in imports.items()
        for target in targets
        if rank.get(target, len(layers)) >= rank[package]
    }
    assert wrong == set(), f"imports against the documented layering: {sorted(wrong)}"
