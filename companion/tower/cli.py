"""``keshi tower ...``: the tower's subcommands, contributed by the firmware and fairness code."""

from __future__ import annotations

import argparse
import importlib

#: Modules that add subcommands under ``keshi tower``.
TOWER_SUBCOMMAND_MODULES: tuple[str, ...] = ("firmware.cli", "companion.fairness.cli")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``keshi tower`` and its subcommands."""
    tower = subparsers.add_parser("tower", help="check the tower's wiring, simulate tosses, report fairness")
    tower_sub = tower.add_subparsers(dest="tower_command", metavar="TOWER_COMMAND")
    tower_sub.required = True
    for module_name in TOWER_SUBCOMMAND_MODULES:
        importlib.import_module(module_name).register(tower_sub)
